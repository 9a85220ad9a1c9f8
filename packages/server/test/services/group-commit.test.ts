import { describe, expect, it } from 'vitest';
import { GroupCommit, type BatchOutcome } from '../../src/services/group-commit.js';
import {
  DatabaseOutOfResources,
  DatabaseUnavailable,
  StatementCancelled,
} from '../../src/store/errors.js';

interface Job {
  readonly id: string;
  readonly key: string;
}

/** A group commit whose batches are recorded; `decide` answers each job of a batch. */
function recorder(
  decide: (batch: readonly Job[]) => readonly BatchOutcome<string>[] = (batch) =>
    batch.map((j) => ({ ok: true, value: `done ${j.id}` })),
  maxBatch = 64,
) {
  const batches: string[][] = [];
  const alone: string[] = [];
  const commits = new GroupCommit<Job, string>({
    maxBatch,
    key: (job) => job.key,
    commit: async (batch) => {
      batches.push(batch.map((j) => j.id));
      return decide(batch);
    },
    commitAlone: async (job) => {
      alone.push(job.id);
      if (job.id.startsWith('bad')) throw new Error(`${job.id} fails alone too`);
      return `alone ${job.id}`;
    },
  });
  return { commits, batches, alone };
}

const job = (id: string, key = id): Job => ({ id, key });

describe('group commit', () => {
  it('commits what arrives together in one batch, in arrival order, answering each', async () => {
    const { commits, batches } = recorder();
    const results = await Promise.all(['a', 'b', 'c'].map((id) => commits.submit(job(id))));
    expect(results).toEqual(['done a', 'done b', 'done c']);
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('runs the jobs that arrive during a commit in the next batch', async () => {
    const { commits, batches } = recorder();
    const first = commits.submit(job('a'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const second = [commits.submit(job('b')), commits.submit(job('c'))];
    expect(await Promise.all([first, ...second])).toEqual(['done a', 'done b', 'done c']);
    expect(batches).toEqual([['a'], ['b', 'c']]);
  });

  it('stops a batch before a repeated key and at the batch size', async () => {
    const { commits, batches } = recorder(undefined, 3);
    await Promise.all(
      [
        job('a', 'p1'),
        job('b', 'p2'),
        job('c', 'p1'),
        job('d', 'p3'),
        job('e', 'p4'),
        job('f', 'p5'),
      ].map((j) => commits.submit(j)),
    );
    expect(batches).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
  });

  it('fails a refused job alone, the rest of its batch committed', async () => {
    const { commits, alone } = recorder((batch) =>
      batch.map((j) =>
        j.id === 'b' ? { ok: false, error: new Error('b is refused') } : { ok: true, value: j.id },
      ),
    );
    const results = await Promise.allSettled(['a', 'b', 'c'].map((id) => commits.submit(job(id))));
    expect(results).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: new Error('b is refused') },
      { status: 'fulfilled', value: 'c' },
    ]);
    expect(alone).toEqual([]);
  });

  it('reruns a batch that failed as a whole one by one, so only the culprit fails', async () => {
    const { commits, batches, alone } = recorder(() => {
      throw new Error('the batch failed');
    });
    const results = await Promise.allSettled(
      ['a', 'bad', 'c'].map((id) => commits.submit(job(id))),
    );
    expect(batches).toEqual([['a', 'bad', 'c']]);
    expect(alone).toEqual(['a', 'bad', 'c']);
    expect(results).toEqual([
      { status: 'fulfilled', value: 'alone a' },
      { status: 'rejected', reason: new Error('bad fails alone too') },
      { status: 'fulfilled', value: 'alone c' },
    ]);
  });

  it('fails a batch of one with its own error, without running it again', async () => {
    const { commits, alone } = recorder(() => {
      throw new Error('the only job failed');
    });
    await expect(commits.submit(job('a'))).rejects.toThrow('the only job failed');
    expect(alone).toEqual([]);
    // The queue keeps working after a failure.
    const { commits: next } = recorder();
    expect(await next.submit(job('b'))).toBe('done b');
  });

  it('fails every job of a batch the database could not be reached for, running none alone (issue 27)', async () => {
    const unreachable = new DatabaseUnavailable('connect ECONNREFUSED 10.0.0.5:5432', undefined);
    const { commits, batches, alone } = recorder(() => {
      throw unreachable;
    });
    const results = await Promise.allSettled(['a', 'b', 'c'].map((id) => commits.submit(job(id))));
    expect(batches).toEqual([['a', 'b', 'c']]);
    // Alone, each would only wait for a connection to fail too: 256 of them, one at a time.
    expect(alone).toEqual([]);
    expect(results).toEqual(
      ['a', 'b', 'c'].map(() => ({ status: 'rejected', reason: unreachable })),
    );
  });

  it.each([
    [
      'cancelled by a timeout',
      new StatementCancelled('canceling statement due to lock timeout (SQLSTATE 55P03)', undefined),
    ],
    [
      'out of resources',
      new DatabaseOutOfResources('could not extend file (SQLSTATE 53100)', undefined),
    ],
  ])(
    'fails every job of a batch the database refused as %s, running none alone',
    async (_, refusal) => {
      const { commits, batches, alone } = recorder(() => {
        throw new Error('the batch failed', { cause: refusal });
      });
      const results = await Promise.allSettled(
        ['a', 'b', 'c'].map((id) => commits.submit(job(id))),
      );
      expect(batches).toEqual([['a', 'b', 'c']]);
      // Alone, each would wait out the same timeout (or lack) again, one after the other.
      expect(alone).toEqual([]);
      expect(results.map((r) => r.status === 'rejected' && r.reason.cause)).toEqual([
        refusal,
        refusal,
        refusal,
      ]);
    },
  );

  it('rejects a job its batch gave no answer', async () => {
    const { commits } = recorder((batch) =>
      batch.slice(0, 1).map((j) => ({ ok: true, value: j.id })),
    );
    const results = await Promise.allSettled(['a', 'b'].map((id) => commits.submit(job(id))));
    expect(results).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: new TypeError('the batch gave this job no answer') },
    ]);
  });

  describe('with batches in flight at once', () => {
    /** Batches that commit only when `finish(i)` is called, recorded as they start. */
    function held(maxInFlight: number) {
      const started: string[][] = [];
      const finishers: (() => void)[] = [];
      const commits = new GroupCommit<Job, string>({
        maxBatch: 64,
        maxInFlight,
        key: (j) => j.key,
        commit: async (batch) => {
          started.push(batch.map((j) => j.id));
          await new Promise<void>((resolve) => finishers.push(resolve));
          return batch.map((j) => ({ ok: true, value: j.id }));
        },
        commitAlone: async (j) => j.id,
      });
      // A few turns of the event loop: a batch that ends starts the next one in a later turn.
      const turn = async () => {
        for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      };
      return { commits, started, finish: (i: number) => finishers[i]?.(), turn };
    }

    it('starts the next batch while one commits, up to maxInFlight', async () => {
      const { commits, started, finish, turn } = held(2);
      const a = commits.submit(job('a'));
      await turn();
      const b = commits.submit(job('b'));
      await turn();
      const c = commits.submit(job('c'));
      await turn();
      // Two batches in flight; c waits for a slot.
      expect(started).toEqual([['a'], ['b']]);
      finish(1);
      expect(await b).toBe('b');
      await turn();
      expect(started).toEqual([['a'], ['b'], ['c']]);
      finish(0);
      finish(2);
      expect(await Promise.all([a, c])).toEqual(['a', 'c']);
    });

    it('holds a job whose key is in flight until that batch commits', async () => {
      const { commits, started, finish, turn } = held(3);
      const first = commits.submit(job('a', 'p1'));
      await turn();
      const second = commits.submit(job('b', 'p1'));
      const other = commits.submit(job('c', 'p2'));
      await turn();
      await turn();
      // b shares a's key: it neither joins a batch nor lets c overtake it.
      expect(started).toEqual([['a']]);
      finish(0);
      expect(await first).toBe('a');
      await turn();
      expect(started).toEqual([['a'], ['b', 'c']]);
      finish(1);
      expect(await Promise.all([second, other])).toEqual(['b', 'c']);
    });

    it('keeps one batch at a time by default', async () => {
      const { commits, started, finish, turn } = held(1);
      const a = commits.submit(job('a'));
      await turn();
      const b = commits.submit(job('b'));
      await turn();
      await turn();
      expect(started).toEqual([['a']]);
      finish(0);
      await a;
      await turn();
      expect(started).toEqual([['a'], ['b']]);
      finish(1);
      expect(await b).toBe('b');
    });
  });
});
