import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishRequests } from '../../src/services/publish-requests.js';
import { wholeHstToUnits } from '@coinop/core';
import { freePort } from '@coinop/testkit/net';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { insertGame } from '../../src/store/games.js';
import { uuidIds } from '../../src/ids.js';
import { cleanEnv, runCli } from './run-cli.js';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('coinop admin against a running server (PGlite on disk)', () => {
  let dataDir: string;
  let server: RunningServer;
  let common: string[];

  const start = () => startServer(testConfig({ apiPort: 0, dataDir }));
  const admin = async (...args: string[]) => {
    const run = await runCli(['admin', ...args, ...common]);
    return { ...run, json: run.stdout === '' ? null : JSON.parse(run.stdout) };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-cli-'));
    server = await start();
    common = ['--server', server.url, '--data-dir', dataDir];
  });
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function createGame(): Promise<string> {
    const arcade = server.api.arcade;
    const developer = await admin('developer', 'create', '--wallet', `0x${'c'.repeat(40)}`);
    const game = await arcade.db.transaction((tx) =>
      insertGame(
        tx,
        arcade.clock,
        uuidIds,
        arcade.record.id,
        {
          developerId: developer.json.developerId,
          name: 'CLI game',
          description: '',
          category: '',
          developerInfo: '',
          tagLine: '',
          url: '',
          coverUrl: '',
          scoreDisplay: 'NORMAL',
          prodDomain: null,
        },
        [{ name: 'Practice', costUnits: wholeHstToUnits(1), leadersMax: 10 }],
      ),
    );
    return game.id;
  }

  it('describes each group of admin commands in the help, not just by its name', async () => {
    const help = await runCli(['admin', '--help']);
    expect(help.code).toBe(0);
    // The Commands section: up to the blank line before the text that follows it.
    const commands = help.stdout.split('Commands:\n')[1]?.split('\n\n')[0] ?? '';
    const groups = commands
      .split('\n')
      .map((line) => /^ {2}([a-z]+) +(.+)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && m[1] !== 'help');
    expect(groups.map((m) => m[1])).toEqual([
      'developer',
      'client',
      'player',
      'keys',
      'hst',
      'game',
      'publish',
      'scores',
      'leaderboard',
      'tournament',
      'chain',
    ]);
    for (const [, name, description] of groups) {
      expect(description).not.toBe(`${name} commands`);
      expect(description!.length).toBeGreaterThan(20);
    }
  });

  it('creates, lists and stops a tournament (issue 18), and names a bad field', async () => {
    const gameId = await createGame();
    const bad = await admin(
      'tournament',
      'create',
      ...['--game', gameId, '--name', 'CLI Cup', '--entry-fee', '1', '--duration', '3600'],
      ...['--places', '6000,3000'],
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('payoutTable.places must sum to 10000');
    const made = await admin(
      'tournament',
      'create',
      ...['--game', gameId, '--name', 'CLI Cup', '--entry-fee', '0.5', '--duration', '3600'],
      ...['--recurrence', '0 0 * * 1', '--places', '7000,3000', '--max-attempts', '3'],
    );
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.json).toMatchObject({
      gameId,
      name: 'CLI Cup',
      entryFee: '0.5',
      guaranteedPool: '0',
      payoutTable: { places: [7000, 3000] },
      recurrence: '0 0 * * 1',
      maxAttempts: 3,
      createdBy: 'operator',
      currentRound: { number: 1, status: 'open', boardName: 'CLI Cup #1' },
    });
    const list = await admin('tournament', 'list');
    expect(list.json.tournaments.map((t: { id: string }) => t.id)).toContain(made.json.id);
    const stopped = await admin('tournament', 'stop', made.json.id);
    expect(stopped).toMatchObject({ code: 0, json: { id: made.json.id } });
    expect(stopped.json.stoppedAt).toEqual(expect.any(String));
  });

  it('generates the admin token into <data-dir>/admin-token with mode 0600', async () => {
    const path = join(dataDir, 'admin-token');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, 'utf8')).trim()).toMatch(/^cat_[\w-]{43}$/);
  });

  it('creates a developer', async () => {
    const run = await admin('developer', 'create', '--wallet', `0x${'d'.repeat(40)}`);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.json).toEqual({
      developerId: expect.any(String),
      apiKey: expect.stringMatching(/^ck_/),
    });
  });

  it('fails the audit (exit 1) when the ledger does not balance', async () => {
    const player = await admin('player', 'create', '--wallet', `0x${'a'.repeat(40)}`);
    const { playerId } = player.json as { playerId: string };
    expect(await admin('hst', 'audit')).toMatchObject({ code: 0, stderr: '' });
    // A balance that no transfer accounts for: what the audit exists to catch.
    const db = server.api.arcade.db;
    const tamper = (delta: number) =>
      db.query(
        `UPDATE accounts SET credits_posted = credits_posted + $2
         WHERE id = (SELECT account_id FROM players WHERE id = $1)`,
        [playerId, delta],
      );
    await tamper(1);
    try {
      const audit = await admin('hst', 'audit');
      expect(audit.code).toBe(1);
      expect(audit.json).toMatchObject({ balanced: false });
      expect(audit.stderr).toBe(
        'coinop: the ledger does not balance: stop and investigate (docs/concepts/ledger.md)\n',
      );
    } finally {
      await tamper(-1);
    }
    expect((await admin('hst', 'audit')).code).toBe(0);
  });

  it('creates a player, mints, and reports balance and audit in HST', async () => {
    const player = await admin(
      'player',
      'create',
      '--wallet',
      `0x${'e'.repeat(40)}`,
      '--name',
      'Eve',
    );
    expect(player).toMatchObject({ code: 0, stderr: '' });
    const { playerId } = player.json as { playerId: string };

    const minted = await admin('hst', 'mint', '--account', playerId, '--amount', '12.5');
    expect(minted).toMatchObject({ code: 0, stderr: '' });
    expect(minted.json).toEqual({ transferId: expect.any(String), balance: '12.5' });

    const tiny = await admin('hst', 'mint', '--account', playerId, '--amount', '0.00000001');
    expect(tiny.json).toMatchObject({ balance: '12.50000001' });

    const balance = await admin('hst', 'balance', '--account', playerId);
    expect(balance.code).toBe(0);
    expect(balance.json).toEqual({
      accountId: expect.any(String),
      balance: '12.50000001',
      pending: '0',
    });

    const audit = await admin('hst', 'audit');
    expect(audit.json).toEqual({
      debitsPosted: '12.50000001',
      creditsPosted: '12.50000001',
      debitsPending: '0',
      creditsPending: '0',
      minted: '12.50000001',
      vaultHeld: '0',
      balanced: true,
    });
  });

  it('prints amounts as the exact strings the server gave, past what a double holds', async () => {
    const player = await admin('player', 'create', '--wallet', `0x${'b'.repeat(40)}`);
    const { playerId } = player.json as { playerId: string };
    // The largest mint: 99999999999999999 base units, past 2^53, which no JSON number holds.
    const minted = await admin(
      'hst',
      'mint',
      '--account',
      playerId,
      '--amount',
      '999999999.99999999',
    );
    expect(minted).toMatchObject({ code: 0, stderr: '' });
    expect(minted.stdout).toContain('"balance": "999999999.99999999"');
    const balance = await admin('hst', 'balance', '--account', playerId);
    expect(balance.stdout).toContain('"balance": "999999999.99999999",\n  "pending": "0"');
    const got = await admin('player', 'get', playerId);
    expect(got.json).toMatchObject({ balance: '999999999.99999999', pending: '0' });
  });

  it('issues a client, publishes a game and adds a leaderboard', async () => {
    const gameId = await createGame();
    const client = await admin('client', 'create', '--game', gameId);
    expect(client).toMatchObject({ code: 0, stderr: '' });
    expect(client.json).toEqual({
      clientId: expect.stringMatching(/^cid_/),
      clientSecret: expect.stringMatching(/^csec_/),
    });

    const published = await admin('game', 'publish', '--game', gameId);
    expect(published.code).toBe(0);
    expect(published.json).toMatchObject({ id: gameId, publishedAt: expect.any(String) });

    const board = await admin(
      'leaderboard',
      'create',
      '--game',
      gameId,
      '--name',
      'Big',
      '--cost',
      '25',
      '--leaders-max',
      '5',
    );
    expect(board).toMatchObject({ code: 0, stderr: '' });
    const [row] = await server.api.arcade.db.query<{ cost_units: bigint; leaders_max: number }>(
      'SELECT cost_units, leaders_max FROM leaderboards WHERE id = $1',
      [board.json.id],
    );
    expect(row).toEqual({ cost_units: 2_500_000_000n, leaders_max: 5 });
  });

  it('serves the publish queue: lists, declines with a reason, approves once', async () => {
    const gameId = await createGame();
    const requests = new PublishRequests(server.api.arcade);
    const first = (await requests.request(gameId, 'Ready for players')).request;
    const queue = await admin('publish', 'list', '--limit', '100');
    expect(queue).toMatchObject({ code: 0, stderr: '' });
    expect(queue.json.requests).toContainEqual(
      expect.objectContaining({
        requestId: first.id,
        gameId,
        gameName: 'CLI game',
        state: 'pending',
        note: 'Ready for players',
        game: expect.objectContaining({ developerWallet: `0x${'c'.repeat(40)}`, tiers: 1 }),
      }),
    );

    const declined = await admin('publish', 'decline', first.id, '--reason', 'Set its URL first');
    expect(declined).toMatchObject({ code: 0, stderr: '' });
    expect(declined.json).toMatchObject({ state: 'declined', declineReason: 'Set its URL first' });
    const late = await admin('publish', 'approve', first.id);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`publish request ${first.id} was declined already`);

    const second = (await requests.request(gameId, '')).request;
    const approved = await admin('publish', 'approve', second.id);
    expect(approved).toMatchObject({ code: 0, stderr: '' });
    expect(approved.json).toMatchObject({ state: 'approved', game: { state: 'published' } });
    const again = await admin('publish', 'approve', second.id);
    expect(again.json).toEqual(approved.json);
    const history = await admin('publish', 'list', '--all', '--limit', '100');
    const states = (history.json.requests as { requestId: string; state: string }[])
      .filter((r) => r.requestId === first.id || r.requestId === second.id)
      .map((r) => r.state);
    expect(states).toEqual(['declined', 'approved']);
    const bad = await admin('publish', 'decline', second.id, '--reason', '');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('reason');
  });

  it('lists games and developers, unpublishes a game, and finds a player by wallet', async () => {
    const gameId = await createGame();
    const listed = await admin('game', 'list', '--limit', '1');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const developerWallet = `0x${'c'.repeat(40)}`;
    expect(listed.json).toEqual({
      games: [
        {
          gameId,
          name: 'CLI game',
          state: 'unpublished',
          developerId: expect.any(String),
          developerWallet,
          tiers: 1,
          publishedAt: null,
          suspendedAt: null,
          createdAt: expect.any(String),
          payoutHoldSeconds: 0,
        },
      ],
      next: gameId,
    });
    const { developerId } = listed.json.games[0] as { developerId: string };

    expect((await admin('game', 'publish', '--game', gameId)).code).toBe(0);
    const unpublished = await admin('game', 'unpublish', '--game', gameId);
    expect(unpublished).toMatchObject({ code: 0, stderr: '' });
    expect(unpublished.json).toMatchObject({ gameId, state: 'unpublished', publishedAt: null });

    const developers = await admin('developer', 'list', '--limit', '100');
    expect(developers.code).toBe(0);
    const mine = (developers.json.developers as { developerId: string }[]).find(
      (d) => d.developerId === developerId,
    );
    expect(mine).toMatchObject({ wallet: developerWallet, games: expect.any(Number) });

    const wallet = `0x${'9'.repeat(40)}`;
    const created = await admin('player', 'create', '--wallet', wallet, '--name', 'Nine');
    const { playerId } = created.json as { playerId: string };
    const minted = await admin('hst', 'mint', '--account', wallet, '--amount', '3');
    expect(minted).toMatchObject({ code: 0, json: { balance: '3' } });
    const byWallet = await admin('player', 'get', wallet);
    const searched = await admin('player', 'list', '--search', 'nine');
    expect(searched.json.players).toEqual([
      expect.objectContaining({ playerId: created.json.playerId, name: 'Nine', balance: '3' }),
    ]);
    expect(byWallet).toMatchObject({ code: 0, stderr: '' });
    expect(byWallet.json).toEqual({
      playerId,
      wallet,
      name: 'Nine',
      accountId: expect.any(String),
      balance: '3',
      pending: '0',
      createdAt: expect.any(String),
    });
    expect((await admin('player', 'get', playerId)).json).toEqual(byWallet.json);
    // Their history: the operator's mint, then paged one line at a time.
    const activity = await admin('player', 'activity', wallet, '--limit', '1');
    expect(activity).toMatchObject({ code: 0, stderr: '' });
    expect(activity.json).toEqual({
      items: [{ kind: 'grant', id: minted.json.transferId, at: expect.any(String), amount: '3' }],
      nextCursor: null,
    });
    expect((await admin('player', 'activity', playerId, '--kind', 'play')).json).toEqual({
      items: [],
      nextCursor: null,
    });
    const balance = await admin('hst', 'balance', '--account', wallet);
    expect(balance.json).toEqual({
      accountId: byWallet.json.accountId,
      balance: '3',
      pending: '0',
    });

    // The developer's wallet has a player too now: a wallet naming both is refused, by name.
    await admin('player', 'create', '--wallet', developerWallet);
    const both = await admin('hst', 'balance', '--account', developerWallet);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(
      new RegExp(
        `^coinop: wallet ${developerWallet} is both player [0-9a-f-]{36} and developer ${developerId}: give the id of the one you mean\\n$`,
      ),
    );
    // Issue 31: the operator resets an abusive name, keeping why.
    const reset = await admin('player', 'reset-profile', wallet, '--reason', 'rude name');
    expect(reset).toMatchObject({ code: 0, stderr: '' });
    expect(reset.json).toMatchObject({
      playerId,
      name: '0x9999…9999',
      previousName: 'Nine',
      reason: 'rude name',
      nameChosen: false,
      avatarUploaded: false,
    });
    const noReason = await admin('player', 'reset-profile', wallet);
    expect(noReason.code).not.toBe(0);
    expect(noReason.stderr).toContain('--reason');
    const nobody = await admin('player', 'get', `0x${'8'.repeat(40)}`);
    expect(nobody).toMatchObject({
      code: 1,
      stderr: `coinop: no player has wallet 0x${'8'.repeat(40)}\n`,
    });
  });

  it('says in the help of each command of a group what it does', async () => {
    const game = await runCli(['admin', 'game', '--help']);
    expect(game.code).toBe(0);
    expect(game.stdout).toContain('games: list them; publish, unpublish, suspend and resume one');
    for (const verb of ['list', 'publish', 'unpublish', 'suspend', 'resume']) {
      expect(game.stdout).toMatch(new RegExp(`^  ${verb} \\[options\\] +\\S`, 'm'));
    }
    const mint = await runCli(['admin', 'hst', 'mint', '--help']);
    expect(mint.stdout).toContain('--account <id|wallet>');
    const admin = await runCli(['admin', '--help']);
    expect(admin.stdout).toContain('COINOP_ADMIN_TOKEN');
  });

  it('voids a score by id with a reason, and says so when there is no such score (issue 30)', async () => {
    const run = await admin('scores', 'void', UNKNOWN_ID, '--reason', 'impossible time');
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `coinop: no score ${UNKNOWN_ID} in this arcade\n`,
      json: null,
    });
    const noReason = await runCli(['admin', 'scores', 'void', UNKNOWN_ID]);
    expect(noReason.code).not.toBe(0);
    expect(noReason.stderr).toContain('--reason');
  });

  it('prints the problem message on one stderr line and exits 1 for an API error', async () => {
    const run = await admin('client', 'create', '--game', UNKNOWN_ID);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `coinop: game ${UNKNOWN_ID} does not exist\n`,
      json: null,
    });
    const badAmount = await admin(
      'hst',
      'mint',
      '--account',
      UNKNOWN_ID,
      '--amount',
      '1.000000001',
    );
    expect(badAmount.code).toBe(1);
    expect(badAmount.stderr).toBe('coinop: amount must have at most 8 decimals, got 1.000000001\n');
    const badCost = await admin(
      'leaderboard',
      'create',
      '--game',
      UNKNOWN_ID,
      '--name',
      'x',
      '--cost',
      '1.5',
    );
    expect(badCost.stderr).toBe('coinop: cost must be a whole number\n');
  });

  it('exits 2 with one line for a usage error', async () => {
    const missing = await admin('hst', 'mint', '--account', UNKNOWN_ID);
    expect(missing).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "coinop: required option '--amount <hst>' not specified\n",
    });
    const unknown = await runCli(['admin', 'hst', 'burn']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^coinop: unknown command 'burn'[^\n]*\n$/);
  });

  it('exits 1 on a wrong token and when the server cannot be reached', async () => {
    const wrong = await runCli([
      'admin',
      'hst',
      'audit',
      '--server',
      server.url,
      '--admin-token',
      'nope',
    ]);
    expect(wrong).toEqual({
      code: 1,
      stdout: '',
      stderr: 'coinop: the bearer token is not the admin token\n',
    });
    const port = await freePort();
    const down = await runCli([
      'admin',
      'hst',
      'audit',
      '--server',
      `http://127.0.0.1:${port}`,
      '--admin-token',
      'x',
    ]);
    expect(down).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `coinop: cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    });
  });

  it('exits 2 when it finds no admin token', async () => {
    const run = await runCli([
      'admin',
      'hst',
      'audit',
      '--server',
      server.url,
      '--data-dir',
      join(dataDir, 'none'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `coinop: no admin token: give --admin-token or COINOP_ADMIN_TOKEN, or --data-dir of the server (${join(dataDir, 'none', 'admin-token')}: ENOENT)\n`,
    );
  });

  it('reads COINOP_SERVER and COINOP_ADMIN_TOKEN', async () => {
    const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    const run = await runCli(
      ['admin', 'hst', 'audit'],
      cleanEnv({ COINOP_SERVER: server.url, COINOP_ADMIN_TOKEN: token }),
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ balanced: true });
  });

  it('keeps data and the admin token across a restart on the same data dir', async () => {
    const token = await readFile(join(dataDir, 'admin-token'), 'utf8');
    const player = await admin('player', 'create', '--wallet', `0x${'f'.repeat(40)}`);
    const { playerId } = player.json as { playerId: string };
    await admin('hst', 'mint', '--account', playerId, '--amount', '7');

    await server.close();
    server = await start();
    common = ['--server', server.url, '--data-dir', dataDir];

    expect(await readFile(join(dataDir, 'admin-token'), 'utf8')).toBe(token);
    const balance = await admin('hst', 'balance', '--account', playerId);
    expect(balance).toMatchObject({ code: 0, json: { balance: '7', pending: '0' } });
    const again = await admin('player', 'create', '--wallet', `0x${'f'.repeat(40)}`);
    // The conflict names the player that has the wallet.
    expect(again).toMatchObject({
      code: 1,
      stderr: `coinop: wallet 0x${'f'.repeat(40)} already belongs to player ${playerId}\n`,
    });
  });
});

describe('coinop demo', () => {
  it('prints the demo arcade address hosting the game', async () => {
    const run = await runCli(['demo', '--game-url', 'http://localhost:5173/game?level=2']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      'http://127.0.0.1:8082/demo?game=http%3A%2F%2Flocalhost%3A5173%2Fgame%3Flevel%3D2\n',
    );
    const other = await runCli([
      'demo',
      '--game-url',
      'https://game.example',
      '--web-url',
      'https://arcade.example',
    ]);
    expect(other.stdout).toBe('https://arcade.example/demo?game=https%3A%2F%2Fgame.example%2F\n');
  });

  it('refuses a game URL that is not http(s), with exit code 2', async () => {
    const run = await runCli(['demo', '--game-url', 'javascript:alert(1)']);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'coinop: --game-url must be an http or https URL, got javascript:\n',
    });
  });
});
