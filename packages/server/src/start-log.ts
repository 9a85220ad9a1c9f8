import pino, { type DestinationStream, type Logger } from 'pino';
import { isDevelopmentArcade, type Config } from './config.js';
import { logDestination, LOG_REDACT } from './listener/log-destination.js';

/**
 * What `coinop serve` says while it starts, before any listener exists: each step (the database,
 * its migrations, the dev chain, the demo seed) in one line with what it did and how long it
 * took, so a first start that takes a while is never silent. The lines go where the listeners'
 * logs go, in the same format.
 */

/** A step still running after this long says what it is doing, so the wait has a reason. */
const ANNOUNCE_AFTER_MS = 1_000;

export type StartLog = Pick<Logger, 'info' | 'warn'>;

/**
 * The start-up's logger, at the config's level; `quiet` keeps only warnings and errors (a
 * cluster's workers but the first, whose lines would repeat it).
 */
export function createStartLog(
  config: Config,
  destination: DestinationStream | undefined,
  { quiet = false }: { readonly quiet?: boolean } = {},
): Logger {
  const quieter = quiet && !['warn', 'error', 'fatal', 'silent'].includes(config.logLevel);
  return pino(
    {
      level: quieter ? 'warn' : config.logLevel,
      redact: { paths: [...LOG_REDACT], censor: '[redacted]' },
    },
    destination ?? logDestination(config.logFormat),
  );
}

/**
 * Runs one start-up step: `doing` is logged if it is still running after ANNOUNCE_AFTER_MS (at
 * once with `announceNow`, for a step known to be slow, or one that blocks the event loop so no
 * timer could say it), and `done(result)` with the time it took once it ends. JSON lines carry
 * `startStep` (its name) and `durationMs`; readable lines leave them out (log-destination.ts).
 */
export async function startStep<T>(
  log: StartLog,
  name: string,
  doing: string,
  run: () => Promise<T>,
  done: (result: T) => string,
  { announceNow = false }: { readonly announceNow?: boolean } = {},
): Promise<T> {
  const started = performance.now();
  const say = () => log.info({ startStep: name }, `${name}: ${doing}…`);
  if (announceNow) say();
  const announce = announceNow ? undefined : setTimeout(say, ANNOUNCE_AFTER_MS);
  let result: T;
  try {
    result = await run();
  } finally {
    clearTimeout(announce);
  }
  const durationMs = Math.round(performance.now() - started);
  log.info(
    { startStep: name, durationMs },
    `${name}: ${done(result)} (${formatSeconds(durationMs)})`,
  );
  return result;
}

/** 1234 ms → "1.2 s"; under a tenth of a second, "0.0 s" would read as nothing: "< 0.1 s". */
export function formatSeconds(ms: number): string {
  return ms < 100 ? '< 0.1 s' : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The one warning a development arcade logs at start (STYLE: development conveniences say so
 * once): what is on, and that it is for trying coinop, not for real money. Null when none is on.
 */
export function developmentWarning(
  config: Pick<Config, 'demo' | 'devChain' | 'faucetHst' | 'dataDir'>,
  secretsKeyBesideData: boolean,
): string | null {
  if (!isDevelopmentArcade(config)) return null;
  const flags = [
    config.demo ? '--demo' : null,
    config.devChain ? '--dev-chain' : null,
    config.faucetHst > 0 && !config.demo ? '--faucet-hst' : null,
  ].filter((flag) => flag !== null);
  const parts = [
    config.demo ? 'demo players and games' : null,
    config.faucetHst > 0 ? 'a faucet of test HST' : null,
    config.devChain ? "a local test chain on Anvil's accounts, whose keys are public" : null,
    secretsKeyBesideData ? `the secrets key kept beside the database in ${config.dataDir}` : null,
  ].filter((part) => part !== null);
  const docs = config.devChain ? 'docs/operating/dev-chain.md' : 'docs/operating/cli.md';
  return (
    `development mode (${flags.join(' ')}): ${joinWithAnd(parts)}; for trying coinop, never ` +
    `for real money (${docs})`
  );
}

function joinWithAnd(parts: readonly string[]): string {
  if (parts.length <= 2) return parts.join(' and ');
  return `${parts.slice(0, -1).join(', ')}, and ${parts.at(-1)}`;
}
