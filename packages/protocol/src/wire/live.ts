import type { Leader } from './game-server.js';

/**
 * Live updates (docs/concepts/live-updates.md): Server-Sent Events on `GET /player/events` (the
 * signed-in player: balance, notifications, and the boards of one game) and
 * `GET /catalog/games/{gameId}/events` (anyone: a published game's boards). Each event's `data`
 * is one JSON object named by its `event` field, below.
 */

/**
 * The name of each event a live stream sends (the SSE `event:` field).
 *
 * @example
 * ```ts
 * import { LiveEvents } from '@coinop/protocol';
 * const source = new EventSource('/api/catalog/games/3f0c…/events');
 * source.addEventListener(LiveEvents.board, (e) => console.log(JSON.parse(e.data)));
 * ```
 */
export const LiveEvents = {
  /** A board's leaders changed (and once for each board on connecting): `LiveBoard`. */
  board: 'board',
  /** The player's balance or pending payouts changed (and once on connecting): `LiveBalance`. */
  balance: 'balance',
  /** A payout, prize or deposit reached the player: `PlayerNotification`, with an SSE id. */
  notification: 'notification',
} as const;
export type LiveEventName = (typeof LiveEvents)[keyof typeof LiveEvents];

/**
 * A board as it stands now: its leaders, best first, as `GET /catalog/games/{gameId}` lists them.
 *
 * @example
 * ```ts
 * import type { LiveBoard } from '@coinop/protocol';
 * const top = (board: LiveBoard) => board.leaders[0]?.name ?? 'nobody yet';
 * ```
 */
export interface LiveBoard {
  readonly gameId: string;
  readonly leaderboardId: string;
  readonly leaders: readonly Leader[];
}

/**
 * The signed-in player's money as `GET /player/me` states it, exact decimal HST strings.
 *
 * @example
 * ```ts
 * import type { LiveBalance } from '@coinop/protocol';
 * const line = (b: LiveBalance) => `${b.balance} HST (${b.pendingPayouts} held)`;
 * ```
 */
export interface LiveBalance {
  readonly balance: string;
  readonly pending: string;
  readonly pendingPayouts: string;
  readonly pendingPayoutsReleaseAt: string | null;
}

/**
 * What a notification tells: `payout`, a leader's share of someone's play on the player's board;
 * `prize`, a tournament round's prize; `deposit`, HST credited from the chain; `refund`, a play's
 * cost given back (a suspended game's open play, a tournament round's entry among them);
 * `publish_approved` and `publish_declined`, the operator's decision on a publish request of the
 * player's game (the player's wallet is the game's developer).
 *
 * @example
 * ```ts
 * import { NotificationKinds } from '@coinop/protocol';
 * const kinds = NotificationKinds.join(', '); // 'payout, prize, deposit'
 * ```
 */
export const NotificationKinds = [
  'payout',
  'prize',
  'deposit',
  'refund',
  'publish_approved',
  'publish_declined',
] as const;
export type NotificationKind = (typeof NotificationKinds)[number];

/**
 * One notification (`GET /player/notifications`, and the `notification` event). `id` is also the
 * event's SSE id: the position a stream resumes after (`Last-Event-ID`).
 *
 * @example
 * ```ts
 * import type { PlayerNotification } from '@coinop/protocol';
 * const text = (n: PlayerNotification) =>
 *   n.kind === 'payout'
 *     ? `You were paid ${n.amount} HST: ${n.fromPlayerName} played on your board in ${n.gameName}`
 *     : `${n.amount} HST`;
 * ```
 */
export interface PlayerNotification {
  readonly id: string;
  readonly kind: NotificationKind;
  /** When the HST moved, or the request was decided (ISO 8601). */
  readonly at: string;
  /** Exact decimal HST (`formatHst`); "0" for a publish decision. */
  readonly amount: string;
  /** A payout: `held` until its hold ends, `paid`, or `voided` with its score. Null otherwise. */
  readonly status: 'held' | 'paid' | 'voided' | null;
  readonly gameId: string | null;
  readonly gameName: string | null;
  readonly tierName: string | null;
  /** A payout: the play that paid it, and who played it. */
  readonly playId: string | null;
  readonly fromPlayerName: string | null;
  /**
   * A payout: true when the play that paid it was the player's own (a leader playing on their own
   * board is paid a share of their own cost); false otherwise, and for every other kind.
   */
  readonly ownPlay: boolean;
  /** A prize: the place the player finished in. */
  readonly rank: number | null;
  /** A declined publish request: the operator's reason. Null otherwise. */
  readonly reason: string | null;
}

/**
 * The player's recent notifications, newest first (`GET /player/notifications`).
 *
 * @example
 * ```ts
 * import type { PlayerNotificationList } from '@coinop/protocol';
 * const newest = (list: PlayerNotificationList) => list.notifications[0]?.id ?? null;
 * ```
 */
export interface PlayerNotificationList {
  readonly notifications: readonly PlayerNotification[];
}
