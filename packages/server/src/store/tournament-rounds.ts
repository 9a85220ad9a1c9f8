import { InsufficientFundsError, availableUnits, type Units } from '@coinop/core';
import type { Queryable } from './db.js';
import { applyTransfers, insertAccount, lockAccount } from './ledger.js';

/** A round to open: its board, its pool account and its window (docs/concepts/tournaments.md). */
export interface NewRound {
  /** The round's id: also its board's (leaderboard) id and its pool account's id. */
  readonly id: string;
  readonly tournamentId: string;
  readonly gameId: string;
  readonly number: number;
  /** The board's name, as board reads show it (e.g. "Weekly Cup #3"). */
  readonly boardName: string;
  readonly entryFeeUnits: Units;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly guaranteeUnits: Units;
  readonly funderAccountId: string;
  /** The id of the guarantee's transfer (used only when there is a guarantee). */
  readonly guaranteeTransferId: string;
  /**
   * When the funder cannot cover the guarantee: `refuse` throws `insufficient_funds` (creating a
   * tournament), `open_without` opens the round with no guarantee (a season's later round).
   */
  readonly shortGuarantee: 'refuse' | 'open_without';
}

/** Leaders shown for a round's board by the tier-style reads; the pool pays, not the leaders. */
const ROUND_LEADERS_SHOWN = 10;

/**
 * Opens a round inside `tx` (which must be a transaction): its board (a leaderboards row of the
 * tournament, left out of the game's tiers), its pool account, the round row, and the guarantee
 * moved from the funder into the pool. Answers whether the guarantee was funded.
 */
export async function openRound(
  tx: Queryable,
  round: NewRound,
  now: Date,
): Promise<{ guaranteeFunded: boolean }> {
  await tx.query(
    `INSERT INTO leaderboards
       (id, game_id, name, cost_units, leaders_max, position, created_at, tournament_id)
     VALUES ($1, $2, $3, $4, $5, 0, $6, $7)`,
    [
      round.id,
      round.gameId,
      round.boardName,
      round.entryFeeUnits.toString(),
      ROUND_LEADERS_SHOWN,
      now,
      round.tournamentId,
    ],
    'tournament_round_board',
  );
  await insertAccount(tx, round.id, 'pool', now);

  let guaranteeFunded = round.guaranteeUnits === 0n;
  if (!guaranteeFunded) {
    const funder = await lockAccount(tx, round.funderAccountId);
    const available = funder ? availableUnits(funder) : 0n;
    if (available >= round.guaranteeUnits) {
      await applyTransfers(
        tx,
        [
          {
            id: round.guaranteeTransferId,
            kind: 'posted',
            debitAccountId: round.funderAccountId,
            creditAccountId: round.id,
            amount: round.guaranteeUnits,
            pendingId: null,
            reason: 'tournament_guarantee',
            playId: null,
          },
        ],
        now,
      );
      guaranteeFunded = true;
    } else if (round.shortGuarantee === 'refuse') {
      throw new InsufficientFundsError(round.funderAccountId, available, round.guaranteeUnits);
    }
  }

  await tx.query(
    `INSERT INTO tournament_rounds
       (id, tournament_id, number, starts_at, ends_at, status, guarantee_units, guarantee_funded,
        created_at)
     VALUES ($1, $2, $3, $4, $5, 'open', $6, $7, $8)`,
    [
      round.id,
      round.tournamentId,
      round.number,
      round.startsAt,
      round.endsAt,
      (guaranteeFunded ? round.guaranteeUnits : 0n).toString(),
      guaranteeFunded,
      now,
    ],
    'tournament_round_insert',
  );
  return { guaranteeFunded };
}
