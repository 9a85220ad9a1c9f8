import type { RouteOptions } from 'fastify';
import { ErrorCodes, type ErrorCode } from '@coinop/protocol';
import { HTTP_STATUS } from './errors.js';
import { OVERLOAD_EXEMPT_ROUTES } from './overload.js';

/**
 * Which problems (application/problem+json) each operation of the OpenAPI documents can answer.
 * Most follow from the route itself: its credential, whether it takes input, its path
 * parameters, its rate limit. The rest, the domain's refusals, are listed by operationId below.
 * The statuses come from the one status table (src/listener/errors.ts).
 */

/** The extension key carrying a route's codes from `transform` to `transformObject`. */
export const PROBLEM_CODES_KEY = 'x-coinop-problems';

/** What each security scheme refuses with when its credential is missing or wrong. */
const CREDENTIAL_PROBLEMS: Readonly<Record<string, readonly ErrorCode[]>> = {
  writeToken: ['missing_bearer_token', 'invalid_write_token', 'token_scope_mismatch'],
  apiKey: ['missing_api_key', 'invalid_api_key'],
  adminToken: ['missing_bearer_token', 'invalid_admin_token'],
  playerToken: ['missing_bearer_token', 'invalid_player_token'],
  pollToken: ['missing_bearer_token', 'invalid_poll_token'],
};

/** What a path parameter names, and so the 404 when nothing has that id. */
const NOT_FOUND_BY_PARAM: Readonly<Record<string, ErrorCode>> = {
  gameId: 'game_not_found',
  leaderboardId: 'leaderboard_not_found',
  playerId: 'player_not_found',
  player: 'player_not_found',
  playId: 'play_not_found',
  accountId: 'account_not_found',
  withdrawalId: 'withdrawal_not_found',
  clientId: 'client_not_found',
  deposit: 'deposit_not_found',
  surplus: 'surplus_not_found',
  txHash: 'deposit_not_found',
  prefix: 'api_key_not_found',
  tournamentId: 'tournament_not_found',
  roundId: 'tournament_round_not_found',
  requestorId: 'login_request_not_found',
  requestId: 'publish_request_not_found',
  reviewId: 'review_not_found',
  scoreId: 'score_not_found',
  developerId: 'developer_not_found',
  screenshotId: 'screenshot_not_found',
};

/** Operations whose path parameters look nothing up: any id answers (a generated avatar). */
const NO_LOOKUP_OPERATIONS: ReadonlySet<string> = new Set(['getAvatar']);

/**
 * Operations that read no database: every other may answer 503 `service_unavailable` while the
 * database cannot be reached. `/readyz` documents its own 503. A test checks each names one.
 */
export const NO_DATABASE_OPERATIONS: ReadonlySet<string> = new Set([
  'checkLiveness',
  'checkReadiness',
  'getAvatar',
]);

/** Path parameters an operation does not look up: any id answers (a player not entered). */
const PARAMS_NOT_LOOKED_UP: Readonly<Record<string, readonly string[]>> = {
  getGameTournamentEntry: ['playerId'],
  // The player's invitation is looked up, not the game: an unknown game is no invitation either.
  playerAcceptTestingInvitation: ['gameId'],
  playerDeclineTestingInvitation: ['gameId'],
  // An unknown player has no uploaded avatar: avatar_not_found, as one who uses the generated one.
  getCatalogPlayerAvatar: ['playerId'],
};

const PLAY_REFUSALS: readonly ErrorCode[] = [
  'insufficient_funds',
  'leaderboard_not_found',
  'leaderboard_not_in_game',
  'leaderboard_retired',
  'game_not_playable',
  'game_suspended',
  'consent_required',
  'player_not_tester',
  'idempotency_key_reused',
  'tournament_not_started',
  'tournament_closed',
  'tournament_full',
  'tournament_attempts_exhausted',
];
const SCORE_REFUSALS: readonly ErrorCode[] = [
  'tournament_closed',
  'play_already_scored',
  'play_expired',
  'play_not_open',
  'leaderboard_not_in_game',
  'leaderboard_changed',
  'idempotency_key_reused',
];
const COVER_REFUSALS: readonly ErrorCode[] = [
  'cover_unreachable',
  'cover_not_image',
  'cover_wrong_size',
];
const WITHDRAWAL_REFUSALS: readonly ErrorCode[] = [
  'chain_mode_off',
  'invalid_amount',
  'insufficient_funds',
  'withdrawal_above_limit',
  'idempotency_key_reused',
];
const LOGIN_DECISION_REFUSALS: readonly ErrorCode[] = [
  'login_request_decided',
  'expired_token',
  'game_not_found',
];

/**
 * The domain's refusals by operationId, beyond what the route's shape implies. A test checks that
 * each operationId here names an operation.
 */
export const OPERATION_PROBLEMS: Readonly<Record<string, readonly ErrorCode[]>> = {
  createWriteToken: ['invalid_client_credentials', 'client_revoked'],
  getCatalogGameCover: ['cover_not_found'],
  developerAddScreenshot: ['cover_not_image', 'cover_wrong_size', 'screenshot_limit_reached'],
  getCatalogBoardPage: ['leaderboard_not_in_game', 'cursor_expired'],
  getCatalogBoardAround: ['leaderboard_not_in_game'],
  getBoardPage: ['leaderboard_not_in_game', 'cursor_expired'],
  getBoardAround: ['leaderboard_not_in_game'],
  getLeaders: ['leaderboard_not_in_game'],
  getTopScore: ['leaderboard_not_in_game'],
  // Issue 30: a queue item whose score (or attempt) came without a replay.
  adminGetReviewReplay: ['replay_not_found'],
  developerGetReviewReplay: ['replay_not_found'],
  adminVerifyReviewReplay: ['replay_not_found'],
  developerVerifyReviewReplay: ['replay_not_found'],
  openPlay: PLAY_REFUSALS,
  submitScore: SCORE_REFUSALS,
  createGame: [...COVER_REFUSALS, 'developer_not_found'],
  updateGame: [...COVER_REFUSALS, 'field_immutable'],
  adminCreatePlayer: ['wallet_already_registered'],
  adminMintHst: [
    'invalid_amount',
    'account_not_found',
    'account_ambiguous',
    'transfer_exists_with_different_fields',
  ],
  adminGetBalance: ['account_ambiguous'],
  adminAuditHst: ['chain_mode_off', 'chain_not_ready'],
  adminCreateLeaderboard: ['game_not_found', 'tier_name_taken'],
  adminCreditHeldDeposit: [
    'account_not_found',
    'account_ambiguous',
    'deposit_already_credited',
    'invalid_amount',
  ],
  adminResumeChain: [
    'invalid_amount',
    'chain_mode_off',
    'chain_not_halted',
    'chain_shortfall',
    'chain_mismatch',
    'block_not_on_chain',
    'chain_not_ready',
  ],
  adminListChainHalts: ['chain_mode_off'],
  adminListSurplus: ['chain_mode_off'],
  adminCreditSurplus: [
    'chain_mode_off',
    'account_not_found',
    'account_ambiguous',
    'surplus_already_settled',
    'invalid_amount',
  ],
  adminSweepSurplus: [
    'chain_mode_off',
    'surplus_already_settled',
    'invalid_amount',
    'withdrawal_above_limit',
  ],
  adminCoverShortfall: [
    'chain_mode_off',
    'surplus_already_settled',
    'surplus_exceeds_shortfall',
    'block_not_on_chain',
    'chain_not_ready',
  ],
  developerCreateApiKey: ['api_key_limit_reached'],
  developerCreateGame: COVER_REFUSALS,
  developerUpdateGame: [...COVER_REFUSALS, 'field_immutable'],
  developerAddLeaderboard: ['tier_name_taken'],
  developerUpdateLeaderboard: ['leaderboard_retired', 'tier_name_taken'],
  developerRetireLeaderboard: ['last_live_leaderboard', 'leaderboard_retired'],
  developerRotateClient: ['client_revoked'],
  developerRemoveTester: ['tester_not_found'],
  playerAcceptTestingInvitation: ['tester_invitation_not_found'],
  playerDeclineTestingInvitation: ['tester_invitation_not_found'],
  developerRequestWithdrawal: WITHDRAWAL_REFUSALS,
  playerRequestWithdrawal: WITHDRAWAL_REFUSALS,
  developerGetBalance: ['developer_not_found'],
  playerSetAllowance: ['invalid_amount'],
  playerRequestChainPlay: ['chain_mode_off', 'tournament_chain_play_refused', ...PLAY_REFUSALS],
  developerCreateTournament: ['insufficient_funds'],
  adminCreateTournament: ['insufficient_funds', 'game_not_found'],
  // The round is a query parameter here, not a path one.
  playerGetTournamentEntry: ['tournament_round_not_found'],
  getGameTournamentEntry: ['tournament_round_not_found'],
  playerGetDeposit: ['chain_mode_off'],
  playerUseFaucet: ['faucet_disabled', 'faucet_limit_reached'],
  playerSetName: ['name_invalid', 'name_taken'],
  playerSetAvatar: ['avatar_invalid'],
  getCatalogPlayerAvatar: ['avatar_not_found'],
  playerOpenPlay: [...PLAY_REFUSALS, 'invalid_approval_signature'],
  playerSubmitScore: [
    ...SCORE_REFUSALS,
    'play_of_another_player',
    'play_scored_by_game_server',
    'invalid_approval_signature',
  ],
  playerCreatePurchase: [
    'insufficient_funds',
    'invalid_approval_signature',
    'consent_required',
    'game_suspended',
  ],
  verifyWalletSignIn: [
    'invalid_siwe_message',
    'wrong_domain',
    'challenge_not_found',
    'challenge_expired',
    'nonce_used',
    'invalid_signature',
  ],
  startCliLogin: ['game_not_found'],
  pollCliLogin: ['authorization_pending', 'slow_down', 'access_denied', 'expired_token'],
  getCliLoginInfo: ['expired_token'],
  approveCliLogin: LOGIN_DECISION_REFUSALS,
  rejectCliLogin: LOGIN_DECISION_REFUSALS,
};

interface RouteSchema {
  operationId?: string;
  security?: readonly Record<string, unknown>[];
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  headers?: unknown;
}

/** The problems an operation can answer, from its route and the table above, in status order. */
export function routeProblemCodes(route: RouteOptions, url: string): ErrorCode[] {
  const schema = (route.schema ?? {}) as RouteSchema;
  const codes = new Set<ErrorCode>();
  for (const requirement of schema.security ?? []) {
    for (const scheme of Object.keys(requirement)) {
      for (const code of CREDENTIAL_PROBLEMS[scheme] ?? []) codes.add(code);
    }
  }
  // Every route takes a query and headers, whether it reads them or not, and the text rule
  // (listener/text-rule.ts) refuses a NUL or a lone surrogate in any of them: even a route with
  // no input of its own can answer 400.
  codes.add('validation_failed');
  if (schema.body) {
    codes.add('malformed_json');
    codes.add('body_too_large');
    codes.add('unsupported_media_type');
  }
  const looksUp = !NO_LOOKUP_OPERATIONS.has(schema.operationId ?? '');
  const notLookedUp = PARAMS_NOT_LOOKED_UP[schema.operationId ?? ''] ?? [];
  for (const [, name] of looksUp ? url.matchAll(/:(\w+)/g) : []) {
    if (notLookedUp.includes(name ?? '')) continue;
    const notFound =
      name === 'playId' && url.includes('chain-plays') ? 'chain_play_not_found' : null;
    const code = notFound ?? NOT_FOUND_BY_PARAM[name ?? ''];
    if (code) codes.add(code);
  }
  const config = route.config as { rateLimit?: unknown } | undefined;
  if (config?.rateLimit) codes.add('rate_limited');
  for (const code of OPERATION_PROBLEMS[schema.operationId ?? ''] ?? []) codes.add(code);
  if (!NO_DATABASE_OPERATIONS.has(schema.operationId ?? '')) codes.add('service_unavailable');
  if (!OVERLOAD_EXEMPT_ROUTES.has(url)) codes.add('overloaded');
  codes.add('internal_error');
  return [...codes].sort((a, b) => HTTP_STATUS[a] - HTTP_STATUS[b]);
}

const PROBLEM_CONTENT = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
};

/** OpenAPI responses for the codes: one per status, its description naming each code. */
export function problemResponses(codes: readonly string[]): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    if (!(code in HTTP_STATUS)) throw new TypeError(`unknown error code ${code}`);
    const status = HTTP_STATUS[code as ErrorCode];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, statusCodes] of byStatus) {
    const lines = statusCodes.map((code) => `\`${code}\`: ${ErrorCodes[code as ErrorCode]}`);
    responses[String(status)] = {
      description: lines.join('; '),
      content: structuredClone(PROBLEM_CONTENT),
    };
  }
  return responses;
}
