// Closing a tournament round at scale: one round whose board holds `entrants` players' bests
// (bulk-loaded as the ranking bench loads its board: players, accounts, bests and the count
// tree) and a pool; then the store's own close (closeRound) timed in one transaction, as the
// closer runs it. Reports the close's time and its payout batch's size.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DEFAULT_SPLIT_RULE } from '@coinop/core';
import { applyTransfers, auditLedger } from '../dist/store/ledger.js';
import { closeRound } from '../dist/store/tournament-close.js';
import { openRound } from '../dist/store/tournament-rounds.js';
import { ensureArcade } from '../dist/store/arcades.js';
import { systemClock, uuidIds } from '../dist/ids.js';
import { bulkLoad } from './board-load.mjs';
import { createBoard } from './ranking.mjs';

/** The payout table closed: the top 10% equally, so the batch grows with the field. */
const PAYOUT_TABLE = { topPercent: 10 };
const POOL_UNITS = 1_000_000_000_000n;

/**
 * Builds the round on `db` (migrated, empty), closes it, and checks what the close did: every
 * paid place has its result, the pool is empty, the ledger balanced.
 */
export async function closeBench(db, { entrants, log }) {
  const clock = systemClock;
  const arcade = await ensureArcade(db, clock, uuidIds);
  // The ranking bench's game: its tier board is left alone, the round gets its own board.
  const { gameId } = await createBoard(db);
  const now = clock.now();
  const tournamentId = randomUUID();
  const roundId = randomUUID();
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO tournaments (id, game_id, name, entry_fee_units, funder_account_id, created_by,
         payout_table, starts_at, duration_seconds, created_at, updated_at)
       VALUES ($1, $2, 'Bench Cup', 100000000, $3, 'operator', $4, $5, 3600, $6, $6)`,
      [
        tournamentId,
        gameId,
        arcade.accountId,
        JSON.stringify(PAYOUT_TABLE),
        new Date(now.getTime() - 3_660_000),
        now,
      ],
    );
    await openRound(
      tx,
      {
        id: roundId,
        tournamentId,
        gameId,
        number: 1,
        boardName: 'Bench Cup #1',
        entryFeeUnits: 100_000_000n,
        startsAt: new Date(now.getTime() - 3_660_000),
        endsAt: new Date(now.getTime() - 60_000),
        guaranteeUnits: 0n,
        funderAccountId: arcade.accountId,
        guaranteeTransferId: randomUUID(),
        shortGuarantee: 'open_without',
      },
      now,
    );
    // The pool, minted into it: what the fees' leaders' parts would have brought.
    await applyTransfers(
      tx,
      [
        {
          id: randomUUID(),
          kind: 'posted',
          debitAccountId: arcade.mintAccountId,
          creditAccountId: roundId,
          amount: POOL_UNITS,
          pendingId: null,
          reason: 'mint',
          playId: null,
        },
      ],
      now,
    );
  });
  const loadStarted = performance.now();
  await bulkLoad(db, roundId, entrants, { log });
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  log(`loaded ${entrants.toLocaleString('en')} entrants in ${loadSeconds.toFixed(1)} s`);

  const started = performance.now();
  const outcome = await db.transaction((tx) =>
    closeRound(tx, roundId, {
      now: clock.now(),
      arcadeAccountId: arcade.accountId,
      splitRule: DEFAULT_SPLIT_RULE,
      nextId: () => uuidIds.next(),
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (!outcome.closed) throw new Error(`the round did not close: ${outcome.reason}`);
  const round = outcome.round;

  const [check] = await db.query(
    `SELECT (SELECT count(*)::int FROM tournament_results WHERE round_id = $1) AS results,
            (SELECT credits_posted - debits_posted FROM accounts WHERE id = $1)::text AS pool`,
    [roundId],
  );
  if (check.results !== round.paidPlaces || check.pool !== '0') {
    throw new Error(`the close left ${JSON.stringify(check)} for ${JSON.stringify(round)}`);
  }
  const audit = await auditLedger(db);
  if (!audit.balanced) throw new Error('the ledger is not balanced after the close');
  return {
    entrants,
    loadSeconds,
    seconds,
    rankedPlayers: round.rankedPlayers,
    paidPlaces: round.paidPlaces,
    payoutTransfers: round.payoutTransfers,
    poolUnits: round.poolUnits.toString(),
    balanced: audit.balanced,
  };
}
