import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { CoinopError, formatHst } from '@coinop/core';
import {
  LedgerAccountKinds,
  LedgerTransferKinds,
  LedgerTransferReasons,
  type LedgerAccount,
  type LedgerTransfer,
  type LedgerTransferPage,
} from '@coinop/protocol';
import {
  transferPage,
  type AccountOwner,
  type StoredTransfer,
} from '../../services/ledger-transfers.js';
import { parseTransferCursor, transferCursor } from '../shared/cursors.js';
import { Security } from '../../listener/openapi.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from '../shared/schemas.js';
import { TAGS } from './admin-schemas.js';
import { PlayerRef } from './admin-field-schemas.js';
import { parseInstantMicros } from './instants.js';
import { Patterns } from '../../listener/string-patterns.js';

const PAGE_MAX = 100;
const PAGE_DEFAULT = 50;

const Literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const TransfersQuery = Type.Object({
  // Query values arrive as text, and the API never coerces types.
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To100,
      description: `Transfers per page, 1 to ${PAGE_MAX} (default ${PAGE_DEFAULT})`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: "The previous page's nextCursor" }),
  ),
  account: Type.Optional(Uuid('Only transfers with this account on either side')),
  player: Type.Optional(
    Type.String({
      ...PlayerRef,
      description: "Only transfers with this player's account (id or wallet) on either side",
    }),
  ),
  kind: Type.Optional(Literals(LedgerTransferKinds, 'Only this ledger operation')),
  reason: Type.Optional(Literals(LedgerTransferReasons, 'Only this reason')),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'Only transfers at or after this instant (RFC 3339, with an offset)',
    }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'Only transfers before this instant (RFC 3339, with an offset): half-open',
    }),
  ),
});

const Account = Type.Object({
  accountId: Uuid('The ledger account'),
  kind: Literals(LedgerAccountKinds, 'Who owns it'),
  label: Type.String({
    description:
      "What a person reads: a player's display name, a developer's wallet, the arcade's name, " +
      'Mint, a vault and its chain, a tournament round, or the escrow of a play',
  }),
  playerId: Type.Union([Uuid('The player who owns it'), Type.Null()]),
  developerId: Type.Union([Uuid('The developer who owns it'), Type.Null()]),
});

const Transfer = Type.Object({
  id: Uuid('The transfer'),
  kind: Literals(LedgerTransferKinds, 'The ledger operation'),
  reason: Literals(LedgerTransferReasons, 'Why HST moved'),
  debit: Account,
  credit: Account,
  amount: Type.String({
    ...Patterns.hstAmount,
    description: 'HST, as an exact decimal string ("0" for a pending transfer settled in full)',
  }),
  playId: Type.Union([Uuid('The play it belongs to'), Type.Null()]),
  pendingId: Type.Union([Uuid('The pending transfer it posts or voids'), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

const TransferPageSchema = Type.Object({
  transfers: Type.Array(Transfer, { description: 'Newest first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for older transfers; null on the last page',
  }),
});
declare const _page: SchemaMatches<typeof TransferPageSchema, LedgerTransferPage>;

/**
 * The operator's list of ledger transfers (issue 31). Registered inside the admin plugin, so its
 * admin-token hook guards it: only the operator may call it.
 */
export function adminLedgerTransferRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = r.arcade;
  r.get(
    '/admin/ledger/transfers',
    {
      schema: {
        operationId: 'adminListLedgerTransfers',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'List ledger transfers, newest first, with filters',
        description:
          'Every transfer of the ledger, newest first by time then id, a page at a time: pass ' +
          '`nextCursor` back as `cursor` (with the same filters) for older ones. Each side names ' +
          'its account and owner; the amount is exact HST text. 400 `validation_failed` naming ' +
          'the parameter when one is not valid (`account` and `player` together, `from` not ' +
          'before `to`, a time that is not RFC 3339, a cursor this list did not give); 404 ' +
          '`player_not_found` when no player has the `player` id or wallet.',
        querystring: TransfersQuery,
        response: { 200: TransferPageSchema },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.account !== undefined && q.player !== undefined) {
        throw invalid('player', 'give account or player, not both');
      }
      const fromMicros = q.from === undefined ? null : parseInstantMicros(q.from, 'from');
      const toMicros = q.to === undefined ? null : parseInstantMicros(q.to, 'to');
      if (fromMicros !== null && toMicros !== null && fromMicros >= toMicros) {
        throw invalid('from', `from must be before to, got from ${q.from} and to ${q.to}`);
      }
      const page = await transferPage(arcade, {
        accountId: q.account ?? null,
        player: q.player ?? null,
        kind: q.kind ?? null,
        reason: q.reason ?? null,
        fromMicros,
        toMicros,
        after: q.cursor === undefined ? null : parseTransferCursor(q.cursor),
        limit: Number(q.limit ?? PAGE_DEFAULT),
      });
      const last = page.transfers.at(-1);
      return {
        transfers: page.transfers.map((t) => transferToWire(t, page.owners)),
        nextCursor: page.more && last ? transferCursor(last.position) : null,
      };
    },
  );
}

function invalid(field: string, message: string): CoinopError {
  return new CoinopError('validation_failed', message, {
    details: { field, in: 'querystring' },
  });
}

function transferToWire(
  t: StoredTransfer,
  owners: ReadonlyMap<string, AccountOwner>,
): Static<typeof Transfer> & LedgerTransfer {
  return {
    id: t.id,
    kind: t.kind,
    reason: t.reason,
    debit: accountToWire(t.debitAccountId, owners),
    credit: accountToWire(t.creditAccountId, owners),
    amount: formatHst(t.amountUnits),
    playId: t.playId,
    pendingId: t.pendingId,
    createdAt: t.createdAt.toISOString(),
  };
}

function accountToWire(
  accountId: string,
  owners: ReadonlyMap<string, AccountOwner>,
): LedgerAccount {
  const owner = owners.get(accountId);
  // Every transfer's accounts exist (foreign keys): a missing owner row is a bug.
  if (!owner) throw new TypeError(`account ${accountId} of a transfer has no row`);
  return {
    accountId,
    kind: owner.kind,
    label: labelOf(owner),
    playerId: owner.playerId,
    developerId: owner.developerId,
  };
}

function labelOf(owner: AccountOwner): string {
  switch (owner.kind) {
    case 'player':
      return owner.playerName ?? 'Player';
    case 'developer':
      return owner.developerWallet === null ? 'Developer' : `Developer ${owner.developerWallet}`;
    case 'arcade':
      return owner.arcadeName ?? 'Arcade';
    case 'mint':
      return 'Mint';
    case 'escrow':
      // A play's escrow account has the play's id (chain/play-locks.ts).
      return `Escrow of play ${owner.accountId}`;
    case 'vault':
      return owner.vaultAddress === null
        ? 'Chain vault'
        : `Vault ${owner.vaultAddress} on chain ${owner.vaultChainId ?? '?'}`;
    case 'pool':
      return owner.tournamentName === null
        ? 'Prize pool'
        : `Prize pool of ${owner.tournamentName}, round ${owner.roundNumber ?? '?'}`;
  }
}
