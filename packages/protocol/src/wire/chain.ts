/**
 * HST on a chain, as the web app and the SDKs see it (docs/concepts/chain.md): the arcade's
 * public chain settings, and withdrawals of HST from the arcade to a wallet.
 */

/**
 * Where this arcade's HST lives on chain, for a wallet that deposits into its vault.
 *
 * @example
 * ```ts
 * import type { ChainSettings } from '@coinop/protocol';
 * const ready = (chain: ChainSettings) => chain.chainId !== null && chain.hst !== null;
 * ```
 */
export interface ChainSettings {
  /** The chain's EIP-155 id; null until the arcade has first reached the chain. */
  readonly chainId: number | null;
  /**
   * A JSON-RPC URL of the chain for browsers (`--chain-public-rpc-url`), for reading balances and
   * sending a deposit; null when the operator publishes none.
   */
  readonly rpcUrl: string | null;
  /** The HST token's address, checksummed; null until the arcade has first reached the chain. */
  readonly hst: string | null;
  /** The vault contract players deposit into, checksummed. */
  readonly vault: string;
  /** Blocks built on a deposit's block before the arcade credits it. */
  readonly confirmations: number;
}

/**
 * What any visitor may know about the arcade (`GET /arcade`), read by the web app at start.
 *
 * @example
 * ```ts
 * import type { ArcadeSettings } from '@coinop/protocol';
 * const inChainMode = (settings: ArcadeSettings) => settings.chain !== null;
 * ```
 */
export interface ArcadeSettings {
  /** The chain settings in chain mode; null when the arcade's HST lives only in its ledger. */
  readonly chain: ChainSettings | null;
  /**
   * True for a development arcade (`--demo`, `--dev-chain` or a faucet): its HST is test money,
   * worth nothing, and its pages say so.
   */
  readonly development: boolean;
}

/**
 * Where a withdrawal is: `queued` (reserved, waiting to be sent), `sent` (in a transaction not
 * yet confirmed), `paid` (paid on chain and posted), `failed` (refused by the vault, released).
 *
 * @example
 * ```ts
 * import type { WithdrawalStatus } from '@coinop/protocol';
 * const inFlight = (status: WithdrawalStatus) => status === 'queued' || status === 'sent';
 * ```
 */
export type WithdrawalStatus = 'queued' | 'sent' | 'paid' | 'failed';

/**
 * A withdrawal of HST from the arcade to a wallet (`/player/withdrawals`,
 * `/developer/withdrawals`).
 *
 * @example
 * ```ts
 * import type { Withdrawal } from '@coinop/protocol';
 * const paidWith = (w: Withdrawal) => (w.status === 'paid' ? w.txHash : null);
 * ```
 */
export interface Withdrawal {
  /** The withdrawal; the vault's bytes16 id of the payment. */
  readonly withdrawalId: string;
  /** The ledger account it is paid from. */
  readonly accountId: string;
  /** The wallet paid, checksummed. */
  readonly to: string;
  /** HST, as an exact decimal string. */
  readonly amount: string;
  readonly status: WithdrawalStatus;
  /** The last transaction that carried it. */
  readonly txHash: string | null;
  /** Transactions that carried it. */
  readonly attempts: number;
  /** Why it waits or failed. */
  readonly lastError: string | null;
  readonly requestedAt: string;
  readonly sentAt: string | null;
  readonly settledAt: string | null;
}

/**
 * A page of withdrawals, newest first.
 *
 * @example
 * ```ts
 * import type { WithdrawalList } from '@coinop/protocol';
 * const more = (page: WithdrawalList) => page.next !== null;
 * ```
 */
export interface WithdrawalList {
  readonly withdrawals: readonly Withdrawal[];
  /** Pass as `before` for the next page; null on the last. */
  readonly next: string | null;
}

/**
 * A withdrawal asked for (`POST /player/withdrawals`, `POST /developer/withdrawals`).
 *
 * @example
 * ```ts
 * import type { WithdrawalRequest } from '@coinop/protocol';
 * const body: WithdrawalRequest = { amount: '12.5', to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' };
 * ```
 */
export interface WithdrawalRequest {
  /** HST: more than 0, at most 8 decimals; a decimal string keeps every digit. */
  readonly amount: string | number;
  /** The wallet to pay. */
  readonly to: string;
}

/**
 * A developer's HST (`GET /developer/balance`): earnings they may withdraw, and what withdrawals
 * not yet paid reserve. Exact decimal strings.
 *
 * @example
 * ```ts
 * import type { DeveloperBalance } from '@coinop/protocol';
 * const hasEarnings = (balance: DeveloperBalance) => balance.available !== '0';
 * ```
 */
export interface DeveloperBalance {
  readonly available: string;
  readonly reserved: string;
}

/**
 * A deposit into the vault for the signed-in player, as the arcade read it from the chain
 * (`GET /player/deposits/{txHash}`): credited to their balance, or held and why.
 *
 * @example
 * ```ts
 * import type { PlayerDeposit } from '@coinop/protocol';
 * const credited = (deposit: PlayerDeposit) => deposit.status === 'credited';
 * ```
 */
export interface PlayerDeposit {
  readonly txHash: string;
  /** The `Deposited` event's index in its block. */
  readonly logIndex: number;
  readonly blockNumber: number;
  /** HST, as an exact decimal string. */
  readonly amount: string;
  readonly status: 'credited' | 'held';
  /** Why it is held (docs/concepts/chain.md); null when credited. */
  readonly heldReason: string | null;
  readonly creditedAt: string | null;
}

/**
 * The player's deposits one transaction made; empty until the arcade has read it with its
 * confirmations.
 *
 * @example
 * ```ts
 * import type { PlayerDepositList } from '@coinop/protocol';
 * const seen = (list: PlayerDepositList) => list.deposits.length > 0;
 * ```
 */
export interface PlayerDepositList {
  readonly deposits: readonly PlayerDeposit[];
}
