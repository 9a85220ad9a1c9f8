// The `live` part of `npm run bench` (docs/concepts/live-updates.md): how many live streams one
// API process holds, and how long a score takes to reach every screen watching its board
// (score-to-screen: from sending the score to each client parsing the board event that shows it)
// with BENCH_LIVE_CLIENTS (1000) clients connected. The API runs in a child process on PGlite,
// as the http part's does; the clients are plain HTTP streams in this process.
//
// Knobs: BENCH_LIVE_CLIENTS (1000), BENCH_LIVE_SCORES (40), BENCH_LIVE_MAX (10000: the most
// streams the capacity step opens), BENCH_LIVE_STEP (1000).
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { forkTarget, serverNodeArgs, writeTokens } from './target.mjs';
import { summarize } from './load.mjs';

const env = process.env;
const CLIENTS = Number(env['BENCH_LIVE_CLIENTS'] ?? 1000);
const SCORES = Number(env['BENCH_LIVE_SCORES'] ?? 40);
const MAX = Number(env['BENCH_LIVE_MAX'] ?? 10_000);
const STEP = Number(env['BENCH_LIVE_STEP'] ?? 1000);
/** A client that sees no board event this long after a score counts as missed. */
const WAIT_MS = 15_000;

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** One public board stream; `onData` gets each chunk of text. Resolves once the answer is 200. */
function openStream(url, onData) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      res.on('data', onData);
      res.on('error', () => undefined);
      resolve(() => req.destroy());
    });
    req.on('error', reject);
  });
}

async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb === undefined ? null : Math.round(Number(kb) / 1024);
}

async function post(url, path, token, body) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Score-to-screen latency with `CLIENTS` streams on one board, then capacity. */
export async function liveBench(log) {
  const target = forkTarget(serverNodeArgs);
  const closers = [];
  try {
    const info = await target.call('start-api', {
      options: { store: 'pglite', games: 1, players: SCORES, fundHst: 1000 },
    });
    const [game] = info.games;
    const [tier] = await writeTokens(info.url, info.games);
    const streamUrl = `${info.url}/catalog/games/${game.gameId}/events`;

    // Each client waits for the board event that carries the score it is told to look for.
    let wanted = null;
    const clients = [];
    for (let i = 0; i < CLIENTS; i++) {
      const client = { seen: null, tail: '' };
      closers.push(
        await openStream(streamUrl, (chunk) => {
          if (wanted === null || client.seen !== null) return;
          const text = client.tail + chunk;
          if (text.includes(wanted.needle)) client.seen = performance.now() - wanted.at;
          client.tail = text.slice(-wanted.needle.length);
        }),
      );
      clients.push(client);
    }
    log(`live: ${CLIENTS} streams open (server RSS ${await rssMb(target.pid)} MB)`);

    const latencies = [];
    let missed = 0;
    for (let i = 0; i < SCORES; i++) {
      const playerId = info.playerIds[i];
      const score = 1_000_000 + i;
      const base = `/arcades/${info.arcadeId}/games/${game.gameId}`;
      const play = await post(info.url, `${base}/play`, tier.token, {
        playerId,
        leaderboardId: tier.leaderboardId,
      });
      for (const c of clients) {
        c.seen = null;
        c.tail = '';
      }
      wanted = { needle: `"score":${score}`, at: performance.now() };
      await post(info.url, `${base}/score`, tier.token, {
        playId: play.id,
        leaderboardId: tier.leaderboardId,
        score,
      });
      const deadline = Date.now() + WAIT_MS;
      while (clients.some((c) => c.seen === null) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
      }
      for (const c of clients) {
        if (c.seen === null) missed++;
        else latencies.push(c.seen);
      }
      wanted = null;
    }
    const latency = summarize(latencies);
    log(
      `live: score-to-screen p50 ${latency.p50?.toFixed(1)} ms, p99 ${latency.p99?.toFixed(1)} ms`,
    );

    // Capacity: more streams, a step at a time, until the most asked for or a refusal.
    let held = CLIENTS;
    let refused = null;
    while (held < MAX) {
      const step = Math.min(STEP, MAX - held);
      try {
        const opened = await Promise.all(
          Array.from({ length: step }, () => openStream(streamUrl, () => undefined)),
        );
        closers.push(...opened);
        held += step;
      } catch (error) {
        refused = String(error.message ?? error);
        break;
      }
    }
    const rss = await rssMb(target.pid);
    log(`live: ${held} streams held, server RSS ${rss} MB${refused ? ` (${refused})` : ''}`);
    return {
      clients: CLIENTS,
      scores: SCORES,
      missed,
      latency,
      held,
      heldAsked: MAX,
      refused,
      serverRssMb: rss,
    };
  } finally {
    for (const close of closers) close();
    await target.close();
  }
}

/** The live part's Markdown table. */
export function liveTable(row) {
  const ms = (v) => (v === null || v === undefined ? '–' : v.toFixed(1));
  return [
    '| Streams on one board | Scores | Missed | Score-to-screen p50 (ms) | p99 (ms) | max (ms) | Streams one process held | Server RSS (MB) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${row.clients} | ${row.scores} | ${row.missed} | ${ms(row.latency.p50)} | ${ms(row.latency.p99)} | ${ms(row.latency.max)} | ${row.held}${row.refused ? ` (stopped: ${row.refused})` : ` of ${row.heldAsked} asked`} | ${row.serverRssMb ?? '–'} |`,
  ].join('\n');
}

// Run alone: `node packages/server/bench/live.mjs` (after `npm run build`).
if (import.meta.url === `file://${process.argv[1]}`) {
  const row = await liveBench((line) => console.error(line));
  console.log(liveTable(row));
  process.exit(0);
}
