import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { formatHst } from '@coinop/core';
import { getAddress } from 'viem';
import {
  AccountReads,
  WITHDRAWALS_PAGE_MAX,
  WithdrawalStatuses,
  type WithdrawalRecord,
} from '../../services/account-reads.js';
import type {
  Withdrawal,
  WithdrawalList as WithdrawalListWire,
  WithdrawalRequest,
} from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from './schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/** How many withdrawals a listing shows without `limit`. */
const WITHDRAWALS_PAGE_DEFAULT = 20;

export const WithdrawalSchema = Type.Object(
  {
    withdrawalId: Uuid("The withdrawal; the vault's bytes16 id"),
    accountId: Uuid('The account it is paid from'),
    to: Type.String({ description: 'The wallet paid, checksummed' }),
    amount: Type.String({ description: 'HST, as an exact decimal string' }),
    status: Type.Union(
      WithdrawalStatuses.map((s) => Type.Literal(s)),
      {
        description:
          'queued: reserved, waiting to be sent; sent: in a transaction not yet confirmed; ' +
          'paid: paid on chain and posted; failed: refused by the vault, the HST released',
      },
    ),
    txHash: Type.Union([Type.String(), Type.Null()], {
      description: 'The last transaction that carried it',
    }),
    attempts: Type.Integer({ description: 'Transactions that carried it' }),
    lastError: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it waits or failed',
    }),
    requestedAt: Type.String({ format: 'date-time' }),
    sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    settledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { description: 'A withdrawal of HST from the arcade to a wallet (docs/concepts/chain.md).' },
);
export const WithdrawalList = Type.Object({
  withdrawals: Type.Array(WithdrawalSchema),
  next: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `before` for the next page; null on the last',
  }),
});
export const WithdrawalsQuery = Type.Object({
  status: Type.Optional(Type.Union(WithdrawalStatuses.map((s) => Type.Literal(s)))),
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To100,
      description: `How many, newest first: 1 to ${WITHDRAWALS_PAGE_MAX} (default ${WITHDRAWALS_PAGE_DEFAULT})`,
    }),
  ),
  before: Type.Optional(Uuid('The last withdrawal of the page before')),
});
const WithdrawalBody = Type.Object(
  {
    amount: Type.Union([Type.String(), Type.Number()], {
      description: 'HST: more than 0, at most 8 decimals, as a decimal string or a number',
    }),
    to: Type.String({ description: 'The wallet to pay: 0x and 40 hex digits' }),
  },
  { additionalProperties: false },
);
declare const _withdrawal: SchemaMatches<typeof WithdrawalSchema, Withdrawal>;
declare const _withdrawalList: SchemaMatches<typeof WithdrawalList, WithdrawalListWire>;
declare const _withdrawalBody: SchemaMatches<typeof WithdrawalBody, WithdrawalRequest>;
const WithdrawalParams = Type.Object({ withdrawalId: Uuid('the withdrawal') });
const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A retry with the same key, amount and address answers the same withdrawal',
    }),
  ),
});

export function withdrawalToWire(w: WithdrawalRecord) {
  return {
    withdrawalId: w.id,
    accountId: w.accountId,
    to: getAddress(w.toAddress),
    amount: formatHst(w.amountUnits),
    status: w.status,
    txHash: w.txHash,
    attempts: w.attempts,
    lastError: w.lastError,
    requestedAt: w.requestedAt.toISOString(),
    sentAt: w.sentAt?.toISOString() ?? null,
    settledAt: w.settledAt?.toISOString() ?? null,
  };
}

export async function pageOfWithdrawals(
  accounts: AccountReads,
  filter: {
    accountId?: string;
    status?: WithdrawalRecord['status'] | undefined;
    limit?: string | undefined;
    before?: string | undefined;
  },
) {
  const limit = Math.min(Number(filter.limit ?? WITHDRAWALS_PAGE_DEFAULT), WITHDRAWALS_PAGE_MAX);
  const rows = await accounts.withdrawals({ ...filter, limit });
  const last = rows.at(-1);
  return {
    withdrawals: rows.map(withdrawalToWire),
    next: rows.length === limit && last ? last.id : null,
  };
}

export interface WithdrawalRouteOptions {
  readonly tags: string[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  /** Who may withdraw: the ledger account of the request's caller (throws 401 otherwise). */
  readonly accountOf: (request: FastifyRequest) => Promise<string>;
  /** Who, in the route descriptions. */
  readonly who: string;
  /** Starts each route's operationId: `playerRequestWithdrawal`, `developerListWithdrawals`. */
  readonly operationIdPrefix: 'player' | 'developer';
}

/**
 * `POST /withdrawals`, `GET /withdrawals`, `GET /withdrawals/{id}` inside the plugin `app` (the
 * player's at /player, the developer's at /developer): withdrawing the caller's HST to a wallet.
 */
export function withdrawalRoutes(app: FastifyInstance, options: WithdrawalRouteOptions): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { tags, who } = options;
  const security = options.security.map((s) =>
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [...v]])),
  );
  const requests = app.arcade.withdrawals;
  const accounts = new AccountReads(app.arcade);

  r.post(
    '/withdrawals',
    {
      schema: {
        operationId: `${options.operationIdPrefix}RequestWithdrawal`,
        tags,
        security,
        summary: `Withdraw ${who} HST to a wallet`,
        description:
          'Reserves the amount at once (the balance drops) and queues it; the arcade pays it ' +
          'from its vault contract in a batched transaction and posts it once confirmed, or ' +
          'releases it if the vault refuses it. 202 with the withdrawal. 400 invalid_amount ' +
          '(0, negative, more than 8 decimals) or validation_failed naming `to`; 402 ' +
          'insufficient_funds with the available and required amounts; 422 ' +
          "withdrawal_above_limit (the vault's maxWithdrawal, or its daily limit where lower); " +
          '409 chain_mode_off; 422 ' +
          'idempotency_key_reused. Nothing is reserved when refused.',
        headers: IdempotencyHeaders,
        body: WithdrawalBody,
        response: { 200: WithdrawalSchema, 202: WithdrawalSchema },
      },
    },
    async (request, reply) => {
      const accountId = await options.accountOf(request);
      const { withdrawal, replayed } = await requests.request({
        accountId,
        amount: request.body.amount,
        to: request.body.to,
        idempotencyKey: request.headers['idempotency-key'] ?? null,
      });
      reply.code(replayed ? 200 : 202);
      return withdrawalToWire(withdrawal);
    },
  );

  r.get(
    '/withdrawals',
    {
      schema: {
        operationId: `${options.operationIdPrefix}ListWithdrawals`,
        tags,
        security,
        summary: `${who[0]?.toUpperCase()}${who.slice(1)} withdrawals, newest first`,
        querystring: WithdrawalsQuery,
        response: { 200: WithdrawalList },
      },
    },
    async (request) => {
      const accountId = await options.accountOf(request);
      return pageOfWithdrawals(accounts, { ...request.query, accountId });
    },
  );

  r.get(
    '/withdrawals/:withdrawalId',
    {
      schema: {
        operationId: `${options.operationIdPrefix}GetWithdrawal`,
        tags,
        security,
        summary: `One of ${who} withdrawals`,
        description: '404 withdrawal_not_found for an id of another account.',
        params: WithdrawalParams,
        response: { 200: WithdrawalSchema },
      },
    },
    async (request) => {
      const accountId = await options.accountOf(request);
      return withdrawalToWire(await requests.get(accountId, request.params.withdrawalId));
    },
  );
}
