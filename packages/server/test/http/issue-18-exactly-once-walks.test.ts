import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardEntry, BoardPage } from '@coinop/protocol';
import { publish } from '../../src/services/admin.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';

/**
 * Issue 18: "cursor paging under concurrent score writes returns every player exactly once with
 * the rank each had at its read". Before, a walk was at most once: a player whose best passed
 * the cursor between two page reads was on no later page. A walk is now as of its first page:
 * every player on the board then is on exactly one page, at their place then, with their rank
 * at that page's read.
 */
describe.each(storeVariants())('exactly-once board walks on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;
  const tier = () => game.tiers[0]!.id;
  const board = () => `/catalog/games/${game.gameId}/boards/${tier()}`;

  async function playAndScore(playerId: string, score: number) {
    const headers = { authorization: `Bearer ${token}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const play = await api.app.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId, leaderboardId: tier() },
    });
    expect(play.statusCode, play.body).toBe(200);
    const res = await api.app.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId: tier(), score },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function page(limit: number, cursor: string | null): Promise<BoardPage> {
    const query = cursor === null ? '' : `&cursor=${cursor}`;
    const res = await api.app.inject({ method: 'GET', url: `${board()}?limit=${limit}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BoardPage>();
  }

  /** Each player's rank now, counted by brute force over every best (not the count tree). */
  async function ranksNow(): Promise<Map<string, number>> {
    const rows = await api.db.query<{ player_id: string; rank: string }>(
      `SELECT player_id, (row_number() OVER (ORDER BY rank_key DESC, achieved_at, player_id))::text
         AS rank FROM leaders WHERE leaderboard_id = $1`,
      [tier()],
    );
    return new Map(rows.map((r) => [r.player_id, Number(r.rank)]));
  }

  /** Every row's rank equals its player's brute-force rank, read with no write in flight. */
  async function expectRanksExact(entries: readonly BoardEntry[]) {
    const ranks = await ranksNow();
    expect(entries.map((e) => [e.playerId, e.rank])).toEqual(
      entries.map((e) => [e.playerId, ranks.get(e.playerId)]),
    );
  }

  /** A new player with a first best of `score` (the clock moves on, so ties order by time). */
  async function newPlayer(name: string, score: number): Promise<string> {
    const { playerId } = await fundedPlayer(api, 0, name);
    await playAndScore(playerId, score);
    api.clock.advance(1000);
    return playerId;
  }

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [0], scoreDisplay: 'NORMAL' });
    await publish(api.app.arcade, game.gameId);
    token = await writeToken(api, game);
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  it('returns every player on the board at the first page exactly once, at their place then, with exact ranks', async () => {
    // 30 players scoring 300, 290, ..., 10: at the start the board is in that order.
    const board0: string[] = [];
    for (let n = 0; n < 30; n += 1) board0.push(await newPlayer(`W${n}`, 300 - n * 10));
    const at0 = [...(await ranksNow()).entries()].sort((a, b) => a[1] - b[1]).map(([p]) => p);
    expect(at0).toEqual(board0);

    const pages: BoardPage[] = [];
    const read = async (cursor: string | null) => {
      const p = await page(5, cursor);
      pages.push(p);
      return p;
    };

    // Page 1 (W0..W4) starts the walk; the writers start after it.
    let p = await read(null);
    await expectRanksExact(p.entries);
    const joinedLate: string[] = [];
    // A newcomer takes the top; W20 (ahead of the cursor) passes it to second place; W1
    // (already read) climbs to the top: none of them may change what the walk returns.
    joinedLate.push(await newPlayer('Late top', 1000));
    await playAndScore(board0[20]!, 995);
    api.clock.advance(1000);
    await playAndScore(board0[1]!, 2000);
    api.clock.advance(1000);

    // Page 2 (W5..W9): each with their rank now (two players passed each of them, one joined).
    p = await read(p.nextCursor);
    await expectRanksExact(p.entries);
    // W25 improves twice between two reads: first just above W12 (still ahead of the cursor),
    // then above W3 (behind it). A newcomer joins at the bottom, another joins and then
    // improves (its first move after the walk began is its join: not part of the walk).
    await playAndScore(board0[25]!, 185);
    api.clock.advance(1000);
    await playAndScore(board0[25]!, 275);
    api.clock.advance(1000);
    joinedLate.push(await newPlayer('Late bottom', 1));
    const climber = await newPlayer('Late climber', 2);
    joinedLate.push(climber);
    await playAndScore(climber, 150);
    api.clock.advance(1000);

    // Page 3 (W10..W14), then the rest with scores in flight while each page is read.
    p = await read(p.nextCursor);
    await expectRanksExact(p.entries);
    let step = 0;
    while (p.nextCursor !== null) {
      step += 1;
      const before = await ranksNow();
      const [next, late] = await Promise.all([
        read(p.nextCursor),
        newPlayer(`Late ${step}`, 140 + step),
        playAndScore(board0[26 + (step % 4)]!, 500 + step * 7),
      ]);
      p = next;
      joinedLate.push(late);
      const after = await ranksNow();
      // With writes in flight the read's instant is unknown: a player no write touched can only
      // lose places meanwhile, so their rank lies between before and after.
      const touched = new Set([board0[26 + (step % 4)]!]);
      for (const e of p.entries.filter((x) => !touched.has(x.playerId))) {
        expect(e.rank, e.name).toBeGreaterThanOrEqual(before.get(e.playerId)!);
        expect(e.rank, e.name).toBeLessThanOrEqual(after.get(e.playerId)!);
      }
    }

    // Exactly once, in the order of the board at the first page.
    const walked = pages.flatMap((x) => x.entries.map((e) => e.playerId));
    expect(walked).toEqual(board0);
    for (const late of joinedLate) expect(walked).not.toContain(late);
    // The movers are shown at their old place with their best and rank now.
    const w25 = pages.flatMap((x) => x.entries).find((e) => e.playerId === board0[25]);
    expect(w25?.score).toBe(275);
    // A fresh walk sees the board as it is now, late joiners included.
    const fresh: string[] = [];
    let cursor: string | null = null;
    do {
      const q: BoardPage = await page(100, cursor);
      await expectRanksExact(q.entries);
      fresh.push(...q.entries.map((e) => e.playerId));
      cursor = q.nextCursor;
    } while (cursor !== null);
    const now = [...(await ranksNow()).entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    expect(fresh).toEqual(now);
    expect(fresh).toEqual(expect.arrayContaining(joinedLate));
  });

  it('records one move per best written, each stamped with its batch in commit order', async () => {
    const [seq] = await api.db.query<{ write_seq: string; moves: string; stamped: string }>(
      `SELECT lb.write_seq::text,
              (SELECT count(*) FROM best_moves WHERE leaderboard_id = lb.id)::text AS moves,
              (SELECT max(seq) FROM leaders WHERE leaderboard_id = lb.id)::text AS stamped
       FROM leaderboards lb WHERE lb.id = $1`,
      [tier()],
    );
    const [scores] = await api.db.query<{ improved: string }>(
      // A score that became its player's best is one that beat every earlier score of theirs.
      `SELECT count(*)::text AS improved FROM scores s WHERE s.leaderboard_id = $1
         AND NOT EXISTS (SELECT 1 FROM scores e WHERE e.leaderboard_id = s.leaderboard_id
                         AND e.player_id = s.player_id AND e.created_at < s.created_at
                         AND e.score >= s.score)`,
      [tier()],
    );
    expect(Number(seq!.moves)).toBe(Number(scores!.improved));
    expect(seq!.stamped).toBe(seq!.write_seq);
    // Each player's first move has no from: they came from nowhere.
    const [firsts] = await api.db.query<{ wrong: string }>(
      `SELECT count(*)::text AS wrong FROM (
         SELECT DISTINCT ON (player_id) from_rank_key FROM best_moves
         WHERE leaderboard_id = $1 ORDER BY player_id, seq) f
       WHERE from_rank_key IS NOT NULL`,
      [tier()],
    );
    expect(firsts!.wrong).toBe('0');
  });

  it('refuses a walk older than ten minutes, and a cursor of the old format, with 410 cursor_expired', async () => {
    const first = await page(3, null);
    api.clock.advance(10 * 60_000);
    expect((await page(3, first.nextCursor)).entries).toHaveLength(3);
    api.clock.advance(1000);
    for (const cursor of [
      first.nextCursor!,
      Buffer.from(`b1.5.1.${first.entries[0]!.playerId}`).toString('base64url'),
    ]) {
      const res = await api.app.inject({ method: 'GET', url: `${board()}?cursor=${cursor}` });
      expect(res.statusCode, res.body).toBe(410);
      expect(res.json()).toMatchObject({
        code: 'cursor_expired',
        details: { field: 'cursor' },
        message:
          'cursor is from a walk of this board that is too old to continue: start again from ' +
          'the first page (no cursor)',
      });
    }
  });

  it('prunes the moves no walk can need any more, and only those', async () => {
    const count = async () =>
      Number(
        (await api.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM best_moves`))[0]!.n,
      );
    const old = await count();
    expect(old).toBeGreaterThan(30);
    // Every move so far is now older than a walk may be plus the margin; one more is recent.
    api.clock.advance(11 * 60_000 + 1000);
    const recent = await newPlayer('Recent', 7);
    expect(await api.app.arcade.pruneBoardMoves()).toBe(old);
    const left = await api.db.query<{ player_id: string }>(`SELECT player_id FROM best_moves`);
    expect(left.map((r) => r.player_id)).toEqual([recent]);
    expect(await api.app.arcade.pruneBoardMoves()).toBe(0);
    // A walk begun now is still exactly once: its moves are all kept.
    const board1 = [...(await ranksNow()).entries()].sort((a, b) => a[1] - b[1]).map(([p]) => p);
    const walked: string[] = [];
    let p = await page(10, null);
    walked.push(...p.entries.map((e) => e.playerId));
    await playAndScore(board1.at(-1)!, 9000);
    while (p.nextCursor !== null) {
      p = await page(10, p.nextCursor);
      walked.push(...p.entries.map((e) => e.playerId));
    }
    expect(walked).toEqual(board1);
  });
});
