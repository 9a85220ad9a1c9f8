import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VaultGuard } from '../../src/chain/vault-guard.js';
import { HST, newChainArcade, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * A resume that lands while the watcher reads the chain for a reconciliation. The watcher had
 * read the halt and the checkpoint before it read the chain, decided on those, and so halted the
 * vault again on the shortfall the operator had just accepted, overwriting the acceptance: the
 * console's resume never showed "Sending" (seen in CI, where a loaded machine widens the
 * window). Here the resume is made to land exactly there, on a real Anvil and every store.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe.each(storeVariants())('a resume during a reconciliation, on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await api!.app.inject({
      method,
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };

  /** A client whose first read of the vault's token balance waits for `during` to finish. */
  function clientResumingMidRead(rpcUrl: string, during: () => Promise<void>): PublicClient {
    const real = createPublicClient({ transport: http(rpcUrl) });
    let fired = false;
    return new Proxy(real, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (name !== 'readContract' || typeof value !== 'function') return value;
        return async (args: { functionName: string }) => {
          const answer: unknown = await value.call(target, args);
          if (args.functionName === 'balanceOf' && !fired) {
            fired = true;
            await during();
          }
          return answer;
        };
      },
    }) as PublicClient;
  }

  it('keeps the resume and its accepted shortfall: the vault is not halted again', async () => {
    const arcade = await newChainArcade(chain, variant, {
      confirmations: 0,
      reconcileIntervalMs: 0,
    });
    api = arcade.api;
    const player = await fundedPlayer(api, 0);
    await chain.deposit(arcade.vault, chain.players[0]!, player.accountId, 10n * HST);
    await arcade.watcher.runOnce();
    // A shortfall: the operator key pays 5 HST out of the vault outside coinop.
    await chain.payOutsideCoinop(arcade.vault, chain.admin.account.address, 5n * HST);
    await arcade.watcher.runOnce();
    expect((await call('GET', '/admin/chain')).body).toMatchObject({
      state: 'halted',
      halt: { cause: 'shortfall', shortfall: '5' },
    });

    let resumed: { status: number; body: unknown } | null = null;
    const guard = new VaultGuard({
      db: api.db,
      clock: api.clock,
      ids: api.app.arcade.ids,
      chain: arcade.config,
      client: clientResumingMidRead(arcade.config.rpcUrl, async () => {
        resumed = await call('POST', '/admin/chain/resume', {
          by: 'Olga Operator',
          reason: 'The treasury covers the 5 HST paid out by mistake.',
          acceptShortfall: '5',
        });
      }),
      log: () => null,
    });
    await guard.afterRound(
      { chainId: chain.chainId, vaultAddress: arcade.vault },
      { caughtUp: true, stopped: () => false },
    );

    expect(resumed).toMatchObject({ status: 200, body: { state: 'resumed' } });
    const after = (await call('GET', '/admin/chain')).body;
    expect(after).toMatchObject({
      state: 'running',
      halt: null,
      reconciliation: { acceptedShortfall: '5' },
    });
    const { halts } = (await call('GET', '/admin/chain/halts')).body as {
      halts: { resume: { by: string } | null }[];
    };
    expect(halts.map((h) => h.resume?.by ?? null)).toEqual(['Olga Operator']);
  });
});
