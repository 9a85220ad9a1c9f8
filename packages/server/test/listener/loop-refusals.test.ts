import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startExpirySweep } from '../../src/expiry-sweep.js';
import { startReleaseSweep } from '../../src/release-sweep.js';
import { DatabaseOutOfResources, StatementCancelled } from '../../src/store/errors.js';

/**
 * Operator review, finding 8: with a lock_timeout set and a table locked for 75 s, the payout
 * release sweep and the expiry sweep logged an `error` with a full stack every round, where
 * deploy.md promises one `warn` a minute at most. Refused statements are now logged like an
 * outage: one warning, then one line when a round gets through again.
 */

interface LogRecord {
  level: number;
  msg: string;
  err?: unknown;
  [field: string]: unknown;
}

const WARN = 40;
const INFO = 30;
const LOCK_TIMEOUT = 'canceling statement due to lock timeout (SQLSTATE 55P03)';

function capturedLog() {
  const records: LogRecord[] = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => records.push(JSON.parse(line) as LogRecord) },
  );
  return { log, records };
}

/** Resolves once `count` calls were made to `calls`. */
async function waitForCalls(calls: () => number, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (calls() < count) {
    if (Date.now() > deadline) throw new Error(`only ${calls()} of ${count} rounds ran`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('background loops while the database refuses statements', () => {
  it('the release sweep warns once for 20 cancelled rounds, then says it got through', async () => {
    const { log, records } = capturedLog();
    let calls = 0;
    const arcade = {
      async releaseHeldPayouts() {
        calls += 1;
        if (calls <= 20) {
          // As the store throws it, wrapped by the service once.
          throw new Error('releasing payouts failed', {
            cause: new StatementCancelled(LOCK_TIMEOUT, undefined),
          });
        }
        return 0;
      },
    };
    const stop = startReleaseSweep(arcade, log, 2);
    await waitForCalls(() => calls, 22);
    await stop();

    expect(records.filter((r) => r.level > WARN)).toEqual([]);
    const warnings = records.filter((r) => r.level === WARN);
    expect(warnings.map((r) => r.msg)).toEqual([
      `payout release sweep failed: the database cancelled a statement (${LOCK_TIMEOUT}); the ` +
        'background work (sweeps, closer) tries again each round, logged once a minute at most ' +
        'until it gets through',
    ]);
    expect(warnings[0]).toMatchObject({
      reason: `the database cancelled a statement (${LOCK_TIMEOUT})`,
    });
    expect(warnings[0]!.err).toBeUndefined();
    const recovered = records.filter((r) => r.level === INFO);
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ failedRounds: 20 });
    expect(recovered[0]!.msg).toMatch(
      /^the background work gets through again after \d+\.\d s; 20 rounds failed meanwhile$/,
    );
  });

  it('the expiry sweep, failing and succeeding in turn, warns once a minute at most', async () => {
    const { log, records } = capturedLog();
    let rounds = 0;
    const full = () => new DatabaseOutOfResources('could not extend file (SQLSTATE 53100)', null);
    const arcade = {
      async settleExpiredPlays(): Promise<number> {
        rounds += 1;
        throw full();
      },
      // The other chores get through: a lock on one table leaves the others free.
      pruneBoardMoves: async () => 0,
      flagOutlierScores: async () => 0,
    };
    const stop = startExpirySweep(arcade, log, 2);
    await waitForCalls(() => rounds, 15);
    await stop();

    expect(records.filter((r) => r.level > WARN)).toEqual([]);
    expect(records.filter((r) => r.level === WARN).map((r) => r.msg)).toEqual([
      'expiry sweep failed: the database is out of resources (could not extend file (SQLSTATE ' +
        '53100)); the background work (sweeps, closer) tries again each round, logged once a ' +
        'minute at most until it gets through',
    ]);
    expect(records.filter((r) => r.level === INFO).map((r) => r.msg)).toEqual([
      'the background work gets through again after 0.0 s; 1 round failed meanwhile',
    ]);
  });

  it('still logs any other failure in full, as a bug', async () => {
    const { log, records } = capturedLog();
    let calls = 0;
    const stop = startReleaseSweep(
      {
        async releaseHeldPayouts() {
          calls += 1;
          throw new TypeError('boom');
        },
      },
      log,
      2,
    );
    await waitForCalls(() => calls, 2);
    await stop();
    expect(records.filter((r) => r.level === 50).map((r) => r.msg)).toEqual(
      Array.from({ length: calls }, () => 'payout release sweep failed'),
    );
  });
});
