import type { TransferRequest } from '../ledger/types.js';
import type { Play } from '../model.js';
import type { Units } from '../money.js';
import { settlementTransfers, voidLockTransfer } from '../plays/lifecycle.js';
import type { SplitRule } from '../settlement/split.js';
import { dividePool, type PayoutTable } from './payout-table.js';

/** A player in a round's final standings, best first (the board's total order). */
export interface Standing {
  readonly playerId: string;
  readonly accountId: string;
  readonly score: number;
}

/** What one entrant paid into a round's pool: the leaders' part of their settled plays. */
export interface PoolEntry {
  readonly accountId: string;
  readonly amount: Units;
}

export interface RoundClose {
  /** The round's id, which is its pool account's id. */
  readonly roundId: string;
  /** The pool account's balance at the close. */
  readonly pool: Units;
  /** The part of the pool its creator put in when the round opened. */
  readonly guarantee: Units;
  /** How many players have a score on the round. */
  readonly rankedPlayers: number;
  /** The leading standings, at least as many as the table pays (more are ignored). */
  readonly standings: readonly Standing[];
  /**
   * What each entrant paid into the pool (`tournament_pool`), in a fixed order; read only when
   * nobody is ranked, when each entrant's part goes back to them.
   */
  readonly entries: readonly PoolEntry[];
  readonly table: PayoutTable;
  readonly arcadeAccountId: string;
  readonly funderAccountId: string;
}

export interface RoundResult {
  readonly place: number;
  readonly playerId: string;
  readonly score: number;
  readonly prize: Units;
  readonly transferId: string;
}

export interface RoundPayout {
  readonly transfers: readonly TransferRequest[];
  readonly results: readonly RoundResult[];
}

/**
 * The transfers that empty a closing round's pool (docs/concepts/tournaments.md, "Closing"): each
 * paid place its prize, the remainder to the arcade; with nobody ranked, the guarantee back to
 * its funder and each entrant's part back to them, never to the developer (who may void scores,
 * so would decide that nobody ranks). What is left after that (the pool held less than the
 * entries and guarantee say, which the ledger never does) goes to the arcade. They always sum
 * to `pool`, leaving the pool at 0.
 */
export function roundPayout(close: RoundClose, nextId: () => string): RoundPayout {
  const transfers: TransferRequest[] = [];
  const results: RoundResult[] = [];
  const pay = (creditAccountId: string, amount: Units, reason: TransferRequest['reason']) => {
    const id = nextId();
    if (amount > 0n) {
      transfers.push({
        id,
        kind: 'posted',
        debitAccountId: close.roundId,
        creditAccountId,
        amount,
        pendingId: null,
        reason,
        playId: null,
      });
    }
    return id;
  };

  if (close.rankedPlayers === 0) {
    const refund = close.guarantee < close.pool ? close.guarantee : close.pool;
    pay(close.funderAccountId, refund, 'tournament_refund');
    let left = close.pool - refund;
    for (const entry of close.entries) {
      const amount = entry.amount < left ? entry.amount : left;
      pay(entry.accountId, amount, 'tournament_returned');
      left -= amount;
    }
    pay(close.arcadeAccountId, left, 'tournament_remainder');
    return { transfers, results };
  }

  const { prizes, remainder } = dividePool(close.pool, close.table, close.rankedPlayers);
  if (close.standings.length < prizes.length) {
    throw new TypeError(
      `round ${close.roundId} pays ${prizes.length} places but only ${close.standings.length} standings were given`,
    );
  }
  prizes.forEach((prize, i) => {
    const standing = close.standings[i] as Standing;
    if (prize === 0n) return;
    const transferId = pay(standing.accountId, prize, 'tournament_prize');
    results.push({
      place: i + 1,
      playerId: standing.playerId,
      score: standing.score,
      prize,
      transferId,
    });
  });
  pay(close.arcadeAccountId, remainder, 'tournament_remainder');
  return { transfers, results };
}

/** What ending a round's open play at its close needs of the round. */
export interface ClosingRound {
  /** The round's id, which is its pool account's id. */
  readonly roundId: string;
  /** The round's game's developer's account and its arcade's account: they take their parts. */
  readonly developerAccountId: string;
  readonly arcadeAccountId: string;
}

/**
 * How the close ends a play still open on the round (docs/concepts/tournaments.md, "Closing"):
 * settled as an expired round play is, by the same split (`settlementTransfers` with the round's
 * pool: the leaders' part into the pool, the developer's and the arcade's paid at once), and
 * `expired`. A play not scored by the end costs what an expired play costs; were it refunded, a
 * player could leave every bad run unscored and pay only for the runs they submit.
 *
 * A play locked on chain is voided instead (its lock back to the vault's account): its payout
 * is paid on chain by the vault's settlement, which the close cannot wait for. A round refuses
 * such plays (`tournament_chain_play_refused`), so none is expected; should one exist, nobody is
 * paid from an on-chain lock the close could not settle.
 */
export function openPlayAtClose(
  play: Play,
  playerAccountId: string,
  round: ClosingRound,
  rule: SplitRule,
  nextId: () => string,
): { readonly status: 'expired' | 'voided'; readonly transfers: readonly TransferRequest[] } {
  if (play.vaultAccountId !== null) {
    const transfer = voidLockTransfer(play, playerAccountId, nextId());
    return { status: 'voided', transfers: transfer === null ? [] : [transfer] };
  }
  const transfers = settlementTransfers(
    play,
    // The leaders of the moment are ignored on a round: the leaders' part goes to the pool.
    [],
    playerAccountId,
    round,
    rule,
    nextId,
    round.roundId,
  );
  return { status: 'expired', transfers };
}
