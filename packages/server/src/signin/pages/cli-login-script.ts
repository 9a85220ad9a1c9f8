/**
 * The approval page's browser code, served as /assets/cli-login.js. Plain ES2020 in a string so
 * the server package needs no bundler and no DOM types; it is exercised end to end in headless
 * Chromium (test/signin/cli-login-page.browser.test.ts). Everything from the network or the URL
 * reaches the page through textContent only: the description is chosen by whoever started the
 * request, so it is attacker-controlled.
 */
export const cliLoginScript = String.raw`'use strict';
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var statusLine = byId('status');
  var alertBox = byId('alert');
  var buttons = { connect: byId('connect'), approve: byId('approve'), reject: byId('reject') };

  // Set once the request has been checked; the player token lives only in this closure.
  var requestorId = '';
  var userCode = '';
  var accessToken = '';
  // The game the login names, when its client named one: { id, name, published }.
  var game = null;
  // The allowance the approval granted, as the server wrote it: an exact decimal string of HST
  // (formatHst), shown as it is, never through a number.
  var grantedDailyLimit = null;

  class PageError extends Error {}

  function show(id, visible) { byId(id).hidden = !visible; }
  function say(text) { statusLine.textContent = text; }
  function warn(text) { alertBox.textContent = text; }
  function focusOn(id) { var el = byId(id); el.focus(); }

  function setBusy(busy) {
    Object.keys(buttons).forEach(function (k) { buttons[k].disabled = busy; });
  }

  function shortAddress(address) {
    return address.length > 12 ? address.slice(0, 6) + '\u2026' + address.slice(-4) : address;
  }

  // personal_sign takes the message as hex-encoded UTF-8 (EIP-1193 wallets, MetaMask, viem).
  function utf8ToHex(text) {
    var bytes = new TextEncoder().encode(text);
    var hex = '0x';
    for (var i = 0; i < bytes.length; i++) hex += bytes[i].toString(16).padStart(2, '0');
    return hex;
  }

  async function call(method, path, body, token) {
    var headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = 'Bearer ' + token;
    var res;
    try {
      res = await fetch(path, {
        method: method,
        headers: headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (_e) {
      throw new PageError(
        'Could not reach the sign-in service. Check your connection and try again.');
    }
    var data = null;
    try { data = await res.json(); } catch (_e) { data = null; }
    if (!res.ok) {
      var reason = data && typeof data.message === 'string' ? data.message : 'HTTP ' + res.status;
      var err = new PageError(reason);
      err.status = res.status;
      err.code = data && (data.error || data.code);
      throw err;
    }
    return data;
  }

  function finish(kind) {
    show('request', kind !== 'expired');
    show('code-hint', false);
    show('wallet', false);
    show('decision', false);
    show('result', true);
    var heading = byId('result-heading');
    var detail = byId('result-detail');
    byId('result').className = 'result result-' + kind;
    if (kind === 'approved') {
      heading.textContent = 'Approved \u2014 return to your game';
      detail.textContent = grantedDailyLimit === null
        ? 'Your game is now signed in. You can close this page.'
        : 'Your game is now signed in, and ' + game.name + ' may charge you up to ' +
          grantedDailyLimit + ' HST a day. You can close this page.';
    } else if (kind === 'denied') {
      heading.textContent = 'Request rejected';
      detail.textContent = 'Your game was not signed in. You can close this page.';
    } else {
      heading.textContent = 'Request expired';
      detail.textContent =
        'This sign-in request is no longer valid. Start signing in again from your game.';
    }
    say('');
    focusOn('result-heading');
  }

  async function load() {
    var params = new URLSearchParams(location.search);
    requestorId = params.get('requestorId') || '';
    userCode = params.get('code') || '';
    if (!requestorId || !userCode) {
      say('');
      warn('This link is incomplete. Start signing in again from your game.');
      return;
    }
    var info;
    try {
      info = await call('GET', '/cli/' + encodeURIComponent(requestorId) + '/info?code=' +
        encodeURIComponent(userCode));
    } catch (e) {
      say('');
      warn(e.status === 404
        ? 'This sign-in request was not found, or its code does not match. ' +
          'Start signing in again from your game.'
        : e.message);
      return;
    }
    byId('description').textContent = String(info.description);
    byId('user-code').textContent = String(info.userCode);
    if (info.game) {
      game = info.game;
      byId('game-name').textContent = String(game.name);
      byId('allowance-game').textContent = String(game.name);
      show('game-label', true);
      show('game-name', true);
      show('allowance', game.published === true);
      show('unpublished', game.published !== true);
    }
    if (info.status !== 'pending') return finish(info.status);
    show('request', true);
    show('wallet', true);
    say('');
  }

  async function connect() {
    warn('');
    var provider = window.ethereum;
    if (!provider || typeof provider.request !== 'function') {
      warn('No wallet was found in this browser. Install a wallet extension such as MetaMask, ' +
        'or open this page in your wallet app\u2019s browser, then reload the page.');
      return;
    }
    setBusy(true);
    try {
      say('Waiting for your wallet to share an account\u2026');
      var accounts = await walletCall(provider, 'eth_requestAccounts', [],
        'The wallet did not share an account, so you were not signed in.');
      var address = accounts && accounts[0];
      if (typeof address !== 'string') throw new PageError('The wallet shared no account.');
      say('Preparing the message to sign\u2026');
      var challenge = await call('POST', '/wallet/challenge', { address: address });
      say('Sign the message in your wallet. It proves the wallet is yours and costs nothing.');
      var signature = await walletCall(provider, 'personal_sign',
        [utf8ToHex(challenge.message), address],
        'The signature was refused in your wallet, so you were not signed in.');
      say('Checking the signature\u2026');
      var session = await call('POST', '/wallet/verify',
        { message: challenge.message, signature: signature });
      accessToken = session.access_token;
      byId('account').textContent = 'Signed in with wallet ' + shortAddress(address) + '.';
      byId('account').title = address;
      show('wallet', false);
      show('decision', true);
      say('');
      focusOn('decision-heading');
    } catch (e) {
      say('');
      warn(e.message);
    } finally {
      setBusy(false);
    }
  }

  async function walletCall(provider, method, params, refusedMessage) {
    try {
      return await provider.request({ method: method, params: params });
    } catch (e) {
      // EIP-1193: 4001 is the user saying no; anything else is the wallet failing.
      if (e && e.code === 4001) throw new PageError(refusedMessage);
      throw new PageError('The wallet reported an error: ' + (e && e.message ? e.message : e));
    }
  }

  // The daily limit typed for the game, or null to leave the allowance as it is.
  function typedDailyLimit() {
    if (!game || !game.published) return null;
    var typed = byId('daily-limit').value.trim();
    if (typed === '') return null;
    if (!/^\d+(\.\d{1,8})?$/.test(typed)) {
      throw new PageError('Enter the HST a day as a number such as 20 or 2.5 (at most 8 ' +
        'decimals), or leave it empty.');
    }
    return typed;
  }

  async function decide(action) {
    warn('');
    var body = { userCode: userCode };
    if (action === 'approve') {
      try {
        var dailyLimit = typedDailyLimit();
        if (dailyLimit !== null) body.dailyLimit = dailyLimit;
      } catch (e) {
        warn(e.message);
        byId('daily-limit').focus();
        return;
      }
    }
    setBusy(true);
    say(action === 'approve' ? 'Approving\u2026' : 'Rejecting\u2026');
    try {
      var decided = await call('POST', '/cli/' + encodeURIComponent(requestorId) + '/' + action,
        body, accessToken);
      grantedDailyLimit = decided.grantedDailyLimit;
      finish(action === 'approve' ? 'approved' : 'denied');
    } catch (e) {
      say('');
      if (e.code === 'expired_token' || e.code === 'cli_request_expired') return finish('expired');
      if (e.status === 401) {
        accessToken = '';
        show('decision', false);
        show('wallet', true);
        warn('Your wallet sign-in has expired. Connect your wallet again. (' + e.message + ')');
        return;
      }
      warn(e.message);
    } finally {
      setBusy(false);
    }
  }

  buttons.connect.addEventListener('click', connect);
  buttons.approve.addEventListener('click', function () { decide('approve'); });
  buttons.reject.addEventListener('click', function () { decide('reject'); });
  load().catch(function (e) { say(''); warn(e && e.message ? e.message : String(e)); });
})();
`;
