import { createHash, randomBytes } from 'node:crypto';
import { CoinopError } from '@coinop/core';
import { findGame } from '../store/games.js';
import { lockGameRow } from '../store/developer-games.js';
import type { DeveloperRecord } from '../store/developers.js';
import {
  gameRequiresReplays,
  insertVerifierVersion,
  latestVerifierVersion,
  markVerifierRemoved,
  verifierSource,
  type VerifierVersionRecord,
} from '../store/game-verifiers.js';
import {
  VERIFIER_MAX_BYTES,
  replayOverLimit,
  type VerifierSandbox,
  type VerifyOutcome,
} from '../verifier/index.js';
import type { ArcadeServices } from './arcade-services.js';

export type { VerifierVersionRecord };

/** The current verifier with its source, as the developer reads it back. */
export interface VerifierView extends VerifierVersionRecord {
  readonly source: string;
}

/** A test run on the developer's bench: the outcome, and what ran. */
export interface VerifierCheck {
  readonly outcome: VerifyOutcome & { computed?: number };
  /** The stored version that ran; null when the request gave its own module. */
  readonly version: number | null;
  /** The seed the verifier was given (a fresh one when the request gave none). */
  readonly seed: string;
  readonly durationMs: number;
}

export interface VerifierCheckInput {
  readonly source?: string | undefined;
  readonly seed?: string | undefined;
  readonly replay: string;
  readonly score: number;
  readonly leaderboardId?: string | undefined;
}

/**
 * A game's replay verifier, for its developer (docs/reference/verifier.md): upload a version,
 * read the current one back, remove it, and try a module on a replay. Another developer's game
 * is answered as not found, as every portal route does.
 */
export class GameVerifiers {
  readonly #arcade: ArcadeServices;
  readonly #sandbox: VerifierSandbox;

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
    this.#sandbox = arcade.verifiers;
  }

  /** Checks the module in the sandbox, then stores it as the game's next version. */
  async upload(
    developer: DeveloperRecord,
    gameId: string,
    source: string,
  ): Promise<VerifierVersionRecord> {
    await this.#ownGame(developer, gameId);
    await this.#assertLoads(source, gameId);
    const { db, clock } = this.#arcade;
    return db.transaction(async (tx) => {
      await lockGameRow(tx, gameId);
      return insertVerifierVersion(tx, {
        gameId,
        source,
        sha256: createHash('sha256').update(source, 'utf8').digest('hex'),
        sizeBytes: Buffer.byteLength(source, 'utf8'),
        uploadedAt: clock.now(),
        uploadedBy: developer.id,
      });
    });
  }

  async current(developer: DeveloperRecord, gameId: string): Promise<VerifierView> {
    await this.#ownGame(developer, gameId);
    const latest = await this.#current(gameId);
    const source = await verifierSource(this.#arcade.db, gameId, latest.version);
    if (source === null) throw new Error(`verifier ${gameId}@${latest.version} has no source`);
    return { ...latest, source };
  }

  /**
   * Removes the current verifier; refused while the game's rules, or a live tier's, require
   * replays (the score path would refuse every score of it).
   */
  async remove(developer: DeveloperRecord, gameId: string): Promise<VerifierVersionRecord> {
    await this.#ownGame(developer, gameId);
    const { db, clock } = this.#arcade;
    const removed = await db.transaction(async (tx) => {
      await lockGameRow(tx, gameId);
      if (await gameRequiresReplays(tx, gameId)) {
        throw new CoinopError(
          'verifier_in_use',
          `game ${gameId} requires a replay with its scores: set the replay rule of the game ` +
            'and its tiers to off first, or upload a new version instead',
          { details: { gameId } },
        );
      }
      return markVerifierRemoved(tx, { gameId, removedAt: clock.now(), removedBy: developer.id });
    });
    if (removed === null) throw notFound(gameId);
    return removed;
  }

  /** Runs the given module, or the current one, on a replay: the developer's test bench. */
  async check(
    developer: DeveloperRecord,
    gameId: string,
    input: VerifierCheckInput,
  ): Promise<VerifierCheck> {
    await this.#ownGame(developer, gameId);
    const tooLarge = replayOverLimit(input.replay, this.#sandbox.settings.replayMaxBytes);
    if (tooLarge !== null) throw new CoinopError('replay_too_large', tooLarge);
    let version: number | null = null;
    let source = input.source;
    if (source === undefined) {
      const latest = await this.#current(gameId);
      version = latest.version;
      source = (await verifierSource(this.#arcade.db, gameId, latest.version)) ?? '';
    } else {
      assertSize(source);
    }
    const seed = input.seed ?? randomBytes(32).toString('hex');
    const started = performance.now();
    const outcome = await this.#sandbox.check(
      source,
      {
        seed,
        replay: input.replay,
        score: input.score,
        leaderboardId: input.leaderboardId ?? '',
      },
      gameId,
    );
    return { outcome, version, seed, durationMs: Math.round(performance.now() - started) };
  }

  async #assertLoads(source: string, gameId: string): Promise<void> {
    assertSize(source);
    const loaded = await this.#sandbox.inspect(source, gameId);
    if (!loaded.ok) throw new CoinopError('verifier_invalid', loaded.detail);
  }

  async #current(gameId: string): Promise<VerifierVersionRecord> {
    const latest = await latestVerifierVersion(this.#arcade.db, gameId);
    if (latest === null || latest.removedAt !== null) throw notFound(gameId);
    return latest;
  }

  async #ownGame(developer: DeveloperRecord, gameId: string): Promise<void> {
    const game = await findGame(this.#arcade.db, gameId);
    if (!game || game.developerId !== developer.id) {
      throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
        details: { gameId },
      });
    }
  }
}

function assertSize(source: string): void {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > VERIFIER_MAX_BYTES) {
    throw new CoinopError(
      'verifier_too_large',
      `the module is ${bytes} bytes, over the limit of ${VERIFIER_MAX_BYTES} (256 KiB)`,
    );
  }
  if (source.trim() === '') {
    throw new CoinopError('verifier_invalid', 'the module is empty: it must export `verify`');
  }
}

function notFound(gameId: string): CoinopError {
  return new CoinopError('verifier_not_found', `game ${gameId} has no replay verifier`, {
    details: { gameId },
  });
}
