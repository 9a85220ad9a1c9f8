import type { ArcadeServices } from './arcade-services.js';
import type { DemoGame } from './demo-seed.js';

/**
 * The demo's third game, Slide (`examples/slide`): a seeded puzzle whose every score must come
 * with a replay that its verifier, the game's own engine file, reproduces from the play's seed.
 * The demo declares the rules the example documents (examples/README.md, "Slide") and uploads
 * the engine as the game's verifier, as the game's developer would in the portal.
 */

export const SLIDE_GAME_NAME = 'Slide';
/** Where `npm start` serves the example (`examples/slide`). */
export const SLIDE_EXAMPLE_URL = 'http://127.0.0.1:8092/';

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
 * Declares Slide's score rules and uploads its verifier, unless the game already has them (a
 * developer's own choice since stands). Returns the lines the start-up log says about it.
 */
export async function ensureSlideIntegrity(
  _arcade: ArcadeServices,
  _gameId: string,
): Promise<string[]> {
  // TODO(#30): the rules (i30-rules) and the verifier upload (i30-sandbox) once they land.
  return [];
}
