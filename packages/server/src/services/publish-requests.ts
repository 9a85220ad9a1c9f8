import { CoinopError } from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { notifyGameChanged } from '../store/cache-notices.js';
import { findGame, publishGame } from '../store/games.js';
import { developerPlayerAccountOf, notifyLive } from '../store/live-notices.js';
import {
  decidePublishRequest,
  findPublishRequest,
  findQueuedPublishRequest,
  insertPublishRequest,
  listPublishRequests,
  publishRequestsOfGame,
  type PublishRequestRecord,
  type PublishRequestState,
  type QueuedPublishRequest,
} from '../store/publish-requests.js';
import type { ArcadeServices } from './arcade-services.js';

export { PublishRequestStates } from '../store/publish-requests.js';
export type { PublishRequestRecord, QueuedPublishRequest } from '../store/publish-requests.js';

/** How many of a game's past requests the portal is shown: the latest decides what it says. */
export const GAME_REQUESTS_MAX = 20;

/**
 * Publish requests (issue 17): a developer asks the operator to list a game in the catalog; the
 * operator approves (the game is published, as `POST /admin/games/{id}/publish` does) or
 * declines with a reason; the developer may withdraw a pending one. Callers check who asks: the
 * developer routes that the game is the developer's, the admin routes the admin token.
 */
export class PublishRequests {
  readonly #arcade: ArcadeServices;

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
  }

  /**
   * Opens a request for the game, or answers the pending one (`created: false`): one open
   * request per game, whoever asks twice.
   */
  async request(
    gameId: string,
    note: string,
  ): Promise<{ request: PublishRequestRecord; created: boolean }> {
    const { db, clock, ids } = this.#arcade;
    const game = await findGame(db, gameId);
    if (!game) throw new TypeError(`game ${gameId} of a publish request has no row`);
    if (game.publishedAt !== null) {
      throw new CoinopError('game_already_published', `game ${gameId} is already in the catalog`, {
        details: { gameId },
      });
    }
    const inserted = await insertPublishRequest(db, {
      id: ids.next(),
      gameId,
      note,
      now: clock.now(),
    });
    if (inserted) return { request: inserted, created: true };
    const [pending] = await publishRequestsOfGame(db, gameId, 1);
    if (pending?.state !== 'pending') {
      throw new TypeError(`game ${gameId} had a pending request that is gone`);
    }
    return { request: pending, created: false };
  }

  /** The game's requests, newest first: the first one is where the game stands. */
  async ofGame(gameId: string): Promise<PublishRequestRecord[]> {
    return publishRequestsOfGame(this.#arcade.db, gameId, GAME_REQUESTS_MAX);
  }

  /** Withdraws the game's pending request; withdrawing again answers the same. */
  async withdraw(gameId: string, requestId: string): Promise<PublishRequestRecord> {
    const { db, clock } = this.#arcade;
    const decided = await decidePublishRequest(db, {
      id: requestId,
      state: 'withdrawn',
      declineReason: null,
      now: clock.now(),
    });
    const request = await findPublishRequest(db, requestId);
    // Another game's request is answered as not found, so its id tells nothing.
    if (!request || request.gameId !== gameId) throw requestNotFound(requestId);
    if (decided === null && request.state !== 'withdrawn') throw alreadyDecided(request);
    return request;
  }

  /** The queue: requests in `state` (all when null), oldest first, with their games' details. */
  async queue(page: {
    state: PublishRequestState | null;
    limit: number;
    after?: string | undefined;
  }): Promise<{ requests: QueuedPublishRequest[]; next: string | null }> {
    const requests = await listPublishRequests(this.#arcade.db, page);
    const last = requests.at(-1);
    return { requests, next: requests.length === page.limit && last ? last.id : null };
  }

  /**
   * Approves a pending request and publishes its game in one transaction: of two approvals at
   * once, one decides and publishes, the other finds it approved and answers the same.
   */
  async approve(requestId: string): Promise<QueuedPublishRequest> {
    const { db, clock } = this.#arcade;
    const approvedGameId = await db.transaction(async (tx) => {
      const decided = await decidePublishRequest(tx, {
        id: requestId,
        state: 'approved',
        declineReason: null,
        now: clock.now(),
      });
      if (!decided) return null;
      if (!(await publishGame(tx, clock, decided.gameId))) {
        throw new TypeError(`game ${decided.gameId} of request ${requestId} has no row`);
      }
      await notifyGameChanged(tx, decided.gameId);
      await tellDeveloper(tx, decided.gameId);
      return decided.gameId;
    });
    if (approvedGameId !== null) this.#arcade.games.invalidate(approvedGameId);
    return this.#decided(requestId, 'approved', null);
  }

  /** Declines a pending request with the reason the developer will read. */
  async decline(requestId: string, reason: string): Promise<QueuedPublishRequest> {
    const { db, clock } = this.#arcade;
    await db.transaction(async (tx) => {
      const decided = await decidePublishRequest(tx, {
        id: requestId,
        state: 'declined',
        declineReason: reason,
        now: clock.now(),
      });
      if (decided) await tellDeveloper(tx, decided.gameId);
    });
    return this.#decided(requestId, 'declined', reason);
  }

  /**
   * The request after a decision: as decided, or already so (a retry), else 409 — a decision is
   * final.
   */
  async #decided(
    requestId: string,
    state: 'approved' | 'declined',
    reason: string | null,
  ): Promise<QueuedPublishRequest> {
    const request = await findQueuedPublishRequest(this.#arcade.db, requestId);
    if (!request) throw requestNotFound(requestId);
    if (request.state !== state || (reason !== null && request.declineReason !== reason)) {
      throw alreadyDecided(request);
    }
    return request;
  }
}

/**
 * The developer's live streams (their wallet's player) hear of the decision at commit: it is one
 * of their notifications (docs/concepts/live-updates.md).
 */
async function tellDeveloper(tx: Queryable, gameId: string): Promise<void> {
  const account = await developerPlayerAccountOf(tx, gameId);
  if (account !== null) await notifyLive(tx, { boards: [], accounts: [account] });
}

function requestNotFound(requestId: string): CoinopError {
  return new CoinopError(
    'publish_request_not_found',
    `publish request ${requestId} does not exist`,
    {
      details: { requestId },
    },
  );
}

function alreadyDecided(request: PublishRequestRecord): CoinopError {
  return new CoinopError(
    'publish_request_decided',
    `publish request ${request.id} was ${request.state} already`,
    { details: { requestId: request.id, state: request.state } },
  );
}
