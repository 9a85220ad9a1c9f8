-- Score integrity (issue 30, docs/concepts/score-integrity.md): a seed per play, the rules a
-- developer declares for a game's scores (each tier may override), and the evidence of every
-- score those rules refused.

-- 32 random bytes the server drew when it opened the play, as 64 lowercase hex characters: the
-- game derives the run's randomness from it, the game's verifier replays the run with it. Null
-- for plays opened before this migration.
ALTER TABLE plays ADD COLUMN seed text CHECK (seed ~ '^[0-9a-f]{64}$');

-- A game's score rules; null is "no rule". The bounds are inclusive; the shortest play is counted
-- from the play's open (server time) to the score's arrival. `replay_required` needs a verifier
-- uploaded for the game (checked by the service: the verifier table is another migration's).
ALTER TABLE games
  ADD COLUMN min_score double precision CHECK (min_score IS NULL OR min_score >= 0),
  ADD COLUMN max_score double precision CHECK (max_score IS NULL OR max_score >= 0),
  ADD COLUMN min_play_ms integer CHECK (min_play_ms IS NULL OR min_play_ms >= 0),
  ADD COLUMN replay_rule text NOT NULL DEFAULT 'off' CHECK (replay_rule IN ('off', 'required')),
  ADD CONSTRAINT games_score_bounds_order
    CHECK (min_score IS NULL OR max_score IS NULL OR min_score <= max_score);

-- A tier's overrides: a null field inherits the game's. `replay_rule` null inherits too, so a
-- tier may require replays of a game that does not, or turn the game's requirement off.
ALTER TABLE leaderboards
  ADD COLUMN min_score double precision CHECK (min_score IS NULL OR min_score >= 0),
  ADD COLUMN max_score double precision CHECK (max_score IS NULL OR max_score >= 0),
  ADD COLUMN min_play_ms integer CHECK (min_play_ms IS NULL OR min_play_ms >= 0),
  ADD COLUMN replay_rule text CHECK (replay_rule IN ('off', 'required')),
  ADD CONSTRAINT leaderboards_score_bounds_order
    CHECK (min_score IS NULL OR max_score IS NULL OR min_score <= max_score);

-- Every score the rules refused, kept as evidence for the review queue: the play stayed open and
-- nothing moved. `reason` is the error code the caller received; `play_ms` the time from the
-- play's open to the attempt.
CREATE TABLE score_refusals (
  id              uuid PRIMARY KEY,
  play_id         uuid NOT NULL REFERENCES plays (id),
  game_id         uuid NOT NULL REFERENCES games (id),
  leaderboard_id  uuid NOT NULL REFERENCES leaderboards (id),
  player_id       uuid NOT NULL REFERENCES players (id),
  score           double precision NOT NULL,
  reason          text NOT NULL
    CHECK (reason IN ('score_out_of_bounds', 'score_too_fast', 'replay_required', 'replay_rejected')),
  detail          text NOT NULL,
  replay          text,
  play_ms         integer NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX score_refusals_by_game ON score_refusals (game_id, created_at DESC);
CREATE INDEX score_refusals_by_play ON score_refusals (play_id);
