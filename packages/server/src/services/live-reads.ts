import type { Db } from '../store/db.js';
import { findPlayer } from '../store/players.js';
import {
  notificationsSince,
  recentNotifications,
  type StoredNotification,
} from '../store/notifications.js';

/** Where a notification stands: its time to the microsecond, then its transfer's id. */
export interface NotificationPosition {
  readonly atMicros: bigint;
  readonly transferId: string;
}

/**
 * How far before a stream's last notification it reads again. A credit's time is set before its
 * transaction commits, so one committed a moment after a later-stamped one would otherwise be
 * skipped; the stream (and the web app) drop what they already sent by its id.
 */
export const NOTIFICATION_LOOKBACK_MICROS = 5_000_000n;
/** The most notifications one read sends: a stream that missed more reads the list instead. */
export const NOTIFICATIONS_PER_READ = 100;

/** What the live streams and the notifications menu read about a player. */
export class LiveReads {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The player's ledger account. */
  async accountOf(playerId: string): Promise<string> {
    const player = await findPlayer(this.#db, playerId);
    if (!player) throw new TypeError(`player ${playerId} of a valid token has no row`);
    return player.accountId;
  }

  /** The account's latest notifications, newest first. */
  recent(accountId: string, limit: number): Promise<StoredNotification[]> {
    return recentNotifications(this.#db, accountId, limit);
  }

  /**
   * The account's notifications from a little before `after` (`NOTIFICATION_LOOKBACK_MICROS`),
   * oldest first, without `after` itself; the caller drops those it already sent.
   */
  async since(accountId: string, after: NotificationPosition): Promise<StoredNotification[]> {
    const from = after.atMicros - NOTIFICATION_LOOKBACK_MICROS;
    const rows = await notificationsSince(this.#db, accountId, from, NOTIFICATIONS_PER_READ);
    return rows.filter((r) => r.transferId !== after.transferId);
  }
}

export type { StoredNotification };
