// @ts-check
/* global document, window, Coinop, URLSearchParams, location, devicePixelRatio */
import { ReactionRound } from './reaction.js';

/**
 * The page: Play asks the arcade for a play and starts a round only with its playId (spec 4.10
 * rule 2); the reaction time in milliseconds is the score; the gold theme is provisioned only
 * when the arcade returns a txid (rule 3). A foul submits no score.
 */

const GOLD_THEME_COST_HST = 1;
// The demo arcade accepts any gameId; this is its fixed one (spec 1.4).
const DEMO_GAME_ID = '00000000-0000-4000-8000-000000000000';

const COLOURS = {
  idle: { fill: '#2a3140', text: '#f2f4f8', gold: '#3a2f0c' },
  waiting: { fill: '#b3261e', text: '#ffffff', gold: '#b3261e' },
  ready: { fill: '#1e8e3e', text: '#ffffff', gold: '#1e8e3e' },
  done: { fill: '#1f4fae', text: '#ffffff', gold: '#8a6d1a' },
  foul: { fill: '#b35c00', text: '#ffffff', gold: '#b35c00' },
};

/** @param {string} selector */
const $ = (selector) => {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`missing ${selector}`);
  return element;
};

const pad = /** @type {HTMLCanvasElement} */ ($('#pad'));
const playButton = /** @type {HTMLButtonElement} */ ($('#play'));
const buyButton = /** @type {HTMLButtonElement} */ ($('#buy-gold'));
const statusLine = /** @type {HTMLElement} */ ($('#status'));
const leadersList = /** @type {HTMLOListElement} */ ($('#leaders'));
const leadersHeading = /** @type {HTMLElement} */ ($('#leaders-heading'));

/** @param {string} name */
const meta = (name) => {
  const value = document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
  return value.startsWith('%') ? '' : value;
};
const params = new URLSearchParams(location.search);
const gameId = params.get('gameId') || meta('coinop-game-id') || DEMO_GAME_ID;
const arcade = params.get('arcade') || meta('coinop-arcade') || Coinop.Origin.DEV;

let gold = false;
let busy = false;
/** @type {import('@coinop/game-sdk').GameService} */
let game;

const round = new ReactionRound({ onChange: (state) => onRoundChange(state) });

/** @param {string} text */
function say(text) {
  statusLine.textContent = text;
}

/** @param {string} label */
function draw(label) {
  const { phase } = round.state;
  const ratio = devicePixelRatio || 1;
  const width = Math.max(1, Math.round(pad.clientWidth * ratio));
  const height = Math.max(1, Math.round(pad.clientHeight * ratio));
  if (pad.width !== width || pad.height !== height) {
    pad.width = width;
    pad.height = height;
  }
  const ctx = pad.getContext('2d');
  if (!ctx) return;
  const colours = COLOURS[phase];
  ctx.fillStyle = gold ? colours.gold : colours.fill;
  ctx.fillRect(0, 0, width, height);
  if (gold) {
    ctx.strokeStyle = '#f5c542';
    ctx.lineWidth = 10 * ratio;
    ctx.strokeRect(5 * ratio, 5 * ratio, width - 10 * ratio, height - 10 * ratio);
  }
  ctx.fillStyle = colours.text;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `700 ${Math.round(height / 7)}px system-ui, sans-serif`;
  ctx.fillText(label, width / 2, height / 2);
  pad.setAttribute('aria-label', `Reaction pad: ${label}`);
}

function label() {
  const { phase, reactionMs } = round.state;
  if (phase === 'waiting') return 'Wait for green…';
  if (phase === 'ready') return 'Now!';
  if (phase === 'done') return `${reactionMs} ms`;
  if (phase === 'foul') return 'Too early!';
  return 'Press Play';
}

/** @param {import('./reaction.js').RoundState} state */
function onRoundChange(state) {
  draw(label());
  if (state.phase === 'waiting') say('Wait for green…');
  if (state.phase === 'ready') say('Green! Press now.');
  if (state.phase === 'foul') {
    say(
      'Too early: a foul. No score is submitted and the play is used up. Press Play to try again.',
    );
    finishRound();
  }
  if (state.phase === 'done' && state.playId !== null && state.reactionMs !== null) {
    void submit(state.playId, state.reactionMs);
  }
}

function finishRound() {
  busy = false;
  playButton.disabled = false;
}

async function startPlay() {
  if (busy) return;
  busy = true;
  playButton.disabled = true;
  say('Asking the arcade to approve the play…');
  try {
    const { playId, refusal } = await game.play();
    if (!playId) {
      // Rule 2: no playId, no game. The arcade may say why (not signed in, say).
      say(refusal ?? 'The play was not approved, so the game did not start.');
      round.reset();
      finishRound();
      return;
    }
    pad.focus();
    round.start(playId);
  } catch (error) {
    say(`The arcade did not answer the play request (${errorText(error)}).`);
    finishRound();
  }
}

/**
 * @param {string} playId
 * @param {number} reactionMs
 */
async function submit(playId, reactionMs) {
  say(`${reactionMs} ms! Submitting your score…`);
  try {
    await game.submitScore(playId, reactionMs);
    say(`${reactionMs} ms: score submitted. Press Play for another go.`);
  } catch (error) {
    say(`${reactionMs} ms, but the score was not submitted (${errorText(error)}).`);
  }
  finishRound();
  await loadLeaders();
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
      score.textContent = `${leader.score} ms`;
      li.append(' ', score);
      leadersList.append(li);
    }
  } catch (error) {
    leadersList.replaceChildren(item(`Leaderboard unavailable (${errorText(error)}).`));
  }
}

async function buyGold() {
  if (gold) return;
  buyButton.disabled = true;
  say(`Asking you to pay ${GOLD_THEME_COST_HST} HST for the gold theme…`);
  try {
    const { txid, refusal } = await game.hstTransfer(GOLD_THEME_COST_HST);
    if (txid) {
      // Rule 3: provision only what was paid for.
      gold = true;
      document.body.classList.add('gold');
      buyButton.textContent = 'Gold theme owned';
      say(`Paid (transaction ${txid}). The gold theme is yours.`);
      draw(label());
      return;
    }
    // The arcade may say why (not signed in, say).
    say(refusal ?? 'The payment was not made, so the gold theme was not applied.');
  } catch (error) {
    say(`The arcade did not answer the payment request (${errorText(error)}).`);
  }
  buyButton.disabled = false;
}

/** @param {string} text */
function item(text) {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

/** @param {unknown} error */
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

function press() {
  round.press();
}

function init() {
  draw(label());
  try {
    game = new Coinop.GameService(gameId, arcade);
    game.init();
  } catch (error) {
    say(`Cannot talk to the arcade at ${arcade}: ${errorText(error)}`);
    return;
  }
  playButton.disabled = false;
  buyButton.disabled = false;
  say('Ready. Press Play to start.');
  playButton.addEventListener('click', () => void startPlay());
  buyButton.addEventListener('click', () => void buyGold());
  pad.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    press();
  });
  document.addEventListener('keydown', (event) => {
    const { phase } = round.state;
    if (phase !== 'waiting' && phase !== 'ready') return;
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      press();
    }
  });
  window.addEventListener('resize', () => draw(label()));
  // The arcade says which tier the player chose, and again when they pick another: the board
  // shown here is that tier's. An arcade that does not know the event shows the default tier's.
  game.onTierChange(({ tier }) => {
    leadersHeading.textContent = `Leaderboard: ${tier.name}`;
    void loadLeaders();
  });
  void loadLeaders();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
