// The docs' shell blocks this check does not run, each with why. Keep it short and true: what
// can run on a CI runner (a fresh clone, the embedded database, the dev chain, a throwaway
// Postgres) belongs in manifest-clone.mjs or manifest-operator.mjs instead.

const BENCH =
  'a benchmark: about seven minutes of load, longer than this whole check, and it measures, so ' +
  'it is run by hand on a quiet machine (docs/benchmarks.md)';
const PROFILING =
  'a profiling session on a Postgres with pg_stat_statements loaded, reached through the ' +
  'PGHOST/PGPORT/PGUSER and data directory the text assumes';
const DOCKER = 'needs a Docker daemon, which the CI runner does not have';

const DEVELOPER_VERIFIER =
  "a developer's own game, API key and files (verifier.js, a replay), with optional parts in " +
  'brackets: packages/server/test/cli/developer-verifier.test.ts runs these commands against a ' +
  'running coinop, and packages/server/test/http/developer-verifier.test.ts the upload request';

export const SKIPPED = [
  {
    file: 'docs/operating/cli.md',
    block: 'coinop developer verifier upload',
    skip: DEVELOPER_VERIFIER,
  },
  {
    file: 'docs/reference/verifier.md',
    block: 'coinop developer verifier upload',
    skip: DEVELOPER_VERIFIER,
  },
  { file: 'README.md', block: 'npm run bench', skip: BENCH },
  { file: 'docs/benchmarks.md', block: 'npm run bench', skip: BENCH },
  {
    file: 'docs/benchmarks.md',
    block: 'git clone -b <branch>',
    skip:
      'how the first run was timed: this check does the same (a fresh clone, npm install, ' +
      'npm start); the times are taken by hand on a quiet machine',
  },
  {
    file: 'docs/benchmarks.md',
    block: 'BENCH_STORE=postgres BENCH_SCENARIOS=loop',
    skip: 'an A/B benchmark against another checkout of the reader’s (/path/to/other/checkout)',
  },
  {
    file: 'docs/benchmarks.md',
    block: 'BENCH_PARTS=http',
    skip:
      'a minute of load on Postgres, for a diagnosis: longer than this check can spend, and ' +
      'meaningful only on a quiet machine',
  },
  { file: 'docs/benchmarks.md', block: "psql -c 'CREATE EXTENSION", skip: PROFILING },
  { file: 'docs/benchmarks.md', block: 'BENCH_POSTMASTER_PID=', skip: PROFILING },
  { file: 'docs/benchmarks.md', block: "psql -c 'CREATE DATABASE coinop_two'", skip: PROFILING },
  {
    file: 'docs/concepts/chain.md',
    block: 'coinop serve --chain-rpc-url https://rpc.example.com/v3/KEY',
    skip:
      "a real network's RPC (with the provider's key), vault and block; the same flags run on " +
      'Anvil from docs/operating/chain.md',
  },
  {
    file: 'docs/operating/chain.md',
    block: '0 * * * * coinop admin hst audit',
    skip: 'a crontab line, for cron to run every hour against the production API',
  },
  {
    file: 'docs/operating/chain.md',
    block: 'coinop admin chain resume',
    skip:
      'a synopsis ([optional] flags) for a halted vault; resume is run in ' +
      'packages/server/test/chain/issue-27-resume.test.ts',
  },
  {
    file: 'docs/operating/chain.md',
    block: 'coinop admin chain cover-shortfall',
    skip:
      'needs a shortfall and the top-up transfer that covers it (0xTXHASH:LOG); run in ' +
      'packages/server/test/chain/issue-27-surplus.test.ts',
  },
  {
    file: 'docs/operating/chain.md',
    block: 'coinop admin chain surplus',
    skip:
      'a synopsis ([optional] flags) of what to do with a surplus transfer (0xTXHASH:LOG); run in ' +
      'packages/server/test/chain/issue-27-surplus.test.ts',
  },
  {
    file: 'docs/operating/cli.md',
    block: 'coinop admin developer create --wallet 0x1111',
    skip:
      'the reference of every admin command: synopses with [optional] flags, NAMES to replace ' +
      'and alternatives, not commands to paste; packages/server/test/cli/cli.test.ts runs them',
  },
  { file: 'docs/operating/container.md', block: 'docker build -t coinop .', skip: DOCKER },
  { file: 'docs/operating/container.md', block: 'docker run -d --name coinop', skip: DOCKER },
  {
    file: 'docs/operating/container.md',
    block: "printf 'POSTGRES_PASSWORD=%s",
    skip: `${DOCKER} (and sudo, to give the secrets key to the image's user)`,
  },
  {
    file: 'docs/operating/deploy.md',
    block: 'npm publish',
    skip:
      'publishes to the npm registry, a release step; the tarballs `npm pack` makes of the same ' +
      'workspaces are installed and run by this check',
  },
  {
    file: 'docs/operating/deploy.md',
    block: 'pgbackrest',
    skip: 'needs pgBackRest and a configured stanza on a production Postgres host',
  },
  {
    file: 'examples/README.md',
    block: 'npm run play -w @coinop/example-high-low',
    skip:
      'interactive: the terminal client waits for a person to approve its sign-in in a browser, ' +
      "then to call cards with h or l; the second line needs the reader's own deployment",
  },
];
