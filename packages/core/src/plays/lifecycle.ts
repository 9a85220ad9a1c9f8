import { CoinopError } from '../errors.js';
import type { GameRef, Leaderboard, Play } from '../model.js';
import type { Account, Transfer, TransferRequest } from '../ledger/types.js';
import type { LedgerSnapshot } from '../ledger/create-transfers.js';
import { splitCost, type SplitRule } from '../settlement/split.js';
import { leaderPartAccountIds } from '../tournaments/prize-pool.js';
import { payoutTransfer } from '../settlement/hold.js';

/** Finds a tier (or a tournament round not yet closed) of the game, or throws naming the id. */
export function leaderboardOf(game: GameRef, leaderboardId: string): Leaderboard {
  const board =
    game.leaderboards.find((b) => b.id === leaderboardId) ??
    game.rounds?.find((b) => b.id === leaderboardId);
  if (!board) {
    throw new CoinopError(
      'leaderboard_not_in_game',
      `leaderboardId ${leaderboardId} is not a leaderboard of game ${game.id}`,
      { details: { field: 'leaderboardId', leaderboardId, gameId: game.id } },
    );
  }
  return board;
}

/** The pending transfer that locks a play's cost into the play's own escrow account. */
export function lockTransfer(
  transferId: string,
  playId: string,
  playerAccountId: string,
  costUnits: bigint,
): TransferRequest {
  return {
    id: transferId,
    kind: 'pending',
    debitAccountId: playerAccountId,
    // Each play escrows into an account of its own (id = play id): no two plays contend for it.
    creditAccountId: playId,
    amount: costUnits,
    pendingId: null,
    reason: 'play_lock',
    playId,
  };
}

/**
 * The pending transfer that opens a play locked on chain: the cost is drawn on the vault's
 * account (which holds it on chain) into the play's escrow, so the play settles as any other.
 */
export function chainLockTransfer(
  transferId: string,
  playId: string,
  vaultAccountId: string,
  costUnits: bigint,
): TransferRequest {
  return {
    ...lockTransfer(transferId, playId, vaultAccountId, costUnits),
    reason: 'chain_play_lock',
  };
}

/** The account a play's lock is drawn on: its vault's when locked on chain, else the player's. */
export function lockAccountOf(play: Play, playerAccountId: string): string {
  return play.vaultAccountId ?? playerAccountId;
}

/**
 * The transfer that returns an open play's locked cost to its player, paying nobody: how a play
 * of a game the operator suspends ends. Null for a free play, which locked nothing. A play locked
 * on chain goes back to the vault's account; the vault refunds the player's wallet.
 */
export function voidLockTransfer(
  play: Play,
  playerAccountId: string,
  transferId: string,
): TransferRequest | null {
  if (play.lockTransferId === null || play.costUnits === 0n) return null;
  return {
    id: transferId,
    kind: 'void_pending',
    debitAccountId: lockAccountOf(play, playerAccountId),
    creditAccountId: play.id,
    amount: play.costUnits,
    pendingId: play.lockTransferId,
    reason: 'play_void',
    playId: play.id,
  };
}

/**
 * Who opened a play: its player (a client-side play: their signed play approval, or their wallet's
 * lock on chain) or its game's server (with the game's write token).
 */
export type PlayOpener = 'player' | 'game_server';

/**
 * Why the player may not score this play with their own signed score, or null if they may: it is
 * another player's, or its game's server opened it. A server-side game's score is its server's
 * (docs/concepts/score-integrity.md, "Who can lie about a score"); were the player's signature
 * enough, they could post any score for a run the server is still judging.
 */
export function playerScoreRefusal(
  play: Pick<Play, 'id' | 'playerId'> & { readonly openedBy: PlayOpener },
  playerId: string,
): CoinopError | null {
  if (play.playerId !== playerId) {
    return new CoinopError(
      'play_of_another_player',
      `play ${play.id} belongs to another player; a player scores only their own plays`,
      { details: { field: 'playId', playId: play.id } },
    );
  }
  if (play.openedBy !== 'player') {
    return new CoinopError(
      'play_scored_by_game_server',
      `play ${play.id} was opened by its game's server, which submits its score; ` +
        'a player scores only the plays they opened themselves',
      { details: { field: 'playId', playId: play.id } },
    );
  }
  return null;
}

/**
 * Rejects a score for a play that cannot take one: already scored, expired (by status or by the
 * clock), or submitted for another tier than the one played.
 */
export function assertScorable(play: Play, leaderboardId: string, now: Date): void {
  if (play.status === 'scored') {
    throw new CoinopError('play_already_scored', `play ${play.id} already has a score`, {
      details: { playId: play.id },
    });
  }
  if (play.status === 'voided') {
    const why =
      play.vaultAccountId === null
        ? 'its game was suspended, or its tournament round closed'
        : "its game was suspended, or its lock on chain ended or neared the vault's lock timeout";
    throw new CoinopError(
      'play_not_open',
      `play ${play.id} was voided (${why}) and its HST returned; it takes no score`,
      { details: { playId: play.id } },
    );
  }
  if (play.status === 'expired' || play.expiresAt.getTime() <= now.getTime()) {
    throw new CoinopError(
      'play_expired',
      `play ${play.id} expired at ${play.expiresAt.toISOString()}; its HST was settled without a score`,
      { details: { playId: play.id, expiresAt: play.expiresAt.toISOString() } },
    );
  }
  if (play.leaderboardId !== leaderboardId) {
    throw new CoinopError(
      'leaderboard_not_in_game',
      `leaderboardId ${leaderboardId} is not the leaderboard of play ${play.id} (${play.leaderboardId})`,
      { details: { field: 'leaderboardId', playId: play.id } },
    );
  }
}

/**
 * The transfers that settle a play, scored or expired: post the locked cost into the play's
 * escrow, then pay it out by the split rule. Linked: applied all together or not at all.
 *
 * A play on a tournament round names the round's pool account (`poolAccountId`, the round's id):
 * the leaders' part goes there (`tournament_pool`) instead of to the leaders of the moment, who
 * are then ignored; the developer's and the arcade's parts are as for a tier.
 *
 * A play locked on chain is paid on chain: each leader's and the developer's share is also
 * reserved from them to the vault's account (`chain_payout`, pending), posted once the vault's
 * `settleBatch` paid it to their wallet. The arcade's share stays in the vault, on its account.
 *
 * `held` (a payout hold, `payoutsHeldFor`): every share is a `pending` transfer from the escrow
 * instead of a posted one, posted when the hold ends or voided and re-settled if a score the
 * leaders rest on is voided meanwhile. Never for a play locked on chain or on a round.
 */
export function settlementTransfers(
  play: Play,
  leaderAccountIds: readonly string[],
  playerAccountId: string,
  game: Pick<GameRef, 'developerAccountId' | 'arcadeAccountId'>,
  rule: SplitRule,
  nextId: () => string,
  poolAccountId: string | null = null,
  held = false,
): TransferRequest[] {
  if (play.lockTransferId === null || play.costUnits === 0n) return [];
  if (held && (play.vaultAccountId !== null || poolAccountId !== null))
    throw new TypeError(`play ${play.id} is paid on chain or into a pool; it cannot be held`);
  const transfers: TransferRequest[] = [
    {
      id: nextId(),
      kind: 'post_pending',
      debitAccountId: lockAccountOf(play, playerAccountId),
      creditAccountId: play.id,
      amount: play.costUnits,
      pendingId: play.lockTransferId,
      reason: 'play_settle',
      playId: play.id,
    },
  ];
  const shares = splitCost(
    play.costUnits,
    leaderPartAccountIds(leaderAccountIds, poolAccountId),
    { playerAccountId, ...game },
    rule,
  );
  for (const share of shares) {
    transfers.push({
      ...payoutTransfer(play.id, share, nextId(), held),
      ...(poolAccountId !== null && share.role === 'leader' ? { reason: 'tournament_pool' } : {}),
    });
    if (play.vaultAccountId !== null && share.role !== 'arcade') {
      transfers.push({
        id: nextId(),
        kind: 'pending',
        debitAccountId: share.accountId,
        creditAccountId: play.vaultAccountId,
        amount: share.amount,
        pendingId: null,
        reason: 'chain_payout',
        playId: play.id,
      });
    }
  }
  return transfers;
}

/**
 * The ledger state settling open plays depends on, known from the plays themselves: an open
 * play's escrow (the account whose id is the play id) holds exactly its cost as pending credit,
 * locked by the play's lock transfer; every other account a settlement touches is only credited,
 * so its balance cannot fail a rule. The store can then settle without reading any account, and
 * the CHECK constraints repeat the rules when it writes. Plays must be open (checked under lock).
 */
export function settlementSnapshot(
  plays: readonly { play: Play; playerAccountId: string }[],
  creditedAccountIds: readonly string[],
): LedgerSnapshot {
  const accounts = new Map<string, Account>();
  const pendings = new Map<string, Transfer>();
  const empty = (id: string, kind: Account['kind']): Account => ({
    id,
    kind,
    debitsPending: 0n,
    debitsPosted: 0n,
    creditsPending: 0n,
    creditsPosted: 0n,
  });
  for (const id of creditedAccountIds) accounts.set(id, empty(id, 'player'));
  for (const { play, playerAccountId } of plays) {
    if (play.status !== 'open') throw new TypeError(`play ${play.id} is ${play.status}, not open`);
    if (play.lockTransferId === null) continue;
    const lockAccountId = lockAccountOf(play, playerAccountId);
    const lockKind = play.vaultAccountId === null ? 'player' : 'vault';
    const locked = accounts.get(lockAccountId) ?? empty(lockAccountId, lockKind);
    accounts.set(lockAccountId, {
      ...locked,
      kind: lockKind,
      debitsPending: locked.debitsPending + play.costUnits,
    });
    accounts.set(play.id, { ...empty(play.id, 'escrow'), creditsPending: play.costUnits });
    const lock =
      play.vaultAccountId === null
        ? lockTransfer(play.lockTransferId, play.id, playerAccountId, play.costUnits)
        : chainLockTransfer(play.lockTransferId, play.id, play.vaultAccountId, play.costUnits);
    pendings.set(play.lockTransferId, { ...lock, createdAt: play.createdAt });
  }
  return { accounts, existing: new Map(), pendings, resolvedPendings: new Map() };
}
