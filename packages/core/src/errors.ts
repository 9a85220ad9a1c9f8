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

/** A play needs more HST than the player can spend; carries both amounts in base units. */
export class InsufficientFundsError extends CoinopError {
  readonly availableUnits: bigint;
  readonly requiredUnits: bigint;

  constructor(accountId: string, availableUnits: bigint, requiredUnits: bigint) {
    super(
      'insufficient_funds',
      `account ${accountId} can spend ${formatHst(availableUnits)} HST but ${formatHst(requiredUnits)} HST is required`,
      {
        details: {
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
