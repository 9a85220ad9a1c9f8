-- Developer portal: tiers can be retired (no new plays; open plays still settle, leaders stay
-- readable), a tier's name and cost can change (each play keeps the cost it locked), and a game's
-- cover can be uploaded to the arcade instead of hosted elsewhere.
ALTER TABLE leaderboards ADD COLUMN retired_at timestamptz;
CREATE INDEX leaderboards_live_by_game ON leaderboards (game_id, position) WHERE retired_at IS NULL;

-- When a client's secret was last replaced; the secret itself is only ever stored hashed.
ALTER TABLE game_clients ADD COLUMN secret_rotated_at timestamptz;

-- An uploaded cover (1920x1080 PNG or JPEG, checked before it is stored), served at
-- GET /catalog/games/{gameId}/cover. The etag is a digest of the bytes.
CREATE TABLE game_covers (
  game_id       uuid PRIMARY KEY REFERENCES games (id),
  content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  bytes         bytea NOT NULL,
  width         integer NOT NULL CHECK (width > 0),
  height        integer NOT NULL CHECK (height > 0),
  etag          text NOT NULL,
  updated_at    timestamptz NOT NULL
);

-- The developer's stats read a game's plays newest first and count them by status.
CREATE INDEX plays_by_game ON plays (game_id, created_at);
