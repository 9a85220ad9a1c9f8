import { describe, expect, it } from 'vitest';
import {
  cancelledReason,
  outOfResourcesReason,
  unreachableReason,
} from '../../src/store/postgres-errors.js';

/** An error as node-postgres or Node gives it: a message and the fields they set. */
const error = (message: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), fields);

describe('which node-postgres errors mean the database cannot be reached (issue 27)', () => {
  it.each([
    [
      'a refused connection',
      error('connect ECONNREFUSED 10.0.0.5:5432', { code: 'ECONNREFUSED', syscall: 'connect' }),
      'connect ECONNREFUSED 10.0.0.5:5432',
    ],
    [
      'a reset connection',
      error('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }),
      'read ECONNRESET',
    ],
    [
      'a write to a closed socket',
      error('write EPIPE', { code: 'EPIPE', syscall: 'write' }),
      'write EPIPE',
    ],
    [
      'a connect that timed out in the kernel',
      error('connect ETIMEDOUT 10.0.0.5:5432', { code: 'ETIMEDOUT' }),
      'connect ETIMEDOUT 10.0.0.5:5432',
    ],
    [
      'no route to the host',
      error('connect EHOSTUNREACH 10.0.0.5:5432', { code: 'EHOSTUNREACH' }),
      'connect EHOSTUNREACH 10.0.0.5:5432',
    ],
    [
      'a name that does not resolve now',
      error('getaddrinfo EAI_AGAIN db.internal', { code: 'EAI_AGAIN' }),
      'getaddrinfo EAI_AGAIN db.internal',
    ],
    [
      'a Unix socket that is gone',
      error('connect ENOENT /run/postgresql/.s.PGSQL.5432', { code: 'ENOENT', syscall: 'connect' }),
      'connect ENOENT /run/postgresql/.s.PGSQL.5432',
    ],
    [
      'a connection lost mid-query',
      error('Connection terminated unexpectedly'),
      'Connection terminated unexpectedly',
    ],
    [
      "a new connection's time limit",
      error('Connection terminated due to connection timeout'),
      'Connection terminated due to connection timeout',
    ],
    [
      'a client whose connection failed',
      error('Client has encountered a connection error and is not queryable'),
      'Client has encountered a connection error and is not queryable',
    ],
    [
      'a pool already closed',
      error('Cannot use a pool after calling end on the pool'),
      'Cannot use a pool after calling end on the pool',
    ],
    [
      'an administrator shutting the server down',
      error('terminating connection due to administrator command', { code: '57P01' }),
      'terminating connection due to administrator command (SQLSTATE 57P01)',
    ],
    [
      'a server that crashed',
      error('terminating connection because of crash of another server process', { code: '57P02' }),
      'terminating connection because of crash of another server process (SQLSTATE 57P02)',
    ],
    [
      'a server still starting',
      error('the database system is starting up', { code: '57P03' }),
      'the database system is starting up (SQLSTATE 57P03)',
    ],
    [
      'a server with no slot left',
      error('sorry, too many clients already', { code: '53300' }),
      'sorry, too many clients already (SQLSTATE 53300)',
    ],
    [
      'a connection exception',
      error('connection failure', { code: '08006' }),
      'connection failure (SQLSTATE 08006)',
    ],
    [
      'every address of a name refused',
      Object.assign(
        new AggregateError(
          [
            error('connect ECONNREFUSED ::1:5432', { code: 'ECONNREFUSED' }),
            error('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }),
          ],
          '',
        ),
        { code: 'ECONNREFUSED' },
      ),
      'ECONNREFUSED',
    ],
  ])('%s', (_what, given, reason) => {
    expect(unreachableReason(given)).toBe(reason);
  });

  it.each([
    [
      'a unique violation',
      error('duplicate key value violates unique constraint "plays_pkey"', { code: '23505' }),
    ],
    ['a check violation', error('new row violates check constraint', { code: '23514' })],
    ['a serialization failure', error('could not serialize access', { code: '40001' })],
    ['a deadlock', error('deadlock detected', { code: '40P01' })],
    [
      'a wrong password',
      error('password authentication failed for user "coinop"', { code: '28P01' }),
    ],
    [
      'a statement cancelled by its timeout',
      error('canceling statement due to statement timeout', { code: '57014' }),
    ],
    ['a disk that is full', error('could not extend file', { code: '53100' })],
    ['a syntax error', error('syntax error at or near "SELEC"', { code: '42601' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error at all', 'connection refused'],
  ])('not %s', (_what, given) => {
    expect(unreachableReason(given)).toBe(null);
  });
});

describe('which database errors mean it lacks a resource', () => {
  it.each([
    ['a full disk', '53100', 'could not extend file: No space left on device'],
    ['no memory left', '53200', 'out of memory'],
    ['a configured limit', '53400', 'temp file size exceeds temp_file_limit'],
  ])('%s (%s) is a lack, with its SQLSTATE', (_what, code, message) => {
    expect(outOfResourcesReason(error(message, { code }))).toBe(`${message} (SQLSTATE ${code})`);
    expect(unreachableReason(error(message, { code }))).toBeNull();
  });

  it.each([
    ['no connection slot left, an outage instead', '53300'],
    ['a unique violation', '23505'],
    ['a serialization failure', '40001'],
    ['a network error', 'ECONNRESET'],
  ])('%s is not', (_what, code) => {
    expect(outOfResourcesReason(error('refused', { code }))).toBeNull();
  });
});

describe('which database errors mean it cancelled the statement', () => {
  it.each([
    ['a statement_timeout', '57014', 'canceling statement due to statement timeout'],
    ['a cancel by hand', '57014', 'canceling statement due to user request'],
    ['a lock_timeout', '55P03', 'canceling statement due to lock timeout'],
  ])('%s (%s) is a cancel, with its SQLSTATE', (_what, code, message) => {
    expect(cancelledReason(error(message, { code }))).toBe(`${message} (SQLSTATE ${code})`);
    expect(unreachableReason(error(message, { code }))).toBeNull();
    expect(outOfResourcesReason(error(message, { code }))).toBeNull();
  });

  it.each([
    ['an admin shutdown, an outage instead', '57P01'],
    ['a deadlock, retried by the transaction', '40P01'],
    ['a unique violation', '23505'],
    ['a network error', 'ETIMEDOUT'],
  ])('%s is not', (_what, code) => {
    expect(cancelledReason(error('refused', { code }))).toBeNull();
  });
});
