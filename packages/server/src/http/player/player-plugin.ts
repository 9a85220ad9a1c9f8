import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  APPROVAL_NONCE_MAX_LENGTH,
  type ApprovedPlayRequest,
  type ApprovedPurchaseRequest,
  type ApprovedScoreRequest,
  type FaucetGrant,
  type PlayerDeposit,
  type PlayerDepositList,
  type PlayerProfile,
  type Purchase,
} from '@coinop/protocol';
import { CoinopError, formatHst, parseHst, wholeHstToUnits } from '@coinop/core';
import { PlayerArcade } from '../../services/player-arcade.js';
import { AccountReads } from '../../services/account-reads.js';
import { playerTokenServices } from '../../signin/signin.js';
import { walletVerifier } from '../../signin/wallet-signature.js';
import { activityRoutes } from '../shared/activity.js';
import { allowanceRoutes } from './consent.js';
import { playerTestingRoutes } from '../shared/testers.js';
import { chainPlayRoutes } from '../shared/chain-plays.js';
import { playerTournamentRoutes } from './player-tournaments.js';
import { withdrawalRoutes } from '../shared/withdrawals.js';
import { ApiTags, RateLimitedResponse, Security } from '../openapi.js';
import { GameSchema, PlaySchema, ScoreResultSchema, Uuid } from '../shared/schemas.js';
import { gameToWire, playToWire, scoreToWire } from '../shared/wire.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { oncePerRequest, perKey } from '../../listener/rate-limit.js';

/** Where app.ts mounts this plugin. */
export const PLAYER_PREFIX = '/player';

const TAGS = [ApiTags.player];
const GameParams = Type.Object({ gameId: Uuid('the game') });
const signedFields = {
  nonce: Type.String({
    minLength: 8,
    maxLength: APPROVAL_NONCE_MAX_LENGTH,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'a fresh id for this approval; a retry with the same nonce repeats the result',
  }),
  signature: Type.String({
    pattern: '^0x[0-9a-fA-F]+$',
    maxLength: 4096,
    description: "the wallet's EIP-191 signature of approvalMessage(...) for these fields",
  }),
};
const signedNote =
  ' The body carries the player wallet’s EIP-191 signature of `approvalMessage()` ' +
  '(`@coinop/protocol`) for these fields; it is checked and recorded with what it approved. ' +
  '403 `invalid_approval_signature` when the signed-in player’s wallet did not sign that text.';

/** An amount the player reads: exact to the unit, which a JSON number is not past 15 digits. */
const Hst = (description: string) =>
  Type.String({ description: `${description}, as an exact decimal string` });
const PlayerMe = Type.Object({
  playerId: Uuid('the player'),
  wallet: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  avatar: Type.String({ description: 'avatar image URL' }),
  balance: Hst('spendable HST'),
  pending: Hst('HST locked in open plays'),
  faucet: Type.Object({
    amount: Hst('HST per faucet grant; "0" when there is no faucet'),
    destination: Type.Union([Type.Literal('ledger'), Type.Literal('wallet')], {
      description:
        "where a grant goes: the arcade balance, or the player's wallet on the dev chain",
    }),
  }),
});
const FaucetGrantSchema = Type.Union([
  Type.Object({
    destination: Type.Literal('ledger'),
    transferId: Uuid('the mint transfer'),
    balance: Hst("the player's spendable HST after it"),
  }),
  Type.Object({
    destination: Type.Literal('wallet'),
    wallet: Type.String({ description: 'the wallet the HST was minted to' }),
    txHash: Type.String({ description: 'the mint transaction' }),
    amount: Hst('HST granted'),
    walletBalance: Hst('HST in the wallet after it'),
  }),
]);
const PlayBody = Type.Object(
  { leaderboardId: Uuid('the tier the player chose'), ...signedFields },
  { additionalProperties: false },
);
const ScoreBody = Type.Object(
  {
    playId: Uuid('the play'),
    score: Type.Number({ minimum: 0, description: 'the score; finite and not negative' }),
    ...signedFields,
  },
  { additionalProperties: false },
);
const PurchaseBody = Type.Object(
  {
    amount: Type.Union([Type.String(), Type.Number()], {
      description:
        'HST: more than 0, at most 8 decimals, as a decimal string (exact, what the web app ' +
        'sends) or a number; the signed `Pay:` line is formatHst of it',
    }),
    ...signedFields,
  },
  { additionalProperties: false },
);
const PurchaseSchema = Type.Object({ txid: Uuid('the ledger transfer'), amount: Hst('HST paid') });

const PlayerDepositSchema = Type.Object({
  txHash: Type.String(),
  logIndex: Type.Integer({ description: "The Deposited event's index in its block" }),
  blockNumber: Type.Integer(),
  amount: Type.String({ description: 'HST, as an exact decimal string' }),
  status: Type.Union([Type.Literal('credited'), Type.Literal('held')]),
  heldReason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why it is held (docs/concepts/chain.md); null when credited',
  }),
  creditedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
const PlayerDepositListSchema = Type.Object({ deposits: Type.Array(PlayerDepositSchema) });
const TxHashParams = Type.Object({
  txHash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'the transaction hash' }),
});

declare const _playerMe: SchemaMatches<typeof PlayerMe, PlayerProfile>;
declare const _playerDeposit: SchemaMatches<typeof PlayerDepositSchema, PlayerDeposit>;
declare const _playerDeposits: SchemaMatches<typeof PlayerDepositListSchema, PlayerDepositList>;
declare const _faucetGrant: SchemaMatches<typeof FaucetGrantSchema, FaucetGrant>;
declare const _playBody: SchemaMatches<typeof PlayBody, ApprovedPlayRequest>;
declare const _scoreBody: SchemaMatches<typeof ScoreBody, ApprovedScoreRequest>;
declare const _purchaseBody: SchemaMatches<typeof PurchaseBody, ApprovedPurchaseRequest>;
declare const _purchase: SchemaMatches<typeof PurchaseSchema, Purchase>;

/**
 * The signed-in player's side of the arcade web app: profile and balance, the development
 * faucet, and client-side plays, scores and payments (spec 4.10) that the player's wallet
 * approved. Bearer: a player access token. Mounted at /player.
 */
export async function playerPlugin(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade, config } = app;
  const { players } = playerTokenServices(config, arcade);
  const service = new PlayerArcade(
    arcade,
    walletVerifier({
      chainRpcUrl: config.chainRpcUrl,
      chainRpcTimeoutMs: config.chainRpcTimeoutMs,
    }),
  );

  const accounts = new AccountReads(arcade);

  const playerOf = oncePerRequest((request) => players.authenticate(request));
  const perPlayer = (perMinute: number) =>
    perKey(perMinute, 'this player', async (request) => (await playerOf(request)).playerId);

  allowanceRoutes(app, (request) => players.authenticate(request));
  playerTestingRoutes(app, (request) => players.authenticate(request));
  activityRoutes(app, (request) => players.authenticate(request));
  playerTournamentRoutes(app, (request) => players.authenticate(request));
  withdrawalRoutes(app, {
    tags: TAGS,
    security: Security.playerToken,
    who: "the player's",
    operationIdPrefix: 'player',
    accountOf: async (request) => {
      const { playerId } = await players.authenticate(request);
      return (await accounts.player(playerId)).accountId;
    },
  });

  chainPlayRoutes(app, {
    tags: TAGS,
    security: Security.playerToken.map((s) =>
      Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [...v]])),
    ),
    authenticate: (request) => players.authenticate(request),
    service,
  });

  app.get(
    '/me',
    {
      schema: {
        operationId: 'playerGetMe',
        tags: TAGS,
        summary: 'The signed-in player: profile and HST balance',
        security: Security.playerToken,
        response: { 200: PlayerMe },
      },
    },
    async (request) => {
      const { playerId } = await players.authenticate(request);
      const details = await arcade.reads.playerDetails(playerId);
      return {
        playerId,
        wallet: details.player.wallet,
        name: details.player.name,
        avatar: details.avatar,
        balance: formatHst(details.balanceUnits),
        pending: formatHst(details.pendingUnits),
        faucet: {
          amount: formatHst(wholeHstToUnits(config.faucetHst)),
          destination: arcade.devChainFunds ? ('wallet' as const) : ('ledger' as const),
        },
      };
    },
  );

  app.get(
    '/deposits/:txHash',
    {
      schema: {
        operationId: 'playerGetDeposit',
        tags: TAGS,
        summary: "The signed-in player's deposits made by one transaction",
        description:
          'The deposits into the vault that the transaction made for this player (naming their ' +
          'player id or account), as the arcade read them: `credited`, or `held` with why. ' +
          'Empty until the arcade has read the transaction with its confirmations, and for a ' +
          "transaction of another player's.",
        security: Security.playerToken,
        params: TxHashParams,
        response: { 200: PlayerDepositListSchema },
      },
    },
    async (request) => {
      const { playerId } = await players.authenticate(request);
      const player = await accounts.player(playerId);
      const mine = new Set([player.id, player.accountId]);
      const deposits = await accounts.depositsOfTransaction(request.params.txHash);
      return {
        deposits: deposits
          .filter((d) => mine.has(d.accountId))
          .map((d) => ({
            txHash: d.txHash,
            logIndex: d.logIndex,
            blockNumber: Number(d.blockNumber),
            amount: formatHst(d.amountUnits),
            status: d.status,
            heldReason: d.heldReason,
            creditedAt: d.creditedAt?.toISOString() ?? null,
          })),
      };
    },
  );

  app.post(
    '/faucet',
    {
      config: perPlayer(config.rateLimits.faucet),
      schema: {
        operationId: 'playerUseFaucet',
        tags: TAGS,
        summary: 'Take test HST from the faucet (development arcades only)',
        description:
          'Mints `--faucet-hst` HST to the player: to the arcade balance, or on a dev chain ' +
          "(`--dev-chain`) to the player's wallet with a little ETH for gas, to deposit. 403 " +
          '`faucet_disabled` when the arcade has no faucet (or, on a dev chain, the player no ' +
          'wallet); 409 `faucet_limit_reached` when the balance (the wallet on a dev chain) ' +
          'holds ten grants or more.',
        security: Security.playerToken,
        response: { 200: FaucetGrantSchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const { playerId } = await playerOf(request);
      return service.faucet(playerId);
    },
  );

  app.get(
    '/games/:gameId',
    {
      schema: {
        operationId: 'playerGetGame',
        tags: TAGS,
        summary: 'A game as the signed-in player may open it, previews included',
        description:
          'A published game, as `GET /catalog/games/{gameId}` answers it; an unpublished one ' +
          'only to its developer (the wallet that registered it) and the testers who accepted ' +
          'its invitation, so they can preview it in the arcade (`published: false`). Anyone ' +
          'else (an invited wallet that has not accepted too), and every game of ' +
          'another arcade, 404 `game_not_found`, as if it did not exist.',
        security: Security.playerToken,
        params: GameParams,
        response: { 200: Type.Ref(GameSchema) },
      },
    },
    async (request) => {
      const { playerId } = await playerOf(request);
      const { gameId } = request.params;
      const view = await service.visibleGame(gameId, playerId);
      if (view.game.arcadeId !== arcade.record.id) {
        throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
      }
      return gameToWire(view.game, view.leaderboards, view.leaders);
    },
  );

  app.post(
    '/games/:gameId/plays',
    {
      config: perPlayer(config.rateLimits['player-plays']),
      schema: {
        operationId: 'playerOpenPlay',
        tags: TAGS,
        summary: 'Open a client-side play: lock the tier cost (spec 4.10 play())',
        description:
          'The arcade web app calls this when the player approves a play. 402 ' +
          '`insufficient_funds` when the player cannot spend the cost; nothing is recorded then.' +
          signedNote,
        security: Security.playerToken,
        params: GameParams,
        body: PlayBody,
        response: { 201: Type.Ref(PlaySchema), 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      const { playerId } = await playerOf(request);
      const play = await service.openPlay(playerId, {
        gameId: request.params.gameId,
        ...request.body,
      });
      reply.code(201);
      return playToWire(play);
    },
  );

  app.post(
    '/games/:gameId/scores',
    {
      schema: {
        operationId: 'playerSubmitScore',
        tags: TAGS,
        summary: 'Score a client-side play (spec 4.10 submitScore())',
        description:
          'Scores one of the signed-in player’s own plays (403 `play_of_another_player` ' +
          'otherwise) and settles it like a game server’s score.' +
          signedNote,
        security: Security.playerToken,
        params: GameParams,
        body: ScoreBody,
        response: { 200: Type.Ref(ScoreResultSchema) },
      },
    },
    async (request) => {
      const { playerId } = await players.authenticate(request);
      const { gameId } = request.params;
      const outcome = await service.submitScore(playerId, { gameId, ...request.body });
      return scoreToWire(outcome.score, await arcade.reads.leadersAfterScore(gameId, outcome));
    },
  );

  app.post(
    '/games/:gameId/purchases',
    {
      schema: {
        operationId: 'playerCreatePurchase',
        tags: TAGS,
        summary: 'Pay the game’s developer (spec 4.10 hstTransfer())',
        description:
          'One posted transfer of `amount` HST from the player to the developer; `txid` is its ' +
          'id. 402 `insufficient_funds` when the player cannot spend it.' +
          signedNote,
        security: Security.playerToken,
        params: GameParams,
        body: PurchaseBody,
        response: { 201: PurchaseSchema },
      },
    },
    async (request, reply) => {
      const { playerId } = await players.authenticate(request);
      const amountUnits = parseHst(request.body.amount, 'amount');
      const { transferId } = await service.purchase(playerId, {
        gameId: request.params.gameId,
        amountUnits,
        nonce: request.body.nonce,
        signature: request.body.signature,
      });
      reply.code(201);
      return { txid: transferId, amount: formatHst(amountUnits) };
    },
  );
}
