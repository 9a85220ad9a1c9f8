import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../src/app.js';
import { testSecretBox } from '@coinop/testkit/secrets';
import { testConfig } from '../../src/config.js';
import { systemClock, uuidIds } from '../../src/ids.js';
import type { Db } from '../../src/store/db.js';
import { fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { openTestDb, storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { freePort } from '@coinop/testkit/net';
import { makeCa } from '../fixtures/tls.js';

/** packages/server: where `require('@hastearcade/server')` resolves for the child process. */
const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));

// The published game-server SDK, unchanged, over HTTPS in a child process (NODE_EXTRA_CA_CERTS is
// read only when Node starts). It prints what each call returned, or the SDK's error message.
const FLOW = `
const { Haste, HasteConfiguration } = require('@hastearcade/server');
const [port, clientId, clientSecret, playerId] = process.argv.slice(1);
(async () => {
  const config = new HasteConfiguration('production', '127.0.0.1', 'https', Number(port));
  const haste = await Haste.build(clientId, clientSecret, 'production', config);
  const tiers = await haste.game.leaderboards();
  const play = await haste.game.play({ id: playerId }, tiers[1]);
  const score = await haste.game.score(play, 42);
  const leaders = await haste.game.leaders(tiers[1]);
  const payouts = await haste.game.payouts({ id: playerId }, 10);
  return { gameId: haste.game.details.id, tiers: tiers.map((t) => t.formattedName), cost: play.cost,
           rank: score.leaderRank, winner: score.isWinner, leaders, payouts: payouts.events.length };
})().then((r) => console.log(JSON.stringify(r)), (e) => console.log(JSON.stringify({ error: e.message })));`;

function runFlow(args: string[], caPath: string): Promise<Record<string, unknown>> {
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: caPath };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', FLOW, ...args],
      { cwd: SERVER_DIR, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}: ${stderr}`));
        else
          resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>);
      },
    );
  });
}

describe.each(storeVariants())(
  'unchanged @hastearcade/server@3.0.0 over HTTPS on %s',
  (variant) => {
    let dir: string;
    let ca: string;
    let db: Db;
    let app: FastifyInstance;
    let port: number;
    let game: GameFixture;
    let api: TestApi;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'coinop-haste-api-'));
      const tls = await makeCa(dir);
      ca = tls.ca;
      db = await openTestDb(variant);
      const config = testConfig();
      app = await buildApi(config, {
        db,
        clock: systemClock,
        ids: uuidIds,
        writeTokenKey: randomBytes(32),
        secrets: testSecretBox(),
        adminToken: 'unused',
        https: { cert: tls.cert, key: tls.key },
      });
      port = await freePort();
      await app.listen({ host: '127.0.0.1', port });
      // The fixtures need only the app, its database and a clock.
      api = {
        app,
        db,
        clock: systemClock,
        config,
        close: async () => undefined,
      } as unknown as TestApi;
      game = await gameWithTiers(api, { costs: [1, 10] });
    });
    afterAll(async () => {
      await expectLedgerBalanced(db);
      await app?.close();
      await db?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('builds, lists tiers, plays, scores and reads leaders and payouts', async () => {
      const player = await fundedPlayer(api, 15, 'Tls');
      const result = await runFlow(
        [String(port), game.clientId, game.clientSecret, player.playerId],
        ca,
      );
      expect(result).toEqual({
        gameId: game.gameId,
        tiers: ['1 HST', '10 HST'],
        cost: 10,
        rank: 1,
        winner: true,
        leaders: [expect.objectContaining({ playerId: player.playerId, score: 42, name: 'Tls' })],
        payouts: 0,
      });
    });
  },
);
