-- The review queue of accepted scores (issue 30, docs/reference/review-queue.md): a score lands
-- here when the outlier check flags it against its board's history or when a player reports it.
-- Refused attempts (score_refusals, migration 024) are listed beside these rows, not copied.
-- A review is open until the operator or the game's developer approves it (the score stands) or
-- voids it (the score leaves its board); either closes every open review of the score.
CREATE TABLE score_reviews (
  id                 uuid PRIMARY KEY,
  score_id           uuid NOT NULL REFERENCES scores (id),
  play_id            uuid NOT NULL REFERENCES plays (id),
  game_id            uuid NOT NULL REFERENCES games (id),
  leaderboard_id     uuid NOT NULL REFERENCES leaderboards (id),
  -- The player who made the score (not the reporter).
  player_id          uuid NOT NULL REFERENCES players (id),
  kind               text NOT NULL CHECK (kind IN ('outlier', 'reported')),
  reporter_id        uuid REFERENCES players (id),
  report_reason      text CHECK (report_reason IN ('impossible', 'bot', 'bug', 'other')),
  report_note        text CHECK (char_length(report_note) <= 300),
  -- What flagged it: an outlier's statistics ({ n, median, mad, k, threshold, previousBest }).
  evidence           jsonb NOT NULL,
  state              text NOT NULL CHECK (state IN ('open', 'approved', 'voided')),
  resolution_reason  text CHECK (char_length(resolution_reason) BETWEEN 1 AND 500),
  -- Who closed it: 'admin', or 'developer:<developer id>'.
  resolved_by        text CHECK (resolved_by ~ '^(admin|developer:[0-9a-f-]{36})$'),
  resolved_at        timestamptz,
  created_at         timestamptz NOT NULL,
  CHECK ((kind = 'reported') = (reporter_id IS NOT NULL)),
  CHECK ((kind = 'reported') = (report_reason IS NOT NULL)),
  CHECK (kind = 'reported' OR report_note IS NULL),
  CHECK (reporter_id IS DISTINCT FROM player_id),
  CHECK ((state = 'open') = (resolved_at IS NULL)),
  CHECK ((state = 'open') = (resolution_reason IS NULL)),
  CHECK ((state = 'open') = (resolved_by IS NULL)),
  CHECK (resolved_at IS NULL OR resolved_at >= created_at)
);

-- A score is flagged as an outlier once: an approval keeps it from being flagged again.
CREATE UNIQUE INDEX score_reviews_one_outlier ON score_reviews (score_id) WHERE kind = 'outlier';
-- One report per score and reporter: reporting again answers the first report.
CREATE UNIQUE INDEX score_reviews_one_report ON score_reviews (score_id, reporter_id)
  WHERE kind = 'reported';
-- The queue, newest first, all games or one game's (the developer's portal).
CREATE INDEX score_reviews_newest ON score_reviews (created_at DESC, id DESC);
CREATE INDEX score_reviews_of_game ON score_reviews (game_id, created_at DESC, id DESC);
-- Closing a score's open reviews, and a score's other reviews in the evidence.
CREATE INDEX score_reviews_of_score ON score_reviews (score_id);

-- The refused attempts (migration 024) as the queue lists them: every game's, newest first (the
-- by-game index of 024 serves the developer's list), and a player's count on a board.
CREATE INDEX score_refusals_newest ON score_refusals (created_at DESC, id DESC);
CREATE INDEX score_refusals_of_player ON score_refusals (player_id, leaderboard_id);

-- How far the outlier check has looked at each board: the board's write_seq (migration 020) when
-- it last ran. A board whose write_seq has not moved since costs the check nothing; one that has
-- is read only at its top leaders_max bests (the leaders_ranked index), keeping those written
-- after checked_seq. So a score that does not enter the leaders is never read, and the score path
-- writes nothing more than it did.
CREATE TABLE score_outlier_checks (
  leaderboard_id  uuid PRIMARY KEY REFERENCES leaderboards (id),
  checked_seq     bigint NOT NULL CHECK (checked_seq >= 0)
);
-- The boards as they stand now are checked from here on: the bests they hold already were
-- scored before the check existed and are not flagged in a burst at the first run.
INSERT INTO score_outlier_checks (leaderboard_id, checked_seq)
  SELECT id, write_seq FROM leaderboards;
