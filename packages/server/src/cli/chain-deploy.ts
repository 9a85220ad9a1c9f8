import type { Command } from 'commander';
import type { DeployOptions } from './chain-deploy-run.js';

/**
 * `coinop admin chain deploy`: deploys HST (unless --hst names one) and an ArcadeVault from the
 * compiled contracts this coinop ships (`deployArcadeContracts`), so an operator needs no Solidity
 * toolchain. A local command: it talks to the chain, not to a coinop server. The deploying key is
 * read from stdin (never a flag: the process list shows flags) and only pays the gas; the roles go
 * to --admin and --operator in the constructors (docs/operating/chain.md). The work is in
 * chain-deploy-run.ts, loaded only when the command runs: every other command starts without
 * the contracts and viem.
 */

export function addChainDeployCommand(chain: Command): void {
  chain
    .command('deploy')
    .description(
      'deploy HST (unless --hst) and an ArcadeVault; the paying key is read from stdin and keeps ' +
        'no role',
    )
    .requiredOption('--rpc-url <url>', "the chain's JSON-RPC URL")
    .requiredOption(
      '--admin <address>',
      "the vault's admin and pauser (and HST's admin and minter): a multisig on a real network",
    )
    .requiredOption('--operator <address>', 'the operator key coinop serve signs with')
    .option('--hst <address>', 'an HST already deployed, instead of a new one')
    .requiredOption('--max-withdrawal <hst>', 'the most one withdrawal pays, HST')
    .requiredOption('--daily-withdrawal-limit <hst>', 'the most all withdrawals pay a UTC day, HST')
    .requiredOption(
      '--lock-timeout <seconds>',
      'how long after locking a play a player may reclaim it (1 to 2592000)',
    )
    .action(async (options: DeployOptions) => {
      const { deployFromCli } = await import('./chain-deploy-run.js');
      await deployFromCli(options);
    });
}
