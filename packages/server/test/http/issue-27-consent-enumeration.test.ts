import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGE_GRANTS, wholeHstToUnits, type ChargeGrant } from '@coinop/core';
import { approvalMessage } from '@coinop/protocol';
import { arcadeVaultAbi, uuidToBytes16 } from '@coinop/contracts';
import { findPlayLock } from '../../src/store/chain-play-locks.js';
import { findPlay } from '../../src/store/plays.js';
import { HST, startArcadeChain } from '../fixtures/chain.js';
import {
  CHAIN_PLAY_COST_HST,
  chainPlayArcade,
  lockChainPlay,
  requestChainPlay,
} from '../fixtures/chain-plays.js';
import { routesOf, type ListedRoute } from '../../src/listener/fastify.js';
import { buildWeb } from '../../src/web/app.js';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  gameSignIn,
  newWallet,
  type TestSignin,
  testApiOf,
  walletPlayer,
  type WalletPlayer,
} from '@coinop/testkit/signin';

/**
 * Issue 27: every way a game can become able to charge a player must take that player's own
 * session, signature or approval (docs/operating/security.md, "Nobody consents for a player but
 * the player"). The drain of issue 12 came back through a side door (testers named by the
 * developer alone); this test looks for every side door at once, and for the ones added later.
 *
 * An attacker holds every credential a stranger to the victim can hold: a developer's web session
 * and API key, the write tokens of their own games (one unpublished, one published with a
 * tournament), their own game token, a CLI login's poll token, and the victim's game token (what
 * a game server receives when the victim signs in to it without granting anything). With each,
 * and with none, the attacker calls every route every listener registers, with requests made
 * from the route's schema in which every id, wallet and game is the victim's or the attacker's
 * best choice. Then the attacker tries every charge path against the victim: the victim's
 * balance and grants are unchanged. The admin token is left out on purpose: the operator holds
 * the database and every key, and is trusted with everything (security.md, "What coinop
 * trusts"); that admin routes refuse every attacker credential is checked instead.
 *
 * The positive half makes each grant of the core's list (CHARGE_GRANTS) with the victim's own
 * credential and shows it does make the charge possible, so the negative half is not vacuous. A
 * new grant kind without a positive case fails here, and so does a new route the generated
 * requests cannot reach past validation and authentication (extend `valueFor` or `UNREACHED`).
 */

const VICTIM_HST = 600;

type Credential =
  | 'none'
  | 'attacker web session'
  | 'attacker api key'
  | 'write token (unpublished game)'
  | 'write token (published game)'
  | "attacker's game token"
  | "victim's game token"
  | 'CLI poll token';

/**
 * Codes that say a request stopped at validation or authentication: the handler never ran. A
 * `validation_failed` is the schema's when it says where (`details.in`), else the handler's own.
 */
/** Routes whose body is not JSON: what the attacker sends them, as a developer would. */
const RAW_BODIES: Record<string, { contentType: string; body: string }> = {
  'PUT /developer/games/:gameId/verifier': {
    contentType: 'text/javascript',
    body: 'export function verify({ score }) { return score; }',
  },
};

const STOPPED_BEFORE_HANDLER = new Set([
  'schema validation_failed',
  'malformed_json',
  'unsupported_media_type',
  'missing_bearer_token',
  'invalid_player_token',
  'invalid_write_token',
  'token_scope_mismatch',
  'missing_api_key',
  'invalid_api_key',
  'invalid_admin_token',
  'invalid_poll_token',
]);

/**
 * Routes the attacker's generated requests cannot get past validation or authentication, and
 * why that is no gap. Empty is the goal: a route listed here is not probed beyond its gate.
 */
const UNREACHED: Readonly<Record<string, string>> = {};

type Person = WalletPlayer;

/** One game the attacker aims at, with the board a play there names. */
interface Target {
  readonly label: string;
  readonly game: GameFixture;
  readonly leaderboardId: string;
}

describe.each(storeVariants())('nobody consents for a player but the player, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let web: FastifyInstance;
  let victim: Person;
  let attacker: Person;
  let attackerApiKey: { key: string; prefix: string };
  let hidden: GameFixture;
  let listed: GameFixture;
  let tournament: { id: string; roundId: string };
  let cliLogin: { requestorId: string; userCode: string; token: string };
  let attackerPlayId: string;
  let credentials: Record<Credential, Record<string, string>>;
  let targets: Target[];

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  const signedIn = (fundHst = 0, wallet = newWallet()) => walletPlayer(s, fundHst, wallet);

  const as = (who: Person, method: string, url: string, payload?: object) =>
    s.api.inject({
      method: method as 'GET',
      url,
      headers: bearer(who.token),
      ...(payload === undefined ? {} : { payload }),
    });

  beforeAll(async () => {
    // The production default: a published game charges nobody who has not allowed it.
    s = await buildTestSignin(variant, { defaultAllowanceUnits: 0n });
    api = testApiOf(s);
    web = await buildWeb(s.config, { apiUrl: null, authUrl: null, distDir: '/nonexistent' });
    await web.ready();

    victim = await signedIn(VICTIM_HST);
    attacker = await signedIn(50);
    const key = await as(attacker, 'POST', '/developer/apikey');
    expect(key.statusCode, key.body).toBe(201);
    attackerApiKey = { key: key.json().apiKey, prefix: key.json().prefix };
    const developerWallet = attacker.wallet.address;
    hidden = await gameWithTiers(api, { costs: [500, 0], published: false, developerWallet });
    listed = await gameWithTiers(api, { costs: [500, 0], developerWallet });
    const created = await s.api.inject({
      method: 'POST',
      url: `/developer/games/${listed.gameId}/tournaments`,
      headers: bearer(attacker.token),
      payload: {
        name: 'Drain Cup',
        entryFee: '500',
        startsAt: s.clock.now().toISOString(),
        durationSeconds: 86_400,
        payoutTable: { topPercent: 10 },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    tournament = { id: created.json().id, roundId: created.json().currentRound.id };
    const login = await s.auth.inject({
      method: 'POST',
      url: '/cli',
      payload: { description: 'Drain Cup client', gameId: listed.gameId },
    });
    expect(login.statusCode, login.body).toBe(200);
    cliLogin = login.json();

    credentials = {
      none: {},
      'attacker web session': bearer(attacker.token),
      'attacker api key': { 'api-key': attackerApiKey.key, 'game-id': listed.gameId },
      'write token (unpublished game)': bearer(await writeToken(api, hidden)),
      'write token (published game)': bearer(await writeToken(api, listed)),
      "attacker's game token": bearer((await gameSignIn(s.auth, attacker.wallet)).access_token),
      "victim's game token": bearer((await gameSignIn(s.auth, victim.wallet)).access_token),
      'CLI poll token': bearer(cliLogin.token),
    };
    const ownPlay = await s.api.inject({
      method: 'POST',
      url: `/arcades/${listed.arcadeId}/games/${listed.gameId}/play`,
      headers: credentials['write token (published game)'],
      payload: { playerId: attacker.playerId, leaderboardId: listed.tiers[1]!.id },
    });
    expect(ownPlay.statusCode, ownPlay.body).toBe(200);
    attackerPlayId = ownPlay.json().id;
    targets = [
      { label: 'unpublished game', game: hidden, leaderboardId: hidden.tiers[0]!.id },
      { label: 'published game', game: listed, leaderboardId: listed.tiers[0]!.id },
      { label: 'tournament round', game: listed, leaderboardId: tournament.roundId },
    ];
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await web.close();
    await s.close();
  });

  /** What the attacker puts in a path parameter, query parameter or body field of this name. */
  function valueFor(name: string, target: Target): unknown {
    const { game } = target;
    const named: Record<string, unknown> = {
      arcadeId: game.arcadeId,
      gameId: game.gameId,
      leaderboardId: target.leaderboardId,
      roundId: tournament.roundId,
      tournamentId: tournament.id,
      playerId: victim.playerId,
      player: victim.playerId,
      // The victim has no play, withdrawal or publish request: the attacker's own play, and ids
      // nobody has, reach the lookups.
      playId: attackerPlayId,
      withdrawalId: randomUUID(),
      requestId: randomUUID(),
      scoreId: randomUUID(),
      reviewId: randomUUID(),
      screenshotId: randomUUID(),
      developerId: game.developerId,
      accountId: victim.accountId,
      wallet: victim.wallet.address,
      address: victim.wallet.address,
      requestorId: cliLogin.requestorId,
      userCode: cliLogin.userCode,
      clientId: game.clientId,
      client_id: game.clientId,
      client_secret: game.clientSecret,
      prefix: attackerApiKey.prefix,
      dailyLimit: '500',
      amount: '500',
      entryFee: '500',
      cost: 500,
      to: attacker.wallet.address,
      txHash: `0x${'ab'.repeat(32)}`,
      deposit: `0x${'ab'.repeat(32)}:0`,
      // Admin-only (the operator's surplus): every attacker credential must be refused first.
      surplus: `0x${'ab'.repeat(32)}:1`,
      startsAt: s.clock.now().toISOString(),
      durationSeconds: 3600,
      payoutTable: { topPercent: 10 },
      nonce: `n${randomUUID().replaceAll('-', '')}`,
      signature: `0x${'1b'.repeat(65)}`,
    };
    return named[name];
  }

  /** A value of the schema: the attacker's choice for its name, else a plain valid one. */
  function sample(schema: Record<string, unknown>, name: string, target: Target): unknown {
    const chosen = valueFor(name, target);
    // An amount goes as the field takes it: a JSON number, or a decimal string.
    if (typeof chosen === 'string' && /^\d+$/.test(chosen)) {
      if (schema['type'] === 'number' || schema['type'] === 'integer') return Number(chosen);
    }
    if (chosen !== undefined) return chosen;
    if (Array.isArray(schema['anyOf'])) {
      const option = (schema['anyOf'] as Record<string, unknown>[]).find(
        (o) => o['type'] !== 'null',
      );
      return option ? sample(option, name, target) : null;
    }
    if ('const' in schema) return schema['const'];
    if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[])[0];
    switch (schema['type']) {
      case 'object':
        return sampleObject(schema, target);
      case 'array':
        return [];
      case 'boolean':
        return true;
      case 'integer':
      case 'number':
        return (schema['minimum'] as number | undefined) ?? 1;
      case 'string': {
        if (schema['format'] === 'date-time') return s.clock.now().toISOString();
        if (schema['format'] === 'uri' || name.endsWith('Url')) return 'https://attacker.example/';
        if (String(schema['pattern'] ?? '').includes('{40}')) return attacker.wallet.address;
        if (name.endsWith('Id') || schema['format'] === 'uuid') return randomUUID();
        return 'attacker';
      }
      default:
        return 'attacker';
    }
  }

  /** The required fields, and any optional one the attacker has a choice for. */
  function sampleObject(schema: Record<string, unknown>, target: Target): Record<string, unknown> {
    const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
    const required = new Set((schema['required'] ?? []) as string[]);
    const out: Record<string, unknown> = {};
    for (const [field, property] of Object.entries(properties)) {
      if (required.has(field) || valueFor(field, target) !== undefined) {
        out[field] = sample(property, field, target);
      }
    }
    // "At least one of": the first typed field (an untyped one is there to be refused).
    const least = (schema['minProperties'] as number | undefined) ?? 0;
    for (const [field, property] of Object.entries(properties)) {
      if (Object.keys(out).length >= least) break;
      if (!(field in out) && ('type' in property || 'anyOf' in property)) {
        out[field] = sample(property, field, target);
      }
    }
    return out;
  }

  /** The attacker's requests for a route: one per target when it names a game or a board. */
  function requestsFor(route: ListedRoute): {
    url: string;
    payload?: object | string;
    headers?: Record<string, string>;
    target: string;
  }[] {
    const schema = route.schema as Record<string, Record<string, unknown> | undefined>;
    const mentions = (field: string) =>
      route.url.includes(`:${field}`) ||
      Object.keys((schema['body']?.['properties'] ?? {}) as object).includes(field);
    const aimed =
      mentions('gameId') || mentions('leaderboardId') || route.url.startsWith('/cli')
        ? targets
        : [targets[1]!];
    return aimed.map((target) => {
      const path = route.url.replace(/:(\w+)/g, (_m, name: string) => {
        const value = valueFor(name, target);
        if (value === undefined) {
          throw new Error(`${route.method} ${route.url}: choose the attacker's value for :${name}`);
        }
        return encodeURIComponent(String(value));
      });
      const query = sampleObject(schema['querystring'] ?? {}, target);
      const search = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
      const raw = RAW_BODIES[`${route.method} ${route.url}`];
      return {
        url: search === '' ? path : `${path}?${search}`,
        target: target.label,
        ...(raw
          ? { payload: raw.body, headers: { 'content-type': raw.contentType } }
          : hasBody
            ? { payload: sampleObject(schema['body'] ?? {}, target) }
            : {}),
      };
    });
  }

  const walkable = (app: FastifyInstance) =>
    routesOf(app).filter(
      (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.url.includes('*') && !isLive(r),
    );

  /**
   * A live stream (issue 31) never ends, so inject cannot read it with a credential it accepts;
   * it is left out of the walk, and only a GET may be one: a read charges nobody.
   */
  const isLive = (route: ListedRoute) => {
    const schema = route.schema as {
      response?: Record<string, { content?: Record<string, unknown> }>;
    };
    return schema.response?.['200']?.content?.['text/event-stream'] !== undefined;
  };
  it('has live streams only on GET routes, which it leaves out of the walk', () => {
    const live = [s.api, s.auth].flatMap((app) => routesOf(app).filter(isLive));
    const methods = live.map((r) => r.method).filter((m) => m !== 'HEAD');
    expect(methods).toEqual(['GET', 'GET']);
  });

  it('adds no route of its own on the web listener: it forwards /api and /auth, and serves files', () => {
    const own = routesOf(web).filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    const unexpected = own.filter(
      (r) =>
        !['/api/*', '/auth/*'].includes(r.url) &&
        !(r.method === 'GET' && ['/*', '/healthz', '/readyz'].includes(r.url)),
    );
    expect(unexpected.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(own.some((r) => r.url === '/api/*' && r.method === 'POST')).toBe(true);
  });

  it('lets no attacker credential, on any route, make the victim chargeable', async () => {
    const reached = new Map<string, string[]>();
    const refused = new Map<string, string[]>();
    const listeners = [
      ['api', s.api],
      ['auth', s.auth],
    ] as const;
    let sent = 0;

    /** Sends the attacker's requests of each route `which` picks, with every credential. */
    async function walk(which: (route: ListedRoute) => boolean): Promise<void> {
      for (const [listener, app] of listeners) {
        for (const route of walkable(app).filter(which)) {
          const name = `${listener} ${route.method} ${route.url}`;
          const security = (route.schema as { security?: Record<string, unknown>[] }).security;
          const isAdmin = security?.some((r) => 'adminToken' in r) ?? false;
          for (const request of requestsFor(route)) {
            for (const [credential, headers] of Object.entries(credentials)) {
              const res = await app.inject({
                method: route.method as 'GET',
                url: request.url,
                headers: { ...headers, ...request.headers },
                ...(request.payload === undefined ? {} : { payload: request.payload }),
              });
              sent += 1;
              const where = `${name} (${request.target}) with ${credential}: ${res.statusCode} ${res.body.slice(0, 200)}`;
              expect(res.statusCode, where).toBeLessThan(500);
              if (isAdmin) {
                // The operator's routes: no attacker credential gets through.
                expect(res.statusCode, where).toBe(401);
                continue;
              }
              const problem = res.headers['content-type']?.toString().includes('problem+json')
                ? res.json<{ code: string; message: string; details?: { in?: string } }>()
                : null;
              const code =
                problem?.code === 'validation_failed' && problem.details?.in !== undefined
                  ? 'schema validation_failed'
                  : (problem?.code ?? '');
              const seen = STOPPED_BEFORE_HANDLER.has(code) ? refused : reached;
              const why = problem?.code === 'validation_failed' ? ` (${problem.message})` : '';
              const line = `${credential}: ${res.statusCode} ${code}${why}`;
              seen.set(name, [...(seen.get(name) ?? []), line]);
            }
          }
          if (!isAdmin && !(name in UNREACHED)) {
            expect(
              reached.has(name),
              `${name}: no generated request got past its gate: ${refused.get(name)?.join('; ')}`,
            ).toBe(true);
          }
        }
      }
    }

    // Every route but the revocations, then the verdict; then the revocations (which would
    // otherwise take the attacker's key and clients, or a grant made before them, away first).
    await walk((route) => route.method !== 'DELETE');
    await expectVictimUnharmed();
    await expectNoChargePath();
    await walk((route) => route.method === 'DELETE');
    await expectVictimUnharmed();
    await expectNoChargePath();
    for (const [listener, app] of listeners) {
      expect(walkable(app).length, `${listener} has routes`).toBeGreaterThan(5);
    }
    expect(sent).toBeGreaterThan(1000);
  });

  /** Nothing of the victim's moved, and no grant of theirs was made by anyone. */
  async function expectVictimUnharmed(): Promise<void> {
    expect(await balanceOf(api, victim.accountId)).toMatchObject({
      available: BigInt(VICTIM_HST) * HST,
      pending: 0n,
    });
    const count = async (sql: string, params: unknown[]) =>
      (await s.db.query<{ n: number }>(sql, params))[0]!.n;
    const grants = {
      // A free tier of a published game charges nothing and needs no consent (consent.md).
      paidPlays: await count(
        'SELECT count(*)::int AS n FROM plays WHERE player_id = $1 AND cost_units > 0',
        [victim.playerId],
      ),
      allowances: await count(
        'SELECT count(*)::int AS n FROM allowances WHERE player_id = $1 AND daily_units > 0',
        [victim.playerId],
      ),
      acceptedInvitations: await count(
        "SELECT count(*)::int AS n FROM game_testers WHERE wallet = $1 AND state = 'accepted'",
        [victim.wallet.address.toLowerCase()],
      ),
      approvals: await count(
        'SELECT count(*)::int AS n FROM wallet_approvals WHERE player_id = $1',
        [victim.playerId],
      ),
      tournamentEntries: await count(
        'SELECT count(*)::int AS n FROM tournament_entries WHERE player_id = $1',
        [victim.playerId],
      ),
    };
    expect(grants).toEqual({
      paidPlays: 0,
      allowances: 0,
      acceptedInvitations: 0,
      approvals: 0,
      tournamentEntries: 0,
    });
  }

  /** A fresh write token of each attacker game, and every board it could charge the victim on. */
  async function attackerServer(game: GameFixture) {
    const client = await as(attacker, 'POST', `/developer/games/${game.gameId}/clients`);
    expect(client.statusCode, client.body).toBe(201);
    const { clientId, clientSecret } = client.json();
    const token = await writeToken(api, { ...game, clientId, clientSecret });
    const headers = bearer(token);
    const boards = (await as(attacker, 'GET', `/developer/games/${game.gameId}`))
      .json<{ leaderboards: { id: string }[] }>()
      .leaderboards.map((b) => b.id);
    return {
      boards,
      headers,
      play: (leaderboardId: string, playerId = victim.playerId) =>
        s.api.inject({
          method: 'POST',
          url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
          headers,
          payload: { playerId, leaderboardId },
        }),
      details: () =>
        s.api.inject({ method: 'GET', url: `/players/${victim.playerId}/details`, headers }),
    };
  }

  /** Every charge path, tried by the attacker with fresh credentials: all refused. */
  async function expectNoChargePath(): Promise<void> {
    // The invitation the drain used: recorded, and still no consent.
    const invited = await as(
      attacker,
      'PUT',
      `/developer/games/${hidden.gameId}/testers/${victim.wallet.address}`,
    );
    expect(invited.json()).toMatchObject({ state: expect.stringMatching(/^(invited|declined)$/) });
    for (const game of [hidden, listed]) {
      const server = await attackerServer(game);
      const boards = game === listed ? [...server.boards, tournament.roundId] : server.boards;
      for (const board of boards) {
        const res = await server.play(board);
        // A free tier of a published game charges nothing and needs no consent: it may open.
        const free = game === listed && board === listed.tiers[1]!.id;
        if (free && res.statusCode === 200) continue;
        expect(res.statusCode, `${board}: ${res.body}`).toBe(403);
        expect(res.json().code).toBe(game === hidden ? 'player_not_tester' : 'consent_required');
      }
      expect((await server.details()).statusCode).toBe(404);
    }
    expect(await balanceOf(api, victim.accountId)).toMatchObject({
      available: BigInt(VICTIM_HST) * HST,
      pending: 0n,
    });
  }

  /**
   * Each grant, made with the victim's own credential, makes a charge possible; the key is the
   * grant kind of CHARGE_GRANTS. Each case leaves the grant taken back.
   */
  const POSITIVE: Record<ChargeGrant, () => Promise<void>> = {
    allowance: async () => {
      const server = await attackerServer(listed);
      const board = await cheapTier(listed);
      await expectRefused(server.play(board), 'consent_required');
      expect(
        (await as(victim, 'PUT', `/player/allowances/${listed.gameId}`, { dailyLimit: '1' }))
          .statusCode,
      ).toBe(200);
      expect((await server.play(board)).statusCode).toBe(200);
      // A round of the tournament is a play like any other: no grant of its own.
      const round = await cheapRound();
      await as(victim, 'PUT', `/player/allowances/${listed.gameId}`, { dailyLimit: '2' });
      expect((await server.play(round)).statusCode).toBe(200);
      await as(victim, 'DELETE', `/player/allowances/${listed.gameId}`);
      await expectRefused(server.play(board), 'consent_required');
    },
    login_allowance: async () => {
      const server = await attackerServer(listed);
      const board = await cheapTier(listed);
      const login = await s.auth.inject({
        method: 'POST',
        url: '/cli',
        payload: { description: 'the victim signs in to the game', gameId: listed.gameId },
      });
      const approved = await s.auth.inject({
        method: 'POST',
        url: `/cli/${login.json().requestorId}/approve`,
        headers: bearer(victim.token),
        payload: { userCode: login.json().userCode, dailyLimit: '10' },
      });
      // Today's plays under the allowance above stay counted: a limit of 10 leaves room.
      expect(approved.json()).toMatchObject({ status: 'approved', grantedDailyLimit: '10' });
      expect((await server.play(board)).statusCode).toBe(200);
      await as(victim, 'DELETE', `/player/allowances/${listed.gameId}`);
    },
    accepted_invitation: async () => {
      const server = await attackerServer(hidden);
      const board = await cheapTier(hidden);
      await as(
        attacker,
        'PUT',
        `/developer/games/${hidden.gameId}/testers/${victim.wallet.address}`,
      );
      await expectRefused(server.play(board), 'player_not_tester');
      const accepted = await as(victim, 'PUT', `/player/testing/${hidden.gameId}`, {
        dailyLimit: '1',
      });
      expect(accepted.json()).toMatchObject({ state: 'accepted', dailyLimit: '1' });
      expect((await server.play(board)).statusCode).toBe(200);
      expect((await server.details()).statusCode).toBe(200);
      // The acceptance bounds the day: the developer's game may not take a second HST.
      await expectRefused(server.play(board), 'consent_required');
      const left = await as(victim, 'DELETE', `/player/testing/${hidden.gameId}`);
      expect(left.json()).toMatchObject({ state: 'left', dailyLimit: '0' });
      await expectRefused(server.play(board), 'player_not_tester');
    },
    developer_wallet: async () => {
      const server = await attackerServer(hidden);
      const board = await cheapTier(hidden);
      // The attacker's own wallet registered the game: it charges the attacker, nobody else, and
      // within the allowance the attacker gave it, as any game.
      await expectRefused(server.play(board, attacker.playerId), 'consent_required');
      await as(attacker, 'PUT', `/player/allowances/${hidden.gameId}`, { dailyLimit: '1' });
      expect((await server.play(board, attacker.playerId)).statusCode).toBe(200);
    },
    signed_approval: async () => {
      const board = await cheapTier(listed);
      const view = await s.api.arcade.reads.gameView(listed.gameId);
      const tier = view.leaderboards.find((b) => b.id === board)!;
      const nonce = `n${randomUUID().replaceAll('-', '')}`;
      const message = approvalMessage({
        kind: 'play',
        gameId: listed.gameId,
        gameName: view.game.name,
        leaderboardId: board,
        tierName: tier.name,
        costUnits: wholeHstToUnits(1),
        nonce,
      });
      const signature = await victim.wallet.signMessage({ message });
      const played = await as(victim, 'POST', `/player/games/${listed.gameId}/plays`, {
        leaderboardId: board,
        nonce,
        signature,
      });
      expect(played.statusCode, played.body).toBe(201);
      // The same signature does not open a play for anyone else.
      const stolen = await as(attacker, 'POST', `/player/games/${listed.gameId}/plays`, {
        leaderboardId: board,
        nonce: `${nonce}x`,
        signature,
      });
      expect(stolen.json()).toMatchObject({ code: 'invalid_approval_signature' });
    },
    chain_lock: async () => {
      // The player's own chain transaction, on a real Anvil: a lock from the player's wallet under
      // the play they asked for opens it; the same lock from another wallet opens nothing.
      const chain = await startArcadeChain();
      try {
        const a = await chainPlayArcade(chain, variant);
        try {
          const own = await requestChainPlay(a);
          await lockChainPlay(a, own);
          const stolen = await requestChainPlay(a);
          const other = chain.players[1]!;
          const hash = await other.writeContract({
            address: a.vault,
            abi: arcadeVaultAbi,
            functionName: 'lockPlay',
            args: [uuidToBytes16(stolen), CHAIN_PLAY_COST_HST * HST],
          });
          await chain.admin.waitForTransactionReceipt({ hash });
          expect(await a.watcher.runOnce()).toMatchObject({ playsOpened: 1, locksRefused: 1 });
          expect(await findPlay(a.api.db, a.game.gameId, own)).toMatchObject({
            status: 'open',
            playerId: a.player.playerId,
          });
          expect(await findPlay(a.api.db, a.game.gameId, stolen)).toBeNull();
          expect(await findPlayLock(a.api.db, stolen)).toMatchObject({
            state: 'refund_due',
            refundReason: 'wrong_wallet',
          });
        } finally {
          await a.api.close();
        }
      } finally {
        await chain.stop();
      }
    },
    default_allowance: async () => {
      // The operator's setting, in a second API process on the same database.
      const generous = await s.anotherApi({ defaultAllowanceUnits: 1n * HST });
      try {
        const bystander = await signedIn(5);
        const board = await cheapTier(listed);
        const server = await attackerServer(listed);
        // This process's default is 0: the bystander never chose, so it may not charge them.
        await expectRefused(server.play(board, bystander.playerId), 'consent_required');
        const res = await generous.inject({
          method: 'POST',
          url: `/arcades/${listed.arcadeId}/games/${listed.gameId}/play`,
          headers: server.headers,
          payload: { playerId: bystander.playerId, leaderboardId: board },
        });
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        await generous.close();
      }
    },
  };

  async function expectRefused(play: Promise<{ json(): unknown }>, code: string) {
    expect((await play).json()).toMatchObject({ code });
  }

  const cheap = new Map<string, string>();
  /** A tier of the game costing 1 HST, added by the attacker: the victim can afford many. */
  async function cheapTier(game: GameFixture): Promise<string> {
    const known = cheap.get(game.gameId);
    if (known) return known;
    const res = await as(attacker, 'POST', `/developer/games/${game.gameId}/leaderboards`, {
      name: 'One',
      cost: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    cheap.set(game.gameId, res.json().id);
    return res.json().id;
  }

  async function cheapRound(): Promise<string> {
    const res = await as(attacker, 'POST', `/developer/games/${listed.gameId}/tournaments`, {
      name: 'Penny Cup',
      entryFee: '1',
      startsAt: s.clock.now().toISOString(),
      durationSeconds: 86_400,
      payoutTable: { topPercent: 10 },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().currentRound.id;
  }

  it('has a case, below, for every grant the core names', () => {
    expect(Object.keys(POSITIVE).sort()).toEqual(Object.keys(CHARGE_GRANTS).sort());
  });

  it.each(Object.keys(CHARGE_GRANTS) as ChargeGrant[])(
    'lets %s, given with the victim’s own credential, make a charge possible',
    async (kind) => {
      await POSITIVE[kind]();
    },
  );
});
