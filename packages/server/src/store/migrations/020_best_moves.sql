-- Exactly-once board walks (docs/reference/boards-and-history.md, "A walk as of its first page").
-- write_seq numbers a board's score batches in commit order: every batch already updates its
-- board's row and holds that row lock until it commits, so the counter costs no extra lock.
ALTER TABLE leaderboards ADD COLUMN write_seq bigint NOT NULL DEFAULT 0;
-- The write_seq of the batch that last wrote each best, so a page can keep the bests unchanged
-- since its walk began (seq at most the walk's S0) without reading the moves.
ALTER TABLE leaders ADD COLUMN seq bigint NOT NULL DEFAULT 0;

-- One row per best a batch wrote: where the player stood before it (null for a first best).
-- A walk finds each mover's place as of its first page from the mover's first move after it.
-- Pruned once older than any walk may be (BOARD_WALK_MAX_AGE_MS plus a margin).
CREATE TABLE best_moves (
  leaderboard_id    uuid NOT NULL,
  seq               bigint NOT NULL,
  player_id         uuid NOT NULL,
  from_rank_key     bigint,
  from_achieved_at  timestamptz,
  moved_at          timestamptz NOT NULL,
  PRIMARY KEY (leaderboard_id, seq, player_id),
  CHECK ((from_rank_key IS NULL) = (from_achieved_at IS NULL))
);
-- The pruner's way in: oldest first, a bounded batch at a time.
CREATE INDEX best_moves_by_age ON best_moves (moved_at);

-- Players ranked before a best now, from the count tree (as a board page counts its first row).
-- A page asks it for each mover: a function, because the planner prices each inline count at
-- thousands of rows and would compile a page of movers with JIT (800 ms) to save nothing. STABLE,
-- so it reads with the snapshot of the statement that calls it.
CREATE FUNCTION coinop_players_before(board uuid, key bigint, at timestamptz, player uuid)
RETURNS bigint LANGUAGE plpgsql STABLE COST 200 AS $$
BEGIN
  RETURN (SELECT coalesce(sum(s.n), 0) FROM generate_series(1, 8) AS g(level)
          CROSS JOIN LATERAL (
            SELECT sum(b.players) AS n FROM rank_buckets b
            WHERE b.leaderboard_id = board AND b.level = g.level
              AND b.bucket > (key >> (64 - 8 * g.level))
              AND b.bucket <= ((key >> (64 - 8 * g.level)) | 255::bigint)) s)
       + (SELECT count(*) FROM leaders t
          WHERE t.leaderboard_id = board AND t.rank_key = key
            AND (t.achieved_at, t.player_id) < (at, player));
END $$;
