import { hstAbi } from '@coinop/contracts';
import { describe, expect, it } from 'vitest';
import {
  advance,
  approveVault,
  expectRevert,
  HST,
  hstBalance,
  mined,
  newId,
  PLAYER_FUNDS,
  signPermit,
  useArcadeChain,
  vaultWrite,
} from './fixtures/chain.js';

const chain = useArcadeChain();
const ZERO_ID = `0x${'0'.repeat(32)}` as const;

describe('ArcadeVault deposits', () => {
  it('pulls the amount from the sender and emits Deposited for the coinop account', async () => {
    const player = chain.players[0]!;
    const account = newId();
    await approveVault(chain, player, 25n * HST);

    const { events } = await mined(
      player,
      vaultWrite(chain, player, 'deposit', [12n * HST + 34n, account]),
    );
    expect(events).toEqual([
      {
        eventName: 'Deposited',
        args: { account, from: player.account.address, amount: 12n * HST + 34n },
      },
    ]);
    expect(await hstBalance(chain, player.account.address)).toBe(PLAYER_FUNDS - 12n * HST - 34n);
    expect(await hstBalance(chain, chain.vault)).toBe(12n * HST + 34n);
  });

  it('refuses a zero amount, the zero account and a deposit beyond the allowance', async () => {
    const player = chain.players[0]!;
    await approveVault(chain, player, HST);

    await expectRevert(vaultWrite(chain, player, 'deposit', [0n, newId()]), 'ZeroAmount', []);
    await expectRevert(vaultWrite(chain, player, 'deposit', [HST, ZERO_ID]), 'ZeroId', []);
    await expectRevert(
      vaultWrite(chain, player, 'deposit', [HST + 1n, newId()]),
      'ERC20InsufficientAllowance',
      [chain.vault, HST, HST + 1n],
    );
    expect(await hstBalance(chain, chain.vault)).toBe(0n);
  });

  it('deposits with a permit in one transaction, the permit spent', async () => {
    const player = chain.players[1]!;
    const account = newId();
    const permit = await signPermit(chain, player, 40n * HST);

    const { events } = await mined(
      player,
      vaultWrite(chain, player, 'depositWithPermit', [
        40n * HST,
        account,
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ]),
    );
    expect(events).toEqual([
      {
        eventName: 'Deposited',
        args: { account, from: player.account.address, amount: 40n * HST },
      },
    ]);
    expect(await hstBalance(chain, chain.vault)).toBe(40n * HST);
    const allowance = await chain.test.readContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'allowance',
      args: [player.account.address, chain.vault],
    });
    expect(allowance).toBe(0n);
  });

  it('still deposits when someone submitted the permit first (front-run), once', async () => {
    const player = chain.players[1]!;
    const permit = await signPermit(chain, player, 5n * HST);
    // An observer copies the permit from the mempool and submits it to HST directly.
    await mined(
      chain.outsider,
      chain.outsider.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'permit',
        args: [
          player.account.address,
          chain.vault,
          5n * HST,
          permit.deadline,
          permit.v,
          permit.r,
          permit.s,
        ],
      }),
    );
    const account = newId();
    const args = [5n * HST, account, permit.deadline, permit.v, permit.r, permit.s] as const;
    const { events } = await mined(player, vaultWrite(chain, player, 'depositWithPermit', args));
    expect(events).toEqual([
      { eventName: 'Deposited', args: { account, from: player.account.address, amount: 5n * HST } },
    ]);
    // The allowance is spent: the same permit again has nothing to fall back on.
    await expectRevert(
      vaultWrite(chain, player, 'depositWithPermit', args),
      'ERC2612InvalidSigner',
    );
    expect(await hstBalance(chain, chain.vault)).toBe(5n * HST);
  });

  it("bubbles the permit's error: another key's signature, an expired deadline", async () => {
    const [player, other] = chain.players;
    const forged = await signPermit(chain, player!, HST, { signer: other });
    await expectRevert(
      vaultWrite(chain, player!, 'depositWithPermit', [
        HST,
        newId(),
        forged.deadline,
        forged.v,
        forged.r,
        forged.s,
      ]),
      'ERC2612InvalidSigner',
      [other!.account.address, player!.account.address],
    );

    const late = await signPermit(chain, player!, HST);
    await advance(chain, 3_601n);
    await expectRevert(
      vaultWrite(chain, player!, 'depositWithPermit', [
        HST,
        newId(),
        late.deadline,
        late.v,
        late.r,
        late.s,
      ]),
      'ERC2612ExpiredSignature',
      [late.deadline],
    );
    expect(await hstBalance(chain, chain.vault)).toBe(0n);
  });

  it('refuses deposits while paused, and takes them again after unpause', async () => {
    const player = chain.players[2]!;
    await approveVault(chain, player, 2n * HST);
    await mined(chain.admin, vaultWrite(chain, chain.admin, 'pause', []));

    await expectRevert(vaultWrite(chain, player, 'deposit', [HST, newId()]), 'EnforcedPause', []);
    const permit = await signPermit(chain, player, HST);
    await expectRevert(
      vaultWrite(chain, player, 'depositWithPermit', [
        HST,
        newId(),
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ]),
      'EnforcedPause',
      [],
    );

    await mined(chain.admin, vaultWrite(chain, chain.admin, 'unpause', []));
    await mined(player, vaultWrite(chain, player, 'deposit', [HST, newId()]));
    expect(await hstBalance(chain, chain.vault)).toBe(HST);
  });
});
