import { Type } from '@sinclair/typebox';
import {
  APPROVAL_NONCE_MAX_LENGTH,
  type ApprovedPlayRequest,
  type ApprovedPurchaseRequest,
  type ApprovedScoreRequest,
  type FaucetGrant,
  type PlayerDeposit,
  type PlayerDepositList,
  type PlayerProfile,
  type Purchase,
} from '@coinop/protocol';
import { ApiTags } from '../../listener/openapi.js';
import { ReplayField, Uuid } from '../shared/schemas.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Patterns } from '../../listener/string-patterns.js';

/** The wire shapes of the player plugin's own routes (profile, deposits, faucet, approved plays). */

export const TAGS = [ApiTags.player];
export const GameParams = Type.Object({ gameId: Uuid('the game') });
const signedFields = {
  nonce: Type.String({
    minLength: 8,
    maxLength: APPROVAL_NONCE_MAX_LENGTH,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'a fresh id for this approval; a retry with the same nonce repeats the result',
  }),
  signature: Type.String({
    pattern: '^0x[0-9a-fA-F]+$',
    maxLength: 4096,
    description: "the wallet's EIP-191 signature of approvalMessage(...) for these fields",
  }),
};
export const signedNote =
  ' The body carries the player wallet’s EIP-191 signature of `approvalMessage()` ' +
  '(`@coinop/protocol`) for these fields; it is checked and recorded with what it approved. ' +
  '403 `invalid_approval_signature` when the signed-in player’s wallet did not sign that text.';

/** An amount the player reads: exact to the unit, which a JSON number is not past 15 digits. */
const Hst = (description: string) =>
  Type.String({ description: `${description}, as an exact decimal string` });
export const PlayerMe = Type.Object({
  playerId: Uuid('the player'),
  wallet: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  avatar: Type.String({ description: 'avatar image URL' }),
  balance: Hst('spendable HST'),
  pending: Hst('HST locked in open plays'),
  pendingPayouts: Hst(
    'HST won but held until the payout hold ends (a false score may be voided meanwhile); not ' +
      'in balance',
  ),
  pendingPayoutsReleaseAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'when the next held payout becomes spendable; null when none is held',
  }),
  faucet: Type.Object({
    amount: Hst('HST per faucet grant; "0" when there is no faucet'),
    destination: Type.Union([Type.Literal('ledger'), Type.Literal('wallet')], {
      description:
        "where a grant goes: the arcade balance, or the player's wallet on the dev chain",
    }),
  }),
});
export const FaucetGrantSchema = Type.Union([
  Type.Object({
    destination: Type.Literal('ledger'),
    transferId: Uuid('the mint transfer'),
    balance: Hst("the player's spendable HST after it"),
  }),
  Type.Object({
    destination: Type.Literal('wallet'),
    wallet: Type.String({ description: 'the wallet the HST was minted to' }),
    txHash: Type.String({ description: 'the mint transaction' }),
    amount: Hst('HST granted'),
    walletBalance: Hst('HST in the wallet after it'),
  }),
]);
export const PlayBody = Type.Object(
  { leaderboardId: Uuid('the tier the player chose'), ...signedFields },
  { additionalProperties: false },
);
export const ScoreBody = Type.Object(
  {
    playId: Uuid('the play'),
    score: Type.Number({ minimum: 0, description: 'the score; finite and not negative' }),
    replay: ReplayField,
    ...signedFields,
  },
  { additionalProperties: false },
);
export const PurchaseBody = Type.Object(
  {
    amount: Type.Union([Type.String(), Type.Number()], {
      description:
        'HST: more than 0, at most 8 decimals, as a decimal string (exact, what the web app ' +
        'sends) or a number; the signed `Pay:` line is formatHst of it',
    }),
    ...signedFields,
  },
  { additionalProperties: false },
);
export const PurchaseSchema = Type.Object({
  txid: Uuid('the ledger transfer'),
  amount: Hst('HST paid'),
});

const PlayerDepositSchema = Type.Object({
  txHash: Type.String(),
  logIndex: Type.Integer({ description: "The Deposited event's index in its block" }),
  blockNumber: Type.Integer(),
  amount: Type.String({ description: 'HST, as an exact decimal string' }),
  status: Type.Union([Type.Literal('credited'), Type.Literal('held')]),
  heldReason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why it is held (docs/concepts/chain.md); null when credited',
  }),
  creditedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export const PlayerDepositListSchema = Type.Object({ deposits: Type.Array(PlayerDepositSchema) });
export const TxHashParams = Type.Object({
  txHash: Type.String({ ...Patterns.txHash, description: 'the transaction hash' }),
});

declare const _playerMe: SchemaMatches<typeof PlayerMe, PlayerProfile>;
declare const _playerDeposit: SchemaMatches<typeof PlayerDepositSchema, PlayerDeposit>;
declare const _playerDeposits: SchemaMatches<typeof PlayerDepositListSchema, PlayerDepositList>;
declare const _faucetGrant: SchemaMatches<typeof FaucetGrantSchema, FaucetGrant>;
declare const _playBody: SchemaMatches<typeof PlayBody, ApprovedPlayRequest>;
declare const _scoreBody: SchemaMatches<typeof ScoreBody, ApprovedScoreRequest>;
declare const _purchaseBody: SchemaMatches<typeof PurchaseBody, ApprovedPurchaseRequest>;
declare const _purchase: SchemaMatches<typeof PurchaseSchema, Purchase>;
