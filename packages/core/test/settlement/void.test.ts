import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPLIT_RULE,
  bestOf,
  leadersAfter,
  leadersAt,
  rankKey,
  resettleHeldPlay,
  type BoardScore,
  type ScoreDisplay,
} from '../../src/index.js';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(t0 + s * 1000);

function score(
  id: string,
  playerId: string,
  value: number,
  s: number,
  display: ScoreDisplay = 'NORMAL',
): BoardScore {
  return {
    scoreId: id,
    playerId,
    score: value,
    rankKey: rankKey(value, display),
    achievedAt: at(s),
  };
}

function ids() {
  let n = 0;
  return () => `t${++n}`;
}

/** A tiny seeded generator (mulberry32): the seed is printed so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('leadersAt', () => {
  it("takes each player's best before the time, ties to the earlier score", () => {
    const scores = [
      score('s1', 'a', 10, 1),
      score('s2', 'b', 10, 2),
      score('s3', 'a', 30, 5),
      score('s4', 'c', 20, 3),
    ];
    expect(leadersAt(scores, at(4), 3).map((s) => s.scoreId)).toEqual(['s4', 's1', 's2']);
    expect(leadersAt(scores, at(6), 2).map((s) => s.scoreId)).toEqual(['s3', 's4']);
    // Strictly before: a score at the very time of the play was not on the board yet.
    expect(leadersAt(scores, at(5), 1).map((s) => s.scoreId)).toEqual(['s4']);
    expect(leadersAt(scores, at(1), 3)).toEqual([]);
  });

  it('ranks lower first on a REVERSE board', () => {
    const scores = [score('s1', 'a', 9, 1, 'REVERSE'), score('s2', 'b', 3, 2, 'REVERSE')];
    expect(leadersAt(scores, at(3), 2).map((s) => s.playerId)).toEqual(['b', 'a']);
  });

  for (const display of ['NORMAL', 'REVERSE'] as const) {
    it(`reproduces the snapshot every play recorded, on seeded random ${display} boards`, () => {
      for (let run = 0; run < 30; run++) {
        const seed = 1000 + run;
        const next = random(seed);
        const leadersMax = 1 + Math.floor(next() * 4);
        const scores: BoardScore[] = [];
        let top: BoardScore[] = [];
        for (let i = 0; i < 60; i++) {
          // A play opens: its snapshot is the board's top as the score path keeps it.
          const opened = at(2 * i + 1);
          expect(
            leadersAt(scores, opened, leadersMax).map((s) => s.playerId),
            `seed ${seed}, play ${i}`,
          ).toEqual(top.map((s) => s.playerId));
          const player = `p${Math.floor(next() * 8)}`;
          // Few distinct values, so ties are common.
          const s = score(`s${i}`, player, Math.floor(next() * 6), 2 * i + 2, display);
          scores.push(s);
          const best = bestOf(scores, player);
          if (best === s) top = leadersAfter(top, s, leadersMax);
        }
      }
    });
  }
});

describe('bestOf', () => {
  it("is the player's best remaining score, or null", () => {
    const scores = [score('s1', 'a', 10, 1), score('s2', 'a', 10, 2), score('s3', 'b', 1, 3)];
    expect(bestOf(scores, 'a')?.scoreId).toBe('s1');
    expect(bestOf(scores, 'z')).toBeNull();
  });
});

describe('resettleHeldPlay', () => {
  const held = [
    { id: 'h1', creditAccountId: 'cheat', amount: 35n, reason: 'payout_leader' as const },
    { id: 'h2', creditAccountId: 'honest', amount: 35n, reason: 'payout_leader' as const },
    { id: 'h3', creditAccountId: 'dev', amount: 20n, reason: 'payout_developer' as const },
    { id: 'h4', creditAccountId: 'arcade', amount: 10n, reason: 'payout_arcade' as const },
  ];
  const base = {
    play: { id: 'play', costUnits: 100n },
    held,
    playerAccountId: 'payer',
    developerAccountId: 'dev',
    arcadeAccountId: 'arcade',
  };

  it('voids every held payout and holds the split among the corrected leaders', () => {
    const transfers = resettleHeldPlay(
      { ...base, leaderAccountIds: ['honest', 'third'] },
      DEFAULT_SPLIT_RULE,
      ids(),
    );
    expect(
      transfers.map((t) => [t.kind, t.pendingId, t.creditAccountId, t.amount, t.reason]),
    ).toEqual([
      ['void_pending', 'h1', 'cheat', 0n, 'payout_void'],
      ['void_pending', 'h2', 'honest', 0n, 'payout_void'],
      ['void_pending', 'h3', 'dev', 0n, 'payout_void'],
      ['void_pending', 'h4', 'arcade', 0n, 'payout_void'],
      ['pending', null, 'honest', 35n, 'payout_leader'],
      ['pending', null, 'third', 35n, 'payout_leader'],
      ['pending', null, 'dev', 20n, 'payout_developer'],
      ['pending', null, 'arcade', 10n, 'payout_arcade'],
    ]);
    expect(transfers.every((t) => t.debitAccountId === 'play' && t.playId === 'play')).toBe(true);
  });

  it("returns the leaders' part to the play's player when no leader is left, not to the developer", () => {
    // Security review finding 3: the developer decides a void, so it must not be paid by one.
    const transfers = resettleHeldPlay(
      { ...base, leaderAccountIds: [] },
      DEFAULT_SPLIT_RULE,
      ids(),
    );
    expect(
      transfers
        .filter((t) => t.kind === 'pending')
        .map((t) => [t.creditAccountId, t.amount, t.reason]),
    ).toEqual([
      ['payer', 70n, 'payout_returned'],
      ['dev', 20n, 'payout_developer'],
      ['arcade', 10n, 'payout_arcade'],
    ]);
    const voided = transfers.filter((t) => t.kind === 'void_pending').map((t) => t.pendingId);
    expect(voided).toEqual(['h1', 'h2', 'h3', 'h4']);
    // Balanced: the new held payouts take from the escrow exactly what the voided ones held.
    const newHeld = transfers.filter((t) => t.kind === 'pending');
    expect(newHeld.reduce((sum, t) => sum + t.amount, 0n)).toBe(100n);
  });

  it('changes the remainder when the number of leaders changes (all shares re-settled)', () => {
    const transfers = resettleHeldPlay(
      { ...base, leaderAccountIds: ['a', 'b', 'c'] },
      DEFAULT_SPLIT_RULE,
      ids(),
    );
    expect(
      transfers.filter((t) => t.kind === 'pending').map((t) => [t.creditAccountId, t.amount]),
    ).toEqual([
      ['a', 23n],
      ['b', 23n],
      ['c', 23n],
      ['dev', 20n],
      ['arcade', 11n],
    ]);
  });

  it('changes nothing when the corrected split is the one held', () => {
    expect(
      resettleHeldPlay(
        { ...base, leaderAccountIds: ['honest', 'cheat'] },
        DEFAULT_SPLIT_RULE,
        ids(),
      ),
    ).toEqual([]);
  });

  it('refuses held payouts that do not sum to the cost (a bug)', () => {
    expect(() =>
      resettleHeldPlay(
        { ...base, held: held.slice(1), leaderAccountIds: [] },
        DEFAULT_SPLIT_RULE,
        ids(),
      ),
    ).toThrow(TypeError);
  });
});
