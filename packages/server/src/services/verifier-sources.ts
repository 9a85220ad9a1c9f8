import type { Db } from '../store/db.js';
import { latestVerifierVersion, verifierSource } from '../store/game-verifiers.js';
import type { ReplayVerifier, VerifierSources } from '../verifier/index.js';
import type { ScoreVerification } from './score-rules-gate.js';

/** The sandbox's read of uploaded modules, from the store: the port verifier/ is given. */
export function storedVerifierSources(db: Db): VerifierSources {
  return {
    async currentVersion(gameId) {
      const latest = await latestVerifierVersion(db, gameId);
      return latest === null || latest.removedAt !== null ? null : latest.version;
    },
    source: (gameId, version) => verifierSource(db, gameId, version),
  };
}

/** The score path's verification (score-rules-gate.ts) over the sandbox and the stored uploads. */
export function sandboxVerification(db: Db, verifier: ReplayVerifier): ScoreVerification {
  return {
    verifier,
    hasVerifier: async (gameId, q = db) => {
      const latest = await latestVerifierVersion(q, gameId);
      return latest !== null && latest.removedAt === null;
    },
  };
}
