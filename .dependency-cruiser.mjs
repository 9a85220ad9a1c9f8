// The architecture, as rules: `npm run lint:deps` (part of `npm run check`, so of `npm test`)
// fails on an import that breaks one. The README's layout table says the same in words; change
// both together. Rule names are what a failure prints, and each comment says why the rule holds.

const SERVER = '^packages/server/src/';

/**
 * The layers of packages/server/src, top to bottom. A file imports only from the layers below
 * its own (and from its own layer's folder); nothing imports upward. The core and the protocol
 * sit under the store, as packages with their own rules further down.
 */
const serverLayers = [
  {
    name: 'cli',
    path: `${SERVER}cli/`,
    why: 'the `coinop` command starts everything and nothing starts it',
  },
  {
    name: 'composition-root',
    // Every file at the root of src/ not named in a layer below: main, app, start-*, ...
    path: `${SERVER}[^/]+\\.ts$`,
    pathNot: `${SERVER}(config[^/]*|deps|data-dir-files)\\.ts$`,
    why: 'main/app/start-* wire the listeners together; a part that imports them is wired twice',
  },
  {
    name: 'web',
    path: `${SERVER}web/`,
    why: 'the web listener serves the built app and forwards to the API, whose limits it reads',
  },
  {
    name: 'http',
    path: `${SERVER}http/`,
    why: 'the API routes parse and shape; what they call lives below them',
  },
  {
    name: 'signin',
    path: `${SERVER}signin/`,
    why: 'the sign-in listener is its own service; the API may check what it issues, not the reverse',
  },
  {
    name: 'services',
    path: `${SERVER}(services/|deps\\.ts$)`,
    why: 'use cases run the core and the store for every listener, so they know no route',
  },
  {
    name: 'verifier',
    path: `${SERVER}verifier/`,
    why: 'the replay sandbox runs what the score path and the developer routes hand it',
  },
  {
    name: 'dev-chain',
    path: `${SERVER}dev-chain/`,
    why: 'the local chain of --dev-chain funds the demo through the chain code, never the reverse',
  },
  {
    name: 'chain',
    path: `${SERVER}chain/`,
    why: 'the watcher and the sender move HST on the chain; the use cases above drive them',
  },
  {
    name: 'credentials',
    path: `${SERVER}credentials/`,
    why: 'tokens, keys and secrets are issued and checked in one place every listener uses',
  },
  {
    name: 'listener',
    path: `${SERVER}listener/`,
    why: 'what every listener is built from knows no route, use case or credential',
  },
  {
    name: 'config-and-metrics',
    path: `${SERVER}(metrics/|config[^/]*\\.ts$|config/|data-dir-files\\.ts$)`,
    why: 'settings and counters are read by every layer above and read nothing but the store',
  },
  {
    name: 'store',
    path: `${SERVER}store/`,
    why: 'the store applies what the layers above decided; it knows none of them',
  },
];

/** One rule per layer: nothing in it imports a layer above it. */
const layerRules = serverLayers.slice(1).map((layer, index) => {
  const above = serverLayers.slice(0, index + 1);
  return {
    name: `layer-${layer.name}`,
    comment: `${layer.name} imports only the layers below it: ${layer.why}.`,
    severity: 'error',
    from: { path: layer.path, ...(layer.pathNot ? { pathNot: layer.pathNot } : {}) },
    to: {
      path: above.map((upper) => `(${upper.path})`).join('|'),
      ...(above.some((upper) => upper.pathNot)
        ? { pathNot: above.flatMap((upper) => upper.pathNot ?? []).join('|') }
        : {}),
    },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...layerRules,
    {
      name: 'routes-never-import-the-store',
      comment:
        'A route parses, calls a service and shapes the reply; reads and writes go through services/.',
      severity: 'error',
      from: { path: `${SERVER}(http/|web/|signin/[^/]*-routes\\.ts$|signin/pages/)` },
      to: { path: `${SERVER}store/` },
    },
    {
      name: 'verifier-reads-through-a-port',
      comment:
        'The replay sandbox runs untrusted code: it imports nothing of the server, and reads uploaded verifiers through the VerifierSources port services/ passes in, so no query, secret or credential sits beside the guest.',
      severity: 'error',
      from: { path: `${SERVER}verifier/` },
      to: { path: SERVER, pathNot: `${SERVER}verifier/` },
    },
    {
      name: 'store-never-creates-or-hashes-secrets',
      comment:
        'credentials/ makes and hashes secrets and hands the store what to keep; the store may hash only non-secrets (migrate.ts: the migrations checksum) and draw non-secret randomness (score-batch.ts: a board version).',
      severity: 'error',
      from: { path: `${SERVER}store/`, pathNot: `${SERVER}store/(migrate|score-batch)\\.ts$` },
      to: { dependencyTypes: ['core'], path: '^(node:)?crypto$' },
    },
    {
      name: 'core-is-pure',
      comment:
        'The domain decides and does no I/O: it imports only the protocol and croner (cron arithmetic), no node built-in, HTTP, SQL or crypto library.',
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: { pathNot: '^(packages/core/src/|packages/protocol/src/|node_modules/croner/)' },
    },
    {
      name: 'protocol-imports-nothing',
      comment:
        'Every side (server, web, SDKs, games) shares the wire contract, so it depends on nothing.',
      severity: 'error',
      from: { path: '^packages/protocol/src/' },
      to: { pathNot: '^packages/protocol/src/' },
    },
    {
      name: 'web-uses-protocol-only',
      comment:
        'The browser app talks to the server over the wire: of our packages it imports the protocol and the contracts (the ABIs a wallet calls), never the core or the server.',
      severity: 'error',
      from: { path: '^apps/web/src/' },
      to: { path: '^(packages|examples)/', pathNot: '^packages/(protocol|contracts)/' },
    },
    {
      name: 'no-circular',
      comment:
        'A circle has no bottom to read or test first; split out what both ends need instead.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'imports-resolve',
      comment:
        'An import the tool cannot resolve is one it cannot check, so every rule above would pass it.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports couple layers as much as value imports do.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|web-dist)/' },
    // Workspace packages resolve to their sources (the `source` export condition), as in tests;
    // a relative `./x.js` finds `./x.ts` as TypeScript's NodeNext resolution does.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
