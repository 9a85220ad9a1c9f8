import { isErrorCode, type ErrorCode } from './errors.js';
import type { BoardAround, BoardEntry, BoardPage } from './wire/boards.js';

/**
 * The bridge between a game running in the arcade's iframe and the arcade page hosting it (spec
 * 4.10 and 6). Both sides speak it with `window.postMessage`: the game posts requests up to
 * `window.parent` with the arcade's origin as target, and the arcade posts replies down to the
 * iframe's window with the game's origin as target. The shapes are those of the published
 * `haste-arcade-sdk@1.1.5`, so a game built on either library runs in either arcade; coinop adds
 * one optional field, `requestId`, that a host echoes so a reply finds its request.
 *
 * `docs/reference/bridge-protocol.md` tells the whole exchange.
 */

/**
 * Each message type the bridge carries, mapped to the GameService event its reply fires (spec 6).
 * `transferHst` is the published library's name for the transfer and the one games send;
 * `hstTransfer` is accepted as an alias. A host answers with the type it was asked with.
 *
 * @example
 * ```ts
 * import { BridgeMessageTypes } from '@coinop/protocol';
 * console.log(BridgeMessageTypes.transferHst); // "hstTransfer"
 * ```
 */
export const BridgeMessageTypes = {
  play: 'play',
  score: 'score',
  leaderboard: 'leaderboard',
  transferHst: 'hstTransfer',
  hstTransfer: 'hstTransfer',
  tierChange: 'tierChange',
  login: 'login',
  boardPage: 'boardPage',
  boardAround: 'boardAround',
} as const;

/**
 * The `type` of a bridge message, the same in a request and in its reply.
 *
 * @example
 * ```ts
 * import type { BridgeMessageType } from '@coinop/protocol';
 * const type: BridgeMessageType = 'transferHst';
 * ```
 */
export type BridgeMessageType = keyof typeof BridgeMessageTypes;

/**
 * The name of a GameService event: one per operation (spec 6).
 *
 * @example
 * ```ts
 * import type { BridgeEventName } from '@coinop/protocol';
 * const event: BridgeEventName = 'hstTransfer';
 * ```
 */
export type BridgeEventName = (typeof BridgeMessageTypes)[BridgeMessageType];

/**
 * Longest `requestId` a host accepts; a game's ids are far shorter.
 *
 * @example
 * ```ts
 * import { BRIDGE_REQUEST_ID_MAX_LENGTH } from '@coinop/protocol';
 * console.log(BRIDGE_REQUEST_ID_MAX_LENGTH); // 64
 * ```
 */
export const BRIDGE_REQUEST_ID_MAX_LENGTH = 64;

/**
 * Longest `gameId`, `playId` or `txid` either side accepts.
 *
 * @example
 * ```ts
 * import { BRIDGE_ID_MAX_LENGTH } from '@coinop/protocol';
 * console.log(BRIDGE_ID_MAX_LENGTH); // 200
 * ```
 */
export const BRIDGE_ID_MAX_LENGTH = 200;

/**
 * The most rows a `boardPage` request may ask for, and the most players above and below that a
 * `boardAround` request may ask for: the limits of the board routes (`?limit=`, `?count=`).
 *
 * @example
 * ```ts
 * import { BRIDGE_BOARD_PAGE_MAX, BRIDGE_BOARD_AROUND_MAX } from '@coinop/protocol';
 * console.log(BRIDGE_BOARD_PAGE_MAX, BRIDGE_BOARD_AROUND_MAX); // 100 50
 * ```
 */
export const BRIDGE_BOARD_PAGE_MAX = 100;
export const BRIDGE_BOARD_AROUND_MAX = 50;

/**
 * Longest CLI-login user code a `login` request may carry; the sign-in service's are 9 characters.
 *
 * @example
 * ```ts
 * import { BRIDGE_USER_CODE_MAX_LENGTH } from '@coinop/protocol';
 * console.log(BRIDGE_USER_CODE_MAX_LENGTH); // 32
 * ```
 */
export const BRIDGE_USER_CODE_MAX_LENGTH = 32;

/**
 * Fields every request carries. `requestId` is coinop's addition: a host that knows it echoes it
 * in the reply; a host that does not (the published protocol) leaves it out, and the game then
 * matches replies to requests of the same type in the order it sent them.
 *
 * @example
 * ```ts
 * import type { BridgeRequestBase } from '@coinop/protocol';
 * const base: BridgeRequestBase = { gameId: 'c0ffee00-0000-4000-8000-000000000001' };
 * ```
 */
export interface BridgeRequestBase {
  gameId: string;
  requestId?: string;
}

/**
 * Game → arcade: ask the player to pay for a play (spec 4.10 `play()`).
 *
 * @example
 * ```ts
 * import type { SendPlayMessage } from '@coinop/protocol';
 * const up: SendPlayMessage = { type: 'play', gameId: 'demo', requestId: 'k3x9.1' };
 * ```
 */
export interface SendPlayMessage extends BridgeRequestBase {
  type: 'play';
}

/**
 * Game → arcade: submit the score of a play (spec 4.10 `submitScore()`).
 *
 * @example
 * ```ts
 * import type { SendScoreMessage } from '@coinop/protocol';
 * const up: SendScoreMessage = { type: 'score', gameId: 'demo', playId: 'p1', score: 4200 };
 * ```
 */
export interface SendScoreMessage extends BridgeRequestBase {
  type: 'score';
  playId: string;
  score: number;
}

/**
 * Game → arcade: ask for the current leaderboard (spec 4.10 `getLeaderboard()`).
 *
 * @example
 * ```ts
 * import type { SendLeaderboardMessage } from '@coinop/protocol';
 * const up: SendLeaderboardMessage = { type: 'leaderboard', gameId: 'demo' };
 * ```
 */
export interface SendLeaderboardMessage extends BridgeRequestBase {
  type: 'leaderboard';
}

/**
 * Game → arcade: ask the player to pay `amount` HST to the game (spec 4.10 `hstTransfer()`).
 *
 * @example
 * ```ts
 * import type { SendTransferHstMessage } from '@coinop/protocol';
 * const up: SendTransferHstMessage = { type: 'transferHst', gameId: 'demo', amount: 1.5 };
 * ```
 */
export interface SendTransferHstMessage extends BridgeRequestBase {
  type: 'transferHst' | 'hstTransfer';
  /** HST, a JSON number with at most 8 decimals. */
  amount: number;
}

/**
 * Game → arcade: tell me the tier the player has chosen, now and whenever they change it (a coinop
 * addition). The host answers at once with the current tier, then posts a `tierChange` message
 * each time the player picks another tier. A host answers only games that sent this, so a game
 * that never asks (every game on `haste-arcade-sdk@1.1.5`) never receives the message.
 *
 * @example
 * ```ts
 * import type { SendTierChangeMessage } from '@coinop/protocol';
 * const up: SendTierChangeMessage = { type: 'tierChange', gameId: 'demo' };
 * ```
 */
export interface SendTierChangeMessage extends BridgeRequestBase {
  type: 'tierChange';
}

/**
 * Game → arcade: ask the signed-in player to approve a CLI login that the game's own server
 * started (a coinop addition, for server-side games with a web page in the arcade). The arcade
 * checks that the login names this game, asks the player, and approves it with their session;
 * the game server then receives the player's game token by polling, as for any CLI login (spec
 * 4.6, 4.7). The token never passes through the page.
 *
 * @example
 * ```ts
 * import type { SendLoginMessage } from '@coinop/protocol';
 * const up: SendLoginMessage = {
 *   type: 'login',
 *   gameId: 'c0ffee00-0000-4000-8000-000000000001',
 *   requestorId: '5d1c0e9a-0000-4000-8000-000000000002',
 *   userCode: 'WDJB-MJHT',
 * };
 * ```
 */
export interface SendLoginMessage extends BridgeRequestBase {
  type: 'login';
  /** The login's id, from `POST {auth_url}/cli`. */
  requestorId: string;
  /** The login's user code, from the same answer. */
  userCode: string;
}

/**
 * Game → arcade: a page of a tier's whole board with exact ranks (a coinop addition, issue 18).
 * `leaderboardId` defaults to the tier the player has chosen; `cursor` is the previous page's
 * `nextCursor`; `limit` is 1 to 100 (default 25). The arcade answers from its public board route,
 * so a game reads only what anyone may read. A game on `haste-arcade-sdk@1.1.5` never sends it.
 *
 * @example
 * ```ts
 * import type { SendBoardPageMessage } from '@coinop/protocol';
 * const up: SendBoardPageMessage = { type: 'boardPage', gameId: 'demo', limit: 50 };
 * ```
 */
export interface SendBoardPageMessage extends BridgeRequestBase {
  type: 'boardPage';
  leaderboardId?: string;
  cursor?: string;
  limit?: number;
}

/**
 * Game → arcade: the signed-in player's place on a tier's board with up to `count` players just
 * above and below (a coinop addition, issue 18). `leaderboardId` defaults to the tier the player
 * has chosen; `count` is 0 to 50 (default 5). The reply's `player` is null when nobody is signed
 * in or the player has no score on the tier.
 *
 * @example
 * ```ts
 * import type { SendBoardAroundMessage } from '@coinop/protocol';
 * const up: SendBoardAroundMessage = { type: 'boardAround', gameId: 'demo', count: 3 };
 * ```
 */
export interface SendBoardAroundMessage extends BridgeRequestBase {
  type: 'boardAround';
  leaderboardId?: string;
  count?: number;
}

/**
 * Any message a game posts up to the arcade.
 *
 * @example
 * ```ts
 * import type { BridgeRequest } from '@coinop/protocol';
 * const up: BridgeRequest = { type: 'leaderboard', gameId: 'demo', requestId: 'k3x9.2' };
 * ```
 */
export type BridgeRequest =
  | SendPlayMessage
  | SendScoreMessage
  | SendLeaderboardMessage
  | SendTransferHstMessage
  | SendTierChangeMessage
  | SendLoginMessage
  | SendBoardPageMessage
  | SendBoardAroundMessage;

/**
 * One leader in a leaderboard reply, field for field as the published library names them.
 *
 * @example
 * ```ts
 * import type { BridgeLeader } from '@coinop/protocol';
 * const leader: BridgeLeader = { txid: 'play-1', userId: 'player-1', score: 4200,
 *   displayName: 'Ada' };
 * ```
 */
export interface BridgeLeader {
  /** The paid play that set the score (coinop sends the play id). */
  txid: string;
  userId: string;
  score: number;
  displayName?: string;
  avatarUrl?: string;
}

/**
 * Reply data of `play`. `playId` is absent when the player did not approve the payment: the game
 * must not start (spec 4.10 rule 2, 7.1). `txid` is a coinop addition: present when the player
 * locked the play from their wallet on chain, it is the lock's transaction hash; a play paid from
 * the arcade balance has none. Games that read only `playId` are unaffected.
 *
 * @example
 * ```ts
 * import type { ReceivePlayMessage } from '@coinop/protocol';
 * const approved: ReceivePlayMessage = { playId: 'play-1' };
 * const lockedOnChain: ReceivePlayMessage = { playId: 'play-2', txid: '0x5e1f…' };
 * const rejected: ReceivePlayMessage = {};
 * ```
 */
export interface ReceivePlayMessage {
  playId?: string;
  /** The on-chain lock's transaction hash, for a play locked from the player's wallet. */
  txid?: string;
}

/**
 * Reply data of `score`: the play that was scored.
 *
 * @example
 * ```ts
 * import type { ReceiveSubmitScoreMessage } from '@coinop/protocol';
 * const down: ReceiveSubmitScoreMessage = { playId: 'play-1' };
 * ```
 */
export interface ReceiveSubmitScoreMessage {
  playId: string;
}

/**
 * Reply data of `leaderboard`: the leaders, best first.
 *
 * @example
 * ```ts
 * import type { ReceiveLeaderboardMessage } from '@coinop/protocol';
 * const down: ReceiveLeaderboardMessage = {
 *   leaderboard: [{ txid: 'play-1', userId: 'player-1', score: 4200 }],
 * };
 * ```
 */
export interface ReceiveLeaderboardMessage {
  leaderboard: BridgeLeader[];
}

/**
 * Reply data of `transferHst`/`hstTransfer`. `txid` is absent when the player rejected the
 * payment: nothing is to be provisioned (spec 4.10 rule 3, 7.2).
 *
 * @example
 * ```ts
 * import type { ReceiveHstTransferMessage } from '@coinop/protocol';
 * const paid: ReceiveHstTransferMessage = { txid: 'tx-1' };
 * const rejected: ReceiveHstTransferMessage = {};
 * ```
 */
export interface ReceiveHstTransferMessage {
  txid?: string;
}

/**
 * A tier as the bridge names it: the fields of a catalog tier (`CatalogTier`), cost in HST.
 *
 * @example
 * ```ts
 * import type { BridgeTier } from '@coinop/protocol';
 * const tier: BridgeTier = { id: 't-1', name: 'Practice', cost: 1, currency: 'HST',
 *   formattedCostString: '1 HST' };
 * ```
 */
export interface BridgeTier {
  id: string;
  name: string;
  /** What one play costs, in HST (a JSON number with at most 8 decimals). */
  cost: number;
  currency: 'HST';
  /** The cost for display, for example "1 HST". */
  formattedCostString: string;
}

/**
 * Data of `tierChange`: the tier the player has chosen. The first one answers the game's
 * `tierChange` request; later ones arrive, without `requestId`, each time the player picks
 * another tier.
 *
 * @example
 * ```ts
 * import type { ReceiveTierChangeMessage } from '@coinop/protocol';
 * const down: ReceiveTierChangeMessage = {
 *   tier: { id: 't-2', name: 'Gold', cost: 5, currency: 'HST', formattedCostString: '5 HST' },
 * };
 * ```
 */
export interface ReceiveTierChangeMessage {
  tier: BridgeTier;
}

/**
 * Reply data of `login`: whether the player approved the login. Once `approved` is true the game
 * server's next poll of `GET {auth_url}/cli/{requestorId}` returns the player's game token.
 *
 * @example
 * ```ts
 * import type { ReceiveLoginMessage } from '@coinop/protocol';
 * const down: ReceiveLoginMessage = { approved: true };
 * ```
 */
export interface ReceiveLoginMessage {
  approved: boolean;
}

/**
 * Reply data of `boardPage`: the board route's page, field for field (`BoardPage`): the tier,
 * how many players have a score on it, the entries best first with exact ranks, and the cursor
 * of the next page (null on the last).
 *
 * @example
 * ```ts
 * import type { ReceiveBoardPageMessage } from '@coinop/protocol';
 * const down: ReceiveBoardPageMessage = {
 *   leaderboardId: 't-1',
 *   players: 1,
 *   entries: [{ rank: 1, playerId: 'p-1', name: 'Ada', avatar: '/a.svg', score: 4200 }],
 *   nextCursor: null,
 * };
 * ```
 */
export type ReceiveBoardPageMessage = BoardPage;

/**
 * Reply data of `boardAround`: the board route's answer for the signed-in player (`BoardAround`);
 * `player` is null, and the lists empty, when nobody is signed in or they have no score there.
 *
 * @example
 * ```ts
 * import type { ReceiveBoardAroundMessage } from '@coinop/protocol';
 * const down: ReceiveBoardAroundMessage = {
 *   leaderboardId: 't-1',
 *   players: 0,
 *   above: [],
 *   player: null,
 *   below: [],
 * };
 * ```
 */
export type ReceiveBoardAroundMessage = BoardAround;

/**
 * The reply data of each message type.
 *
 * @example
 * ```ts
 * import type { BridgeReplyDataByType } from '@coinop/protocol';
 * const data: BridgeReplyDataByType['score'] = { playId: 'play-1' };
 * ```
 */
export interface BridgeReplyDataByType {
  play: ReceivePlayMessage;
  score: ReceiveSubmitScoreMessage;
  leaderboard: ReceiveLeaderboardMessage;
  transferHst: ReceiveHstTransferMessage;
  hstTransfer: ReceiveHstTransferMessage;
  tierChange: ReceiveTierChangeMessage;
  login: ReceiveLoginMessage;
  boardPage: ReceiveBoardPageMessage;
  boardAround: ReceiveBoardAroundMessage;
}

/**
 * Arcade → game: `{type, data}` as in the published protocol, plus the request's `requestId`
 * when the request carried one.
 *
 * @example
 * ```ts
 * import type { BridgeReply } from '@coinop/protocol';
 * const down: BridgeReply<'play'> = {
 *   type: 'play',
 *   data: { playId: 'play-1' },
 *   requestId: 'k3x9.1',
 * };
 * ```
 */
export type BridgeReply<T extends BridgeMessageType = BridgeMessageType> = {
  [K in T]: { type: K; data: BridgeReplyDataByType[K]; requestId?: string };
}[T];

/**
 * Codes of the errors a GameService rejects with (they never travel over HTTP).
 *
 * @example
 * ```ts
 * import { BridgeErrorCodes } from '@coinop/protocol';
 * console.log(BridgeErrorCodes.bridge_timeout); // "Bridge reply timed out"
 * ```
 */
export const BridgeErrorCodes = {
  bridge_timeout: 'Bridge reply timed out',
  bridge_not_initialized: 'Bridge not initialized',
  bridge_request_failed: 'Bridge request failed',
} as const;

/**
 * A bridge error code.
 *
 * @example
 * ```ts
 * import type { BridgeErrorCode } from '@coinop/protocol';
 * const code: BridgeErrorCode = 'bridge_timeout';
 * ```
 */
export type BridgeErrorCode = keyof typeof BridgeErrorCodes;

/**
 * The message types a host may answer with an error reply (`BridgeErrorReply`): the board reads
 * of issue 18, which a game on `haste-arcade-sdk@1.1.5` never sends. A failure of any other
 * request still gets no reply (the published protocol has no error reply), and the game times out.
 *
 * @example
 * ```ts
 * import { BRIDGE_ERROR_REPLY_TYPES } from '@coinop/protocol';
 * console.log(BRIDGE_ERROR_REPLY_TYPES); // ["boardPage", "boardAround"]
 * ```
 */
export const BRIDGE_ERROR_REPLY_TYPES = ['boardPage', 'boardAround'] as const;

/**
 * A message type that may be answered with an error reply.
 *
 * @example
 * ```ts
 * import type { BridgeErrorReplyType } from '@coinop/protocol';
 * const type: BridgeErrorReplyType = 'boardPage';
 * ```
 */
export type BridgeErrorReplyType = (typeof BRIDGE_ERROR_REPLY_TYPES)[number];

/**
 * Why the arcade could not answer: the API's error code and message (`cursor_expired` with status
 * 410 for a board walk too old to continue, `leaderboard_not_found`, `validation_failed`, …), or
 * `bridge_request_failed` with a null status when no API answer came (or its code is not in the
 * catalogue). A game built on an older SDK may see a code newer than its catalogue.
 *
 * @example
 * ```ts
 * import type { BridgeReplyError } from '@coinop/protocol';
 * const error: BridgeReplyError = {
 *   code: 'cursor_expired',
 *   message: 'start again from the first page',
 *   status: 410,
 * };
 * ```
 */
export interface BridgeReplyError {
  code: ErrorCode | 'bridge_request_failed';
  message: string;
  /** The HTTP status the arcade's API answered; null when none came. */
  status: number | null;
}

/**
 * Arcade → game: a board read the arcade could not answer (a coinop addition, issue 18): the
 * request's `type`, `error` in place of `data`, and the request's `requestId`. A game rejects the
 * request's promise with it and fires no event.
 *
 * @example
 * ```ts
 * import type { BridgeErrorReply } from '@coinop/protocol';
 * const down: BridgeErrorReply = {
 *   type: 'boardPage',
 *   error: { code: 'cursor_expired', message: 'start again from the first page', status: 410 },
 *   requestId: 'k3x9.4',
 * };
 * ```
 */
export interface BridgeErrorReply {
  type: BridgeErrorReplyType;
  error: BridgeReplyError;
  requestId?: string;
}

/** Longest error message a reply carries; a longer one is cut, never refused. */
const BRIDGE_ERROR_MESSAGE_MAX_LENGTH = 500;

/**
 * Builds a host's error reply to a board read: the same `type`, the error, and the request's
 * `requestId` when it carried one. A code outside the catalogue is sent as
 * `bridge_request_failed`, and a long message is cut.
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
  request: BridgeRequest & { type: BridgeErrorReplyType },
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
 * isBridgeErrorReplyType('play'); // false
 * ```
 */
export function isBridgeErrorReplyType(value: unknown): value is BridgeErrorReplyType {
  // Spelled out rather than BRIDGE_ERROR_REPLY_TYPES.includes: the game SDK's bundle is counted.
  return value === 'boardPage' || value === 'boardAround';
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
      return { type: value.type, ...base };
    case 'login':
      if (!isId(value.requestorId) || !isUserCode(value.userCode)) return undefined;
      return {
        type: 'login',
        ...base,
        requestorId: value.requestorId,
        userCode: value.userCode,
      };
    case 'score':
      if (!isId(value.playId) || !isFiniteNumber(value.score)) return undefined;
      return { type: 'score', ...base, playId: value.playId, score: value.score };
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
      // A txid without a play means nothing to start: the reply reads as "not paid".
      reply = {
        type: 'play',
        data: playId === undefined ? {} : txid === undefined ? { playId } : { playId, txid },
      };
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
      reply = { type: value.type, data: txid === undefined ? {} : { txid } };
      break;
    }
    case 'tierChange': {
      const tier = readTier(data.tier);
      if (tier === undefined) return undefined;
      reply = { type: 'tierChange', data: { tier } };
      break;
    }
    case 'login':
      if (typeof data.approved !== 'boolean') return undefined;
      reply = { type: 'login', data: { approved: data.approved } };
      break;
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
