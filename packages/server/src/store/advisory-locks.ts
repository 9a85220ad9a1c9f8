/**
 * Every Postgres advisory lock id coinop takes, in one place so that no two uses share one by
 * accident (two did: the demo seed waited on signing-key creation). Any fixed numbers will do.
 */
export const AdvisoryLocks = {
  /** Serialises migrations when several processes start at once. */
  migrations: 7_311_004,
  /** The installation's one arcade record is created once. */
  arcade: 7_311_005,
  /** Signing-key creation and rotation. */
  signingKeys: 7_311_006,
  /** The demo seed of `serve --demo`. */
  demoSeed: 7_311_007,
  /** Sealing plain-text secrets of an older database at start. */
  sealedSecrets: 7_311_008,
  /** A chain vault's checkpoint and ledger account are made once. */
  chainCheckpoints: 7_311_009,
  /**
   * A tournament round's close: the two-key form (this id, a hash of the round id), so each round
   * has its own lock and none shares one with the one-key locks above.
   */
  tournamentRoundClose: 7_311_010,
} as const;
