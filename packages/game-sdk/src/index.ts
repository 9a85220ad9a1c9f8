export {
  DEFAULT_REPLY_TIMEOUT_MS,
  GameService,
  type BridgeMessageEvent,
  type BridgeWindow,
  type GameServiceEvents,
  type GameServiceOptions,
  type SubmitScoreOptions,
} from './game-service.js';
export { Origin } from './origin.js';
export {
  BridgeNotInitializedError,
  BridgeRequestError,
  BridgeTimeoutError,
  isGameServiceError,
  type GameServiceError,
  type GameServiceOperation,
} from './errors.js';
export type * from './messages.js';
