import type { FastifyInstance, FastifyReply } from 'fastify';
import { cliLoginScript } from './cli-login-script.js';
import { cliLoginStyle } from './cli-login-style.js';

export { cliLoginScript } from './cli-login-script.js';
export { cliLoginStyle } from './cli-login-style.js';

/** Where the approval page and its assets are served on the sign-in listener. */
export const CLI_LOGIN_PAGE_PATH = '/cli/login';
export const CLI_LOGIN_SCRIPT_PATH = '/assets/cli-login.js';
export const CLI_LOGIN_STYLE_PATH = '/assets/cli-login.css';

/**
 * The page runs only its own script and stylesheet and talks only to this origin, so injected
 * markup (the description is attacker-controlled) can neither run nor send anything away;
 * `frame-ancestors 'none'` stops another site framing the Approve button (clickjacking).
 */
export const CLI_LOGIN_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The approval page of the CLI login flow (spec 4.6), the same for every request: the browser
 * script reads `requestorId` and `code` from the page's own URL and fetches the rest, so nothing
 * from the request is interpolated here.
 */
export function renderCliLoginPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sign in to your game</title>
<link rel="stylesheet" href="${CLI_LOGIN_STYLE_PATH}">
<script src="${CLI_LOGIN_SCRIPT_PATH}" defer></script>
</head>
<body>
<main id="main">
<h1>Sign in to your game</h1>
<p id="status" class="status muted" role="status">Checking the sign-in request…</p>
<div id="alert" class="alert" role="alert"></div>
<section id="request" aria-labelledby="request-heading" hidden>
<h2 id="request-heading">Sign-in request</h2>
<dl>
<dt>Requested by</dt>
<dd id="description"></dd>
<dt id="game-label" hidden>Game</dt>
<dd id="game-name" hidden></dd>
<dt>Code</dt>
<dd id="user-code" class="code"></dd>
</dl>
<p id="code-hint">Check that this code matches the one shown in your game. If it does not, close this page.</p>
</section>
<section id="wallet" aria-labelledby="wallet-heading" hidden>
<h2 id="wallet-heading">Step 1: connect your wallet</h2>
<p class="muted">Your wallet signs a message to prove it is yours. It costs nothing and sends no
transaction.</p>
<button id="connect" type="button">Connect wallet</button>
</section>
<section id="decision" aria-labelledby="decision-heading" hidden>
<h2 id="decision-heading" tabindex="-1">Step 2: approve or reject</h2>
<p id="account" class="muted"></p>
<p>Approve only if you started signing in from your game and the code matches.</p>
<fieldset id="allowance" hidden>
<legend>What <span id="allowance-game"></span> may charge you</legend>
<p class="muted">The game charges HST for each play only within a daily allowance you choose.
You can change or revoke it at any time in the arcade.</p>
<label for="daily-limit">HST a day (leave empty to keep your current allowance)</label>
<input id="daily-limit" name="dailyLimit" inputmode="decimal" autocomplete="off" spellcheck="false">
</fieldset>
<p id="unpublished" class="muted" hidden>This game is not published yet: only its developer and
the testers who accepted their invitation can play it for HST.</p>
<div class="actions">
<button id="approve" type="button">Approve</button>
<button id="reject" type="button" class="secondary">Reject</button>
</div>
</section>
<section id="result" class="result" aria-labelledby="result-heading" hidden>
<h2 id="result-heading" tabindex="-1"></h2>
<p id="result-detail"></p>
</section>
<noscript><p>This page needs JavaScript to talk to your wallet.</p></noscript>
</main>
</body>
</html>
`;
}

/** The web app's approval page for the request the query names; only its id and code pass. */
export function webApprovalPageLocation(pageUrl: string, query: unknown): string {
  const url = new URL(pageUrl);
  const given = (typeof query === 'object' && query !== null ? query : {}) as Record<
    string,
    unknown
  >;
  for (const name of ['requestorId', 'code']) {
    const value = given[name];
    if (typeof value === 'string') url.searchParams.set(name, value);
  }
  return url.href;
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CLI_LOGIN_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin');
}

export interface CliLoginPageOptions {
  /**
   * The web app's approval page (`https://arcade.example/cli-login`), where the player's session
   * and every wallet are, the arcade wallet included: `/cli/login` then sends the player there
   * with the request's id and code. Null serves this listener's own page (extension wallets only),
   * for a sign-in service that runs without the web app.
   */
  readonly webApprovalPageUrl: string | null;
}

/**
 * Serves the approval page and its assets on the sign-in listener: `GET /cli/login`,
 * `GET /assets/cli-login.js`, `GET /assets/cli-login.css`. Register it alongside the CLI routes;
 * the page calls `/cli/{requestorId}/info`, `/wallet/challenge`, `/wallet/verify` and
 * `/cli/{requestorId}/approve|reject` on the same origin. With `webApprovalPageUrl`,
 * `GET /cli/login` redirects there instead.
 */
export async function cliLoginPagePlugin(
  app: FastifyInstance,
  options: CliLoginPageOptions,
): Promise<void> {
  const html = renderCliLoginPage();
  const { webApprovalPageUrl } = options;
  // The page URL carries the user code, so neither it nor its answer may be cached or leaked.
  app.get(CLI_LOGIN_PAGE_PATH, { schema: { hide: true } }, (request, reply) => {
    securityHeaders(reply).header('cache-control', 'no-store');
    if (webApprovalPageUrl !== null) {
      return reply.redirect(webApprovalPageLocation(webApprovalPageUrl, request.query), 303);
    }
    return reply.type('text/html; charset=utf-8').send(html);
  });
  app.get(CLI_LOGIN_SCRIPT_PATH, { schema: { hide: true } }, (_request, reply) =>
    securityHeaders(reply)
      .header('cache-control', 'no-cache')
      .type('text/javascript; charset=utf-8')
      .send(cliLoginScript),
  );
  app.get(CLI_LOGIN_STYLE_PATH, { schema: { hide: true } }, (_request, reply) =>
    securityHeaders(reply)
      .header('cache-control', 'no-cache')
      .type('text/css; charset=utf-8')
      .send(cliLoginStyle),
  );
}
