import {
  BRIDGE_ID_MAX_LENGTH,
  BridgeMessageTypes,
  isBridgeMessageType,
  parseBridgeErrorReply,
  parseBridgeReply,
  type BridgeErrorReply,
  type BridgeEventName,
  type BridgeReply,
  type BridgeRequest,
  type ReceiveBoardAroundMessage,
  type ReceiveBoardPageMessage,
  type ReceiveBoardUpdateMessage,
  type ReceiveHstTransferMessage,
  type ReceiveLeaderboardMessage,
  type ReceiveLoginMessage,
  type ReceivePlayMessage,
  type ReceiveSubmitScoreMessage,
  type ReceiveTierChangeMessage,
} from '@coinop/protocol';
import {
  BridgeNotInitializedError,
  BridgeRequestError,
  BridgeTimeoutError,
  type GameServiceOperation,
} from './errors.js';
import { normalizeArcadeOrigin, type Origin } from './origin.js';

/**
 * Options of `submitScore`.
 *
 * @example
 * ```ts
 * import type { SubmitScoreOptions } from '@coinop/game-sdk';
 * const options: SubmitScoreOptions = { replay: JSON.stringify({ moves: 'LLRUD' }) };
 * ```
 */
export interface SubmitScoreOptions {
  /** What the game recorded of the run, for the game's verifier (issue 30). */
  replay?: string;
}

/**
 * How long an operation waits for the arcade's reply by default: two minutes, long enough for a
 * player to read and approve a wallet prompt, short enough that a game on a dead or foreign host
 * finds out.
 *
 * @example
 * ```ts
 * import { DEFAULT_REPLY_TIMEOUT_MS } from '@coinop/game-sdk';
 * console.log(DEFAULT_REPLY_TIMEOUT_MS); // 120000
 * ```
 */
export const DEFAULT_REPLY_TIMEOUT_MS = 120_000;

/** Longest timeout `setTimeout` keeps (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * A `message` event as the GameService reads it: the fields of the DOM's `MessageEvent` it uses.
 *
 * @example
 * ```ts
 * import type { BridgeMessageEvent } from '@coinop/game-sdk';
 * const event: BridgeMessageEvent = { data: {}, origin: 'http://127.0.0.1:8082', source: null };
 * ```
 */
export interface BridgeMessageEvent {
  readonly data: unknown;
  readonly origin: string;
  readonly source: unknown;
}

/**
 * The parts of the game's `window` the GameService uses; the browser's `window` is one.
 *
 * @example
 * ```ts
 * import type { BridgeWindow } from '@coinop/game-sdk';
 * const win: BridgeWindow = window;
 * ```
 */
export interface BridgeWindow {
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (event: BridgeMessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: BridgeMessageEvent) => void): void;
}

/**
 * Options of a GameService.
 *
 * @example
 * ```ts
 * import { GameService, Origin, type GameServiceOptions } from '@coinop/game-sdk';
 * const options: GameServiceOptions = { replyTimeoutMs: 30_000 };
 * const game = new GameService('demo', Origin.DEV, options);
 * ```
 */
export interface GameServiceOptions {
  /** How long each operation waits for its reply; default `DEFAULT_REPLY_TIMEOUT_MS`. */
  replyTimeoutMs?: number;
  /** The game's window; default the global `window`. Tests pass a fake one. */
  window?: BridgeWindow;
}

/**
 * The data each event hands its handlers: the same object the operation resolves with.
 * `transferHst` is the published library's name of the `hstTransfer` event. `tierChange` and
 * `boardUpdate` (coinop additions) have no operation: registering a handler for one asks the
 * arcade to report the player's tier, or the game's boards, now and on every change.
 *
 * @example
 * ```ts
 * import type { GameServiceEvents } from '@coinop/game-sdk';
 * const onPlay = (data: GameServiceEvents['play']) => console.log(data.playId);
 * ```
 */
export interface GameServiceEvents {
  play: ReceivePlayMessage;
  score: ReceiveSubmitScoreMessage;
  leaderboard: ReceiveLeaderboardMessage;
  hstTransfer: ReceiveHstTransferMessage;
  transferHst: ReceiveHstTransferMessage;
  tierChange: ReceiveTierChangeMessage;
  login: ReceiveLoginMessage;
  boardPage: ReceiveBoardPageMessage;
  boardAround: ReceiveBoardAroundMessage;
  boardUpdate: ReceiveBoardUpdateMessage;
}

/** The events a game subscribes to by registering a handler: the arcade pushes them. */
type WatchedEvent = 'tierChange' | 'boardUpdate';

type ReplyData = GameServiceEvents[BridgeEventName];
type Handler = (data: never) => void;

interface PendingRequest {
  readonly requestId: string;
  readonly operation: GameServiceOperation;
  readonly resolve: (data: ReplyData) => void;
  readonly reject: (error: BridgeRequestError) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * The game's side of the arcade bridge (spec 4.10): a game in the arcade's iframe asks the
 * arcade for a paid play, submits its score, reads the leaderboard and asks for payments.
 *
 * Every operation resolves its promise and fires its event with the same data (spec 4.10 rule
 * 1); replies are matched to requests by `requestId`, or by order for hosts that do not echo it;
 * messages from any window but `window.parent` or any origin but the arcade's are ignored.
 *
 * @example
 * ```ts
 * import { GameService, Origin } from '@coinop/game-sdk';
 * const game = new GameService('c0ffee00-0000-4000-8000-000000000001', Origin.DEV);
 * game.init();
 * const { playId } = await game.play();
 * if (playId) {
 *   // ... the player plays ...
 *   await game.submitScore(playId, 4200);
 * }
 * ```
 */
export class GameService {
  // The public fields the constructor sets are `declare`d, not class fields: a field declaration
  // would only repeat their names in the browser bundle, whose bytes are counted.
  /** The game's id (spec 4.10: the id from registration). */
  declare readonly gameId: string;
  /** The arcade's origin: requests go only there, replies count only from there. */
  declare readonly origin: string;
  /** How long each operation waits for its reply. */
  declare readonly replyTimeoutMs: number;

  readonly #window: BridgeWindow | undefined;
  /** Prefixes this instance's request ids, so two instances in one window never mix replies. */
  readonly #instanceId = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  #sequence = 0;
  #initializedWindow: BridgeWindow | undefined;
  readonly #handlers = new Map<BridgeEventName, Set<Handler>>();
  /** Requests in the order they were sent, per event, for hosts that do not echo `requestId`. */
  readonly #pending = new Map<BridgeEventName, PendingRequest[]>();
  /** The pushed events this instance has asked the arcade for (once each is enough). */
  readonly #watched = new Set<WatchedEvent>();
  /** The last tier the arcade reported, handed at once to a handler registered later. */
  #tier: ReceiveTierChangeMessage | undefined;

  /**
   * @param gameId The game's id (spec 4.10).
   * @param origin `Origin.DEV`, `Origin.PROD` or any arcade's origin
   *   (`https://arcade.example.com`).
   * @param options Reply timeout and, for tests, the window.
   */
  constructor(gameId: string, origin: Origin | string, options: GameServiceOptions = {}) {
    if (typeof gameId !== 'string' || gameId === '' || gameId.length > BRIDGE_ID_MAX_LENGTH) {
      throw new TypeError(
        `gameId must be a string of 1 to ${BRIDGE_ID_MAX_LENGTH} characters, ` +
          `got ${JSON.stringify(gameId)}`,
      );
    }
    const replyTimeoutMs = options.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS;
    if (
      !Number.isInteger(replyTimeoutMs) ||
      replyTimeoutMs <= 0 ||
      replyTimeoutMs > MAX_TIMEOUT_MS
    ) {
      throw new TypeError(
        `replyTimeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS}, ` +
          `got ${String(replyTimeoutMs)}`,
      );
    }
    this.gameId = gameId;
    this.origin = normalizeArcadeOrigin(origin);
    this.replyTimeoutMs = replyTimeoutMs;
    this.#window = options.window;
  }

  /**
   * Starts listening for the arcade's replies. Call it once the DOM is loaded (spec 4.10), before
   * any operation; calling it again does nothing.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * window.addEventListener('DOMContentLoaded', () => game.init());
   * ```
   */
  init(): void {
    if (this.#initializedWindow !== undefined) return;
    const win = this.#window ?? (globalThis as { window?: BridgeWindow }).window;
    if (win === undefined) throw new TypeError('GameService.init() needs a browser window');
    win.addEventListener('message', this.#onMessage);
    this.#initializedWindow = win;
    for (const event of ['tierChange', 'boardUpdate'] as const) {
      if ((this.#handlers.get(event)?.size ?? 0) > 0) this.#watch(event);
    }
  }

  /**
   * Registers a handler for an event; returns a function that removes it. Handlers run in the
   * order registered, before the operation's promise resolves; one that throws is logged and
   * does not stop the others.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * const off = game.on('leaderboard', ({ leaderboard }) => console.log(leaderboard.length));
   * off();
   * ```
   */
  on<E extends keyof GameServiceEvents>(
    event: E,
    handler: (data: GameServiceEvents[E]) => void,
  ): () => void {
    if (!isBridgeMessageType(event)) {
      throw new TypeError(`unknown GameService event ${JSON.stringify(event)}`);
    }
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    const name = BridgeMessageTypes[event];
    let handlers = this.#handlers.get(name);
    if (handlers === undefined) {
      handlers = new Set();
      this.#handlers.set(name, handlers);
    }
    handlers.add(handler as Handler);
    if (name === 'boardUpdate') this.#watch(name);
    if (name === 'tierChange') {
      this.#watch(name);
      // A handler registered after the arcade reported the tier learns it too, once.
      const known = this.#tier;
      if (known !== undefined) {
        queueMicrotask(() => {
          if (this.#handlers.get('tierChange')?.has(handler as Handler)) {
            runHandler('tierChange', handler as Handler, known);
          }
        });
      }
    }
    return () => {
      this.#handlers.get(name)?.delete(handler as Handler);
    };
  }

  /**
   * Calls `handler` with the tier the player has chosen in the arcade, as soon as the arcade says
   * (once the handler is registered and `init()` has run), then each time the player picks
   * another tier: a game that shows its own leaderboard reads it again for the new tier. The same
   * as `on('tierChange', handler)`; returns a function that removes it. An arcade that does not
   * know this coinop addition never calls it.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * game.onTierChange(async ({ tier }) => {
   *   const { leaderboard } = await game.getLeaderboard();
   *   console.log(`${tier.name} (${tier.formattedCostString}): ${leaderboard.length} leaders`);
   * });
   * ```
   */
  onTierChange(handler: (data: ReceiveTierChangeMessage) => void): () => void {
    return this.on('tierChange', handler);
  }

  /**
   * Calls `handler` with each of the game's boards (its tiers, its tournaments' open rounds) as it
   * stands when the arcade first answers, then each time one changes: another player scored, a
   * score was voided, a round's standings moved. `leaderboardId` says which board; the leaders
   * come best first, as `getLeaderboard` returns them. The same as `on('boardUpdate', handler)`;
   * returns a function that removes it. An arcade that does not know this coinop addition never
   * calls it: read the board with `getLeaderboard` there.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * let tierId: string | undefined;
   * game.onTierChange(({ tier }) => (tierId = tier.id));
   * game.onBoardUpdate(({ leaderboardId, leaderboard }) => {
   *   if (leaderboardId === tierId) console.log(`${leaderboard.length} leaders now`);
   * });
   * ```
   */
  onBoardUpdate(handler: (data: ReceiveBoardUpdateMessage) => void): () => void {
    return this.on('boardUpdate', handler);
  }

  /**
   * Asks the arcade for a paid play. Resolves with `playId` once the player paid, or without it
   * when they did not: then the game must not start (spec 4.10 rule 2). With the play comes its
   * `seed` (64 hex characters the arcade drew at the play's open; absent on an arcade without
   * seeds): derive the run's randomness from it, so that a verifier can replay the run. Fires
   * `play`.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * const { playId, seed } = await game.play();
   * if (!playId) console.log('not paid: stay on the start screen');
   * else console.log(`deal the board from seed ${seed ?? '(none: an older arcade)'}`);
   * ```
   */
  play(): Promise<ReceivePlayMessage> {
    return this.#request('play', (requestId) => ({ type: 'play', gameId: this.gameId, requestId }));
  }

  /**
   * Submits the score of a play. Resolves with the play's id once the arcade has it. Fires
   * `score`. `options.replay` is what the game recorded of the run (a string in a format the
   * game chooses, 64 KiB at most on a default arcade): when the game's tier requires replays,
   * the arcade's copy of the game's verifier recomputes the score from it and the play's seed.
   * Rejects with `BridgeRequestError` when the arcade refuses the score (`err.code` says why,
   * `err.message` says it in words: "the replay earns 120, not 4200"); a score its rules refused
   * moved no HST and its play stays open, so the game may submit another for it.
   *
   * @example
   * ```ts
   * import { BridgeRequestError, GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * const { playId } = await game.play();
   * if (playId) {
   *   await game.submitScore(playId, 4200, { replay: 'v1:LLRUDR' }).catch((err) => {
   *     if (!(err instanceof BridgeRequestError)) throw err;
   *     console.log(`the arcade refused this score (${err.code}): ${err.message}`);
   *   });
   * }
   * ```
   */
  submitScore(
    playId: string,
    score: number,
    options: SubmitScoreOptions = {},
  ): Promise<ReceiveSubmitScoreMessage> {
    if (!isNonEmptyString(playId)) return rejectNotNonEmptyString('playId', playId);
    if (!Number.isFinite(score)) {
      return rejectArgument(`score must be a finite number, got ${String(score)}`);
    }
    const { replay } = options;
    if (replay !== undefined && typeof replay !== 'string') {
      return rejectArgument(`options.replay must be a string, got ${typeof replay}`);
    }
    return this.#request('submitScore', (requestId) => ({
      type: 'score',
      gameId: this.gameId,
      playId,
      score,
      requestId,
      ...(replay === undefined ? {} : { replay }),
    }));
  }

  /**
   * Reads the current leaderboard, best first. Fires `leaderboard`. Rejects with
   * `BridgeRequestError` (`bridge_request_failed`) when the arcade could not read the board (its
   * API unreachable), rather than waiting out the reply timeout; an arcade before this answer
   * sends none, and the read times out there.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * const { leaderboard } = await game.getLeaderboard();
   * for (const leader of leaderboard) console.log(leader.displayName, leader.score);
   * ```
   */
  getLeaderboard(): Promise<ReceiveLeaderboardMessage> {
    return this.#request('getLeaderboard', (requestId) => ({
      type: 'leaderboard',
      gameId: this.gameId,
      requestId,
    }));
  }

  /**
   * Reads a page of a tier's whole board with exact ranks, best first (a coinop addition: an
   * arcade that does not know it never answers, and the promise rejects with
   * `BridgeTimeoutError`). `leaderboardId` defaults to the tier the player has chosen; pass the
   * page's `nextCursor` as `cursor` for the next page (null on the last); `limit` is 1 to 100
   * (default 25). Fires `boardPage`. Rejects with `BridgeRequestError` when the arcade answers
   * with an error: `code: 'cursor_expired'` for a cursor from a walk begun over ten minutes ago
   * (read the first page again).
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * const first = await game.getBoardPage({ limit: 50 });
   * for (const e of first.entries) console.log(e.rank, e.name, e.score);
   * if (first.nextCursor) await game.getBoardPage({ limit: 50, cursor: first.nextCursor });
   * ```
   */
  getBoardPage(
    options: { leaderboardId?: string; cursor?: string; limit?: number } = {},
  ): Promise<ReceiveBoardPageMessage> {
    const { leaderboardId, cursor, limit } = options;
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
      return rejectArgument(`limit must be an integer 1 to 100, got ${limit}`);
    }
    return this.#request('getBoardPage', (requestId) => ({
      type: 'boardPage',
      gameId: this.gameId,
      ...(leaderboardId === undefined ? {} : { leaderboardId }),
      ...(cursor === undefined ? {} : { cursor }),
      ...(limit === undefined ? {} : { limit }),
      requestId,
    }));
  }

  /**
   * Reads the signed-in player's place on a tier's board with up to `count` players just above
   * and below (0 to 50, default 5), exact ranks, best first (a coinop addition, like
   * `getBoardPage`). `player` is null, and the lists empty, when nobody is signed in or the
   * player has no score on the tier. `leaderboardId` defaults to the tier chosen. Fires
   * `boardAround`. Rejects with `BridgeRequestError` when the arcade answers with an error.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * const { above, player, below } = await game.getBoardAround({ count: 3 });
   * if (player) console.log(`you are #${player.rank}`, above.length, below.length);
   * ```
   */
  getBoardAround(
    options: { leaderboardId?: string; count?: number } = {},
  ): Promise<ReceiveBoardAroundMessage> {
    const { leaderboardId, count } = options;
    if (count !== undefined && !(Number.isInteger(count) && count >= 0 && count <= 50)) {
      return rejectArgument(`count must be an integer 0 to 50, got ${count}`);
    }
    return this.#request('getBoardAround', (requestId) => ({
      type: 'boardAround',
      gameId: this.gameId,
      ...(leaderboardId === undefined ? {} : { leaderboardId }),
      ...(count === undefined ? {} : { count }),
      requestId,
    }));
  }

  /**
   * Asks the player to pay `amount` HST. Resolves with `txid` once paid, or without it when the
   * player rejected the payment: then nothing is to be provisioned (spec 4.10 rule 3). Fires
   * `hstTransfer`. Sent as the published protocol's `transferHst`, which every arcade knows.
   * A coinop arcade pays from the player's arcade balance, also in chain mode: `txid` is the id of
   * that ledger transfer (a UUID), not a chain transaction hash.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * const { txid } = await game.hstTransfer(1.5);
   * if (txid) console.log('paid: unlock the extra life');
   * ```
   */
  hstTransfer(amount: number): Promise<ReceiveHstTransferMessage> {
    if (!Number.isFinite(amount) || amount <= 0) {
      return rejectArgument(`amount must be a positive number of HST, got ${String(amount)}`);
    }
    return this.#request('hstTransfer', (requestId) => ({
      type: 'transferHst',
      gameId: this.gameId,
      amount,
      requestId,
    }));
  }

  /**
   * `hstTransfer` under the published library's name.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('demo', Origin.DEV);
   * game.init();
   * const { txid } = await game.transferHst(1.5);
   * ```
   */
  transferHst(amount: number): Promise<ReceiveHstTransferMessage> {
    return this.hstTransfer(amount);
  }

  /**
   * Asks the arcade to have the signed-in player approve a login that the game's own server
   * started with `POST {auth_url}/cli` (naming this game's id). For server-side games with a
   * page in the arcade: the page gets `requestorId` and `userCode` from its server, the arcade
   * shows the player what signs in and approves the login with their session, and the server's
   * next poll of the login returns the player's game token. Resolves with `approved: false` when
   * the player declined, is not signed in, or the login is not this game's. Fires `login`.
   *
   * @example
   * ```ts
   * import { GameService, Origin } from '@coinop/game-sdk';
   * const game = new GameService('c0ffee00-0000-4000-8000-000000000001', Origin.DEV);
   * game.init();
   * // The page's own server started the login and passed these on.
   * const login = { requestorId: '5d1c0e9a-0000-4000-8000-000000000002', userCode: 'WDJB-MJHT' };
   * const { approved } = await game.approveLogin(login.requestorId, login.userCode);
   * if (!approved) console.log('not signed in: stay on the start screen');
   * ```
   */
  approveLogin(requestorId: string, userCode: string): Promise<ReceiveLoginMessage> {
    if (!isNonEmptyString(requestorId)) return rejectNotNonEmptyString('requestorId', requestorId);
    if (!isNonEmptyString(userCode)) return rejectNotNonEmptyString('userCode', userCode);
    return this.#request('approveLogin', (requestId) => ({
      type: 'login',
      gameId: this.gameId,
      requestorId,
      userCode,
      requestId,
    }));
  }

  /** Asks the arcade once to push `event`; its answers are events, never a promise. */
  #watch(event: WatchedEvent): void {
    const win = this.#initializedWindow;
    if (win === undefined || this.#watched.has(event)) return;
    this.#watched.add(event);
    try {
      win.parent.postMessage({ type: event, gameId: this.gameId }, this.origin);
    } catch (error) {
      this.#watched.delete(event);
      console.error(`GameService: could not ask the arcade for "${event}"`, error);
    }
  }

  #request<T extends ReplyData>(
    operation: GameServiceOperation,
    build: (requestId: string) => BridgeRequest,
  ): Promise<T> {
    const win = this.#initializedWindow;
    if (win === undefined) return Promise.reject(new BridgeNotInitializedError(operation));
    this.#sequence += 1;
    const requestId = `${this.#instanceId}.${this.#sequence}`;
    const message = build(requestId);
    const event = BridgeMessageTypes[message.type];
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#forget(event, requestId);
        reject(new BridgeTimeoutError(operation, requestId, this.origin, this.replyTimeoutMs));
      }, this.replyTimeoutMs);
      const queue = this.#pending.get(event) ?? [];
      queue.push({
        requestId,
        operation,
        resolve: resolve as (data: ReplyData) => void,
        reject,
        timer,
      });
      this.#pending.set(event, queue);
      try {
        win.parent.postMessage(message, this.origin);
      } catch (error) {
        clearTimeout(timer);
        this.#forget(event, requestId);
        reject(error);
      }
    });
  }

  #forget(event: BridgeEventName, requestId: string): void {
    const queue = this.#pending.get(event);
    const index = queue?.findIndex((pending) => pending.requestId === requestId) ?? -1;
    if (queue !== undefined && index >= 0) queue.splice(index, 1);
  }

  readonly #onMessage = (event: BridgeMessageEvent): void => {
    // Only the arcade may answer: the parent window, at the arcade's origin. Anything else (other
    // frames, extensions, the game's own messages) is none of the bridge's business.
    if (event.source !== this.#initializedWindow?.parent || event.origin !== this.origin) return;
    const reply = parseBridgeReply(event.data);
    if (reply === undefined) {
      const failed = parseBridgeErrorReply(event.data);
      if (failed !== undefined) return this.#deliverError(failed);
      const type = (event.data as { type?: unknown } | null)?.type;
      if (isBridgeMessageType(type)) {
        console.warn(`GameService: ignored a malformed "${type}" reply from ${event.origin}`);
      }
      return;
    }
    this.#deliver(reply);
  };

  /**
   * The request a reply answers, taken off its queue with its timer stopped: by `requestId`, or
   * the oldest of the type for a host of the published protocol. Null when the reply is another
   * GameService's (another instance's prefix); undefined when no request of ours waits.
   */
  #take(reply: BridgeReply | BridgeErrorReply): PendingRequest | undefined | null {
    const queue = this.#pending.get(BridgeMessageTypes[reply.type]) ?? [];
    let index: number;
    if (reply.requestId === undefined) {
      // A host speaking the published protocol: replies come in the order it was asked.
      index = queue.length > 0 ? 0 : -1;
    } else {
      // Another prefix: another GameService in this window asked, so the reply is its to report.
      if (!reply.requestId.startsWith(`${this.#instanceId}.`)) return null;
      index = queue.findIndex((pending) => pending.requestId === reply.requestId);
    }
    const pending = index >= 0 ? queue.splice(index, 1)[0] : undefined;
    if (pending !== undefined) clearTimeout(pending.timer);
    return pending;
  }

  /** A board read or score the arcade could not answer: its promise rejects; no event fires. */
  #deliverError(reply: BridgeErrorReply): void {
    const pending = this.#take(reply);
    pending?.reject(new BridgeRequestError(pending.operation, reply.error));
  }

  #deliver(reply: BridgeReply): void {
    const event = BridgeMessageTypes[reply.type];
    const pending = this.#take(reply);
    if (pending === null) return;
    // Events fire for every reply, even a late or unasked one: a play the player paid for after
    // the timeout is still a paid play (spec 4.10 rule 1).
    if (reply.type === 'tierChange') this.#tier = reply.data;
    for (const handler of [...(this.#handlers.get(event) ?? [])]) {
      runHandler(event, handler, reply.data);
    }
    pending?.resolve(reply.data);
  }
}

function runHandler(event: BridgeEventName, handler: Handler, data: ReplyData): void {
  try {
    (handler as (data: ReplyData) => void)(data);
  } catch (error) {
    console.error(`GameService: a "${event}" handler threw`, error);
  }
}

// Argument checks. A wrong argument is a programming error: the operation rejects at once with a
// TypeError naming the argument. Shared helpers, because every byte of the bundle is counted.

function rejectArgument(message: string): Promise<never> {
  return Promise.reject(new TypeError(message));
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function rejectNotNonEmptyString(name: string, value: unknown): Promise<never> {
  return rejectArgument(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
}
