import {
  CoinopError,
  checkScoreRules,
  effectiveScoreRules,
  hasScoreRules,
  playerScoreRefusal,
  type Clock,
  type GameRef,
  type Ids,
  type Leaderboard,
} from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { findPlay, type StoredPlay } from '../store/plays.js';
import { insertScoreRefusal, type ScoreRefusalRecord } from '../store/score-rules.js';
import type { ReplayVerifier, VerifyOutcome } from '../verifier/index.js';
import type { GameCache } from './game-cache.js';
import type { ScoreMemory } from './score-memory.js';

/**
 * What checks replays against a game's verifier, and tells whether a game has one (a tier may
 * require replays only then). The server wires the sandbox's `ReplayVerifier` and its uploads'
 * current version (docs/reference/verifier.md); without it, no game may require replays.
 */
export interface ScoreVerification {
  readonly verifier: ReplayVerifier;
  /**
   * Whether the game has a current verifier, read through `q` when given: a rules change asks
   * inside its transaction, under the game's row lock that a verifier's removal takes too (and
   * PGlite's one connection would wait on a read from outside it forever).
   */
  hasVerifier(gameId: string, q?: Queryable): Promise<boolean>;
}

/** What the gate reads of a score submission (`GatedScore`). */
export interface GatedScore {
  readonly gameId: string;
  readonly playId: string;
  readonly score: number;
  readonly replay?: string | null;
  /** Client-side: the player whose wallet signed the score. */
  readonly approval?: { readonly playerId: string };
}

export interface ScoreRulesGateDeps {
  readonly db: Queryable;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly games: GameCache;
  readonly memory: ScoreMemory;
  readonly verification: ScoreVerification | null;
  /** Longest replay a score may carry, in UTF-8 bytes (`--replay-max-bytes`). */
  readonly replayMaxBytes: number;
}

/**
 * The score rules' gate (issue 30, docs/concepts/score-integrity.md): a score its game's rules
 * refuse is answered with the refusal before it joins a batch of scores, so it writes nothing on
 * the board and moves no HST, and its play stays open. Each refusal is kept as evidence in its
 * own small statement. The scoring path calls it only for a game with rules or a score with a
 * replay: a game without rules scores exactly as it did before rules existed.
 */
export class ScoreRulesGate {
  readonly #deps: ScoreRulesGateDeps;

  constructor(deps: ScoreRulesGateDeps) {
    this.#deps = deps;
  }

  /** Throws the score's refusal (a CoinopError), or returns when it may be scored. */
  async check(input: GatedScore, game: GameRef): Promise<void> {
    const replay = input.replay ?? null;
    if (replay !== null) this.#assertReplaySize(replay);
    if (game.scoreRules === undefined) return;
    const play = await this.#openPlay(input);
    // A play that is missing, not open, past its time or another player's is refused by the
    // scoring path itself, with its own answer; the rules judge only a score that could count.
    if (play === null) return;
    const board = await this.#board(game, play);
    const rules = effectiveScoreRules(game.scoreRules, board?.scoreRules);
    if (!hasScoreRules(rules)) return;
    const now = this.#deps.clock.now();
    const playMs = Math.max(0, now.getTime() - play.createdAt.getTime());
    const attempt = { play, input, replay, playMs, now };
    const refusal = checkScoreRules(rules, {
      score: input.score,
      playMs,
      hasReplay: replay !== null,
    });
    if (refusal !== null) await this.#refuse(attempt, refusal.code, refusal.message);
    if (rules.replay === 'required') await this.#verify(attempt);
  }

  #assertReplaySize(replay: string): void {
    const max = this.#deps.replayMaxBytes;
    // Under max / 4 characters a string cannot exceed max bytes (4 UTF-8 bytes at most each).
    if (replay.length * 4 <= max) return;
    const bytes = Buffer.byteLength(replay, 'utf8');
    if (bytes <= max) return;
    throw new CoinopError(
      'replay_too_large',
      `replay is ${bytes} bytes of UTF-8; this arcade takes at most ${max} (--replay-max-bytes)`,
      { details: { field: 'replay', bytes, maxBytes: max } },
    );
  }

  /** The play as this process opened it, else as stored; null unless open and in time. */
  async #openPlay(input: GatedScore): Promise<StoredPlay | null> {
    const play =
      this.#deps.memory.play(input.playId) ??
      (await findPlay(this.#deps.db, input.gameId, input.playId));
    if (play === null || play.gameId !== input.gameId || play.status !== 'open') return null;
    if (play.expiresAt.getTime() <= this.#deps.clock.now().getTime()) return null;
    if (input.approval !== undefined && playerScoreRefusal(play, input.approval.playerId) !== null)
      return null;
    return play;
  }

  /** The play's board (a tier, retired or not, or a round), read afresh if not cached. */
  async #board(game: GameRef, play: StoredPlay): Promise<Leaderboard | undefined> {
    const find = (g: GameRef) =>
      [...g.leaderboards, ...(g.rounds ?? [])].find((b) => b.id === play.leaderboardId);
    return (
      find(game) ?? find(await this.#deps.games.getWithLeaderboard(play.gameId, play.leaderboardId))
    );
  }

  /** Runs the game's verifier on the replay; refuses `replay_rejected` unless it earns the score. */
  async #verify(attempt: Attempt): Promise<void> {
    const { play, input, replay } = attempt;
    if (replay === null) return;
    const outcome: VerifyOutcome =
      play.seed === null
        ? { ok: false, reason: 'no_verifier', detail: 'the play was opened before plays had seeds' }
        : this.#deps.verification === null
          ? { ok: false, reason: 'no_verifier', detail: 'this arcade runs no replay verifiers' }
          : await this.#deps.verification.verifier.verify({
              gameId: play.gameId,
              seed: play.seed,
              replay,
              score: input.score,
              leaderboardId: play.leaderboardId,
            });
    if (outcome.ok) return;
    // The sandbox's detail says why for a person: "the replay earns 120, not 4200".
    await this.#refuse(attempt, 'replay_rejected', outcome.detail);
  }

  /** Keeps the refused attempt as evidence, then throws its refusal. */
  async #refuse(
    { play, input, replay, playMs, now }: Attempt,
    reason: ScoreRefusalRecord['reason'],
    message: string,
  ): Promise<never> {
    await insertScoreRefusal(this.#deps.db, {
      id: this.#deps.ids.next(),
      playId: play.id,
      gameId: play.gameId,
      leaderboardId: play.leaderboardId,
      playerId: play.playerId,
      score: input.score,
      reason,
      detail: message,
      replay,
      // A play lives at most 30 days (--play-ttl); the column is a 32-bit integer.
      playMs: Math.min(playMs, INT32_MAX),
      createdAt: now,
    });
    const field =
      reason === 'score_out_of_bounds' || reason === 'score_too_fast' ? 'score' : 'replay';
    throw new CoinopError(reason, message, { details: { field, playId: play.id } });
  }
}

interface Attempt {
  readonly play: StoredPlay;
  readonly input: GatedScore;
  readonly replay: string | null;
  readonly playMs: number;
  readonly now: Date;
}

const INT32_MAX = 2_147_483_647;
