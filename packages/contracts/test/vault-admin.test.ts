import {
  arcadeVaultAbi,
  arcadeVaultBytecode,
  deployArcadeContracts,
  hstAbi,
} from '@coinop/contracts';
import { type Address, keccak256, parseEventLogs, toHex, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  type Actor,
  DAY_SECONDS,
  expectRevert,
  HST,
  LIMITS,
  mined,
  useArcadeChain,
  vaultRead,
  vaultWrite,
} from './fixtures/chain.js';

const chain = useArcadeChain();
const DEFAULT_ADMIN_ROLE = `0x${'0'.repeat(64)}` as const;
const OPERATOR_ROLE = keccak256(toHex('OPERATOR_ROLE'));
const PAUSER_ROLE = keccak256(toHex('PAUSER_ROLE'));
const MINTER_ROLE = keccak256(toHex('MINTER_ROLE'));

function hasVaultRole(role: `0x${string}`, actor: Actor, vault: Address = chain.vault) {
  return chain.test.readContract({
    address: vault,
    abi: arcadeVaultAbi,
    functionName: 'hasRole',
    args: [role, actor.account.address],
  });
}

describe('ArcadeVault deployment and administration', () => {
  it('deploys with the roles, token and limits given, and reads them back', async () => {
    expect(await vaultRead(chain, 'OPERATOR_ROLE')).toBe(OPERATOR_ROLE);
    expect(await vaultRead(chain, 'PAUSER_ROLE')).toBe(PAUSER_ROLE);
    expect(await vaultRead(chain, 'token')).toBe(chain.hst);
    expect(await vaultRead(chain, 'maxWithdrawal')).toBe(LIMITS.maxWithdrawal);
    expect(await vaultRead(chain, 'dailyWithdrawalLimit')).toBe(LIMITS.dailyWithdrawalLimit);
    expect(await vaultRead(chain, 'lockTimeout')).toBe(DAY_SECONDS);
    expect(await vaultRead(chain, 'lockedTotal')).toBe(0n);
    expect(await vaultRead(chain, 'paused')).toBe(false);

    expect(await hasVaultRole(DEFAULT_ADMIN_ROLE, chain.admin)).toBe(true);
    expect(await hasVaultRole(PAUSER_ROLE, chain.admin)).toBe(true);
    expect(await hasVaultRole(OPERATOR_ROLE, chain.admin)).toBe(false);
    expect(await hasVaultRole(OPERATOR_ROLE, chain.operator)).toBe(true);
    expect(await hasVaultRole(DEFAULT_ADMIN_ROLE, chain.operator)).toBe(false);
    expect(await hasVaultRole(PAUSER_ROLE, chain.operator)).toBe(false);
  });

  it('deployArcadeContracts gives the deploying account no role, and can reuse an HST', async () => {
    const deployer = chain.outsider;
    const deployment = await deployArcadeContracts(deployer, chain.test, {
      admin: chain.admin.account.address,
      operator: chain.operator.account.address,
      limits: { maxWithdrawal: 7n, dailyWithdrawalLimit: 70n, lockTimeoutSeconds: 600n },
      hst: chain.hst,
    });
    expect(deployment.hst).toBe(chain.hst);
    expect(deployment.vault).not.toBe(chain.vault);
    const block = await chain.test.getBlock({ blockNumber: deployment.vaultBlockNumber });
    const receipts = await Promise.all(
      block.transactions.map((hash) => chain.test.getTransactionReceipt({ hash })),
    );
    expect(receipts.map((receipt) => receipt.contractAddress?.toLowerCase())).toContain(
      deployment.vault.toLowerCase(),
    );

    // The constructor's settings are events too, for a watcher reading from that block.
    const created = receipts.find(
      (receipt) => receipt.contractAddress?.toLowerCase() === deployment.vault.toLowerCase(),
    )!;
    const events = parseEventLogs({ abi: arcadeVaultAbi, logs: created.logs }).map(
      ({ eventName, args }) => ({ eventName, args }),
    );
    expect(events).toEqual([
      {
        eventName: 'RoleGranted',
        args: {
          role: DEFAULT_ADMIN_ROLE,
          account: chain.admin.account.address,
          sender: deployer.account.address,
        },
      },
      {
        eventName: 'RoleGranted',
        args: {
          role: PAUSER_ROLE,
          account: chain.admin.account.address,
          sender: deployer.account.address,
        },
      },
      {
        eventName: 'RoleGranted',
        args: {
          role: OPERATOR_ROLE,
          account: chain.operator.account.address,
          sender: deployer.account.address,
        },
      },
      { eventName: 'LimitsChanged', args: { maxWithdrawal: 7n, dailyWithdrawalLimit: 70n } },
      { eventName: 'LockTimeoutChanged', args: { lockTimeout: 600n } },
    ]);

    for (const role of [DEFAULT_ADMIN_ROLE, PAUSER_ROLE, OPERATOR_ROLE]) {
      expect(await hasVaultRole(role, deployer, deployment.vault)).toBe(false);
    }
    expect(await hasVaultRole(OPERATOR_ROLE, chain.operator, deployment.vault)).toBe(true);
  });

  it('deploys a new HST whose admin, not the deployer, mints', async () => {
    const deployment = await deployArcadeContracts(chain.outsider, chain.test, {
      admin: chain.admin.account.address,
      operator: chain.operator.account.address,
      limits: LIMITS,
    });
    expect(deployment.hst).not.toBe(chain.hst);
    const hasRole = (actor: Actor) =>
      chain.test.readContract({
        address: deployment.hst,
        abi: hstAbi,
        functionName: 'hasRole',
        args: [MINTER_ROLE, actor.account.address],
      });
    expect(await hasRole(chain.admin)).toBe(true);
    expect(await hasRole(chain.outsider)).toBe(false);
    expect(
      await chain.test.readContract({
        address: deployment.vault,
        abi: arcadeVaultAbi,
        functionName: 'token',
      }),
    ).toBe(deployment.hst);
  });

  it('refuses zero addresses and an invalid lock timeout at deployment', async () => {
    const deploy = (args: readonly [Address, Address, Address, bigint, bigint, bigint]) =>
      chain.admin.deployContract({ abi: arcadeVaultAbi, bytecode: arcadeVaultBytecode, args });
    const admin = chain.admin.account.address;
    const operator = chain.operator.account.address;
    await expectRevert(deploy([zeroAddress, admin, operator, 1n, 1n, 60n]), 'ZeroAddress', []);
    await expectRevert(deploy([chain.hst, zeroAddress, operator, 1n, 1n, 60n]), 'ZeroAddress', []);
    await expectRevert(deploy([chain.hst, admin, zeroAddress, 1n, 1n, 60n]), 'ZeroAddress', []);
    await expectRevert(deploy([chain.hst, admin, operator, 1n, 1n, 0n]), 'InvalidLockTimeout', [
      0n,
      30n * DAY_SECONDS,
    ]);
  });

  it('pauses and unpauses by PAUSER_ROLE only, which the admin may grant', async () => {
    for (const sender of [chain.operator, chain.outsider]) {
      await expectRevert(
        vaultWrite(chain, sender, 'pause', []),
        'AccessControlUnauthorizedAccount',
        [sender.account.address, PAUSER_ROLE],
      );
    }
    await expectRevert(vaultWrite(chain, chain.admin, 'unpause', []), 'ExpectedPause', []);

    const paused = await mined(chain.admin, vaultWrite(chain, chain.admin, 'pause', []));
    expect(paused.events).toEqual([
      { eventName: 'Paused', args: { account: chain.admin.account.address } },
    ]);
    expect(await vaultRead(chain, 'paused')).toBe(true);
    await expectRevert(vaultWrite(chain, chain.admin, 'pause', []), 'EnforcedPause', []);
    await expectRevert(
      vaultWrite(chain, chain.operator, 'unpause', []),
      'AccessControlUnauthorizedAccount',
      [chain.operator.account.address, PAUSER_ROLE],
    );

    // A monitoring key may hold PAUSER_ROLE without any other power.
    const monitor = chain.outsider;
    await expectRevert(
      vaultWrite(chain, chain.operator, 'grantRole', [PAUSER_ROLE, monitor.account.address]),
      'AccessControlUnauthorizedAccount',
      [chain.operator.account.address, DEFAULT_ADMIN_ROLE],
    );
    await mined(
      chain.admin,
      vaultWrite(chain, chain.admin, 'grantRole', [PAUSER_ROLE, monitor.account.address]),
    );
    const unpaused = await mined(monitor, vaultWrite(chain, monitor, 'unpause', []));
    expect(unpaused.events).toEqual([
      { eventName: 'Unpaused', args: { account: monitor.account.address } },
    ]);
    expect(await vaultRead(chain, 'paused')).toBe(false);
  });

  it('accepts no ETH', async () => {
    const error = await chain.outsider.sendTransaction({ to: chain.vault, value: HST }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(await chain.test.getBalance({ address: chain.vault })).toBe(0n);
  });
});
