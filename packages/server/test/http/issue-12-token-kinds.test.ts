import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDeveloper } from '../../src/services/admin.js';
import { pngImage } from '../fixtures/images.js';
import { ArcadeMetrics } from '../../src/metrics/arcade-metrics.js';
import { startMetricsListener, type MetricsListener } from '../../src/metrics/metrics-listener.js';
import { gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import {
  buildTestSignin,
  decide,
  gameSignIn,
  newWallet,
  startLogin,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/**
 * Issue 12: tokens do one job. The token a player hands to a game server opened the developer
 * portal (new client secrets, new API keys) and approved CLI logins, so a game server could renew
 * it forever. Each kind of credential is tried on each family of routes here.
 */

type Kind =
  | 'none'
  | 'write token'
  | 'game token'
  | 'web session'
  | 'expired web session'
  | 'api key'
  | 'admin token';

/** Every kind of credential, and none: what a public route lets through. */
const EVERY_KIND: readonly Kind[] = [
  'none',
  'write token',
  'game token',
  'web session',
  'expired web session',
  'api key',
  'admin token',
];

interface Family {
  readonly name: string;
  /** The request, with the credential's headers merged in. */
  send(headers: Record<string, string>): Promise<{ statusCode: number; json(): unknown }>;
  /** The kinds that get through, and what every other kind gets. */
  readonly accepts: readonly Kind[];
}

describe.each(storeVariants())('each token does one job, on %s', (variant) => {
  let s: TestSignin;
  let game: GameFixture;
  /** A game the admin families may unpublish without changing what the others try. */
  let spare: GameFixture;
  /** The signed-in player: a known id, with no score (the around-me read answers player null). */
  let signedInPlayerId: string;
  const credentialsPlayer = () => signedInPlayerId;
  let credentials: Record<Kind, Record<string, string>>;
  let metrics: MetricsListener;

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    const registry = new ArcadeMetrics();
    metrics = await startMetricsListener('127.0.0.1', 0, () => registry.render());
    const api = testApiOf(s);
    const wallet = newWallet();
    game = await gameWithTiers(api, { costs: [1], developerWallet: wallet.address });
    spare = await gameWithTiers(api, { costs: [1] });
    const { apiKey } = await createDeveloper(s.api.arcade, wallet.address);
    const session = await walletSignIn(s.auth, wallet);
    const gameToken = await gameSignIn(s.auth, wallet);
    const old = await walletSignIn(s.auth, newWallet());
    // Sixteen minutes on: `old` has expired; the others are signed again below.
    s.clock.advance(16 * 60_000);
    const fresh = await walletSignIn(s.auth, wallet);
    expect(session.playerId).toBe(fresh.playerId);
    signedInPlayerId = fresh.playerId;
    credentials = {
      none: {},
      'write token': { authorization: `Bearer ${await writeToken(api, game)}` },
      'game token': { authorization: `Bearer ${gameToken.access_token}` },
      'web session': { authorization: `Bearer ${fresh.access_token}` },
      'expired web session': { authorization: `Bearer ${old.access_token}` },
      'api key': { 'api-key': apiKey, 'game-id': game.gameId },
      'admin token': { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    };
  });
  afterAll(async () => {
    await metrics.close();
    await s.close();
  });

  const onApi =
    (
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      url: () => string,
      payload?: () => object,
    ) =>
    (headers: Record<string, string>) =>
      s.api.inject({ method, url: url(), headers, ...(payload ? { payload: payload() } : {}) });

  /**
   * A live stream (issue 31) over a real connection: inject would wait for a stream's end. The
   * status and, for a refusal, its problem+json; an accepted stream is closed at once.
   */
  const onStream = (url: () => string) => async (headers: Record<string, string>) => {
    if (s.api.server.address() === null) await s.api.listen({ port: 0, host: '127.0.0.1' });
    const address = s.api.server.address();
    if (address === null || typeof address === 'string') throw new TypeError('no port');
    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${address.port}${url()}`, {
      headers,
      signal: abort.signal,
    });
    const body = res.ok ? '{}' : await res.text();
    abort.abort();
    return { statusCode: res.status, json: () => JSON.parse(body) as unknown };
  };

  const newTournament = () => ({
    name: 'Token Cup',
    entryFee: '1',
    startsAt: s.clock.now().toISOString(),
    durationSeconds: 3600,
    payoutTable: { topPercent: 10 },
  });

  const families = (): Family[] => [
    {
      name: 'game server: GET /arcades/{a}/developergames/{g}',
      send: onApi('GET', () => `/arcades/${game.arcadeId}/developergames/${game.gameId}`),
      accepts: ['write token'],
    },
    {
      name: 'game server: GET /players/{p}/details',
      send: onApi('GET', () => `/players/${randomUUIDv4()}/details`),
      // A write token gets through to the lookup: this player is unknown (404).
      accepts: ['write token'],
    },
    {
      // Issue 17: a game's own server reads its boards, published or not.
      name: 'game server: GET /arcades/{a}/games/{g}/boards/{b}',
      send: onApi(
        'GET',
        () => `/arcades/${game.arcadeId}/games/${game.gameId}/boards/${game.tiers[0]!.id}`,
      ),
      accepts: ['write token'],
    },
    {
      name: 'game server: GET /arcades/{a}/games/{g}/boards/{b}/players/{p}',
      send: onApi(
        'GET',
        () =>
          `/arcades/${game.arcadeId}/games/${game.gameId}/boards/${game.tiers[0]!.id}/players/${credentialsPlayer()}`,
      ),
      accepts: ['write token'],
    },
    {
      // Public: a published game's boards are what any visitor sees.
      name: 'public: GET /catalog/games/{g}/boards/{b}',
      send: onApi('GET', () => `/catalog/games/${game.gameId}/boards/${game.tiers[0]!.id}`),
      accepts: EVERY_KIND,
    },
    {
      name: 'public: GET /catalog/games/{g}/boards/{b}/players/{p}',
      send: onApi(
        'GET',
        () =>
          `/catalog/games/${game.gameId}/boards/${game.tiers[0]!.id}/players/${credentialsPlayer()}`,
      ),
      accepts: EVERY_KIND,
    },
    {
      name: 'player: GET /player/activity',
      send: onApi('GET', () => '/player/activity'),
      accepts: ['web session'],
    },
    {
      name: 'portal: GET /developer/games',
      send: onApi('GET', () => '/developer/games'),
      accepts: ['web session'],
    },
    {
      name: 'portal: POST /developer/apikey',
      send: onApi('POST', () => '/developer/apikey'),
      accepts: ['web session'],
    },
    {
      name: 'portal: POST /developer/games/{g}/clients',
      send: onApi('POST', () => `/developer/games/${game.gameId}/clients`),
      accepts: ['web session'],
    },
    // Discovery (issue 31): public reads of published games, and the developer's gallery.
    ...[
      `/catalog/games?sort=popular`,
      `/catalog/games/{g}/payouts`,
      `/catalog/games/{g}/screenshots`,
      `/catalog/games/{g}/screenshots/{s}`,
      `/catalog/developers/{d}`,
    ].map((path) => ({
      name: `public: GET ${path}`,
      send: onApi('GET', () =>
        path
          .replace('{g}', game.gameId)
          .replace('{s}', randomUUIDv4())
          .replace('{d}', game.developerId),
      ),
      accepts: EVERY_KIND,
    })),
    {
      name: 'portal: GET /developer/games/{g}/screenshots',
      send: onApi('GET', () => `/developer/games/${game.gameId}/screenshots`),
      accepts: ['web session'],
    },
    {
      name: 'portal: POST /developer/games/{g}/screenshots',
      send: onApi(
        'POST',
        () => `/developer/games/${game.gameId}/screenshots`,
        () => ({
          image: `data:image/png;base64,${pngImage(1920, 1080).toString('base64')}`,
          alt: 'The first level',
        }),
      ),
      accepts: ['web session'],
    },
    {
      name: 'portal: DELETE /developer/games/{g}/screenshots/{s}',
      send: onApi('DELETE', () => `/developer/games/${game.gameId}/screenshots/${randomUUIDv4()}`),
      accepts: ['web session'],
    },
    {
      // Public: every kind, and none, reads the arcade's settings.
      name: 'public: GET /arcade',
      send: onApi('GET', () => '/arcade'),
      accepts: EVERY_KIND,
    },
    {
      // Public: a load balancer probes liveness and readiness with no credential.
      name: 'public: GET /healthz',
      send: onApi('GET', () => '/healthz'),
      accepts: EVERY_KIND,
    },
    {
      // Public, as /healthz.
      name: 'public: GET /readyz',
      send: onApi('GET', () => '/readyz'),
      accepts: EVERY_KIND,
    },
    {
      // Whoever reaches the metrics port (which the operator keeps private: metrics.md); it reads
      // no credential at all.
      name: 'metrics port: GET /metrics',
      send: async (headers) => {
        const res = await fetch(metrics.url, { headers });
        await res.text();
        return { statusCode: res.status, json: () => ({}) };
      },
      accepts: EVERY_KIND,
    },
    // Issue 31: live updates. The player's stream and menu take their web session only; a
    // published game's boards stream for anyone.
    {
      name: 'player: GET /player/events',
      send: onStream(() => `/player/events?gameId=${game.gameId}`),
      accepts: ['web session'],
    },
    {
      name: 'player: GET /player/notifications',
      send: onApi('GET', () => '/player/notifications'),
      accepts: ['web session'],
    },
    {
      name: 'public: GET /catalog/games/{g}/events',
      send: onStream(() => `/catalog/games/${game.gameId}/events`),
      accepts: EVERY_KIND,
    },
    {
      name: 'player: GET /player/me',
      send: onApi('GET', () => '/player/me'),
      accepts: ['web session'],
    },
    // Issue 31: a player names themself and sets their picture with their web session only.
    {
      name: 'player: PATCH /player/me',
      send: onApi(
        'PATCH',
        () => '/player/me',
        () => ({ name: 'Token Kind' }),
      ),
      accepts: ['web session'],
    },
    {
      name: 'player: PUT /player/me/avatar',
      send: onApi(
        'PUT',
        () => '/player/me/avatar',
        () => ({
          image: `data:image/png;base64,${pngImage(64, 64).toString('base64')}`,
        }),
      ),
      accepts: ['web session'],
    },
    {
      name: 'player: DELETE /player/me/avatar',
      send: onApi('DELETE', () => '/player/me/avatar'),
      accepts: ['web session'],
    },
    {
      // Public: the player page shows what boards already show, and nothing private.
      name: 'public: GET /catalog/players/{p}',
      send: onApi('GET', () => `/catalog/players/${credentialsPlayer()}`),
      accepts: EVERY_KIND,
    },
    {
      // Public: the player has no uploaded avatar after the DELETE above (404 avatar_not_found).
      name: 'public: GET /catalog/players/{p}/avatar',
      send: onApi('GET', () => `/catalog/players/${credentialsPlayer()}/avatar`),
      accepts: EVERY_KIND,
    },
    {
      name: 'admin: POST /admin/players/{p}/reset-profile',
      send: onApi(
        'POST',
        () => `/admin/players/${credentialsPlayer()}/reset-profile`,
        () => ({
          reason: 'token kinds',
        }),
      ),
      accepts: ['admin token'],
    },
    {
      name: 'player: GET /player/allowances',
      send: onApi('GET', () => '/player/allowances'),
      accepts: ['web session'],
    },
    {
      name: 'player: PUT /player/allowances/{g}',
      send: onApi(
        'PUT',
        () => `/player/allowances/${game.gameId}`,
        () => ({ dailyLimit: 5 }),
      ),
      accepts: ['web session'],
    },
    // Issue 27: a player answers their own invitations to test, with their web session only.
    {
      name: 'player: GET /player/testing',
      send: onApi('GET', () => '/player/testing'),
      accepts: ['web session'],
    },
    {
      // No invitation for this wallet: the session gets through to the lookup (404).
      name: 'player: PUT /player/testing/{g}',
      send: onApi(
        'PUT',
        () => `/player/testing/${game.gameId}`,
        () => ({ dailyLimit: '2' }),
      ),
      accepts: ['web session'],
    },
    {
      name: 'player: DELETE /player/testing/{g}',
      send: onApi('DELETE', () => `/player/testing/${game.gameId}`),
      accepts: ['web session'],
    },
    {
      name: 'portal: GET /developer/games/{g}/testers',
      send: onApi('GET', () => `/developer/games/${game.gameId}/testers`),
      accepts: ['web session'],
    },
    {
      // No such tester: the session gets through to the lookup (404).
      name: 'portal: DELETE /developer/games/{g}/testers/{wallet}',
      send: onApi('DELETE', () => `/developer/games/${game.gameId}/testers/${newWallet().address}`),
      accepts: ['web session'],
    },
    {
      name: 'player: GET /player/deposits/{txHash}',
      send: onApi('GET', () => `/player/deposits/0x${'ab'.repeat(32)}`),
      accepts: ['web session'],
    },
    {
      name: 'player: GET /player/withdrawals',
      send: onApi('GET', () => '/player/withdrawals'),
      accepts: ['web session'],
    },
    {
      // Not in chain mode: the credential gets through to the refusal (409 chain_mode_off).
      name: 'player: POST /player/withdrawals',
      send: onApi(
        'POST',
        () => '/player/withdrawals',
        () => ({ amount: '1', to: newWallet().address }),
      ),
      accepts: ['web session'],
    },
    {
      name: 'player: GET /player/withdrawals/{w}',
      send: onApi('GET', () => `/player/withdrawals/${randomUUIDv4()}`),
      accepts: ['web session'],
    },
    {
      // Not in chain mode: the credential gets through to the refusal (409 chain_mode_off).
      name: 'player: POST /player/games/{g}/chain-plays',
      send: onApi(
        'POST',
        () => `/player/games/${game.gameId}/chain-plays`,
        () => ({ leaderboardId: game.tiers[0]!.id }),
      ),
      accepts: ['web session'],
    },
    {
      name: 'player: GET /player/chain-plays/{p}',
      send: onApi('GET', () => `/player/chain-plays/${randomUUIDv4()}`),
      accepts: ['web session'],
    },
    {
      name: 'portal: GET /developer/withdrawals',
      send: onApi('GET', () => '/developer/withdrawals'),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: POST /developer/withdrawals',
      send: onApi(
        'POST',
        () => '/developer/withdrawals',
        () => ({ amount: '1', to: newWallet().address }),
      ),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: GET /developer/withdrawals/{w}',
      send: onApi('GET', () => `/developer/withdrawals/${randomUUIDv4()}`),
      accepts: ['web session', 'api key'],
    },
    // Issue 31, charts: the portal's session for the developer's, the admin token for the arcade's.
    {
      name: 'portal: GET /developer/stats/daily',
      send: onApi('GET', () => '/developer/stats/daily?days=7'),
      accepts: ['web session'],
    },
    {
      name: 'admin: GET /admin/stats/daily',
      send: onApi('GET', () => '/admin/stats/daily?days=7'),
      accepts: ['admin token'],
    },
    {
      name: 'portal: GET /developer/balance',
      send: onApi('GET', () => '/developer/balance'),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: PUT /developer/games/{g}/testers/{wallet}',
      send: onApi('PUT', () => `/developer/games/${game.gameId}/testers/${newWallet().address}`),
      accepts: ['web session'],
    },
    {
      // Issue 17: the developer previews their game in the arcade.
      name: 'player: GET /player/games/{g}',
      send: onApi('GET', () => `/player/games/${game.gameId}`),
      accepts: ['web session'],
    },
    {
      name: 'portal: GET /developer/games/{g}/publish-requests',
      send: onApi('GET', () => `/developer/games/${game.gameId}/publish-requests`),
      accepts: ['web session'],
    },
    {
      // The game is published: the credential gets through to the refusal (409).
      name: 'portal: POST /developer/games/{g}/publish-requests',
      send: onApi(
        'POST',
        () => `/developer/games/${game.gameId}/publish-requests`,
        () => ({}),
      ),
      accepts: ['web session'],
    },
    {
      // No such request: the credential gets through to the lookup (404).
      name: 'portal: POST /developer/games/{g}/publish-requests/{r}/withdraw',
      send: onApi(
        'POST',
        () => `/developer/games/${game.gameId}/publish-requests/${randomUUIDv4()}/withdraw`,
      ),
      accepts: ['web session'],
    },
    {
      name: 'registration: PATCH /game/update',
      send: onApi(
        'PATCH',
        () => '/game/update',
        () => ({ tagLine: 'x' }),
      ),
      accepts: ['api key'],
    },
    {
      name: 'admin: GET /admin/hst/audit',
      send: onApi('GET', () => '/admin/hst/audit'),
      accepts: ['admin token'],
    },
    {
      // Chain mode is off here: the admin token gets through to chain_mode_off (409).
      name: 'admin: GET /admin/hst/audit?chain=true',
      send: onApi('GET', () => '/admin/hst/audit?chain=true'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/ledger/transfers',
      send: onApi('GET', () => '/admin/ledger/transfers?limit=1'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/chain',
      send: onApi('GET', () => '/admin/chain'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/chain/deposits',
      send: onApi('GET', () => '/admin/chain/deposits?status=held'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/chain/plays',
      send: onApi('GET', () => '/admin/chain/plays?state=refund_due'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/chain/withdrawals',
      send: onApi('GET', () => '/admin/chain/withdrawals?status=queued'),
      accepts: ['admin token'],
    },
    {
      // No deposit has this key: the admin token gets through to the lookup (404).
      name: 'admin: POST /admin/chain/deposits/{deposit}/credit',
      send: onApi(
        'POST',
        () => `/admin/chain/deposits/0x${'ab'.repeat(32)}:0/credit`,
        () => ({ accountId: randomUUIDv4() }),
      ),
      accepts: ['admin token'],
    },
    {
      // Chain mode is off here: the admin token gets through to chain_mode_off (409).
      name: 'admin: POST /admin/chain/resume',
      send: onApi(
        'POST',
        () => '/admin/chain/resume',
        () => ({ by: 'ops', reason: 'covered' }),
      ),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/chain/halts',
      send: onApi('GET', () => '/admin/chain/halts'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/chain/surplus',
      send: onApi('GET', () => '/admin/chain/surplus?status=unsolicited'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: POST /admin/chain/surplus/{surplus}/credit',
      send: onApi(
        'POST',
        () => `/admin/chain/surplus/0x${'ab'.repeat(32)}:0/credit`,
        () => ({ accountId: 'arcade' }),
      ),
      accepts: ['admin token'],
    },
    {
      name: 'admin: POST /admin/chain/surplus/{surplus}/sweep',
      send: onApi(
        'POST',
        () => `/admin/chain/surplus/0x${'ab'.repeat(32)}:0/sweep`,
        () => ({ to: `0x${'12'.repeat(20)}` }),
      ),
      accepts: ['admin token'],
    },
    {
      name: 'admin: POST /admin/chain/surplus/{surplus}/cover',
      send: onApi(
        'POST',
        () => `/admin/chain/surplus/0x${'ab'.repeat(32)}:0/cover`,
        () => ({ note: 'backs a lost deposit' }),
      ),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/games',
      send: onApi('GET', () => '/admin/games?limit=5'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/games/{g}/settings',
      send: onApi('GET', () => `/admin/games/${game.gameId}/settings`),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/developers',
      send: onApi('GET', () => '/admin/developers?limit=5'),
      accepts: ['admin token'],
    },
    {
      // A player nobody is: the admin token gets through to the lookup (404).
      name: 'admin: GET /admin/players/{p}',
      send: onApi('GET', () => `/admin/players/${randomUUIDv4()}`),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/players/{wallet}',
      send: onApi('GET', () => `/admin/players/${newWallet().address}`),
      accepts: ['admin token'],
    },
    {
      // A player nobody is: the admin token gets through to the lookup (404).
      name: 'admin: GET /admin/players/{p}/activity',
      send: onApi('GET', () => `/admin/players/${randomUUIDv4()}/activity?limit=5`),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/players?search=',
      send: onApi('GET', () => '/admin/players?search=player&limit=5'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/publish-requests',
      send: onApi('GET', () => '/admin/publish-requests?all=true'),
      accepts: ['admin token'],
    },
    {
      // No such request: the admin token gets through to the lookup (404).
      name: 'admin: POST /admin/publish-requests/{r}/approve',
      send: onApi('POST', () => `/admin/publish-requests/${randomUUIDv4()}/approve`),
      accepts: ['admin token'],
    },
    {
      name: 'admin: POST /admin/publish-requests/{r}/decline',
      send: onApi(
        'POST',
        () => `/admin/publish-requests/${randomUUIDv4()}/decline`,
        () => ({ reason: 'not yet' }),
      ),
      accepts: ['admin token'],
    },
    {
      name: 'admin: POST /admin/games/{g}/unpublish',
      send: onApi('POST', () => `/admin/games/${spare.gameId}/unpublish`),
      accepts: ['admin token'],
    },
    // Issue 18: tournaments. A credential that gets through creates a tournament with no
    // guarantee, or reaches the lookup of an id nobody has (404 tournament_not_found).
    {
      name: 'portal: POST /developer/games/{g}/tournaments',
      send: onApi('POST', () => `/developer/games/${game.gameId}/tournaments`, newTournament),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: GET /developer/games/{g}/tournaments',
      send: onApi('GET', () => `/developer/games/${game.gameId}/tournaments`),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: GET /developer/games/{g}/tournaments/{t}',
      send: onApi('GET', () => `/developer/games/${game.gameId}/tournaments/${randomUUIDv4()}`),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: POST /developer/games/{g}/tournaments/{t}/stop',
      send: onApi(
        'POST',
        () => `/developer/games/${game.gameId}/tournaments/${randomUUIDv4()}/stop`,
      ),
      accepts: ['web session', 'api key'],
    },
    // Issue 30: replay verifiers. A credential that gets through uploads a module, reads or
    // removes the current one (404 verifier_not_found once removed) or runs a check.
    {
      name: 'portal: PUT /developer/games/{g}/verifier',
      send: (headers) =>
        s.api.inject({
          method: 'PUT',
          url: `/developer/games/${game.gameId}/verifier`,
          headers: { ...headers, 'content-type': 'text/javascript' },
          payload: 'export function verify({ score }) { return score; }',
        }),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: GET /developer/games/{g}/verifier',
      send: onApi('GET', () => `/developer/games/${game.gameId}/verifier`),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: POST /developer/games/{g}/verifier/check',
      send: onApi(
        'POST',
        () => `/developer/games/${game.gameId}/verifier/check`,
        () => ({
          source: 'export function verify({ score }) { return score; }',
          replay: '[]',
          score: 1,
        }),
      ),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'portal: DELETE /developer/games/{g}/verifier',
      send: onApi('DELETE', () => `/developer/games/${game.gameId}/verifier`),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'admin: POST /admin/tournaments',
      send: onApi(
        'POST',
        () => '/admin/tournaments',
        () => ({ ...newTournament(), gameId: game.gameId }),
      ),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/tournaments',
      send: onApi('GET', () => '/admin/tournaments'),
      accepts: ['admin token'],
    },
    {
      name: 'admin: POST /admin/tournaments/{t}/stop',
      send: onApi('POST', () => `/admin/tournaments/${randomUUIDv4()}/stop`),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/tournaments/{t}/rounds',
      send: onApi('GET', () => `/admin/tournaments/${randomUUIDv4()}/rounds`),
      accepts: ['admin token'],
    },
    {
      name: 'admin: GET /admin/tournaments/{t}/rounds/{r}',
      send: onApi('GET', () => `/admin/tournaments/${randomUUIDv4()}/rounds/${randomUUIDv4()}`),
      accepts: ['admin token'],
    },
    {
      // No such score: the admin token gets through to the lookup (404 score_not_found).
      name: 'admin: POST /admin/scores/{s}/void',
      send: onApi(
        'POST',
        () => `/admin/scores/${randomUUIDv4()}/void`,
        () => ({ reason: 'impossible score' }),
      ),
      accepts: ['admin token'],
    },
    {
      // No such score in the developer's game: through to the lookup (404 score_not_found).
      name: 'portal: POST /developer/games/{g}/scores/{s}/void',
      send: onApi(
        'POST',
        () => `/developer/games/${game.gameId}/scores/${randomUUIDv4()}/void`,
        () => ({ reason: 'impossible score' }),
      ),
      accepts: ['web session', 'api key'],
    },
    {
      name: 'game server: GET /arcades/{a}/games/{g}/tournaments',
      send: onApi('GET', () => `/arcades/${game.arcadeId}/games/${game.gameId}/tournaments`),
      accepts: ['write token'],
    },
    {
      // A player's entry: a tournament nobody has reaches the lookup (404).
      name: 'game server: GET /arcades/{a}/games/{g}/tournaments/{t}/players/{p}/entry',
      send: onApi(
        'GET',
        () =>
          `/arcades/${game.arcadeId}/games/${game.gameId}/tournaments/${randomUUIDv4()}` +
          `/players/${credentialsPlayer()}/entry`,
      ),
      accepts: ['write token'],
    },
    {
      name: 'public: GET /catalog/tournaments',
      send: onApi('GET', () => '/catalog/tournaments'),
      accepts: EVERY_KIND,
    },
    {
      name: 'public: GET /catalog/games/{g}/tournaments',
      send: onApi('GET', () => `/catalog/games/${game.gameId}/tournaments`),
      accepts: EVERY_KIND,
    },
    {
      name: 'public: GET /catalog/tournaments/{t}',
      send: onApi('GET', () => `/catalog/tournaments/${randomUUIDv4()}`),
      accepts: EVERY_KIND,
    },
    {
      name: 'public: GET /catalog/tournaments/{t}/rounds',
      send: onApi('GET', () => `/catalog/tournaments/${randomUUIDv4()}/rounds`),
      accepts: EVERY_KIND,
    },
    {
      // The signed-in player's own entry: a tournament nobody has reaches the lookup (404).
      name: 'player: GET /player/tournaments/{t}/entry',
      send: onApi('GET', () => `/player/tournaments/${randomUUIDv4()}/entry`),
      accepts: ['web session'],
    },
    {
      name: 'public: GET /catalog/tournaments/{t}/rounds/{r}',
      send: onApi('GET', () => `/catalog/tournaments/${randomUUIDv4()}/rounds/${randomUUIDv4()}`),
      accepts: EVERY_KIND,
    },
    {
      // Public: the API's root sends a visitor to its reference page.
      name: 'public: GET /',
      send: onApi('GET', () => '/'),
      accepts: EVERY_KIND,
    },
    {
      name: 'public: GET /openapi.json',
      send: onApi('GET', () => '/openapi.json'),
      accepts: EVERY_KIND,
    },
    {
      // The sign-in service documents itself too.
      name: 'sign-in: GET /openapi.json',
      send: (headers) => s.auth.inject({ method: 'GET', url: '/openapi.json', headers }),
      accepts: EVERY_KIND,
    },
    {
      name: 'sign-in: GET /',
      send: (headers) => s.auth.inject({ method: 'GET', url: '/', headers }),
      accepts: EVERY_KIND,
    },
    // Issue 30: the review queue. A credential that gets through reaches the lookup of an id
    // nobody has (404 review_not_found, score_not_found) or reads the game's queue.
    {
      name: 'admin: GET /admin/reviews',
      send: onApi('GET', () => '/admin/reviews'),
      accepts: ['admin token'],
    },
    ...(['', '/replay'] as const).map((tail) => ({
      name: `admin: GET /admin/reviews/{r}${tail}`,
      send: onApi('GET', () => `/admin/reviews/${randomUUIDv4()}${tail}`),
      accepts: ['admin token'] as Kind[],
    })),
    // Re-running the verifier takes no body; a credential that gets through finds no review.
    {
      name: 'admin: POST /admin/reviews/{r}/verify',
      send: onApi('POST', () => `/admin/reviews/${randomUUIDv4()}/verify`),
      accepts: ['admin token'],
    },
    ...(['approve', 'void'] as const).map((action) => ({
      name: `admin: POST /admin/reviews/{r}/${action}`,
      send: onApi(
        'POST',
        () => `/admin/reviews/${randomUUIDv4()}/${action}`,
        () => ({ reason: 'checked' }),
      ),
      accepts: ['admin token'] as Kind[],
    })),
    {
      name: 'portal: GET /developer/games/{g}/reviews',
      send: onApi('GET', () => `/developer/games/${game.gameId}/reviews`),
      accepts: ['web session', 'api key'],
    },
    ...(['', '/replay'] as const).map((tail) => ({
      name: `portal: GET /developer/games/{g}/reviews/{r}${tail}`,
      send: onApi('GET', () => `/developer/games/${game.gameId}/reviews/${randomUUIDv4()}${tail}`),
      accepts: ['web session', 'api key'] as Kind[],
    })),
    {
      name: 'portal: POST /developer/games/{g}/reviews/{r}/verify',
      send: onApi('POST', () => `/developer/games/${game.gameId}/reviews/${randomUUIDv4()}/verify`),
      accepts: ['web session', 'api key'],
    },
    ...(['approve', 'void'] as const).map((action) => ({
      name: `portal: POST /developer/games/{g}/reviews/{r}/${action}`,
      send: onApi(
        'POST',
        () => `/developer/games/${game.gameId}/reviews/${randomUUIDv4()}/${action}`,
        () => ({ reason: 'checked' }),
      ),
      accepts: ['web session', 'api key'] as Kind[],
    })),
    {
      name: 'player: POST /player/boards/{b}/players/{p}/report',
      send: onApi(
        'POST',
        () => `/player/boards/${game.tiers[0]!.id}/players/${randomUUIDv4()}/report`,
        () => ({ reason: 'bot' }),
      ),
      accepts: ['web session'],
    },
    {
      name: 'player: POST /player/scores/{s}/report',
      send: onApi(
        'POST',
        () => `/player/scores/${randomUUIDv4()}/report`,
        () => ({ reason: 'bot' }),
      ),
      accepts: ['web session'],
    },
    {
      // Resuming a game that is not suspended changes nothing: safe to try with every kind.
      name: 'admin: POST /admin/games/{g}/resume',
      send: onApi('POST', () => `/admin/games/${game.gameId}/resume`),
      accepts: ['admin token'],
    },
    {
      name: 'sign-in: POST /cli/{id}/reject',
      send: async (headers) => {
        const login = await startLogin(s.auth);
        return s.auth.inject({
          method: 'POST',
          url: `/cli/${login.requestorId}/reject`,
          headers,
          payload: { userCode: login.userCode },
        });
      },
      accepts: ['web session'],
    },
    {
      name: 'sign-in: POST /cli/{id}/approve',
      send: async (headers) => {
        const login = await startLogin(s.auth);
        return s.auth.inject({
          method: 'POST',
          url: `/cli/${login.requestorId}/approve`,
          headers,
          payload: { userCode: login.userCode },
        });
      },
      accepts: ['web session'],
    },
    {
      name: 'sign-in: POST /session/renew',
      send: (headers) => s.auth.inject({ method: 'POST', url: '/session/renew', headers }),
      accepts: ['web session'],
    },
  ];

  const kinds = EVERY_KIND;

  it('lets each kind of credential through only the routes it is for', async () => {
    const table: string[] = [];
    for (const family of families()) {
      for (const kind of kinds) {
        const res = await family.send(credentials[kind]);
        // Success may have no JSON body (a redirect): only a refusal's code matters.
        const code = res.statusCode < 400 ? 'ok' : ((res.json() as { code?: string }).code ?? '');
        const accepted =
          res.statusCode < 400 ||
          [
            'player_not_found',
            'deposit_not_found',
            'withdrawal_not_found',
            'chain_mode_off',
            'game_already_published',
            'publish_request_not_found',
            'tournament_not_found',
            'tester_invitation_not_found',
            'tester_not_found',
            'verifier_not_found',
            'review_not_found',
            'score_not_found',
            'screenshot_not_found',
            'avatar_not_found',
          ].includes(code);
        table.push(`${family.name} × ${kind}: ${res.statusCode} ${code}`);
        expect(accepted, `${family.name} × ${kind}: ${res.statusCode} ${code}`).toBe(
          family.accepts.includes(kind),
        );
        if (!accepted) expect([401, 403], `${family.name} × ${kind}`).toContain(res.statusCode);
      }
    }
    expect(table).toHaveLength(families().length * kinds.length);
  });

  it("says why a game token does not open the arcade's own routes", async () => {
    const res = await s.api.inject({
      method: 'POST',
      url: `/developer/games/${game.gameId}/clients`,
      headers: credentials['game token'],
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'invalid_player_token',
      message:
        "this token is not the arcade web app's session: sign in with your wallet there (a " +
        'token given to games opens nothing of the arcade)',
      details: { reason: 'audience' },
    });
    // Nor can it approve a CLI login and so renew itself.
    const login = await startLogin(s.auth);
    const approved = await decide(
      s.auth,
      'approve',
      login.requestorId,
      login.userCode,
      credentials['game token'].authorization!.slice('Bearer '.length),
    );
    expect(approved.statusCode).toBe(401);
  });

  it('renews a web session for a week after the wallet signed, and no longer', async () => {
    const renew = (token: string) =>
      s.auth.inject({
        method: 'POST',
        url: '/session/renew',
        headers: { authorization: `Bearer ${token}` },
      });
    // An expired session cannot be renewed: the page must renew before it runs out.
    const lapsed = (await walletSignIn(s.auth, newWallet())).access_token;
    s.clock.advance(16 * 60_000);
    expect((await renew(lapsed)).json()).toMatchObject({ details: { reason: 'expired' } });

    const signedAt = s.clock.now().getTime();
    let token = (await walletSignIn(s.auth, newWallet())).access_token;
    let last;
    // An open page renews every 14 minutes, as the web app does a minute before expiry.
    for (;;) {
      s.clock.advance(14 * 60_000);
      last = await renew(token);
      if (last.statusCode !== 200) break;
      const body = last.json<{ access_token: string; expires_in: number }>();
      expect(body.expires_in).toBeLessThanOrEqual(900);
      token = body.access_token;
    }
    expect(last.statusCode).toBe(401);
    expect(last.json()).toMatchObject({ code: 'invalid_player_token' });
    const elapsed = s.clock.now().getTime() - signedAt;
    const week = 7 * 24 * 3600_000;
    expect(elapsed).toBeGreaterThan(week - 15 * 60_000);
    expect(elapsed).toBeLessThanOrEqual(week + 14 * 60_000);
  });

  it('refuses a write token without an expiry', async () => {
    const key = s.api.arcade.writeTokenKey;
    const forever = await new SignJWT({
      developerId: game.developerId,
      gameId: game.gameId,
      arcadeId: game.arcadeId,
      scope: 'write',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('coinop:api')
      .setAudience('coinop:write')
      .setSubject(game.clientId)
      .setIssuedAt()
      .sign(key);
    const res = await s.api.inject({
      method: 'GET',
      url: `/arcades/${game.arcadeId}/developergames/${game.gameId}`,
      headers: { authorization: `Bearer ${forever}` },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'invalid_write_token',
      message: 'write token has no exp claim; request one at POST /oauth/writetoken',
    });
  });
});

describe.each(storeVariants())('revoking a game client, on %s', (variant) => {
  let s: TestSignin;
  let other: FastifyInstance;

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    // A second API process on the same database.
    other = await s.anotherApi();
  });
  afterAll(async () => {
    await other.close();
    await s.close();
  });

  it('refuses its write tokens at once, in every API process', async () => {
    const api = testApiOf(s);
    const wallet = newWallet();
    const game = await gameWithTiers(api, { costs: [1], developerWallet: wallet.address });
    const token = await writeToken(api, game);
    const read = (app: FastifyInstance) =>
      app.inject({
        method: 'GET',
        url: `/arcades/${game.arcadeId}/developergames/${game.gameId}`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await read(s.api)).statusCode).toBe(200);
    expect((await read(other)).statusCode).toBe(200);

    const session = await walletSignIn(s.auth, wallet);
    const revoked = await s.api.inject({
      method: 'DELETE',
      url: `/developer/games/${game.gameId}/clients/${game.clientId}`,
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(revoked.statusCode).toBe(200);

    expect((await read(s.api)).json()).toMatchObject({
      code: 'invalid_write_token',
      message: `client ${game.clientId} of this write token was revoked`,
    });
    // The other process hears of it by notification; give it the moment delivery takes.
    await expect.poll(async () => (await read(other)).statusCode, { timeout: 2000 }).toBe(401);
  });
});

function randomUUIDv4(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
