import { arcadeVaultAbi } from '@coinop/contracts';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { availableUnits } from '@coinop/core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDeveloper } from '../../src/services/admin.js';
import { findDeveloper } from '../../src/store/developers.js';
import { applyTransfers, findAccount } from '../../src/store/ledger.js';
import { findPlayer } from '../../src/store/players.js';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * Withdrawals over HTTP: the player's and the developer's routes, the admin's listing, and bad
 * input refused with a 4xx naming the field and nothing reserved.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const wallet = () => privateKeyToAccount(generatePrivateKey()).address;

describe.each(storeVariants())('withdrawals over HTTP on %s', (variant) => {
  let s: TestSignin | null = null;
  afterEach(async () => {
    if (s) {
      await expectLedgerBalanced(s.db);
      await s.close();
    }
    s = null;
  });

  /** An arcade in chain mode whose watcher has read the vault, and a signed-in player. */
  async function arcade(balanceHst = 100n) {
    const vault = await chain.newVault();
    s = await buildTestSignin(variant, {
      chain: chainConfigFor(chain, vault, { confirmations: 0 }),
    });
    await s.api.arcade.chain!.runOnce();
    const playerWallet = newWallet();
    const session = await walletSignIn(s.auth, playerWallet);
    const player = (await findPlayer(s.db, session.playerId))!;
    if (balanceHst > 0n) await mint(player.accountId, balanceHst * HST);
    return {
      s,
      player,
      headers: { authorization: `Bearer ${session.access_token}` },
      playerWallet,
      vault: vault.vault,
    };
  }

  async function mint(accountId: string, units: bigint) {
    await s!.db.transaction((tx) =>
      applyTransfers(
        tx,
        [
          {
            id: s!.api.arcade.ids.next(),
            kind: 'posted',
            debitAccountId: s!.api.arcade.record.mintAccountId,
            creditAccountId: accountId,
            amount: units,
            pendingId: null,
            reason: 'mint',
            playId: null,
          },
        ],
        s!.clock.now(),
      ),
    );
  }

  const unitsOf = async (accountId: string) =>
    availableUnits((await findAccount(s!.db, accountId))!);

  it('takes a withdrawal (202), lists it, and shows it to its account only', async () => {
    const { s, player, headers } = await arcade();
    const to = wallet();
    const res = await s.api.inject({
      method: 'POST',
      url: '/player/withdrawals',
      headers,
      payload: { amount: '12.5', to: to.toLowerCase() },
    });
    expect(res.statusCode).toBe(202);
    const body = res.json<{ withdrawalId: string }>();
    expect(body).toMatchObject({
      accountId: player.accountId,
      to,
      amount: '12.5',
      status: 'queued',
      txHash: null,
      attempts: 0,
    });
    expect(await unitsOf(player.accountId)).toBe(100n * HST - 1_250_000_000n);
    const list = await s.api.inject({ method: 'GET', url: '/player/withdrawals', headers });
    expect(list.json()).toMatchObject({ withdrawals: [body], next: null });
    const one = await s.api.inject({
      method: 'GET',
      url: `/player/withdrawals/${body.withdrawalId}`,
      headers,
    });
    expect(one.json()).toEqual(body);
    // The player's history shows it too (issue 17), with where it stands.
    const history = await s.api.inject({
      method: 'GET',
      url: '/player/activity?kind=withdrawal',
      headers,
    });
    expect(history.json()).toEqual({
      items: [
        {
          kind: 'withdrawal',
          id: body.withdrawalId,
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          amount: '12.5',
          to,
          status: 'queued',
          txHash: null,
        },
      ],
      nextCursor: null,
    });
    const other = await walletSignIn(s.auth, newWallet());
    const theirs = await s.api.inject({
      method: 'GET',
      url: `/player/withdrawals/${body.withdrawalId}`,
      headers: { authorization: `Bearer ${other.access_token}` },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'withdrawal_not_found' });

    const all = await s.api.inject({
      method: 'GET',
      url: '/admin/chain/withdrawals?status=queued',
      headers: admin,
    });
    expect(all.json()).toMatchObject({ withdrawals: [body] });
    const status = await s.api.inject({ method: 'GET', url: '/admin/chain', headers: admin });
    expect(status.json()).toMatchObject({
      withdrawals: {
        operatorAddress: null,
        waiting: 'no operator key: withdrawals are queued, not sent',
        queued: { count: 1, amount: '12.5' },
        sent: { count: 0, amount: '0' },
        paid: { count: 0, amount: '0' },
        failed: { count: 0, amount: '0' },
      },
    });
  });

  it('refuses bad input with a 4xx naming the field, and reserves nothing', async () => {
    const { s, player, headers } = await arcade(100n);
    // A checksum with letters of both cases, so flipping one letter's case below leaves a mixed
    // case that is not the checksum (an address with one letter of a case would flip to one case,
    // which is valid without a checksum).
    let good = wallet();
    while ((good.match(/[a-f]/g) ?? []).length < 2 || (good.match(/[A-F]/g) ?? []).length < 2) {
      good = wallet();
    }
    const cases: [object, number, string, Record<string, unknown>][] = [
      [{ amount: 0, to: good }, 400, 'invalid_amount', { field: 'amount' }],
      [{ amount: '0', to: good }, 400, 'invalid_amount', { field: 'amount' }],
      [{ amount: '-1', to: good }, 400, 'invalid_amount', { field: 'amount' }],
      [{ amount: -1, to: good }, 400, 'invalid_amount', { field: 'amount' }],
      [{ amount: '0.000000001', to: good }, 400, 'invalid_amount', { field: 'amount' }],
      [{ amount: 'ten', to: good }, 400, 'invalid_amount', { field: 'amount' }],
      [
        { amount: '100.00000001', to: good },
        402,
        'insufficient_funds',
        { available: '100', required: '100.00000001' },
      ],
      [
        { amount: '1000.5', to: good },
        422,
        'withdrawal_above_limit',
        { field: 'amount', maxWithdrawal: '1000' },
      ],
      [{ amount: '1', to: '0x1234' }, 400, 'validation_failed', { field: 'to' }],
      [{ amount: '1', to: `0x${'0'.repeat(40)}` }, 400, 'validation_failed', { field: 'to' }],
      [
        // A checksum with one letter's case flipped.
        {
          amount: '1',
          to:
            good.replace(/[a-f]/, (c) => c.toUpperCase()) === good
              ? good.replace(/[A-F]/, (c) => c.toLowerCase())
              : good.replace(/[a-f]/, (c) => c.toUpperCase()),
        },
        400,
        'validation_failed',
        { field: 'to' },
      ],
      [{ amount: '1' }, 400, 'validation_failed', {}],
    ];
    for (const [payload, status, code, details] of cases) {
      const res = await s.api.inject({
        method: 'POST',
        url: '/player/withdrawals',
        headers,
        payload,
      });
      const where = JSON.stringify(payload);
      expect(res.statusCode, where).toBe(status);
      expect(res.json(), where).toMatchObject({ code, details });
    }
    expect(await unitsOf(player.accountId)).toBe(100n * HST);
    expect(await s.db.query('SELECT id FROM chain_withdrawals')).toEqual([]);
    expect(await s.db.query("SELECT id FROM transfers WHERE reason = 'withdrawal'")).toEqual([]);
  });

  it("refuses a withdrawal above the vault's daily limit, which no day could pay (finding 6)", async () => {
    // What broke: the contract takes a maxWithdrawal above the daily limit, and a withdrawal
    // between the two was queued; it fitted no day, and the queue, paid in order, waited behind
    // it for ever. It is now refused at once, like one above maxWithdrawal.
    const { s, player, headers, vault } = await arcade(500n);
    const hash = await chain.admin.writeContract({
      address: vault,
      abi: arcadeVaultAbi,
      functionName: 'setLimits',
      args: [1_000n * HST, 350n * HST],
    });
    await chain.admin.waitForTransactionReceipt({ hash });
    const withdraw = (amount: string) =>
      s.api.inject({
        method: 'POST',
        url: '/player/withdrawals',
        headers,
        payload: { amount, to: wallet() },
      });
    const refused = await withdraw('400');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'withdrawal_above_limit',
      message: 'amount 400 HST is more than the vault pays in one withdrawal (350 HST)',
      details: { field: 'amount', amount: '400', maxWithdrawal: '350' },
    });
    expect(await unitsOf(player.accountId)).toBe(500n * HST);
    expect((await withdraw('350')).statusCode).toBe(202);
    expect(await unitsOf(player.accountId)).toBe(150n * HST);
  });

  it('answers a retry with the same Idempotency-Key with the same withdrawal, reserved once', async () => {
    const { s, player, headers } = await arcade(10n);
    const to = wallet();
    const send = (amount: string) =>
      s.api.inject({
        method: 'POST',
        url: '/player/withdrawals',
        headers: { ...headers, 'idempotency-key': 'withdraw-1' },
        payload: { amount, to },
      });
    const first = await send('3');
    const again = await send('3');
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const other = await send('4');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await unitsOf(player.accountId)).toBe(7n * HST);
  });

  it("withdraws a developer's earnings with the API key or the portal session", async () => {
    const { s } = await arcade(0n);
    const devWallet = newWallet();
    const { developerId, apiKey } = await createDeveloper(s.api.arcade, devWallet.address);
    const developer = (await findDeveloper(s.db, developerId))!;
    await mint(developer.accountId, 50n * HST);
    const byKey = await s.api.inject({
      method: 'POST',
      url: '/developer/withdrawals',
      headers: { 'api-key': apiKey },
      payload: { amount: 20, to: wallet() },
    });
    expect(byKey.statusCode).toBe(202);
    expect(byKey.json()).toMatchObject({ accountId: developer.accountId, amount: '20' });
    const session = await walletSignIn(s.auth, devWallet);
    const bySession = await s.api.inject({
      method: 'POST',
      url: '/developer/withdrawals',
      headers: { authorization: `Bearer ${session.access_token}` },
      payload: { amount: '30.00000001', to: wallet() },
    });
    expect(bySession.statusCode).toBe(402);
    expect(bySession.json()).toMatchObject({
      code: 'insufficient_funds',
      details: { available: '30', required: '30.00000001' },
    });
    const list = await s.api.inject({
      method: 'GET',
      url: '/developer/withdrawals',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(list.json<{ withdrawals: unknown[] }>().withdrawals).toHaveLength(1);
    expect(await unitsOf(developer.accountId)).toBe(30n * HST);
    // The portal's balance: what is left to withdraw, and what the withdrawal reserves.
    for (const headers of [
      { authorization: `Bearer ${session.access_token}` },
      { 'api-key': apiKey },
    ]) {
      const balance = await s.api.inject({ method: 'GET', url: '/developer/balance', headers });
      expect(balance.statusCode).toBe(200);
      expect(balance.json()).toEqual({ available: '30', reserved: '20' });
    }
  });

  it('answers 409 chain_mode_off without chain mode, reserving nothing', async () => {
    s = await buildTestSignin(variant);
    const session = await walletSignIn(s.auth, newWallet());
    const res = await s.api.inject({
      method: 'POST',
      url: '/player/withdrawals',
      headers: { authorization: `Bearer ${session.access_token}` },
      payload: { amount: '1', to: wallet() },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'chain_mode_off' });
  });
});
