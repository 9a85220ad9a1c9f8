import { Type } from '@sinclair/typebox';

import { ApiTags } from './openapi.js';
import { MAX_COST_HST, Uuid } from './schemas.js';

export const TAGS = [ApiTags.admin];

export const Wallet = Type.String({
  pattern: '^0x[0-9a-fA-F]{40}$',
  description: 'Wallet address: 0x followed by 40 hex digits (stored lower-case)',
});

/** HST as a JSON number, or a decimal string when more than 15 significant digits must survive. */
export const HstAmount = Type.Union([Type.Number(), Type.String()], {
  description: 'Amount in HST (not base units), at most 8 decimals, e.g. 12.5 or "0.00000001"',
});

export const AccountRef = Uuid(
  'An account id, or the id of a player, developer or arcade (its account)',
);

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
        pattern: '\\S',
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
  balance: Type.Number({ description: 'HST the account can spend after the mint' }),
});

export const BalanceParams = Type.Object({ accountId: AccountRef });
export const Balance = Type.Object({
  accountId: Uuid('The account the id resolved to'),
  balance: Type.Number({
    description: 'HST available to spend: posted credits less posted and pending debits',
  }),
  pending: Type.Number({ description: 'HST locked by pending debits (unsettled plays)' }),
});

export const Audit = Type.Object({
  debitsPosted: Type.Number({ description: 'Sum of posted debits over all accounts, HST' }),
  creditsPosted: Type.Number({ description: 'Sum of posted credits over all accounts, HST' }),
  debitsPending: Type.Number({ description: 'Sum of pending debits over all accounts, HST' }),
  creditsPending: Type.Number({ description: 'Sum of pending credits over all accounts, HST' }),
  minted: Type.Number({ description: 'HST issued by the mint, net' }),
  deposited: Type.Number({
    description: 'HST deposited into chain vaults and credited, net: what the vaults back',
  }),
  balanced: Type.Boolean({
    description:
      'Debits equal credits (posted and pending), no account below zero, and the balances agree with the transfers',
  }),
});

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
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Tier name' }),
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
export const PlayerParams = Type.Object({ playerId: Uuid('The player') });
export const PlayerTokenBody = Type.Object(
  {
    ttl: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Lifetime in seconds (default --player-token-ttl; at most 30 days)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const PlayerTokenMinted = Type.Object({
  access_token: Type.String({ description: 'A player token (RS256 JWT), as sign-in issues' }),
});
