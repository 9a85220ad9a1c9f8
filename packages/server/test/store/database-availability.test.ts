import { describe, expect, it } from 'vitest';
import {
  DatabaseAvailability,
  type AvailabilityWatcher,
  type OutageSummary,
} from '../../src/store/availability.js';
import { DatabaseUnavailable, databaseUnavailableIn } from '../../src/store/errors.js';
import { pgliteDb, startPglite } from '../../src/store/pglite.js';
import { openTestDb } from '@coinop/testkit/db';
import { within } from '@coinop/testkit/poll';

/** What a watcher was told, in order. */
function recording(): { events: string[]; summaries: OutageSummary[] } & AvailabilityWatcher {
  const events: string[] = [];
  const summaries: OutageSummary[] = [];
  return {
    events,
    summaries,
    unavailable: (reason) => events.push(`unavailable: ${reason}`),
    available: (summary) => {
      events.push('available');
      summaries.push(summary);
    },
  };
}

const down = (reason = 'connect ECONNREFUSED 10.0.0.5:5432') =>
  new DatabaseUnavailable(reason, undefined);

describe('database availability (issue 27)', () => {
  it('is one outage however many calls fail, and ends with the first call that succeeds', () => {
    const availability = new DatabaseAvailability(() => new Promise(() => undefined));
    const watcher = recording();
    availability.watch(watcher);
    availability.succeeded();
    expect(watcher.events).toEqual([]);
    availability.failed(down());
    availability.failed(down('read ECONNRESET'));
    availability.refused();
    availability.refused();
    availability.failed(down());
    expect(availability.isUnavailable).toBe(true);
    expect(watcher.events).toEqual(['unavailable: connect ECONNREFUSED 10.0.0.5:5432']);
    availability.succeeded();
    availability.succeeded();
    expect(availability.isUnavailable).toBe(false);
    expect(watcher.events).toEqual([
      'unavailable: connect ECONNREFUSED 10.0.0.5:5432',
      'available',
    ]);
    expect(watcher.summaries).toEqual([
      {
        reason: 'connect ECONNREFUSED 10.0.0.5:5432',
        seconds: expect.any(Number),
        refusedRequests: 2,
      },
    ]);
    // A request refused after the outage ended belongs to none; the next outage counts afresh.
    availability.refused();
    availability.failed(down('read ECONNRESET'));
    availability.refused();
    availability.succeeded();
    expect(watcher.events.slice(2)).toEqual(['unavailable: read ECONNRESET', 'available']);
    expect(watcher.summaries[1]?.refusedRequests).toBe(1);
    availability.close();
  });

  it('probes a database that stopped answering until it answers, even when nothing else asks', async () => {
    let answers = false;
    let probes = 0;
    const availability = new DatabaseAvailability(async () => {
      probes += 1;
      if (!answers) throw down();
    }, 10);
    const watcher = recording();
    availability.watch(watcher);
    availability.failed(down());
    await within(2_000, async () => probes >= 3);
    expect(availability.isUnavailable).toBe(true);
    answers = true;
    await within(2_000, async () => !availability.isUnavailable);
    expect(watcher.events).toEqual([
      'unavailable: connect ECONNREFUSED 10.0.0.5:5432',
      'available',
    ]);
    // No probe once it answers.
    const probed = probes;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(probes).toBe(probed);
    availability.close();
  });

  it('tells a watcher that comes during an outage at once, and nobody after the Db closes', () => {
    const availability = new DatabaseAvailability(() => new Promise(() => undefined));
    availability.failed(down());
    const late = recording();
    const stop = availability.watch(late);
    expect(late.events).toEqual(['unavailable: connect ECONNREFUSED 10.0.0.5:5432']);
    stop();
    availability.succeeded();
    expect(late.events).toHaveLength(1);

    const watcher = recording();
    availability.watch(watcher);
    availability.close();
    // The process stopping: calls that meet the closed database are no outage to report.
    availability.failed(down('the database is closed'));
    expect(watcher.events).toEqual([]);
  });

  it('finds the DatabaseUnavailable behind a service that wrapped it', () => {
    const unreachable = down();
    expect(databaseUnavailableIn(unreachable)).toBe(unreachable);
    const wrapped = new Error('opening the play failed', {
      cause: new Error('batch', { cause: unreachable }),
    });
    expect(databaseUnavailableIn(wrapped)).toBe(unreachable);
    expect(databaseUnavailableIn(new Error('a bug'))).toBe(null);
    expect(databaseUnavailableIn('ECONNREFUSED')).toBe(null);
  });
});

describe('a database lost under a store (issue 27)', () => {
  it.runIf(process.env['DATABASE_URL'])(
    'postgres: a backend terminated mid-transaction fails the call with DatabaseUnavailable (57P01), and the next call ends the outage',
    async () => {
      const db = await openTestDb('postgres');
      const watcher = recording();
      db.availability.watch(watcher);
      try {
        const failed = await db
          .transaction(async (tx) => {
            const [own] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            await db.query('SELECT pg_terminate_backend($1)', [own?.pid]);
            await tx.query('SELECT 1');
          })
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(failed).toBeInstanceOf(DatabaseUnavailable);
        expect((failed as DatabaseUnavailable).reason).toMatch(
          // Which one depends on whether the client sees the server's notice or its socket close
          // first; node-postgres then refuses the client's next query with the third.
          /^terminating connection due to administrator command \(SQLSTATE 57P01\)$|^Connection terminated unexpectedly$|^Client has encountered a connection error and is not queryable$/,
        );
        expect(watcher.events).toEqual([`unavailable: ${(failed as DatabaseUnavailable).reason}`]);
        // The pool drops the lost connection; the next call gets a new one.
        expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
        expect(watcher.events.at(-1)).toBe('available');
      } finally {
        await db.close();
      }
    },
  );

  it('pglite: a closed embedded database fails every call with DatabaseUnavailable, and stays unavailable', async () => {
    const pg = await startPglite(undefined);
    const db = pgliteDb(pg);
    const watcher = recording();
    db.availability.watch(watcher);
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await pg.close();
    const calls = [
      () => db.query('SELECT 1'),
      () => db.query('SELECT $1::int AS n', [1], 'named_statement'),
      () => db.ordered.query('SELECT 1', [], 'ordered_statement'),
      () => db.transaction((tx) => tx.query('SELECT 1')),
    ];
    for (const call of calls) {
      const failed = await call().then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(DatabaseUnavailable);
      expect((failed as DatabaseUnavailable).reason).toBe(
        'the embedded database is closed; restart coinop',
      );
    }
    expect(watcher.events).toEqual([
      'unavailable: the embedded database is closed; restart coinop',
    ]);
    expect(db.availability.isUnavailable).toBe(true);
    // Closing the Db after its instance stopped: nothing left to close, nothing to report.
    await db.close();
    expect(watcher.events).toHaveLength(1);
  });
});
