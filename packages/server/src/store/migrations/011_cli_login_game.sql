-- A CLI login may name the game it signs in to, so the approval page can show the game and let
-- the player grant it an allowance in the same step (docs/concepts/consent.md).
ALTER TABLE cli_logins ADD COLUMN game_id uuid REFERENCES games (id);
