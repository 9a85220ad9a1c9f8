import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { within } from '@coinop/testkit/poll';
import { buildApi } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { SECRETS_KEY_BYTES } from '../../src/config-secrets-key.js';
import { SecretBox } from '../../src/credentials/secret-box.js';
import { ManualClock, uuidIds } from '../../src/ids.js';
import { openDatabase } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { ScoreReviews } from '../../src/services/score-reviews.js';
import { auditLedger, findAccount } from '../../src/store/ledger.js';
import { migrate } from '../../src/store/migrate.js';
import {
  modelEarnings,
  modelLeaders,
  type ModelPlay,
  type ModelScore,
} from '../fixtures/void-model.js';
import { cleanEnv, serve, type ServeChild } from './run-cli.js';

/*
 * Issue 30, "after kill -9 in the middle of a void": a real `coinop serve` voids a score through
 * `POST /admin/scores/{scoreId}/void` and is killed with SIGKILL while the void's transaction
 * waits to commit (the test hook COINOP_TEST_VOID_PAUSE_MS). The void is all or nothing: after
 * the restart the score stands, its report is still open, every held payout is as before and the
 * ledger balances; the same void sent again then re-settles to the unit what the model of the
 * board computes, and closes the report.
 */

const HOLD_SECONDS = 3600;
const PAUSE_ENV = 'COINOP_TEST_VOID_PAUSE_MS';
const PAUSED = /^test hook: score ([0-9a-f-]{36}) voided, pausing/;
const DONE = /^score ([0-9a-f-]{36}) voided by admin: (\d+) held plays re-settled/;

interface Story {
  game: GameFixture;
  cheat: string;
  plays: ModelPlay[];
  scores: ModelScore[];
  accountOf: (playerId: string) => string;
  /** The cheater's player id. */
  xavier: string;
  /** Alice's report of the cheat: open until the void commits. */
  reviewId: string;
}

/**
 * The board of the hold-and-void tests (top 3, ties), played in this process on the store the
 * server will open: every play settled with its payouts held for an hour.
 */
async function playStory(db: Db, secretsKey: Buffer): Promise<Story> {
  await migrate(db);
  // Ten minutes in the past, so the server's clock finds every play begun and every payout held.
  const clock = new ManualClock(new Date(Date.now() - 600_000));
  const config = testConfig({ payoutHoldSeconds: HOLD_SECONDS });
  const app = await buildApi(config, {
    db,
    clock,
    ids: uuidIds,
    writeTokenKey: randomBytes(32),
    secrets: new SecretBox(secretsKey),
    adminToken: TEST_ADMIN_TOKEN,
  });
  await app.ready();
  try {
    const api: TestApi = { app, db, clock, config, close: () => app.close() };
    const game = await gameWithTiers(api, { costs: [1], leadersMax: 3 });
    const token = await writeToken(api, game);
    const names = ['alice', 'bob', 'carol', 'dave', 'xavier'] as const;
    const players = Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, await fundedPlayer(api, 100, n)] as const)),
    ) as unknown as Record<(typeof names)[number], { playerId: string; accountId: string }>;
    const story: Story = {
      game,
      cheat: '',
      plays: [],
      scores: [],
      accountOf: (playerId) =>
        Object.values(players).find((p) => p.playerId === playerId)!.accountId,
      xavier: players.xavier.playerId,
      reviewId: '',
    };
    const leaderboardId = game.tiers[0]!.id;
    const post = async (path: string, payload: object): Promise<string> => {
      const res = await app.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: string }>().id;
    };
    const moves = [
      ['xavier', 5],
      ['alice', 50],
      ['bob', 50],
      ['carol', 40],
      ['xavier', 999],
      ['dave', 45],
      ['carol', 50],
      ['alice', 30],
      ['dave', 60],
      ['bob', 10],
    ] as const;
    for (const [who, value] of moves) {
      const playerId = players[who].playerId;
      clock.advance(1000);
      const playId = await post('play', { playerId, leaderboardId });
      story.plays.push({ playId, playerId, at: clock.now().getTime() });
      clock.advance(1000);
      const scoreId = await post('score', { playId, leaderboardId, score: value });
      story.scores.push({ scoreId, playerId, value, at: clock.now().getTime() });
      if (who === 'xavier' && value === 999) story.cheat = scoreId;
    }
    const report = await new ScoreReviews(app.arcade, null).report(
      players.alice.playerId,
      story.cheat,
      { reason: 'impossible', note: null },
    );
    story.reviewId = report.reportId;
    return story;
  } finally {
    await app.close();
  }
}

/** Every account's held payouts are what the model says, the cheater's best is `best`, balanced. */
async function expectHeld(
  db: Db,
  story: Story,
  voided: ReadonlySet<string>,
  best: number,
): Promise<void> {
  const owed = modelEarnings(
    story.plays,
    story.scores,
    'NORMAL',
    voided,
    story.accountOf,
    story.game,
  );
  expect(owed.size).toBeGreaterThan(2);
  for (const [accountId, units] of owed) {
    expect((await findAccount(db, accountId))?.creditsPending, accountId).toBe(units);
  }
  const [score] = await db.query<{ voided: boolean }>(
    'SELECT voided_at IS NOT NULL AS voided FROM scores WHERE id = $1',
    [story.cheat],
  );
  expect(score?.voided).toBe(voided.has(story.cheat));
  // The void closes the score's open review in its own transaction: both or neither.
  const [review] = await db.query<{ state: string; resolution_reason: string | null }>(
    'SELECT state, resolution_reason FROM score_reviews WHERE id = $1',
    [story.reviewId],
  );
  expect(review).toEqual(
    voided.has(story.cheat)
      ? { state: 'voided', resolution_reason: 'impossible score' }
      : { state: 'open', resolution_reason: null },
  );
  const leaders = await db.query<{ score: number }>(
    'SELECT score FROM leaders WHERE leaderboard_id = $1 AND player_id = $2',
    [story.game.tiers[0]!.id, story.xavier],
  );
  expect(leaders.map((l) => Number(l.score))).toEqual([best]);
  expect((await auditLedger(db)).balanced).toBe(true);
}

function matching(server: ServeChild, pattern: RegExp): string[][] {
  return server.messages.flatMap((m) => {
    const match = pattern.exec(m);
    return match ? [match.slice(1)] : [];
  });
}

const voidOf = (server: ServeChild, scoreId: string) =>
  fetch(`${server.url}/admin/scores/${scoreId}/void`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    body: JSON.stringify({ reason: 'impossible score' }),
  });

describe.each(storeVariants())('a score void by coinop serve on %s', (variant) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A store for `coinop serve`: its flags, and a way to open it here while no server runs. */
  async function store(): Promise<{ flags: string[]; open(): Promise<Db> }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'coinop-void-crash-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const base = ['--api-port', '0', '--auth-port', '0', '--data-dir', dataDir];
    if (variant === 'pglite') {
      return { flags: base, open: () => openDatabase(testConfig({ dataDir })) };
    }
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    return {
      flags: [...base, '--database-url', database.url],
      open: () => openDatabase(testConfig({ dataDir, databaseUrl: database.url })),
    };
  }

  it('voids all or nothing through a SIGKILL, and exactly when sent again', async () => {
    const { flags, open } = await store();
    const secretsKey = randomBytes(SECRETS_KEY_BYTES);
    let db = await open();
    const story = await playStory(db, secretsKey);
    const transfersBefore = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM transfers',
    );
    await expectHeld(db, story, new Set(), 999);
    await db.close();

    const env = (extra: Record<string, string> = {}) =>
      cleanEnv({
        COINOP_SECRETS_KEY: secretsKey.toString('hex'),
        COINOP_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        ...extra,
      });
    let server = await serve(flags, env({ [PAUSE_ENV]: '120000' }));
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    const pending = voidOf(server, story.cheat).catch((error: unknown) => error);
    // The void has re-settled the held payouts in its transaction and waits to commit: kill it.
    await within(30_000, async () => matching(server, PAUSED).length > 0);
    expect(matching(server, PAUSED)).toEqual([[story.cheat]]);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe(null);
    // The request never got an answer: the connection died with the process.
    expect(await pending).toBeInstanceOf(Error);

    db = await open();
    try {
      await expectHeld(db, story, new Set(), 999);
      const transfersAfter = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM transfers',
      );
      expect(transfersAfter).toEqual(transfersBefore);
    } finally {
      await db.close();
    }

    server = await serve(flags, env());
    const res = await voidOf(server, story.cheat);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { resettledPlays: string[]; closedReviews: string[] };
    expect(body.closedReviews).toEqual([story.reviewId]);
    const voided = new Set([story.cheat]);
    const changed = story.plays.filter(
      (p) =>
        modelLeaders(story.scores, p.at, 'NORMAL', new Set()).join() !==
        modelLeaders(story.scores, p.at, 'NORMAL', voided).join(),
    );
    expect(changed.length).toBeGreaterThan(0);
    expect([...body.resettledPlays].sort()).toEqual(changed.map((p) => p.playId).sort());
    // The log line is written as the answer is sent; it may reach us just after it.
    await within(10_000, async () => matching(server, DONE).length > 0);
    expect(matching(server, DONE)).toEqual([[story.cheat, String(changed.length)]]);
    const audit = await fetch(`${server.url}/admin/hst/audit`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(audit.status).toBe(200);
    expect(((await audit.json()) as { balanced: boolean }).balanced).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    db = await open();
    try {
      await expectHeld(db, story, voided, 5);
    } finally {
      await db.close();
    }
  }, 180_000);
});
