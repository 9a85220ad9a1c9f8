import {
  BridgeErrorCodes,
  type BridgeErrorCode,
  type BridgeReplyError,
  type ErrorCode,
} from '@coinop/protocol';

// Fields a constructor sets are `declare`d rather than class fields: a field declaration would
// only repeat their names in the game SDK's browser bundle, whose bytes are counted.

/**
 * The GameService operations, by method name, as errors report them.
 *
 * @example
 * ```ts
 * import type { GameServiceOperation } from '@coinop/game-sdk';
 * const operation: GameServiceOperation = 'submitScore';
 * ```
 */
export type GameServiceOperation =
  | 'play'
  | 'submitScore'
  | 'getLeaderboard'
  | 'hstTransfer'
  | 'approveLogin'
  | 'getBoardPage'
  | 'getBoardAround';

/**
 * An operation was called before `init()`: no reply could ever reach it, so it fails at once.
 *
 * @example
 * ```ts
 * import { BridgeNotInitializedError, GameService, Origin } from '@coinop/game-sdk';
 * const game = new GameService('demo', Origin.DEV);
 * await game.play().catch((err) => console.log(err instanceof BridgeNotInitializedError)); // true
 * ```
 */
export class BridgeNotInitializedError extends Error {
  override readonly name = 'BridgeNotInitializedError';
  readonly code = 'bridge_not_initialized' satisfies BridgeErrorCode;
  /** The operation that was called too early. */
  declare readonly operation: GameServiceOperation;

  constructor(operation: GameServiceOperation) {
    super(`${BridgeErrorCodes.bridge_not_initialized}: call init() before ${operation}()`);
    this.operation = operation;
  }
}

/**
 * The arcade did not answer a request within the reply timeout. The request may still have
 * reached the arcade: a late reply still fires the operation's event.
 *
 * @example
 * ```ts
 * import { BridgeTimeoutError, GameService, Origin } from '@coinop/game-sdk';
 * const game = new GameService('demo', Origin.DEV, { replyTimeoutMs: 5_000 });
 * game.init();
 * await game.getLeaderboard().catch((err) => {
 *   if (err instanceof BridgeTimeoutError) console.log(err.timeoutMs); // 5000
 * });
 * ```
 */
export class BridgeTimeoutError extends Error {
  override readonly name = 'BridgeTimeoutError';
  readonly code = 'bridge_timeout' satisfies BridgeErrorCode;
  /** The operation that got no reply. */
  declare readonly operation: GameServiceOperation;
  /** The id the request carried. */
  declare readonly requestId: string;
  /** The arcade origin the request was posted to. */
  declare readonly origin: string;
  /** How long the game waited. */
  declare readonly timeoutMs: number;

  constructor(
    operation: GameServiceOperation,
    requestId: string,
    origin: string,
    timeoutMs: number,
  ) {
    super(
      `${BridgeErrorCodes.bridge_timeout}: no reply to ${operation}() (request ${requestId}) ` +
        `from ${origin} within ${timeoutMs} ms`,
    );
    this.operation = operation;
    this.requestId = requestId;
    this.origin = origin;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The arcade answered a board read or a score with an error (coinop additions, issues 18 and 30):
 * `code` is the API's error code, e.g. `cursor_expired` (410: the walk is too old to continue,
 * read the first page again), `leaderboard_not_found`, `validation_failed`; for a score one of the
 * game's score rules (`score_out_of_bounds`, `score_too_fast`, `replay_required`,
 * `replay_rejected`, `replay_too_large`: the play stays open and may be scored again) or an older
 * refusal (`play_expired`, `play_already_scored`, …); or `bridge_request_failed` (`status` null)
 * when the arcade got no answer from its API or the player did not sign the score. Only
 * `getBoardPage`, `getBoardAround` and `submitScore` reject with it.
 *
 * @example
 * ```ts
 * import { BridgeRequestError, GameService, Origin } from '@coinop/game-sdk';
 * const game = new GameService('demo', Origin.DEV);
 * game.init();
 * const page = await game.getBoardPage({ cursor: 'saved' }).catch((err) => {
 *   if (err instanceof BridgeRequestError && err.code === 'cursor_expired') {
 *     return game.getBoardPage();
 *   }
 *   throw err;
 * });
 * ```
 */
export class BridgeRequestError extends Error {
  override readonly name = 'BridgeRequestError';
  declare readonly code: ErrorCode | 'bridge_request_failed';
  /** The HTTP status the arcade's API answered; null when none came. */
  declare readonly status: number | null;
  /** The operation the arcade refused. */
  declare readonly operation: GameServiceOperation;

  constructor(operation: GameServiceOperation, error: BridgeReplyError) {
    super(error.message);
    this.code = error.code;
    this.status = error.status;
    this.operation = operation;
  }
}

/**
 * Every error a GameService operation rejects with; `switch (err.code)` narrows it. Passing a
 * wrong argument is a programming error and rejects with a plain `TypeError` instead.
 *
 * @example
 * ```ts
 * import type { GameServiceError } from '@coinop/game-sdk';
 * function explain(err: GameServiceError): string {
 *   switch (err.code) {
 *     case 'bridge_timeout':
 *       return `the arcade did not answer within ${err.timeoutMs} ms`;
 *     case 'bridge_not_initialized':
 *       return 'call init() first';
 *     case 'cursor_expired':
 *       return 'the board changed too long ago: read its first page again';
 *     default:
 *       return err.message;
 *   }
 * }
 * ```
 */
export type GameServiceError = BridgeTimeoutError | BridgeNotInitializedError | BridgeRequestError;

/**
 * Whether a caught value is one of the GameService's errors.
 *
 * @example
 * ```ts
 * import { GameService, isGameServiceError, Origin } from '@coinop/game-sdk';
 * const game = new GameService('demo', Origin.DEV);
 * try {
 *   await game.play();
 * } catch (err) {
 *   if (isGameServiceError(err)) console.log(err.code);
 * }
 * ```
 */
export function isGameServiceError(value: unknown): value is GameServiceError {
  return (
    value instanceof BridgeTimeoutError ||
    value instanceof BridgeNotInitializedError ||
    value instanceof BridgeRequestError
  );
}
