import type { Allowance, AllowanceList, AllowanceRequest } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import type { Session } from '../session/session.js';

/**
 * A player's daily allowances (`/api/player/allowances`, docs/concepts/consent.md): what each
 * game's server may lock from the player per UTC day, before publication too. Amounts are HST, as
 * exact decimal strings: read into base units (`hstUnits`) and written back by the protocol's
 * formatter.
 */

type Call = Session['call'];

const one = (gameId: string) => `/player/allowances/${encodeURIComponent(gameId)}`;

/** A typed client over the session's `call`, so every request carries the player's token. */
export function allowancesApi(call: Call) {
  return {
    list: () => call<AllowanceList>('/player/allowances'),
    get: (gameId: string) => call<Allowance>(one(gameId)),
    /** `dailyLimit` as the player typed it: a decimal string keeps every digit. */
    set: (gameId: string, dailyLimit: string) =>
      call<Allowance>(one(gameId), { dailyLimit } satisfies AllowanceRequest, 'PUT'),
    revoke: (gameId: string) => call<Allowance>(one(gameId), undefined, 'DELETE'),
  };
}

/** A decimal HST amount the arcade accepts: digits, then at most 8 decimals. */
export const HST_AMOUNT = /^\d+(\.\d{1,8})?$/;

/** Whether a daily limit allows nothing (`"0"`: none yet, or revoked); null is unlimited. */
export function allowsNothing(dailyLimit: string | null): boolean {
  return dailyLimit !== null && hstUnits(dailyLimit) === 0n;
}

/** One sentence on what the game may charge, as the player would say it. */
export function describeAllowance(allowance: Allowance): string {
  const { dailyLimit, source } = allowance;
  if (dailyLimit === null) {
    return 'This game may charge you without a daily limit (the arcade’s default).';
  }
  if (allowsNothing(dailyLimit)) {
    return source === 'player'
      ? 'You revoked this game’s allowance: its server cannot charge you.'
      : 'No allowance yet — server-side plays of this game need your consent.';
  }
  const by = source === 'default' ? ' (arcade default)' : '';
  return `This game may charge you up to ${formatHstUnits(hstUnits(dailyLimit))} a day${by}.`;
}
