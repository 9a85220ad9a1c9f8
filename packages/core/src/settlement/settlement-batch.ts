import type { AccountDelta, TransferRequest } from '../ledger/types.js';

/**
 * The settlement transfers of a batch of scores, written in one statement at its end. The
 * balance changes are summed per account, so each shared account (the arcade's, the
 * developer's, the leaders') is updated once per batch.
 */
export class SettlementBatch {
  readonly transfers: TransferRequest[] = [];
  readonly times: Date[] = [];
  readonly deltas = new Map<string, AccountDelta>();

  add(
    transfers: readonly TransferRequest[],
    deltas: ReadonlyMap<string, AccountDelta>,
    now: Date,
  ): void {
    for (const t of transfers) {
      this.transfers.push(t);
      this.times.push(now);
    }
    for (const [id, d] of deltas) {
      const sum = this.deltas.get(id);
      this.deltas.set(
        id,
        sum
          ? {
              debitsPending: sum.debitsPending + d.debitsPending,
              debitsPosted: sum.debitsPosted + d.debitsPosted,
              creditsPending: sum.creditsPending + d.creditsPending,
              creditsPosted: sum.creditsPosted + d.creditsPosted,
            }
          : d,
      );
    }
  }
}
