import { CoinopError } from '../errors.js';
import { formatHst, parseHst, wholeHstToUnits, type Units } from '../money.js';

/**
 * Who a game may charge, and how much (docs/concepts/consent.md): the grants of grants.ts, applied
 * to one charge. The statement that opens a play applies the same rule atomically
 * (store/open-plays.ts); this is the rule itself, for reads and for explaining a refusal.
 */

/** What deciding one charge needs to know about the game, the player and today's spending. */
export interface ConsentFacts {
  /** The operator suspended the game: it charges no one. */
  readonly suspended: boolean;
  /** The operator published the game to the catalog. */
  readonly published: boolean;
  /**
   * The player's wallet is the game developer's own, or a tester who accepted the developer's
   * invitation (an invitation alone is not consent: grants.ts).
   */
  readonly insider: boolean;
  /** The player's own daily allowance for the game (0 once revoked); null: none chosen. */
  readonly dailyUnits: Units | null;
  /** What the game's plays locked from the player today (UTC). */
  readonly spentTodayUnits: Units;
}

/** The arcade operator's allowance for players who chose none; null means unlimited. */
export type DefaultAllowance = Units | null;

export type ChargeVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'suspended' | 'not_tester' }
  | {
      readonly ok: false;
      readonly reason: 'allowance';
      readonly limitUnits: Units;
      readonly spentTodayUnits: Units;
    };

/** The daily limit in force for the player: their own choice, else the operator's default. */
export function dailyLimit(facts: ConsentFacts, defaultAllowance: DefaultAllowance): Units | null {
  return facts.dailyUnits ?? defaultAllowance;
}

/** Whether the game is open to the player at all: published, or the player one of its insiders. */
export function gameReaches(facts: ConsentFacts): boolean {
  return facts.published || facts.insider;
}

/**
 * Whether the player may see their allowance for the game, or set it to `dailyUnits`: always
 * for a game that reaches them (`gameReaches`). For one that no longer does (unpublished since,
 * or they were removed from its testers) only an allowance they already hold, which they may
 * always see, lower or revoke: what they gave must never be out of their reach while it could
 * charge them again once the game is published. Raising it waits until the game reaches them.
 */
export function allowanceWithinReach(facts: ConsentFacts, dailyUnits?: Units): boolean {
  if (gameReaches(facts)) return true;
  if (facts.dailyUnits === null) return false;
  return dailyUnits === undefined || dailyUnits <= facts.dailyUnits;
}

/**
 * Whether the game may lock `costUnits` from the player now. A suspended game charges no one. An
 * unpublished game reaches only insiders (its developer and accepted testers). Every game charges
 * within the player's daily allowance, published or not: accepting an invitation says what a
 * tester allows a day, and the developer may raise prices after it. A play the player approved
 * with a wallet signature (`signed`) carries its own consent and is not counted against it.
 */
export function chargeVerdict(
  facts: ConsentFacts,
  costUnits: Units,
  defaultAllowance: DefaultAllowance,
  options: { readonly signed: boolean } = { signed: false },
): ChargeVerdict {
  if (facts.suspended) return { ok: false, reason: 'suspended' };
  if (!gameReaches(facts)) return { ok: false, reason: 'not_tester' };
  if (options.signed) return { ok: true };
  const limit = dailyLimit(facts, defaultAllowance);
  if (limit === null || facts.spentTodayUnits + costUnits <= limit) return { ok: true };
  return {
    ok: false,
    reason: 'allowance',
    limitUnits: limit,
    spentTodayUnits: facts.spentTodayUnits,
  };
}

/** The UTC calendar day of `now` as YYYY-MM-DD: the period an allowance counts. */
export function allowanceDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The error a refused charge answers with, naming the game, the player and where to consent. */
export function chargeRefusal(
  verdict: Exclude<ChargeVerdict, { ok: true }>,
  charge: {
    readonly gameId: string;
    readonly playerId: string;
    readonly costUnits: Units;
    readonly grantUrl: string;
  },
): CoinopError {
  const { gameId, playerId } = charge;
  switch (verdict.reason) {
    case 'suspended':
      return new CoinopError(
        'game_suspended',
        `game ${gameId} is suspended by the arcade operator and takes no plays or payments`,
        { details: { gameId } },
      );
    case 'not_tester':
      return new CoinopError(
        'player_not_tester',
        `game ${gameId} is not published: it may charge only its developer and the testers who ` +
          `accepted the developer's invitation, and player ${playerId} is neither`,
        { details: { gameId, playerId, field: 'playerId' } },
      );
    case 'allowance':
      return new CoinopError(
        'consent_required',
        verdict.limitUnits === 0n
          ? `player ${playerId} has not allowed game ${gameId} to charge them; they can at ${charge.grantUrl}`
          : `player ${playerId} allows game ${gameId} ${formatHst(verdict.limitUnits)} HST a day ` +
              `and ${formatHst(verdict.spentTodayUnits)} HST are spent today; this play costs ` +
              `${formatHst(charge.costUnits)} HST. They can raise it at ${charge.grantUrl}`,
        {
          details: {
            gameId,
            playerId,
            grantUrl: charge.grantUrl,
            dailyLimit: formatHst(verdict.limitUnits),
            spentToday: formatHst(verdict.spentTodayUnits),
            cost: formatHst(charge.costUnits),
          },
        },
      );
  }
}

/** The largest daily allowance a player may grant: far above any sane day of plays. */
export const MAX_DAILY_ALLOWANCE_HST = 1_000_000_000;

/**
 * A daily allowance a player typed (HST, a number or a decimal string; 0 revokes), in base
 * units; `invalid_amount` naming `field` for anything else or anything above the maximum.
 */
export function parseDailyLimit(value: unknown, field: string): Units {
  const units = parseHst(value, field);
  if (units > wholeHstToUnits(MAX_DAILY_ALLOWANCE_HST)) {
    throw new CoinopError(
      'invalid_amount',
      `${field} must be at most ${MAX_DAILY_ALLOWANCE_HST} HST`,
      { details: { field } },
    );
  }
  return units;
}
