import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { DeveloperRecord } from '../store/developers.js';
import { latestVerifierVersion } from '../store/game-verifiers.js';
import type { ArcadeServices } from './arcade-services.js';
import type { DemoGame } from './demo-seed.js';
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

export const SLIDE_GAME: DemoGame = {
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
  ];
}
