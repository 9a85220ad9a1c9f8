// The server's replay-verifier sandbox (QuickJS in worker threads), for a game's tests of its own
// verifier module: the examples reach the server's modules only through the kit.
export {
  createReplayVerifier,
  type VerifierSandbox,
  type VerifierSources,
} from 'coinop/verifier/index.js';
