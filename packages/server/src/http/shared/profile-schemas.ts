import { Type } from '@sinclair/typebox';
import type {
  PlayerIdentity,
  ProfileReset,
  PublicBoardStanding,
  PublicPlayerProfile,
  PublicTournamentResult,
} from '@coinop/protocol';
import { DISPLAY_NAME_MAX_CHARS, DISPLAY_NAME_MIN_CHARS } from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { AVATAR_MAX_CHARS } from '../../services/avatar-uploads.js';
import { Uuid } from './schemas.js';

/** The wire shapes of profiles (docs/concepts/profiles.md), shared by the player, catalog and admin. */

const identityFields = {
  playerId: Uuid('the player'),
  name: Type.String({ description: 'the display name' }),
  avatar: Type.String({
    description: 'avatar image URL: the uploaded one, else the generated one',
  }),
  nameChosen: Type.Boolean({
    description: "whether the player chose the name (false: the arcade's default)",
  }),
  avatarUploaded: Type.Boolean({
    description: 'whether the avatar is an uploaded picture (false: the generated identicon)',
  }),
};
export const PlayerIdentitySchema = Type.Object(identityFields);

export const SetNameBody = Type.Object(
  {
    name: Type.String({
      // Room for spaces the server trims; the rules themselves are checked after normalising.
      maxLength: DISPLAY_NAME_MAX_CHARS * 4,
      description:
        `${DISPLAY_NAME_MIN_CHARS} to ${DISPLAY_NAME_MAX_CHARS} characters after NFKC ` +
        'normalising and trimming: letters and digits of any script, spaces, `_`, `-` and `.`; ' +
        'unique in lower case (docs/concepts/profiles.md)',
    }),
  },
  { additionalProperties: false },
);

export const SetAvatarBody = Type.Object(
  {
    image: Type.String({
      maxLength: AVATAR_MAX_CHARS,
      description:
        'a data:image/png, data:image/jpeg or data:image/webp base64 URL: 64 to 2048 pixels a ' +
        'side, at most 512 KiB',
    }),
  },
  { additionalProperties: false },
);

export const ResetProfileBody = Type.Object(
  {
    reason: Type.String({
      minLength: 3,
      maxLength: 500,
      description: 'why, kept with the reset (3 to 500 characters)',
    }),
  },
  { additionalProperties: false },
);

export const ProfileResetSchema = Type.Object({
  ...identityFields,
  previousName: Type.String(),
  reason: Type.String(),
  resetAt: Type.String({ format: 'date-time' }),
});

const PublicBoardStandingSchema = Type.Object({
  gameId: Uuid('the game'),
  gameName: Type.String(),
  scoreUnit: Type.String({ description: 'shown after the score; empty for none' }),
  leaderboardId: Uuid('the tier'),
  leaderboardName: Type.String(),
  score: Type.Number(),
  rank: Type.Integer({ minimum: 1 }),
});

const PublicTournamentResultSchema = Type.Object({
  tournamentId: Uuid('the tournament'),
  tournamentName: Type.String(),
  gameId: Uuid('the game'),
  gameName: Type.String(),
  scoreUnit: Type.String({ description: 'shown after the score; empty for none' }),
  roundNumber: Type.Integer({ minimum: 1 }),
  place: Type.Integer({ minimum: 1 }),
  score: Type.Number(),
  prize: Type.String({ description: 'HST, as an exact decimal string' }),
  closedAt: Type.String({ format: 'date-time' }),
});

export const PublicPlayerProfileSchema = Type.Object({
  ...identityFields,
  memberSince: Type.String({ format: 'date-time' }),
  boards: Type.Array(PublicBoardStandingSchema),
  tournaments: Type.Array(PublicTournamentResultSchema),
});

declare const _identity: SchemaMatches<typeof PlayerIdentitySchema, PlayerIdentity>;
declare const _reset: SchemaMatches<typeof ProfileResetSchema, ProfileReset>;
declare const _standing: SchemaMatches<typeof PublicBoardStandingSchema, PublicBoardStanding>;
declare const _result: SchemaMatches<typeof PublicTournamentResultSchema, PublicTournamentResult>;
declare const _public: SchemaMatches<typeof PublicPlayerProfileSchema, PublicPlayerProfile>;
