import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BridgeNotInitializedError,
  BridgeRequestError,
  BridgeTimeoutError,
  DEFAULT_REPLY_TIMEOUT_MS,
  GameService,
  isGameServiceError,
  Origin,
  type GameServiceError,
} from '../src/index.js';
import { ARCADE_ORIGIN, FakeGameWindow } from './fixtures/fake-window.js';

const GAME_ID = 'c0ffee00-0000-4000-8000-000000000001';
const ID = /^[0-9a-z]{8}\.\d+$/;

const LEADERS = [
  { txid: 'play-7', userId: 'player-1', score: 4200, displayName: 'Ada', avatarUrl: 'a.png' },
  { txid: 'play-3', userId: 'player-2', score: 900 },
];

/** A GameService in a fake iframe, initialised, with every event recorded in order. */
function setup(options: { replyTimeoutMs?: number } = {}) {
  const win = new FakeGameWindow();
  const game = new GameService(GAME_ID, ARCADE_ORIGIN, { ...options, window: win });
  const events: [string, unknown][] = [];
  for (const name of ['play', 'score', 'leaderboard', 'hstTransfer'] as const) {
    game.on(name, (data) => events.push([name, data]));
  }
  game.init();
  return { win, game, events };
}

/** Resolves with what the promise settled to, without awaiting it from the test's flow. */
function track<T>(promise: Promise<T>) {
  const state: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error: unknown) => Object.assign(state, { error, settled: true }),
  );
  return state;
}

/** Lets promise callbacks run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('GameService construction', () => {
  it('names the demo arcade, the Haste arcades, and normalises any other origin', () => {
    expect(Origin).toEqual({
      DEV: 'http://127.0.0.1:8082',
      PROD: 'https://app.hastearcade.com',
      HASTE_DEV: 'https://dev.hastearcade.com',
    });
    expect(new GameService(GAME_ID, Origin.DEV).origin).toBe('http://127.0.0.1:8082');
    expect(new GameService(GAME_ID, Origin.PROD).origin).toBe('https://app.hastearcade.com');
    expect(new GameService(GAME_ID, 'https://Arcade.Example.com/').origin).toBe(
      'https://arcade.example.com',
    );
    expect(new GameService(GAME_ID, 'http://localhost:9000').origin).toBe('http://localhost:9000');
    const game = new GameService(GAME_ID, Origin.DEV);
    expect([game.gameId, game.replyTimeoutMs]).toEqual([GAME_ID, 120_000]);
    expect(DEFAULT_REPLY_TIMEOUT_MS).toBe(120_000);
  });

  it.each([
    '',
    '*',
    'arcade.example.com',
    'https://arcade.example.com/play',
    'https://arcade.example.com?x=1',
    'https://arcade.example.com#top',
    'ftp://arcade.example.com',
    'https://me@arcade.example.com',
    'https://me:secret@arcade.example.com',
  ])('rejects the origin %j', (origin) => {
    expect(() => new GameService(GAME_ID, origin)).toThrow(
      new TypeError(`arcade origin must be http(s)://host[:port], got ${JSON.stringify(origin)}`),
    );
  });

  it('rejects an empty or overlong game id and a reply timeout not a positive integer', () => {
    expect(() => new GameService('', Origin.DEV)).toThrow(
      new TypeError('gameId must be a string of 1 to 200 characters, got ""'),
    );
    expect(() => new GameService('g'.repeat(201), Origin.DEV)).toThrow(
      new TypeError(`gameId must be a string of 1 to 200 characters, got "${'g'.repeat(201)}"`),
    );
    expect(new GameService('g'.repeat(200), Origin.DEV).gameId).toBe('g'.repeat(200));
    for (const replyTimeoutMs of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 31]) {
      expect(() => new GameService(GAME_ID, Origin.DEV, { replyTimeoutMs })).toThrow(
        new TypeError(
          `replyTimeoutMs must be an integer from 1 to 2147483647, got ${String(replyTimeoutMs)}`,
        ),
      );
    }
  });

  it('rejects unknown events and non-function handlers', () => {
    const game = new GameService(GAME_ID, Origin.DEV);
    expect(() => game.on('transfer' as never, () => undefined)).toThrow(
      new TypeError('unknown GameService event "transfer"'),
    );
    expect(() => game.on('play', 'nope' as never)).toThrow(
      new TypeError('handler must be a function'),
    );
  });
});

describe('GameService before init()', () => {
  it('rejects every operation with BridgeNotInitializedError and posts nothing', async () => {
    const win = new FakeGameWindow();
    const game = new GameService(GAME_ID, ARCADE_ORIGIN, { window: win });
    const calls: [string, () => Promise<unknown>][] = [
      ['play', () => game.play()],
      ['submitScore', () => game.submitScore('play-1', 10)],
      ['getLeaderboard', () => game.getLeaderboard()],
      ['hstTransfer', () => game.hstTransfer(1)],
      ['hstTransfer', () => game.transferHst(1)],
    ];
    for (const [operation, call] of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BridgeNotInitializedError);
      expect(error).toMatchObject({
        name: 'BridgeNotInitializedError',
        code: 'bridge_not_initialized',
        operation,
        message: `Bridge not initialized: call init() before ${operation}()`,
      });
      expect(isGameServiceError(error)).toBe(true);
    }
    expect(win.posted).toEqual([]);
    expect(win.listenerCount).toBe(0);
  });

  it('listens once however often init() is called', () => {
    const { win, game } = setup();
    game.init();
    game.init();
    expect(win.listenerCount).toBe(1);
    expect(win.posted).toEqual([]);
  });

  it('init() without a window is a TypeError', () => {
    expect(() => new GameService(GAME_ID, Origin.DEV).init()).toThrow(
      new TypeError('GameService.init() needs a browser window'),
    );
  });
});

describe('GameService operations against a host that echoes requestId', () => {
  it('play: posts the request to the arcade origin, resolves and fires "play"', async () => {
    const { win, game, events } = setup();
    const order: string[] = [];
    game.on('play', () => order.push('event'));
    const result = game.play().then((value) => {
      order.push('promise');
      return value;
    });
    expect(win.posted).toEqual([
      {
        message: { type: 'play', gameId: GAME_ID, requestId: expect.stringMatching(ID) },
        targetOrigin: ARCADE_ORIGIN,
      },
    ]);
    win.reply({ type: 'play', data: { playId: 'play-1' }, requestId: win.requestIdOf(0) });
    expect(await result).toEqual({ playId: 'play-1' });
    expect(events).toEqual([['play', { playId: 'play-1' }]]);
    expect(order).toEqual(['event', 'promise']);
  });

  it('submitScore: posts playId and score, resolves with the play and fires "score"', async () => {
    const { win, game, events } = setup();
    const result = game.submitScore('play-1', 4200.5);
    expect(win.messages).toEqual([
      {
        type: 'score',
        gameId: GAME_ID,
        playId: 'play-1',
        score: 4200.5,
        requestId: win.requestIdOf(0),
      },
    ]);
    win.reply({ type: 'score', data: { playId: 'play-1' }, requestId: win.requestIdOf(0) });
    expect(await result).toEqual({ playId: 'play-1' });
    expect(events).toEqual([['score', { playId: 'play-1' }]]);
  });

  it('getLeaderboard: resolves with the leaders and fires "leaderboard"', async () => {
    const { win, game, events } = setup();
    const result = game.getLeaderboard();
    expect(win.messages).toEqual([
      { type: 'leaderboard', gameId: GAME_ID, requestId: win.requestIdOf(0) },
    ]);
    win.reply({
      type: 'leaderboard',
      data: { leaderboard: LEADERS },
      requestId: win.requestIdOf(0),
    });
    expect(await result).toEqual({ leaderboard: LEADERS });
    expect(events).toEqual([['leaderboard', { leaderboard: LEADERS }]]);
  });

  // Issue 18: board reads, additive messages a game on haste-arcade-sdk never sends.
  const ENTRY = { rank: 7, playerId: 'player-1', name: 'Ada', avatar: '/a.svg', score: 4200 };

  it('getBoardPage: sends only the options given, resolves with the page, fires "boardPage"', async () => {
    const { win, game } = setup();
    const pages: unknown[] = [];
    game.on('boardPage', (data) => pages.push(data));
    const first = game.getBoardPage();
    const next = game.getBoardPage({ leaderboardId: 'tier-2', cursor: 'YjEuMQ', limit: 100 });
    expect(win.messages).toEqual([
      { type: 'boardPage', gameId: GAME_ID, requestId: win.requestIdOf(0) },
      {
        type: 'boardPage',
        gameId: GAME_ID,
        leaderboardId: 'tier-2',
        cursor: 'YjEuMQ',
        limit: 100,
        requestId: win.requestIdOf(1),
      },
    ]);
    const page = { leaderboardId: 'tier-1', players: 9, entries: [ENTRY], nextCursor: 'YjEuNw' };
    const last = { leaderboardId: 'tier-2', players: 1, entries: [], nextCursor: null };
    win.reply({ type: 'boardPage', data: { ...page, extra: 1 }, requestId: win.requestIdOf(0) });
    win.reply({ type: 'boardPage', data: last, requestId: win.requestIdOf(1) });
    expect(await first).toEqual(page);
    expect(await next).toEqual(last);
    expect(pages).toEqual([page, last]);
  });

  it('getBoardAround: sends count, resolves with the player and neighbours', async () => {
    const { win, game } = setup();
    const result = game.getBoardAround({ count: 0 });
    expect(win.messages).toEqual([
      { type: 'boardAround', gameId: GAME_ID, count: 0, requestId: win.requestIdOf(0) },
    ]);
    const around = {
      leaderboardId: 'tier-1',
      players: 9,
      above: [{ ...ENTRY, rank: 6, playerId: 'player-0' }],
      player: ENTRY,
      below: [],
    };
    win.reply({ type: 'boardAround', data: around, requestId: win.requestIdOf(0) });
    expect(await result).toEqual(around);
  });

  it('board reads refuse a limit or count out of range before sending anything', async () => {
    const { win, game } = setup();
    await expect(game.getBoardPage({ limit: 0 })).rejects.toThrow(
      new TypeError('limit must be an integer 1 to 100, got 0'),
    );
    await expect(game.getBoardPage({ limit: 101 })).rejects.toThrow(TypeError);
    await expect(game.getBoardAround({ count: 51 })).rejects.toThrow(
      new TypeError('count must be an integer 0 to 50, got 51'),
    );
    await expect(game.getBoardAround({ count: 1.5 })).rejects.toThrow(TypeError);
    expect(win.messages).toEqual([]);
  });

  it('ignores a board reply with a malformed entry: the request waits on', async () => {
    const { win, game } = setup({ replyTimeoutMs: 50 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = track(game.getBoardPage());
    const bad = { ...ENTRY, rank: 0 };
    win.reply({
      type: 'boardPage',
      data: { leaderboardId: 't', players: 1, entries: [bad], nextCursor: null },
      requestId: win.requestIdOf(0),
    });
    await flush();
    expect(result.settled).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
    await vi.waitFor(() => expect(result.error).toBeInstanceOf(BridgeTimeoutError));
    expect((result.error as BridgeTimeoutError).operation).toBe('getBoardPage');
  });

  it('a board read the arcade answers with an error rejects with its code; no event fires', async () => {
    const { win, game } = setup();
    const pages: unknown[] = [];
    game.on('boardPage', (data) => pages.push(data));
    const expired = track(game.getBoardPage({ cursor: 'YjIuMQ' }));
    const around = track(game.getBoardAround());
    const fine = game.getBoardPage();
    const message = 'cursor is from a walk of this board that is too old to continue';
    win.reply({
      type: 'boardPage',
      error: { code: 'cursor_expired', message, status: 410 },
      requestId: win.requestIdOf(0),
    });
    win.reply({
      type: 'boardAround',
      error: { code: 'bridge_request_failed', message: 'Failed to fetch', status: null },
      requestId: win.requestIdOf(1),
    });
    await flush();
    const error = expired.error as BridgeRequestError;
    expect(error).toBeInstanceOf(BridgeRequestError);
    expect(isGameServiceError(error)).toBe(true);
    expect({ ...error, message: error.message }).toEqual({
      name: 'BridgeRequestError',
      code: 'cursor_expired',
      status: 410,
      operation: 'getBoardPage',
      message,
    });
    expect(around.error).toMatchObject({
      code: 'bridge_request_failed',
      status: null,
      operation: 'getBoardAround',
    });
    // The other page is still waiting, and is answered.
    const page = { leaderboardId: 't', players: 0, entries: [], nextCursor: null };
    win.reply({ type: 'boardPage', data: page, requestId: win.requestIdOf(2) });
    expect(await fine).toEqual(page);
    expect(pages).toEqual([page]);
  });

  it('an error reply without requestId goes to the oldest board read; another instance’s is ignored', async () => {
    const { win, game } = setup({ replyTimeoutMs: 50 });
    const first = track(game.getBoardPage());
    const second = track(game.getBoardPage());
    const error = { code: 'leaderboard_not_found', message: 'no such tier', status: 404 };
    win.reply({ type: 'boardPage', error, requestId: 'zzzzzzzz.1' });
    win.reply({ type: 'boardPage', error });
    await flush();
    expect(first.error).toMatchObject({ code: 'leaderboard_not_found', status: 404 });
    expect(second.settled).toBe(false);
    // An error reply to a message that may not fail by reply is not one: the play waits on.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const play = track(game.play());
    win.reply({ type: 'play', error, requestId: win.requestIdOf(2) });
    await flush();
    expect(play.settled).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
    await vi.waitFor(() => expect(second.error).toBeInstanceOf(BridgeTimeoutError));
    await vi.waitFor(() => expect(play.error).toBeInstanceOf(BridgeTimeoutError));
  });

  it('hstTransfer and transferHst send "transferHst", resolve with txid, fire both', async () => {
    const { win, game, events } = setup();
    const published: unknown[] = [];
    game.on('transferHst', (data) => published.push(data));
    const first = game.hstTransfer(1.5);
    const second = game.transferHst(0.00000001);
    expect(win.messages).toEqual([
      { type: 'transferHst', gameId: GAME_ID, amount: 1.5, requestId: win.requestIdOf(0) },
      { type: 'transferHst', gameId: GAME_ID, amount: 0.00000001, requestId: win.requestIdOf(1) },
    ]);
    // A host may answer with either name of the transfer.
    win.reply({ type: 'hstTransfer', data: { txid: 'tx-2' }, requestId: win.requestIdOf(1) });
    win.reply({ type: 'transferHst', data: { txid: 'tx-1' }, requestId: win.requestIdOf(0) });
    expect(await first).toEqual({ txid: 'tx-1' });
    expect(await second).toEqual({ txid: 'tx-2' });
    expect(events).toEqual([
      ['hstTransfer', { txid: 'tx-2' }],
      ['hstTransfer', { txid: 'tx-1' }],
    ]);
    expect(published).toEqual([{ txid: 'tx-2' }, { txid: 'tx-1' }]);
  });

  it('numbers requests of one instance in sequence', () => {
    const { win, game } = setup();
    void game.play();
    void game.getLeaderboard();
    void game.submitScore('p', 1);
    const [a, b, c] = [0, 1, 2].map((i) => win.requestIdOf(i));
    const prefix = a!.split('.')[0];
    expect([a, b, c]).toEqual([`${prefix}.1`, `${prefix}.2`, `${prefix}.3`]);
  });

  it('matches replies that come back out of order by requestId', async () => {
    const { win, game, events } = setup();
    const first = game.play();
    const second = game.play();
    win.reply({ type: 'play', data: { playId: 'play-2' }, requestId: win.requestIdOf(1) });
    win.reply({ type: 'play', data: { playId: 'play-1' }, requestId: win.requestIdOf(0) });
    expect(await first).toEqual({ playId: 'play-1' });
    expect(await second).toEqual({ playId: 'play-2' });
    expect(events).toEqual([
      ['play', { playId: 'play-2' }],
      ['play', { playId: 'play-1' }],
    ]);
  });

  it('a play locked from the wallet on chain resolves with its txid too (issue 15)', async () => {
    const { win, game, events } = setup();
    const txid = `0x${'5e'.repeat(32)}`;
    const result = game.play();
    win.reply({ type: 'play', data: { playId: 'play-1', txid }, requestId: win.requestIdOf(0) });
    expect(await result).toEqual({ playId: 'play-1', txid });
    expect(events).toEqual([['play', { playId: 'play-1', txid }]]);
  });

  it('a play resolves with its seed, and a score sends the run’s replay (issue 30)', async () => {
    const { win, game, events } = setup();
    const seed = '9f'.repeat(32);
    const played = game.play();
    win.reply({ type: 'play', data: { playId: 'play-1', seed }, requestId: win.requestIdOf(0) });
    expect(await played).toEqual({ playId: 'play-1', seed });
    expect(events).toEqual([['play', { playId: 'play-1', seed }]]);
    const scored = game.submitScore('play-1', 4200, { replay: 'v1:LLRUD' });
    expect(win.messages[1]).toEqual({
      type: 'score',
      gameId: GAME_ID,
      playId: 'play-1',
      score: 4200,
      replay: 'v1:LLRUD',
      requestId: win.requestIdOf(1),
    });
    win.reply({ type: 'score', data: { playId: 'play-1' }, requestId: win.requestIdOf(1) });
    expect(await scored).toEqual({ playId: 'play-1' });
  });

  it('submitScore refuses a replay that is not a string, posting nothing', async () => {
    const { win, game } = setup();
    const bad = { replay: 42 } as unknown as { replay: string };
    await expect(game.submitScore('play-1', 1, bad)).rejects.toThrow(
      new TypeError('options.replay must be a string, got number'),
    );
    expect(win.messages).toEqual([]);
  });

  it('a refused score rejects with its code and fires nothing; the same play scores again (issue 30)', async () => {
    const { win, game, events } = setup();
    const refused = track(game.submitScore('play-1', 4200, { replay: 'v1:LLRUD' }));
    const message = 'the replay earns 120, not 4200';
    win.reply({
      type: 'score',
      error: { code: 'replay_rejected', message, status: 422 },
      requestId: win.requestIdOf(0),
    });
    await flush();
    const error = refused.error as BridgeRequestError;
    expect(error).toBeInstanceOf(BridgeRequestError);
    expect(isGameServiceError(error)).toBe(true);
    expect({ ...error, message: error.message }).toEqual({
      name: 'BridgeRequestError',
      code: 'replay_rejected',
      status: 422,
      operation: 'submitScore',
      message,
    });
    expect(events).toEqual([]);
    // The play is still open: the honest score of the run is taken.
    const honest = game.submitScore('play-1', 120, { replay: 'v1:LLRUD' });
    win.reply({ type: 'score', data: { playId: 'play-1' }, requestId: win.requestIdOf(1) });
    expect(await honest).toEqual({ playId: 'play-1' });
    expect(events).toEqual([['score', { playId: 'play-1' }]]);
  });

  it('a leaderboard read the arcade cannot answer rejects at once and fires nothing', async () => {
    const { win, game, events } = setup();
    const read = track(game.getLeaderboard());
    expect(win.messages[0]).toEqual({
      type: 'leaderboard',
      gameId: GAME_ID,
      requestId: win.requestIdOf(0),
    });
    const message = 'the arcade could not read the board: Failed to fetch';
    win.reply({
      type: 'leaderboard',
      error: { code: 'bridge_request_failed', message, status: null },
      requestId: win.requestIdOf(0),
    });
    await flush();
    expect({ ...(read.error as BridgeRequestError), message }).toEqual({
      name: 'BridgeRequestError',
      code: 'bridge_request_failed',
      status: null,
      operation: 'getLeaderboard',
      message,
    });
    expect(events).toEqual([]);
    // The next read is answered as ever.
    const again = game.getLeaderboard();
    win.reply({ type: 'leaderboard', data: { leaderboard: [] }, requestId: win.requestIdOf(1) });
    expect(await again).toEqual({ leaderboard: [] });
  });

  it('a score error reply finds its request by requestId among several scores', async () => {
    const { win, game } = setup();
    const first = track(game.submitScore('play-1', 10));
    const second = track(game.submitScore('play-2', 9000));
    const error = { code: 'score_out_of_bounds', message: 'above 5000', status: 422 };
    win.reply({ type: 'score', error, requestId: win.requestIdOf(1) });
    await flush();
    expect(second.error).toMatchObject({ ...error, operation: 'submitScore' });
    expect(first.settled).toBe(false);
    win.reply({ type: 'score', data: { playId: 'play-1' }, requestId: win.requestIdOf(0) });
    await flush();
    expect(first.value).toEqual({ playId: 'play-1' });
  });

  it('a play the player did not approve resolves without playId (rule 2)', async () => {
    const { win, game, events } = setup();
    const replies = [{}, { playId: undefined }, { playId: null }, { playId: '' }];
    const results = replies.map(() => game.play());
    replies.forEach((data, i) => win.reply({ type: 'play', data, requestId: win.requestIdOf(i) }));
    for (const result of results) {
      const value = await result;
      expect(value).toEqual({});
      expect('playId' in value).toBe(false);
    }
    expect(events).toEqual(replies.map(() => ['play', {}]));
  });

  it('a transfer the player rejected resolves without txid (rule 3)', async () => {
    const { win, game, events } = setup();
    const replies = [{}, { txid: undefined }, { txid: null }, { txid: '' }];
    const results = replies.map(() => game.hstTransfer(5));
    replies.forEach((data, i) =>
      win.reply({ type: 'transferHst', data, requestId: win.requestIdOf(i) }),
    );
    for (const result of results) {
      const value = await result;
      expect(value).toEqual({});
      expect('txid' in value).toBe(false);
    }
    expect(events).toEqual(replies.map(() => ['hstTransfer', {}]));
  });
});

describe('GameService against a host that speaks the published protocol (no requestId)', () => {
  it('matches replies to requests of the same type in the order they were sent', async () => {
    const { win, game, events } = setup();
    const play1 = game.play();
    const board = game.getLeaderboard();
    const play2 = game.play();
    const pay = game.transferHst(2);
    win.reply({ type: 'leaderboard', data: { leaderboard: [] } });
    win.reply({ type: 'play', data: { playId: 'play-1' } });
    win.reply({ type: 'transferHst', data: { txid: 'tx-1' } });
    win.reply({ type: 'play', data: {} });
    expect(await play1).toEqual({ playId: 'play-1' });
    expect(await play2).toEqual({});
    expect(await board).toEqual({ leaderboard: [] });
    expect(await pay).toEqual({ txid: 'tx-1' });
    expect(events).toEqual([
      ['leaderboard', { leaderboard: [] }],
      ['play', { playId: 'play-1' }],
      ['hstTransfer', { txid: 'tx-1' }],
      ['play', {}],
    ]);
  });

  it('fires the event for a reply nobody asked for, and resolves nothing', async () => {
    const { win, game, events } = setup();
    win.reply({ type: 'leaderboard', data: { leaderboard: LEADERS } });
    const board = track(game.getLeaderboard());
    await flush();
    expect(events).toEqual([['leaderboard', { leaderboard: LEADERS }]]);
    expect(board.settled).toBe(false);
    win.reply({ type: 'leaderboard', data: { leaderboard: [] } });
    await flush();
    expect(board).toEqual({ settled: true, value: { leaderboard: [] } });
  });
});

describe('GameService ignores what is not its arcade answering it', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
  });

  it('drops foreign windows and origins, junk and other instances, never throwing', async () => {
    const { win, game, events } = setup();
    const play = track(game.play());
    const requestId = win.requestIdOf(0);
    const good = { type: 'play', data: { playId: 'play-1' }, requestId };
    const forged = { type: 'play', data: { playId: 'forged' }, requestId };
    // Same origin, another frame; right window, another origin; the game's own window.
    win.deliver(forged, { origin: ARCADE_ORIGIN, source: win.sibling });
    win.deliver(forged, { origin: 'https://evil.test', source: win.parent });
    win.deliver(forged, { origin: 'https://arcade.test:444', source: win.parent });
    win.deliver(forged, { origin: ARCADE_ORIGIN, source: null });
    win.deliver(forged, { origin: ARCADE_ORIGIN, source: win });
    // From the arcade, but not bridge replies.
    for (const data of [
      null,
      undefined,
      'play',
      42,
      [],
      { type: 'hello' },
      { type: 'toString', data: {} },
      { data: {} },
    ]) {
      win.reply(data);
    }
    // Another GameService in the same window asked for this one.
    win.reply({ type: 'play', data: { playId: 'theirs' }, requestId: 'zzzzzzzz.1' });
    await flush();
    expect(play.settled).toBe(false);
    expect(events).toEqual([]);
    expect(warn).not.toHaveBeenCalled();

    win.reply(good);
    await flush();
    expect(play).toEqual({ settled: true, value: { playId: 'play-1' } });
    expect(events).toEqual([['play', { playId: 'play-1' }]]);
  });

  it('warns about a malformed reply of a bridge type, and keeps waiting', async () => {
    const { win, game } = setup();
    const score = track(game.submitScore('play-1', 3));
    const board = track(game.getLeaderboard());
    win.reply({ type: 'score', data: {} });
    win.reply({ type: 'score', data: { playId: 7 } });
    win.reply({ type: 'leaderboard', data: { leaderboard: [{ userId: 'p', score: 1 }] } });
    win.reply({ type: 'leaderboard', data: 'none' });
    win.reply({ type: 'play', data: { playId: 12 } });
    win.reply({ type: 'play', data: {}, requestId: 12 });
    await flush();
    expect(warn.mock.calls).toEqual([
      ['GameService: ignored a malformed "score" reply from https://arcade.test'],
      ['GameService: ignored a malformed "score" reply from https://arcade.test'],
      ['GameService: ignored a malformed "leaderboard" reply from https://arcade.test'],
      ['GameService: ignored a malformed "leaderboard" reply from https://arcade.test'],
      ['GameService: ignored a malformed "play" reply from https://arcade.test'],
      ['GameService: ignored a malformed "play" reply from https://arcade.test'],
    ]);
    expect([score.settled, board.settled]).toEqual([false, false]);
  });

  it('keeps only the known fields of a reply', async () => {
    const { win, game } = setup();
    const board = game.getLeaderboard();
    win.reply({
      type: 'leaderboard',
      data: { leaderboard: [{ txid: 't', userId: 'u', score: 1, displayName: null, x: 1 }], y: 2 },
    });
    expect(await board).toEqual({ leaderboard: [{ txid: 't', userId: 'u', score: 1 }] });
  });
});

describe('GameService reply timeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rejects with BridgeTimeoutError when the arcade never answers', async () => {
    const { win, game } = setup({ replyTimeoutMs: 5_000 });
    const board = track(game.getLeaderboard());
    const requestId = win.requestIdOf(0);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(board.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(board.error).toBeInstanceOf(BridgeTimeoutError);
    expect(board.error).toMatchObject({
      name: 'BridgeTimeoutError',
      code: 'bridge_timeout',
      operation: 'getLeaderboard',
      requestId,
      origin: 'https://arcade.test',
      timeoutMs: 5_000,
      message:
        `Bridge reply timed out: no reply to getLeaderboard() (request ${requestId}) ` +
        'from https://arcade.test within 5000 ms',
    });
  });

  it('waits DEFAULT_REPLY_TIMEOUT_MS by default', async () => {
    const { game } = setup();
    const play = track(game.play());
    await vi.advanceTimersByTimeAsync(119_999);
    expect(play.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((play.error as BridgeTimeoutError).timeoutMs).toBe(120_000);
  });

  it('a late reply still fires the event; the next request gets its own reply', async () => {
    const { win, game, events } = setup({ replyTimeoutMs: 1_000 });
    const late = track(game.play());
    await vi.advanceTimersByTimeAsync(1_000);
    expect((late.error as GameServiceError).code).toBe('bridge_timeout');
    const next = track(game.play());
    win.reply({ type: 'play', data: { playId: 'late' }, requestId: win.requestIdOf(0) });
    win.reply({ type: 'play', data: { playId: 'next' }, requestId: win.requestIdOf(1) });
    await vi.advanceTimersByTimeAsync(0);
    expect(next).toEqual({ settled: true, value: { playId: 'next' } });
    expect(events).toEqual([
      ['play', { playId: 'late' }],
      ['play', { playId: 'next' }],
    ]);
  });

  it('an answered request never times out', async () => {
    const { win, game } = setup({ replyTimeoutMs: 1_000 });
    const play = track(game.play());
    win.reply({ type: 'play', data: { playId: 'p' }, requestId: win.requestIdOf(0) });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(play).toEqual({ settled: true, value: { playId: 'p' } });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('GameService handlers', () => {
  it('a handler that throws is logged; the others run and the promise resolves', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { win, game, events } = setup();
    const boom = new Error('boom');
    game.on('score', () => {
      throw boom;
    });
    const after: unknown[] = [];
    game.on('score', (data) => after.push(data));
    const score = game.submitScore('play-1', 1);
    win.reply({ type: 'score', data: { playId: 'play-1' }, requestId: win.requestIdOf(0) });
    expect(await score).toEqual({ playId: 'play-1' });
    expect(events).toEqual([['score', { playId: 'play-1' }]]);
    expect(after).toEqual([{ playId: 'play-1' }]);
    expect(error.mock.calls).toEqual([['GameService: a "score" handler threw', boom]]);
    error.mockRestore();
  });

  it('the function on() returns removes the handler; a handler added twice runs once', async () => {
    const { win, game } = setup();
    const seen: unknown[] = [];
    const handler = (data: unknown) => seen.push(data);
    const off = game.on('leaderboard', handler);
    game.on('leaderboard', handler);
    win.reply({ type: 'leaderboard', data: { leaderboard: [] } });
    off();
    win.reply({ type: 'leaderboard', data: { leaderboard: LEADERS } });
    expect(seen).toEqual([{ leaderboard: [] }]);
  });
});

describe('GameService argument checks', () => {
  it('rejects a bad playId, score or amount with TypeError and posts nothing', async () => {
    const { win, game } = setup();
    const cases: [() => Promise<unknown>, string][] = [
      [() => game.submitScore('', 1), 'playId must be a non-empty string, got ""'],
      [() => game.submitScore(7 as never, 1), 'playId must be a non-empty string, got 7'],
      [() => game.submitScore('p', Number.NaN), 'score must be a finite number, got NaN'],
      [() => game.submitScore('p', Infinity), 'score must be a finite number, got Infinity'],
      [() => game.submitScore('p', '5' as never), 'score must be a finite number, got 5'],
      [() => game.hstTransfer(0), 'amount must be a positive number of HST, got 0'],
      [() => game.hstTransfer(-1), 'amount must be a positive number of HST, got -1'],
      [() => game.hstTransfer(Number.NaN), 'amount must be a positive number of HST, got NaN'],
      [() => game.transferHst('1' as never), 'amount must be a positive number of HST, got 1'],
    ];
    for (const [call, message] of cases) {
      await expect(call()).rejects.toThrow(new TypeError(message));
    }
    expect(win.posted).toEqual([]);
  });

  it('a postMessage that throws rejects the operation and leaves nothing pending', async () => {
    const { win, game } = setup();
    const failure = new Error('DataCloneError');
    const post = vi.spyOn(win.parent, 'postMessage').mockImplementationOnce(() => {
      throw failure;
    });
    await expect(game.play()).rejects.toBe(failure);
    post.mockRestore();
    const next = game.play();
    win.reply({ type: 'play', data: { playId: 'p' } });
    expect(await next).toEqual({ playId: 'p' });
  });
});

describe('GameService tier changes and logins (issue 17)', () => {
  const GOLD = {
    id: 't-2',
    name: 'Gold',
    cost: 5,
    currency: 'HST',
    formattedCostString: '5 HST',
  } as const;
  const BRONZE = { ...GOLD, id: 't-1', name: 'Bronze', cost: 1, formattedCostString: '1 HST' };

  it('asks for the tier once, when a handler is registered after init(), and fires on each change', async () => {
    const { win, game } = setup();
    expect(win.messages).toEqual([]);
    const seen: string[] = [];
    game.onTierChange(({ tier }) => seen.push(`a:${tier.name}`));
    const off = game.on('tierChange', ({ tier }) => seen.push(`b:${tier.name}`));
    // One subscription however many handlers; it carries no requestId and waits for nothing.
    expect(win.posted).toEqual([
      { message: { type: 'tierChange', gameId: GAME_ID }, targetOrigin: ARCADE_ORIGIN },
    ]);
    win.reply({ type: 'tierChange', data: { tier: BRONZE } });
    win.reply({ type: 'tierChange', data: { tier: { ...GOLD, extra: 1 } } });
    off();
    win.reply({ type: 'tierChange', data: { tier: BRONZE } });
    await flush();
    expect(seen).toEqual(['a:Bronze', 'b:Bronze', 'a:Gold', 'b:Gold', 'a:Bronze']);
  });

  it('a handler registered before init() subscribes at init(); a later one gets the last tier', async () => {
    const win = new FakeGameWindow();
    const game = new GameService(GAME_ID, ARCADE_ORIGIN, { window: win });
    const first: unknown[] = [];
    game.onTierChange((data) => first.push(data));
    expect(win.posted).toEqual([]);
    game.init();
    expect(win.messages).toEqual([{ type: 'tierChange', gameId: GAME_ID }]);
    win.reply({ type: 'tierChange', data: { tier: GOLD } });
    const late: unknown[] = [];
    game.onTierChange((data) => late.push(data));
    await flush();
    expect(first).toEqual([{ tier: GOLD }]);
    expect(late).toEqual([{ tier: GOLD }]);
    expect(win.posted).toHaveLength(1);
  });

  it('a game that never subscribes posts nothing, and ignores a tier it did not ask for', async () => {
    const { win, game, events } = setup();
    win.reply({ type: 'tierChange', data: { tier: GOLD } });
    await flush();
    expect(win.posted).toEqual([]);
    expect(events).toEqual([]);
    expect(game.gameId).toBe(GAME_ID);
  });

  it('asks for the boards once, at init(), and fires each update with its board', async () => {
    const win = new FakeGameWindow();
    const game = new GameService(GAME_ID, ARCADE_ORIGIN, { window: win });
    const seen: string[] = [];
    const off = game.onBoardUpdate(({ leaderboardId, leaderboard }) =>
      seen.push(`${leaderboardId}:${leaderboard.map((l) => `${l.displayName}=${l.score}`).join()}`),
    );
    game.on('boardUpdate', () => seen.push('second handler'));
    expect(win.posted).toEqual([]);
    game.init();
    expect(win.messages).toEqual([{ type: 'boardUpdate', gameId: GAME_ID }]);
    const ada = { txid: '', userId: 'p-1', score: 50, displayName: 'Ada' };
    win.reply({ type: 'boardUpdate', data: { leaderboardId: 't-1', leaderboard: [ada] } });
    // A malformed update (no board id) fires nothing.
    win.reply({ type: 'boardUpdate', data: { leaderboard: [ada] } });
    off();
    const bob = { txid: '', userId: 'p-2', score: 10, displayName: 'Bob' };
    win.reply({ type: 'boardUpdate', data: { leaderboardId: 't-1', leaderboard: [ada, bob] } });
    await flush();
    expect(seen).toEqual(['t-1:Ada=50', 'second handler', 'second handler']);
    expect(win.posted).toHaveLength(1);
  });

  it('a game that never asks for boards ignores an update it did not ask for', async () => {
    const { win, game, events } = setup();
    win.reply({ type: 'boardUpdate', data: { leaderboardId: 't-1', leaderboard: [] } });
    await flush();
    expect(win.posted).toEqual([]);
    expect(events).toEqual([]);
    expect(game.gameId).toBe(GAME_ID);
  });

  it('approveLogin posts the login, resolves with the arcade answer and fires "login"', async () => {
    const { win, game } = setup();
    const fired: unknown[] = [];
    game.on('login', (data) => fired.push(data));
    const requestorId = '5d1c0e9a-0000-4000-8000-000000000002';
    const approved = track(game.approveLogin(requestorId, 'WDJB-MJHT'));
    expect(win.messages).toEqual([
      {
        type: 'login',
        gameId: GAME_ID,
        requestorId,
        userCode: 'WDJB-MJHT',
        requestId: expect.stringMatching(ID),
      },
    ]);
    win.reply({ type: 'login', data: { approved: true }, requestId: win.requestIdOf(0) });
    await flush();
    expect(approved.value).toEqual({ approved: true });
    const refused = track(game.approveLogin(requestorId, 'WDJB-MJHT'));
    win.reply({ type: 'login', data: { approved: false }, requestId: win.requestIdOf(1) });
    await flush();
    expect(refused.value).toEqual({ approved: false });
    expect(fired).toEqual([{ approved: true }, { approved: false }]);
  });

  it('approveLogin checks its arguments and needs init()', async () => {
    const { win, game } = setup();
    await expect(game.approveLogin('', 'CODE')).rejects.toThrow(
      new TypeError('requestorId must be a non-empty string, got ""'),
    );
    await expect(game.approveLogin('r-1', 7 as unknown as string)).rejects.toThrow(
      new TypeError('userCode must be a non-empty string, got 7'),
    );
    expect(win.posted).toEqual([]);
    const early = new GameService(GAME_ID, ARCADE_ORIGIN, { window: new FakeGameWindow() });
    await expect(early.approveLogin('r-1', 'CODE')).rejects.toMatchObject({
      code: 'bridge_not_initialized',
      operation: 'approveLogin',
    });
  });
});
