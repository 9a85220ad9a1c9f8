/* eslint-disable @typescript-eslint/no-non-null-assertion -- as in the packages tests: fixtures exist */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Arcade } from '@coinop/server-sdk';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { webAppUrl } from '@coinop/testkit/server';
import { decide, newWallet, walletSignIn } from '@coinop/testkit/signin';
import {
  fund,
  mintPlayerToken,
  sdkOptions,
  startCoinop,
  type Coinop,
} from '@coinop/testkit/coinop';
import { gameServer, playInTerminal } from '../src/client.js';
import type { Card } from '../src/game.js';
import { LoginError, login } from '../src/login.js';
import { resolveCredentials } from '../src/credentials.js';
import { startHighLowServer } from '../src/server.js';

const UNITS = 100_000_000n;
const cards = (...ranks: number[]): Card[] => ranks.map((rank) => ({ rank, suit: '♣' }));
/** 7, then 9 (higher), 3 (lower), 12 (higher), 2: a streak of 3 for h, l, h, h. */
const DECK = cards(7, 9, 3, 12, 2, 5, 6);

describe.each(storeVariants())('High-Low against a running coinop on %s', (variant) => {
  let coinop: Coinop;
  let game: GameFixture;
  let server: Awaited<ReturnType<typeof startHighLowServer>>;

  beforeAll(async () => {
    coinop = await startCoinop(variant);
    game = await gameWithTiers(coinop, { costs: [1, 10] });
    // The SDK reads the arcade's hand-moved clock, so a token can be made to expire.
    const arcade = await Arcade.build({
      ...sdkOptions(coinop, game),
      clock: { now: () => coinop.clock.now() },
    });
    server = await startHighLowServer({
      arcade,
      authUrl: coinop.authUrl,
      port: 0,
      newDeck: () => [...DECK],
    });
  });
  afterAll(async () => {
    await server?.close();
    await coinop?.close();
  });

  it('makes its own client on a local arcade once, and uses it again on the next start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'high-low-data-'));
    try {
      const lines: string[] = [];
      const options = {
        apiUrl: coinop.baseUrl,
        clientId: undefined,
        clientSecret: undefined,
        gameId: game.gameId,
        adminToken: TEST_ADMIN_TOKEN,
        dataDir,
        log: (line: string) => lines.push(line),
      };
      const first = await resolveCredentials(options);
      const second = await resolveCredentials(options);
      expect(second).toEqual(first);
      expect(lines).toHaveLength(1);
      const clients = await coinop.db.query<{ client_id: string }>(
        'SELECT client_id FROM game_clients WHERE game_id = $1 AND client_id = $2',
        [game.gameId, first.clientId],
      );
      expect(clients).toHaveLength(1);
      const token = await fetch(`${coinop.baseUrl}/oauth/writetoken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: first.clientId, client_secret: first.clientSecret }),
      });
      expect(token.status).toBe(200);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  /** A player signed in with a wallet, as on the approval page, holding `hst`. */
  async function walletPlayer(hst: number) {
    const session = await walletSignIn(coinop.auth, newWallet());
    const accountId = await fund(coinop, session.playerId, hst);
    return { ...session, accountId };
  }

  it('signs in from the terminal, plays a dealt game and scores it on the leaderboard', async () => {
    const player = await walletPlayer(20);
    const before = await balanceOf(coinop, game.developerAccountId);
    const answers = ['9', '1', 'x', 'h', 'l', 'h', 'h'];
    const printed: string[] = [];
    let polls = 0;
    const final = await playInTerminal({
      serverUrl: server.url,
      terminal: {
        print: (line) => printed.push(line),
        ask: async () => answers.shift() ?? 'q',
      },
      // Time passes on the arcade's clock; the login is approved after the first pending poll.
      sleep: async (ms) => {
        coinop.clock.advance(ms);
        polls += 1;
        if (polls === 2) {
          const line = printed.find((l) => l.startsWith('To sign in, open '))!;
          const url = new URL(line.slice('To sign in, open '.length));
          const code = url.searchParams.get('code')!;
          expect(printed).toContain(`and check that it shows the code ${code}; approve it there.`);
          const requestorId = url.searchParams.get('requestorId')!;
          const approved = await decide(
            coinop.auth,
            'approve',
            requestorId,
            code,
            player.access_token,
          );
          expect(approved.statusCode).toBe(200);
        }
      },
    });
    expect(polls).toBe(2);
    expect(printed.find((l) => l.startsWith('To sign in'))).toMatch(
      new RegExp(`^To sign in, open ${coinop.authUrl}/cli/login\\?requestorId=[0-9a-f-]{36}&code=`),
    );
    expect(printed).toContain('Signed in.');
    expect(printed).toContain('  1. Tier 1: 1 HST per play');
    expect(printed).toContain('  2. Tier 2: 10 HST per play');
    expect(printed.slice(-5)).toEqual([
      '9♣: right. Streak 1.',
      '3♣: right. Streak 2.',
      'Q♣: right. Streak 3.',
      '2♣: wrong. Streak 3.',
      'Game over. Score 3 submitted. You are number 1 on the board.',
    ]);
    expect(final).toMatchObject({ over: true, streak: 3, score: { score: 3, isWinner: true } });

    // The arcade's own records: the score on the tier's board, the play scored, the HST moved.
    const arcade = await Arcade.build(sdkOptions(coinop, game));
    expect(await arcade.leaders(game.tiers[0]!.id)).toEqual([
      expect.objectContaining({ playerId: player.playerId, score: 3 }),
    ]);
    expect((await arcade.playById(final.playId)).status).toBe('scored');
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({
      available: 19n * UNITS,
      pending: 0n,
    });
    const after = await balanceOf(coinop, game.developerAccountId);
    expect(after.creditsPosted).toBeGreaterThan(before.creditsPosted);
  });

  it('refuses a missing, forged or expired player token before opening a play', async () => {
    const { playerId, accountId } = await fundedPlayer(coinop, 5);
    const body = { leaderboardId: game.tiers[0]!.id };
    await expect(gameServer(server.url, null)('POST', '/api/games', body)).rejects.toThrow(
      /\(player_token_missing\)$/,
    );

    // The right claims, signed by a key the sign-in service never published.
    const real = await mintPlayerToken(coinop, playerId);
    const claims = JSON.parse(Buffer.from(real.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const header = JSON.parse(Buffer.from(real.split('.')[0]!, 'base64url').toString()) as {
      kid: string;
    };
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: header.kid })
      .sign(privateKey);
    await expect(gameServer(server.url, forged)('POST', '/api/games', body)).rejects.toThrow(
      /\(player_token_bad_signature\)$/,
    );

    const shortLived = await mintPlayerToken(coinop, playerId, 1);
    coinop.clock.advance(2000);
    await expect(gameServer(server.url, shortLived)('POST', '/api/games', body)).rejects.toThrow(
      /\(player_token_expired\)$/,
    );
    expect(await balanceOf(coinop, accountId)).toMatchObject({
      available: 5n * UNITS,
      pending: 0n,
    });
  });

  it("keeps a player out of another player's game, and says when HST is short", async () => {
    const owner = await fundedPlayer(coinop, 5);
    const other = await fundedPlayer(coinop, 5);
    const ownerCall = gameServer(server.url, await mintPlayerToken(coinop, owner.playerId));
    const otherCall = gameServer(server.url, await mintPlayerToken(coinop, other.playerId));
    const started = await ownerCall('POST', '/api/games', { leaderboardId: game.tiers[0]!.id });
    expect(started).toMatchObject({ card: '7♣', streak: 0, over: false, cardsLeft: 6 });
    await expect(
      otherCall('POST', `/api/games/${started.gameId}/guess`, { guess: 'higher' }),
    ).rejects.toThrow(`game ${started.gameId} belongs to another player (game_of_another_player)`);
    await expect(
      ownerCall('POST', `/api/games/${started.gameId}/guess`, { guess: 'sideways' }),
    ).rejects.toThrow('guess must be "higher" or "lower" (validation_failed)');
    await expect(
      otherCall('POST', '/api/games', { leaderboardId: game.tiers[1]!.id }),
    ).rejects.toThrow(/\(insufficient_funds\)$/);
  });

  it('sends a player who has not allowed the game to charge them to where they can', async () => {
    const player = await fundedPlayer(coinop, 5);
    await coinop.app.arcade.consent.grant(player.playerId, game.gameId, 0n); // revoked
    const call = gameServer(server.url, await mintPlayerToken(coinop, player.playerId));
    await expect(call('POST', '/api/games', { leaderboardId: game.tiers[0]!.id })).rejects.toThrow(
      "you have not allowed this game to charge you, or today's allowance is spent. Allow it " +
        `at ${webAppUrl(coinop.config)}/games/${game.gameId}#allowance and play again`,
    );
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({ available: 5n * UNITS });
  });

  it('serves an info page and a 1920×1080 cover', async () => {
    const page = await fetch(server.url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('npm run play -w @coinop/example-high-low');
    const cover = Buffer.from(await (await fetch(`${server.url}cover.png`)).arrayBuffer());
    expect(cover.subarray(1, 4).toString()).toBe('PNG');
    expect([cover.readUInt32BE(16), cover.readUInt32BE(20)]).toEqual([1920, 1080]);
    expect(cover.length).toBeLessThan(50_000);
  });
});

describe('the CLI login client', () => {
  let coinop: Coinop;
  beforeAll(async () => {
    coinop = await startCoinop('pglite');
  });
  afterAll(() => coinop?.close());

  it('stops with access_denied when the login is rejected in the browser', async () => {
    const player = await walletSignIn(coinop.auth, newWallet());
    let prompt: { url: string; userCode: string } | undefined;
    const attempt = login({
      authUrl: coinop.authUrl,
      onPrompt: (p) => {
        prompt = p;
      },
      sleep: async (ms) => {
        coinop.clock.advance(ms);
        const url = new URL(prompt!.url);
        await decide(
          coinop.auth,
          'reject',
          url.searchParams.get('requestorId')!,
          prompt!.userCode,
          player.access_token,
        );
      },
    });
    await expect(attempt).rejects.toThrow(
      new LoginError('access_denied', 'the login was rejected in the browser'),
    );
    expect(prompt?.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  });

  it('slows down when told to, then gets the token', async () => {
    const player = await walletSignIn(coinop.auth, newWallet());
    const waits: number[] = [];
    let prompt: { url: string; userCode: string } | undefined;
    const token = await login({
      authUrl: coinop.authUrl,
      onPrompt: (p) => {
        prompt = p;
      },
      sleep: async (ms) => {
        waits.push(ms);
        // The second wait is cut short, so the second poll comes too soon: slow_down.
        coinop.clock.advance(waits.length === 2 ? 0 : ms);
        if (waits.length === 3) {
          const url = new URL(prompt!.url);
          await decide(
            coinop.auth,
            'approve',
            url.searchParams.get('requestorId')!,
            prompt!.userCode,
            player.access_token,
          );
        }
      },
    });
    expect(waits).toEqual([waits[0], waits[0], waits[0]! + 5000]);
    const arcade = await Arcade.build({
      ...sdkOptions(coinop, await gameWithTiers(coinop)),
      clock: { now: () => coinop.clock.now() },
    });
    expect(await arcade.validatePlayerToken(token)).toMatchObject({ playerId: player.playerId });
  });
});
