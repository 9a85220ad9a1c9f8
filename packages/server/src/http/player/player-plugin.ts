import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PlayerArcade } from '../../services/player-arcade.js';
import { AccountReads } from '../../services/account-reads.js';
import { playerTokenServices } from '../../credentials/player-token-services.js';
import { walletVerifier } from '../../credentials/wallet-signature.js';
import { activityRoutes } from '../shared/activity.js';
import { allowanceRoutes } from './consent.js';
import { playerTestingRoutes } from './testing.js';
import { chainPlayRoutes } from '../shared/chain-plays.js';
import { playerTournamentRoutes } from './player-tournaments.js';
import { withdrawalRoutes } from '../shared/withdrawals.js';
import { playerAccountRoutes } from './player-account.js';
import { playerProfileRoutes } from './player-profile.js';
import { playerPlayRoutes, playerPurchaseRoutes } from './player-plays.js';
import { playerReportRoutes } from './player-reports.js';
import { playerLiveRoutes } from './player-live.js';
import { TAGS } from './player-schemas.js';
import { Security } from '../../listener/openapi.js';
import { oncePerRequest, perKey } from '../../listener/rate-limit.js';

/** Where app.ts mounts this plugin. */
export const PLAYER_PREFIX = '/player';

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

  const context = {
    authenticate: (request: FastifyRequest) => players.authenticate(request),
    playerOf,
    perPlayer,
    service,
    accounts,
  };
  playerAccountRoutes(app, context);
  playerProfileRoutes(app, context);
  playerPlayRoutes(app, context);
  playerPurchaseRoutes(app, context);
  playerReportRoutes(app, context);
  playerLiveRoutes(app, context);
}
