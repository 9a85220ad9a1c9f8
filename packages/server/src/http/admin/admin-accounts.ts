import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatHst, parseHst } from '@coinop/core';
import { Security } from '../../listener/openapi.js';
import { createClient, createDeveloper, registerPlayer } from '../../services/admin.js';
import { accountBalance, auditHst, mintHstAsOperator } from '../../services/admin-hst.js';
import {
  TAGS,
  CreateDeveloperBody,
  DeveloperCreated,
  GameParams,
  ClientCreated,
  CreatePlayerBody,
  PlayerCreated,
  MintBody,
  Minted,
  BalanceParams,
  Balance,
  Audit,
  AuditQuery,
} from './admin-schemas.js';

/**
 * The operator creates developers (with an API key), game clients and players. Registered inside
 * the admin plugin, so its admin-token hook guards them: only the operator may call them.
 */
export function adminAccountRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = r.arcade;

  r.post(
    '/admin/developers',
    {
      schema: {
        operationId: 'adminCreateDeveloper',
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
        operationId: 'adminCreateClient',
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
        operationId: 'adminCreatePlayer',
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
}

/**
 * The operator mints HST, reads a balance and audits the ledger (with the chain vault). Registered
 * inside the admin plugin, so its admin-token hook guards them: only the operator may call them.
 */
export function adminHstRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = r.arcade;

  r.post(
    '/admin/hst/mints',
    {
      schema: {
        operationId: 'adminMintHst',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Mint HST into an account',
        description:
          'A posted transfer from the mint account: the only way HST comes into existence in ' +
          'the ledger. Refused in chain mode (409 mint_refused_in_chain_mode), where HST comes ' +
          'only from the vault: a deposit, or surplus credited to an account.',
        body: MintBody,
        response: { 201: Minted },
      },
    },
    async (request, reply) => {
      const { accountId, amount, transferId } = request.body;
      const amountUnits = parseHst(amount, 'amount');
      const minted = await mintHstAsOperator(arcade, { id: accountId, amountUnits, transferId });
      reply.code(201);
      return { transferId: minted.transferId, balance: formatHst(minted.balanceUnits) };
    },
  );

  r.get(
    '/admin/hst/balances/:accountId',
    {
      schema: {
        operationId: 'adminGetBalance',
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
        operationId: 'adminAuditHst',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Audit the ledger, and with ?chain=true reconcile the chain vault with it',
        description:
          'Totals over every account, the HST minted and held by chain vaults, and whether the ' +
          'books balance. With `chain=true` (chain mode only, else 409 chain_mode_off), also the ' +
          "vault's HST on chain against what the ledger owes, exactly, at the watcher's " +
          'checkpoint block, line by line, with the unexplained difference; 503 chain_not_ready ' +
          'before the watcher has read a block or while the chain does not answer.',
        querystring: AuditQuery,
        response: { 200: Audit },
      },
    },
    async (request) => auditHst(arcade, { chain: request.query.chain === 'true' }),
  );
}
