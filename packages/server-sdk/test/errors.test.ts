import { describe, expect, it } from 'vitest';
import { ArcadeApiError, isArcadeError } from '@coinop/server-sdk';
import { apiErrorFrom } from '../src/errors.js';

const problem = (code: string, message: string, details?: object) =>
  JSON.stringify({ type: `https://coinop.dev/errors/${code}`, status: 0, code, message, details });

describe('apiErrorFrom', () => {
  it.each([
    {
      name: "coinop's problem body, as is",
      status: 409,
      body: problem('play_already_scored', 'play p was scored', { playId: 'p' }),
      want: { code: 'play_already_scored', message: 'play p was scored', details: { playId: 'p' } },
    },
    {
      name: 'a code newer than the SDK: a code from the status, the new one in details',
      status: 400,
      body: problem('brand_new_code', 'field x is odd'),
      want: {
        code: 'validation_failed',
        message: 'field x is odd',
        details: { code: 'brand_new_code' },
      },
    },
    {
      name: "a proxy's page: a code from the status, an excerpt of the page in details",
      status: 502,
      body: '<html>Bad Gateway</html>',
      want: {
        code: 'service_unavailable',
        message: 'GET /x answered 502 without a coinop error body',
        details: { body: '<html>Bad Gateway</html>' },
      },
    },
    {
      name: 'an empty body of an unusual status',
      status: 418,
      body: '',
      want: {
        code: 'internal_error',
        message: 'GET /x answered 418 without a coinop error body',
        details: {},
      },
    },
    {
      name: 'a rate limit whose body is not a problem',
      status: 429,
      body: '[]',
      want: {
        code: 'rate_limited',
        message: 'GET /x answered 429 without a coinop error body',
        details: { body: '[]' },
      },
    },
  ])('$name', ({ status, body, want }) => {
    const error = apiErrorFrom(status, body, 'GET /x');
    expect(error).toBeInstanceOf(ArcadeApiError);
    expect(isArcadeError(error)).toBe(true);
    expect({ code: error.code, message: error.message, details: error.details }).toEqual(want);
    expect(error.status).toBe(status);
  });
});
