import { describe, expect, it } from 'vitest';
import { isChromiumAt } from '../src/browser.js';

describe('isChromiumAt', () => {
  const missing = '/nonexistent/chromium';

  it('finds a browser that is there, in CI or not', () => {
    expect(isChromiumAt(process.execPath, undefined)).toBe(true);
    expect(isChromiumAt(process.execPath, 'true')).toBe(true);
  });

  it('lets the browser tests skip where Chromium is missing outside CI', () => {
    expect(isChromiumAt(missing, undefined)).toBe(false);
    expect(isChromiumAt(missing, '')).toBe(false);
  });

  it('fails in CI when Chromium is missing, rather than letting the browser tests skip', () => {
    expect(() => isChromiumAt(missing, 'true')).toThrow(
      `${missing} not found, and CI must run the browser tests`,
    );
  });
});
