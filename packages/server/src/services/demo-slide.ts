import { CoinopError, NO_SCORE_RULES, type ScoreRules } from '@coinop/core';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { DeveloperRecord } from '../store/developers.js';
import { latestVerifierVersion } from '../store/game-verifiers.js';
import { gameRules } from '../store/score-rules.js';
import type { NewGame } from '../store/games.js';
import type { ArcadeServices } from './arcade-services.js';
import { GameVerifiers } from './game-verifiers.js';

/**
 * The demo's third game, Slide (`examples/slide`): a seeded puzzle whose every score must come
 * with a replay that its verifier, the game's own engine file, reproduces from the play's seed.
 * The demo declares the rules the example documents (examples/README.md, "Slide") and uploads
 * the engine as the game's verifier, as the game's developer would in the portal.
 */

export const SLIDE_GAME_NAME = 'Slide';
/** Where `npm start` serves the example (`examples/slide`). */
export const SLIDE_EXAMPLE_URL = 'http://127.0.0.1:8092/';

/**
 * The example's engine, which is its verifier, in this checkout (from src/ and dist/ alike). A
 * server installed without the examples has none: the demo then registers Slide unchecked.
 */
export const SLIDE_ENGINE_FILE = new URL(
  '../../../../examples/slide/web/slide.js',
  import.meta.url,
);

/**
 * The rules examples/README.md ("Slide") justifies: no score below 0 or above the engine's
 * MAX_SCORE (what 5,000 moves can earn at most), none within half a second of the play's open
 * (one move and the Finish press, each a decision on a board just seen), and a replay with every
 * score, which the verifier must reproduce.
 */
export const SLIDE_SCORE_RULES: ScoreRules = {
  minScore: 0,
  maxScore: 260_104,
  minPlayMs: 500,
  replay: 'required',
};

/** As the demo seed registers it (its developer, domain and developer text are the demo's). */
export const SLIDE_GAME: Omit<NewGame, 'developerId' | 'prodDomain' | 'developerInfo'> = {
  name: SLIDE_GAME_NAME,
  description:
    'Slide the tiles; equal tiles merge and each merge scores its value. Finish whenever you ' +
    'like. Every tile comes from the seed the arcade draws for your play, and the arcade re-plays ' +
    'your moves with the game’s verifier before your score counts.',
  category: 'Puzzle',
  tagLine: 'Merge tiles; every score is checked',
  url: SLIDE_EXAMPLE_URL,
  coverUrl: `${SLIDE_EXAMPLE_URL}cover.png`,
  scoreDisplay: 'NORMAL',
  scoreUnit: 'points',
};

/**
 * Uploads the example's engine as Slide's verifier, unless the game's current verifier is that
 * very file (so a checkout that changed the engine uploads the new one, and a restart uploads
 * nothing), and declares the rules the example documents. Returns the start-up log's lines.
 */
export async function ensureSlideIntegrity(
  arcade: ArcadeServices,
  developer: DeveloperRecord,
  gameId: string,
): Promise<string[]> {
  let source: string;
  try {
    source = await readFile(SLIDE_ENGINE_FILE, 'utf8');
  } catch {
    return [
      'slide: examples/slide/web/slide.js is not beside this server, so Slide has no verifier ' +
        'and its scores are not checked',
    ];
  }
  const sha256 = createHash('sha256').update(source, 'utf8').digest('hex');
  const current = await latestVerifierVersion(arcade.db, gameId);
  let version = current?.version ?? 0;
  if (current === null || current.removedAt !== null || current.sha256 !== sha256) {
    ({ version } = await new GameVerifiers(arcade).upload(developer, gameId, source));
  }
  return [
    `slide: verifier version ${version} is examples/slide/web/slide.js (sha256 ` +
      `${sha256.slice(0, 12)}…)`,
    await ensureSlideRules(arcade, gameId),
  ];
}

/**
 * Declares Slide's rules on a game that has none (rules its developer set since stand). Says
 * which rules are in force.
 */
async function ensureSlideRules(arcade: ArcadeServices, gameId: string): Promise<string> {
  let rules = (await gameRules(arcade.db, [gameId])).get(gameId) ?? NO_SCORE_RULES;
  if (sameRules(rules, NO_SCORE_RULES)) {
    try {
      rules = await arcade.scoreRules.changeGame(gameId, SLIDE_SCORE_RULES);
    } catch (error) {
      // An arcade that runs no verifiers may not require replays: the other rules still hold.
      if (!(error instanceof CoinopError) || error.code !== 'validation_failed') throw error;
      rules = await arcade.scoreRules.changeGame(gameId, { ...SLIDE_SCORE_RULES, replay: 'off' });
    }
  }
  return (
    `slide: scores from ${rules.minScore ?? '-∞'} to ${rules.maxScore ?? '∞'}, at least ` +
    `${rules.minPlayMs ?? 0} ms after the play's open, replay ${rules.replay}`
  );
}

function sameRules(a: ScoreRules, b: ScoreRules): boolean {
  return (
    a.minScore === b.minScore &&
    a.maxScore === b.maxScore &&
    a.minPlayMs === b.minPlayMs &&
    a.replay === b.replay
  );
}
