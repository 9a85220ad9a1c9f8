-- The close of a tournament round voids the round's open plays (docs/concepts/tournaments.md,
-- "Closing"): found by board without reading the board's scored plays.
CREATE INDEX plays_open_by_board ON plays (leaderboard_id) WHERE status = 'open';
