import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as GameSdk from '../src/index.js';
import { buildGameSdkBundle } from './fixtures/bundles.js';
import { ARCADE_ORIGIN, FakeGameWindow } from './fixtures/fake-window.js';

describe('browser bundle (scripts/bundle.mjs)', () => {
  let bundle: { code: string; stdout: string };
  beforeAll(async () => {
    bundle = await buildGameSdkBundle();
  });

  it('prints its size, and stays within the 10 KiB budget', () => {
    const bytes = Buffer.byteLength(bundle.code);
    const line = /^@coinop\/game-sdk bundle: \S*game-sdk\.min\.js (\d+) bytes \((\d+) gzipped\)$/m;
    const match = line.exec(bundle.stdout);
    expect(match?.[1]).toBe(String(bytes));
    expect(Number(match?.[2])).toBeLessThan(bytes);
    expect(bytes).toBeLessThanOrEqual(10 * 1024);
  });

  it('is one script with no imports that defines the global Coinop', async () => {
    expect(bundle.code).not.toMatch(/\brequire\(|\bimport\s*\(|^import /m);
    // A bare context: only the globals a browser page would lend the SDK.
    const context: { Coinop?: typeof GameSdk } & Record<string, unknown> = {
      URL,
      setTimeout,
      clearTimeout,
      console,
    };
    runInNewContext(bundle.code, context);
    const Coinop = context.Coinop!;
    expect(Object.keys(Coinop).sort()).toEqual([
      'BridgeNotInitializedError',
      'BridgeRequestError',
      'BridgeTimeoutError',
      'DEFAULT_REPLY_TIMEOUT_MS',
      'GameService',
      'Origin',
      'isGameServiceError',
    ]);
    // Every runtime export of the package, so one added later is not left out of the global.
    expect(Object.keys(Coinop).sort()).toEqual(Object.keys(await import('../src/index.js')).sort());
    expect(Object.isFrozen(Coinop)).toBe(true);
    expect(bundle.code.startsWith('"use strict";')).toBe(true);
    expect(Coinop.Origin.DEV).toBe('http://127.0.0.1:8082');

    const win = new FakeGameWindow();
    const game = new Coinop.GameService('demo', ARCADE_ORIGIN, { window: win });
    game.init();
    const play = game.play();
    expect(win.messages).toEqual([{ type: 'play', gameId: 'demo', requestId: win.requestIdOf(0) }]);
    win.reply({ type: 'play', data: { playId: 'p1' }, requestId: win.requestIdOf(0) });
    expect(await play).toEqual({ playId: 'p1' });
  });
});
