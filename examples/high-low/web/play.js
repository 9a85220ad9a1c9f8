// @ts-check
/* global document, window, Coinop, URLSearchParams, location */

/**
 * High-Low's web page, shown in the arcade's game frame. The game server deals and judges every
 * card; this page only relays the player's calls. To know who plays, the page has its server
 * start a sign-in (a CLI login naming this game) and asks the arcade, over the bridge, to have
 * the player approve it: the server then receives the player's game token and opens each play
 * with it, within the allowance the player gave the game. No HST moves without the player's say.
 */

/** How long to keep asking the server for the token once the arcade said "approved". */
const TOKEN_WAIT_MS = 30_000;
const TOKEN_RETRY_MS = 1000;

/** @param {string} selector */
const $ = (selector) => {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`missing ${selector}`);
  return /** @type {HTMLElement} */ (element);
};
/** @param {string} name */
const meta = (name) => {
  const value = document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
  return value.startsWith('%') ? '' : value;
};

const cardView = $('#card');
const streakView = $('#streak');
const cardsLeftView = $('#cards-left');
const tierSelect = /** @type {HTMLSelectElement} */ ($('#tier'));
const signInButton = /** @type {HTMLButtonElement} */ ($('#sign-in'));
const dealButton = /** @type {HTMLButtonElement} */ ($('#deal'));
const higherButton = /** @type {HTMLButtonElement} */ ($('#higher'));
const lowerButton = /** @type {HTMLButtonElement} */ ($('#lower'));
const statusLine = $('#status');
const leadersList = $('#leaders');
const leadersNote = $('#leaders-note');
const leadersHeading = $('#leaders-heading');

const params = new URLSearchParams(location.search);
const gameId = meta('coinop-game-id');
const arcade = params.get('arcade') || meta('coinop-arcade') || Coinop.Origin.DEV;

/** @type {import('@coinop/game-sdk').GameService} */
let game;
/** The player's game token; in memory only, gone with the page. */
let token = /** @type {string | null} */ (null);
/** The game being played, as the server last told it. */
let current = /** @type {any} */ (null);

/** @param {string} text */
function say(text) {
  statusLine.textContent = text;
}

class ServerError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * One JSON call to this game's server.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ServerError(
      response.status,
      String(answer.code ?? response.status),
      String(answer.message ?? response.statusText),
    );
  }
  return answer;
}

/** @param {unknown} error */
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {string} card like "10♥" */
function showCard(card) {
  cardView.textContent = card;
  cardView.classList.toggle('red', /[♥♦]/.test(card));
  cardView.setAttribute('aria-label', `Card showing: ${card}`);
}

/** @param {{ streak: number, cardsLeft: number, card: string }} state */
function showState(state) {
  showCard(state.card);
  streakView.textContent = String(state.streak);
  cardsLeftView.textContent = String(state.cardsLeft);
}

/**
 * In the arcade, its tier picker beside the game chooses (and says what a play costs); this
 * page's picker only shows that choice, so a Deal never charges a tier the arcade does not show.
 */
const inArcade = window.parent !== window;

/** @param {boolean} playing */
function setPlaying(playing) {
  dealButton.hidden = playing;
  higherButton.hidden = !playing;
  lowerButton.hidden = !playing;
  tierSelect.disabled = playing || inArcade;
}

async function signIn() {
  signInButton.disabled = true;
  say('Starting the sign-in…');
  try {
    const login = await call('POST', '/api/logins');
    say(`Approve the sign-in in the arcade (code ${login.userCode}).`);
    const { approved, refusal } = await game.approveLogin(login.requestorId, login.userCode);
    if (!approved) {
      // The arcade may say why (its player is not signed in, say).
      say(refusal ?? 'Not signed in: the sign-in was not approved. Sign in to play.');
      signInButton.disabled = false;
      return;
    }
    say('Approved. Signing in…');
    const deadline = Date.now() + TOKEN_WAIT_MS;
    let answer = await call('POST', `/api/logins/${login.loginId}/token`);
    while (answer.status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, TOKEN_RETRY_MS));
      answer = await call('POST', `/api/logins/${login.loginId}/token`);
    }
    if (answer.status !== 'approved') throw new Error('the sign-in did not complete in time');
    token = answer.token;
    signInButton.hidden = true;
    setPlaying(false);
    say(`Signed in as ${answer.displayName ?? 'you'}. Press Deal to play this tier.`);
  } catch (error) {
    say(`Not signed in: ${errorText(error)}.`);
    signInButton.disabled = false;
  }
}

async function deal() {
  dealButton.disabled = true;
  const tier = tierSelect.selectedOptions[0]?.textContent ?? 'this tier';
  say(`Opening a play on ${tier}…`);
  try {
    current = await call('POST', '/api/games', { leaderboardId: tierSelect.value });
    showState(current);
    setPlaying(true);
    higherButton.focus();
    say(`Play opened. The card is ${current.card}: will the next one be higher or lower?`);
  } catch (error) {
    if (error instanceof ServerError && error.code === 'consent_required') {
      say(
        "High-Low may not charge you yet, or today's allowance is spent. Set what it may " +
          'charge you a day in the arcade (below the game), then press Deal again.',
      );
    } else if (error instanceof ServerError && error.status === 401) {
      token = null;
      signInButton.hidden = false;
      signInButton.disabled = false;
      dealButton.hidden = true;
      say(`Your sign-in has ended (${error.message}). Sign in again to play.`);
    } else {
      say(`No play was opened: ${errorText(error)}.`);
    }
  } finally {
    dealButton.disabled = false;
  }
}

/** @param {'higher' | 'lower'} guess */
async function callCard(guess) {
  if (current === null) return;
  higherButton.disabled = true;
  lowerButton.disabled = true;
  try {
    current = await call('POST', `/api/games/${current.gameId}/guess`, { guess });
    showState(current);
    const verdict =
      current.outcome === 'right' ? 'Right!' : current.outcome === 'push' ? 'A push.' : 'Wrong.';
    if (!current.over) {
      say(`${current.card}: ${verdict} Streak ${current.streak}. Higher or lower?`);
      return;
    }
    const rank = current.score?.isWinner
      ? ` You are number ${current.score.leaderRank} on the board.`
      : '';
    say(`${current.card}: ${verdict} Game over: streak ${current.streak} scored.${rank}`);
    current = null;
    setPlaying(false);
    dealButton.focus();
    await loadLeaders();
  } catch (error) {
    say(`That call did not go through: ${errorText(error)}. Try again.`);
  } finally {
    higherButton.disabled = false;
    lowerButton.disabled = false;
  }
}

/**
 * Says something about the board in place of it ("No scores yet."): a message, not a ranked line
 * of the list, so it has no number before it.
 * @param {string} text
 */
function noteLeaders(text) {
  leadersList.replaceChildren();
  leadersList.hidden = true;
  leadersNote.textContent = text;
  leadersNote.hidden = false;
}

/** @param {string} text */
function item(text) {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

async function loadLeaders() {
  try {
    const { leaderboard } = await game.getLeaderboard();
    if (leaderboard.length === 0) {
      noteLeaders('No scores yet.');
      return;
    }
    leadersList.replaceChildren();
    leadersList.hidden = false;
    leadersNote.hidden = true;
    for (const leader of leaderboard) {
      const li = item(String(leader.displayName ?? leader.userId));
      const score = document.createElement('span');
      score.textContent = `streak ${leader.score}`;
      li.append(' ', score);
      leadersList.append(li);
    }
  } catch (error) {
    noteLeaders(`Leaderboard unavailable (${errorText(error)}).`);
  }
}

async function init() {
  try {
    game = new Coinop.GameService(gameId, arcade);
    game.init();
  } catch (error) {
    say(`Cannot talk to the arcade at ${arcade}: ${errorText(error)}`);
    return;
  }
  try {
    const info = await call('GET', '/api/game');
    tierSelect.replaceChildren(
      ...info.tiers.map((/** @type {{ id: string, name: string, cost: string }} */ tier) => {
        const option = document.createElement('option');
        option.value = tier.id;
        option.textContent = `${tier.name} — ${tier.cost} a play`;
        return option;
      }),
    );
    tierSelect.disabled = inArcade;
    const label = document.querySelector('label[for="tier"]');
    if (inArcade && label) label.textContent = 'Tier (chosen in the arcade, beside the game)';
  } catch (error) {
    say(`The game server did not answer: ${errorText(error)}.`);
    return;
  }
  if (!inArcade) {
    // Opened on its own: there is no arcade around the page to sign the player in.
    signInButton.hidden = true;
    noteLeaders('The leaderboard shows in the arcade.');
    say(
      'Open High-Low from the arcade’s catalog to play it here, or play it in a terminal ' +
        '(below).',
    );
    return;
  }
  // The arcade's tier picker leads: this page follows it, and its board is that tier's.
  game.onTierChange(({ tier }) => {
    if (Array.from(tierSelect.options).some((option) => option.value === tier.id)) {
      tierSelect.value = tier.id;
    }
    leadersHeading.textContent = `Leaderboard: ${tier.name}`;
    void loadLeaders();
  });
  signInButton.disabled = false;
  signInButton.addEventListener('click', () => void signIn());
  dealButton.addEventListener('click', () => void deal());
  higherButton.addEventListener('click', () => void callCard('higher'));
  lowerButton.addEventListener('click', () => void callCard('lower'));
  say('Sign in with your arcade account to play.');
  void loadLeaders();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else void init();
