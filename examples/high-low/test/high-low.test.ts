/* eslint-disable @typescript-eslint/no-non-null-assertion -- as in the packages tests: fixtures exist */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Arcade } from '@coinop/server-sdk';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowGame,
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  type GameFixture,
} from '@coinop/testkit/arcade';
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
      now: () => coinop.clock.now().getTime(),
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
    // 20 - 1, and the leaders' 0.7 back: nobody led the tier when the play began.
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({
      available: 1_970_000_000n,
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
    const real = await mintPlayerToken(coinop, playerId, undefined, game.gameId);
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

    const shortLived = await mintPlayerToken(coinop, playerId, 1, game.gameId);
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
    const ownerCall = gameServer(
      server.url,
      await mintPlayerToken(coinop, owner.playerId, undefined, game.gameId),
    );
    const otherCall = gameServer(
      server.url,
      await mintPlayerToken(coinop, other.playerId, undefined, game.gameId),
    );
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
    await allowGame(coinop, player, game.gameId, 0n); // revoked, as the player would
    const call = gameServer(
      server.url,
      await mintPlayerToken(coinop, player.playerId, undefined, game.gameId),
    );
    await expect(call('POST', '/api/games', { leaderboardId: game.tiers[0]!.id })).rejects.toThrow(
      "you have not allowed this game to charge you, or today's allowance is spent. Allow it " +
        `at ${webAppUrl(coinop.config)}/games/${game.gameId}#allowance and play again`,
    );
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({ available: 5n * UNITS });
  });

  it('serves its web page with the game SDK, under a CSP, and a 1920×1080 cover', async () => {
    const page = await fetch(server.url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain(`<meta name="coinop-game-id" content="${game.gameId}" />`);
    expect(html).toContain('<meta name="coinop-arcade" content="http://127.0.0.1:8082" />');
    expect(html).toContain('<button id="sign-in" type="button" disabled>');
    // Still says how to play from a terminal.
    expect(html).toContain('npm run play -w @coinop/example-high-low');
    expect(html).toContain(`node examples/high-low/client.mjs --server ${server.url}`);
    for (const [path, type] of [
      ['play.js', 'text/javascript; charset=utf-8'],
      ['style.css', 'text/css; charset=utf-8'],
      ['game-sdk.min.js', 'text/javascript; charset=utf-8'],
    ]) {
      const file = await fetch(`${server.url}${path}`);
      expect([path, file.status, file.headers.get('content-type')]).toEqual([path, 200, type]);
    }
    expect(await (await fetch(`${server.url}game-sdk.min.js`)).text()).toContain('GameService');
    const cover = Buffer.from(await (await fetch(`${server.url}cover.png`)).arrayBuffer());
    expect(cover.subarray(1, 4).toString()).toBe('PNG');
    expect([cover.readUInt32BE(16), cover.readUInt32BE(20)]).toEqual([1920, 1080]);
    expect(cover.length).toBeLessThan(50_000);
  });

  it('issue 17: signs a player in from its web page with a login the arcade approves', async () => {
    const player = await walletPlayer(20);
    const call = gameServer(server.url, null);
    const login = (await call('POST', '/api/logins')) as {
      loginId: string;
      requestorId: string;
      userCode: string;
    };
    expect(Object.keys(login).sort()).toEqual(['loginId', 'requestorId', 'userCode']);
    // The login names this game, so the arcade can check it is the game's own.
    const info = (await (
      await fetch(`${coinop.authUrl}/cli/${login.requestorId}/info?code=${login.userCode}`)
    ).json()) as { game: { id: string } | null; description: string; status: string };
    expect(info).toMatchObject({
      game: { id: game.gameId },
      description: 'High-Low web page in the arcade',
      status: 'pending',
    });
    const token = `/api/logins/${login.loginId}/token`;
    expect(await call('POST', token)).toEqual({ status: 'pending' });
    // Asked again at once: the server keeps the sign-in service's pace and does not poll.
    expect(await call('POST', token)).toEqual({ status: 'pending' });

    // The arcade page approves it with the player's web session (bridge `login`).
    const approved = await decide(
      coinop.auth,
      'approve',
      login.requestorId,
      login.userCode,
      player.access_token,
    );
    expect(approved.statusCode).toBe(200);
    coinop.clock.advance(5000);
    const signedIn = (await call('POST', token)) as {
      status: string;
      token: string;
      displayName: string;
    };
    expect(signedIn.status).toBe('approved');
    const [named] = await coinop.db.query<{ name: string }>(
      'SELECT name FROM players WHERE id = $1',
      [player.playerId],
    );
    expect(signedIn.displayName).toBe(named!.name);
    // A game token: it identifies the player to game servers, and opens nothing of the arcade.
    const claims = JSON.parse(
      Buffer.from(signedIn.token.split('.')[1]!, 'base64url').toString(),
    ) as { aud: string };
    expect(claims.aud).toBe('coinop:game');
    // Handed out once.
    await expect(call('POST', token)).rejects.toThrow(
      `no sign-in ${login.loginId} here (login_not_found)`,
    );

    const play = gameServer(server.url, signedIn.token);
    const started = await play('POST', '/api/games', { leaderboardId: game.tiers[0]!.id });
    expect(started).toMatchObject({ card: '7♣', streak: 0, over: false });
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({
      available: 19n * UNITS,
      pending: 1n * UNITS,
    });
  });

  it('issue 17: a sign-in the player rejects is refused, and an unknown one is not found', async () => {
    const player = await walletPlayer(1);
    const call = gameServer(server.url, null);
    const login = (await call('POST', '/api/logins')) as {
      loginId: string;
      requestorId: string;
      userCode: string;
    };
    await decide(coinop.auth, 'reject', login.requestorId, login.userCode, player.access_token);
    await expect(call('POST', `/api/logins/${login.loginId}/token`)).rejects.toThrow(
      'the login was rejected in the browser (access_denied)',
    );
    await expect(
      call('POST', '/api/logins/00000000-0000-4000-8000-000000000000/token'),
    ).rejects.toThrow('no sign-in 00000000-0000-4000-8000-000000000000 here (login_not_found)');
  });
});

describe('the terminal client command', () => {
  const client = fileURLToPath(new URL('../client.mjs', import.meta.url));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [client, ...args], { encoding: 'utf8', input: '' });

  it('issue 17: --help prints the usage and exits 0 (it crashed with a stack trace)', () => {
    const help = run('--help');
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^Usage: node client\.mjs \[--server URL\] \[--auth URL\]\n/);
    expect(help.stdout).toContain('  -h, --help    show this help and exit');
    expect(run('-h').stdout).toBe(help.stdout);
  });

  it.each([
    [['--bogus'], "high-low: Unknown option '--bogus'"],
    [['--server'], "high-low: Option '--server <value>' argument missing"],
    [['--server', 'ftp://x'], 'high-low: --server must be an http(s) URL, got "ftp://x"'],
    [['--auth', 'nowhere'], 'high-low: --auth must be an http(s) URL, got "nowhere"'],
    [['extra'], "high-low: Unexpected argument 'extra'"],
  ])('%j is a usage error naming the problem, without a stack trace', (args, first) => {
    const result = run(...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      expect.stringContaining(first),
      'Run "node client.mjs --help" for usage.',
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('says when the game server cannot be reached', () => {
    const result = run('--server', 'http://127.0.0.1:9');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^high-low: cannot reach the High-Low server at http:\/\/127\.0\.0\.1:9 \(.+\); is it running\? Start the arcade with npm start, or pass --server\n$/,
    );
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
    const game = await gameWithTiers(coinop);
    const player = await walletSignIn(coinop.auth, newWallet());
    const waits: number[] = [];
    let prompt: { url: string; userCode: string } | undefined;
    const token = await login({
      authUrl: coinop.authUrl,
      gameId: game.gameId,
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
      ...sdkOptions(coinop, game),
      clock: { now: () => coinop.clock.now() },
    });
    expect(await arcade.validatePlayerToken(token)).toMatchObject({ playerId: player.playerId });
  });
});
