import { PlayLockStates, type PlayLockState } from '../../services/chain-admin.js';
import { Type, type TSchema } from '@sinclair/typebox';
import { ChainHaltStatus } from './admin-chain-halt-schemas.js';
import { Uuid } from '../shared/schemas.js';
import { Patterns } from '../../listener/string-patterns.js';
import { AccountRef, ExactHst } from './admin-field-schemas.js';

/**
 * The admin API's chain schemas: the vault's reconciliation (part of the HST audit), the chain
 * status, deposits and held deposits (docs/concepts/chain.md).
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const TxHash = Type.String({
  ...Patterns.txHash,
  description: 'Transaction hash: 0x and 64 hex digits',
});
const Address = Type.String({ description: 'Checksummed address' });

const SignedExactHst = (description: string) =>
  Type.String({
    ...Patterns.signedHstAmount,
    description: `${description}, in HST as an exact, signed decimal string`,
  });

const ReconciliationLine = Type.Object({
  kind: Type.String({ description: 'What the line is: players, held_deposits, …' }),
  amount: SignedExactHst('The amount'),
  count: Nullable(Type.Integer({ description: 'How many deposits or withdrawals make it' })),
  description: Type.String({ description: 'What the line means' }),
});

export const ChainReconciliation = Type.Object(
  {
    chainId: Type.Integer(),
    vaultAddress: Address,
    tokenAddress: Address,
    blockNumber: Type.Integer({
      description: "The block compared: the watcher's checkpoint, read with the ledger",
    }),
    blockHash: Type.String({ description: 'Its hash on the chain now' }),
    headBlock: Type.Integer({ description: "The chain's head when it was read" }),
    vaultBalance: ExactHst("The vault's HST balance at the block (token.balanceOf(vault))"),
    lockedOnChain: ExactHst("The vault's open play locks at the block (lockedTotal)"),
    liabilities: Type.Array(ReconciliationLine, {
      description:
        'What the ledger owes, by kind: players, developers, arcade, open_plays, ' +
        'withdrawals_pending, chain_play_locks',
    }),
    liabilitiesTotal: ExactHst('Their sum'),
    explained: Type.Array(ReconciliationLine, {
      description:
        'Why the vault may hold more (+) or less (−) than the ledger owes: held_deposits, ' +
        'withdrawals_paid_not_posted, withdrawals_posted_paid_after, other_vaults',
    }),
    expected: SignedExactHst('What the vault should hold: liabilities plus explained'),
    minted: SignedExactHst('Ledger-only HST, owed and backed by nothing: part of the difference'),
    unexplained: SignedExactHst('vaultBalance less expected: 0 when the vault reconciles'),
    reconciled: Type.Boolean({
      description: 'unexplained is 0 and the chain still has the block the watcher recorded',
    }),
    findings: Type.Array(Type.String(), { description: 'Each cause of a difference, in words' }),
  },
  {
    description:
      'With ?chain=true: the vault on chain against the ledger, exactly, at one block ' +
      '(docs/concepts/chain.md#reconciliation)',
  },
);

const WithdrawalTotal = Type.Object({
  count: Type.Integer(),
  amount: ExactHst('What they amount to'),
});

export const ChainStatus = Type.Object({
  enabled: Type.Boolean({ description: 'Chain mode is on (--chain-vault-address)' }),
  rpcUrl: Type.Optional(Type.String({ description: 'The RPC endpoint, scheme and host only' })),
  chainId: Type.Optional(Nullable(Type.Integer({ description: 'Null until the chain answered' }))),
  vaultAddress: Type.Optional(Address),
  tokenAddress: Type.Optional(Nullable(Address)),
  vaultAccountId: Type.Optional(Nullable(Uuid("The vault's ledger account"))),
  confirmations: Type.Optional(Type.Integer()),
  startBlock: Type.Optional(Type.Integer()),
  state: Type.Optional(
    Type.Union(
      (['starting', 'running', 'failing', 'halted'] as const).map((s) => Type.Literal(s)),
      {
        description:
          'running; starting before the chain first answered; failing while the last round ' +
          'failed (see lastError); halted while no HST leaves the vault (see halt)',
      },
    ),
  ),
  checkpointBlock: Type.Optional(
    Nullable(Type.Integer({ description: 'The last block whose deposits are recorded' })),
  ),
  headBlock: Type.Optional(
    Nullable(Type.Integer({ description: "The chain's head, as last seen" })),
  ),
  headSeenAt: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  lagBlocks: Type.Optional(
    Nullable(
      Type.Integer({
        description: 'Head less checkpoint; the confirmations when all is read, more while behind',
      }),
    ),
  ),
  reorg: Type.Optional(
    Nullable(
      Type.Object({
        detectedAt: Type.String({ format: 'date-time' }),
        blockNumber: Nullable(Type.Integer()),
        recordedHash: Nullable(Type.String({ description: 'The hash recorded at the checkpoint' })),
        chainHash: Type.String({ description: 'The hash the chain has there now' }),
      }),
    ),
  ),
  lastError: Type.Optional(
    Nullable(Type.Object({ message: Type.String(), at: Type.String({ format: 'date-time' }) })),
  ),
  ...ChainHaltStatus,
  vaultHeld: Type.Optional(
    ExactHst('HST this vault holds for ledger accounts: deposits credited less withdrawals paid'),
  ),
  held: Type.Optional(
    Type.Object({
      count: Type.Integer({ description: 'Deposits held' }),
      amount: ExactHst('What they amount to'),
    }),
  ),
  withdrawals: Type.Optional(
    Type.Object({
      operatorAddress: Nullable(
        Type.String({ description: "The operator key's address; null without a key file" }),
      ),
      waiting: Nullable(
        Type.String({ description: 'Why queued withdrawals are not being sent, if they are not' }),
      ),
      lastError: Nullable(
        Type.Object({ message: Type.String(), at: Type.String({ format: 'date-time' }) }),
      ),
      queued: WithdrawalTotal,
      sent: WithdrawalTotal,
      paid: WithdrawalTotal,
      failed: WithdrawalTotal,
    }),
  ),
  playLocks: Type.Optional(
    Type.Object(
      Object.fromEntries(PlayLockStates.map((state) => [state, WithdrawalTotal])) as Record<
        PlayLockState,
        typeof WithdrawalTotal
      >,
      {
        description:
          'Plays locked from wallets, by state (docs/concepts/chain.md): how many, and the HST ' +
          'their locks hold (0 for requested, not yet locked)',
      },
    ),
  ),
});

export const Deposit = Type.Object({
  chainId: Type.Integer(),
  vaultAddress: Address,
  txHash: TxHash,
  logIndex: Type.Integer(),
  blockNumber: Type.Integer(),
  blockHash: Type.String(),
  accountId: Uuid("The account the deposit named (the event's bytes16), existing or not"),
  from: Address,
  amount: ExactHst('The amount deposited'),
  status: Type.Union([Type.Literal('credited'), Type.Literal('held')]),
  heldReason: Nullable(
    Type.String({
      description:
        'Why it is or was held: amount_out_of_range, unknown_account, not_a_deposit_account',
    }),
  ),
  transferId: Uuid('The transfer that credits it (derived from chain, transaction and log)'),
  creditedAccountId: Nullable(Uuid('The account credited')),
  seenAt: Type.String({ format: 'date-time', description: 'When it was read' }),
  creditedAt: Nullable(Type.String({ format: 'date-time' })),
});

export const DepositsQuery = Type.Object({
  // Query values arrive as text, and the API never coerces types.
  status: Type.Optional(Type.Union([Type.Literal('held'), Type.Literal('credited')])),
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To500,
      description: 'How many, newest first: 1 to 500 (default 100)',
    }),
  ),
});
export const Deposits = Type.Object({ deposits: Type.Array(Deposit) });

export const DepositParams = Type.Object({
  deposit: Type.String({
    ...Patterns.txLog,
    description: 'The deposit: its transaction hash and log index, <txHash>:<logIndex>',
  }),
});
export const CreditHeldBody = Type.Object(
  {
    accountId: AccountRef,
    chainId: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Only if the same transaction and log were read on two chains',
      }),
    ),
  },
  { additionalProperties: false },
);
