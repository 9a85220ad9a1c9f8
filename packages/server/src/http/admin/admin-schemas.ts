import { Type } from '@sinclair/typebox';
import type { AccountBalance, HstAudit, HstMinted } from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';

import { ApiTags } from '../../listener/openapi.js';
import { ChainReconciliation } from './admin-chain-schemas.js';
import { AccountRef, ExactHst, HstAmount, PlayerRef, Wallet } from './admin-field-schemas.js';
import { MAX_COST_HST, Uuid } from '../shared/schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

export const TAGS = [ApiTags.admin];

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
export const KeysRevoked = Type.Object({
  kid: Type.String({ description: 'The new signing key, which signs from now on' }),
  revokedKids: Type.Array(Type.String(), {
    description: 'Every key deleted: no token any of them signed validates any more',
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
