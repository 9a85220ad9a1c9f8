import { isErrorCode } from './errors.js';
import type { BoardAround, BoardEntry, BoardPage } from './wire/boards.js';
import {
  BRIDGE_BOARD_AROUND_MAX,
  BRIDGE_BOARD_PAGE_MAX,
  BRIDGE_ID_MAX_LENGTH,
  BRIDGE_REPLAY_MAX_LENGTH,
  BRIDGE_REQUEST_ID_MAX_LENGTH,
  BRIDGE_USER_CODE_MAX_LENGTH,
  BridgeMessageTypes,
  type BridgeErrorReply,
  type BridgeErrorReplyType,
  type BridgeLeader,
  type BridgeMessageType,
  type BridgeReply,
  type BridgeReplyDataByType,
  type BridgeReplyError,
  type BridgeRequest,
  type BridgeRequestBase,
  type BridgeTier,
  type ReceivePlayMessage,
  type SendBoardAroundMessage,
  type SendBoardPageMessage,
  type SendScoreMessage,
} from './bridge.js';

/**
 * Reading and building bridge messages (bridge.ts has their shapes): a host reads a game's
 * request and builds its reply, a game reads the reply. Whatever does not have a message's shape
 * reads as `undefined`, so a side ignores it rather than throwing on a foreign window's message.
 */

/** Longest error message a reply carries; a longer one is cut, never refused. */
const BRIDGE_ERROR_MESSAGE_MAX_LENGTH = 500;

/**
 * Builds a host's error reply to a board read or a score: the same `type`, the error, and the
 * request's `requestId` when it carried one. A code outside the catalogue is sent as
 * `bridge_request_failed`, and a long message is cut. A host sends it only where
 * `shouldSendBridgeErrorReply` says: never to a score without `requestId`, which may come from a
 * game of the published protocol, which knows no error reply.
 *
 * @example
 * ```ts
 * import { createBridgeErrorReply } from '@coinop/protocol';
 * createBridgeErrorReply(
 *   { type: 'boardPage', gameId: 'demo', cursor: 'old', requestId: 'k3x9.4' },
 *   { code: 'cursor_expired', message: 'start again', status: 410 },
 * );
 * // { type: 'boardPage', error: { code: 'cursor_expired', … }, requestId: 'k3x9.4' }
 * ```
 */
export function createBridgeErrorReply(
  // The request, or only what the reply takes of it: its type and requestId.
  request:
    | (BridgeRequest & { type: BridgeErrorReplyType })
    | { type: BridgeErrorReplyType; requestId?: string | undefined },
  error: { code: string; message: string; status: number | null },
): BridgeErrorReply {
  const status = error.status !== null && isIntegerIn(error.status, 100, 599) ? error.status : null;
  const reply: BridgeErrorReply = {
    type: request.type,
    error: {
      code: isErrorCode(error.code) ? error.code : 'bridge_request_failed',
      message: error.message.slice(0, BRIDGE_ERROR_MESSAGE_MAX_LENGTH),
      status,
    },
  };
  if (request.requestId !== undefined) reply.requestId = request.requestId;
  return reply;
}

/**
 * Reads an error reply the arcade posted, as a game receives it (`event.data`); `undefined` when
 * it is not one (a reply with `data`, another type, or a malformed error).
 *
 * @example
 * ```ts
 * import { parseBridgeErrorReply } from '@coinop/protocol';
 * parseBridgeErrorReply({
 *   type: 'boardPage',
 *   error: { code: 'cursor_expired', message: 'start again', status: 410 },
 * }); // { type: 'boardPage', error: { code: 'cursor_expired', message: 'start again', status: 410 } }
 * parseBridgeErrorReply({ type: 'play', error: { code: 'x', message: 'y', status: 400 } }); // undefined
 * ```
 */
export function parseBridgeErrorReply(value: unknown): BridgeErrorReply | undefined {
  if (!isRecord(value) || !isBridgeErrorReplyType(value.type) || value.data !== undefined) {
    return undefined;
  }
  const error = readReplyError(value.error);
  if (error === undefined) return undefined;
  const reply: BridgeErrorReply = { type: value.type, error };
  if (value.requestId !== undefined) {
    if (!isRequestId(value.requestId)) return undefined;
    reply.requestId = value.requestId;
  }
  return reply;
}

/**
 * Whether a request's type may be answered with an error reply.
 *
 * @example
 * ```ts
 * import { isBridgeErrorReplyType } from '@coinop/protocol';
 * isBridgeErrorReplyType('boardAround'); // true
 * isBridgeErrorReplyType('score'); // true
 * isBridgeErrorReplyType('play'); // false
 * ```
 */
export function isBridgeErrorReplyType(value: unknown): value is BridgeErrorReplyType {
  // Spelled out rather than BRIDGE_ERROR_REPLY_TYPES.includes: the game SDK's bundle is counted.
  return (
    value === 'boardPage' || value === 'boardAround' || value === 'score' || value === 'leaderboard'
  );
}

/**
 * Whether a host answers this failed request with an error reply: a board page or the board
 * around the player always (coinop's own messages, which a game of the published protocol never
 * sends), a score or a leaderboard read only when it carried a `requestId`. One without may come
 * from `haste-arcade-sdk@1.1.5`, which knows no error reply (it logs an error for any message it
 * cannot read): it gets none, as it always did.
 *
 * @example
 * ```ts
 * import { shouldSendBridgeErrorReply } from '@coinop/protocol';
 * shouldSendBridgeErrorReply({ type: 'score', gameId: 'g', playId: 'p', score: 1, requestId: 'r.1' });
 * // true
 * shouldSendBridgeErrorReply({ type: 'score', gameId: 'g', playId: 'p', score: 1 }); // false
 * shouldSendBridgeErrorReply({ type: 'boardPage', gameId: 'g' }); // true
 * shouldSendBridgeErrorReply({ type: 'leaderboard', gameId: 'g' }); // false
 * shouldSendBridgeErrorReply({ type: 'play', gameId: 'g', requestId: 'r.2' }); // false
 * ```
 */
export function shouldSendBridgeErrorReply(request: BridgeRequest): boolean {
  // Not a type guard: its false branch would claim no score is left, and a score without
  // requestId is one.
  if (request.type === 'score' || request.type === 'leaderboard') {
    return request.requestId !== undefined;
  }
  return isBridgeErrorReplyType(request.type);
}

/**
 * Whether a value is one of the bridge's message types.
 *
 * @example
 * ```ts
 * import { isBridgeMessageType } from '@coinop/protocol';
 * isBridgeMessageType('transferHst'); // true
 * isBridgeMessageType('toString'); // false
 * ```
 */
export function isBridgeMessageType(value: unknown): value is BridgeMessageType {
  return typeof value === 'string' && Object.hasOwn(BridgeMessageTypes, value);
}

/**
 * Reads a message a game posted, as a host receives it (`event.data`). Returns the request with
 * only its known fields, or `undefined` when it is not a well-formed request: a host ignores
 * such a message.
 *
 * @example
 * ```ts
 * import { parseBridgeRequest } from '@coinop/protocol';
 * parseBridgeRequest({ type: 'transferHst', gameId: 'demo', amount: 2, extra: 1 });
 * // { type: 'transferHst', gameId: 'demo', amount: 2 }
 * parseBridgeRequest({ type: 'score', gameId: 'demo', playId: 'p1' }); // undefined
 * ```
 */
export function parseBridgeRequest(value: unknown): BridgeRequest | undefined {
  if (!isRecord(value) || !isBridgeMessageType(value.type)) return undefined;
  if (!isId(value.gameId)) return undefined;
  const base: BridgeRequestBase = { gameId: value.gameId };
  if (value.requestId !== undefined) {
    if (!isRequestId(value.requestId)) return undefined;
    base.requestId = value.requestId;
  }
  switch (value.type) {
    case 'play':
    case 'leaderboard':
    case 'tierChange':
    case 'boardUpdate':
      return { type: value.type, ...base };
    case 'login':
      if (!isId(value.requestorId) || !isUserCode(value.userCode)) return undefined;
      return {
        type: 'login',
        ...base,
        requestorId: value.requestorId,
        userCode: value.userCode,
      };
    case 'score': {
      if (!isId(value.playId) || !isFiniteNumber(value.score)) return undefined;
      const request: SendScoreMessage = {
        type: 'score',
        ...base,
        playId: value.playId,
        score: value.score,
      };
      if (value.replay !== undefined) {
        if (!isReplay(value.replay)) return undefined;
        request.replay = value.replay;
      }
      return request;
    }
    case 'boardPage': {
      const request: SendBoardPageMessage = { type: 'boardPage', ...base };
      if (value.leaderboardId !== undefined) {
        if (!isId(value.leaderboardId)) return undefined;
        request.leaderboardId = value.leaderboardId;
      }
      if (value.cursor !== undefined) {
        if (!isId(value.cursor)) return undefined;
        request.cursor = value.cursor;
      }
      if (value.limit !== undefined) {
        if (!isIntegerIn(value.limit, 1, BRIDGE_BOARD_PAGE_MAX)) return undefined;
        request.limit = value.limit;
      }
      return request;
    }
    case 'boardAround': {
      const request: SendBoardAroundMessage = { type: 'boardAround', ...base };
      if (value.leaderboardId !== undefined) {
        if (!isId(value.leaderboardId)) return undefined;
        request.leaderboardId = value.leaderboardId;
      }
      if (value.count !== undefined) {
        if (!isIntegerIn(value.count, 0, BRIDGE_BOARD_AROUND_MAX)) return undefined;
        request.count = value.count;
      }
      return request;
    }
    case 'transferHst':
    case 'hstTransfer':
      if (!isFiniteNumber(value.amount) || value.amount <= 0) return undefined;
      return { type: value.type, ...base, amount: value.amount };
  }
}

/**
 * Reads a message the arcade posted, as a game receives it (`event.data`). Returns the reply
 * with only its known fields, or `undefined` when it is not a well-formed reply. An empty or
 * `null` `playId` or `txid` reads as absent (the player said no), so a game has one test to make.
 *
 * @example
 * ```ts
 * import { parseBridgeReply } from '@coinop/protocol';
 * parseBridgeReply({ type: 'play', data: { playId: null } }); // { type: 'play', data: {} }
 * parseBridgeReply({ type: 'score', data: {} }); // undefined: a score reply names its play
 * ```
 */
export function parseBridgeReply(value: unknown): BridgeReply | undefined {
  if (!isRecord(value) || !isBridgeMessageType(value.type) || !isRecord(value.data)) {
    return undefined;
  }
  let requestId: string | undefined;
  if (value.requestId !== undefined) {
    if (!isRequestId(value.requestId)) return undefined;
    requestId = value.requestId;
  }
  const data = value.data;
  let reply: BridgeReply;
  switch (value.type) {
    case 'play': {
      const playId = readOptionalId(data.playId);
      const txid = readOptionalId(data.txid);
      if (playId === false || txid === false) return undefined;
      // A txid or seed without a play means nothing to start: the reply reads as "not paid".
      const play: ReceivePlayMessage = {};
      if (playId !== undefined) {
        play.playId = playId;
        if (txid !== undefined) play.txid = txid;
        // A malformed seed is left out rather than losing a paid play's reply.
        if (isSeed(data.seed)) play.seed = data.seed;
      } else withRefusal(play, data);
      reply = { type: 'play', data: play };
      break;
    }
    case 'score':
      if (!isId(data.playId)) return undefined;
      reply = { type: 'score', data: { playId: data.playId } };
      break;
    case 'leaderboard': {
      const leaderboard = readLeaders(data.leaderboard);
      if (leaderboard === undefined) return undefined;
      reply = { type: 'leaderboard', data: { leaderboard } };
      break;
    }
    case 'transferHst':
    case 'hstTransfer': {
      const txid = readOptionalId(data.txid);
      if (txid === false) return undefined;
      reply = { type: value.type, data: txid === undefined ? withRefusal({}, data) : { txid } };
      break;
    }
    case 'tierChange': {
      const tier = readTier(data.tier);
      if (tier === undefined) return undefined;
      reply = { type: 'tierChange', data: { tier } };
      break;
    }
    case 'boardUpdate': {
      const leaderboard = readLeaders(data.leaderboard);
      if (!isId(data.leaderboardId) || leaderboard === undefined) return undefined;
      reply = { type: 'boardUpdate', data: { leaderboardId: data.leaderboardId, leaderboard } };
      break;
    }
    case 'login': {
      if (typeof data.approved !== 'boolean') return undefined;
      reply = { type: 'login', data: { approved: data.approved } };
      if (!data.approved) withRefusal(reply.data, data);
      break;
    }
    case 'boardPage': {
      const page = readBoardPage(data);
      if (page === undefined) return undefined;
      reply = { type: 'boardPage', data: page };
      break;
    }
    case 'boardAround': {
      const around = readBoardAround(data);
      if (around === undefined) return undefined;
      reply = { type: 'boardAround', data: around };
      break;
    }
  }
  if (requestId !== undefined) reply.requestId = requestId;
  return reply;
}

/**
 * Builds a host's reply to a request: the same `type`, the data, and the request's `requestId`
 * when it carried one (a request without one gets the published protocol's `{type, data}`).
 *
 * @example
 * ```ts
 * import { createBridgeReply } from '@coinop/protocol';
 * createBridgeReply({ type: 'play', gameId: 'demo', requestId: 'k3x9.1' }, { playId: 'p1' });
 * // { type: 'play', data: { playId: 'p1' }, requestId: 'k3x9.1' }
 * ```
 */
export function createBridgeReply<T extends BridgeMessageType>(
  request: BridgeRequest & { type: T },
  data: BridgeReplyDataByType[T],
): BridgeReply<T> {
  const reply = { type: request.type, data } as BridgeReply<T>;
  if (request.requestId !== undefined) reply.requestId = request.requestId;
  return reply;
}

/**
 * An error reply's error. Its code is not looked up: the catalogue would add half again to the
 * game SDK's bundle, and a host sends catalogue codes only (`createBridgeErrorReply`), so a code
 * newer than a game's SDK reaches it as it is, for its `default:` branch.
 */
function readReplyError(value: unknown): BridgeReplyError | undefined {
  if (!isRecord(value) || !isRequestId(value.code) || typeof value.message !== 'string') {
    return undefined;
  }
  const status = value.status;
  if (status !== null && !isIntegerIn(status, 100, 599)) return undefined;
  return { code: value.code as BridgeReplyError['code'], message: value.message, status };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= BRIDGE_ID_MAX_LENGTH;
}

function isReplay(value: unknown): value is string {
  return typeof value === 'string' && value.length <= BRIDGE_REPLAY_MAX_LENGTH;
}

/**
 * `to` with the reply's refusal, if text: cut to an error message's length; anything else (an
 * empty string too) is left out. Written small: it is in the game SDK's bundle.
 */
function withRefusal<T extends { refusal?: string }>(to: T, { refusal }: { refusal?: unknown }): T {
  if (typeof refusal === 'string' && refusal)
    to.refusal = refusal.slice(0, BRIDGE_ERROR_MESSAGE_MAX_LENGTH);
  return to;
}

/** A play's seed: 32 bytes as 64 lowercase hex characters. */
function isSeed(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

function isRequestId(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length > 0 && value.length <= BRIDGE_REQUEST_ID_MAX_LENGTH
  );
}

/** A CLI login's user code: short, printable ASCII (the sign-in service's are `XXXX-XXXX`). */
function isUserCode(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= BRIDGE_USER_CODE_MAX_LENGTH &&
    /^[\x21-\x7e]+$/.test(value)
  );
}

function readTier(value: unknown): BridgeTier | undefined {
  if (!isRecord(value) || !isId(value.id) || typeof value.name !== 'string') return undefined;
  if (!isFiniteNumber(value.cost) || value.cost < 0 || value.currency !== 'HST') return undefined;
  if (typeof value.formattedCostString !== 'string') return undefined;
  return {
    id: value.id,
    name: value.name,
    cost: value.cost,
    currency: 'HST',
    formattedCostString: value.formattedCostString,
  };
}

/** An id, `undefined` for "absent" (missing, null or empty), or `false` for a malformed value. */
function readOptionalId(value: unknown): string | undefined | false {
  if (value === undefined || value === null || value === '') return undefined;
  return isId(value) ? value : false;
}

function readLeaders(value: unknown): BridgeLeader[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const leaders: BridgeLeader[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.txid !== 'string' || typeof entry.userId !== 'string') {
      return undefined;
    }
    if (!isFiniteNumber(entry.score)) return undefined;
    const leader: BridgeLeader = { txid: entry.txid, userId: entry.userId, score: entry.score };
    if (typeof entry.displayName === 'string') leader.displayName = entry.displayName;
    if (typeof entry.avatarUrl === 'string') leader.avatarUrl = entry.avatarUrl;
    leaders.push(leader);
  }
  return leaders;
}

function readBoardEntry(value: unknown): BoardEntry | undefined {
  if (!isRecord(value) || !Number.isInteger(value.rank) || (value.rank as number) < 1) {
    return undefined;
  }
  if (!isId(value.playerId) || typeof value.name !== 'string') return undefined;
  if (typeof value.avatar !== 'string' || !isFiniteNumber(value.score)) return undefined;
  return {
    rank: value.rank as number,
    playerId: value.playerId,
    name: value.name,
    avatar: value.avatar,
    score: value.score,
  };
}

/** Each entry, or undefined when any is malformed. */
function readBoardEntries(value: unknown): BoardEntry[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const entries: BoardEntry[] = [];
  for (const item of value) {
    const entry = readBoardEntry(item);
    if (entry === undefined) return undefined;
    entries.push(entry);
  }
  return entries;
}

function readBoardCount(data: Record<string, unknown>): number | undefined {
  return Number.isInteger(data.players) && (data.players as number) >= 0
    ? (data.players as number)
    : undefined;
}

function readBoardPage(data: Record<string, unknown>): BoardPage | undefined {
  const players = readBoardCount(data);
  const entries = readBoardEntries(data.entries);
  if (!isId(data.leaderboardId) || players === undefined || entries === undefined) {
    return undefined;
  }
  if (data.nextCursor !== null && !isId(data.nextCursor)) return undefined;
  return { leaderboardId: data.leaderboardId, players, entries, nextCursor: data.nextCursor };
}

function readBoardAround(data: Record<string, unknown>): BoardAround | undefined {
  const players = readBoardCount(data);
  const above = readBoardEntries(data.above);
  const below = readBoardEntries(data.below);
  const player = data.player === null ? null : readBoardEntry(data.player);
  if (!isId(data.leaderboardId) || players === undefined || player === undefined) return undefined;
  if (above === undefined || below === undefined) return undefined;
  return { leaderboardId: data.leaderboardId, players, above, player, below };
}
