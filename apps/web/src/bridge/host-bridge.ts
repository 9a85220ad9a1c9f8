import {
  createBridgeErrorReply,
  createBridgeReply,
  isBridgeErrorReplyType,
  parseBridgeRequest,
  shouldSendBridgeErrorReply,
  type BridgeErrorReply,
  type BridgeErrorReplyType,
  type BridgeLeader,
  type BridgeReply,
  type BridgeRequest,
  type BridgeTier,
  type ReceiveBoardAroundMessage,
  type ReceiveBoardPageMessage,
  type ReceiveBoardUpdateMessage,
  type ReceiveHstTransferMessage,
  type SendBoardAroundMessage,
  type SendBoardPageMessage,
  type ReceiveLoginMessage,
  type ReceivePlayMessage,
  type ReceiveSubmitScoreMessage,
  type SendScoreMessage,
} from '@coinop/protocol';
import { ApiError } from '../api.js';

/**
 * The arcade's side of the bridge (spec 4.10, 6): answers the client library's messages from the
 * hosted game. Framework-free, so the demo arcade (mock handlers) and the real arcade (API calls
 * behind approval dialogs) share it.
 */

/**
 * What the arcade does for each request. A rejected promise sends no reply (the game times out),
 * except for the board reads (`boardPage`, `boardAround`) and a score that carried a `requestId`
 * (issue 30), whose failure is sent as an error reply: an `ApiError`'s code, message and status,
 * or `bridge_request_failed`. A play or payment that fails resolves "not paid" (`{}`) instead.
 */
export interface HostBridgeHandlers {
  play(request: BridgeRequest): Promise<ReceivePlayMessage>;
  /** `request.replay` is the game's replay of the run, forwarded to the score (issue 30). */
  submitScore(
    playId: string,
    score: number,
    request: SendScoreMessage,
  ): Promise<ReceiveSubmitScoreMessage>;
  getLeaderboard(request: BridgeRequest): Promise<BridgeLeader[]>;
  hstTransfer(amount: number, request: BridgeRequest): Promise<ReceiveHstTransferMessage>;
  /** The tier the player has chosen now; undefined while there is none. */
  tier(): BridgeTier | undefined;
  /** Has the player approve a CLI login the game's server started (`login`). */
  approveLogin(
    requestorId: string,
    userCode: string,
    request: BridgeRequest,
  ): Promise<ReceiveLoginMessage>;
  /** A page of a tier's board, exact ranks (`boardPage`, issue 18). */
  boardPage(request: SendBoardPageMessage): Promise<ReceiveBoardPageMessage>;
  /** The signed-in player's place on a tier's board and the players around (`boardAround`). */
  boardAround(request: SendBoardAroundMessage): Promise<ReceiveBoardAroundMessage>;
}

/** One line of the exchange, for a log a developer reads. */
export interface BridgeLogEntry {
  /** `in`: a request; `out`: its reply; `ignored`: from the game but malformed or over the limit;
   * `error`: a handler failed and nothing was sent. */
  direction: 'in' | 'out' | 'ignored' | 'error';
  type: string;
  payload: unknown;
}

export interface HostBridgeOptions {
  /** The hosting page's window, where the game's messages arrive. */
  host: Window;
  /** The game iframe's window now (read per message: the frame may not exist yet). */
  frame: () => Window | null;
  /** The game's URL; only its origin may talk to the bridge, and replies go only there. */
  gameUrl: string;
  handlers: HostBridgeHandlers;
  onLog?: (entry: BridgeLogEntry) => void;
  /** Requests in flight at once; more are ignored, so a flooding game cannot pile up work. */
  pendingMax?: number;
}

/** A game has a handful of requests in flight at most (a play, a score, a board read or two). */
export const HOST_BRIDGE_PENDING_MAX = 8;

export class HostBridge {
  readonly gameOrigin: string;
  readonly #options: HostBridgeOptions;
  readonly #pendingMax: number;
  #pending = 0;
  #closed = false;
  /** Whether the game asked to be told the tier: only then is it sent `tierChange` messages. */
  #tierWatched = false;
  /** Whether the game asked for its boards: only then is it sent `boardUpdate` messages. */
  #boardsWatched = false;
  /** Each board as the page last heard it, by id: what a game that asks later is told first. */
  readonly #boards = new Map<string, ReceiveBoardUpdateMessage>();

  constructor(options: HostBridgeOptions) {
    this.#options = options;
    this.gameOrigin = new URL(options.gameUrl).origin;
    this.#pendingMax = options.pendingMax ?? HOST_BRIDGE_PENDING_MAX;
    options.host.addEventListener('message', this.#onMessage);
  }

  /**
   * The player picked another tier: tells the game, if it asked to be told (a game on the
   * original `haste-arcade-sdk` never asks, and logs an error for any message it does not know).
   */
  tierChanged(): void {
    const frame = this.#options.frame();
    if (this.#closed || !this.#tierWatched || frame === null) return;
    const tier = this.#options.handlers.tier();
    if (tier === undefined) return;
    this.#send(frame, { type: 'tierChange', data: { tier: { ...tier } } });
  }

  /**
   * One of the game's boards changed (the page's live stream said so): tells the game, if it
   * asked for its boards (a game on the original `haste-arcade-sdk` never asks).
   */
  boardChanged(board: ReceiveBoardUpdateMessage): void {
    this.#boards.set(board.leaderboardId, board);
    const frame = this.#options.frame();
    if (this.#closed || !this.#boardsWatched || frame === null) return;
    this.#send(frame, { type: 'boardUpdate', data: board });
  }

  /** Stops listening; replies still in flight are dropped. */
  close(): void {
    this.#closed = true;
    this.#options.host.removeEventListener('message', this.#onMessage);
  }

  readonly #onMessage = (event: MessageEvent): void => {
    const frame = this.#options.frame();
    // Only the hosted frame, at the game's origin: anything else is silently ignored.
    if (this.#closed || frame === null || event.source !== frame) return;
    if (event.origin !== this.gameOrigin) return;
    const request = parseBridgeRequest(event.data);
    if (request === undefined) {
      this.#log({ direction: 'ignored', type: describeType(event.data), payload: event.data });
      return;
    }
    if (this.#pending >= this.#pendingMax) {
      this.#log({ direction: 'ignored', type: request.type, payload: request });
      return;
    }
    this.#log({ direction: 'in', type: request.type, payload: request });
    if (request.type === 'tierChange') {
      // A subscription, answered at once from the page's state: nothing to wait for.
      this.#tierWatched = true;
      const tier = this.#options.handlers.tier();
      if (tier !== undefined) this.#send(frame, createBridgeReply(request, { tier: { ...tier } }));
      return;
    }
    if (request.type === 'boardUpdate') {
      // A subscription too: each board the page knows now, then each change as it comes.
      this.#boardsWatched = true;
      for (const board of this.#boards.values())
        this.#send(frame, createBridgeReply(request, board));
      return;
    }
    this.#pending += 1;
    void this.#answer(request)
      .then(
        (reply) => this.#send(frame, reply),
        (error: unknown) => {
          this.#log({
            direction: 'error',
            type: request.type,
            payload: error instanceof Error ? error.message : String(error),
          });
          // A board read or a refused score: the game is told why, not left to time out (a
          // refused score's play stays open, so the game may score it again). Never a game of
          // the published protocol, which knows no error reply.
          if (shouldSendBridgeErrorReply(request) && isBridgeErrorReplyType(request.type)) {
            const { type, requestId } = request;
            const reply = createBridgeErrorReply({ type, requestId }, replyErrorOf(type, error));
            this.#send(frame, reply);
          }
        },
      )
      .finally(() => {
        this.#pending -= 1;
      });
  };

  async #answer(request: BridgeRequest): Promise<BridgeReply> {
    const { handlers } = this.#options;
    switch (request.type) {
      case 'play':
        return createBridgeReply(request, await handlers.play(request));
      case 'score':
        return createBridgeReply(
          request,
          await handlers.submitScore(request.playId, request.score, request),
        );
      case 'leaderboard':
        return createBridgeReply(request, { leaderboard: await handlers.getLeaderboard(request) });
      case 'transferHst':
      case 'hstTransfer':
        // The same type it was asked with: createBridgeReply copies `request.type`.
        return createBridgeReply(request, await handlers.hstTransfer(request.amount, request));
      case 'login':
        return createBridgeReply(
          request,
          await handlers.approveLogin(request.requestorId, request.userCode, request),
        );
      case 'boardPage':
        return createBridgeReply(request, await handlers.boardPage(request));
      case 'boardAround':
        return createBridgeReply(request, await handlers.boardAround(request));
      case 'tierChange':
      case 'boardUpdate':
        throw new TypeError(`${request.type} is answered as it arrives`);
    }
  }

  #send(frame: Window, reply: BridgeReply | BridgeErrorReply): void {
    if (this.#closed) return;
    // Target origin pins the reply to the game: if the frame navigated away, nothing is delivered.
    frame.postMessage(reply, this.gameOrigin);
    this.#log({ direction: 'out', type: reply.type, payload: reply });
  }

  #log(entry: BridgeLogEntry): void {
    try {
      this.#options.onLog?.(entry);
    } catch {
      // A failing logger must not break the bridge.
    }
  }
}

/**
 * What a failed board read or score tells the game: the API's refusal, or what kept the arcade
 * from asking (no answer came, the player did not sign the score).
 */
function replyErrorOf(type: BridgeErrorReplyType, error: unknown) {
  if (error instanceof ApiError) {
    return { code: error.code, message: error.message, status: error.status };
  }
  const what = type === 'score' ? 'submit the score' : 'read the board';
  return {
    code: 'bridge_request_failed',
    message: `the arcade could not ${what}: ${error instanceof Error ? error.message : String(error)}`,
    status: null,
  };
}

function describeType(data: unknown): string {
  if (typeof data === 'object' && data !== null && 'type' in data) {
    const type = (data as { type: unknown }).type;
    if (typeof type === 'string') return type.slice(0, 40);
  }
  return '(malformed)';
}
