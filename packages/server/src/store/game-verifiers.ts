import type { Queryable } from './db.js';

/**
 * Replay verifiers as stored (migration 025): every version a developer uploaded, newest
 * current. Rows never change but for a removal mark on the current version.
 */

/** One uploaded version, without its source (what lists and answers show). */
export interface VerifierVersionRecord {
  readonly gameId: string;
  readonly version: number;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly uploadedAt: Date;
  readonly uploadedBy: string;
  readonly removedAt: Date | null;
}

interface VersionRow {
  game_id: string;
  version: number;
  sha256: string;
  size_bytes: number;
  uploaded_at: Date;
  uploaded_by: string;
  removed_at: Date | null;
}

const VERSION_COLUMNS =
  'game_id, version, sha256, size_bytes, uploaded_at, uploaded_by, removed_at';

const toVersion = (r: VersionRow): VerifierVersionRecord => ({
  gameId: r.game_id,
  version: Number(r.version),
  sha256: r.sha256,
  sizeBytes: Number(r.size_bytes),
  uploadedAt: r.uploaded_at,
  uploadedBy: r.uploaded_by,
  removedAt: r.removed_at,
});

/**
 * The game's highest version, removed or not; null when nothing was ever uploaded. The score
 * path's read (one index probe on the primary key).
 */
export async function latestVerifierVersion(
  q: Queryable,
  gameId: string,
): Promise<VerifierVersionRecord | null> {
  const rows = await q.query<VersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM game_verifiers WHERE game_id = $1
     ORDER BY version DESC LIMIT 1`,
    [gameId],
    'latest-verifier-version',
  );
  return rows[0] ? toVersion(rows[0]) : null;
}

/** The current verifier version of each of the games that has one (its latest, not removed). */
export async function currentVerifierVersions(
  q: Queryable,
  gameIds: readonly string[],
): Promise<Map<string, number>> {
  if (gameIds.length === 0) return new Map();
  const rows = await q.query<{ game_id: string; version: number; removed_at: Date | null }>(
    `SELECT DISTINCT ON (game_id) game_id, version, removed_at FROM game_verifiers
     WHERE game_id = ANY($1::uuid[]) ORDER BY game_id, version DESC`,
    [gameIds],
  );
  return new Map(rows.filter((r) => r.removed_at === null).map((r) => [r.game_id, r.version]));
}

/** One version's source; null when it does not exist. */
export async function verifierSource(
  q: Queryable,
  gameId: string,
  version: number,
): Promise<string | null> {
  const rows = await q.query<{ source: string }>(
    'SELECT source FROM game_verifiers WHERE game_id = $1 AND version = $2',
    [gameId, version],
  );
  return rows[0]?.source ?? null;
}

/**
 * Stores the next version of the game's verifier. Call inside a transaction holding the game's
 * row lock (lockGameRow), so two uploads at once get versions n+1 and n+2.
 */
export async function insertVerifierVersion(
  q: Queryable,
  input: {
    gameId: string;
    source: string;
    sha256: string;
    sizeBytes: number;
    uploadedAt: Date;
    uploadedBy: string;
  },
): Promise<VerifierVersionRecord> {
  const rows = await q.query<VersionRow>(
    `INSERT INTO game_verifiers (game_id, version, source, sha256, size_bytes, uploaded_at, uploaded_by)
     SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, $5, $6
       FROM game_verifiers WHERE game_id = $1
     RETURNING ${VERSION_COLUMNS}`,
    [input.gameId, input.source, input.sha256, input.sizeBytes, input.uploadedAt, input.uploadedBy],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT … RETURNING returned no row');
  return toVersion(row);
}

/** Marks the game's current version removed; the record of what was removed, or null if none. */
export async function markVerifierRemoved(
  q: Queryable,
  input: { gameId: string; removedAt: Date; removedBy: string },
): Promise<VerifierVersionRecord | null> {
  const rows = await q.query<VersionRow>(
    `UPDATE game_verifiers SET removed_at = $2, removed_by = $3
      WHERE game_id = $1 AND removed_at IS NULL
        AND version = (SELECT MAX(version) FROM game_verifiers WHERE game_id = $1)
     RETURNING ${VERSION_COLUMNS}`,
    [input.gameId, input.removedAt, input.removedBy],
  );
  return rows[0] ? toVersion(rows[0]) : null;
}

/**
 * Whether the game's rules require a replay with its scores: the game's own rule (a new tier
 * inherits it) or a live tier's (migration 024's `replay_rule`, null inheriting the game's).
 */
export async function gameRequiresReplays(q: Queryable, gameId: string): Promise<boolean> {
  const rows = await q.query<{ required: boolean }>(
    `SELECT g.replay_rule = 'required' OR EXISTS (
              SELECT 1 FROM leaderboards l
               WHERE l.game_id = g.id AND l.retired_at IS NULL
                 AND COALESCE(l.replay_rule, g.replay_rule) = 'required') AS required
       FROM games g WHERE g.id = $1`,
    [gameId],
  );
  return rows[0]?.required === true;
}
