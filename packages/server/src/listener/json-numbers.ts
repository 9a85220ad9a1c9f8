import type { FastifyInstance } from 'fastify';
import { CoinopError } from '@coinop/core';

/**
 * JSON bodies whose numbers all mean what they say. A number literal with more digits than a
 * double holds (`1.0000000000000000000001`) would be rounded by JSON.parse before any schema or
 * rule saw it — a mint of "1.0000000000000000000001 HST" became 1 HST — so such a body is
 * refused with `400 validation_failed`, quoting the number. JavaScript clients never send one:
 * JSON.stringify writes every number in its shortest exact form. Amounts that need every digit
 * go as decimal strings.
 */
export function refuseRoundedNumbers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const rounded = firstRoundedNumber(text);
    if (rounded !== null) {
      done(
        new CoinopError(
          'validation_failed',
          `the body's number ${rounded} has more digits than a number holds, and would be ` +
            'rounded; send amounts as decimal strings',
          { details: { in: 'body', number: rounded } },
        ),
        undefined,
      );
      return;
    }
    parseJson(request, text, done);
  });
}

/** The first number literal outside strings whose value a double cannot hold exactly, or null. */
export function firstRoundedNumber(json: string): string | null {
  let i = 0;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i += 1;
      while (i < json.length && json.charCodeAt(i) !== 0x22)
        i += json.charCodeAt(i) === 0x5c ? 2 : 1;
      i += 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      while (i < json.length && /[-+.eE0-9]/.test(json[i] ?? '')) i += 1;
      const token = json.slice(start, i);
      if (!holdsExactly(token)) return token;
    } else {
      i += 1;
    }
  }
  return null;
}

/** Whether the literal's decimal value is the double's own: the same digits at the same place. */
function holdsExactly(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value)) return Number.isNaN(value); // not a number at all: JSON.parse says
  const written = decimal(token);
  const held = decimal(String(value));
  return (
    written === null ||
    held === null ||
    (written.digits === held.digits && written.exponent === held.exponent)
  );
}

/** A literal as significant digits and the power of ten of its last digit; null if not one. */
function decimal(text: string): { digits: string; exponent: number } | null {
  const match = /^-?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let exponent = Number(match[3] ?? 0) - fraction.length;
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return digits === '' ? { digits: '0', exponent: 0 } : { digits, exponent };
}
