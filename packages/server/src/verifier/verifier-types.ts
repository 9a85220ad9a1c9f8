/**
 * The replay verifier's contract (issue 30): what the score path asks and what it is answered.
 * A verifier is a game's own JavaScript module, `export function verify({ seed, replay, score,
 * leaderboardId })`, returning the score the replay earns; it runs in a QuickJS sandbox compiled
 * to WebAssembly (docs/reference/verifier.md).
 */

/** What a score submission hands the verifier of its game. */
export interface VerifyInput {
  readonly gameId: string;
  /** The play's seed: 64 lowercase hex characters drawn by the server at play open. */
  readonly seed: string;
  /** The game's replay, in a format the game chooses (JSON text typically). */
  readonly replay: string;
  /** The score the game claims. */
  readonly score: number;
  readonly leaderboardId: string;
}

/** Why a replay does not earn its score. */
export type VerifyRefusal = 'mismatch' | 'threw' | 'time_limit' | 'memory_limit' | 'no_verifier';

/**
 * `ok`: the verifier computed exactly the claimed score (Object.is). Otherwise `reason` says
 * why not and `detail` says it for a person ("the replay earns 120, not 4200"); `computed` is the
 * score the replay earns, when the verifier computed one.
 */
export type VerifyOutcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: VerifyRefusal;
      readonly detail: string;
      readonly computed?: number;
    };

/** Checks a score's replay with its game's current verifier. */
export interface ReplayVerifier {
  verify(input: VerifyInput): Promise<VerifyOutcome>;
}

/** A game's current verifier: the highest version uploaded. */
export interface CurrentVerifier {
  readonly version: number;
  readonly source: string;
}

/**
 * Where the verifier reads uploaded modules: a port the service wiring passes in, so the sandbox
 * knows no SQL (.dependency-cruiser.mjs, `verifier-reads-through-a-port`).
 */
export interface VerifierSources {
  /** The version of the game's current verifier; null when the game has none. One indexed read. */
  currentVersion(gameId: string): Promise<number | null>;
  /** The source of one version; null when it does not exist. Immutable once written. */
  source(gameId: string, version: number): Promise<string | null>;
}

/** The sandbox's limits, from the operator's flags. */
export interface SandboxLimits {
  /** CPU time one run may take (`--verifier-time-limit-ms`). */
  readonly timeLimitMs: number;
  /** Heap one run may allocate (`--verifier-memory-limit-mb`). */
  readonly memoryLimitBytes: number;
  /** QuickJS's own stack limit; deeper recursion throws a RangeError-like "stack overflow". */
  readonly stackLimitBytes: number;
}

/**
 * What one sandbox run answers: `inspect` checks that a module compiles and exports a function
 * `verify`; `run` calls it.
 */
export type SandboxResult =
  | { readonly kind: 'score'; readonly score: number }
  | { readonly kind: 'valid' }
  | {
      readonly kind: 'failed';
      readonly reason: 'threw' | 'time_limit' | 'memory_limit' | 'invalid';
      readonly detail: string;
    };
