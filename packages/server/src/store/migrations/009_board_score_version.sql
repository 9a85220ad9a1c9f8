-- Counts the score batches written to each board. An API process may decide a batch from its own
-- copy of a board instead of reading the board first; its write then checks the board is still
-- at the version it copied, and every score write moves the version on (see docs/concepts/
-- plays-and-settlement.md, "Boards kept in memory").
ALTER TABLE leaderboards ADD COLUMN score_version bigint NOT NULL DEFAULT 0;
