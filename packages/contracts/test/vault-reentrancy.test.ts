import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arcadeVaultAbi, arcadeVaultBytecode, withdrawalTypedData } from '@coinop/contracts';
import { type Abi, type Address, encodeFunctionData, getAddress, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Actor,
  DAY_SECONDS,
  expectRevert,
  mined,
  newId,
  useArcadeChain,
} from './fixtures/chain.js';

const chain = useArcadeChain();
const AMOUNT = 1_000n;

// A hostile token that calls back into the vault from inside its own transfer: every vault
// function that moves tokens must refuse the call with ReentrancyGuardReentrantCall.
let tokenAbi: Abi;
let tokenBytecode: Hex;
let token: Address;
let vault: Address;

beforeAll(() => {
  const solc = createRequire(import.meta.url)('solc') as {
    compile(input: string): string;
  };
  const source = readFileSync(new URL('./fixtures/ReentrantToken.sol', import.meta.url), 'utf8');
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'ReentrantToken.sol': { content: source } },
        settings: {
          evmVersion: 'cancun',
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  expect(errors.map((error) => error.formattedMessage)).toEqual([]);
  const artifact = output.contracts['ReentrantToken.sol']!['ReentrantToken']!;
  tokenAbi = artifact.abi;
  tokenBytecode = `0x${artifact.evm.bytecode.object}`;
});

async function deployed(actor: Actor, hash: Promise<Hex>): Promise<Address> {
  const receipt = await actor.waitForTransactionReceipt({ hash: await hash });
  return getAddress(receipt.contractAddress!);
}

function tokenWrite(actor: Actor, functionName: 'arm' | 'mint', args: readonly unknown[]) {
  return actor.writeContract({ address: token, abi: tokenAbi, functionName, args });
}

function vaultCall(actor: Actor, functionName: string, args: readonly unknown[]) {
  return actor.writeContract({
    address: vault,
    abi: arcadeVaultAbi,
    functionName,
    args,
  } as never) as Promise<Hex>;
}

/** Arms the token to re-enter the vault with a deposit, which would succeed unguarded. */
async function armReentry() {
  const payload = encodeFunctionData({
    abi: arcadeVaultAbi,
    functionName: 'deposit',
    args: [1n, newId()],
  });
  await mined(chain.admin, tokenWrite(chain.admin, 'arm', [vault, payload]));
}

describe('ArcadeVault reentrancy', () => {
  beforeAll(async () => {
    token = await deployed(
      chain.admin,
      chain.admin.deployContract({ abi: tokenAbi, bytecode: tokenBytecode }),
    );
    vault = await deployed(
      chain.admin,
      chain.admin.deployContract({
        abi: arcadeVaultAbi,
        bytecode: arcadeVaultBytecode,
        args: [
          token,
          chain.admin.account.address,
          chain.operator.account.address,
          AMOUNT,
          AMOUNT,
          DAY_SECONDS,
        ],
      }),
    );
    // The token itself holds units, so the re-entered deposit could pay if it were let in.
    for (const holder of [token, vault, chain.players[0]!.account.address]) {
      await mined(chain.admin, tokenWrite(chain.admin, 'mint', [holder, 10n * AMOUNT]));
    }
  });

  it('refuses a call back from the token during each function that moves tokens', async () => {
    const player = chain.players[0]!;
    const locked = [newId(), newId(), newId()];
    for (const playId of locked) {
      await mined(player, vaultCall(player, 'lockPlay', [playId, AMOUNT / 10n]));
    }
    const signed = { id: newId(), to: player.account.address, amount: 1n };
    const signature = await chain.operator.account.signTypedData(
      withdrawalTypedData(chain.chainId, vault, signed),
    );
    await chain.test.increaseTime({ seconds: Number(DAY_SECONDS) });

    const calls: [Actor, string, readonly unknown[]][] = [
      [player, 'deposit', [1n, newId()]],
      [player, 'lockPlay', [newId(), 1n]],
      [
        chain.operator,
        'withdrawBatch',
        [[{ id: newId(), to: player.account.address, amount: 1n }]],
      ],
      [chain.outsider, 'withdraw', [signed, signature]],
      [
        chain.operator,
        'settleBatch',
        [[{ playId: locked[0], payouts: [{ to: player.account.address, amount: AMOUNT / 10n }] }]],
      ],
      [chain.operator, 'refund', [[locked[1]]]],
      [player, 'reclaim', [locked[2]]],
    ];
    for (const [sender, functionName, args] of calls) {
      await armReentry();
      await expectRevert(vaultCall(sender, functionName, args), 'ReentrancyGuardReentrantCall', []);
    }
  });
});
