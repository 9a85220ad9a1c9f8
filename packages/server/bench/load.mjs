// The load: autocannon against a real listener. Latencies are autocannon's own per-request
// timings (from writing the request to the end of the response, in fractional ms), collected
// here so play and score are reported apart.
import autocannon from 'autocannon';

/** Fixed-rate GETs of one path, e.g. the bare route or the developergames read. */
export async function measureGet({ url, path, headers = {}, connections, duration }) {
  const latencies = [];
  let statusOther = 0;
  const result = await run(
    { url, connections, duration, requests: [{ method: 'GET', path, headers }] },
    (status, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
      else statusOther += 1;
    },
  );
  const seconds = result.duration;
  return {
    seconds,
    requests: latencies.length + statusOther,
    ok: latencies.length,
    rps: latencies.length / seconds,
    latency: summarize(latencies),
    non2xx: statusOther,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * The game server's loop: every connection alternates POST play and POST score for the play
 * the previous response opened. Each pair takes the next player round-robin (far more players
 * than connections, so no two in-flight pairs share a balance) and, with several games, the
 * next game. A pair counts once its score answered 200.
 */
export async function measurePlayScore({ url, arcadeId, games, playerIds, connections, duration }) {
  const play = [];
  const score = [];
  const statuses = { play: {}, score: {} };
  let next = 0;
  let last = null; // Which request the response autocannon is about to time belongs to.

  const requests = [
    {
      method: 'POST',
      setupRequest(request, context) {
        const n = next++;
        const game = games[n % games.length];
        context.game = game;
        return {
          ...request,
          path: `/arcades/${arcadeId}/games/${game.gameId}/play`,
          headers: jsonHeaders(game.token),
          body: JSON.stringify({
            playerId: playerIds[n % playerIds.length],
            leaderboardId: game.leaderboardId,
          }),
        };
      },
      onResponse(status, body, context) {
        last = { kind: 'play', status };
        if (status === 200) context.playId = JSON.parse(body).id;
      },
    },
    {
      method: 'POST',
      setupRequest(request, context) {
        // The play failed (already counted): start the next pair instead.
        if (!context.playId) return null;
        return {
          ...request,
          path: `/arcades/${arcadeId}/games/${context.game.gameId}/score`,
          headers: jsonHeaders(context.game.token),
          body: JSON.stringify({
            playId: context.playId,
            leaderboardId: context.game.leaderboardId,
            score: Math.floor(Math.random() * 1_000_000),
          }),
        };
      },
      onResponse(status) {
        last = { kind: 'score', status };
      },
    },
  ];

  const result = await run({ url, connections, duration, requests }, (status, ms) => {
    if (!last) return;
    const bucket = statuses[last.kind];
    bucket[status] = (bucket[status] ?? 0) + 1;
    if (status === 200) (last.kind === 'play' ? play : score).push(ms);
    last = null;
  });

  const seconds = result.duration;
  const non2xx = (kind) =>
    Object.entries(statuses[kind])
      .filter(([s]) => Number(s) !== 200)
      .reduce((sum, [, n]) => sum + n, 0);
  return {
    seconds,
    pairs: score.length,
    pairsPerSecond: score.length / seconds,
    requests: play.length + score.length + non2xx('play') + non2xx('score'),
    rps: (play.length + score.length) / seconds,
    latency: summarize([...play, ...score]),
    play: summarize(play),
    score: summarize(score),
    statuses,
    non2xx: non2xx('play') + non2xx('score'),
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

function jsonHeaders(token) {
  return { 'content-type': 'application/json', authorization: `Bearer ${token}` };
}

function run(options, onTimed) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ pipelining: 1, timeout: 10, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    instance.on('response', (_client, status, _bytes, ms) => onTimed(status, ms));
  });
}

/** Percentiles of a list of milliseconds (nearest rank). */
export function summarize(values) {
  if (values.length === 0) return { n: 0, p50: null, p90: null, p99: null, max: null, mean: null };
  const sorted = Float64Array.from(values).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const max = sorted[sorted.length - 1];
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max, mean };
}
