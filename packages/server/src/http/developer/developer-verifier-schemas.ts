import { Type } from '@sinclair/typebox';
import type {
  VerifierCheck,
  VerifierVersionRecord,
  VerifierView,
} from '../../services/game-verifiers.js';
import { Uuid } from '../shared/schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/** Wire shapes of a game's replay verifier (docs/reference/verifier.md). */

/** The media types an upload may carry; anything else is 415 unsupported_media_type. */
export const VERIFIER_MEDIA_TYPES = ['application/javascript', 'text/javascript'] as const;

const date = (description: string) => Type.String({ format: 'date-time', description });

export const VerifierVersionSchema = Type.Object(
  {
    gameId: Uuid('The game.'),
    version: Type.Integer({ minimum: 1, description: 'Counts the game’s uploads from 1.' }),
    sha256: Type.String({
      ...Patterns.hex32Bytes,
      description: 'SHA-256 of the module’s UTF-8 bytes, to tell a build apart.',
    }),
    sizeBytes: Type.Integer({ description: 'The module’s size in UTF-8 bytes (at most 256 KiB).' }),
    uploadedAt: date('When it was uploaded.'),
    removedAt: Type.Union([
      date('When it was removed; a new upload is current again.'),
      Type.Null(),
    ]),
  },
  { description: 'One version of a game’s replay verifier.' },
);

export const VerifierSchema = Type.Intersect(
  [VerifierVersionSchema, Type.Object({ source: Type.String({ description: 'The module.' }) })],
  { description: 'The game’s current replay verifier, with its source.' },
);

export const CheckBody = Type.Object(
  {
    source: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'A module to try instead of the current one (it is not stored).',
      }),
    ),
    seed: Type.Optional(
      Type.String({
        ...Patterns.hex32Bytes,
        description: 'The play’s seed, 64 lowercase hex digits; a fresh random one when absent.',
      }),
    ),
    replay: Type.String({ description: 'The replay, as the game would submit it.' }),
    score: Type.Number({ description: 'The score the game would claim.' }),
    leaderboardId: Type.Optional(Uuid('The tier the verifier is told; empty when absent.')),
  },
  { additionalProperties: false },
);

const REASONS = ['mismatch', 'threw', 'time_limit', 'memory_limit', 'no_verifier'] as const;

export const CheckResultSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'Whether the score would be accepted.' }),
    reason: Type.Union([Type.Union(REASONS.map((reason) => Type.Literal(reason))), Type.Null()], {
      description: 'Why not; null when ok.',
    }),
    detail: Type.Union([Type.String(), Type.Null()], {
      description: 'Why not, for a person ("the replay earns 120, not 4200"); null when ok.',
    }),
    computed: Type.Union([Type.Number(), Type.Null()], {
      description: 'The score the replay earns, when the verifier returned one.',
    }),
    version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The stored version that ran; null when the request gave its own module.',
    }),
    seed: Type.String({ description: 'The seed the verifier was given.' }),
    durationMs: Type.Integer({ description: 'How long the check took, waiting included.' }),
  },
  { description: 'What the score path would answer for this replay.' },
);

export const versionToWire = (record: VerifierVersionRecord) => ({
  gameId: record.gameId,
  version: record.version,
  sha256: record.sha256,
  sizeBytes: record.sizeBytes,
  uploadedAt: record.uploadedAt.toISOString(),
  removedAt: record.removedAt?.toISOString() ?? null,
});

export const verifierToWire = (view: VerifierView) => ({
  ...versionToWire(view),
  source: view.source,
});

export const checkToWire = ({ outcome, version, seed, durationMs }: VerifierCheck) => ({
  ok: outcome.ok,
  reason: outcome.ok ? null : outcome.reason,
  detail: outcome.ok ? null : outcome.detail,
  computed: outcome.computed ?? null,
  version,
  seed,
  durationMs,
});
