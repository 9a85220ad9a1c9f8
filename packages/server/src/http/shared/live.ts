import type { FastifyReply } from 'fastify';
import { CoinopError } from '@coinop/core';
import { formatHst, LiveEvents, type LiveBalance, type PlayerNotification } from '@coinop/protocol';
import { EventStream } from '../../listener/event-stream.js';
import { positionMicros } from './cursors.js';
import type { ArcadeServices } from '../../services/arcade-services.js';
import {
  LIVE_STREAMS_MAX,
  LIVE_STREAMS_PER_PLAYER,
  type LiveWatcher,
} from '../../services/live-hub.js';
import {
  NOTIFICATION_LOOKBACK_MICROS,
  type NotificationPosition,
  type StoredNotification,
} from '../../services/live-reads.js';

/** A notification's id, which is also its SSE id: `<microseconds>-<transfer id>`. */
export function notificationId(n: { atMicros: bigint; transferId: string }): string {
  return `${n.atMicros}-${n.transferId}`;
}

const NOTIFICATION_ID =
  /^(\d{1,19})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The position a `Last-Event-ID` names; 400 naming the header for anything else. */
export function parseLastEventId(value: string | undefined): NotificationPosition | null {
  if (value === undefined || value === '') return null;
  const match = NOTIFICATION_ID.exec(value);
  const atMicros = match?.[1] === undefined ? null : positionMicros(match[1]);
  if (atMicros === null || !match?.[2]) {
    throw new CoinopError(
      'validation_failed',
      'Last-Event-ID must be the id of an event this stream sent (<microseconds>-<uuid>)',
      { details: { field: 'last-event-id' } },
    );
  }
  return { atMicros, transferId: match[2] };
}

export function notificationToWire(n: StoredNotification): PlayerNotification {
  return {
    id: notificationId(n),
    kind: n.kind,
    at: n.at.toISOString(),
    amount: formatHst(n.amountUnits),
    status: n.status,
    gameId: n.gameId,
    gameName: n.gameName,
    tierName: n.tierName,
    playId: n.playId,
    fromPlayerName: n.fromPlayerName,
    ownPlay: n.ownPlay,
    rank: n.rank,
    reason: n.reason,
  };
}

/** 404 `game_not_found` unless the game is published in this arcade: what anyone may see. */
export async function assertGamePublic(arcade: ArcadeServices, gameId: string): Promise<void> {
  const view = await arcade.reads.gameView(gameId);
  if (view.game.publishedAt === null || view.game.arcadeId !== arcade.record.id) {
    throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
  }
}

export interface LiveStreamOptions {
  /** The published game whose boards the stream carries; null for none. */
  readonly gameId: string | null;
  /** The signed-in player whose balance and notifications it carries; null for a visitor. */
  readonly player: { readonly playerId: string; readonly accountId: string } | null;
  /** Where the client's last stream stopped (`Last-Event-ID`); null for a fresh one. */
  readonly resumeAfter: NotificationPosition | null;
  /**
   * Refuses `gameId` (404) unless the stream may carry its boards: a published game by default;
   * the player route lets a game's developer and accepted testers watch its preview too.
   */
  readonly assertWatchable?: ((gameId: string) => Promise<void>) | undefined;
}

/**
 * Answers with a live stream (docs/concepts/live-updates.md): first what it follows as it stands
 * (each board, the balance) and, on resuming, the notifications missed; then each change. Refuses
 * before answering: 503 `live_streams_full` past the process's limit, 429
 * `live_streams_per_player` past the player's, 404 for a game not public.
 */
export async function serveLiveStream(
  arcade: ArcadeServices,
  reply: FastifyReply,
  options: LiveStreamOptions,
): Promise<void> {
  const hub = arcade.live;
  if (hub.size >= LIVE_STREAMS_MAX) {
    throw new CoinopError(
      'live_streams_full',
      `this server holds ${LIVE_STREAMS_MAX} live streams already; try again shortly`,
    );
  }
  const { gameId, player } = options;
  const assertWatchable = options.assertWatchable ?? ((id) => assertGamePublic(arcade, id));
  const release = player === null ? () => undefined : hub.reserve(player.accountId);
  if (release === null) {
    throw new CoinopError(
      'live_streams_per_player',
      `you have ${LIVE_STREAMS_PER_PLAYER} live streams open on this server already; ` +
        'close a tab or try again shortly',
      { details: { limit: LIVE_STREAMS_PER_PLAYER } },
    );
  }
  let notices: PlayerNotices | null;
  try {
    if (gameId !== null) await assertWatchable(gameId);
    notices = player === null ? null : await PlayerNotices.open(arcade, player, options);
  } catch (error) {
    release();
    throw error;
  }
  const stream = new EventStream(reply);
  stream.onClose(release);
  const watcher: LiveWatcher = {
    gameId,
    accountId: player?.accountId ?? null,
    board: (board) => stream.send(LiveEvents.board, board),
    account: () => notices?.refresh(stream),
    gameChanged: () => {
      if (gameId === null) return;
      arcade.reads.invalidate(gameId);
      // A game the stream may no longer carry (unpublished, say) leaves it; the client's
      // reconnect gets its 404.
      assertWatchable(gameId).catch(() => stream.close());
    },
    close: () => stream.close(),
  };
  try {
    stream.onClose(await hub.watch(watcher));
    if (gameId !== null) {
      for (const leaderboardId of await hub.boardsOf(gameId)) {
        stream.send(LiveEvents.board, await hub.board(gameId, leaderboardId));
      }
    }
    notices?.refresh(stream);
  } catch {
    // The answer has begun, so no error can be sent: ending it makes the client reconnect.
    stream.close();
  }
}

/**
 * One stream's view of a player's money: the balance (sent when it changed) and the
 * notifications after the stream's position, each sent once; reads run one at a time, and a
 * change during one makes one more after it.
 */
class PlayerNotices {
  readonly #arcade: ArcadeServices;
  readonly #player: { readonly playerId: string; readonly accountId: string };
  #position: NotificationPosition;
  /** Ids sent (or already known to the client), with their time, pruned past the lookback. */
  readonly #sent = new Map<string, bigint>();
  #lastBalance = '';
  #running: Promise<void> | null = null;
  #again = false;

  private constructor(
    arcade: ArcadeServices,
    player: { readonly playerId: string; readonly accountId: string },
    position: NotificationPosition,
  ) {
    this.#arcade = arcade;
    this.#player = player;
    this.#position = position;
  }

  /**
   * Resuming, it sends what followed the client's last event. Fresh, it starts after the newest
   * notification, and counts the few before it as known (the client reads the list).
   */
  static async open(
    arcade: ArcadeServices,
    player: { readonly playerId: string; readonly accountId: string },
    options: LiveStreamOptions,
  ): Promise<PlayerNotices> {
    if (options.resumeAfter !== null) {
      return new PlayerNotices(arcade, player, options.resumeAfter);
    }
    const [newest] = await arcade.liveReads.recent(player.accountId, 1);
    const nowMicros = BigInt(arcade.clock.now().getTime()) * 1000n;
    const position = newest ?? { atMicros: nowMicros, transferId: '' };
    const notices = new PlayerNotices(arcade, player, position);
    notices.#sent.set(position.transferId, position.atMicros);
    for (const known of await arcade.liveReads.since(player.accountId, position)) {
      notices.#sent.set(known.transferId, known.atMicros);
    }
    return notices;
  }

  refresh(stream: EventStream): void {
    if (this.#running !== null) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        try {
          await this.#read(stream);
        } catch {
          // The database is away: the next change, or the client's reconnect, reads again.
        }
      } while (this.#again && !stream.closed);
    })().finally(() => (this.#running = null));
  }

  async #read(stream: EventStream): Promise<void> {
    const details = await this.#arcade.reads.playerDetails(this.#player.playerId);
    const balance: LiveBalance = {
      balance: formatHst(details.balanceUnits),
      pending: formatHst(details.pendingUnits),
      pendingPayouts: formatHst(details.pendingPayouts.units),
      pendingPayoutsReleaseAt: details.pendingPayouts.nextReleaseAt?.toISOString() ?? null,
    };
    const fresh = await this.#arcade.liveReads.since(this.#player.accountId, this.#position);
    const text = JSON.stringify(balance);
    if (text !== this.#lastBalance) {
      this.#lastBalance = text;
      stream.send(LiveEvents.balance, balance);
    }
    for (const n of fresh) {
      if (this.#sent.has(n.transferId)) continue;
      this.#sent.set(n.transferId, n.atMicros);
      stream.send(LiveEvents.notification, notificationToWire(n), notificationId(n));
      if (n.atMicros > this.#position.atMicros) this.#position = n;
    }
    const oldest = this.#position.atMicros - 2n * NOTIFICATION_LOOKBACK_MICROS;
    for (const [id, at] of this.#sent) if (at < oldest) this.#sent.delete(id);
  }
}
