import { arcadeVaultAbi, hstAbi, UNITS_PER_HST } from '@coinop/contracts';
import { startAnvil, type AnvilNode } from '@coinop/testkit/anvil';
import { createPublicClient, getAddress, http, keccak256, toHex, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../cli/run-cli.js';

/**
 * `coinop admin chain deploy` on a real Anvil: the contracts this coinop ships, deployed with a
 * key read from stdin that keeps no role; the roles and limits as given; bad flags refused with
 * exit code 2 naming the flag, before anything is sent.
 */

let anvil: AnvilNode;
beforeAll(async () => {
  anvil = await startAnvil();
});
afterAll(() => anvil.stop());

const role = (name: string) => keccak256(toHex(name));
const ADMIN_ROLE = `0x${'0'.repeat(64)}` as const;

describe('coinop admin chain deploy', () => {
  const deploy = (flags: string[], key: string = anvil.accounts[5]!.privateKey) =>
    runCli(['admin', 'chain', 'deploy', '--rpc-url', anvil.rpcUrl, ...flags], cleanEnv(), key);
  const admin = () => anvil.accounts[6]!.address;
  const operator = () => anvil.accounts[7]!.address;
  const limits = [
    '--max-withdrawal',
    '1000',
    '--daily-withdrawal-limit',
    '10000.5',
    '--lock-timeout',
    '3600',
  ];

  it('deploys HST and the vault with the roles and limits given; the paying key keeps none', async () => {
    const run = await deploy(['--admin', admin(), '--operator', operator(), ...limits]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const answer = JSON.parse(run.stdout) as {
      chainId: number;
      hst: Address;
      vault: Address;
      vaultBlockNumber: number;
      deployer: Address;
      serveFlags: string;
    };
    expect(answer).toEqual({
      chainId: anvil.chainId,
      hst: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      vault: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      vaultBlockNumber: expect.any(Number),
      admin: admin(),
      operator: operator(),
      deployer: anvil.accounts[5]!.address,
      serveFlags: `--chain-vault-address ${answer.vault} --chain-start-block ${answer.vaultBlockNumber}`,
    });
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const vault = (
      functionName: 'maxWithdrawal' | 'dailyWithdrawalLimit' | 'lockTimeout' | 'token',
    ) => client.readContract({ address: answer.vault, abi: arcadeVaultAbi, functionName });
    const hasRole = (contract: 'vault' | 'hst', name: `0x${string}`, who: Address) =>
      client.readContract({
        address: contract === 'vault' ? answer.vault : answer.hst,
        abi: contract === 'vault' ? arcadeVaultAbi : hstAbi,
        functionName: 'hasRole',
        args: [name, who],
      });
    expect(getAddress((await vault('token')) as Address)).toBe(answer.hst);
    expect(await vault('maxWithdrawal')).toBe(1000n * UNITS_PER_HST);
    expect(await vault('dailyWithdrawalLimit')).toBe(10_000n * UNITS_PER_HST + UNITS_PER_HST / 2n);
    expect(await vault('lockTimeout')).toBe(3600n);
    expect(await hasRole('vault', ADMIN_ROLE, admin())).toBe(true);
    expect(await hasRole('vault', role('PAUSER_ROLE'), admin())).toBe(true);
    expect(await hasRole('vault', role('OPERATOR_ROLE'), operator())).toBe(true);
    expect(await hasRole('hst', role('MINTER_ROLE'), admin())).toBe(true);
    const deployer = anvil.accounts[5]!.address;
    for (const name of [ADMIN_ROLE, role('PAUSER_ROLE'), role('OPERATOR_ROLE')] as const) {
      expect(await hasRole('vault', name, deployer)).toBe(false);
    }
    expect(await hasRole('hst', ADMIN_ROLE, deployer)).toBe(false);

    // A second vault on the same HST.
    const again = await deploy([
      '--admin',
      admin(),
      '--operator',
      operator(),
      '--hst',
      answer.hst,
      ...limits,
    ]);
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout) as { hst: Address; vault: Address };
    expect(second.hst).toBe(answer.hst);
    expect(second.vault).not.toBe(answer.vault);
  });

  it('refuses bad flags and a missing key with exit code 2, sending nothing', async () => {
    const head = await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber();
    const good = ['--admin', admin(), '--operator', operator(), ...limits];
    const swap = (flag: string, value: string) => {
      const flags = [...good];
      flags[flags.indexOf(flag) + 1] = value;
      return flags;
    };
    const cases: [string[], string, string?][] = [
      [swap('--admin', '0x1234'), '--admin must be an address'],
      [swap('--admin', admin().toLowerCase().replace('0x', '0X')), '--admin must be an address'],
      [swap('--operator', `0x${'0'.repeat(40)}`), '--operator must not be 0x0'],
      [swap('--max-withdrawal', '0'), '--max-withdrawal must be more than 0 HST'],
      [swap('--max-withdrawal', '1.123456789'), '--max-withdrawal'],
      [swap('--daily-withdrawal-limit', 'lots'), '--daily-withdrawal-limit'],
      [swap('--lock-timeout', '0'), '--lock-timeout must be whole seconds from 1 to 2592000'],
      [swap('--lock-timeout', '2592001'), '--lock-timeout must be whole seconds'],
      [swap('--lock-timeout', '1.5'), '--lock-timeout must be whole seconds'],
      [[...good, '--hst', 'nope'], '--hst must be an address'],
      [good, 'the deploying key must come on stdin', ''],
      [good, 'the deploying key must come on stdin', 'not a key'],
    ];
    for (const [flags, message, key] of cases) {
      const run = await deploy(flags, key);
      expect(run.code, `${flags.join(' ')} ${key}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(message);
    }
    const badUrl = await runCli(
      ['admin', 'chain', 'deploy', '--rpc-url', 'ftp://x', ...good],
      cleanEnv(),
      anvil.accounts[5]!.privateKey,
    );
    expect(badUrl).toMatchObject({ code: 2, stderr: 'coinop: --rpc-url must be an http(s) URL\n' });
    expect(await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber()).toBe(head);
  });

  it('says the chain did not answer, with exit code 1', async () => {
    const run = await runCli(
      [
        'admin',
        'chain',
        'deploy',
        '--rpc-url',
        'http://127.0.0.1:9/rpc/0123456789abcdef0123',
        '--admin',
        admin(),
        '--operator',
        operator(),
        ...limits,
      ],
      cleanEnv(),
      anvil.accounts[5]!.privateKey,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^coinop: the deployment failed: /);
    expect(run.stderr).not.toContain('0123456789abcdef0123');
  });
});
