-- A game's live tiers have distinct names, compared in lower case without surrounding spaces:
-- players choose a tier by its name, and two "Bronze" tiers cannot be told apart. The portal, the
-- admin API and the demo refuse a taken name with 409 tier_name_taken (store/games.ts); this index
-- is the second check, and decides between two requests that race. Retired tiers and tournament
-- rounds (rows with tournament_id) are not tiers a player chooses, so they do not count.
--
-- An arcade may hold duplicates from before. They are renamed, deterministically: of each set, the
-- first (by position, then creation, then id) keeps its name, and each later one gets " (2)",
-- " (3)", ... after it; where that name is taken too, the last 12 digits of its id instead. The
-- name is cut to fit the 100 characters a tier name may have. Plays, scores and leaders keep the
-- tier's id, so nothing but the name shown changes.
WITH ranked AS (
  SELECT id, game_id, btrim(name) AS name,
         row_number() OVER (PARTITION BY game_id, lower(btrim(name))
                            ORDER BY position, created_at, id) AS n
  FROM leaderboards
  WHERE retired_at IS NULL AND tournament_id IS NULL
)
UPDATE leaderboards l
SET name = CASE
  WHEN EXISTS (
    SELECT 1 FROM leaderboards o
    WHERE o.game_id = r.game_id AND o.retired_at IS NULL AND o.tournament_id IS NULL
      AND lower(btrim(o.name)) = lower(left(r.name, 90) || ' (' || r.n || ')'))
  THEN left(r.name, 84) || ' (' || right(l.id::text, 12) || ')'
  ELSE left(r.name, 90) || ' (' || r.n || ')'
END
FROM ranked r
WHERE l.id = r.id AND r.n > 1;

CREATE UNIQUE INDEX leaderboards_live_name ON leaderboards (game_id, lower(btrim(name)))
  WHERE retired_at IS NULL AND tournament_id IS NULL;
