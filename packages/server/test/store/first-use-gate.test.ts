import { describe, expect, it } from 'vitest';
import { FirstUseGate } from '../../src/store/first-use-gate.js';

/** A statement sent when called, answered when the test says: `sent` records the order. */
function statements() {
  const sent: string[] = [];
  const answers = new Map<string, { ok(): void; fail(): void }>();
  const statement = (id: string) => () => {
    sent.push(id);
    return new Promise<string>((resolve, reject) => {
      answers.set(id, { ok: () => resolve(id), fail: () => reject(new Error(`${id} failed`)) });
    });
  };
  const answer = (id: string) => answers.get(id) ?? expect.fail(`${id} was not sent`);
  return { sent, statement, answer };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the first use of a named statement on a pipelined connection', () => {
  it('is sent alone: what follows waits for its answer, then goes in order, pipelined', async () => {
    const gate = new FirstUseGate();
    const { sent, statement, answer } = statements();
    const first = gate.send('write', statement('a'));
    const behind = [
      gate.send('write', statement('b')),
      gate.send(undefined, statement('c')),
      gate.send('write', statement('d')),
    ];
    expect(sent).toEqual(['a']);
    answer('a').ok();
    expect(await first).toBe('a');
    await settle();
    // 'write' is made now: the rest go out together.
    expect(sent).toEqual(['a', 'b', 'c', 'd']);
    for (const id of ['b', 'c', 'd']) answer(id).ok();
    expect(await Promise.all(behind)).toEqual(['b', 'c', 'd']);

    // Later uses of a made name are sent at once, without waiting.
    const later = [gate.send('write', statement('e')), gate.send('write', statement('f'))];
    expect(sent.slice(4)).toEqual(['e', 'f']);
    answer('e').ok();
    answer('f').ok();
    expect(await Promise.all(later)).toEqual(['e', 'f']);
  });

  it('after a first use that failed, sends the next use of the name as a first use again', async () => {
    const gate = new FirstUseGate();
    const { sent, statement, answer } = statements();
    const first = gate.send('write', statement('a'));
    const second = gate.send('write', statement('b'));
    const third = gate.send('write', statement('c'));
    answer('a').fail();
    await expect(first).rejects.toThrow('a failed');
    await settle();
    // 'b' may have to make the statement itself: 'c' waits for it.
    expect(sent).toEqual(['a', 'b']);
    answer('b').ok();
    await settle();
    expect(sent).toEqual(['a', 'b', 'c']);
    answer('c').ok();
    expect(await Promise.all([second, third])).toEqual(['b', 'c']);
  });

  it('sends unnamed statements at once while nothing is ahead', async () => {
    const gate = new FirstUseGate();
    const { sent, statement, answer } = statements();
    const all = ['a', 'b', 'c'].map((id) => gate.send(undefined, statement(id)));
    expect(sent).toEqual(['a', 'b', 'c']);
    for (const id of ['a', 'b', 'c']) answer(id).ok();
    expect(await Promise.all(all)).toEqual(['a', 'b', 'c']);
  });
});
