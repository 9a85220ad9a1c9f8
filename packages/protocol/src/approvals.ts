/**
 * Wallet approvals of client-side play (spec 4.10: "the user signs a message with the wallet").
 * When a game in the arcade's iframe asks for a play, a score or a payment, the arcade web app
 * has the player's wallet sign one of these messages (EIP-191 `personal_sign`) and sends the
 * signature with the request; the API rebuilds the same text from the request's fields, checks
 * that the player's wallet signed it, and keeps it as the record of who approved what. Both sides
 * build the text here, so they cannot drift apart. Amounts are base units, written by `formatHst`:
 * what the wallet signs is to the unit what is locked or paid.
 */

import { formatHst } from './money.js';

/**
 * What a player approves: locking a tier's cost for a play, a score for a play, or a payment to
 * the game's developer (`hstTransfer`).
 *
 * @example
 * ```ts
 * import type { ApprovalKind } from '@coinop/protocol';
 * const kind: ApprovalKind = 'score';
 * ```
 */
export type ApprovalKind = 'play' | 'score' | 'purchase';

/**
 * The fields of an approval message. `nonce` is the client's fresh id for this one approval: a
 * signature counts once, and a retry with the same nonce repeats the first result. Amounts are
 * base units (bigint), never a number of HST.
 *
 * @example
 * ```ts
 * import type { ApprovalFields } from '@coinop/protocol';
 * const fields: ApprovalFields = {
 *   kind: 'purchase', gameId: 'g1', gameName: 'Reaction', amountUnits: 150_000_000n,
 *   nonce: 'n-1',
 * };
 * ```
 */
export type ApprovalFields =
  | {
      kind: 'play';
      gameId: string;
      gameName: string;
      leaderboardId: string;
      tierName: string;
      /** Base units the play locks: the tier's cost or the round's entry fee. */
      costUnits: bigint;
      nonce: string;
    }
  | {
      kind: 'score';
      gameId: string;
      gameName: string;
      playId: string;
      score: number;
      nonce: string;
    }
  | {
      kind: 'purchase';
      gameId: string;
      gameName: string;
      /** Base units paid to the game's developer. */
      amountUnits: bigint;
      nonce: string;
    };

/** Longest nonce either side accepts. */
export const APPROVAL_NONCE_MAX_LENGTH = 64;

/**
 * The exact text a wallet signs for an approval: a headline a person understands, then one
 * field per line. Names are there for the person; ids are what the arcade checks. An amount is
 * `formatHst` of its base units (`Lock: 0.00000007 HST`, `Pay: 1.5 HST`).
 *
 * @example
 * ```ts
 * import { approvalMessage } from '@coinop/protocol';
 * approvalMessage({ kind: 'score', gameId: 'g1', gameName: 'Reaction', playId: 'p1',
 *   score: 231, nonce: 'n-2' });
 * // "coinop arcade: submit a score\nGame: Reaction (g1)\nPlay: p1\nScore: 231\nNonce: n-2"
 * approvalMessage({ kind: 'purchase', gameId: 'g1', gameName: 'Reaction',
 *   amountUnits: 7n, nonce: 'n-3' });
 * // "coinop arcade: pay the game's developer\nGame: Reaction (g1)\nPay: 0.00000007 HST\nNonce: n-3"
 * ```
 */
export function approvalMessage(fields: ApprovalFields): string {
  const game = `Game: ${oneLine(fields.gameName)} (${fields.gameId})`;
  switch (fields.kind) {
    case 'play':
      return [
        'coinop arcade: lock HST for a play',
        game,
        `Tier: ${oneLine(fields.tierName)} (${fields.leaderboardId})`,
        `Lock: ${formatHst(fields.costUnits)} HST`,
        `Nonce: ${fields.nonce}`,
      ].join('\n');
    case 'score':
      return [
        'coinop arcade: submit a score',
        game,
        `Play: ${fields.playId}`,
        `Score: ${fields.score}`,
        `Nonce: ${fields.nonce}`,
      ].join('\n');
    case 'purchase':
      return [
        "coinop arcade: pay the game's developer",
        game,
        `Pay: ${formatHst(fields.amountUnits)} HST`,
        `Nonce: ${fields.nonce}`,
      ].join('\n');
  }
}

/** A name cannot add lines that would look like fields of the message. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}
