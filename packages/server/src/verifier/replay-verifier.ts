import { SandboxPool } from './sandbox-pool.js';
import type {
  CurrentVerifier,
  ReplayVerifier,
  SandboxLimits,
  SandboxResult,
  VerifierSources,
  VerifyInput,
  VerifyOutcome,
} from './verifier-types.js';

/** The operator's limits (flags `--verifier-*`, `--replay-max-bytes`). */
export interface VerifierSettings {
  readonly timeLimitMs: number;
  readonly memoryLimitMb: number;
  /** Worker threads running verifiers (`--verifier-workers`, 1–4). */
  readonly workers: number;
  readonly replayMaxBytes: number;
}

/** QuickJS's stack for one run: recursion a few thousand calls deep, far below the thread's. */
export const VERIFIER_STACK_BYTES = 256 * 1024;
/** The largest module a developer may upload. */
export const VERIFIER_MAX_BYTES = 256 * 1024;
/** Sources kept in memory, by game and version: a version never changes once uploaded. */
const SOURCE_CACHE_MAX = 64;

/** What a verifier is called with, as the guest sees it (the game id stays on the host). */
export type VerifierCall = Omit<VerifyInput, 'gameId'>;

/** A module's load check: `ok`, or what is wrong with it for its developer to read. */
export type ModuleCheck = { readonly ok: true } | { readonly ok: false; readonly detail: string };

/**
 * The replay verifier of the score path and the developer's test bench, over one sandbox pool:
 * `verify` runs a game's current module, `check` any module, `inspect` loads one without
 * running it (an upload's check).
 */
export interface VerifierSandbox extends ReplayVerifier {
  /**
   * Runs `source` on `call` for game `gameId`, whose runs take turns with other games' (runs
   * given no game, a developer's own tests of a verifier, share one turn).
   */
  check(
    source: string,
    call: VerifierCall,
    gameId?: string,
  ): Promise<VerifyOutcome & { computed?: number }>;
  /** Loads `source` for game `gameId` without running it. */
  inspect(source: string, gameId?: string): Promise<ModuleCheck>;
  readonly settings: VerifierSettings;
  close(): Promise<void>;
}

export function createReplayVerifier(options: {
  readonly sources: VerifierSources;
  readonly settings: VerifierSettings;
}): VerifierSandbox {
  const { sources, settings } = options;
  const pool = new SandboxPool(settings.workers);
  const limits: SandboxLimits = {
    timeLimitMs: settings.timeLimitMs,
    memoryLimitBytes: settings.memoryLimitMb * 1024 * 1024,
    stackLimitBytes: VERIFIER_STACK_BYTES,
  };
  const cache = new Map<string, string>();

  async function current(gameId: string): Promise<CurrentVerifier | null> {
    const version = await sources.currentVersion(gameId);
    if (version === null) return null;
    const key = `${gameId}@${version}`;
    let source = cache.get(key);
    if (source === undefined) {
      source = (await sources.source(gameId, version)) ?? undefined;
      if (source === undefined) return null;
      if (cache.size >= SOURCE_CACHE_MAX) cache.delete(cache.keys().next().value ?? key);
      cache.set(key, source);
    }
    return { version, source };
  }

  async function check(source: string, call: VerifierCall, gameId = '') {
    const tooLarge = replayOverLimit(call.replay, settings.replayMaxBytes);
    if (tooLarge !== null)
      return { ok: false as const, reason: 'threw' as const, detail: tooLarge };
    const input = JSON.stringify({
      seed: call.seed,
      replay: call.replay,
      score: call.score,
      leaderboardId: call.leaderboardId,
    });
    return outcomeOf(await pool.run({ op: 'run', source, input, limits }, gameId), call.score);
  }

  return {
    settings,
    check,
    async verify(input) {
      const verifier = await current(input.gameId);
      if (verifier === null) {
        return { ok: false, reason: 'no_verifier', detail: 'the game has no replay verifier' };
      }
      return check(verifier.source, input, input.gameId);
    },
    async inspect(source, gameId = '') {
      const result = await pool.run({ op: 'inspect', source, input: '{}', limits }, gameId);
      if (result.kind === 'valid') return { ok: true };
      if (result.kind === 'failed') return { ok: false, detail: result.detail };
      return { ok: false, detail: 'the module did not load' };
    },
    close: () => pool.close(),
  };
}

/** Why a replay is refused before any verifier runs; null when its size is within the limit. */
export function replayOverLimit(replay: string, maxBytes: number): string | null {
  const bytes = Buffer.byteLength(replay, 'utf8');
  return bytes > maxBytes ? `the replay is ${bytes} bytes, over the limit of ${maxBytes}` : null;
}

/** The rule: a score stands iff its verifier computed exactly it (Object.is). */
function outcomeOf(result: SandboxResult, claimed: number): VerifyOutcome & { computed?: number } {
  switch (result.kind) {
    case 'score':
      return Object.is(result.score, claimed)
        ? { ok: true, computed: result.score }
        : {
            ok: false,
            reason: 'mismatch',
            detail: `the replay earns ${result.score}, not ${claimed}`,
            computed: result.score,
          };
    case 'failed':
      // A stored module that stops loading (it throws at its top level) is the developer's
      // fault like a throw in verify: the score is refused the same way.
      return {
        ok: false,
        reason: result.reason === 'invalid' ? 'threw' : result.reason,
        detail: result.detail,
      };
    case 'valid':
      return { ok: false, reason: 'threw', detail: 'the verifier returned nothing' };
  }
}
