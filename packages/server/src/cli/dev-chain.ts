import { Option, type Command } from 'commander';
import { CliError, ExitCodes } from './cli-error.js';

/**
 * `coinop dev-chain deposit`: a deposit into the dev chain's vault from one of Anvil's unlocked
 * accounts (the demo wallets), as a wallet would make it, for trying deposits from a terminal.
 * It talks to the dev chain `coinop serve --dev-chain` runs, found through the data directory.
 * What it needs (viem, the config) loads when it runs, so other commands start without it.
 */
export function addDevChainCommands(program: Command): void {
  const group = program
    .command('dev-chain')
    .description('the local chain of coinop serve --dev-chain (test HST only)');
  group
    .command('deposit')
    .description(
      "deposit test HST from one of Anvil's accounts (a demo wallet) into the vault for a " +
        'coinop account',
    )
    .requiredOption(
      '--from <address>',
      "the wallet: one of Anvil's accounts, which Anvil signs for",
    )
    .requiredOption('--account <id>', 'the player, developer or ledger account id to credit')
    .requiredOption('--amount <hst>', 'HST, at most 8 decimals')
    .addOption(
      new Option('--data-dir <dir>', 'where serve keeps the dev chain').env('COINOP_DATA_DIR'),
    )
    .addOption(
      new Option('--dev-chain-port <port>', "the dev chain's port (default 8545)").env(
        'COINOP_DEV_CHAIN_PORT',
      ),
    )
    .action(async (options: DepositOptions) => {
      process.stdout.write(`${JSON.stringify(await deposit(options), null, 2)}\n`);
    });
}

interface DepositOptions {
  from: string;
  account: string;
  amount: string;
  dataDir?: string;
  devChainPort?: string;
}

async function deposit(options: DepositOptions) {
  const { formatHst, parseHst } = await import('@coinop/core');
  const { getAddress, isAddress } = await import('viem');
  const { DEFAULTS, loadConfig } = await import('../config.js');
  if (!isAddress(options.from, { strict: false })) {
    throw new CliError(`--from must be a wallet address, got ${options.from}`, ExitCodes.usage);
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(options.account)) {
    throw new CliError(
      `--account must be a coinop id (a UUID), got ${options.account}`,
      ExitCodes.usage,
    );
  }
  let units: bigint;
  try {
    units = parseHst(options.amount, '--amount');
  } catch (error) {
    throw new CliError((error as Error).message, ExitCodes.usage);
  }
  if (units === 0n) throw new CliError('--amount must be more than 0', ExitCodes.usage);
  const config = loadConfig({
    dataDir: options.dataDir,
    devChain: true,
    devChainPort: options.devChainPort,
  });
  const devChain = config.devChain;
  if (!devChain) throw new TypeError('loadConfig dropped --dev-chain');
  const { DevChainFunds } = await import('../dev-chain/dev-chain-funds.js');
  const { readDevChainDeployment, DevChainError } = await import('../dev-chain/dev-chain.js');
  try {
    const deployment = await readDevChainDeployment(devChain.dir);
    const funds = new DevChainFunds({
      rpcUrl: `http://${devChain.host}:${devChain.port}`,
      vaultAddress: deployment.vault,
      startBlock: BigInt(deployment.vaultBlockNumber),
      devChainMinter: deployment.admin,
      rpcTimeoutMs: DEFAULTS.chainRpcTimeoutMs,
    });
    const from = getAddress(options.from);
    const held = await funds.walletHst(from);
    if (held < units) {
      throw new CliError(
        `${from} holds ${formatHst(held)} HST on the dev chain, less than ${formatHst(units)} HST`,
        ExitCodes.failure,
      );
    }
    const txHash = await funds.depositFrom(from, options.account, units);
    return { txHash, from, account: options.account, amount: options.amount };
  } catch (error) {
    if (error instanceof DevChainError) throw new CliError(error.message, ExitCodes.failure);
    throw error;
  }
}
