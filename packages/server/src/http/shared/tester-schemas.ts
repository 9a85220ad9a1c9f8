import { Type } from '@sinclair/typebox';
import { formatHst } from '@coinop/core';
import type {
  Tester,
  TesterList,
  TestingInvitation,
  TestingInvitationList,
} from '@coinop/protocol';
import type { InvitationRecord, TesterRecord } from '../../services/testers.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from './schemas.js';

/**
 * Testers of unpublished games (docs/concepts/consent.md, "Testers"): the developer invites a
 * wallet from the portal; the player with that wallet accepts, declines or leaves from the arcade.
 */

const TesterStateSchema = Type.Union(
  [
    Type.Literal('invited'),
    Type.Literal('accepted'),
    Type.Literal('declined'),
    Type.Literal('left'),
  ],
  {
    description:
      'invited: waiting for the player; accepted: a tester the unpublished game may charge; ' +
      'declined or left: the player said no, or stopped testing.',
  },
);
const answeredAt = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
  description: 'When the player last answered; null while the invitation waits.',
});

export const TesterSchema = Type.Object({
  wallet: Type.String({ description: 'The invited wallet address, lower-case.' }),
  addedAt: Type.String({ format: 'date-time', description: 'When the developer invited it.' }),
  state: TesterStateSchema,
  answeredAt,
});
export const TesterListSchema = Type.Object({ testers: Type.Array(TesterSchema) });

export const InvitationSchema = Type.Object(
  {
    gameId: Uuid('The game.'),
    gameName: Type.String(),
    published: Type.Boolean({ description: 'Testers matter only before the game is published.' }),
    developerWallet: Type.String({ description: "The inviting developer's wallet, lower-case." }),
    developerName: Type.Union([Type.String(), Type.Null()], {
      description: "The developer wallet's name in the arcade; null if it never signed in.",
    }),
    highestPlayCost: Type.Union([Type.String(), Type.Null()], {
      description:
        "The most one play of the game costs now (its highest tier, or an open round's entry " +
        'fee), HST as a decimal string; null when it has no board. The developer may change ' +
        "prices or add tiers; the tester's daily allowance (dailyLimit) bounds what plays lock.",
    }),
    dailyLimit: Type.Union([Type.String(), Type.Null()], {
      description:
        'The daily allowance the player chose for the game, HST as a decimal string ("0" once ' +
        "revoked); accepting sets it. Null: none chosen, the operator's default applies.",
    }),
    state: TesterStateSchema,
    invitedAt: Type.String({ format: 'date-time' }),
    answeredAt,
  },
  { description: 'An invitation to test a game (docs/concepts/consent.md, "Testers").' },
);
export const InvitationListSchema = Type.Object({ invitations: Type.Array(InvitationSchema) });

declare const _tester: SchemaMatches<typeof TesterSchema, Tester>;
declare const _testerList: SchemaMatches<typeof TesterListSchema, TesterList>;
declare const _invitation: SchemaMatches<typeof InvitationSchema, TestingInvitation>;
declare const _invitationList: SchemaMatches<typeof InvitationListSchema, TestingInvitationList>;

export const testerToWire = (t: TesterRecord): Tester => ({
  wallet: t.wallet,
  addedAt: t.invitedAt.toISOString(),
  state: t.state,
  answeredAt: t.answeredAt?.toISOString() ?? null,
});

export const invitationToWire = (i: InvitationRecord): TestingInvitation => ({
  gameId: i.gameId,
  gameName: i.gameName,
  published: i.published,
  developerWallet: i.developerWallet,
  developerName: i.developerName,
  highestPlayCost: i.highestPlayCostUnits === null ? null : formatHst(i.highestPlayCostUnits),
  dailyLimit: i.dailyUnits === null ? null : formatHst(i.dailyUnits),
  state: i.state,
  invitedAt: i.invitedAt.toISOString(),
  answeredAt: i.answeredAt?.toISOString() ?? null,
});
