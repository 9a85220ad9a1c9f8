-- A player's activity (GET /player/activity, docs/reference/boards-and-history.md) reads each
-- source newest first down an index of its own. Credits to a player's account already have
-- transfers_by_credit_account and withdrawals chain_withdrawals_account.

-- Plays by player, newest first: migration 006 dropped plays_by_player from the play path, and a
-- player's history is the one read that needs it back. One index entry per play.
CREATE INDEX plays_by_player_newest ON plays (player_id, created_at, id);
-- In-game payments by player (written by payments only, never on the play path).
CREATE INDEX game_purchases_by_player ON game_purchases (player_id, created_at, transfer_id);
