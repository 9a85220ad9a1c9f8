import { PlayLockStates, type PlayLockState } from '../../services/chain-admin.js';
import { Type, type TSchema } from '@sinclair/typebox';
import type { AccountBalance, HstAudit, HstMinted } from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';

import { ChainHaltStatus } from './admin-chain-halt-schemas.js';
import { ApiTags } from '../../listener/openapi.js';
import { MAX_COST_HST, Uuid } from '../shared/schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

export const TAGS = [ApiTags.admin];

export const Wallet = Type.String({
  ...Patterns.walletAddress,
  description: 'Wallet address: 0x followed by 40 hex digits (stored lower-case)',
});

/** HST as a JSON number, or a decimal string when more than 15 significant digits must survive. */
export const HstAmount = Type.Union([Type.Number(), Type.String()], {
  description: 'Amount in HST (not base units), at most 8 decimals, e.g. 12.5 or "0.00000001"',
});

/** HST in an answer: an exact decimal string from base units (`formatHst`), never a JSON number. */
export const ExactHst = (description: string) =>
  Type.String({
    ...Patterns.hstAmount,
    description: `${description}, in HST as an exact decimal string (may pass what a JSON number holds)`,
  });

const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const WALLET_PATTERN = '0x[0-9a-fA-F]{40}';

/** Where an operator names an account: by an id, or by the wallet of its player or developer. */
export const AccountRef = Type.String({
  pattern: `^(${UUID_PATTERN}|${WALLET_PATTERN}|arcade)$`,
  description:
    'An account id, the id of a player, developer or arcade (its account), the word `arcade` ' +
    "(this arcade's own account, which funds the operator's tournament guarantees), or the " +
    'wallet address of a player or developer (409 account_ambiguous when the wallet has both)',
});

/** A player by id or by wallet address. */
export const PlayerRef = Type.String({
  pattern: `^(${UUID_PATTERN}|${WALLET_PATTERN})$`,
  description: 'A player id, or the wallet address of a player',
});

export const CreateDeveloperBody = Type.Object({ wallet: Wallet }, { additionalProperties: false });
export const DeveloperCreated = Type.Object({
  developerId: Uuid('The developer (existing one if the wallet already had a developer)'),
  apiKey: Type.String({ description: 'A new API key; shown only in this response' }),
});

export const GameParams = Type.Object({ gameId: Uuid('The game') });
export const ClientCreated = Type.Object({
  clientId: Type.String({ description: 'Client id for POST /oauth/writetoken' }),
  clientSecret: Type.String({ description: 'Client secret; shown only in this response' }),
});

export const CreatePlayerBody = Type.Object(
  {
    wallet: Wallet,
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        ...Patterns.notBlank,
        description: 'Display name; generated if absent',
      }),
    ),
  },
  { additionalProperties: false },
);
export const PlayerCreated = Type.Object({ playerId: Uuid('The new player') });

export const MintBody = Type.Object(
  {
    accountId: AccountRef,
    amount: HstAmount,
    transferId: Type.Optional(
      Uuid('Idempotency key: repeating a mint with the same transferId is a no-op'),
    ),
  },
  { additionalProperties: false },
);
export const Minted = Type.Object({
  transferId: Uuid('The posted mint transfer'),
  balance: ExactHst('What the account can spend after the mint'),
});

export const BalanceParams = Type.Object({ accountId: AccountRef });
export const Balance = Type.Object({
  accountId: Uuid('The account the id resolved to'),
  balance: ExactHst('What it can spend: posted credits less posted and pending debits'),
  pending: ExactHst('What pending debits (unsettled plays) lock'),
});
declare const _minted: SchemaMatches<typeof Minted, HstMinted>;
declare const _balance: SchemaMatches<typeof Balance, AccountBalance>;

export const NullableString = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });

export const PublishedGame = Type.Object({
  id: Uuid('Game id'),
  arcadeId: Uuid('Arcade id'),
  developerId: Uuid('Developer id'),
  name: Type.String(),
  description: Type.String(),
  category: Type.String(),
  developerInfo: Type.String(),
  tagLine: Type.String(),
  url: Type.String({ description: 'Where the game is hosted' }),
  coverUrl: Type.String(),
  scoreDisplay: Type.String({ description: 'NORMAL or REVERSE' }),
  prodDomain: NullableString('Production domain of the game, if set'),
  publishedAt: Type.String({
    format: 'date-time',
    description: 'When the game was first published',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const CreateLeaderboardBody = Type.Object(
  {
    gameId: Uuid('The game the tier belongs to'),
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      ...Patterns.notBlank,
      description: 'Tier name',
    }),
    cost: Type.Integer({
      minimum: 0,
      maximum: MAX_COST_HST,
      description: 'Cost of one play in whole HST',
    }),
    leadersMax: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Leaders shown; default 10' }),
    ),
  },
  { additionalProperties: false },
);
export const LeaderboardCreated = Type.Object({ id: Uuid('The new leaderboard') });

export const KeysRotated = Type.Object({
  kid: Type.String({ description: 'The new signing key, which signs from now on' }),
  retiredKid: Type.Union([Type.String(), Type.Null()], {
    description: 'The key it replaced; published until its last token has expired',
  }),
});
/** A player by id or wallet; the path keeps its name `playerId` for the clients it has. */
export const PlayerParams = Type.Object({ playerId: PlayerRef });
export const PlayerTokenBody = Type.Object(
  {
    ttl: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Lifetime in seconds (default --player-token-ttl; at most 30 days)',
      }),
    ),
    gameId: Type.Optional(
      Uuid(
        'The game whose server the token is for (its gameId claim); a game server refuses a token of another game or of none',
      ),
    ),
  },
  { additionalProperties: false },
);
export const PlayerTokenMinted = Type.Object({
  access_token: Type.String({ description: 'A player token (RS256 JWT), as sign-in issues' }),
});

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

export const AuditQuery = Type.Object({
  // Query values arrive as text, and the API never coerces types.
  chain: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: 'true: also reconcile the chain vault with the ledger (chain mode only)',
    }),
  ),
});

export const Audit = Type.Object({
  debitsPosted: ExactHst('Sum of posted debits over all accounts'),
  creditsPosted: ExactHst('Sum of posted credits over all accounts'),
  debitsPending: ExactHst('Sum of pending debits over all accounts'),
  creditsPending: ExactHst('Sum of pending credits over all accounts'),
  minted: ExactHst('Issued by the mint, net'),
  vaultHeld: ExactHst(
    'What the chain vaults hold for ledger accounts, as the ledger counts it: deposits ' +
      'credited less withdrawals paid (the vault accounts, net)',
  ),
  balanced: Type.Boolean({
    description:
      'Debits equal credits (posted and pending), no account below zero, and the balances agree with the transfers',
  }),
  chainMode: Type.Optional(
    Type.Literal(true, {
      description:
        'Present in chain mode only: the audit is of the ledger alone unless chain=true, and ' +
        'minted HST is a shortfall no token backs',
    }),
  ),
  chain: Type.Optional(ChainReconciliation),
});
declare const _audit: SchemaMatches<typeof Audit, HstAudit>;

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
