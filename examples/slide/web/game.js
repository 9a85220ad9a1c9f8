// @ts-check
/* global document, Coinop, URLSearchParams, location, crypto */
import { MAX_MOVES, newGame, replayOf, slide } from './slide.js';
import { listenForMoves } from './input.js';
import { $, buildBoard, renderRun } from './view.js';

/**
 * The page: Play asks the arcade for a play and starts a run only with its playId (spec 4.10
 * rule 2), on the board the play's seed lays out; every tile after comes from that seed too.
 * Finish (or a board with no move left) submits the score with the run's replay, the moves, which
 * the arcade re-plays from the same seed with this game's verifier (web/slide.js) before the score
 * counts.
 */

// The demo arcade accepts any gameId; this is its fixed one (spec 1.4).
const DEMO_GAME_ID = '00000000-0000-4000-8000-000000000000';
const SEED_PATTERN = /^[0-9a-f]{64}$/;
const NAMES = { L: 'left', R: 'right', U: 'up', D: 'down' };

const board = $('#board');
const playButton = /** @type {HTMLButtonElement} */ ($('#play'));
const finishButton = /** @type {HTMLButtonElement} */ ($('#finish'));
const pad = $('.pad');
const padButtons = /** @type {HTMLButtonElement[]} */ ([...pad.querySelectorAll('button')]);
const statusLine = $('#status');
const seedLine = $('#seed');
const leadersList = $('#leaders');
const leadersHeading = $('#leaders-heading');

/** @param {string} name */
const meta = (name) => {
  const value = document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
  return value.startsWith('%') ? '' : value;
};
const params = new URLSearchParams(location.search);
const gameId = params.get('gameId') || meta('coinop-game-id') || DEMO_GAME_ID;
const arcade = params.get('arcade') || meta('coinop-arcade') || Coinop.Origin.DEV;

/** @typedef {'idle' | 'asking' | 'playing' | 'submitting' | 'unsent'} Phase */
/** @type {Phase} */
let phase = 'idle';
/** @type {import('./slide.js').SlideState | null} */
let run = null;
let playId = '';
/** @type {import('@coinop/game-sdk').GameService} */
let game;

/** @param {string} text */
function say(text) {
  statusLine.textContent = text;
}

/** @param {Phase} next */
function enter(next) {
  phase = next;
  // A run in progress is finished before another starts: a new play would leave it unscored.
  playButton.disabled = next !== 'idle' && next !== 'unsent';
  for (const button of padButtons) button.disabled = next !== 'playing';
  const movesMade = (run?.moves.length ?? 0) > 0;
  finishButton.disabled = !((next === 'playing' && movesMade) || next === 'unsent');
  finishButton.textContent = next === 'unsent' ? 'Submit again' : 'Finish';
  board.classList.toggle('live', next === 'playing');
}

async function startPlay() {
  if (phase === 'asking' || phase === 'submitting') return;
  enter('asking');
  say('Asking the arcade to approve the play…');
  try {
    const reply = await game.play();
    if (!reply.playId) {
      // Rule 2: no playId, no game. The arcade may say why (not signed in, say).
      say(reply.refusal ?? 'The play was not approved, so the game did not start.');
      enter('idle');
      return;
    }
    playId = reply.playId;
    const seed =
      typeof reply.seed === 'string' && SEED_PATTERN.test(reply.seed) ? reply.seed : null;
    run = newGame(seed ?? localSeed());
    showSeed(seed);
    renderRun(run);
    enter('playing');
    board.focus();
    say(
      seed
        ? 'Your run has started. Slide the tiles; press Finish to cash out your score.'
        : 'This arcade sent no seed, so the tiles come from this page and it cannot check ' +
            'the run. Slide the tiles; press Finish to cash out your score.',
    );
  } catch (error) {
    say(`The arcade did not answer the play request (${errorText(error)}).`);
    enter('idle');
  }
}

/** @param {string | null} seed */
function showSeed(seed) {
  seedLine.hidden = false;
  seedLine.textContent = seed
    ? `Tiles from the arcade's seed ${seed.slice(0, 8)}…${seed.slice(-4)}: it re-plays your ` +
      'moves from it to check your score.'
    : 'Tiles from this page: the arcade sent no seed.';
  seedLine.title = seed ?? '';
}

/** A seed of the page's own, for an arcade that sends none (an older one). */
function localSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {import('./slide.js').Direction} direction */
function move(direction) {
  if (phase !== 'playing' || !run) return;
  const next = slide(run, direction);
  if (!next) {
    say(`Nothing slides ${NAMES[direction]}.`);
    return;
  }
  const gained = next.score - run.score;
  run = next;
  renderRun(run);
  enter('playing');
  if (run.over) {
    const points = `${run.score.toLocaleString('en')} points`;
    void submit(
      run.moves.length >= MAX_MOVES
        ? `That was move ${MAX_MOVES.toLocaleString('en')}, a run's last: ${points}.`
        : `No move is left: the run is over with ${points}.`,
    );
    return;
  }
  say(
    gained > 0
      ? `+${gained.toLocaleString('en')}. Score ${run.score.toLocaleString('en')}.`
      : `Score ${run.score.toLocaleString('en')}.`,
  );
}

/**
 * How long the page waits for the arcade's answer to a score before it offers to send it again.
 * A coinop arcade answers a refused score at once (submitScore rejects with the code and why), but
 * an older arcade sends no reply for one (it says why beside the game), so the page must not sit
 * out the client library's two-minute wait with every button off.
 */
const ANSWER_WAIT_MS = 10_000;
let attempts = 0;

/** @param {string} why */
async function submit(why) {
  if (!run || (phase !== 'playing' && phase !== 'unsent')) return;
  const { score } = run;
  const points = `${score.toLocaleString('en')} points`;
  const forPlay = playId;
  const attempt = ++attempts;
  const current = () => playId === forPlay && attempt === attempts;
  enter('submitting');
  say(`${why} Submitting your score and its replay…`);
  const waited = setTimeout(() => {
    if (!current() || phase !== 'submitting') return;
    say(
      `${points}: no answer from the arcade yet. If it refused the score, it says why beside ` +
        'the game; you may submit it again.',
    );
    enter('unsent');
  }, ANSWER_WAIT_MS);
  try {
    await game.submitScore(playId, score, { replay: replayOf(run) });
    // Any attempt the arcade took settles the play, even one the page had stopped waiting for.
    if (playId !== forPlay) return;
    attempts++;
    say(`${points} accepted by the arcade. Press Play for another run.`);
    enter('idle');
    await loadLeaders();
  } catch (error) {
    if (!current()) return;
    say(`${points}, but the arcade did not take the score: ${errorText(error)}.`);
    enter('unsent');
  } finally {
    clearTimeout(waited);
  }
}

async function loadLeaders() {
  try {
    const { leaderboard } = await game.getLeaderboard();
    leadersList.replaceChildren();
    if (!Array.isArray(leaderboard) || leaderboard.length === 0) {
      // A message, not a first place: no rank number before it.
      const empty = item('No scores yet.');
      empty.className = 'empty';
      leadersList.append(empty);
      return;
    }
    for (const leader of leaderboard) {
      const li = item(String(leader.displayName ?? leader.userId ?? 'Player'));
      const score = document.createElement('span');
      score.textContent = Number(leader.score).toLocaleString('en');
      li.append(' ', score);
      leadersList.append(li);
    }
  } catch (error) {
    leadersList.replaceChildren(item(`Leaderboard unavailable (${errorText(error)}).`));
  }
}

/** @param {string} text */
function item(text) {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

/** @param {unknown} error */
function errorText(error) {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String(error.message);
  }
  return String(error);
}

function init() {
  buildBoard(board);
  renderRun(null);
  try {
    game = new Coinop.GameService(gameId, arcade);
    game.init();
  } catch (error) {
    say(`Cannot talk to the arcade at ${arcade}: ${errorText(error)}`);
    return;
  }
  enter('idle');
  say('Ready. Press Play to start.');
  playButton.addEventListener('click', () => void startPlay());
  finishButton.addEventListener('click', () => {
    if (!run) return;
    const moves = run.moves.length;
    void submit(
      phase === 'unsent'
        ? 'Trying again.'
        : `Finished after ${moves.toLocaleString('en')} ${moves === 1 ? 'move' : 'moves'}.`,
    );
  });
  listenForMoves({ board, pad, isActive: () => phase === 'playing', onMove: move });
  // The arcade says which tier the player chose, and again when they pick another: the board
  // shown here is that tier's.
  game.onTierChange(({ tier }) => {
    leadersHeading.textContent = `Leaderboard: ${tier.name}`;
    void loadLeaders();
  });
  void loadLeaders();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
