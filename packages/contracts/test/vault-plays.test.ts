import { type Address, type Hex, keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  type Actor,
  advance,
  approveVault,
  DAY_SECONDS,
  expectRevert,
  HST,
  hstBalance,
  mined,
  newId,
  PLAYER_FUNDS,
  signPermit,
  useArcadeChain,
  vaultAbi,
  vaultRead,
  vaultWrite,
} from './fixtures/chain.js';

const chain = useArcadeChain();
const OPERATOR_ROLE = keccak256(toHex('OPERATOR_ROLE'));
const DEFAULT_ADMIN_ROLE = `0x${'0'.repeat(64)}` as const;
const ZERO_ID = `0x${'0'.repeat(32)}` as const;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}` as const;
const COST = 10n * HST;

// ArcadeVault.PlayState
const LOCKED = 1;
const SETTLED = 2;
const REFUNDED = 3;
const RECLAIMED = 4;

interface Settlement {
  playId: Hex;
  payouts: { to: Address; amount: bigint }[];
}

async function lock(player: Actor, amount = COST, playId: Hex = newId()): Promise<Hex> {
  await approveVault(chain, player, amount);
  await mined(player, vaultWrite(chain, player, 'lockPlay', [playId, amount]));
  return playId;
}

/** Two leaders 6 + 1.5 HST, the developer 2 HST, the arcade 0.5 HST: 10 HST. */
function split(playId: Hex): Settlement {
  return {
    playId,
    payouts: [
      { to: chain.players[2]!.account.address, amount: 6n * HST },
      { to: chain.players[3]!.account.address, amount: 15n * (HST / 10n) },
      { to: chain.developer.account.address, amount: 2n * HST },
      { to: chain.arcade.account.address, amount: HST / 2n },
    ],
  };
}

function settle(settlements: Settlement[], sender: Actor = chain.operator) {
  return vaultWrite(chain, sender, 'settleBatch', [settlements]);
}

function refund(playIds: Hex[], sender: Actor = chain.operator) {
  return vaultWrite(chain, sender, 'refund', [playIds]);
}

function reclaim(player: Actor, playId: Hex) {
  return vaultWrite(chain, player, 'reclaim', [playId]);
}

const balanceOf = (actor: Actor) => hstBalance(chain, actor.account.address);

describe('ArcadeVault plays locked from the wallet', () => {
  it("locks a play's cost from the wallet and records player, amount, time and state", async () => {
    const player = chain.players[0]!;
    const playId = newId();
    await approveVault(chain, player, COST);
    const { receipt, events } = await mined(
      player,
      vaultWrite(chain, player, 'lockPlay', [playId, COST]),
    );
    const block = await chain.test.getBlock({ blockNumber: receipt.blockNumber });

    expect(events).toEqual([
      { eventName: 'PlayLocked', args: { playId, player: player.account.address, amount: COST } },
    ]);
    expect(await vaultRead(chain, 'playLock', [playId])).toEqual({
      player: player.account.address,
      lockedAt: block.timestamp,
      state: LOCKED,
      amount: COST,
    });
    expect(await vaultRead(chain, 'lockedTotal')).toBe(COST);
    expect(await balanceOf(player)).toBe(PLAYER_FUNDS - COST);
    expect(await hstBalance(chain, chain.vault)).toBe(COST);
  });

  it('locks with a permit in one transaction', async () => {
    const player = chain.players[1]!;
    const playId = newId();
    const permit = await signPermit(chain, player, COST);
    const { events } = await mined(
      player,
      vaultWrite(chain, player, 'lockPlayWithPermit', [
        playId,
        COST,
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ]),
    );
    expect(events).toEqual([
      { eventName: 'PlayLocked', args: { playId, player: player.account.address, amount: COST } },
    ]);
    expect((await vaultRead(chain, 'playLock', [playId])).state).toBe(LOCKED);
    expect(await balanceOf(player)).toBe(PLAYER_FUNDS - COST);

    const forged = await signPermit(chain, player, COST, { signer: chain.players[0]! });
    await expectRevert(
      vaultWrite(chain, player, 'lockPlayWithPermit', [
        newId(),
        COST,
        forged.deadline,
        forged.v,
        forged.r,
        forged.s,
      ]),
      'ERC2612InvalidSigner',
      [chain.players[0]!.account.address, player.account.address],
    );
  });

  it('refuses a play id already used (by anyone), a zero amount, the zero id, no allowance', async () => {
    const [player, other] = chain.players;
    const playId = await lock(player!);
    await approveVault(chain, other!, COST);

    await expectRevert(vaultWrite(chain, other!, 'lockPlay', [playId, COST]), 'PlayAlreadyExists', [
      playId,
    ]);
    await expectRevert(vaultWrite(chain, other!, 'lockPlay', [newId(), 0n]), 'ZeroAmount', []);
    await expectRevert(vaultWrite(chain, other!, 'lockPlay', [ZERO_ID, COST]), 'ZeroId', []);
    await expectRevert(
      vaultWrite(chain, other!, 'lockPlay', [newId(), COST + 1n]),
      'ERC20InsufficientAllowance',
      [chain.vault, COST, COST + 1n],
    );
    expect(await balanceOf(other!)).toBe(PLAYER_FUNDS);
    expect(await vaultRead(chain, 'lockedTotal')).toBe(COST);
  });

  it('settles a batch: pays leaders, developer and arcade exactly the lock, once', async () => {
    const first = await lock(chain.players[0]!);
    const second = await lock(chain.players[1]!);
    const { events } = await mined(chain.operator, settle([split(first), split(second)]));

    const paid = (playId: Hex, player: Actor) => [
      { eventName: 'PlaySettled', args: { playId, player: player.account.address, amount: COST } },
      ...split(playId).payouts.map(({ to, amount }) => ({
        eventName: 'PlayPaid',
        args: { playId, to, amount },
      })),
    ];
    expect(events).toEqual([...paid(first, chain.players[0]!), ...paid(second, chain.players[1]!)]);
    expect(await balanceOf(chain.players[2]!)).toBe(PLAYER_FUNDS + 12n * HST);
    expect(await balanceOf(chain.players[3]!)).toBe(PLAYER_FUNDS + 3n * HST);
    expect(await balanceOf(chain.developer)).toBe(4n * HST);
    expect(await balanceOf(chain.arcade)).toBe(1n * HST);
    expect(await hstBalance(chain, chain.vault)).toBe(0n);
    expect(await vaultRead(chain, 'lockedTotal')).toBe(0n);
    expect((await vaultRead(chain, 'playLock', [first])).state).toBe(SETTLED);

    // Settled once only: the batch re-sent skips both and pays nothing.
    const again = await mined(chain.operator, settle([split(first), split(second)]));
    expect(again.events).toEqual([
      { eventName: 'SettlementSkipped', args: { playId: first, state: SETTLED } },
      { eventName: 'SettlementSkipped', args: { playId: second, state: SETTLED } },
    ]);
    expect(await balanceOf(chain.developer)).toBe(4n * HST);
    // Nor refunded, nor reclaimed, after settlement.
    const refunded = await mined(chain.operator, refund([first]));
    expect(refunded.events).toEqual([
      { eventName: 'RefundSkipped', args: { playId: first, state: SETTLED } },
    ]);
    await advance(chain, DAY_SECONDS);
    await expectRevert(reclaim(chain.players[0]!, first), 'PlayNotLocked', [first, SETTLED]);
    expect(await balanceOf(chain.players[0]!)).toBe(PLAYER_FUNDS - COST);
  });

  it('reverts the whole batch when payouts do not sum to the lock exactly', async () => {
    const good = await lock(chain.players[0]!);
    const bad = await lock(chain.players[1]!);
    const short = split(bad);
    short.payouts[3]!.amount -= 1n;
    await expectRevert(settle([split(good), short]), 'PayoutSumMismatch', [bad, COST, COST - 1n]);
    const over = split(bad);
    over.payouts[0]!.amount += 1n;
    await expectRevert(settle([split(good), over]), 'PayoutSumMismatch', [bad, COST, COST + 1n]);
    await expectRevert(settle([{ playId: bad, payouts: [] }]), 'PayoutSumMismatch', [
      bad,
      COST,
      0n,
    ]);

    // The valid settlement before it was not applied either.
    expect((await vaultRead(chain, 'playLock', [good])).state).toBe(LOCKED);
    expect(await vaultRead(chain, 'lockedTotal')).toBe(2n * COST);
    expect(await balanceOf(chain.developer)).toBe(0n);
  });

  it('refuses a payout to the zero address, a zero payout, and an unknown play', async () => {
    const playId = await lock(chain.players[0]!);
    const toZero = split(playId);
    toZero.payouts[0]!.to = ZERO_ADDRESS;
    await expectRevert(settle([toZero]), 'ZeroAddress', []);
    const zero = split(playId);
    zero.payouts.push({ to: chain.arcade.account.address, amount: 0n });
    await expectRevert(settle([zero]), 'ZeroAmount', []);
    const unknown = newId();
    await expectRevert(settle([split(playId), split(unknown)]), 'PlayNotFound', [unknown]);
    await expectRevert(refund([playId, unknown]), 'PlayNotFound', [unknown]);
    await expectRevert(reclaim(chain.players[0]!, unknown), 'PlayNotFound', [unknown]);
    expect((await vaultRead(chain, 'playLock', [playId])).state).toBe(LOCKED);
  });

  it('refunds open locks to their players, once; a refunded play is never settled', async () => {
    const [p1, p2] = chain.players;
    const first = await lock(p1!, 3n * HST);
    const second = await lock(p2!, 4n * HST + 1n);
    const { events } = await mined(chain.operator, refund([first, second]));
    expect(events).toEqual([
      {
        eventName: 'PlayRefunded',
        args: { playId: first, player: p1!.account.address, amount: 3n * HST },
      },
      {
        eventName: 'PlayRefunded',
        args: { playId: second, player: p2!.account.address, amount: 4n * HST + 1n },
      },
    ]);
    expect(await balanceOf(p1!)).toBe(PLAYER_FUNDS);
    expect(await balanceOf(p2!)).toBe(PLAYER_FUNDS);
    expect(await vaultRead(chain, 'lockedTotal')).toBe(0n);
    expect((await vaultRead(chain, 'playLock', [first])).state).toBe(REFUNDED);

    const again = await mined(chain.operator, refund([first]));
    expect(again.events).toEqual([
      { eventName: 'RefundSkipped', args: { playId: first, state: REFUNDED } },
    ]);
    const settled = await mined(chain.operator, settle([{ ...split(first) }]));
    expect(settled.events).toEqual([
      { eventName: 'SettlementSkipped', args: { playId: first, state: REFUNDED } },
    ]);
    expect(await balanceOf(p1!)).toBe(PLAYER_FUNDS);
    expect(await hstBalance(chain, chain.vault)).toBe(0n);
  });

  it('lets only OPERATOR_ROLE settle and refund', async () => {
    const playId = await lock(chain.players[0]!);
    for (const sender of [chain.admin, chain.players[0]!, chain.outsider]) {
      await expectRevert(settle([split(playId)], sender), 'AccessControlUnauthorizedAccount', [
        sender.account.address,
        OPERATOR_ROLE,
      ]);
      await expectRevert(refund([playId], sender), 'AccessControlUnauthorizedAccount', [
        sender.account.address,
        OPERATOR_ROLE,
      ]);
    }
    expect((await vaultRead(chain, 'playLock', [playId])).state).toBe(LOCKED);
  });

  it('lets the player reclaim their own open lock after lockTimeout, not before, once', async () => {
    const [player, other] = chain.players;
    const playId = await lock(player!);
    const { lockedAt } = await vaultRead(chain, 'playLock', [playId]);
    const reclaimableAt = lockedAt + DAY_SECONDS;

    await expectRevert(reclaim(player!, playId), 'LockNotExpired', [playId, reclaimableAt]);
    // Mined one second before the timeout (gas given, so nothing is estimated ahead of it).
    await chain.test.setNextBlockTimestamp({ timestamp: reclaimableAt - 1n });
    const early = await player!.waitForTransactionReceipt({
      hash: await player!.writeContract({
        address: chain.vault,
        abi: vaultAbi,
        functionName: 'reclaim',
        args: [playId],
        gas: 200_000n,
      }),
    });
    expect(early.status).toBe('reverted');
    expect((await chain.test.getBlock({ blockNumber: early.blockNumber })).timestamp).toBe(
      reclaimableAt - 1n,
    );
    await expectRevert(
      chain.test.simulateContract({
        account: player!.account,
        address: chain.vault,
        abi: vaultAbi,
        functionName: 'reclaim',
        args: [playId],
        blockNumber: early.blockNumber,
      }),
      'LockNotExpired',
      [playId, reclaimableAt],
    );

    // Mined at the very second the timeout ends.
    await chain.test.setNextBlockTimestamp({ timestamp: reclaimableAt });
    await expectRevert(reclaim(other!, playId), 'NotPlayOwner', [playId, player!.account.address]);
    const { receipt, events } = await mined(player!, reclaim(player!, playId));
    expect((await chain.test.getBlock({ blockNumber: receipt.blockNumber })).timestamp).toBe(
      reclaimableAt,
    );
    expect(events).toEqual([
      {
        eventName: 'PlayReclaimed',
        args: { playId, player: player!.account.address, amount: COST },
      },
    ]);
    expect(await balanceOf(player!)).toBe(PLAYER_FUNDS);
    expect(await vaultRead(chain, 'lockedTotal')).toBe(0n);

    await expectRevert(reclaim(player!, playId), 'PlayNotLocked', [playId, RECLAIMED]);
    const settled = await mined(chain.operator, settle([split(playId)]));
    expect(settled.events).toEqual([
      { eventName: 'SettlementSkipped', args: { playId, state: RECLAIMED } },
    ]);
    expect(await balanceOf(chain.developer)).toBe(0n);
  });

  it('lets the admin set lockTimeout within (0, 30 days], applying to open locks', async () => {
    const player = chain.players[0]!;
    const playId = await lock(player);
    const { events } = await mined(
      chain.admin,
      vaultWrite(chain, chain.admin, 'setLockTimeout', [3_600n]),
    );
    expect(events).toEqual([{ eventName: 'LockTimeoutChanged', args: { lockTimeout: 3_600n } }]);
    expect(await vaultRead(chain, 'lockTimeout')).toBe(3_600n);
    await advance(chain, 3_600n);
    await mined(player, reclaim(player, playId));
    expect(await balanceOf(player)).toBe(PLAYER_FUNDS);

    const max = await vaultRead(chain, 'MAX_LOCK_TIMEOUT');
    expect(max).toBe(30n * DAY_SECONDS);
    for (const bad of [0n, max + 1n]) {
      await expectRevert(
        vaultWrite(chain, chain.admin, 'setLockTimeout', [bad]),
        'InvalidLockTimeout',
        [bad, max],
      );
    }
    await mined(chain.admin, vaultWrite(chain, chain.admin, 'setLockTimeout', [max]));
    await expectRevert(
      vaultWrite(chain, chain.operator, 'setLockTimeout', [60n]),
      'AccessControlUnauthorizedAccount',
      [chain.operator.account.address, DEFAULT_ADMIN_ROLE],
    );
    expect(await vaultRead(chain, 'lockTimeout')).toBe(max);
  });

  it('refuses locks and settlements while paused, but refunds and reclaims stay open', async () => {
    const [p1, p2, p3] = chain.players;
    const refunded = await lock(p1!);
    const reclaimed = await lock(p2!);
    const settled = await lock(p3!);
    await approveVault(chain, p1!, COST);
    const permit = await signPermit(chain, p2!, COST);
    await mined(chain.admin, vaultWrite(chain, chain.admin, 'pause', []));

    await expectRevert(vaultWrite(chain, p1!, 'lockPlay', [newId(), COST]), 'EnforcedPause', []);
    await expectRevert(
      vaultWrite(chain, p2!, 'lockPlayWithPermit', [
        newId(),
        COST,
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ]),
      'EnforcedPause',
      [],
    );
    await expectRevert(settle([split(settled)]), 'EnforcedPause', []);

    // A pause never traps a player's HST.
    await mined(chain.operator, refund([refunded]));
    await advance(chain, DAY_SECONDS);
    await mined(p2!, reclaim(p2!, reclaimed));
    expect(await balanceOf(p1!)).toBe(PLAYER_FUNDS);
    expect(await balanceOf(p2!)).toBe(PLAYER_FUNDS);

    await mined(chain.admin, vaultWrite(chain, chain.admin, 'unpause', []));
    await mined(chain.operator, settle([split(settled)]));
    expect(await balanceOf(chain.developer)).toBe(2n * HST);
    expect(await vaultRead(chain, 'lockedTotal')).toBe(0n);
  });
});
