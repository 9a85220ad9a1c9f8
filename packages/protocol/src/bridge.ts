import type { ErrorCode } from './errors.js';
import type { BoardAround, BoardPage } from './wire/boards.js';

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
  boardUpdate: 'boardUpdate',
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
 * Longest `replay` a host forwards, in UTF-16 code units: the most any arcade's
 * `--replay-max-bytes` may be (1 MiB). The arcade's own limit, in UTF-8 bytes, is usually lower
 * (64 KiB by default) and is checked by the server, which answers `replay_too_large`.
 *
 * @example
 * ```ts
 * import { BRIDGE_REPLAY_MAX_LENGTH } from '@coinop/protocol';
 * console.log(BRIDGE_REPLAY_MAX_LENGTH); // 1048576
 * ```
 */
export const BRIDGE_REPLAY_MAX_LENGTH = 1_048_576;

/**
 * Game → arcade: submit the score of a play (spec 4.10 `submitScore()`). `replay` is a coinop
 * addition (issue 30): what the game recorded of the run, in a format it chooses, for the game's
 * verifier to recompute the score from the play's seed (docs/concepts/score-integrity.md).
 *
 * @example
 * ```ts
 * import type { SendScoreMessage } from '@coinop/protocol';
 * const up: SendScoreMessage = { type: 'score', gameId: 'demo', playId: 'p1', score: 4200 };
 * const verified: SendScoreMessage = { ...up, replay: '{"moves":"LLRUD"}' };
 * ```
 */
export interface SendScoreMessage extends BridgeRequestBase {
  type: 'score';
  playId: string;
  score: number;
  /** What the game recorded of the run, for the game's verifier; absent when it sends none. */
  replay?: string;
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
 * Game → arcade: tell me each time one of this game's boards changes (a coinop addition, issue
 * 31). The host answers at once with each board it knows as it stands, then posts a `boardUpdate`
 * message each time one changes (another player scored, a score was voided, a round's standings
 * moved). A host sends it only to games that asked, so a game on `haste-arcade-sdk@1.1.5` never
 * receives it.
 *
 * @example
 * ```ts
 * import type { SendBoardUpdateMessage } from '@coinop/protocol';
 * const up: SendBoardUpdateMessage = { type: 'boardUpdate', gameId: 'demo' };
 * ```
 */
export interface SendBoardUpdateMessage extends BridgeRequestBase {
  type: 'boardUpdate';
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
  | SendBoardAroundMessage
  | SendBoardUpdateMessage;

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
 * the arcade balance has none. `seed` is a coinop addition (issue 30): 64 lowercase hex
 * characters (32 random bytes) the arcade drew when it opened the play, for the game to derive
 * all of the run's randomness from; an arcade without seeds sends none. `refusal` is a coinop
 * addition: without `playId`, why no play was opened, in words for the game to show the player
 * (so far: they are not signed in to the arcade). Games that read only `playId` are unaffected.
 *
 * @example
 * ```ts
 * import type { ReceivePlayMessage } from '@coinop/protocol';
 * const approved: ReceivePlayMessage = { playId: 'play-1', seed: '9f'.repeat(32) };
 * const lockedOnChain: ReceivePlayMessage = { playId: 'play-2', txid: '0x5e1f…' };
 * const rejected: ReceivePlayMessage = {};
 * const signedOut: ReceivePlayMessage = { refusal: 'Not signed in: connect a wallet to play.' };
 * ```
 */
export interface ReceivePlayMessage {
  playId?: string;
  /** The on-chain lock's transaction hash, for a play locked from the player's wallet. */
  txid?: string;
  /** The play's seed: 64 lowercase hex characters, drawn by the arcade at the play's open. */
  seed?: string;
  /** Without `playId`: why no play was opened, for the player to read; absent when not said. */
  refusal?: string;
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
 * payment: nothing is to be provisioned (spec 4.10 rule 3, 7.2). `refusal` is a coinop addition:
 * without `txid`, why nothing was paid, in words for the game to show the player (so far: they
 * are not signed in to the arcade).
 *
 * @example
 * ```ts
 * import type { ReceiveHstTransferMessage } from '@coinop/protocol';
 * const paid: ReceiveHstTransferMessage = { txid: 'tx-1' };
 * const rejected: ReceiveHstTransferMessage = {};
 * const signedOut: ReceiveHstTransferMessage = { refusal: 'Not signed in: connect a wallet.' };
 * ```
 */
export interface ReceiveHstTransferMessage {
  txid?: string;
  /** Without `txid`: why nothing was paid, for the player to read; absent when not said. */
  refusal?: string;
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
 * server's next poll of `GET {auth_url}/cli/{requestorId}` returns the player's game token. When
 * not approved, `refusal` may say why in words for the player (so far: they are not signed in
 * to the arcade).
 *
 * @example
 * ```ts
 * import type { ReceiveLoginMessage } from '@coinop/protocol';
 * const down: ReceiveLoginMessage = { approved: true };
 * const signedOut: ReceiveLoginMessage = {
 *   approved: false,
 *   refusal: 'Not signed in: connect a wallet to play.',
 * };
 * ```
 */
export interface ReceiveLoginMessage {
  approved: boolean;
  /** When not approved: why, for the player to read; absent when not said. */
  refusal?: string;
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
 * Data of `boardUpdate`: one of the game's boards (a tier, or a tournament's open round) as it
 * stands now, its leaders best first in the shape of the `leaderboard` reply. `txid` is empty:
 * the arcade's live boards name players, not plays.
 *
 * @example
 * ```ts
 * import type { ReceiveBoardUpdateMessage } from '@coinop/protocol';
 * const down: ReceiveBoardUpdateMessage = {
 *   leaderboardId: 't-1',
 *   leaderboard: [{ txid: '', userId: 'player-1', score: 4200, displayName: 'Ada' }],
 * };
 * ```
 */
export interface ReceiveBoardUpdateMessage {
  leaderboardId: string;
  leaderboard: BridgeLeader[];
}

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
  boardUpdate: ReceiveBoardUpdateMessage;
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
 * of issue 18, `score` (issue 30: a refused score, e.g. `replay_rejected`, leaves its play open,
 * so the game is told at once and may score it again) and `leaderboard` (a read the arcade could
 * not answer, rather than a wait for the reply timeout). To `score` and `leaderboard` a host
 * sends one only when the request carried a `requestId`, which a game on
 * `haste-arcade-sdk@1.1.5` never sends, so such a game sees what it always saw. Any other request
 * that fails gets no error reply: `play` and `transferHst` answer a failure as "not paid" (`{}`,
 * spec 4.10 rules 2 and 3), `login` as `approved: false`.
 *
 * @example
 * ```ts
 * import { BRIDGE_ERROR_REPLY_TYPES } from '@coinop/protocol';
 * console.log(BRIDGE_ERROR_REPLY_TYPES); // ["boardPage", "boardAround", "score", "leaderboard"]
 * ```
 */
export const BRIDGE_ERROR_REPLY_TYPES = [
  'boardPage',
  'boardAround',
  'score',
  'leaderboard',
] as const;

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
 * 410 for a board walk too old to continue, `leaderboard_not_found`, `validation_failed`, …; for
 * a score `replay_rejected` with 422 "the replay earns 120, not 4200", `play_expired`, …), or
 * `bridge_request_failed` with a null status when no API answer came (or its code is not in the
 * catalogue, or the player did not sign the score). A game built on an older SDK may see a code
 * newer than its catalogue.
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
 * Arcade → game: a board read (a coinop addition, issue 18) or a score (issue 30) the arcade could
 * not answer: the request's `type`, `error` in place of `data`, and the request's `requestId`. A
 * game rejects the request's promise with it and fires no event. A refused score moved no HST and
 * left its play open: the game may submit another score for it until the play expires.
 *
 * @example
 * ```ts
 * import type { BridgeErrorReply } from '@coinop/protocol';
 * const down: BridgeErrorReply = {
 *   type: 'boardPage',
 *   error: { code: 'cursor_expired', message: 'start again from the first page', status: 410 },
 *   requestId: 'k3x9.4',
 * };
 * const refused: BridgeErrorReply = {
 *   type: 'score',
 *   error: { code: 'replay_rejected', message: 'the replay earns 120, not 4200', status: 422 },
 *   requestId: 'k3x9.5',
 * };
 * ```
 */
export interface BridgeErrorReply {
  type: BridgeErrorReplyType;
  error: BridgeReplyError;
  requestId?: string;
}
