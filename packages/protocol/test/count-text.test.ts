import { describe, expect, it } from 'vitest';
import { countText } from '../src/count-text.js';

describe('countText', () => {
  it('writes the noun singular for one and plural otherwise, zero included', () => {
    expect(countText(1, 'entrant')).toBe('1 entrant');
    expect(countText(0, 'unscored play')).toBe('0 unscored plays');
    expect(countText(21, 'place')).toBe('21 places');
    expect(countText(2, 'day')).toBe('2 days');
  });
});
