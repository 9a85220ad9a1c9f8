export {
  Arcade,
  type BoardPageOptions,
  type IdempotentCallOptions,
  type PayoutsOptions,
} from './arcade.js';
export type { ArcadeOptions, Clock } from './options.js';
export {
  ArcadeApiError,
  ArcadeNetworkError,
  PlayerTokenError,
  PlayerTokenMissingError,
  PlayerTokenMalformedError,
  PlayerTokenExpiredError,
  PlayerTokenIssuerError,
  PlayerTokenSignatureError,
  PlayerTokenClaimsError,
  isArcadeError,
  type ArcadeError,
  type ArcadeNetworkErrorCode,
  type PlayerTokenErrorCode,
} from './errors.js';
export type {
  BoardAround,
  BoardEntry,
  BoardPage,
  Game,
  Leader,
  Leaderboard,
  PayoutEvent,
  PayoutsPage,
  Play,
  PlayerDetails,
  PlayerIdentity,
  PlayTransaction,
  ScoreResult,
  TopScore,
} from './types.js';
