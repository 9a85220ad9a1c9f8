import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DeveloperPortal } from '../../services/developer-games.js';
import { Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import type { Authenticate } from '../shared/authenticate.js';
import { TesterListSchema, TesterSchema, testerToWire } from '../shared/tester-schemas.js';
import { GameParams } from './developer-games-schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

const TesterParams = Type.Object({
  gameId: Uuid('The game.'),
  wallet: Type.String({
    ...Patterns.walletAddress,
    description: 'Wallet address: 0x and 40 hex digits.',
  }),
});
const testersNote =
  'Before the operator publishes a game, its server may open plays only for the developer’s own ' +
  'wallet and the testers who accepted their invitation in the arcade (403 player_not_tester ' +
  'for anyone else, an invited wallet included). A game of another developer answers 404 ' +
  'game_not_found.';

/**
 * The testers a developer invites to a game. Registered inside the /developer plugin; every route
 * needs the signed-in developer.
 */
export function testerRoutes(app: FastifyInstance, authenticate: Authenticate): void {
  const portal = new DeveloperPortal(app.arcade);
  const developer = async (request: FastifyRequest) =>
    portal.developerOf((await authenticate(request)).playerId);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['developer'];

  r.get(
    '/games/:gameId/testers',
    {
      schema: {
        operationId: 'developerListTesters',
        tags,
        security: Security.playerToken,
        summary: 'The wallets invited to test one of my games, and their answers',
        description: testersNote,
        params: GameParams,
        response: { 200: TesterListSchema },
      },
    },
    async (request) => ({
      testers: (await portal.testers(await developer(request), request.params.gameId)).map(
        testerToWire,
      ),
    }),
  );

  r.put(
    '/games/:gameId/testers/:wallet',
    {
      schema: {
        operationId: 'developerAddTester',
        tags,
        security: Security.playerToken,
        summary: 'Invite a wallet to test one of my games',
        description:
          'Records an invitation (state invited), which is no consent: the player accepts it in ' +
          'the arcade, signed in with that wallet. Inviting again changes nothing, and does not ' +
          `overrule a player who declined or left. ${testersNote}`,
        params: TesterParams,
        response: { 200: TesterSchema },
      },
    },
    async (request) => {
      const { gameId, wallet } = request.params;
      return testerToWire(await portal.inviteTester(await developer(request), gameId, wallet));
    },
  );

  r.delete(
    '/games/:gameId/testers/:wallet',
    {
      schema: {
        operationId: 'developerRemoveTester',
        tags,
        security: Security.playerToken,
        summary: 'Withdraw an invitation, or remove a tester, of one of my games',
        description: `404 tester_not_found when the wallet was not invited. ${testersNote}`,
        params: TesterParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { gameId, wallet } = request.params;
      await portal.removeTester(await developer(request), gameId, wallet);
      return reply.code(204).send(null);
    },
  );
}
