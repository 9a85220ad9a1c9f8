import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatHst, wholeHstToUnits } from '@coinop/core';
import { RateLimitedResponse, Security } from '../../listener/openapi.js';
import type { PlayerRouteContext } from './player-context.js';
import {
  FaucetGrantSchema,
  PlayerDepositListSchema,
  PlayerMe,
  TAGS,
  TxHashParams,
} from './player-schemas.js';

/**
 * The signed-in player's profile and balance, their deposits by transaction, and the development
 * faucet. Registered in the player plugin.
 */
export function playerAccountRoutes(instance: FastifyInstance, context: PlayerRouteContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade, config } = app;
  const { authenticate, playerOf, perPlayer, service, accounts } = context;

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
      const { playerId } = await authenticate(request);
      const details = await arcade.reads.playerDetails(playerId);
      return {
        playerId,
        wallet: details.player.wallet,
        name: details.player.name,
        avatar: details.avatar,
        balance: formatHst(details.balanceUnits),
        pending: formatHst(details.pendingUnits),
        pendingPayouts: formatHst(details.pendingPayouts.units),
        pendingPayoutsReleaseAt: details.pendingPayouts.nextReleaseAt?.toISOString() ?? null,
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
      const { playerId } = await authenticate(request);
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
}
