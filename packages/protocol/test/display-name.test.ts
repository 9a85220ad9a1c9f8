import { describe, expect, it } from 'vitest';
import {
  checkDisplayName,
  displayNameKey,
  normalizeDisplayName,
  DISPLAY_NAME_PROBLEMS,
} from '../src/display-name.js';

/** Issue 31: the rules of a chosen display name, one copy for the server and the web app. */
describe('display names', () => {
  it.each([
    ['Ada', null],
    ['Ada Lovelace', null],
    ['x_y-z.1', null],
    ['李小龍', null],
    ['Ольга', null],
    ['Ærøskøbing', null],
    ['Ελένη', null],
    ['007', null],
    ['  Ａｄａ  ', null],
    ['x'.repeat(24), null],
    ['ab', 'too_short'],
    ['   a   ', 'too_short'],
    ['x'.repeat(25), 'too_long'],
    ['ada!', 'characters'],
    ['ada\u200bb', 'characters'],
    ['ada\u202eb', 'characters'],
    ['ada\u0000b', 'characters'],
    ['ada 🙂', 'characters'],
    ['...', 'no_letter_or_digit'],
    ['_-_', 'no_letter_or_digit'],
    ['q\u0301\u0302\u0303x', 'too_many_marks'],
    ['p\u0430ypal', 'mixed_scripts'],
    ['Ada Ελένη', 'mixed_scripts'],
    ['0x1234', 'looks_like_address'],
    ['0XABCD', 'looks_like_address'],
    ['player-a1b2c3', 'looks_like_default'],
  ] as const)('%j: %s', (name, problem) => {
    expect(checkDisplayName(name)).toBe(problem);
    if (problem !== null) expect(DISPLAY_NAME_PROBLEMS[problem]).toMatch(/^A name /);
  });

  it('normalises width, ligatures and spaces, and compares in lower case', () => {
    expect(normalizeDisplayName('  Ａｄａ \t  ﬁsh ')).toBe('Ada fish');
    expect(displayNameKey(' ADA  Fish')).toBe(displayNameKey('ada fish'));
    expect(displayNameKey('Ada')).not.toBe(displayNameKey('Ada2'));
    // Two marks on one letter are fine: Vietnamese needs them.
    expect(checkDisplayName('Nguyễn Văn')).toBeNull();
  });
});
