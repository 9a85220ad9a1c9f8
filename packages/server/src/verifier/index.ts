export type {
  CurrentVerifier,
  ReplayVerifier,
  SandboxLimits,
  VerifierSources,
  VerifyInput,
  VerifyOutcome,
  VerifyRefusal,
} from './verifier-types.js';
export {
  VERIFIER_MAX_BYTES,
  VERIFIER_STACK_BYTES,
  createReplayVerifier,
  replayOverLimit,
  type ModuleCheck,
  type VerifierCall,
  type VerifierSandbox,
  type VerifierSettings,
} from './replay-verifier.js';
