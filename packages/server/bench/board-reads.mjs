// Board reads at scale (issue 18): on a big board (board-load.mjs), a page of 100 at the top, in
// the middle and at the bottom (by cursor), and a player's place with 5 and 50 players around
// them at the same three places, timed one call at a time through the store's own functions
// (the statements the API sends), then one row through HTTP: the public catalog route, served
// in this process by the compiled API on the same database.
import { randomBytes } from 'node:crypto';
import { boardAround, boardPage } from '../dist/store/board-pages.js';
import { buildApi } from '../dist/app.js';
import { SecretBox } from '../dist/credentials/secret-box.js';
import { testConfig } from '../dist/config.js';
import { boardCursor } from '../dist/http/shared/cursors.js';
import { systemClock, uuidIds } from '../dist/ids.js';
import { publishGame } from '../dist/store/games.js';
import { timeEach } from './ranking.mjs';

/** Positions (and players) read at each place: the reads cycle through them. */
const SPREAD = 20;
const PAGE = 100;

/**
 * `loaded` is a big board from `loadBigBoard`. Each measurement gets a warm-up of 200 calls,
 * then `samples` calls or `budgetMs`, whichever ends first.
 */
export async function boardReadsBench(db, { board, gameId }, { samples, budgetMs, log }) {
  const [{ n }] = await db.query(
    'SELECT count(*)::int AS n FROM leaders WHERE leaderboard_id = $1',
    [board],
  );
  const places = {
    top: await positionsAt(db, board, 0),
    middle: await positionsAt(db, board, Math.floor(n / 2)),
    bottom: await positionsAt(db, board, Math.max(0, n - PAGE - SPREAD)),
  };
  // A walk as of the board's write_seq now: the cursor of a walk begun just before.
  const [{ seq }] = await db.query(
    'SELECT write_seq::text AS seq FROM leaderboards WHERE id = $1',
    [board],
  );
  const s0 = BigInt(seq);
  const walkAt = (p) => ({ s0, position: p.position });
  checkRanks(await boardPage(db, board, walkAt(places.middle[0]), PAGE), places.middle[0]);
  log(`board reads on ${n.toLocaleString('en')} players: ranks checked against offsets`);

  const rows = [];
  const measure = async (label, place, call) => {
    const inputs = Array.from({ length: samples }, (_, i) => places[place][i % SPREAD]);
    await timeEach(inputs.slice(0, 200), call, budgetMs / 4);
    const s = await timeEach(inputs, call, budgetMs);
    rows.push({ query: label, place, ...s });
    log(`${label} at the ${place}: p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms`);
  };
  // The top page is the first page (no cursor); the others follow a cursor at the place.
  await measure('page of 100', 'top', () => boardPage(db, board, null, PAGE));
  for (const place of ['middle', 'bottom']) {
    await measure('page of 100', place, (p) => boardPage(db, board, walkAt(p), PAGE));
  }
  for (const count of [5, 50]) {
    for (const place of ['top', 'middle', 'bottom']) {
      await measure(`around-me (count ${count})`, place, (p) =>
        boardAround(db, board, p.playerId, count),
      );
    }
  }
  rows.push(await overHttp(db, board, gameId, places.middle, s0, { samples, budgetMs, log }));
  return { players: n, rows };
}

/**
 * SPREAD consecutive rows from `offset` down, in board order, with their 0-based offset: each is
 * a cursor position and a player. One OFFSET scan, once, outside the timings.
 */
async function positionsAt(db, board, offset) {
  const found = await db.query(
    `SELECT player_id, rank_key::text AS rank_key,
            (extract(epoch FROM achieved_at) * 1000000)::bigint::text AS micros
     FROM leaders WHERE leaderboard_id = $1
     ORDER BY rank_key DESC, achieved_at, player_id OFFSET $2 LIMIT $3`,
    [board, offset, SPREAD],
  );
  return found.map((r, i) => ({
    offset: offset + i,
    playerId: r.player_id,
    position: {
      rankKey: BigInt(r.rank_key),
      achievedAtMicros: BigInt(r.micros),
      playerId: r.player_id,
    },
  }));
}

/** The page after the row at 0-based `offset` starts at rank offset + 2, then counts up. */
function checkRanks(page, at) {
  page.rows.forEach((row, i) => {
    if (row.rank !== at.offset + 2 + i) {
      throw new Error(`row ${i} after offset ${at.offset} has rank ${row.rank}`);
    }
  });
}

/** A page of 100 in the middle through `GET /catalog/games/{id}/boards/{tier}`, keep-alive. */
async function overHttp(db, board, gameId, middle, s0, { samples, budgetMs, log }) {
  await publishGame(db, systemClock, gameId);
  const app = await buildApi(testConfig({ logLevel: 'silent' }), {
    db,
    clock: systemClock,
    ids: uuidIds,
    writeTokenKey: randomBytes(32),
    secrets: new SecretBox(randomBytes(32)),
    adminToken: randomBytes(16).toString('hex'),
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${app.server.address().port}/catalog/games/${gameId}/boards/${board}`;
    const call = async (p) => {
      const cursor = boardCursor({ s0, startedAtMs: Date.now(), position: p.position });
      const res = await fetch(`${url}?limit=${PAGE}&cursor=${cursor}`);
      const body = await res.json();
      if (res.status !== 200 || body.entries[0]?.rank !== p.offset + 2) {
        throw new Error(
          `HTTP page after offset ${p.offset}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`,
        );
      }
    };
    const inputs = Array.from({ length: samples }, (_, i) => middle[i % SPREAD]);
    await timeEach(inputs.slice(0, 200), call, budgetMs / 4);
    const s = await timeEach(inputs, call, budgetMs);
    log(
      `page of 100 over HTTP at the middle: p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms`,
    );
    return { query: 'page of 100, HTTP (catalog route)', place: 'middle', ...s };
  } finally {
    await app.close();
  }
}
