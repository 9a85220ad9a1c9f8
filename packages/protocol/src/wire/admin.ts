import type { PublishRequest } from './developer.js';
import type { ScoreRules, TierScoreRules } from './game-server.js';

/**
 * The admin API's answers (`/admin/...`, with the admin token), as the operator console and
 * `coinop admin` read them. Every HST amount is an exact decimal string of HST (`"1.5"`, written
 * by `formatHst` from base units), as a JSON number is not above about 90 million HST: read it
 * with `readHst`, never `Number(...)`.
 */

/**
 * Where a game stands in the catalog: published (open to every player), unpublished (its
 * developer and testers only), suspended (every new play refused; wins over published).
 *
 * @example
 * ```ts
 * import type { AdminGameState } from '@coinop/protocol';
 * const isListed = (state: AdminGameState) => state === 'published';
 * ```
 */
export type AdminGameState = 'published' | 'unpublished' | 'suspended';

/**
 * A game as the operator sees it (`GET /admin/games`).
 *
 * @example
 * ```ts
 * import type { AdminGame } from '@coinop/protocol';
 * const label = (game: AdminGame) => `${game.name} (${game.state}, ${game.tiers} tiers)`;
 * ```
 */
export interface AdminGame {
  readonly gameId: string;
  readonly name: string;
  readonly state: AdminGameState;
  readonly developerId: string;
  /** The developer's wallet (lower-case). */
  readonly developerWallet: string;
  /** Live leaderboards (tiers); retired ones not counted. */
  readonly tiers: number;
  /** When it was published; null while unpublished. */
  readonly publishedAt: string | null;
  /** When it was suspended; null unless suspended. */
  readonly suspendedAt: string | null;
  /** When it was registered. */
  readonly createdAt: string;
  /**
   * Seconds its payouts stay pending before they are spendable: the game's own hold, else the
   * operator's default (a tier may set its own).
   */
  readonly payoutHoldSeconds: number;
}

/**
 * A page of games, newest first (`GET /admin/games`).
 *
 * @example
 * ```ts
 * import type { AdminGameList } from '@coinop/protocol';
 * const isLastPage = (page: AdminGameList) => page.next === null;
 * ```
 */
export interface AdminGameList {
  readonly games: readonly AdminGame[];
  /** Pass as `before` for the next page; null on the last. */
  readonly next: string | null;
}

/**
 * A player as the operator sees it (`GET /admin/players/{player}`); HST as exact decimal strings.
 *
 * @example
 * ```ts
 * import type { AdminPlayer } from '@coinop/protocol';
 * const who = (player: AdminPlayer) => player.wallet ?? player.playerId;
 * ```
 */
export interface AdminPlayer {
  readonly playerId: string;
  /** Its wallet (lower-case); null for a player registered without one. */
  readonly wallet: string | null;
  /** Display name. */
  readonly name: string;
  /** Its ledger account. */
  readonly accountId: string;
  /** HST it can spend, e.g. `"12.5"`. */
  readonly balance: string;
  /** HST locked by its open plays. */
  readonly pending: string;
  readonly createdAt: string;
}

/**
 * A page of players, newest first (`GET /admin/players`).
 *
 * @example
 * ```ts
 * import type { AdminPlayerList } from '@coinop/protocol';
 * const names = (page: AdminPlayerList) => page.players.map((p) => p.name);
 * ```
 */
export interface AdminPlayerList {
  readonly players: readonly AdminPlayer[];
  /** Pass as `before` for the next page; null on the last. */
  readonly next: string | null;
}

/**
 * A developer as the operator sees it (`GET /admin/developers`); HST as exact decimal strings.
 *
 * @example
 * ```ts
 * import type { AdminDeveloper } from '@coinop/protocol';
 * const hasEarned = (developer: AdminDeveloper) => developer.balance !== '0';
 * ```
 */
export interface AdminDeveloper {
  readonly developerId: string;
  /** Its wallet (lower-case). */
  readonly wallet: string;
  /** Its ledger account. */
  readonly accountId: string;
  /** Games it has registered. */
  readonly games: number;
  /** HST it can withdraw (its earnings), e.g. `"0.9"`. */
  readonly balance: string;
  /** HST reserved by its withdrawals not yet paid. */
  readonly pending: string;
  readonly createdAt: string;
}

/**
 * A page of developers, newest first (`GET /admin/developers`).
 *
 * @example
 * ```ts
 * import type { AdminDeveloperList } from '@coinop/protocol';
 * const wallets = (page: AdminDeveloperList) => page.developers.map((d) => d.wallet);
 * ```
 */
export interface AdminDeveloperList {
  readonly developers: readonly AdminDeveloper[];
  /** Pass as `before` for the next page; null on the last. */
  readonly next: string | null;
}

/**
 * A publish request in the operator's queue (`GET /admin/publish-requests`), with what the
 * operator decides on: the game as it is now.
 *
 * @example
 * ```ts
 * import type { QueuedPublishRequest } from '@coinop/protocol';
 * const canPlay = (request: QueuedPublishRequest) => request.game.url !== '';
 * ```
 */
export interface QueuedPublishRequest extends PublishRequest {
  readonly game: {
    readonly tagLine: string;
    readonly description: string;
    readonly category: string;
    /** Where the game is hosted; empty until set. */
    readonly url: string;
    readonly coverUrl: string;
    readonly developerId: string;
    /** The developer's wallet (lower-case). */
    readonly developerWallet: string;
    /** Where the game stands now. */
    readonly state: AdminGameState;
    /** Live leaderboards (tiers). */
    readonly tiers: number;
  };
}

/**
 * A page of the publish queue, oldest first (`GET /admin/publish-requests`).
 *
 * @example
 * ```ts
 * import type { PublishQueue } from '@coinop/protocol';
 * const waiting = (page: PublishQueue) => page.requests.filter((r) => r.state === 'pending');
 * ```
 */
export interface PublishQueue {
  readonly requests: readonly QueuedPublishRequest[];
  /** Pass as `after` for the next page; null on the last. */
  readonly next: string | null;
}

/**
 * A mint's posted transfer (`POST /admin/hst/mints`).
 *
 * @example
 * ```ts
 * import type { HstMinted } from '@coinop/protocol';
 * const said = (minted: HstMinted) => `Minted; the account can spend ${minted.balance} HST`;
 * ```
 */
export interface HstMinted {
  readonly transferId: string;
  /** HST the account can spend after the mint, e.g. `"10"`. */
  readonly balance: string;
}

/**
 * An account's balance (`GET /admin/hst/balances/{accountId}`), in exact decimal strings of HST.
 *
 * @example
 * ```ts
 * import type { AccountBalance } from '@coinop/protocol';
 * const isIdle = (account: AccountBalance) => account.pending === '0';
 * ```
 */
export interface AccountBalance {
  /** The account the id resolved to. */
  readonly accountId: string;
  /** HST available to spend: posted credits less posted and pending debits. */
  readonly balance: string;
  /** HST locked by pending debits (unsettled plays). */
  readonly pending: string;
}

/**
 * The signing keys after a rotation (`POST /admin/keys/rotate`).
 *
 * @example
 * ```ts
 * import type { KeysRotated } from '@coinop/protocol';
 * const said = (keys: KeysRotated) => `Signing with ${keys.kid}`;
 * ```
 */
export interface KeysRotated {
  /** The new signing key, which signs from now on. */
  readonly kid: string;
  /** The key it replaced; published until its last token has expired. */
  readonly retiredKid: string | null;
}

/**
 * The signing keys after a revocation (`POST /admin/keys/revoke`, after a leak).
 *
 * @example
 * ```ts
 * import type { KeysRevoked } from '@coinop/protocol';
 * const said = (keys: KeysRevoked) => `${keys.revokedKids.length} keys revoked`;
 * ```
 */
export interface KeysRevoked {
  /** The new signing key, which signs from now on. */
  readonly kid: string;
  /** Every key deleted: no token any of them signed validates any more. */
  readonly revokedKids: readonly string[];
}

/**
 * One line of a reconciliation: an amount the ledger owes, or why the vault holds more or less.
 *
 * @example
 * ```ts
 * import type { ReconciliationLine } from '@coinop/protocol';
 * const said = (line: ReconciliationLine) => `${line.description}: ${line.amount} HST`;
 * ```
 */
export interface ReconciliationLine {
  /** What the line is: players, held_deposits, … */
  readonly kind: string;
  /** Exact, signed HST. */
  readonly amount: string;
  /** How many deposits or withdrawals make it. */
  readonly count: number | null;
  readonly description: string;
}

/**
 * The vault on chain against the ledger, exactly, at one block (`GET /admin/hst/audit?chain=true`;
 * docs/concepts/chain.md#reconciliation). Amounts are exact HST strings.
 *
 * @example
 * ```ts
 * import type { ChainReconciliation } from '@coinop/protocol';
 * const verdict = (r: ChainReconciliation) => (r.reconciled ? 'reconciles' : r.findings.join('; '));
 * ```
 */
export interface ChainReconciliation {
  readonly chainId: number;
  readonly vaultAddress: string;
  readonly tokenAddress: string;
  /** The block compared: the watcher's checkpoint, read with the ledger. */
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly headBlock: number;
  readonly vaultBalance: string;
  readonly lockedOnChain: string;
  readonly liabilities: readonly ReconciliationLine[];
  readonly liabilitiesTotal: string;
  readonly explained: readonly ReconciliationLine[];
  readonly expected: string;
  readonly minted: string;
  /** vaultBalance less expected: 0 when the vault reconciles. */
  readonly unexplained: string;
  readonly reconciled: boolean;
  readonly findings: readonly string[];
}

/**
 * The ledger's audit (`GET /admin/hst/audit`): sums over all accounts, in exact decimal strings of
 * HST (they pass 2^53 base units long before any one balance does).
 *
 * @example
 * ```ts
 * import type { HstAudit } from '@coinop/protocol';
 * const isSound = (audit: HstAudit) => audit.balanced && (audit.chain?.reconciled ?? true);
 * ```
 */
export interface HstAudit {
  readonly debitsPosted: string;
  readonly creditsPosted: string;
  readonly debitsPending: string;
  readonly creditsPending: string;
  /** HST issued by the mint, net. */
  readonly minted: string;
  /** HST the chain vaults hold for ledger accounts, as the ledger counts it. */
  readonly vaultHeld: string;
  /** Debits equal credits, no account below zero, and the balances agree with the transfers. */
  readonly balanced: boolean;
  /**
   * Present in chain mode only: the audit is of the ledger alone unless `?chain=true`, and
   * minted HST is a shortfall no token backs.
   */
  readonly chainMode?: true;
  /** With `?chain=true`: the vault reconciled with the ledger. */
  readonly chain?: ChainReconciliation;
}

/**
 * Why no HST leaves the vault: reorg, chain_mismatch (the RPC answers another chain or token),
 * shortfall (the vault holds less than the ledger owes).
 *
 * @example
 * ```ts
 * import type { ChainHaltCause } from '@coinop/protocol';
 * const needsBlock = (cause: ChainHaltCause) => cause === 'reorg';
 * ```
 */
export type ChainHaltCause = 'reorg' | 'chain_mismatch' | 'shortfall';

/**
 * A halt: withdrawals, settlements and refunds wait until an operator resumes
 * (docs/operating/chain.md#resuming-after-a-halt).
 *
 * @example
 * ```ts
 * import type { ChainHalt } from '@coinop/protocol';
 * const isOpen = (halt: ChainHalt) => halt.resumedAt === null;
 * ```
 */
export interface ChainHalt {
  readonly id: string;
  readonly cause: ChainHaltCause;
  /** What was found, in words. */
  readonly detail: string;
  /** Where it was found. */
  readonly blockNumber: number | null;
  /** For a shortfall: how much less the vault held, in exact HST. */
  readonly shortfall: string | null;
  readonly haltedAt: string;
  readonly resume: {
    readonly requestedAt: string;
    /** Who resumed, as they named themselves. */
    readonly by: string;
    readonly reason: string;
    /** After a reorganisation. */
    readonly fromBlock: number | null;
    /** A shortfall accepted as covered elsewhere, in exact HST. */
    readonly acceptedShortfall: string | null;
  } | null;
  /** When HST could leave. */
  readonly resumedAt: string | null;
}

/**
 * The recent halts, newest first (`GET /admin/chain/halts`).
 *
 * @example
 * ```ts
 * import type { ChainHaltList } from '@coinop/protocol';
 * const open = (list: ChainHaltList) => list.halts.filter((h) => h.resumedAt === null);
 * ```
 */
export interface ChainHaltList {
  readonly halts: readonly ChainHalt[];
}

/**
 * What was done with HST sent to the vault without a deposit.
 *
 * @example
 * ```ts
 * import type { SurplusStatus } from '@coinop/protocol';
 * const isSettled = (status: SurplusStatus) => status !== 'unsolicited';
 * ```
 */
export type SurplusStatus = 'unsolicited' | 'credited' | 'swept' | 'covered';

/**
 * HST sent to the vault without a deposit, and what the operator did with it
 * (`GET /admin/chain/surplus`).
 *
 * @example
 * ```ts
 * import type { ChainSurplus } from '@coinop/protocol';
 * const key = (surplus: ChainSurplus) => `${surplus.txHash}:${surplus.logIndex}`;
 * ```
 */
export interface ChainSurplus {
  readonly chainId: number;
  readonly vaultAddress: string;
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: number;
  readonly blockHash: string;
  /** Who sent it, checksummed. */
  readonly from: string;
  /** Exactly as the Transfer event said, in exact HST. */
  readonly amount: string;
  readonly status: SurplusStatus;
  /** Credited (or, swept, the arcade) account. */
  readonly creditedAccountId: string | null;
  /** The withdrawal that sweeps it. */
  readonly withdrawalId: string | null;
  /** Why it covers a shortfall. */
  readonly note: string | null;
  readonly seenAt: string;
  readonly settledAt: string | null;
}

/**
 * The vault's surplus transfers, newest first (`GET /admin/chain/surplus`).
 *
 * @example
 * ```ts
 * import type { ChainSurplusList } from '@coinop/protocol';
 * const unsettled = (list: ChainSurplusList) => list.surplus.filter((s) => s.settledAt === null);
 * ```
 */
export interface ChainSurplusList {
  readonly surplus: readonly ChainSurplus[];
}

/**
 * Resuming the senders after a halt (`POST /admin/chain/resume`).
 *
 * @example
 * ```ts
 * import type { ChainResumeRequest } from '@coinop/protocol';
 * const body: ChainResumeRequest = { by: 'ops', reason: 'The RPC is back on the right chain' };
 * ```
 */
export interface ChainResumeRequest {
  /** Who resumes (the admin token names nobody): recorded with the halt. */
  readonly by: string;
  /** Why it is safe now: what was found and done. */
  readonly reason: string;
  /** After a reorganisation only: the first block to read again, at or below the fork. */
  readonly fromBlock?: number;
  /** A shortfall covered outside the vault, in exact HST: exactly what reconciliation finds. */
  readonly acceptShortfall?: string;
}

/**
 * The answer to a resume: HST leaves again now (`resumed`), or once the watcher has read the
 * chain again and the vault reconciles (`resuming`).
 *
 * @example
 * ```ts
 * import type { ChainResumed } from '@coinop/protocol';
 * const isDone = (answer: ChainResumed) => answer.state === 'resumed';
 * ```
 */
export interface ChainResumed {
  readonly state: 'resumed' | 'resuming';
  readonly halt: ChainHalt;
  readonly reconciliation: ChainReconciliation | null;
}

/**
 * Where a play locked from a wallet stands on chain (docs/concepts/chain.md).
 *
 * @example
 * ```ts
 * import type { PlayLockState } from '@coinop/protocol';
 * const isOver = (state: PlayLockState) => state === 'settled' || state === 'refunded';
 * ```
 */
export type PlayLockState =
  'requested' | 'open' | 'refund_due' | 'sent' | 'settled' | 'refunded' | 'reclaimed';

/**
 * How many of something and what they amount to, in exact HST.
 *
 * @example
 * ```ts
 * import type { ChainTotal } from '@coinop/protocol';
 * const said = (total: ChainTotal) => `${total.count} (${total.amount} HST)`;
 * ```
 */
export interface ChainTotal {
  readonly count: number;
  readonly amount: string;
}

/**
 * The chain watcher and senders (`GET /admin/chain`); only `enabled` outside chain mode. Amounts
 * are exact HST strings.
 *
 * @example
 * ```ts
 * import type { ChainStatus } from '@coinop/protocol';
 * const isHalted = (status: ChainStatus) => status.state === 'halted';
 * ```
 */
export interface ChainStatus {
  /** Chain mode is on (--chain-vault-address). */
  readonly enabled: boolean;
  /** The RPC endpoint, scheme and host only. */
  readonly rpcUrl?: string;
  /** Null until the chain answered. */
  readonly chainId?: number | null;
  readonly vaultAddress?: string;
  readonly tokenAddress?: string | null;
  readonly vaultAccountId?: string | null;
  readonly confirmations?: number;
  readonly startBlock?: number;
  /** Halted while no HST leaves the vault (see halt); failing while the last round failed. */
  readonly state?: 'starting' | 'running' | 'failing' | 'halted';
  /** The last block whose deposits are recorded. */
  readonly checkpointBlock?: number | null;
  /** The chain's head, as last seen. */
  readonly headBlock?: number | null;
  readonly headSeenAt?: string | null;
  /** Head less checkpoint. */
  readonly lagBlocks?: number | null;
  readonly reorg?: {
    readonly detectedAt: string;
    readonly blockNumber: number | null;
    /** The hash recorded at the checkpoint. */
    readonly recordedHash: string | null;
    /** The hash the chain has there now. */
    readonly chainHash: string;
  } | null;
  readonly lastError?: { readonly message: string; readonly at: string } | null;
  readonly halt?: ChainHalt | null;
  /** The watcher's last reconciliation of the vault with the ledger. */
  readonly reconciliation?: {
    readonly at: string;
    readonly blockNumber: number;
    /** Below 0 is a shortfall. */
    readonly unexplained: string;
    readonly acceptedShortfall: string;
  } | null;
  /** HST sent to the vault without a deposit, by what was done with it. */
  readonly surplus?: Readonly<Record<SurplusStatus, ChainTotal>>;
  /** HST this vault holds for ledger accounts: deposits credited less withdrawals paid. */
  readonly vaultHeld?: string;
  /** Deposits held. */
  readonly held?: ChainTotal;
  readonly withdrawals?: {
    /** The operator key's address; null without a key file. */
    readonly operatorAddress: string | null;
    /** Why queued withdrawals are not being sent, if they are not. */
    readonly waiting: string | null;
    readonly lastError: { readonly message: string; readonly at: string } | null;
    readonly queued: ChainTotal;
    readonly sent: ChainTotal;
    readonly paid: ChainTotal;
    readonly failed: ChainTotal;
  };
  /** Plays locked from wallets, by state: how many, and the HST their locks hold. */
  readonly playLocks?: Readonly<Record<PlayLockState, ChainTotal>>;
}

/**
 * A live tier's score rules and payout hold, its own and in force (`GET
 * /admin/games/{gameId}/settings`).
 *
 * @example
 * ```ts
 * import type { AdminTierSettings } from '@coinop/protocol';
 * const inherits = (tier: AdminTierSettings) => tier.payoutHoldSeconds === null;
 * ```
 */
export interface AdminTierSettings {
  readonly leaderboardId: string;
  readonly name: string;
  /** What one play costs, in exact HST (a game's server reads it as a number). */
  readonly cost: string;
  /** The cost for display, for example "1 HST". */
  readonly formattedCostString: string;
  /** The tier's own payout hold in seconds; null: the game's. */
  readonly payoutHoldSeconds: number | null;
  /** The hold its plays settle with: its own, else the game's, else the operator's default. */
  readonly effectivePayoutHoldSeconds: number;
  /** The tier's overrides of the game's score rules; each null inherits. */
  readonly scoreRules: TierScoreRules;
  /** The rules its scores must meet: the game's with the tier's overrides. */
  readonly effectiveScoreRules: ScoreRules;
}

/**
 * What judges and holds a game's scores (issue 30): the game's score rules and payout hold, and
 * each live tier's (`GET /admin/games/{gameId}/settings`). Read-only: the developer sets them.
 *
 * @example
 * ```ts
 * import type { AdminGameSettings } from '@coinop/protocol';
 * const held = (s: AdminGameSettings) => s.tiers.filter((t) => t.effectivePayoutHoldSeconds > 0);
 * ```
 */
export interface AdminGameSettings {
  readonly gameId: string;
  readonly name: string;
  /** The operator's default payout hold (`--payout-hold`), in seconds. */
  readonly operatorPayoutHoldSeconds: number;
  /** The game's own payout hold in seconds; null: the operator's default. */
  readonly payoutHoldSeconds: number | null;
  /** The game's own hold, else the operator's default. */
  readonly effectivePayoutHoldSeconds: number;
  /** The game's score rules. */
  readonly scoreRules: ScoreRules;
  /** Live tiers, in display order. */
  readonly tiers: readonly AdminTierSettings[];
}
