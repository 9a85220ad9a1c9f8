import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { timingSafeEqual } from 'node:crypto';
import { CoinopError, parseHst } from '@coinop/core';
import { hashSecret } from '../credentials/secrets.js';
import type { GameRecord } from '../services/game-reads.js';
import { mintPlayerToken } from '../credentials/admin-player-tokens.js';
import { playerTokenServices } from '../signin/signin.js';
import { ApiTags, Security } from './openapi.js';
import {
  accountBalance,
  addLeaderboard,
  auditHst,
  createClient,
  createDeveloper,
  mintHst,
  publish,
  registerPlayer,
} from '../services/admin.js';
import { MAX_COST_HST, Uuid } from './schemas.js';

const TAGS = [ApiTags.admin];

const Wallet = Type.String({
  pattern: '^0x[0-9a-fA-F]{40}$',
  description: 'Wallet address: 0x followed by 40 hex digits (stored lower-case)',
});

/** HST as a JSON number, or a decimal string when more than 15 significant digits must survive. */
const HstAmount = Type.Union([Type.Number(), Type.String()], {
  description: 'Amount in HST (not base units), at most 8 decimals, e.g. 12.5 or "0.00000001"',
});

const AccountRef = Uuid('An account id, or the id of a player, developer or arcade (its account)');

const CreateDeveloperBody = Type.Object({ wallet: Wallet }, { additionalProperties: false });
const DeveloperCreated = Type.Object({
  developerId: Uuid('The developer (existing one if the wallet already had a developer)'),
  apiKey: Type.String({ description: 'A new API key; shown only in this response' }),
});

const GameParams = Type.Object({ gameId: Uuid('The game') });
const ClientCreated = Type.Object({
  clientId: Type.String({ description: 'Client id for POST /oauth/writetoken' }),
  clientSecret: Type.String({ description: 'Client secret; shown only in this response' }),
});

const CreatePlayerBody = Type.Object(
  {
    wallet: Wallet,
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '\\S',
        description: 'Display name; generated if absent',
      }),
    ),
  },
  { additionalProperties: false },
);
const PlayerCreated = Type.Object({ playerId: Uuid('The new player') });

const MintBody = Type.Object(
  {
    accountId: AccountRef,
    amount: HstAmount,
    transferId: Type.Optional(
      Uuid('Idempotency key: repeating a mint with the same transferId is a no-op'),
    ),
  },
  { additionalProperties: false },
);
const Minted = Type.Object({
  transferId: Uuid('The posted mint transfer'),
  balance: Type.Number({ description: 'HST the account can spend after the mint' }),
});

const BalanceParams = Type.Object({ accountId: AccountRef });
const Balance = Type.Object({
  accountId: Uuid('The account the id resolved to'),
  balance: Type.Number({
    description: 'HST available to spend: posted credits less posted and pending debits',
  }),
  pending: Type.Number({ description: 'HST locked by pending debits (unsettled plays)' }),
});

const Audit = Type.Object({
  debitsPosted: Type.Number({ description: 'Sum of posted debits over all accounts, HST' }),
  creditsPosted: Type.Number({ description: 'Sum of posted credits over all accounts, HST' }),
  debitsPending: Type.Number({ description: 'Sum of pending debits over all accounts, HST' }),
  creditsPending: Type.Number({ description: 'Sum of pending credits over all accounts, HST' }),
  minted: Type.Number({ description: 'HST issued by the mint, net' }),
  balanced: Type.Boolean({
    description:
      'Debits equal credits (posted and pending), no account below zero, and the balances agree with the transfers',
  }),
});

const NullableString = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });

const PublishedGame = Type.Object({
  id: Uuid('Game id'),
  arcadeId: Uuid('Arcade id'),
  developerId: Uuid('Developer id'),
  name: Type.String(),
  description: Type.String(),
  category: Type.String(),
  developerInfo: Type.String(),
  tagLine: Type.String(),
  url: Type.String({ description: 'Where the game is hosted' }),
  coverUrl: Type.String(),
  scoreDisplay: Type.String({ description: 'NORMAL or REVERSE' }),
  prodDomain: NullableString('Production domain of the game, if set'),
  publishedAt: Type.String({
    format: 'date-time',
    description: 'When the game was first published',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const CreateLeaderboardBody = Type.Object(
  {
    gameId: Uuid('The game the tier belongs to'),
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Tier name' }),
    cost: Type.Integer({
      minimum: 0,
      maximum: MAX_COST_HST,
      description: 'Cost of one play in whole HST',
    }),
    leadersMax: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Leaders shown; default 10' }),
    ),
  },
  { additionalProperties: false },
);
const LeaderboardCreated = Type.Object({ id: Uuid('The new leaderboard') });

const KeysRotated = Type.Object({
  kid: Type.String({ description: 'The new signing key, which signs from now on' }),
  retiredKid: Type.Union([Type.String(), Type.Null()], {
    description: 'The key it replaced; published until its last token has expired',
  }),
});
const PlayerParams = Type.Object({ playerId: Uuid('The player') });
const PlayerTokenBody = Type.Object(
  {
    ttl: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Lifetime in seconds (default --player-token-ttl; at most 30 days)',
      }),
    ),
  },
  { additionalProperties: false },
);
const PlayerTokenMinted = Type.Object({
  access_token: Type.String({ description: 'A player token (RS256 JWT), as sign-in issues' }),
});

/** The operator API behind `coinop admin`, guarded by the admin bearer token. */
export async function adminPlugin(
  app: FastifyInstance,
  options: { adminToken: string },
): Promise<void> {
  const tokenHash = hashSecret(options.adminToken);
  // Encapsulated: the hook guards only the routes of this plugin.
  app.addHook('onRequest', async (request) => {
    const presented = bearerToken(request);
    if (presented === null) {
      throw new CoinopError(
        'missing_bearer_token',
        'the admin API needs an Authorization: Bearer <admin token> header',
      );
    }
    // Hashing both sides gives equal lengths, so the comparison is constant-time.
    if (!timingSafeEqual(hashSecret(presented), tokenHash)) {
      throw new CoinopError('invalid_admin_token', 'the bearer token is not the admin token');
    }
  });

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;
  const signin = playerTokenServices(app.config, arcade);

  r.post(
    '/admin/developers',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Create a developer and an API key',
        description:
          'Creates the developer of a wallet (or finds the existing one) and issues a new API key.',
        body: CreateDeveloperBody,
        response: { 201: DeveloperCreated },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createDeveloper(arcade, request.body.wallet);
    },
  );

  r.post(
    '/admin/games/:gameId/clients',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: "Create a client id and secret for a game's server",
        params: GameParams,
        response: { 201: ClientCreated },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createClient(arcade, request.params.gameId);
    },
  );

  r.post(
    '/admin/players',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Create a player',
        description: 'One player per wallet: a second one is 409 wallet_already_registered.',
        body: CreatePlayerBody,
        response: { 201: PlayerCreated },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return registerPlayer(arcade, request.body);
    },
  );

  r.post(
    '/admin/hst/mints',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Mint HST into an account',
        description:
          'A posted transfer from the mint account. The only way HST comes into existence.',
        body: MintBody,
        response: { 201: Minted },
      },
    },
    async (request, reply) => {
      const { accountId, amount, transferId } = request.body;
      const amountUnits = parseHst(amount, 'amount');
      const minted = await mintHst(arcade, { id: accountId, amountUnits, transferId });
      reply.code(201);
      return { transferId: minted.transferId, balance: minted.balance };
    },
  );

  r.get(
    '/admin/hst/balances/:accountId',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: "An account's balance",
        params: BalanceParams,
        response: { 200: Balance },
      },
    },
    async (request) => accountBalance(arcade, request.params.accountId),
  );

  r.get(
    '/admin/hst/audit',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Audit the ledger',
        description: 'Totals over every account, the HST minted, and whether the books balance.',
        response: { 200: Audit },
      },
    },
    async () => auditHst(arcade),
  );

  r.post(
    '/admin/games/:gameId/publish',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: "List a game in the arcade's catalog",
        description: 'Idempotent: publishing again keeps the first publishedAt.',
        params: GameParams,
        response: { 200: PublishedGame },
      },
    },
    async (request) => toPublishedGame(await publish(arcade, request.params.gameId)),
  );

  r.post(
    '/admin/games/:gameId/suspend',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Suspend a game: refuse its new plays and void its open ones',
        description:
          'From now on every play of the game is refused with 403 game_suspended; each open play ' +
          'is voided, its locked HST returned to its player and nobody paid. Suspending again ' +
          'keeps the first date and voids whatever is still open.',
        params: GameParams,
        response: {
          200: Type.Object({
            gameId: Uuid('The game'),
            suspended: Type.Literal(true),
            voidedPlays: Type.Integer({ description: 'Open plays voided by this call' }),
          }),
        },
      },
    },
    async (request) => {
      const { voidedPlays } = await arcade.consent.suspend(request.params.gameId);
      return { gameId: request.params.gameId, suspended: true as const, voidedPlays };
    },
  );

  r.post(
    '/admin/games/:gameId/resume',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Lift a suspension: the game takes plays again',
        params: GameParams,
        response: {
          200: Type.Object({ gameId: Uuid('The game'), suspended: Type.Literal(false) }),
        },
      },
    },
    async (request) => {
      await arcade.consent.resume(request.params.gameId);
      return { gameId: request.params.gameId, suspended: false as const };
    },
  );

  r.post(
    '/admin/leaderboards',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Add a leaderboard (tier) to a game',
        body: CreateLeaderboardBody,
        response: { 201: LeaderboardCreated },
      },
    },
    async (request, reply) => {
      const { gameId, name, cost, leadersMax } = request.body;
      const created = await addLeaderboard(arcade, { gameId, name, costHst: cost, leadersMax });
      reply.code(201);
      return created;
    },
  );

  r.post(
    '/admin/keys/rotate',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Rotate the player-token signing key',
        description:
          'Retires the active signing key and signs with a new one from now on. The retired key ' +
          'stays in the JWKS until every token it signed has expired.',
        response: { 200: KeysRotated },
      },
    },
    async () => signin.keys.rotate(),
  );

  r.post(
    '/admin/players/:playerId/token',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Mint a player token',
        description:
          'A player token as the sign-in service issues, for testing a game server without a ' +
          'browser.',
        params: PlayerParams,
        body: PlayerTokenBody,
        response: { 201: PlayerTokenMinted },
      },
    },
    async (request, reply) => {
      const minted = await mintPlayerToken(arcade.db, signin, {
        playerId: request.params.playerId,
        ttlSeconds: request.body.ttl,
        maxTtlSeconds: app.config.playerTokenTtlMaxSeconds,
      });
      reply.code(201);
      return minted;
    },
  );
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function toPublishedGame(game: GameRecord): Static<typeof PublishedGame> {
  if (game.publishedAt === null)
    throw new TypeError(`game ${game.id} was published without a date`);
  return {
    ...game,
    publishedAt: game.publishedAt.toISOString(),
    createdAt: game.createdAt.toISOString(),
    updatedAt: game.updatedAt.toISOString(),
  };
}
