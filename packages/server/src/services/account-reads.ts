import type { Account } from '@coinop/core';
import type { ActivityKind } from '@coinop/protocol';
import { playerActivity, type ActivityPosition, type StoredActivity } from '../store/activity.js';
import { depositsOfTransaction, type DepositRecord } from '../store/chain-deposits.js';
import {
  listWithdrawals,
  type WithdrawalRecord,
  type WithdrawalStatus,
} from '../store/chain-withdrawals.js';
import { findDeveloper, type DeveloperRecord } from '../store/developers.js';
import { findAccount } from '../store/ledger.js';
import { findPlayer, type PlayerRecord } from '../store/players.js';
import type { ArcadeServices } from './arcade-services.js';

export type { ActivityPosition, StoredActivity } from '../store/activity.js';
export { WITHDRAWALS_PAGE_MAX, WithdrawalStatuses } from '../store/chain-withdrawals.js';
export type { WithdrawalRecord } from '../store/chain-withdrawals.js';

/**
 * What the player, developer and operator routes read of one account: its owner's row, its
 * deposits, activity and withdrawals, its balance. The routes check who asks; a row missing for
 * a verified credential is a bug (TypeError), not a 4xx.
 */
export class AccountReads {
  readonly #arcade: ArcadeServices;

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
  }

  /** The player of a verified player token. */
  async player(playerId: string): Promise<PlayerRecord> {
    const player = await findPlayer(this.#arcade.db, playerId);
    if (!player) throw new TypeError(`player ${playerId} of a valid token has no row`);
    return player;
  }

  /** The developer of a live API key. */
  async developer(developerId: string): Promise<DeveloperRecord> {
    const developer = await findDeveloper(this.#arcade.db, developerId);
    if (!developer) throw new TypeError(`developer ${developerId} of a live key has no row`);
    return developer;
  }

  /** The ledger account of a developer or player the routes already know. */
  async account(accountId: string, owner: string): Promise<Account> {
    const account = await findAccount(this.#arcade.db, accountId);
    if (!account) throw new TypeError(`${owner} account ${accountId} has no row`);
    return account;
  }

  /** The deposits one transaction made, on any chain and vault watched, in log order. */
  async depositsOfTransaction(txHash: string): Promise<DepositRecord[]> {
    return depositsOfTransaction(this.#arcade.db, txHash);
  }

  /** A page of a player's activity, newest first, after `cursor` when given. */
  async activity(
    player: { id: string; accountId: string },
    kinds: readonly ActivityKind[],
    cursor: ActivityPosition | null,
    limit: number,
  ): Promise<{ items: StoredActivity[]; more: boolean }> {
    return playerActivity(this.#arcade.db, player, kinds, cursor, limit);
  }

  /** Withdrawals newest first, of one account or all, of one status or any, after `before`. */
  async withdrawals(filter: {
    accountId?: string | undefined;
    status?: WithdrawalStatus | undefined;
    limit: number;
    before?: string | undefined;
  }): Promise<WithdrawalRecord[]> {
    return listWithdrawals(this.#arcade.db, filter);
  }
}
