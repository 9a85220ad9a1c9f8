import { describe, expect, it } from 'vitest';
import {
  BridgeErrorCodes,
  BridgeMessageTypes,
  createBridgeErrorReply,
  createBridgeReply,
  isBridgeErrorReplyType,
  isBridgeMessageType,
  parseBridgeErrorReply,
  parseBridgeReply,
  parseBridgeRequest,
  shouldSendBridgeErrorReply,
} from '../src/index.js';

const long = (n: number) => 'x'.repeat(n);

describe('bridge message types', () => {
  it('maps every wire type to the event its reply fires', () => {
    expect(BridgeMessageTypes).toEqual({
      play: 'play',
      score: 'score',
      leaderboard: 'leaderboard',
      transferHst: 'hstTransfer',
      hstTransfer: 'hstTransfer',
      tierChange: 'tierChange',
      login: 'login',
      boardPage: 'boardPage',
      boardAround: 'boardAround',
      boardUpdate: 'boardUpdate',
    });
    expect(BridgeErrorCodes).toEqual({
      bridge_timeout: 'Bridge reply timed out',
      bridge_not_initialized: 'Bridge not initialized',
      bridge_request_failed: 'Bridge request failed',
    });
  });

  it.each([
    ['play', true],
    ['transferHst', true],
    ['hstTransfer', true],
    ['tierChange', true],
    ['login', true],
    ['transfer', false],
    ['toString', false],
    ['__proto__', false],
    [1, false],
    [undefined, false],
  ])('isBridgeMessageType(%j) is %s', (value, expected) => {
    expect(isBridgeMessageType(value)).toBe(expected);
  });
});

describe('parseBridgeRequest', () => {
  it.each([
    [
      { type: 'play', gameId: 'g' },
      { type: 'play', gameId: 'g' },
    ],
    [
      { type: 'play', gameId: 'g', requestId: 'r.1', extra: true },
      { type: 'play', gameId: 'g', requestId: 'r.1' },
    ],
    [
      { type: 'score', gameId: 'g', playId: 'p', score: -12.5 },
      { type: 'score', gameId: 'g', playId: 'p', score: -12.5 },
    ],
    [
      { type: 'leaderboard', gameId: 'g', requestId: long(64) },
      { type: 'leaderboard', gameId: 'g', requestId: long(64) },
    ],
    [
      { type: 'transferHst', gameId: 'g', amount: 0.00000001 },
      { type: 'transferHst', gameId: 'g', amount: 0.00000001 },
    ],
    [
      { type: 'hstTransfer', gameId: long(200), amount: 3, requestId: 'r' },
      { type: 'hstTransfer', gameId: long(200), amount: 3, requestId: 'r' },
    ],
    // Issue 17: asking to be told the tier, and a server's login to approve.
    [
      { type: 'tierChange', gameId: 'g', tier: 'ignored' },
      { type: 'tierChange', gameId: 'g' },
    ],
    // Issue 31: asking for the game's boards as they change.
    [
      { type: 'boardUpdate', gameId: 'g', leaderboardId: 'ignored' },
      { type: 'boardUpdate', gameId: 'g' },
    ],
    [
      { type: 'login', gameId: 'g', requestorId: 'r-1', userCode: 'WDJB-MJHT', requestId: 'q.1' },
      { type: 'login', gameId: 'g', requestorId: 'r-1', userCode: 'WDJB-MJHT', requestId: 'q.1' },
    ],
    // Issue 30: a score may carry the run's replay, any string up to the bridge's bound.
    [
      { type: 'score', gameId: 'g', playId: 'p', score: 4200, replay: 'v1:LLRUD' },
      { type: 'score', gameId: 'g', playId: 'p', score: 4200, replay: 'v1:LLRUD' },
    ],
    [
      { type: 'score', gameId: 'g', playId: 'p', score: 0, replay: '' },
      { type: 'score', gameId: 'g', playId: 'p', score: 0, replay: '' },
    ],
    [
      { type: 'score', gameId: 'g', playId: 'p', score: 1, replay: long(1_048_576) },
      { type: 'score', gameId: 'g', playId: 'p', score: 1, replay: long(1_048_576) },
    ],
  ])('reads %j', (message, expected) => {
    expect(parseBridgeRequest(message)).toEqual(expected);
  });

  it.each([
    null,
    'play',
    [],
    {},
    { type: 'play' },
    { type: 'play', gameId: '' },
    { type: 'play', gameId: 7 },
    { type: 'play', gameId: long(201) },
    { type: 'play', gameId: 'g', requestId: '' },
    { type: 'play', gameId: 'g', requestId: 5 },
    { type: 'play', gameId: 'g', requestId: long(65) },
    { type: 'nope', gameId: 'g' },
    { type: 'score', gameId: 'g', playId: 'p' },
    { type: 'score', gameId: 'g', playId: '', score: 1 },
    { type: 'score', gameId: 'g', playId: 'p', score: '1' },
    { type: 'score', gameId: 'g', playId: 'p', score: Number.NaN },
    { type: 'score', gameId: 'g', playId: 'p', score: 1, replay: 42 },
    { type: 'score', gameId: 'g', playId: 'p', score: 1, replay: null },
    { type: 'score', gameId: 'g', playId: 'p', score: 1, replay: { moves: 'L' } },
    { type: 'score', gameId: 'g', playId: 'p', score: 1, replay: long(1_048_577) },
    { type: 'transferHst', gameId: 'g' },
    { type: 'transferHst', gameId: 'g', amount: 0 },
    { type: 'hstTransfer', gameId: 'g', amount: -1 },
    { type: 'hstTransfer', gameId: 'g', amount: Infinity },
    { type: 'tierChange', gameId: '' },
    { type: 'login', gameId: 'g', userCode: 'WDJB-MJHT' },
    { type: 'login', gameId: 'g', requestorId: '', userCode: 'WDJB-MJHT' },
    { type: 'login', gameId: 'g', requestorId: long(201), userCode: 'WDJB-MJHT' },
    { type: 'login', gameId: 'g', requestorId: 'r-1' },
    { type: 'login', gameId: 'g', requestorId: 'r-1', userCode: '' },
    { type: 'login', gameId: 'g', requestorId: 'r-1', userCode: long(33) },
    { type: 'login', gameId: 'g', requestorId: 'r-1', userCode: 'WDJB MJHT' },
    { type: 'login', gameId: 'g', requestorId: 'r-1', userCode: 42 },
  ])('ignores %j', (message) => {
    expect(parseBridgeRequest(message)).toBeUndefined();
  });
});

describe('parseBridgeReply', () => {
  const leader = { txid: 't', userId: 'u', score: 10, displayName: 'Ada', avatarUrl: 'a.png' };
  const tier = {
    id: 't-2',
    name: 'Gold',
    cost: 5,
    currency: 'HST',
    formattedCostString: '5 HST',
  } as const;

  it.each([
    [
      { type: 'play', data: { playId: 'p1' }, requestId: 'r.1' },
      { type: 'play', data: { playId: 'p1' }, requestId: 'r.1' },
    ],
    [
      { type: 'play', data: {} },
      { type: 'play', data: {} },
    ],
    [
      { type: 'play', data: { playId: null } },
      { type: 'play', data: {} },
    ],
    [
      { type: 'play', data: { playId: '' } },
      { type: 'play', data: {} },
    ],
    // A play locked from the wallet on chain carries the lock's transaction hash (issue 15).
    [
      { type: 'play', data: { playId: 'p1', txid: `0x${'ab'.repeat(32)}` } },
      { type: 'play', data: { playId: 'p1', txid: `0x${'ab'.repeat(32)}` } },
    ],
    [
      { type: 'play', data: { playId: 'p1', txid: null } },
      { type: 'play', data: { playId: 'p1' } },
    ],
    [
      { type: 'play', data: { txid: '0xab' } },
      { type: 'play', data: {} },
    ],
    // Issue 30: the play's seed, 64 lowercase hex; a malformed one is left out, the play kept.
    [
      { type: 'play', data: { playId: 'p1', seed: '0f'.repeat(32) } },
      { type: 'play', data: { playId: 'p1', seed: '0f'.repeat(32) } },
    ],
    [
      { type: 'play', data: { playId: 'p1', txid: '0xab', seed: 'a'.repeat(64) } },
      { type: 'play', data: { playId: 'p1', txid: '0xab', seed: 'a'.repeat(64) } },
    ],
    [
      { type: 'play', data: { playId: 'p1', seed: 'A'.repeat(64) } },
      { type: 'play', data: { playId: 'p1' } },
    ],
    [
      { type: 'play', data: { playId: 'p1', seed: 'a'.repeat(63) } },
      { type: 'play', data: { playId: 'p1' } },
    ],
    [
      { type: 'play', data: { playId: 'p1', seed: 7 } },
      { type: 'play', data: { playId: 'p1' } },
    ],
    [
      { type: 'play', data: { seed: 'a'.repeat(64) } },
      { type: 'play', data: {} },
    ],
    [
      { type: 'score', data: { playId: 'p1', rank: 3 } },
      { type: 'score', data: { playId: 'p1' } },
    ],
    [
      {
        type: 'leaderboard',
        data: { leaderboard: [leader, { txid: 'x', userId: 'v', score: 0 }] },
      },
      {
        type: 'leaderboard',
        data: { leaderboard: [leader, { txid: 'x', userId: 'v', score: 0 }] },
      },
    ],
    [
      { type: 'transferHst', data: { txid: 'tx' }, requestId: 'r.2' },
      { type: 'transferHst', data: { txid: 'tx' }, requestId: 'r.2' },
    ],
    [
      { type: 'hstTransfer', data: { txid: null } },
      { type: 'hstTransfer', data: {} },
    ],
    [
      { type: 'tierChange', data: { tier: { ...tier, leadersMax: 10 } } },
      { type: 'tierChange', data: { tier } },
    ],
    [
      { type: 'tierChange', data: { tier: { ...tier, cost: 0 } }, requestId: 'r.3' },
      { type: 'tierChange', data: { tier: { ...tier, cost: 0 } }, requestId: 'r.3' },
    ],
    [
      {
        type: 'boardUpdate',
        data: {
          leaderboardId: 't-1',
          leaderboard: [{ txid: '', userId: 'u', score: 4, displayName: 'Ada', rank: 1 }],
        },
      },
      {
        type: 'boardUpdate',
        data: {
          leaderboardId: 't-1',
          leaderboard: [{ txid: '', userId: 'u', score: 4, displayName: 'Ada' }],
        },
      },
    ],
    [
      { type: 'login', data: { approved: true }, requestId: 'r.4' },
      { type: 'login', data: { approved: true }, requestId: 'r.4' },
    ],
    [
      { type: 'login', data: { approved: false, token: 'never-here' } },
      { type: 'login', data: { approved: false } },
    ],
    // Why a signed-out player got no play or login, for the game to show; cut to length, and
    // never beside a play or an approval.
    [
      { type: 'play', data: { refusal: 'Not signed in.' } },
      { type: 'play', data: { refusal: 'Not signed in.' } },
    ],
    [
      { type: 'play', data: { playId: 'p', refusal: 'Not signed in.' } },
      { type: 'play', data: { playId: 'p' } },
    ],
    [
      { type: 'play', data: { refusal: 42 } },
      { type: 'play', data: {} },
    ],
    [
      { type: 'play', data: { refusal: 'x'.repeat(600) } },
      { type: 'play', data: { refusal: 'x'.repeat(500) } },
    ],
    [
      { type: 'login', data: { approved: false, refusal: 'Not signed in.' } },
      { type: 'login', data: { approved: false, refusal: 'Not signed in.' } },
    ],
    [
      { type: 'login', data: { approved: true, refusal: 'Not signed in.' } },
      { type: 'login', data: { approved: true } },
    ],
    // A payment refused for the same reason says so too; never beside a txid.
    [
      { type: 'hstTransfer', data: { refusal: 'Not signed in.' }, requestId: 'r.5' },
      { type: 'hstTransfer', data: { refusal: 'Not signed in.' }, requestId: 'r.5' },
    ],
    [
      { type: 'transferHst', data: { txid: 'tx-1', refusal: 'Not signed in.' } },
      { type: 'transferHst', data: { txid: 'tx-1' } },
    ],
    [
      { type: 'hstTransfer', data: { refusal: ['Not signed in.'] } },
      { type: 'hstTransfer', data: {} },
    ],
  ])('reads %j', (message, expected) => {
    expect(parseBridgeReply(message)).toEqual(expected);
  });

  it.each([
    null,
    { type: 'play' },
    { type: 'play', data: null },
    { type: 'play', data: [] },
    { type: 'play', data: { playId: 1 } },
    { type: 'play', data: { playId: 'p1', txid: 7 } },
    { type: 'play', data: { playId: 'p1', txid: long(201) } },
    { type: 'play', data: {}, requestId: '' },
    { type: 'play', data: {}, requestId: long(65) },
    { type: 'score', data: {} },
    { type: 'score', data: { playId: '' } },
    { type: 'leaderboard', data: {} },
    { type: 'leaderboard', data: { leaderboard: [{ userId: 'u', score: 1 }] } },
    { type: 'leaderboard', data: { leaderboard: [{ txid: 't', userId: 'u', score: '1' }] } },
    { type: 'leaderboard', data: { leaderboard: [null] } },
    { type: 'transferHst', data: { txid: 5 } },
    { type: 'hello', data: {} },
    { type: 'tierChange', data: {} },
    { type: 'tierChange', data: { tier: { ...tier, id: '' } } },
    { type: 'tierChange', data: { tier: { ...tier, name: 7 } } },
    { type: 'tierChange', data: { tier: { ...tier, cost: '5' } } },
    { type: 'tierChange', data: { tier: { ...tier, cost: -1 } } },
    { type: 'tierChange', data: { tier: { ...tier, currency: 'ETH' } } },
    { type: 'tierChange', data: { tier: { ...tier, formattedCostString: undefined } } },
    { type: 'login', data: {} },
    { type: 'login', data: { approved: 'yes' } },
    { type: 'boardUpdate', data: { leaderboard: [] } },
    { type: 'boardUpdate', data: { leaderboardId: '', leaderboard: [] } },
    { type: 'boardUpdate', data: { leaderboardId: 't-1' } },
    { type: 'boardUpdate', data: { leaderboardId: 't-1', leaderboard: [{ userId: 'u' }] } },
  ])('ignores %j', (message) => {
    expect(parseBridgeReply(message)).toBeUndefined();
  });
});

// Issue 18: board reads over the bridge, additive messages only a game that asks ever sees.
describe('board reads on the bridge', () => {
  const entry = { rank: 3, playerId: 'p-3', name: 'Ada', avatar: '/a.svg', score: 10 };

  it.each([
    [
      { type: 'boardPage', gameId: 'g', requestId: 'r.1' },
      { type: 'boardPage', gameId: 'g', requestId: 'r.1' },
    ],
    [
      { type: 'boardPage', gameId: 'g', leaderboardId: 't', cursor: 'YjE', limit: 100, x: 1 },
      { type: 'boardPage', gameId: 'g', leaderboardId: 't', cursor: 'YjE', limit: 100 },
    ],
    [
      { type: 'boardAround', gameId: 'g', leaderboardId: 't', count: 0 },
      { type: 'boardAround', gameId: 'g', leaderboardId: 't', count: 0 },
    ],
    [
      { type: 'boardAround', gameId: 'g', count: 50 },
      { type: 'boardAround', gameId: 'g', count: 50 },
    ],
  ])('reads the request %j', (message, expected) => {
    expect(parseBridgeRequest(message)).toEqual(expected);
  });

  it.each([
    { type: 'boardPage', gameId: 'g', limit: 0 },
    { type: 'boardPage', gameId: 'g', limit: 101 },
    { type: 'boardPage', gameId: 'g', limit: 2.5 },
    { type: 'boardPage', gameId: 'g', limit: '25' },
    { type: 'boardPage', gameId: 'g', cursor: '' },
    { type: 'boardPage', gameId: 'g', cursor: long(201) },
    { type: 'boardPage', gameId: 'g', leaderboardId: 7 },
    { type: 'boardAround', gameId: 'g', count: -1 },
    { type: 'boardAround', gameId: 'g', count: 51 },
    { type: 'boardAround', gameId: 'g', leaderboardId: '' },
  ])('ignores the request %j', (message) => {
    expect(parseBridgeRequest(message)).toBeUndefined();
  });

  it('reads a page and an around-me reply field for field, dropping the rest', () => {
    const page = { leaderboardId: 't', players: 4, entries: [entry], nextCursor: 'YjE' };
    expect(
      parseBridgeReply({
        type: 'boardPage',
        data: { ...page, entries: [{ ...entry, extra: 1 }], more: true },
        requestId: 'r.2',
      }),
    ).toEqual({ type: 'boardPage', data: page, requestId: 'r.2' });
    const last = { ...page, nextCursor: null };
    expect(parseBridgeReply({ type: 'boardPage', data: last })).toEqual({
      type: 'boardPage',
      data: last,
    });
    const around = { leaderboardId: 't', players: 4, above: [], player: entry, below: [entry] };
    expect(parseBridgeReply({ type: 'boardAround', data: around })).toEqual({
      type: 'boardAround',
      data: around,
    });
    const nobody = { ...around, player: null, below: [] };
    expect(parseBridgeReply({ type: 'boardAround', data: nobody })?.data).toEqual(nobody);
  });

  it.each([
    { leaderboardId: 't', players: 1, entries: [{ ...entry, rank: 0 }], nextCursor: null },
    { leaderboardId: 't', players: 1, entries: [{ ...entry, score: 'x' }], nextCursor: null },
    { leaderboardId: 't', players: 1, entries: [{ ...entry, avatar: null }], nextCursor: null },
    { leaderboardId: 't', players: -1, entries: [], nextCursor: null },
    { leaderboardId: 't', players: 1, entries: [] },
    { players: 1, entries: [], nextCursor: null },
  ])('ignores the page reply %j', (data) => {
    expect(parseBridgeReply({ type: 'boardPage', data })).toBeUndefined();
  });

  it.each([
    { leaderboardId: 't', players: 1, above: [], below: [] },
    { leaderboardId: 't', players: 1, above: [], player: { ...entry, name: 1 }, below: [] },
    { leaderboardId: 't', players: 1, above: {}, player: null, below: [] },
  ])('ignores the around-me reply %j', (data) => {
    expect(parseBridgeReply({ type: 'boardAround', data })).toBeUndefined();
  });
});

describe('createBridgeReply', () => {
  it('answers with the type asked and echoes requestId only when the request had one', () => {
    expect(
      createBridgeReply(
        { type: 'transferHst', gameId: 'g', amount: 1, requestId: 'r.1' },
        {
          txid: 'tx',
        },
      ),
    ).toEqual({ type: 'transferHst', data: { txid: 'tx' }, requestId: 'r.1' });
    const published = createBridgeReply({ type: 'play', gameId: 'g' }, { playId: 'p' });
    expect(published).toEqual({ type: 'play', data: { playId: 'p' } });
    expect('requestId' in published).toBe(false);
  });
});

describe('error replies to board reads (issue 18)', () => {
  const expired = { code: 'cursor_expired', message: 'start again', status: 410 };

  it('builds one for boardPage and boardAround, echoing requestId only when asked with one', () => {
    expect(
      createBridgeErrorReply(
        { type: 'boardPage', gameId: 'g', cursor: 'c', requestId: 'r.4' },
        expired,
      ),
    ).toEqual({ type: 'boardPage', error: expired, requestId: 'r.4' });
    const published = createBridgeErrorReply({ type: 'boardAround', gameId: 'g' }, expired);
    expect(published).toEqual({ type: 'boardAround', error: expired });
    expect('requestId' in published).toBe(false);
  });

  it('sends a code outside the catalogue as bridge_request_failed, a bad status as null, and cuts a long message', () => {
    expect(
      createBridgeErrorReply(
        { type: 'boardPage', gameId: 'g' },
        { code: 'teapot', message: long(600), status: 0 },
      ).error,
    ).toEqual({ code: 'bridge_request_failed', message: long(500), status: null });
  });

  it.each([
    [
      { type: 'boardPage', error: expired, requestId: 'r.4' },
      { type: 'boardPage', error: expired, requestId: 'r.4' },
    ],
    [
      { type: 'boardAround', error: { code: 'player_not_found', message: 'm', status: 404 } },
      { type: 'boardAround', error: { code: 'player_not_found', message: 'm', status: 404 } },
    ],
    [
      {
        type: 'boardPage',
        error: { code: 'bridge_request_failed', message: 'offline', status: null },
      },
      {
        type: 'boardPage',
        error: { code: 'bridge_request_failed', message: 'offline', status: null },
      },
    ],
    // A newer arcade's code, kept as it came.
    [
      { type: 'boardPage', error: { code: 'board_on_fire', message: 'm', status: 503 } },
      { type: 'boardPage', error: { code: 'board_on_fire', message: 'm', status: 503 } },
    ],
  ])('reads %j', (value, expected) => {
    expect(parseBridgeErrorReply(value)).toEqual(expected);
  });

  it.each([
    // Only the board reads, a score and a leaderboard read may fail by reply: a play, a payment
    // or a login never does.
    { type: 'play', error: expired },
    { type: 'login', error: expired },
    { type: 'transferHst', error: expired },
    { type: 'score', data: { playId: 'p1' }, error: expired },
    { type: 'boardPage', data: {}, error: expired },
    { type: 'boardPage' },
    { type: 'boardPage', error: { ...expired, code: 1 } },
    { type: 'boardPage', error: { ...expired, code: long(65) } },
    { type: 'boardPage', error: { ...expired, code: '' } },
    { type: 'boardPage', error: { code: 'cursor_expired', status: 410 } },
    { type: 'boardPage', error: { ...expired, status: 99 } },
    { type: 'boardPage', error: { ...expired, status: '410' } },
    { type: 'boardPage', error: { code: 'cursor_expired', message: 'm' } },
    { type: 'boardPage', error: expired, requestId: long(65) },
    null,
    'boardPage',
  ])('ignores %j', (value) => {
    expect(parseBridgeErrorReply(value)).toBeUndefined();
  });

  it('is not a reply with data', () => {
    expect(parseBridgeReply({ type: 'boardPage', error: expired })).toBeUndefined();
    expect(isBridgeErrorReplyType('boardPage')).toBe(true);
    expect(isBridgeErrorReplyType('boardAround')).toBe(true);
    expect(isBridgeErrorReplyType('score')).toBe(true);
    expect(isBridgeErrorReplyType('leaderboard')).toBe(true);
    expect(isBridgeErrorReplyType('play')).toBe(false);
    expect(isBridgeErrorReplyType('login')).toBe(false);
  });
});

describe('error replies to scores (issue 30)', () => {
  const rejected = {
    code: 'replay_rejected',
    message: 'the replay earns 120, not 4200',
    status: 422,
  };
  const score = { type: 'score', gameId: 'g', playId: 'p1', score: 4200 } as const;

  it('builds one for a refused score, with its code, message, status and requestId', () => {
    expect(createBridgeErrorReply({ ...score, requestId: 'k3x9.5' }, rejected)).toEqual({
      type: 'score',
      error: rejected,
      requestId: 'k3x9.5',
    });
    // A host's 502 without a problem body reaches the game as what it is: no catalogue code.
    expect(
      createBridgeErrorReply(
        { ...score, requestId: 'k3x9.6' },
        { code: 'http_502', message: 'the arcade answered 502', status: 502 },
      ).error,
    ).toEqual({ code: 'bridge_request_failed', message: 'the arcade answered 502', status: 502 });
  });

  it.each([
    ['score_out_of_bounds', 422],
    ['score_too_fast', 422],
    ['replay_required', 422],
    ['replay_rejected', 422],
    ['replay_too_large', 413],
    ['play_expired', 409],
    ['play_already_scored', 409],
  ])('a game reads a %s (%i) reply to its score', (code, status) => {
    const value = { type: 'score', error: { code, message: 'm', status }, requestId: 'k3x9.7' };
    expect(parseBridgeErrorReply(value)).toEqual(value);
    // Not a score reply with data: parseBridgeReply leaves it to parseBridgeErrorReply.
    expect(parseBridgeReply(value)).toBeUndefined();
  });

  it('is sent to a score or a leaderboard read only with a requestId, to a board read always, to nothing else', () => {
    // haste-arcade-sdk@1.1.5 sends no requestId and knows no error reply: its score gets none.
    expect(shouldSendBridgeErrorReply(score)).toBe(false);
    expect(shouldSendBridgeErrorReply({ ...score, requestId: 'k3x9.5' })).toBe(true);
    expect(shouldSendBridgeErrorReply({ type: 'boardPage', gameId: 'g' })).toBe(true);
    // A leaderboard read as haste-arcade-sdk@1.1.5 sends it (no requestId) gets no error reply.
    expect(shouldSendBridgeErrorReply({ type: 'leaderboard', gameId: 'g' })).toBe(false);
    expect(shouldSendBridgeErrorReply({ type: 'leaderboard', gameId: 'g', requestId: 'r' })).toBe(
      true,
    );
    expect(shouldSendBridgeErrorReply({ type: 'boardAround', gameId: 'g', requestId: 'r' })).toBe(
      true,
    );
    // A failed play or payment is answered "not paid" ({}), a login "not approved"; a tier
    // subscription is answered from the page's state.
    for (const type of ['play', 'tierChange'] as const) {
      expect(shouldSendBridgeErrorReply({ type, gameId: 'g', requestId: 'r.1' })).toBe(false);
    }
    expect(
      shouldSendBridgeErrorReply({ type: 'transferHst', gameId: 'g', amount: 1, requestId: 'r' }),
    ).toBe(false);
    expect(
      shouldSendBridgeErrorReply({
        type: 'login',
        gameId: 'g',
        requestorId: 'x',
        userCode: 'ABCD-EFGH',
        requestId: 'r',
      }),
    ).toBe(false);
  });
});
