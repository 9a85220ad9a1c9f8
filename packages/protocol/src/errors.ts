/**
 * The one catalogue of error codes every side of coinop speaks. Each code maps to a short title;
 * the HTTP status of each lives in the server's status table, and every code has a row in
 * `docs/reference/errors.md`.
 *
 * @example
 * ```ts
 * import { ErrorCodes, type ErrorCode } from '@coinop/protocol';
 * const code: ErrorCode = 'insufficient_funds';
 * console.log(ErrorCodes[code]); // "Insufficient funds"
 * ```
 */
export const ErrorCodes = {
  // Request shape
  validation_failed: 'Request validation failed',
  malformed_json: 'Malformed JSON body',
  body_too_large: 'Request body too large',
  unsupported_media_type: 'Unsupported media type',
  route_not_found: 'Route not found',
  method_not_allowed: 'Method not allowed',
  cursor_expired: 'Cursor expired',
  // Authentication and authorization
  missing_bearer_token: 'Missing bearer token',
  invalid_write_token: 'Invalid write token',
  invalid_client_credentials: 'Invalid client credentials',
  missing_api_key: 'Missing API key',
  invalid_api_key: 'Invalid API key',
  invalid_admin_token: 'Invalid admin token',
  token_scope_mismatch: 'Token not valid for this resource',
  // Lookups
  arcade_not_found: 'Arcade not found',
  game_not_found: 'Game not found',
  leaderboard_not_found: 'Leaderboard not found',
  leaderboard_not_in_game: 'Leaderboard does not belong to this game',
  player_not_found: 'Player not found',
  developer_not_found: 'Developer not found',
  play_not_found: 'Play not found',
  account_not_found: 'Account not found',
  account_ambiguous: 'Wallet names more than one account',
  // Games and registration
  field_immutable: 'Field cannot be changed',
  cover_unreachable: 'Cover image unreachable',
  cover_not_image: 'Cover is not an image',
  cover_wrong_size: 'Cover image has the wrong size',
  wallet_already_registered: 'Wallet already registered',
  game_not_playable: 'Game not playable',
  leaderboard_retired: 'Leaderboard retired',
  leaderboard_changed: 'Leaderboard changed',
  last_live_leaderboard: 'Last live leaderboard',
  tier_name_taken: 'Tier name already used',
  client_not_found: 'Game client not found',
  client_revoked: 'Game client revoked',
  cover_not_found: 'Cover not found',
  screenshot_not_found: 'Screenshot not found',
  screenshot_limit_reached: 'Screenshot limit reached',
  // Profiles (docs/concepts/profiles.md)
  name_invalid: 'Display name not allowed',
  name_taken: 'Display name taken',
  avatar_invalid: 'Avatar image not accepted',
  avatar_not_found: 'Avatar not found',
  // Money and plays
  invalid_amount: 'Invalid amount',
  insufficient_funds: 'Insufficient funds',
  play_already_scored: 'Play already scored',
  play_expired: 'Play expired',
  play_not_open: 'Play not open',
  score_not_found: 'Score not found',
  score_already_voided: 'Score already voided',
  idempotency_key_reused: 'Idempotency key reused with a different request',
  // Score integrity (issue 30): refused by the game's score rules; the play stays open
  score_out_of_bounds: 'Score outside the game’s bounds',
  score_too_fast: 'Score sooner than the shortest play',
  replay_required: 'Replay required',
  replay_rejected: 'Replay does not earn the score',
  replay_too_large: 'Replay too large',
  transfer_exists_with_different_fields: 'Transfer id reused with different fields',
  // Chain deposits
  deposit_not_found: 'Deposit not found',
  deposit_already_credited: 'Deposit already credited',
  // Chain withdrawals
  chain_mode_off: 'Chain mode is off',
  mint_refused_in_chain_mode: 'Minting refused in chain mode',
  chain_not_ready: 'The chain has not answered yet',
  withdrawal_not_found: 'Withdrawal not found',
  withdrawal_above_limit: 'Withdrawal above the vault limit',
  // Plays locked on chain
  chain_play_not_found: 'Play locked on chain not found',
  // Chain halts and surplus (issue 27)
  chain_not_halted: 'Chain vault not halted',
  chain_shortfall: 'Vault holds less than the ledger owes',
  chain_mismatch: 'Chain or token not as recorded',
  block_not_on_chain: 'Block not on the current chain',
  surplus_not_found: 'Surplus not found',
  surplus_already_settled: 'Surplus already settled',
  surplus_exceeds_shortfall: 'Surplus larger than the shortfall',
  // Sign-in: wallet (EIP-4361), player tokens, developer keys
  invalid_siwe_message: 'Invalid sign-in message',
  wrong_domain: 'Sign-in message for another domain',
  challenge_not_found: 'Sign-in challenge not found',
  challenge_expired: 'Sign-in challenge expired',
  nonce_used: 'Sign-in nonce already used',
  invalid_signature: 'Invalid wallet signature',
  invalid_player_token: 'Invalid player token',
  api_key_not_found: 'API key not found',
  api_key_limit_reached: 'Too many live API keys',
  // Sign-in: CLI login (RFC 8628 names where the RFC has one)
  authorization_pending: 'Authorization pending',
  slow_down: 'Polling too fast',
  access_denied: 'Access denied',
  expired_token: 'Login request expired',
  invalid_poll_token: 'Invalid polling token',
  login_request_not_found: 'Login request not found',
  login_request_decided: 'Login request already decided',
  // Client-side play: wallet approvals and the development faucet
  invalid_approval_signature: 'Approval not signed by the player',
  play_of_another_player: 'Play of another player',
  play_scored_by_game_server: 'Play scored by its game server',
  faucet_disabled: 'Faucet disabled',
  faucet_limit_reached: 'Faucet limit reached',
  // Consent to charges
  consent_required: 'Consent required',
  player_not_tester: 'Player is not a tester of this game',
  game_suspended: 'Game suspended',
  tester_not_found: 'Tester not found',
  tester_invitation_not_found: 'Tester invitation not found',
  consent_requires_player: 'Only the player can give this consent',
  // Publish requests
  publish_request_not_found: 'Publish request not found',
  publish_request_decided: 'Publish request already decided',
  game_already_published: 'Game already published',
  // Tournaments (docs/concepts/tournaments.md)
  tournament_not_found: 'Tournament not found',
  tournament_round_not_found: 'Tournament round not found',
  tournament_not_started: 'Tournament round not started',
  tournament_closed: 'Tournament round closed',
  tournament_full: 'Tournament round full',
  tournament_attempts_exhausted: 'Tournament attempts used up',
  tournament_chain_play_refused: 'Tournament plays are not locked on chain',
  // Replay verifiers (docs/reference/verifier.md)
  verifier_invalid: 'Verifier module invalid',
  verifier_too_large: 'Verifier module too large',
  verifier_not_found: 'Verifier not found',
  verifier_in_use: 'Verifier required by a rule',
  // Score reviews (docs/reference/review-queue.md)
  own_score_not_reportable: 'Own score cannot be reported',
  review_not_found: 'Review not found',
  review_closed: 'Review already closed',
  refusal_not_reviewable: 'Refused attempt cannot be approved or voided',
  replay_not_found: 'Replay not found',
  // Operational
  rate_limited: 'Too many requests',
  service_unavailable: 'Service unavailable',
  overloaded: 'Server overloaded',
  live_streams_full: 'Too many live streams on this server',
  live_streams_per_player: 'Too many live streams for this player',
  upstream_unavailable: 'Listener behind the web app unavailable',
  internal_error: 'Internal server error',
} as const;

/** A stable, snake_case error code. */
export type ErrorCode = keyof typeof ErrorCodes;

/**
 * The body of every error response (RFC 9457 problem details plus `code` and `message`).
 *
 * @example
 * ```ts
 * import type { Problem } from '@coinop/protocol';
 * const p: Problem = { type: 'https://coinop.dev/errors/play_expired', title: 'Play expired',
 *   status: 409, detail: 'play 1 expired', code: 'play_expired', message: 'play 1 expired' };
 * ```
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Whether a string is one of the catalogued codes.
 *
 * @example
 * ```ts
 * import { isErrorCode } from '@coinop/protocol';
 * isErrorCode('insufficient_funds'); // true
 * ```
 */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCodes, value);
}
