import { formatHst, type ErrorCode } from '@coinop/protocol';

/** The one error class the domain throws: a stable code, a message naming the field or id. */
export class CoinopError extends Error {
  override readonly name = 'CoinopError';
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

/**
 * A play needs more HST than the player can spend; carries both amounts in base units. The
 * message names the player by `playerId` when the caller knows them by it (a game server's play),
 * else the account; the amounts are formatted from base units exactly.
 */
export class InsufficientFundsError extends CoinopError {
  readonly availableUnits: bigint;
  readonly requiredUnits: bigint;

  constructor(
    accountId: string,
    availableUnits: bigint,
    requiredUnits: bigint,
    holder: { playerId?: string | undefined } = {},
  ) {
    const { playerId } = holder;
    const who = playerId === undefined ? `account ${accountId}` : `player ${playerId}`;
    super(
      'insufficient_funds',
      `${who} can spend ${formatHst(availableUnits)} HST but ${formatHst(requiredUnits)} HST is required`,
      {
        details: {
          ...(playerId === undefined ? {} : { playerId }),
          accountId,
          available: formatHst(availableUnits),
          required: formatHst(requiredUnits),
        },
      },
    );
    this.availableUnits = availableUnits;
    this.requiredUnits = requiredUnits;
  }
}
