import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { formatHst } from '@coinop/core';
import { uuidToBytes16 } from '@coinop/contracts';
import { getAddress } from 'viem';
import type { ChainPlayView } from '../../chain/chain-play-requests.js';
import { PlayLockStates } from '../../services/chain-admin.js';
import type { PlayerArcade } from '../../services/player-arcade.js';
import { Uuid } from './schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

export const ChainPlaySchema = Type.Object(
  {
    playId: Uuid('The play; the vault takes it as `playIdBytes16`'),
    playIdBytes16: Type.String({ description: 'The play id as the vault takes it (bytes16 hex)' }),
    gameId: Uuid('The game'),
    leaderboardId: Uuid('The tier'),
    amount: Type.String({ description: 'HST to lock, as an exact decimal string' }),
    amountUnits: Type.String({
      description: 'The same in base units (10^8 per HST): lockPlay’s amount',
    }),
    chainId: Type.Integer(),
    vault: Type.String({ description: 'The vault contract, checksummed' }),
    token: Type.String({ description: 'HST, checksummed (the permit is for this token)' }),
    lockBy: Type.String({
      format: 'date-time',
      description: 'A lock confirmed after this opens no play and is refunded',
    }),
    state: Type.Union(
      PlayLockStates.map((s) => Type.Literal(s)),
      {
        description:
          'requested: no confirmed lock yet; open: the play is open (see `play`); refund_due: ' +
          'the lock opened no play (see `refundReason`) and is being returned; sent: its ' +
          'settlement or refund is in a transaction; settled: paid out on chain; refunded: ' +
          'returned to the wallet; reclaimed: the player took it back after the lock timeout',
      },
    ),
    refundReason: Type.Union([Type.String(), Type.Null()]),
    lockTxHash: Type.Union([Type.String(), Type.Null()], {
      description: 'The lock’s transaction: the play’s `txid`',
    }),
    settleTxHash: Type.Union([Type.String(), Type.Null()], {
      description: 'The settleBatch or refund transaction, once sent',
    }),
    play: Type.Union([
      Type.Object({
        status: Type.String({ description: 'open, scored, expired or voided' }),
        expiresAt: Type.String({ format: 'date-time' }),
        seed: Type.Optional(
          Type.String({
            ...Patterns.hex32Bytes,
            description: 'The play’s seed (issue 30), for the game; absent before seeds',
          }),
        ),
      }),
      Type.Null(),
    ]),
  },
  { description: 'A play locked from the player’s wallet (docs/concepts/chain.md).' },
);

const GameParams = Type.Object({ gameId: Uuid('the game') });
const PlayParams = Type.Object({ playId: Uuid('the play') });
const RequestBody = Type.Object(
  { leaderboardId: Uuid('the tier to play') },
  { additionalProperties: false },
);

export function chainPlayToWire(view: ChainPlayView) {
  const { lock } = view;
  const amountUnits = lock.amountUnits ?? lock.lockedUnits ?? 0n;
  return {
    playId: lock.playId,
    playIdBytes16: uuidToBytes16(lock.playId),
    gameId: lock.gameId ?? '',
    leaderboardId: lock.leaderboardId ?? '',
    amount: formatHst(amountUnits),
    amountUnits: amountUnits.toString(),
    chainId: lock.chainId,
    vault: getAddress(lock.vaultAddress),
    token: getAddress(view.tokenAddress),
    lockBy: (lock.lockBy ?? lock.updatedAt).toISOString(),
    state: lock.state,
    refundReason: lock.refundReason,
    lockTxHash: lock.lockTxHash,
    settleTxHash: lock.settleTxHash,
    play: view.play
      ? {
          status: view.play.status,
          expiresAt: view.play.expiresAt.toISOString(),
          ...(view.play.seed === null ? {} : { seed: view.play.seed }),
        }
      : null,
  };
}

/**
 * Plays locked from the player's wallet (chain mode), inside the player plugin: the request that
 * gives a play id to lock under, and its state. Player token only.
 */
export function chainPlayRoutes(
  app: FastifyInstance,
  options: {
    tags: string[];
    security: { [scheme: string]: string[] }[];
    authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>;
    service: PlayerArcade;
  },
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { tags, security, service } = options;

  r.post(
    '/games/:gameId/chain-plays',
    {
      schema: {
        operationId: 'playerRequestChainPlay',
        tags,
        security,
        summary: 'Ask to lock a play from the wallet (chain mode)',
        description:
          'Gives a play id and the tier’s cost for the player’s wallet to lock with the vault’s ' +
          '`lockPlay(playIdBytes16, amountUnits)` (or `lockPlayWithPermit`). Nothing is charged: ' +
          'the play opens when the lock is confirmed on chain, and a lock that is not exactly ' +
          'this (amount, wallet, before `lockBy`) is refunded. 409 chain_mode_off; 404 ' +
          'game_not_found; 422 leaderboard_not_in_game; 400 validation_failed for a free tier.',
        params: GameParams,
        body: RequestBody,
        response: { 201: ChainPlaySchema },
      },
    },
    async (request, reply) => {
      const { playerId } = await options.authenticate(request);
      const view = await service.requestChainPlay(playerId, {
        gameId: request.params.gameId,
        leaderboardId: request.body.leaderboardId,
      });
      reply.code(201);
      return chainPlayToWire(view);
    },
  );

  r.get(
    '/chain-plays/:playId',
    {
      schema: {
        operationId: 'playerGetChainPlay',
        tags,
        security,
        summary: 'A play locked from the wallet: its lock, play and payout',
        description: '404 chain_play_not_found for another player’s play or an unknown id.',
        params: PlayParams,
        response: { 200: ChainPlaySchema },
      },
    },
    async (request) => {
      const { playerId } = await options.authenticate(request);
      return chainPlayToWire(await service.chainPlay(playerId, request.params.playId));
    },
  );
}
