import { CoinopError } from '@coinop/core';
import type { ActivityPosition } from '../../services/account-reads.js';
import type { QueuePosition } from '../../services/score-reviews.js';
import type { TransferPosition } from '../../services/ledger-transfers.js';
import { boardWalkExpired, type ContinuedWalk } from '../../services/game-reads.js';

/**
 * Page cursors: the keyset position of a page's last row, as base64url text (a board cursor also
 * carries its walk: the board's `write_seq` at the first page and when that was read). Opaque
 * to clients (the format may change); a cursor that does not decode is a 400 naming `cursor`.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const BOARD_CURSOR = new RegExp(
  `^b2\\.(\\d{1,19})\\.(\\d{1,15})\\.(\\d{1,19})\\.(-?\\d{1,20})\\.(${UUID})$`,
);
/** A cursor of the walks before issue 18 (a position only): refused as expired. */
const OLD_BOARD_CURSOR = new RegExp(`^b1\\.(\\d{1,19})\\.(-?\\d{1,20})\\.(${UUID})$`);
const ACTIVITY_CURSOR = new RegExp(`^a1\\.(-?\\d{1,20})\\.(${UUID})$`);
const MAX_BIGINT = (1n << 63n) - 1n;
/** Year 10000 in microseconds since the epoch: a later position is no row's (nor Postgres's). */
const MICROS_MAX = 253_402_300_800_000_000n;

/**
 * An instant in microseconds since the epoch, as a position names it; null when no row could
 * have it (before 1970 or after year 9999), which Postgres would refuse with an error, not a 400.
 */
export function positionMicros(text: string): bigint | null {
  const micros = BigInt(text);
  return micros >= 0n && micros < MICROS_MAX ? micros : null;
}

/** The instant a cursor names, or a 400 naming `cursor`. */
function cursorMicros(text: string): bigint {
  const micros = positionMicros(text);
  if (micros === null) throw notACursor();
  return micros;
}

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** The cursor's fields, or a 400 naming `cursor`. */
function decode(cursor: string, pattern: RegExp): string[] {
  const match = /^[A-Za-z0-9_-]{1,200}$/.test(cursor)
    ? pattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
    : null;
  if (!match) throw notACursor();
  return match.slice(1).map((field) => field ?? '');
}

function notACursor(): CoinopError {
  return new CoinopError(
    'validation_failed',
    'cursor is not a cursor this list gave: pass nextCursor back as it came',
    { details: { field: 'cursor', in: 'querystring' } },
  );
}

export function boardCursor(cursor: ContinuedWalk): string {
  const { s0, startedAtMs, position } = cursor;
  return encode(
    `b2.${s0}.${startedAtMs}.${position.rankKey}.${position.achievedAtMicros}.${position.playerId}`,
  );
}

/** The walk a board cursor continues; a cursor of the older format is refused as expired. */
export function parseBoardCursor(cursor: string): ContinuedWalk {
  if (isOldBoardCursor(cursor)) throw boardWalkExpired();
  const [s0 = '', startedAtMs = '', key = '', micros = '', playerId = ''] = decode(
    cursor,
    BOARD_CURSOR,
  );
  const rankKey = BigInt(key);
  if (rankKey > MAX_BIGINT || BigInt(s0) > MAX_BIGINT) throw notACursor();
  return {
    s0: BigInt(s0),
    startedAtMs: Number(startedAtMs),
    position: { rankKey, achievedAtMicros: cursorMicros(micros), playerId },
  };
}

function isOldBoardCursor(cursor: string): boolean {
  return (
    /^[A-Za-z0-9_-]{1,200}$/.test(cursor) &&
    OLD_BOARD_CURSOR.test(Buffer.from(cursor, 'base64url').toString('utf8'))
  );
}

export function activityCursor(position: ActivityPosition): string {
  return encode(`a1.${position.atMicros}.${position.id}`);
}

export function parseActivityCursor(cursor: string): ActivityPosition {
  const [micros = '', id = ''] = decode(cursor, ACTIVITY_CURSOR);
  return { atMicros: cursorMicros(micros), id };
}

const ROUND_CURSOR = /^r1\.(\d{1,9})$/;

/** The position after a page of a tournament's rounds (newest first): the last round's number. */
export function roundCursor(number: number): string {
  return encode(`r1.${number}`);
}

export function parseRoundCursor(cursor: string): number {
  const [number = ''] = decode(cursor, ROUND_CURSOR);
  return Number(number);
}

const REVIEW_CURSOR = new RegExp(`^q1\\.(-?\\d{1,20})\\.(${UUID})$`);

/** The position after a page of the review queue (newest first): its last item's. */
export function reviewCursor(position: QueuePosition): string {
  return encode(`q1.${position.atMicros}.${position.id}`);
}

export function parseReviewCursor(cursor: string): QueuePosition {
  const [micros = '', id = ''] = decode(cursor, REVIEW_CURSOR);
  return { atMicros: cursorMicros(micros), id };
}

const TRANSFER_CURSOR = new RegExp(`^l1\\.(\\d{1,18})\\.(${UUID})$`);

/** The position after a page of the operator's ledger transfers (newest first): its last's. */
export function transferCursor(position: TransferPosition): string {
  return encode(`l1.${position.atMicros}.${position.id}`);
}

export function parseTransferCursor(cursor: string): TransferPosition {
  const [micros = '', id = ''] = decode(cursor, TRANSFER_CURSOR);
  return { atMicros: cursorMicros(micros), id };
}
