import { rankKey } from '@coinop/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import { PlayService } from '../../src/services/plays.js';
import { playPolicy } from '../../src/services/arcade-services.js';
import { ScoreMemory } from '../../src/services/score-memory.js';
import { readScoreBatch, type BatchRead, type ScoreStanding } from '../../src/store/score-batch.js';
import type { StoredPlay } from '../../src/store/plays.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';

describe.each(storeVariants())('scores decided from memory, on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let plays: PlayService;

  beforeEach(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1, 10], leadersMax: 3 });
    plays = new PlayService(
      api.db,
      api.clock,
      uuidIds,
      api.app.arcade.games,
      playPolicy(api.config),
    );
  });
  afterEach(() => api.close());

  const board = () => game.tiers[0]!.id;
  const open = (playerId: string) =>
    plays.open({ gameId: game.gameId, playerId, leaderboardId: board(), idempotencyKey: null });
  const score = (play: StoredPlay, value: number) =>
    plays.score({
      gameId: game.gameId,
      playId: play.id,
      leaderboardId: board(),
      score: value,
      idempotencyKey: null,
    });

  /** A memory that remembers `opened` as the play service would, with their players' rows. */
  async function memoryOf(
    opened: readonly StoredPlay[],
    options: { boardMaxPlayers?: number } = {},
  ): Promise<ScoreMemory> {
    const memory = new ScoreMemory(api.db, api.clock, options);
    for (const play of opened) {
      const [player] = await api.db.query<{
        account_id: string;
        name: string;
        avatar_url: string | null;
      }>('SELECT account_id, name, avatar_url FROM players WHERE id = $1', [play.playerId]);
      memory.rememberPlay({
        play,
        playerAccountId: player!.account_id,
        playerName: player!.name,
        playerAvatarUrl: player!.avatar_url,
      });
    }
    return memory;
  }

  /** A standing with its leaders' accounts in one order (the read gives them in any). */
  const comparable = (s: ScoreStanding | undefined) =>
    s && {
      ...s,
      scoring: { ...s.scoring, leaderAccountIds: [...s.scoring.leaderAccountIds].sort() },
    };
  const standings = (read: BatchRead) =>
    new Map([...read.standings].map(([id, s]) => [id, comparable(s)]));

  it('reads exactly what the database would: bests, ranks, leaders and their accounts', async () => {
    const players = await Promise.all(
      Array.from({ length: 7 }, (_, i) => fundedPlayer(api, 50, `P${i}`)),
    );
    // Bests with ties (two 30s, the earlier first) and a player who improved.
    const bests = [30, 50, 30, 10, 70];
    for (const [i, value] of bests.entries()) {
      await score(await open(players[i]!.playerId), value);
      api.clock.advance(1000);
    }
    await score(await open(players[3]!.playerId), 40);

    // Plays opened now: by leaders, by players with and without a best.
    const opened = await Promise.all([0, 1, 3, 5, 6, 4].map((i) => open(players[i]!.playerId)));
    const values = [30, 80, 0, 40, 49.5, 70];
    const queries = opened.map((play, i) => ({
      playId: play.id,
      gameId: game.gameId,
      key: rankKey(values[i]!, 'NORMAL'),
    }));

    const fromDatabase = await readScoreBatch(api.db, queries);
    const fromMemory = await (await memoryOf(opened)).read(queries, () => 3);
    expect(fromMemory).not.toBeNull();
    expect(standings(fromMemory!.read)).toEqual(standings(fromDatabase));
    expect(fromMemory!.read.tops).toEqual(fromDatabase.tops);
    expect(fromMemory!.read.tops.get(board())?.map((e) => e.score)).toEqual([70, 50, 40, 30]);
    // The snapshot of each play's leaders: the top three when it opened.
    expect(fromMemory!.read.standings.get(opened[0]!.id)?.scoring.leaderAccountIds).toHaveLength(3);
  });

  it('has no answer for a play it did not open or one past its time', async () => {
    const player = await fundedPlayer(api, 50);
    const mine = await open(player.playerId);
    const other = await open(player.playerId);
    const memory = await memoryOf([mine]);
    const query = (play: StoredPlay) => ({ playId: play.id, gameId: game.gameId, key: 5n });
    expect(await memory.read([query(mine)], () => 3)).not.toBeNull();
    expect(await memory.read([query(mine), query(other)], () => 3)).toBeNull();
    expect(await memory.read([{ ...query(mine), gameId: uuidIds.next() }], () => 3)).toBeNull();
    api.clock.advance(api.config.playTtlSeconds * 1000);
    expect(await memory.read([query(mine)], () => 3)).toBeNull();
  });

  it('keeps no copy of a board with more players than its limit, nor of one that outgrew it', async () => {
    const players = await Promise.all(Array.from({ length: 4 }, () => fundedPlayer(api, 50)));
    for (const [i, p] of players.slice(0, 3).entries()) await score(await open(p.playerId), i);
    const mine = await open(players[3]!.playerId);
    const query = { playId: mine.id, gameId: game.gameId, key: rankKey(5, 'NORMAL') };

    // Three players on the board: kept with a limit of three, not with two.
    expect(
      await (await memoryOf([mine], { boardMaxPlayers: 2 })).read([query], () => 3),
    ).toBeNull();
    const memory = await memoryOf([mine], { boardMaxPlayers: 3 });
    const read = await memory.read([query], () => 3);
    expect(read?.read.standings.get(mine.id)?.atOrAbove).toBe(0);

    // A fourth player's best would take the copy past the limit: it is dropped, not grown.
    const version = read!.versions.get(board())!;
    memory.committed(
      [{ leaderboardId: board(), expected: version, next: version + 1n }],
      [
        {
          leaderboardId: board(),
          playerId: mine.playerId,
          score: 5,
          rankKey: rankKey(5, 'NORMAL'),
          scoreId: uuidIds.next(),
          achievedAt: api.clock.now(),
          replacesScoreId: null,
          replaces: null,
        },
      ],
      new Map([[mine.playerId, { accountId: players[3]!.accountId, name: 'P', avatarUrl: null }]]),
    );
    expect(await memory.read([query], () => 3)).toBeNull();
  });
});
