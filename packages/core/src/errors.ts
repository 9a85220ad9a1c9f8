import type { ErrorCode } from '@coinop/protocol';

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
      `account ${accountId} can spend ${formatUnits(availableUnits)} HST but ${formatUnits(requiredUnits)} HST is required`,
      {
        details: {
          accountId,
          available: formatUnits(availableUnits),
          required: formatUnits(requiredUnits),
        },
      },
    );
    this.availableUnits = availableUnits;
    this.requiredUnits = requiredUnits;
  }
}

// Local to avoid a cycle with money.ts, which throws CoinopError.
function formatUnits(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const whole = abs / 100_000_000n;
  const frac = (abs % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}
