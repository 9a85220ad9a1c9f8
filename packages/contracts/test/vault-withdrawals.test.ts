import { type VaultWithdrawal, withdrawalTypedData } from '@coinop/contracts';
import { type Address, type Hex, hashTypedData, keccak256, toHex } from 'viem';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type Actor,
  approveVault,
  DAY_SECONDS,
  expectRevert,
  HST,
  hstBalance,
  LIMITS,
  mined,
  newId,
  nextUtcDay,
  useArcadeChain,
  vaultRead,
  vaultWrite,
} from './fixtures/chain.js';

const chain = useArcadeChain();
const OPERATOR_ROLE = keccak256(toHex('OPERATOR_ROLE'));
const DEFAULT_ADMIN_ROLE = `0x${'0'.repeat(64)}` as const;
const ZERO_ID = `0x${'0'.repeat(32)}` as const;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}` as const;
const VAULT_FUNDS = 8_000n * HST;

function withdrawal(to: Address, amount: bigint, id: Hex = newId()): VaultWithdrawal {
  return { id, to, amount };
}

function batch(withdrawals: VaultWithdrawal[], sender: Actor = chain.operator) {
  return vaultWrite(chain, sender, 'withdrawBatch', [withdrawals]);
}

async function signed(w: VaultWithdrawal, signer: Actor = chain.operator): Promise<Hex> {
  return signer.account.signTypedData(withdrawalTypedData(chain.chainId, chain.vault, w));
}

function submit(w: VaultWithdrawal, signature: Hex, sender: Actor = chain.outsider) {
  return vaultWrite(chain, sender, 'withdraw', [w, signature]);
}

const balanceOf = (actor: Actor) => hstBalance(chain, actor.account.address);

describe('ArcadeVault withdrawals', () => {
  beforeEach(async () => {
    // Two players' deposits fund the vault; every test starts early in a UTC day, so a daily
    // total never straddles midnight by chance.
    for (const player of chain.players.slice(0, 2)) {
      await approveVault(chain, player, VAULT_FUNDS / 2n);
      await mined(player, vaultWrite(chain, player, 'deposit', [VAULT_FUNDS / 2n, newId()]));
    }
    await nextUtcDay(chain);
  });

  it('pays a batch of operator instructions, each once, to the unit', async () => {
    const a = withdrawal(chain.developer.account.address, 300n * HST + 7n);
    const b = withdrawal(chain.arcade.account.address, 1n);
    const { events } = await mined(chain.operator, batch([a, b]));

    expect(events).toEqual([
      { eventName: 'Withdrawn', args: a },
      { eventName: 'Withdrawn', args: b },
    ]);
    expect(await balanceOf(chain.developer)).toBe(300n * HST + 7n);
    expect(await balanceOf(chain.arcade)).toBe(1n);
    expect(await hstBalance(chain, chain.vault)).toBe(VAULT_FUNDS - 300n * HST - 8n);
    expect(await vaultRead(chain, 'isPaid', [a.id])).toBe(true);
    expect(await vaultRead(chain, 'isPaid', [b.id])).toBe(true);
    expect(await vaultRead(chain, 'isPaid', [newId()])).toBe(false);
    expect(await vaultRead(chain, 'withdrawnToday')).toBe(300n * HST + 8n);
  });

  it('skips ids already paid when a batch is re-sent after a crash, and pays the rest once', async () => {
    const to = chain.developer.account.address;
    const a = withdrawal(to, 100n * HST);
    const b = withdrawal(to, 200n * HST);
    const c = withdrawal(to, 400n * HST);
    await mined(chain.operator, batch([a, b]));

    const { events } = await mined(chain.operator, batch([a, b, c, c]));
    expect(events).toEqual([
      { eventName: 'WithdrawalSkipped', args: { id: a.id } },
      { eventName: 'WithdrawalSkipped', args: { id: b.id } },
      { eventName: 'Withdrawn', args: c },
      // The same id twice in one batch: the second is already paid.
      { eventName: 'WithdrawalSkipped', args: { id: c.id } },
    ]);
    expect(await balanceOf(chain.developer)).toBe(700n * HST);
    expect(await hstBalance(chain, chain.vault)).toBe(VAULT_FUNDS - 700n * HST);
    expect(await vaultRead(chain, 'withdrawnToday')).toBe(700n * HST);

    // A re-sent batch whose every id is paid moves nothing.
    const again = await mined(chain.operator, batch([a, b, c]));
    expect(again.events.map((event) => event.eventName)).toEqual([
      'WithdrawalSkipped',
      'WithdrawalSkipped',
      'WithdrawalSkipped',
    ]);
    expect(await balanceOf(chain.developer)).toBe(700n * HST);
  });

  it('pays an operator-signed instruction submitted by anyone, and refuses its replay', async () => {
    const player = chain.players[2]!;
    const w = withdrawal(player.account.address, 250n * HST + 3n);
    const signature = await signed(w);

    // The recipient submits it and pays the gas.
    const { events } = await mined(player, submit(w, signature, player));
    expect(events).toEqual([{ eventName: 'Withdrawn', args: w }]);
    expect(await balanceOf(player)).toBe(10_000n * HST + 250n * HST + 3n);
    expect(await vaultRead(chain, 'isPaid', [w.id])).toBe(true);

    await expectRevert(submit(w, signature), 'WithdrawalAlreadyPaid', [w.id]);
    // The batch path agrees: the id is paid, so it is skipped.
    const { events: skipped } = await mined(chain.operator, batch([w]));
    expect(skipped).toEqual([{ eventName: 'WithdrawalSkipped', args: { id: w.id } }]);
    expect(await balanceOf(player)).toBe(10_000n * HST + 250n * HST + 3n);
    expect(await hstBalance(chain, chain.vault)).toBe(VAULT_FUNDS - 250n * HST - 3n);
  });

  it('refuses a signed instruction for an id the operator already paid in a batch', async () => {
    const w = withdrawal(chain.developer.account.address, 10n * HST);
    const signature = await signed(w);
    await mined(chain.operator, batch([w]));
    await expectRevert(submit(w, signature), 'WithdrawalAlreadyPaid', [w.id]);
    expect(await balanceOf(chain.developer)).toBe(10n * HST);
  });

  it('signs the EIP-712 digest the vault computes, in the domain it publishes', async () => {
    const w = withdrawal(chain.developer.account.address, 42n);
    const { domain } = await chain.test.getEip712Domain({ address: chain.vault });
    expect(domain).toMatchObject(withdrawalTypedData(chain.chainId, chain.vault, w).domain);
    expect(await vaultRead(chain, 'hashWithdrawal', [w])).toBe(
      hashTypedData(withdrawalTypedData(chain.chainId, chain.vault, w)),
    );
  });

  it('refuses a signature by a key without OPERATOR_ROLE, or over other terms', async () => {
    const thief = chain.players[3]!;
    const w = withdrawal(thief.account.address, 500n * HST);
    await expectRevert(submit(w, await signed(w, thief), thief), 'SignerNotOperator', [
      thief.account.address,
    ]);

    // The operator signed 5 HST; the submitter asks for 500 with that signature.
    const honest = withdrawal(thief.account.address, 5n * HST);
    const signature = await signed(honest);
    await expectRevert(submit({ ...honest, amount: 500n * HST }, signature), 'SignerNotOperator');

    // A signature for the same instruction on another vault (another EIP-712 domain).
    const elsewhere = await chain.operator.account.signTypedData(
      withdrawalTypedData(chain.chainId, chain.hst, honest),
    );
    await expectRevert(submit(honest, elsewhere), 'SignerNotOperator');

    // Not a 65-byte signature at all.
    await expectRevert(submit(honest, signature.slice(0, 130) as Hex), 'InvalidSignature', []);

    expect(await balanceOf(thief)).toBe(10_000n * HST);
    expect(await vaultRead(chain, 'isPaid', [honest.id])).toBe(false);
  });

  it("voids outstanding signatures when the operator's role is revoked", async () => {
    const w = withdrawal(chain.developer.account.address, 5n * HST);
    const signature = await signed(w);
    await mined(
      chain.admin,
      vaultWrite(chain, chain.admin, 'revokeRole', [OPERATOR_ROLE, chain.operator.account.address]),
    );
    await expectRevert(submit(w, signature), 'SignerNotOperator', [chain.operator.account.address]);
    await expectRevert(batch([w]), 'AccessControlUnauthorizedAccount', [
      chain.operator.account.address,
      OPERATOR_ROLE,
    ]);
    expect(await balanceOf(chain.developer)).toBe(0n);
  });

  it('refuses a zero amount, the zero address and the zero id, on both paths', async () => {
    const to = chain.developer.account.address;
    const cases: [VaultWithdrawal, string][] = [
      [withdrawal(to, 0n), 'ZeroAmount'],
      [withdrawal(ZERO_ADDRESS, HST), 'ZeroAddress'],
      [withdrawal(to, HST, ZERO_ID), 'ZeroId'],
    ];
    for (const [w, error] of cases) {
      await expectRevert(batch([withdrawal(to, HST), w]), error, []);
      await expectRevert(submit(w, await signed(w)), error, []);
    }
    expect(await balanceOf(chain.developer)).toBe(0n);
  });

  it('lets only OPERATOR_ROLE send a batch', async () => {
    for (const sender of [chain.admin, chain.players[0]!, chain.outsider]) {
      await expectRevert(
        batch([withdrawal(sender.account.address, HST)], sender),
        'AccessControlUnauthorizedAccount',
        [sender.account.address, OPERATOR_ROLE],
      );
    }
    expect(await hstBalance(chain, chain.vault)).toBe(VAULT_FUNDS);
  });

  it('refuses an instruction above maxWithdrawal; one such item reverts the whole batch', async () => {
    const to = chain.developer.account.address;
    const atMax = withdrawal(to, LIMITS.maxWithdrawal);
    const over = withdrawal(to, LIMITS.maxWithdrawal + 1n);

    await expectRevert(batch([atMax, over]), 'WithdrawalAboveMax', [
      over.id,
      over.amount,
      LIMITS.maxWithdrawal,
    ]);
    expect(await vaultRead(chain, 'isPaid', [atMax.id])).toBe(false);
    await expectRevert(submit(over, await signed(over)), 'WithdrawalAboveMax', [
      over.id,
      over.amount,
      LIMITS.maxWithdrawal,
    ]);

    await mined(chain.operator, batch([atMax]));
    expect(await balanceOf(chain.developer)).toBe(LIMITS.maxWithdrawal);
  });

  it('holds all withdrawals of a UTC day to dailyWithdrawalLimit, and opens again the next day', async () => {
    const to = chain.developer.account.address;
    const limit = LIMITS.dailyWithdrawalLimit; // 2,500 HST
    await mined(
      chain.operator,
      batch([withdrawal(to, 1_000n * HST), withdrawal(to, 1_000n * HST)]),
    );
    const rest = withdrawal(to, 500n * HST);
    await mined(chain.outsider, submit(rest, await signed(rest)));
    expect(await vaultRead(chain, 'withdrawnToday')).toBe(limit);

    const one = withdrawal(to, 1n);
    await expectRevert(batch([one]), 'DailyWithdrawalLimitExceeded', [one.id, 1n, limit, limit]);
    await expectRevert(submit(one, await signed(one)), 'DailyWithdrawalLimitExceeded', [
      one.id,
      1n,
      limit,
      limit,
    ]);

    // Late the same day: still refused.
    await chain.test.increaseTime({ seconds: Number(DAY_SECONDS) - 180 });
    await chain.test.mine({ blocks: 1 });
    await expectRevert(batch([one]), 'DailyWithdrawalLimitExceeded', [one.id, 1n, limit, limit]);

    // Past midnight UTC the day's total starts again from zero.
    await nextUtcDay(chain, 1n);
    expect(await vaultRead(chain, 'withdrawnToday')).toBe(0n);
    await mined(chain.operator, batch([one]));
    expect(await vaultRead(chain, 'withdrawnToday')).toBe(1n);
    expect(await balanceOf(chain.developer)).toBe(limit + 1n);
  });

  it('reverts a batch that would cross the daily limit, paying none of it', async () => {
    const to = chain.developer.account.address;
    const items = [1_000n, 1_000n, 501n].map((hst) => withdrawal(to, hst * HST));
    await expectRevert(batch(items), 'DailyWithdrawalLimitExceeded', [
      items[2]!.id,
      501n * HST,
      2_000n * HST,
      LIMITS.dailyWithdrawalLimit,
    ]);
    expect(await vaultRead(chain, 'withdrawnToday')).toBe(0n);
    expect(await balanceOf(chain.developer)).toBe(0n);
  });

  it('lets the admin change the limits; lowering the daily limit below today stops withdrawals', async () => {
    const to = chain.developer.account.address;
    await mined(chain.operator, batch([withdrawal(to, 600n * HST)]));

    const { events } = await mined(
      chain.admin,
      vaultWrite(chain, chain.admin, 'setLimits', [5_000n * HST, 500n * HST]),
    );
    expect(events).toEqual([
      {
        eventName: 'LimitsChanged',
        args: { maxWithdrawal: 5_000n * HST, dailyWithdrawalLimit: 500n * HST },
      },
    ]);
    expect(await vaultRead(chain, 'maxWithdrawal')).toBe(5_000n * HST);
    expect(await vaultRead(chain, 'dailyWithdrawalLimit')).toBe(500n * HST);

    const one = withdrawal(to, 1n);
    await expectRevert(batch([one]), 'DailyWithdrawalLimitExceeded', [
      one.id,
      1n,
      600n * HST,
      500n * HST,
    ]);
    await nextUtcDay(chain);
    await mined(chain.operator, batch([withdrawal(to, 500n * HST)]));
    expect(await balanceOf(chain.developer)).toBe(1_100n * HST);

    for (const sender of [chain.operator, chain.outsider]) {
      await expectRevert(
        vaultWrite(chain, sender, 'setLimits', [1n, 1n]),
        'AccessControlUnauthorizedAccount',
        [sender.account.address, DEFAULT_ADMIN_ROLE],
      );
    }
  });

  it('never pays a withdrawal out of open play locks', async () => {
    // Raise the limits so that only the vault's balance bounds the withdrawal.
    await mined(
      chain.admin,
      vaultWrite(chain, chain.admin, 'setLimits', [100_000n * HST, 100_000n * HST]),
    );
    const player = chain.players[2]!;
    await approveVault(chain, player, 30n * HST);
    await mined(player, vaultWrite(chain, player, 'lockPlay', [newId(), 30n * HST]));
    expect(await vaultRead(chain, 'lockedTotal')).toBe(30n * HST);
    expect(await vaultRead(chain, 'unlockedBalance')).toBe(VAULT_FUNDS);

    const tooMuch = withdrawal(chain.developer.account.address, VAULT_FUNDS + 1n);
    await expectRevert(batch([tooMuch]), 'InsufficientUnlockedBalance', [
      tooMuch.id,
      VAULT_FUNDS + 1n,
      VAULT_FUNDS,
    ]);
    await mined(chain.operator, batch([{ ...tooMuch, amount: VAULT_FUNDS }]));
    expect(await hstBalance(chain, chain.vault)).toBe(30n * HST);
    expect(await vaultRead(chain, 'unlockedBalance')).toBe(0n);
  });

  it('refuses withdrawals on both paths while paused, and pays after unpause', async () => {
    const w = withdrawal(chain.developer.account.address, 3n * HST);
    const signature = await signed(w);
    await mined(chain.admin, vaultWrite(chain, chain.admin, 'pause', []));
    await expectRevert(batch([w]), 'EnforcedPause', []);
    await expectRevert(submit(w, signature), 'EnforcedPause', []);

    await mined(chain.admin, vaultWrite(chain, chain.admin, 'unpause', []));
    await mined(chain.outsider, submit(w, signature));
    expect(await balanceOf(chain.developer)).toBe(3n * HST);
  });
});
