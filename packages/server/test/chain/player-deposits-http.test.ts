import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findPlayer } from '../../src/store/players.js';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * `GET /player/deposits/{txHash}`: how the account page learns that the deposit it sent was
 * credited. Empty until the watcher read it; then the player's own deposits of that transaction
 * only, credited (or held, with why).
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

describe.each(storeVariants())('a player reads their deposits by transaction on %s', (variant) => {
  let s: TestSignin | null = null;
  afterEach(async () => {
    if (s) {
      await expectLedgerBalanced(s.db);
      await s.close();
    }
    s = null;
  });

  it('answers nothing before the watcher read it, then the credit, to its player only', async () => {
    const vault = await chain.newVault();
    s = await buildTestSignin(variant, {
      chain: chainConfigFor(chain, vault, { confirmations: 0 }),
    });
    await s.api.arcade.chain!.runOnce();
    const session = await walletSignIn(s.auth, newWallet());
    const player = (await findPlayer(s.db, session.playerId))!;
    const other = await walletSignIn(s.auth, newWallet());
    const headers = { authorization: `Bearer ${session.access_token}` };
    const get = (txHash: string, h: Record<string, string> = headers) =>
      s!.api.inject({ method: 'GET', url: `/player/deposits/${txHash}`, headers: h });

    // By the player id (as the web app sends it) and by the account id: both are theirs.
    const byPlayer = await chain.deposit(vault.vault, chain.players[0]!, player.id, 5n * HST);
    const byAccount = await chain.deposit(vault.vault, chain.players[0]!, player.accountId, 1n);
    const unread = await get(byPlayer.txHash);
    expect(unread.statusCode).toBe(200);
    expect(unread.json()).toEqual({ deposits: [] });

    await s.api.arcade.chain!.runOnce();
    const read = await get(byPlayer.txHash.toUpperCase().replace('0X', '0x'));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      deposits: [
        {
          txHash: byPlayer.txHash,
          logIndex: byPlayer.logIndex,
          blockNumber: Number(byPlayer.blockNumber),
          amount: '5',
          status: 'credited',
          heldReason: null,
          creditedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    });
    expect((await get(byAccount.txHash)).json()).toMatchObject({
      deposits: [{ amount: '0.00000001', status: 'credited' }],
    });
    // The player's history lists both credits (issue 17), newest first, with their transactions.
    const history = await s.api.inject({ method: 'GET', url: '/player/activity', headers });
    expect(
      history
        .json<{ items: { kind: string; amount: string; txHash: string }[] }>()
        .items.map((i) => [i.kind, i.amount, i.txHash]),
    ).toEqual(
      expect.arrayContaining([
        ['deposit', '5', byPlayer.txHash],
        ['deposit', '0.00000001', byAccount.txHash],
      ]),
    );
    expect(history.json().items).toHaveLength(2);
    const me = await s.api.inject({ method: 'GET', url: '/player/me', headers });
    expect(me.json()).toMatchObject({ balance: '5.00000001' });

    // Another player sees nothing of it; a bad hash is a 400 naming the field; no token, 401.
    const theirs = await get(byPlayer.txHash, { authorization: `Bearer ${other.access_token}` });
    expect(theirs.json()).toEqual({ deposits: [] });
    const bad = await get('0x1234');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(bad.json())).toContain('txHash');
    expect((await get(byPlayer.txHash, {})).statusCode).toBe(401);
  });
});
