import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { formatHst } from '@coinop/core';
import { getAddress } from 'viem';
import {
  ActivityKinds,
  type ActivityItem,
  type ActivityKind,
  type ActivityPage,
} from '@coinop/protocol';
import { AccountReads, type StoredActivity } from '../../services/account-reads.js';
import { activityCursor, parseActivityCursor } from './cursors.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { Uuid } from './schemas.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Patterns } from '../../listener/string-patterns.js';

export const ACTIVITY_PAGE_MAX = 100;
const ACTIVITY_PAGE_DEFAULT = 25;

/** What the activity routes answer, for their OpenAPI descriptions. */
export const ACTIVITY_DESCRIPTION =
  "Plays (with their scores), payouts received as a leader (paid, held or voided), leaders' parts " +
  'returned when no leader could claim them, payments to games, deposits, ' +
  'withdrawals and faucet or operator grants, merged newest first in one list, a page at a ' +
  'time: pass `nextCursor` back as `cursor` for older lines. 400 `validation_failed` naming ' +
  '`cursor`, `limit` or `kind` when one is not valid.';

const Hst = (description: string) =>
  Type.String({ description: `${description}: HST, as an exact decimal string` });
const At = Type.String({ format: 'date-time' });
const GameFields = { gameId: Uuid('The game.'), gameName: Type.String() };
const TierFields = { leaderboardId: Uuid('The tier.'), tierName: Type.String() };

/** What a payout and a returned part share: where it stands and where it goes. */
const PayoutFields = {
  status: Type.Union([Type.Literal('paid'), Type.Literal('held'), Type.Literal('voided')], {
    description:
      'paid (spendable), held (pending until releaseAt: the payout hold), or voided ' +
      '(reversed by the void of a score on the board within the hold; the play was settled ' +
      'again, each new payout a line of its own).',
  }),
  releaseAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When a held payout becomes spendable; null otherwise.',
  }),
  voidReason: Type.Union([Type.String(), Type.Null()], {
    description: 'The reason given for the score void that reversed it; null otherwise.',
  }),
  paidTo: Type.Union([Type.Literal('balance'), Type.Literal('wallet')], {
    description:
      "balance: credited to the arcade balance; wallet: a play locked on chain pays it to the player's " +
      'wallet by the vault settlement, and the arcade balance does not move.',
  }),
  txHash: Type.Union([Type.String(), Type.Null()], {
    description: 'Paid to the wallet: the vault settlement transaction, once sent; null otherwise.',
  }),
};

const ActivityItemSchema = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('play'),
      id: Uuid('The play.'),
      at: At,
      ...GameFields,
      ...TierFields,
      cost: Hst('What the play cost ("0" for a free play)'),
      status: Type.Union([
        Type.Literal('open'),
        Type.Literal('scored'),
        Type.Literal('expired'),
        Type.Literal('voided'),
      ]),
      score: Type.Union([Type.Number(), Type.Null()], { description: 'Null until scored.' }),
      scoreUnit: Type.String({
        description: 'The game\'s unit to show after the score, e.g. "ms"; empty for none.',
      }),
      rank: Type.Union([Type.Integer(), Type.Null()], {
        description:
          "The player's rank on the tier when the score was recorded; null until scored.",
      }),
      expiresAt: Type.String({
        format: 'date-time',
        description:
          "When the play's time to be scored ends: an open play not scored by then settles " +
          'without a score, its cost paid out as a score would pay it.',
      }),
      paidFrom: Type.Union([Type.Literal('balance'), Type.Literal('wallet')], {
        description:
          'balance: the cost left the arcade balance; wallet: it was locked from the ' +
          "player's wallet on chain, and the arcade balance did not move.",
      }),
      txHash: Type.Union([Type.String(), Type.Null()], {
        description: 'A play locked from the wallet: the lock transaction; null otherwise.',
      }),
      review: Type.Union(
        [
          Type.Object({
            outcome: Type.Union([
              Type.Literal('voided'),
              Type.Literal('kept'),
              Type.Literal('refused'),
            ]),
            reason: Type.String({
              description: "The reviewer's reason; for a refused attempt, the refusal's message.",
            }),
          }),
          Type.Null(),
        ],
        {
          description:
            'What review made of the score: voided (it left the board), kept (approved), or ' +
            'refused (an attempt the score rules refused). Null when none.',
        },
      ),
    },
    { description: 'A play the player opened, with its score once scored.' },
  ),
  Type.Object(
    {
      kind: Type.Literal('payout'),
      id: Uuid('The payout transfer.'),
      at: At,
      amount: Hst('Received'),
      ...GameFields,
      ...TierFields,
      playId: Uuid('The play whose cost paid it.'),
      ...PayoutFields,
    },
    { description: "HST received as a leader when another player's play settled." },
  ),
  Type.Object(
    {
      kind: Type.Literal('returned'),
      id: Uuid('The transfer.'),
      at: At,
      amount: Hst('Returned'),
      ...GameFields,
      ...TierFields,
      playId: Type.Union([Uuid("The play whose leaders' part it is."), Type.Null()], {
        description: "null for a round's entries returned at its close.",
      }),
      ...PayoutFields,
    },
    {
      description:
        "The leaders' part of what the player paid, back to them because no leader could claim " +
        'it: their play on a board nobody led, or their entries in a round that closed with ' +
        "nobody ranked. Its status and paidTo read as a payout's.",
    },
  ),
  Type.Object(
    {
      kind: Type.Literal('payment'),
      id: Uuid('The payment transfer.'),
      at: At,
      amount: Hst('Paid'),
      ...GameFields,
    },
    { description: "HST paid to a game's developer in the game." },
  ),
  Type.Object(
    {
      kind: Type.Literal('deposit'),
      id: Uuid('The crediting transfer.'),
      at: At,
      amount: Hst('Credited'),
      txHash: Type.Union([Type.String(), Type.Null()], { description: 'The deposit transaction.' }),
    },
    { description: 'HST deposited into the vault and credited.' },
  ),
  Type.Object(
    {
      kind: Type.Literal('withdrawal'),
      id: Uuid('The withdrawal.'),
      at: At,
      amount: Hst('Withdrawn'),
      to: Type.String({ description: 'The wallet paid, checksummed.' }),
      status: Type.Union([
        Type.Literal('queued'),
        Type.Literal('sent'),
        Type.Literal('paid'),
        Type.Literal('failed'),
      ]),
      txHash: Type.Union([Type.String(), Type.Null()], {
        description: 'The vault transaction that paid it, once sent.',
      }),
    },
    { description: 'HST withdrawn to a wallet.' },
  ),
  Type.Object(
    { kind: Type.Literal('grant'), id: Uuid('The mint transfer.'), at: At, amount: Hst('Granted') },
    { description: "HST minted to the player: the development faucet or an operator's grant." },
  ),
  Type.Object(
    {
      kind: Type.Literal('prize'),
      id: Uuid('The prize transfer.'),
      at: At,
      amount: Hst('Won'),
      ...GameFields,
      ...TierFields,
      place: Type.Integer({ minimum: 1, description: 'The place paid: 1 for the winner.' }),
    },
    {
      description:
        "A tournament prize: HST paid for a place when a round closed (the round's board is the tier).",
    },
  ),
]);
export const ActivityPageSchema = Type.Object({
  items: Type.Array(ActivityItemSchema, { description: 'Newest first.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for older lines; null on the last page.',
  }),
});

declare const _activityPage: SchemaMatches<typeof ActivityPageSchema, ActivityPage>;

const KIND = ActivityKinds.join('|');
export const ActivityQuery = Type.Object({
  // Query values arrive as text, and the API never coerces types.
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To100,
      description: `lines per page, 1 to ${ACTIVITY_PAGE_MAX} (default ${ACTIVITY_PAGE_DEFAULT})`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: "the previous page's nextCursor" }),
  ),
  kind: Type.Optional(
    Type.String({
      pattern: `^(${KIND})(,(${KIND}))*$`,
      maxLength: 100,
      description: `only these kinds, comma-separated (${ActivityKinds.join(', ')}); every kind when absent`,
    }),
  ),
});

function toWire(item: StoredActivity): ActivityItem {
  const common = { id: item.id, at: item.at.toISOString() };
  const amount = formatHst(item.amountUnits);
  const game = { gameId: item.gameId ?? '', gameName: item.gameName ?? '' };
  const tier = { leaderboardId: item.leaderboardId ?? '', tierName: item.tierName ?? '' };
  switch (item.kind) {
    case 'play':
      return {
        kind: 'play',
        ...common,
        ...game,
        ...tier,
        cost: amount,
        status: item.status as 'open',
        score: item.score,
        scoreUnit: item.scoreUnit,
        rank: item.rank,
        expiresAt: requireDate(item.expiresAt, 'a play line without its expiry').toISOString(),
        paidFrom: item.onChain ? 'wallet' : 'balance',
        txHash: item.txHash,
        review: item.review,
      };
    case 'payout':
      return {
        kind: 'payout',
        ...common,
        amount,
        ...game,
        ...tier,
        ...payoutOf(item),
        playId: item.playId ?? '',
      };
    case 'returned':
      return {
        kind: 'returned',
        ...common,
        amount,
        ...game,
        ...tier,
        ...payoutOf(item),
        playId: item.playId,
      };
    case 'payment':
      return { kind: 'payment', ...common, amount, ...game };
    case 'deposit':
      return { kind: 'deposit', ...common, amount, txHash: item.txHash };
    case 'withdrawal':
      return {
        kind: 'withdrawal',
        ...common,
        amount,
        to: item.toAddress === null ? '' : getAddress(item.toAddress),
        status: item.status as 'queued',
        txHash: item.txHash,
      };
    case 'grant':
      return { kind: 'grant', ...common, amount };
    case 'prize':
      return { kind: 'prize', ...common, amount, ...game, ...tier, place: item.rank ?? 0 };
  }
}

/** Where a payout (or a returned part, which reads as one) stands, and where it goes. */
function payoutOf(item: StoredActivity) {
  return {
    status: item.status as 'paid',
    releaseAt: item.releaseAt?.toISOString() ?? null,
    voidReason: item.voidReason,
    paidTo: item.onChain ? ('wallet' as const) : ('balance' as const),
    txHash: item.txHash,
  };
}

/** A column every line of its kind has: its absence is a bug in the read, not a 4xx. */
function requireDate(value: Date | null, what: string): Date {
  if (value === null) throw new TypeError(what);
  return value;
}

/**
 * A page of a player's activity as the API answers it, for a query of `ActivityQuery`: the one
 * read behind GET /player/activity and the operator's GET /admin/players/{player}/activity.
 */
export async function activityPageOf(
  accounts: AccountReads,
  player: { id: string; accountId: string },
  query: Static<typeof ActivityQuery>,
): Promise<Static<typeof ActivityPageSchema>> {
  const { limit, cursor, kind } = query;
  const after = cursor === undefined ? null : parseActivityCursor(cursor);
  const kinds = kind === undefined ? ActivityKinds : [...new Set(kind.split(','))];
  const page = await accounts.activity(
    player,
    kinds as ActivityKind[],
    after,
    Number(limit ?? ACTIVITY_PAGE_DEFAULT),
  );
  const last = page.items.at(-1);
  return {
    items: page.items.map(toWire),
    nextCursor: page.more && last ? activityCursor(last.position) : null,
  };
}

/** The signed-in player's activity: GET /player/activity. */
export function activityRoutes(
  instance: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>,
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const accounts = new AccountReads(app.arcade);
  app.get(
    '/activity',
    {
      schema: {
        operationId: 'playerListActivity',
        tags: [ApiTags.player],
        summary: "The signed-in player's activity, newest first",
        description: `${ACTIVITY_DESCRIPTION} Only the signed-in player's own.`,
        security: Security.playerToken,
        querystring: ActivityQuery,
        response: { 200: ActivityPageSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const player = await accounts.player(playerId);
      return activityPageOf(accounts, player, request.query);
    },
  );
}
