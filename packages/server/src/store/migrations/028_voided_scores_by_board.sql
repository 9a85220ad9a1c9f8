-- The voided scores of a board by the time of their void (issue 30): a player's history names the
-- void that reversed a held payout of theirs, whose transfers carry the void's time. Only voided
-- scores are indexed, so a score write costs what it did.
CREATE INDEX scores_voided_by_board ON scores (leaderboard_id, voided_at) WHERE voided_at IS NOT NULL;
