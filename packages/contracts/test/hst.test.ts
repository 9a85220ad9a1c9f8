import { hstAbi, hstBytecode } from '@coinop/contracts';
import { keccak256, toHex, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  advance,
  expectRevert,
  HST,
  hstBalance,
  mined,
  PLAYER_FUNDS,
  signPermit,
  useArcadeChain,
} from './fixtures/chain.js';

const chain = useArcadeChain();
const MINTER_ROLE = keccak256(toHex('MINTER_ROLE'));

function read<const F extends 'name' | 'symbol' | 'decimals' | 'totalSupply'>(functionName: F) {
  return chain.test.readContract({ address: chain.hst, abi: hstAbi, functionName });
}

describe('HST', () => {
  it('is an 8-decimal ERC-20 named HST, so one unit on chain is one unit in the ledger', async () => {
    expect(await read('name')).toBe('HST');
    expect(await read('symbol')).toBe('HST');
    expect(await read('decimals')).toBe(8);
    expect(await read('totalSupply')).toBe(4n * PLAYER_FUNDS);
  });

  it('mints by MINTER_ROLE, which the admin holds and grants; others are refused', async () => {
    const [player] = chain.players;
    const minted = await mined(
      chain.admin,
      chain.admin.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'mint',
        args: [chain.outsider.account.address, 5n * HST + 1n],
      }),
    );
    expect(minted.receipt.status).toBe('success');
    expect(await hstBalance(chain, chain.outsider.account.address)).toBe(5n * HST + 1n);

    await expectRevert(
      player!.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'mint',
        args: [player!.account.address, HST],
      }),
      'AccessControlUnauthorizedAccount',
      [player!.account.address, MINTER_ROLE],
    );
    expect(await hstBalance(chain, player!.account.address)).toBe(PLAYER_FUNDS);

    await mined(
      chain.admin,
      chain.admin.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'grantRole',
        args: [MINTER_ROLE, chain.operator.account.address],
      }),
    );
    await mined(
      chain.operator,
      chain.operator.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'mint',
        args: [chain.developer.account.address, 7n],
      }),
    );
    expect(await hstBalance(chain, chain.developer.account.address)).toBe(7n);
  });

  it('refuses a zero admin at deployment', async () => {
    await expectRevert(
      chain.admin.deployContract({ abi: hstAbi, bytecode: hstBytecode, args: [zeroAddress] }),
      'ZeroAddress',
      [],
    );
  });

  it('takes an EIP-2612 permit once, and refuses an expired one or one by another key', async () => {
    const [owner, other] = chain.players;
    const spender = chain.outsider.account.address;
    const permit = await signPermit(chain, owner!, 3n * HST, { spender });
    const args = [owner!.account.address, spender, 3n * HST, permit.deadline] as const;
    await mined(
      chain.outsider,
      chain.outsider.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'permit',
        args: [...args, permit.v, permit.r, permit.s],
      }),
    );
    const allowance = () =>
      chain.test.readContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'allowance',
        args: [owner!.account.address, spender],
      });
    expect(await allowance()).toBe(3n * HST);

    // The nonce moved on: the same signature now recovers to some other address.
    await expectRevert(
      chain.outsider.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'permit',
        args: [...args, permit.v, permit.r, permit.s],
      }),
      'ERC2612InvalidSigner',
    );

    const forged = await signPermit(chain, owner!, 9n * HST, { spender, signer: other });
    await expectRevert(
      chain.outsider.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'permit',
        args: [
          owner!.account.address,
          spender,
          9n * HST,
          forged.deadline,
          forged.v,
          forged.r,
          forged.s,
        ],
      }),
      'ERC2612InvalidSigner',
      [other!.account.address, owner!.account.address],
    );

    const late = await signPermit(chain, owner!, HST, { spender });
    await advance(chain, 3_601n);
    await expectRevert(
      chain.outsider.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'permit',
        args: [owner!.account.address, spender, HST, late.deadline, late.v, late.r, late.s],
      }),
      'ERC2612ExpiredSignature',
      [late.deadline],
    );
    expect(await allowance()).toBe(3n * HST);
  });
});
