import {
  allowanceDay,
  allowanceWithinReach,
  assertConsentFrom,
  CoinopError,
  type Clock,
  type ConsentActor,
  type Ids,
  type Units,
} from '@coinop/core';
import { consentFacts, setAllowance } from '../store/consent.js';
import type { Db, Queryable } from '../store/db.js';
import { findGame } from '../store/games.js';
import { findPlayer } from '../store/players.js';
import {
  collectCliLogin,
  decideCliLogin,
  findCliLogin,
  insertCliLogin,
  purgeCliLogins,
  recordCliLoginPoll,
  type CliLoginRecord,
} from '../store/signin-cli-logins.js';
import { assertDecidable, pollOutcome, viewOf, type CliLoginView } from './cli-login-state.js';
import type { PlayerTokens } from '../credentials/player-tokens.js';
import { signPollToken, verifyPollToken } from '../credentials/poll-tokens.js';
import { generateUserCode, userCodeMatches } from './user-code.js';

/** The login resource's path (spec 2.7 `cliUrl`); the client polls `{cliUrl}/{requestorId}`. */
export const CLI_URL = '/cli';
/** The approval page; `browserUrl` is this path with the request id and user code. */
export const CLI_LOGIN_PAGE = '/cli/login';
/** Requests are kept this long after expiring, so a late poll still says expired_token. */
const LOGIN_RETENTION_MS = 86_400_000;
const PURGE_BATCH = 100;

export interface CliLoginDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly tokens: PlayerTokens;
  /** HMAC key of the polling tokens, shared by every sign-in process through storage. */
  readonly pollTokenKey: Uint8Array;
  readonly loginTtlSeconds: number;
  readonly pollIntervalSeconds: number;
}

/** The login start response (spec 2.7, plus RFC 8628's interval and expires_in). */
export interface CliLoginStarted {
  browserUrl: string;
  requestorId: string;
  cliUrl: string;
  token: string;
  interval: number;
  expires_in: number;
  userCode: string;
}

/** The game a login names, as the approval page shows it. */
export interface CliLoginGame {
  id: string;
  name: string;
  /** Unpublished games charge only their developer and accepted testers: no allowance. */
  published: boolean;
}

export interface CliLoginInfo {
  requestorId: string;
  description: string;
  game: CliLoginGame | null;
  userCode: string;
  status: CliLoginView;
  expiresAt: string;
}

/**
 * Starts a login for a desktop or mobile client (spec 4.6). A client that names its game lets
 * the approval page show it and offer the player an allowance for it.
 */
export async function startCliLogin(
  deps: CliLoginDeps,
  input: { description: string; gameId: string | null },
): Promise<CliLoginStarted> {
  const { description, gameId } = input;
  if (gameId !== null) await loginGame(deps.db, gameId);
  const now = deps.clock.now();
  const requestorId = deps.ids.next();
  const userCode = generateUserCode();
  const expiresAt = new Date(now.getTime() + deps.loginTtlSeconds * 1000);
  await purgeCliLogins(deps.db, new Date(now.getTime() - LOGIN_RETENTION_MS), PURGE_BATCH);
  await insertCliLogin(deps.db, {
    requestorId,
    description,
    gameId,
    userCode,
    createdAt: now,
    expiresAt,
  });
  const query = new URLSearchParams({ requestorId, code: userCode });
  return {
    browserUrl: `${CLI_LOGIN_PAGE}?${query.toString()}`,
    requestorId,
    cliUrl: CLI_URL,
    token: await signPollToken(requestorId, deps.pollTokenKey, now, expiresAt),
    interval: deps.pollIntervalSeconds,
    expires_in: deps.loginTtlSeconds,
    userCode,
  };
}

/**
 * One poll of the client (spec 4.7): the player token once approved, handed out once; otherwise
 * throws the RFC 8628 error. The pace is checked with the request's row locked, so polls reaching
 * several processes agree; only the poll that marks the request collected returns its token.
 */
export async function pollCliLogin(
  deps: CliLoginDeps,
  requestorId: string,
  bearer: string | null,
): Promise<{ access_token: string }> {
  const now = deps.clock.now();
  await verifyPollToken(bearer, requestorId, deps.pollTokenKey, now);
  const decision = await deps.db.transaction(async (tx) => {
    const login = await findCliLogin(tx, requestorId, true);
    // The token is genuine, so the request existed: it has been purged after expiring.
    if (!login)
      return {
        error: new CoinopError('expired_token', `login request ${requestorId} has expired`),
      };
    const outcome = pollOutcome(login, now, deps.pollIntervalSeconds);
    if (outcome.kind === 'collect') return { playerId: login.playerId, gameId: login.gameId };
    if (login.status === 'pending') await recordCliLoginPoll(tx, requestorId, now);
    return { error: outcome.error };
  });
  if ('error' in decision) throw decision.error;
  if (decision.playerId === null)
    throw new TypeError(`approved login ${requestorId} has no player`);
  const player = await findPlayer(deps.db, decision.playerId);
  if (!player) throw new TypeError(`approved login ${requestorId} names no player`);
  const { accessToken } = await deps.tokens.issue(player, undefined, decision.gameId);
  if ((await collectCliLogin(deps.db, requestorId, now)) === null) {
    throw new CoinopError(
      'expired_token',
      `the token of login request ${requestorId} was already handed out`,
    );
  }
  return { access_token: accessToken };
}

/** What the approval page shows; a wrong user code is the same 404 as an unknown request. */
export async function cliLoginInfo(
  deps: CliLoginDeps,
  requestorId: string,
  userCode: string,
): Promise<CliLoginInfo> {
  const login = await findMatchingLogin(deps, requestorId, userCode);
  return {
    requestorId: login.requestorId,
    description: login.description,
    game: login.gameId === null ? null : await loginGame(deps.db, login.gameId),
    userCode: login.userCode,
    status: viewOf(login, deps.clock.now()),
    expiresAt: login.expiresAt.toISOString(),
  };
}

export interface CliLoginDecision {
  status: 'approved' | 'denied';
  /** The daily allowance the approval granted the login's game, in base units; else null. */
  grantedDailyUnits: Units | null;
}

/**
 * The signed-in player approves or rejects the request whose user code they were shown. An
 * approval may carry a daily allowance for the game the login names, granted with it: a grant
 * only the player may give, with their own session (`assertConsentFrom`).
 */
export async function decideCliLoginRequest(
  deps: CliLoginDeps,
  input: {
    requestorId: string;
    userCode: string;
    playerId: string;
    /** Who decides: the player of `playerId`, as their web session proves them. */
    actor: ConsentActor;
    approve: boolean;
    dailyLimitUnits?: Units | null;
  },
): Promise<CliLoginDecision> {
  const { requestorId, playerId, approve } = input;
  const dailyUnits = input.dailyLimitUnits ?? null;
  const login = await findMatchingLogin(deps, requestorId, input.userCode);
  if (dailyUnits !== null && login.gameId === null) {
    throw new CoinopError(
      'validation_failed',
      'dailyLimit needs a login that names its game: this one does not (gameId on POST /cli)',
      { details: { field: 'dailyLimit' } },
    );
  }
  if (approve && dailyUnits !== null && login.gameId !== null) {
    assertConsentFrom({ kind: 'login_allowance', playerId, gameId: login.gameId }, input.actor);
    await assertAllowanceWithinReach(deps.db, login.gameId, playerId, dailyUnits, deps.clock.now());
  }
  if (approve && !(await findPlayer(deps.db, playerId))) {
    throw new CoinopError('player_not_found', `player ${playerId} of the token does not exist`);
  }
  const now = deps.clock.now();
  const wanted = approve ? 'approved' : 'denied';
  const grant = async (q: Queryable) => {
    if (!approve || dailyUnits === null || login.gameId === null) return;
    await setAllowance(q, {
      playerId,
      gameId: login.gameId,
      dailyUnits,
      day: allowanceDay(now),
      now,
    });
  };
  // Deciding again the same way is a no-op: a double click, or a retry after a lost answer.
  if (login.status === wanted && (!approve || login.playerId === playerId)) {
    await grant(deps.db);
    return { status: wanted, grantedDailyUnits: approve ? dailyUnits : null };
  }
  assertDecidable(login, now);
  const decided = await deps.db.transaction(async (tx) => {
    const row = await decideCliLogin(
      tx,
      requestorId,
      approve ? { status: 'approved', playerId } : { status: 'denied' },
      now,
    );
    if (row) await grant(tx);
    return row;
  });
  if (!decided) {
    // Decided or expired between the read and the update: answer from the row as it is now.
    const current = await findCliLogin(deps.db, requestorId);
    if (current) assertDecidable(current, now);
    throw new TypeError(`login ${requestorId} could not be decided`);
  }
  return { status: wanted, grantedDailyUnits: approve ? dailyUnits : null };
}

/**
 * A login's allowance is set as `PUT /player/allowances/{gameId}` sets it: an unpublished game
 * the player is no insider of takes none (the same 404 as there), so a login cannot give what
 * the game's page would refuse.
 */
async function assertAllowanceWithinReach(
  db: Db,
  gameId: string,
  playerId: string,
  dailyUnits: Units,
  now: Date,
): Promise<void> {
  const facts = await consentFacts(db, gameId, playerId, allowanceDay(now));
  if (facts === null || !allowanceWithinReach(facts, dailyUnits)) {
    throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
      details: { gameId },
    });
  }
}

async function loginGame(db: Db, gameId: string): Promise<CliLoginGame> {
  const game = await findGame(db, gameId);
  if (!game) throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
  return { id: game.id, name: game.name, published: game.publishedAt !== null };
}

async function findMatchingLogin(
  deps: CliLoginDeps,
  requestorId: string,
  userCode: string,
): Promise<CliLoginRecord> {
  const login = await findCliLogin(deps.db, requestorId);
  if (!login || !userCodeMatches(userCode, login.userCode)) {
    throw new CoinopError(
      'login_request_not_found',
      `no login request ${requestorId} with this code: start again from your game`,
    );
  }
  return login;
}
