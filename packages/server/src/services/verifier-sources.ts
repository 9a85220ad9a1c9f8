import type { Db } from '../store/db.js';
import { latestVerifierVersion, verifierSource } from '../store/game-verifiers.js';
import type { VerifierSources } from '../verifier/index.js';

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
