import {
  accountOwners,
  listTransfers,
  type AccountOwner,
  type StoredTransfer,
  type TransferFilter,
  type TransferPosition,
} from '../store/ledger-transfers.js';
import { requirePlayer } from './admin.js';
import type { ArcadeServices } from './arcade-services.js';

export type {
  AccountOwner,
  StoredTransfer,
  TransferFilter,
  TransferPosition,
} from '../store/ledger-transfers.js';

/** A page of the operator's transfer list, with the owner of every account it names. */
export interface TransferPage {
  readonly transfers: readonly StoredTransfer[];
  /** Every debit and credit account of the page, read in one grouped statement. */
  readonly owners: ReadonlyMap<string, AccountOwner>;
  readonly more: boolean;
}

/**
 * The operator's ledger transfers (GET /admin/ledger/transfers): a player filter is resolved to
 * the player's account first (404 `player_not_found` when no player has the id or wallet; the
 * route takes `account` or `player`, never both), then
 * the page is read, then its accounts' owners in one more statement, never one per row.
 */
export async function transferPage(
  arcade: ArcadeServices,
  query: Omit<TransferFilter, 'accountId'> & {
    accountId: string | null;
    player: string | null;
    after: TransferPosition | null;
    limit: number;
  },
): Promise<TransferPage> {
  const { player, after, limit, ...rest } = query;
  const playerAccountId = player === null ? null : (await requirePlayer(arcade, player)).accountId;
  const filter = { ...rest, accountId: playerAccountId ?? rest.accountId };
  const page = await listTransfers(arcade.db, filter, after, limit);
  const ids = page.transfers.flatMap((t) => [t.debitAccountId, t.creditAccountId]);
  return { ...page, owners: await accountOwners(arcade.db, ids) };
}
