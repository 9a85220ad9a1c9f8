import { describe, expect, it } from 'vitest';
import { boardOrder, boardOrderReversed } from '../../src/store/board-order.js';

// The fragment replaced the order written out in some twenty statements (issue 29): it must give
// them the very text they had, the order of the `leaders_ranked` index (migration 001).
describe('the board order, written once', () => {
  it('is the best rank key first, then the earlier achievement, then the player', () => {
    expect(boardOrder()).toBe('rank_key DESC, achieved_at, player_id');
    expect(boardOrder('l')).toBe('l.rank_key DESC, l.achieved_at, l.player_id');
  });

  it('walks the same index backwards when reversed', () => {
    expect(boardOrderReversed()).toBe('rank_key, achieved_at DESC, player_id DESC');
    expect(boardOrderReversed('r')).toBe('r.rank_key, r.achieved_at DESC, r.player_id DESC');
  });
});
