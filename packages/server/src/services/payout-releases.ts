import { releaseTransfers, type Clock, type Ids } from '@coinop/core';
import type { Db } from '../store/db.js';
import { applyTransfers } from '../store/ledger.js';
import { notifyLive } from '../store/live-notices.js';
import { heldPayoutsOf, lockDuePlays, markReleased } from '../store/payout-holds.js';

/** Plays released per transaction: a batch commits as one, so a crash loses none of it. */
export const RELEASES_PER_BATCH = 200;

/**
 * Posts the held payouts whose hold ended (docs/concepts/plays-and-settlement.md#hold-and-void),
 * a batch of plays per transaction. Several processes may run it at once: each locks the plays
 * it releases and skips those another holds, and a payout can be posted only once (the ledger's
 * `transfers_settle_once`), so every held payout is released exactly once.
 */
export async function releaseDuePayouts(
  deps: { db: Db; clock: Clock; ids: Ids },
  limit = RELEASES_PER_BATCH,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const plays = await lockDuePlays(tx, now, limit);
    if (plays.length === 0) return 0;
    const held = await heldPayoutsOf(tx, plays);
    const transfers = releaseTransfers(
      held.map((t) => ({
        id: t.id,
        debitAccountId: t.playId,
        creditAccountId: t.creditAccountId,
        playId: t.playId,
      })),
      () => deps.ids.next(),
    );
    await applyTransfers(tx, transfers, now);
    await markReleased(tx, plays);
    // Delivered at commit: each payee's balance grows as they watch.
    await notifyLive(tx, { boards: [], accounts: held.map((t) => t.creditAccountId) });
    return plays.length;
  });
}
