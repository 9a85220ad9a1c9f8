import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError, parseHst } from '@coinop/core';
import type { ChainConfig } from '../../config.js';
import { surplusToWire } from '../../chain/surplus-actions.js';
import { ChainAdmin } from '../../services/chain-admin.js';
import {
  CoverShortfallBody,
  CreditSurplusBody,
  Halt,
  Halts,
  HaltsQuery,
  ResumeBody,
  Surplus,
  SurplusList,
  SurplusParams,
  SurplusQuery,
  SweepSurplusBody,
} from './admin-chain-halt-schemas.js';
import { TAGS } from './admin-schemas.js';
import { ChainReconciliation } from './admin-chain-schemas.js';
import { Security } from '../../listener/openapi.js';

/** How many halts and surplus transfers a listing shows without `limit`. */
const HALTS_PAGE_DEFAULT = 20;
const SURPLUS_PAGE_DEFAULT = 100;

export const Resumed = Type.Object({
  state: Type.Union([Type.Literal('resumed'), Type.Literal('resuming')], {
    description:
      'resumed: HST leaves again now; resuming: once the watcher has read the chain again from ' +
      'fromBlock and the vault reconciles',
  }),
  halt: Halt,
  reconciliation: Type.Union([ChainReconciliation, Type.Null()]),
});

/**
 * The admin routes of halts and surplus (docs/concepts/chain.md#halts, #surplus): resume the
 * senders after a halt, read the halts, and credit, sweep or cover with HST sent to the vault
 * without a deposit. Registered inside the admin plugin, so its admin-token hook guards them:
 * only the operator may call them.
 */
export function adminChainHaltRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = new ChainAdmin(app.arcade);
  const chainMode = () => chainModeOf(app);

  r.post(
    '/admin/chain/resume',
    {
      schema: {
        operationId: 'adminResumeChain',
        tags: TAGS,
        security: Security.adminToken,
        summary: "Resume the vault's senders after a halt",
        description:
          'Withdrawals, settlements and refunds start again once it is safe: after a ' +
          'reorganisation, the watcher reads the chain again from `fromBlock` (validated against ' +
          'the chain) and the senders resume when the vault reconciles (`resuming`); otherwise ' +
          'the vault is reconciled now and a shortfall refuses the resume (409 chain_shortfall) ' +
          'unless `acceptShortfall` is exactly it. Who and why are recorded with the halt.',
        body: ResumeBody,
        response: { 200: Resumed },
      },
    },
    async (request) => {
      const chain = chainMode();
      const { by, reason, fromBlock, acceptShortfall } = request.body;
      return admin.resume(chain, {
        by,
        reason,
        fromBlock: fromBlock === undefined ? null : BigInt(fromBlock),
        acceptShortfallUnits:
          acceptShortfall === undefined ? null : parseHst(acceptShortfall, 'acceptShortfall'),
      });
    },
  );

  r.get(
    '/admin/chain/halts',
    {
      schema: {
        operationId: 'adminListChainHalts',
        tags: TAGS,
        security: Security.adminToken,
        summary: "The vault's halts and resumes, newest first",
        description: 'Why each halt happened, and who resumed it, when and why: the audit trail.',
        querystring: HaltsQuery,
        response: { 200: Halts },
      },
    },
    async (request) => {
      const chain = chainMode();
      const limit = Number(request.query.limit ?? HALTS_PAGE_DEFAULT);
      return { halts: await admin.halts(chain, limit) };
    },
  );
}

/**
 * HST sent to the vault without a deposit (docs/concepts/chain.md#surplus): listed, credited or
 * swept (covering a shortfall with one is `adminShortfallRoutes`). Registered inside the admin plugin, so its admin-token hook
 * guards them: only the operator may call them.
 */
export function adminSurplusRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = new ChainAdmin(app.arcade);
  const chainMode = () => chainModeOf(app);

  r.get(
    '/admin/chain/surplus',
    {
      schema: {
        operationId: 'adminListSurplus',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'HST sent to the vault without a deposit, newest first',
        description:
          'Plain transfers to the vault, recorded by the watcher: `unsolicited` until credited, ' +
          'swept or used to cover a shortfall. Filter by `status`.',
        querystring: SurplusQuery,
        response: { 200: SurplusList },
      },
    },
    async (request) => {
      chainMode();
      const { status, limit } = request.query;
      const surplus = await admin.surplus({
        status,
        limit: Number(limit ?? SURPLUS_PAGE_DEFAULT),
      });
      return { surplus: surplus.map(surplusToWire) };
    },
  );

  r.post(
    '/admin/chain/surplus/:surplus/credit',
    {
      schema: {
        operationId: 'adminCreditSurplus',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Credit a surplus to an account',
        description:
          'A posted transfer from the vault account to a player, developer or the arcade ' +
          '(`arcade`), once: again to the same account answers the same; anything else is 409 ' +
          'surplus_already_settled.',
        params: SurplusParams,
        body: CreditSurplusBody,
        response: { 200: Surplus },
      },
    },
    async (request) => {
      chainMode();
      const { accountId, chainId } = request.body;
      const credited = await admin.creditSurplus(
        surplusRef(request.params.surplus, chainId),
        accountId,
      );
      return surplusToWire(credited);
    },
  );

  r.post(
    '/admin/chain/surplus/:surplus/sweep',
    {
      schema: {
        operationId: 'adminSweepSurplus',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Send a surplus out of the vault to an address',
        description:
          "Credited to the arcade's account and withdrawn from it to `to` in one step: the " +
          'sender pays it like any withdrawal (`withdrawalId`), within the vault limits. Once: ' +
          'again to the same address answers the same.',
        params: SurplusParams,
        body: SweepSurplusBody,
        response: { 200: Surplus },
      },
    },
    async (request) => {
      chainMode();
      const { to, chainId } = request.body;
      const swept = await admin.sweepSurplus(surplusRef(request.params.surplus, chainId), to);
      return surplusToWire(swept);
    },
  );
}

/**
 * Covering a shortfall with a surplus: nothing moves in the ledger, and the vault reconciles.
 * Registered inside the admin plugin, so its admin-token hook guards it: only the operator may
 * call it.
 */
export function adminShortfallRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = new ChainAdmin(app.arcade);
  const chainMode = () => chainModeOf(app);

  r.post(
    '/admin/chain/surplus/:surplus/cover',
    {
      schema: {
        operationId: 'adminCoverShortfall',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Cover a shortfall with a surplus',
        description:
          'The surplus backs HST the ledger already owes (a deposit credited from a block since ' +
          'lost, minted HST): nothing moves in the ledger, and the vault reconciles. Refused ' +
          '(409 surplus_exceeds_shortfall) when it is more than the shortfall.',
        params: SurplusParams,
        body: CoverShortfallBody,
        response: { 200: Surplus },
      },
    },
    async (request) => {
      const chain = chainMode();
      const { note, chainId } = request.body;
      const covered = await admin.coverShortfall(
        chain,
        surplusRef(request.params.surplus, chainId),
        note,
      );
      return surplusToWire(covered);
    },
  );
}

/** The chain settings, or 409 chain_mode_off without chain mode. */
function chainModeOf(app: FastifyInstance): ChainConfig {
  const chain = app.config.chain;
  if (!chain) {
    throw new CoinopError(
      'chain_mode_off',
      'this arcade runs without a chain vault (--chain-vault-address): nothing halts, and ' +
        'no HST reaches a vault',
    );
  }
  return chain;
}

/** A surplus's `txHash:logIndex` path parameter, on the chain given (or any). */
function surplusRef(param: string, chainId: number | undefined) {
  const [txHash = '', logIndex = ''] = param.split(':');
  return { txHash, logIndex: Number(logIndex), chainId };
}
