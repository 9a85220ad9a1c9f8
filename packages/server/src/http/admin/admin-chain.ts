import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { getAddress, zeroAddress } from 'viem';
import {
  ChainAdmin,
  DEPOSITS_PAGE_MAX,
  PLAY_LOCKS_PAGE_MAX,
  PlayLockStates,
} from '../../services/chain-admin.js';
import { AccountReads } from '../../services/account-reads.js';
import { ChainPlaySchema, chainPlayToWire } from '../shared/chain-plays.js';
import { Uuid } from '../shared/schemas.js';
import { depositToWire } from '../../chain/status.js';
import { TAGS } from './admin-schemas.js';
import {
  ChainStatus,
  CreditHeldBody,
  Deposit,
  DepositParams,
  Deposits,
  DepositsQuery,
} from './admin-chain-schemas.js';
import { Security } from '../../listener/openapi.js';
import { pageOfWithdrawals, WithdrawalList, WithdrawalsQuery } from '../shared/withdrawals.js';
import { Patterns } from '../../listener/string-patterns.js';

/** How many play locks a listing shows without `limit`. */
const PLAY_LOCKS_PAGE_DEFAULT = 20;
const PlayLocksQuery = Type.Object({
  state: Type.Optional(Type.Union(PlayLockStates.map((s) => Type.Literal(s)))),
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To100,
      description: `How many: 1 to ${PLAY_LOCKS_PAGE_MAX} (default ${PLAY_LOCKS_PAGE_DEFAULT})`,
    }),
  ),
});
const PlayLockList = Type.Object({
  plays: Type.Array(
    Type.Composite([
      ChainPlaySchema,
      Type.Object({
        playerId: Type.Union([Uuid('The player it was requested for'), Type.Null()]),
        lockerAddress: Type.Union([Type.String(), Type.Null()], {
          description: 'The wallet that locked it, checksummed',
        }),
      }),
    ]),
  ),
});

/** How many deposits a listing shows without `limit`. */
const DEPOSITS_PAGE_DEFAULT = 100;

/**
 * The chain watcher's admin routes (docs/concepts/chain.md). Registered inside the admin plugin,
 * so its admin-token hook guards them: only the operator may call them.
 */
export function adminChainRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const chain = new ChainAdmin(app.arcade);
  const accounts = new AccountReads(app.arcade);

  r.get(
    '/admin/chain',
    {
      schema: {
        operationId: 'adminGetChainStatus',
        tags: TAGS,
        security: Security.adminToken,
        summary: "The chain watcher's status",
        description:
          'Chain id, vault, checkpoint, head and lag, the last error, a reorganisation deeper ' +
          'than the confirmations if one stopped crediting, and the held deposits. ' +
          '`{"enabled": false}` without chain mode.',
        response: { 200: ChainStatus },
      },
    },
    async () => chain.status(),
  );

  r.get(
    '/admin/chain/withdrawals',
    {
      schema: {
        operationId: 'adminListWithdrawals',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Withdrawals of every account, newest first',
        description: 'Filter by `status` (queued, sent, paid, failed); page with `before`.',
        querystring: WithdrawalsQuery,
        response: { 200: WithdrawalList },
      },
    },
    async (request) => pageOfWithdrawals(accounts, request.query),
  );

  r.get(
    '/admin/chain/plays',
    {
      schema: {
        operationId: 'adminListChainPlays',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Plays locked from wallets, most recently changed first',
        description:
          'Filter by `state` (requested, open, refund_due, sent, settled, refunded, reclaimed); ' +
          'each with the player, the wallet that locked and why a lock is refunded.',
        querystring: PlayLocksQuery,
        response: { 200: PlayLockList },
      },
    },
    async (request) => {
      const { state, limit } = request.query;
      const checkpoint = (await chain.checkpoints(app.config.chain?.vaultAddress ?? ''))[0];
      const locks = await chain.playLocks({
        state,
        limit: Number(limit ?? PLAY_LOCKS_PAGE_DEFAULT),
      });
      return {
        plays: locks.map((lock) => ({
          ...chainPlayToWire({
            lock,
            tokenAddress: checkpoint?.tokenAddress ?? zeroAddress,
            play: null,
          }),
          playerId: lock.playerId,
          lockerAddress: lock.lockerAddress === null ? null : getAddress(lock.lockerAddress),
        })),
      };
    },
  );
}

/**
 * The deposits the watcher read, and the operator's credit of a held one. Registered inside the
 * admin plugin, so its admin-token hook guards them: only the operator may call them.
 */
export function adminChainDepositRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const chain = new ChainAdmin(app.arcade);
  r.get(
    '/admin/chain/deposits',
    {
      schema: {
        operationId: 'adminListDeposits',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Deposits read from the vault, newest first',
        querystring: DepositsQuery,
        response: { 200: Deposits },
      },
    },
    async (request) => {
      const { status, limit } = request.query;
      const deposits = await chain.deposits({
        status,
        limit: Math.min(Number(limit ?? DEPOSITS_PAGE_DEFAULT), DEPOSITS_PAGE_MAX),
      });
      return { deposits: deposits.map(depositToWire) };
    },
  );

  r.post(
    '/admin/chain/deposits/:deposit/credit',
    {
      schema: {
        operationId: 'adminCreditHeldDeposit',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Credit a held deposit to an account',
        description:
          'A deposit held (its account did not exist or cannot take deposits) is credited to ' +
          'the player or developer account given, once: again to the same account answers the ' +
          'same; to another is 409 deposit_already_credited.',
        params: DepositParams,
        body: CreditHeldBody,
        response: { 200: Deposit },
      },
    },
    async (request) => {
      const [txHash = '', logIndex = ''] = request.params.deposit.split(':');
      const credited = await chain.creditHeldDeposit({
        txHash,
        logIndex: Number(logIndex),
        chainId: request.body.chainId,
        accountRef: request.body.accountId,
      });
      return depositToWire(credited);
    },
  );
}
