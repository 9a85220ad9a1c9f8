import { Type, type TSchema } from '@sinclair/typebox';
import { HaltCauses } from '../../chain/halts.js';
import { SurplusStatuses } from '../../chain/surplus-actions.js';
import { Uuid } from '../shared/schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/**
 * Schemas of the admin API's halts and surplus (docs/reference/admin-api.md#halts-and-surplus):
 * the halt and surplus parts of `GET /admin/chain`, and the routes that resume the senders and
 * settle a surplus.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const ExactHst = (description: string) =>
  Type.String({
    ...Patterns.hstAmount,
    description: `${description}, in HST as an exact decimal string`,
  });
const SignedExactHst = (description: string) =>
  Type.String({
    ...Patterns.signedHstAmount,
    description: `${description}, in HST as an exact, signed decimal string`,
  });
const Time = Type.String({ format: 'date-time' });

export const Halt = Type.Object(
  {
    id: Uuid('The halt'),
    cause: Type.Union(
      HaltCauses.map((c) => Type.Literal(c)),
      {
        description:
          'reorg: the chain lost a block the watcher recorded; chain_mismatch: the RPC answers ' +
          'another chain or token; shortfall: the vault holds less than the ledger owes',
      },
    ),
    detail: Type.String({ description: 'What was found, in words' }),
    blockNumber: Nullable(Type.Integer({ description: 'Where it was found' })),
    shortfall: Nullable(ExactHst('For a shortfall: how much less the vault held')),
    haltedAt: Time,
    resume: Nullable(
      Type.Object({
        requestedAt: Time,
        by: Type.String({ description: 'Who resumed, as they named themselves' }),
        reason: Type.String(),
        fromBlock: Nullable(Type.Integer({ description: 'After a reorganisation' })),
        acceptedShortfall: Nullable(ExactHst('A shortfall accepted as covered elsewhere')),
      }),
    ),
    resumedAt: Nullable(Type.String({ format: 'date-time', description: 'When HST could leave' })),
  },
  {
    description:
      'Why no HST leaves the vault: withdrawals, settlements and refunds wait until an operator ' +
      'resumes (docs/operating/chain.md#resuming-after-a-halt)',
  },
);

const Total = Type.Object({ count: Type.Integer(), amount: ExactHst('What they amount to') });

/** The parts of `GET /admin/chain` about halts, reconciliation and surplus. */
export const ChainHaltStatus = {
  halt: Type.Optional(Nullable(Halt)),
  reconciliation: Type.Optional(
    Nullable(
      Type.Object(
        {
          at: Time,
          blockNumber: Type.Integer(),
          unexplained: SignedExactHst('The unexplained difference: below 0 is a shortfall'),
          acceptedShortfall: ExactHst('The shortfall accepted at the last resume, if any'),
        },
        { description: "The watcher's last reconciliation of the vault with the ledger" },
      ),
    ),
  ),
  surplus: Type.Optional(
    Type.Object(
      Object.fromEntries(SurplusStatuses.map((s) => [s, Total])) as Record<
        (typeof SurplusStatuses)[number],
        typeof Total
      >,
      { description: 'HST sent to the vault without a deposit, by what was done with it' },
    ),
  ),
};

export const ResumeBody = Type.Object(
  {
    by: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Who resumes (the admin token names nobody): recorded with the halt',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'Why it is safe now: what was found and done; recorded with the halt',
    }),
    fromBlock: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'After a reorganisation only: the first block to read again, at or below the fork',
      }),
    ),
    acceptShortfall: Type.Optional(
      Type.String({
        ...Patterns.hstAmount,
        description:
          'A shortfall covered outside the vault, in HST: exactly what the reconciliation finds',
      }),
    ),
  },
  { additionalProperties: false },
);

export const HaltsQuery = Type.Object({
  limit: Type.Optional(
    Type.String({ ...Patterns.from1To100, description: 'How many: 1 to 100 (default 20)' }),
  ),
});
export const Halts = Type.Object({ halts: Type.Array(Halt) });

export const Surplus = Type.Object({
  chainId: Type.Integer(),
  vaultAddress: Type.String(),
  txHash: Type.String(),
  logIndex: Type.Integer(),
  blockNumber: Type.Integer(),
  blockHash: Type.String(),
  from: Type.String({ description: 'Who sent it, checksummed' }),
  amount: ExactHst('The amount, exactly as the Transfer event said'),
  status: Type.Union(SurplusStatuses.map((s) => Type.Literal(s))),
  creditedAccountId: Nullable(Uuid('Credited (or, swept, the arcade) account')),
  withdrawalId: Nullable(Uuid('The withdrawal that sweeps it')),
  note: Nullable(Type.String({ description: 'Why it covers a shortfall' })),
  seenAt: Time,
  settledAt: Nullable(Time),
});

export const SurplusQuery = Type.Object({
  status: Type.Optional(Type.Union(SurplusStatuses.map((s) => Type.Literal(s)))),
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To500,
      description: 'How many, newest first: 1 to 500 (default 100)',
    }),
  ),
});
export const SurplusList = Type.Object({ surplus: Type.Array(Surplus) });

export const SurplusParams = Type.Object({
  surplus: Type.String({
    ...Patterns.txLog,
    description: 'The surplus: its transaction hash and log index, <txHash>:<logIndex>',
  }),
});

const ChainIdField = Type.Optional(
  Type.Integer({ minimum: 1, description: 'Only if the same transfer was read on two chains' }),
);

export const CreditSurplusBody = Type.Object(
  {
    accountId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'An account, player or developer id, a wallet, or `arcade`',
    }),
    chainId: ChainIdField,
  },
  { additionalProperties: false },
);

export const SweepSurplusBody = Type.Object(
  {
    to: Type.String({ description: 'The address to pay it to (0x and 40 hex digits)' }),
    chainId: ChainIdField,
  },
  { additionalProperties: false },
);

export const CoverShortfallBody = Type.Object(
  {
    note: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'What shortfall it covers and why: recorded with the surplus',
    }),
    chainId: ChainIdField,
  },
  { additionalProperties: false },
);
