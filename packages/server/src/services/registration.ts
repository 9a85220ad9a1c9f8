import {
  CoinopError,
  NO_SCORE_RULES,
  wholeHstToUnits,
  type Clock,
  type Ids,
  type Leader,
  type Leaderboard,
  type ScoreDisplay,
  type ScoreRules,
} from '@coinop/core';
import type { Db, Queryable } from '../store/db.js';
import {
  findGame,
  insertGame,
  loadGameRef,
  updateGame,
  type GameRecord,
  type GameUpdate,
} from '../store/games.js';
import { topLeadersOfBoards } from '../store/leaders.js';
import type { Avatars } from './avatar.js';
import { toLeader } from './game-reads.js';
import { coverPolicy, createCoverCheck, type CoverCheck } from './cover-check.js';
import { decodeCoverImage, storeUploadedCover, type CoverUpload } from './cover-uploads.js';
import { deleteCover } from '../store/cover-uploads.js';
import { notifyGameChanged } from '../store/cache-notices.js';
import type { ArcadeServices } from './arcade-services.js';
import type { GameRulesChange, ScoreRulesSettings } from './score-rules-settings.js';
import { gameRules } from '../store/score-rules.js';

/** Limits on what a developer may write into a game, in characters. */
export const GAME_FIELD_LIMITS = {
  name: 100, // The schema's CHECK repeats this.
  description: 2000,
  category: 50,
  tagLine: 200,
  developerInfo: 2000,
  url: 2048, // What browsers and CDNs reliably handle.
  prodDomain: 253, // The longest DNS name.
  // A suffix after a number on a phone's leaderboard line. The schema's CHECK repeats this.
  scoreUnit: 12,
} as const;

/** Spec 2.9 plus the Game fields of 2.2 a developer owns. */
export interface CreateGameInput {
  name: string;
  description: string;
  /** Exactly one of `coverUrl` (fetched and checked) and `coverImage` (an uploaded data URL). */
  coverUrl?: string | undefined;
  coverImage?: string | undefined;
  scoreDisplay: ScoreDisplay;
  /** Shown after each score, e.g. "ms"; empty or absent for none. */
  scoreUnit?: string | undefined;
  prodDomain?: string | undefined;
  url?: string | undefined;
  category?: string | undefined;
  tagLine?: string | undefined;
  developerInfo?: string | undefined;
  /** The game's score rules (issue 30); absent: none. */
  scoreRules?: GameRulesChange | undefined;
  /** Seconds the game's payouts are held, 0 to 30 days; absent or null: the operator's default. */
  payoutHoldSeconds?: number | null | undefined;
}

/**
 * Any of the mutable fields. `name` and `scoreDisplay` are listed only to be refused by name:
 * players' scores were ranked, and the game listed, under the values given at registration.
 */
export interface UpdateGameInput {
  description?: string | undefined;
  coverUrl?: string | undefined;
  coverImage?: string | undefined;
  prodDomain?: string | undefined;
  url?: string | undefined;
  category?: string | undefined;
  tagLine?: string | undefined;
  developerInfo?: string | undefined;
  scoreUnit?: string | undefined;
  /** Seconds the game's payouts are held, 0 to 30 days; null: the operator's default. */
  payoutHoldSeconds?: number | null | undefined;
  /** A change of the game's score rules: the fields given are set, null clears one. */
  scoreRules?: GameRulesChange | undefined;
  /** The frame's shape, "width:height" (checked by the schema); null: the arcade's default. */
  aspectRatio?: string | null | undefined;
  name?: unknown;
  scoreDisplay?: unknown;
}

/** Fields that cannot change after registration, in the order they are reported. */
export const IMMUTABLE_GAME_FIELDS = ['name', 'scoreDisplay'] as const;

/** A game with its tiers, per tier id its current leaders, and its score rules. */
export interface GameWithLeaderboards {
  game: GameRecord;
  leaderboards: readonly Leaderboard[];
  leadersByBoard: ReadonlyMap<string, readonly Leader[]>;
  scoreRules: ScoreRules;
}

export interface RegistrationDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly arcadeId: string;
  /** The tiers every new game gets (operator config), cost in whole HST. */
  readonly defaultTiers: readonly { name: string; costHst: number }[];
  readonly defaultLeadersMax: number;
  readonly checkCover: CoverCheck;
  /** Told after a game's row changed, so caches holding it drop it. */
  readonly onGameChanged: (gameId: string) => void;
  /** The arcade's public web origin, for the URL of an uploaded cover; a path when unknown. */
  readonly webOrigin?: string | undefined;
  readonly avatars: Avatars;
  readonly scoreRules: ScoreRulesSettings;
}

/** Registration wired to the arcade: its storage, config, cover check and caches. */
export function registrationDeps(
  arcade: ArcadeServices,
  checkCover?: CoverCheck,
): RegistrationDeps {
  const { config } = arcade;
  return {
    db: arcade.db,
    clock: arcade.clock,
    ids: arcade.ids,
    arcadeId: arcade.record.id,
    defaultTiers: config.defaultTiers,
    defaultLeadersMax: config.defaultLeadersMax,
    checkCover: checkCover ?? createCoverCheck(coverPolicy(config)),
    onGameChanged: (gameId) => {
      arcade.games.invalidate(gameId);
      arcade.reads.invalidate(gameId);
    },
    webOrigin: config.webOrigins[0],
    avatars: arcade.avatars,
    scoreRules: arcade.scoreRules,
  };
}

/**
 * Registers a game for a developer (spec 4.8): checks the fields and the cover image, then
 * writes the game, its default tiers, its payout hold and its score rules in one transaction, so
 * a refusal of any leaves no game. The game is not published: it joins the catalog when an
 * operator publishes it, but its server may use the API at once.
 */
export async function registerGame(
  deps: RegistrationDeps,
  developerId: string,
  input: CreateGameInput,
): Promise<GameWithLeaderboards> {
  if (input.name.trim() === '') throw invalidField('name', 'must not be blank');
  // No cover is a cover for later: POST /game/create's schema requires coverUrl (spec 2.9), the
  // portal's may leave it out, and every page shows a game without one as a placeholder tile.
  const cover = coverOf(input) ?? {};
  const url = input.url === undefined ? '' : httpUrl(input.url, 'url');
  const prodDomain = input.prodDomain === undefined ? null : domain(input.prodDomain);
  const unit = input.scoreUnit === undefined ? '' : scoreUnit(input.scoreUnit);
  const rules = input.scoreRules;
  if (rules !== undefined) deps.scoreRules.checkNewGame(rules);
  // Outside the transaction: a slow image host must not hold a database connection.
  if (cover.url !== undefined) await deps.checkCover(cover.url);

  const tiers = deps.defaultTiers.map((t) => ({
    name: t.name,
    costUnits: wholeHstToUnits(t.costHst),
    leadersMax: deps.defaultLeadersMax,
  }));
  return deps.db.transaction(async (tx) => {
    const game = await insertGame(
      tx,
      deps.clock,
      deps.ids,
      deps.arcadeId,
      {
        developerId,
        name: input.name,
        description: input.description,
        category: input.category ?? '',
        developerInfo: input.developerInfo ?? '',
        tagLine: input.tagLine ?? '',
        url,
        coverUrl: cover.url ?? '',
        scoreDisplay: input.scoreDisplay,
        scoreUnit: unit,
        prodDomain,
        payoutHoldSeconds: input.payoutHoldSeconds ?? null,
      },
      tiers,
    );
    const scoreRules =
      rules === undefined ? NO_SCORE_RULES : await deps.scoreRules.changeGameIn(tx, game.id, rules);
    const stored = cover.upload
      ? await storeUploadedCover(tx, deps.clock, deps.webOrigin, game.id, cover.upload)
      : game;
    // A new game has no scores yet, so no leaders to look up.
    return {
      game: stored,
      leaderboards: await leaderboardsOf(tx, game.id),
      leadersByBoard: new Map(),
      scoreRules,
    };
  });
}

/**
 * Updates a developer's own game (spec 4.9). Another developer's game is reported as not
 * found, so a key cannot learn which game ids exist. Refuses `name` and `scoreDisplay`.
 */
export async function updateDeveloperGame(
  deps: RegistrationDeps,
  developerId: string,
  gameId: string,
  input: UpdateGameInput,
): Promise<GameWithLeaderboards> {
  const update: GameUpdate = {};
  if (input.description !== undefined) update.description = input.description;
  if (input.category !== undefined) update.category = input.category;
  if (input.tagLine !== undefined) update.tagLine = input.tagLine;
  if (input.developerInfo !== undefined) update.developerInfo = input.developerInfo;
  if (input.url !== undefined) update.url = httpUrl(input.url, 'url');
  if (input.scoreUnit !== undefined) update.scoreUnit = scoreUnit(input.scoreUnit);
  const cover = coverOf(input);
  if (cover?.url !== undefined) update.coverUrl = cover.url;
  if (input.prodDomain !== undefined) update.prodDomain = domain(input.prodDomain);
  if (input.payoutHoldSeconds !== undefined) update.payoutHoldSeconds = input.payoutHoldSeconds;
  if (input.aspectRatio !== undefined) update.aspectRatio = input.aspectRatio;

  const existing = await findGame(deps.db, gameId);
  if (!existing || existing.developerId !== developerId) {
    throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
      details: { gameId },
    });
  }
  for (const field of IMMUTABLE_GAME_FIELDS) {
    if (input[field] !== undefined) {
      throw new CoinopError('field_immutable', `${field} cannot be changed after registration`, {
        details: { field, gameId },
      });
    }
  }
  const rules = input.scoreRules;
  if (Object.keys(update).length === 0 && !cover && rules === undefined) {
    throw invalidField('body', 'must name at least one field to change');
  }
  // Refused before a cover is fetched; decided again under the game's lock as it is written.
  if (rules !== undefined) await deps.scoreRules.checkGame(gameId, rules);
  if (update.coverUrl !== undefined) await deps.checkCover(update.coverUrl);

  const game = await deps.db.transaction(async (tx) => {
    const updated =
      Object.keys(update).length === 0
        ? await findGame(tx, gameId)
        : await updateGame(tx, deps.clock, gameId, update);
    if (!updated) throw new Error(`game ${gameId} vanished during its update`);
    if (rules !== undefined) await deps.scoreRules.changeGameIn(tx, gameId, rules);
    await notifyGameChanged(tx, gameId);
    if (cover?.upload) {
      return storeUploadedCover(tx, deps.clock, deps.webOrigin, gameId, cover.upload);
    }
    // A cover URL replaces an uploaded cover, which nothing points at any more.
    if (cover?.url !== undefined) await deleteCover(tx, gameId);
    return updated;
  });
  deps.onGameChanged(gameId);
  const leaderboards = await leaderboardsOf(deps.db, gameId);
  const leadersByBoard = new Map<string, readonly Leader[]>();
  for (const [boardId, rows] of await topLeadersOfBoards(deps.db, leaderboards)) {
    leadersByBoard.set(
      boardId,
      rows.map((row) => toLeader(row, deps.avatars)),
    );
  }
  const scoreRules = (await gameRules(deps.db, [gameId])).get(gameId) ?? NO_SCORE_RULES;
  return { game, leaderboards, leadersByBoard, scoreRules };
}

async function leaderboardsOf(q: Queryable, gameId: string): Promise<readonly Leaderboard[]> {
  const ref = await loadGameRef(q, gameId);
  if (!ref) throw new Error(`game ${gameId} has no row`);
  return ref.leaderboards;
}

/**
 * The cover a request gives: a checked-form URL (fetched later) or a decoded, checked upload;
 * null when it gives none. Both at once is refused.
 */
function coverOf(input: {
  coverUrl?: string | undefined;
  coverImage?: string | undefined;
}): { url?: string; upload?: CoverUpload } | null {
  if (input.coverUrl !== undefined && input.coverImage !== undefined) {
    throw invalidField('coverImage', 'cannot be given with coverUrl: send one or the other');
  }
  if (input.coverUrl !== undefined) return { url: httpUrl(input.coverUrl, 'coverUrl') };
  if (input.coverImage !== undefined) return { upload: decodeCoverImage(input.coverImage) };
  return null;
}

function invalidField(field: string, why: string): CoinopError {
  return new CoinopError('validation_failed', `${field} ${why}`, { details: { field } });
}

/** An absolute http(s) URL without credentials, returned as given (spec 2.9: coverUrl). */
function httpUrl(value: string, field: string): string {
  // The URL parser drops surrounding whitespace; the stored value must be exactly what works.
  if (value !== value.trim()) {
    throw invalidField(field, `must not have spaces around it, got ${quote(value)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalidField(field, `must be an absolute http or https URL, got ${quote(value)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidField(field, `must be an http or https URL, got ${parsed.protocol} URL`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalidField(field, 'must not contain a user name or password');
  }
  return value;
}

const DOMAIN_PATTERN =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/i;

/** A host name, optionally with a port: `game.example.com`, not a URL. Stored lower-case. */
function domain(value: string): string {
  if (!DOMAIN_PATTERN.test(value)) {
    throw invalidField(
      'prodDomain',
      `must be a domain name such as game.example.com, got ${quote(value)}`,
    );
  }
  return value.toLowerCase();
}

/** Control and format characters, line breaks and the characters that start markup. */
const NOT_IN_SCORE_UNIT = /[\p{C}\p{Zl}\p{Zp}<>&]/u;

/**
 * A score unit as the arcade shows it after a number ("109 ms"): at most 12 characters, plain
 * text (the web app escapes it anyway, but other clients may not), no spaces around it.
 */
export function scoreUnit(value: string): string {
  const field = 'scoreUnit';
  if ([...value].length > GAME_FIELD_LIMITS.scoreUnit) {
    throw invalidField(field, `must be at most ${GAME_FIELD_LIMITS.scoreUnit} characters`);
  }
  if (NOT_IN_SCORE_UNIT.test(value)) {
    throw invalidField(
      field,
      'must be plain text: no control characters, line breaks, <, > or &, got ' + quote(value),
    );
  }
  if (value !== value.trim()) {
    throw invalidField(field, `must not have spaces around it, got ${quote(value)}`);
  }
  return value;
}

/** Echoes a bad value back, cut short so an error message stays one line. */
function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
