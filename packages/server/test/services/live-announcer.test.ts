import { describe, expect, it } from 'vitest';
import { LiveAnnouncer } from '../../src/services/live-announcer.js';
import type { Queryable } from '../../src/store/db.js';

/**
 * The score path's announcer (issue 32): batches finishing close together share one NOTIFY, and
 * nothing touched is ever left unannounced.
 */

/** A database that records each NOTIFY's payload; `hold` keeps the next one in flight. */
function recordingDb() {
  const payloads: string[] = [];
  let release: (() => void) | null = null;
  let holding = false;
  const db: Queryable = {
    query: async <Row>(sql: string, params?: unknown[]): Promise<Row[]> => {
      expect(sql).toBe('SELECT pg_notify($1, $2)');
      payloads.push(String(params?.[1]));
      if (holding) {
        holding = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return [];
    },
  };
  return {
    db,
    payloads,
    hold: () => (holding = true),
    release: () => release?.(),
  };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LiveAnnouncer', () => {
  it('sends what batches touch within the gathering time as one notice', async () => {
    const { db, payloads } = recordingDb();
    const announcer = new LiveAnnouncer(db);
    announcer.touched(['board-1'], ['acct-1']);
    await later(5);
    announcer.touched(['board-1'], ['acct-2']);
    await later(5);
    announcer.touched(['board-2'], []);
    await announcer.settled();
    expect(payloads).toEqual(['b:board-1,board-2;a:acct-1,acct-2']);
  });

  it('sends what is touched while a notice is in flight in the next one', async () => {
    const { db, payloads, hold, release } = recordingDb();
    const announcer = new LiveAnnouncer(db);
    hold();
    announcer.touched(['board-1'], ['acct-1']);
    while (payloads.length === 0) await later(2);
    announcer.touched(['board-3'], ['acct-3']);
    release();
    await announcer.settled();
    expect(payloads).toEqual(['b:board-1;a:acct-1', 'b:board-3;a:acct-3']);
  });

  it('hands notices to local streams without a statement', async () => {
    const { db, payloads } = recordingDb();
    const announcer = new LiveAnnouncer(db);
    const delivered: unknown[] = [];
    announcer.deliverLocally((notice) => delivered.push(notice));
    announcer.touched(['board-1'], ['acct-1']);
    announcer.touched([], ['acct-2']);
    await announcer.settled();
    expect(payloads).toEqual([]);
    expect(delivered).toEqual([{ boards: ['board-1'], accounts: ['acct-1', 'acct-2'] }]);
  });
});
