/**
 * The one block `coinop serve` logs once everything listens: where the arcade is, where its API
 * and docs are, where the admin token is kept (never the token), and what development
 * conveniences are on. JSON logs carry the same facts as fields (`urls`, `adminTokenFile`, …).
 */

export interface StartFacts {
  /** Each listener's URL by name (`api`, `auth`, `web`), and `metrics` when it runs here. */
  readonly urls: Readonly<Record<string, string>>;
  /** Where the admin token is, and whether it was generated on this start; null without the API. */
  readonly adminToken: { readonly file: string | null; readonly generated: boolean } | null;
  /** The demo arcade's client file (id and secret), when --demo is on. */
  readonly demoClientFile: string | null;
  readonly demo: boolean;
  /** The dev chain's RPC URL and chain id, when --dev-chain is on. */
  readonly devChain: { readonly rpcUrl: string; readonly chainId: number } | null;
  readonly workers: number;
  /** Games served beside this process (`--banner-game`: npm start's examples). */
  readonly games: readonly { readonly name: string; readonly url: string }[];
}

export function startBanner(facts: StartFacts): {
  message: string;
  fields: Record<string, unknown>;
} {
  const rows: [string, string][] = [];
  const { urls } = facts;
  if (urls['web']) rows.push(['arcade', `${urls['web']}  (the web app: start here)`]);
  const consoleUrl = operatorConsoleUrl(urls);
  if (consoleUrl)
    rows.push(['operator', `${consoleUrl}  (the operator console: paste the admin token)`]);
  if (urls['api']) rows.push(['API', `${urls['api']}  (docs ${urls['api']}/docs)`]);
  if (urls['auth']) rows.push(['sign-in', urls['auth']]);
  if (urls['metrics']) rows.push(['metrics', urls['metrics']]);
  facts.games.forEach((game, i) =>
    rows.push([i === 0 ? 'games' : '', `${game.url}  (${game.name})`]),
  );
  if (facts.adminToken) {
    rows.push([
      'admin token',
      facts.adminToken.file === null
        ? 'given by --admin-token (COINOP_ADMIN_TOKEN)'
        : `${facts.adminToken.generated ? 'generated now, ' : ''}in ${facts.adminToken.file}`,
    ]);
  }
  if (facts.demo) {
    rows.push([
      'demo',
      facts.demoClientFile === null
        ? 'on: a demo developer, games and funded players'
        : `on; the demo game's client id and secret are in ${facts.demoClientFile}`,
    ]);
  }
  if (facts.devChain) {
    rows.push([
      'dev chain',
      `${facts.devChain.rpcUrl} (chain ${facts.devChain.chainId}, test only)`,
    ]);
  }
  if (facts.workers > 1) rows.push(['workers', String(facts.workers)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const message = [
    'coinop is ready',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ].join('\n');
  return {
    message,
    fields: {
      urls: {
        ...urls,
        ...(urls['api'] ? { docs: `${urls['api']}/docs` } : {}),
        ...(consoleUrl ? { console: consoleUrl } : {}),
      },
      adminTokenFile: facts.adminToken?.file ?? null,
      demoClientFile: facts.demoClientFile,
      devChain: facts.devChain,
      games: facts.games,
    },
  };
}

/**
 * The operator console (`/admin` in the web app), when this process serves it: it reaches the
 * admin API through the web listener's `/api`, which forwards only to an API in the same process.
 */
function operatorConsoleUrl(urls: Readonly<Record<string, string>>): string | null {
  const web = urls['web'];
  return web && urls['api'] ? `${web.replace(/\/$/, '')}/admin` : null;
}
