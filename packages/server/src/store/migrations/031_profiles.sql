-- Profiles (issue 31, docs/concepts/profiles.md): a name the player chooses, an avatar they upload,
-- and the operator's resets of abusive ones.

-- The chosen name's comparison key (NFKC, lower case), computed by the server. Null while the
-- player has the arcade's default name (from the wallet) or one the operator gave; unique, so two
-- players racing for one name cannot both win it.
ALTER TABLE players ADD COLUMN name_key text CHECK (name_key IS NULL OR length(name_key) > 0);
CREATE UNIQUE INDEX players_name_key ON players (name_key) WHERE name_key IS NOT NULL;
-- A chosen name may not repeat a name the operator gave (demo players): compared in lower case.
CREATE INDEX players_lower_name ON players (lower(name));

-- An uploaded avatar (a PNG, JPEG or WebP, checked before it is stored), served at
-- GET /catalog/players/{playerId}/avatar; the player's avatar_url points there.
CREATE TABLE player_avatars (
  player_id     uuid PRIMARY KEY REFERENCES players (id),
  content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  bytes         bytea NOT NULL,
  width         integer NOT NULL CHECK (width > 0),
  height        integer NOT NULL CHECK (height > 0),
  etag          text NOT NULL,
  updated_at    timestamptz NOT NULL
);

-- The operator's resets: what the name was, whether an avatar went, and why. Kept for good.
CREATE TABLE player_profile_resets (
  id               uuid PRIMARY KEY,
  player_id        uuid NOT NULL REFERENCES players (id),
  previous_name    text NOT NULL,
  removed_avatar   boolean NOT NULL,
  reason           text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  reset_at         timestamptz NOT NULL
);
CREATE INDEX player_profile_resets_by_player ON player_profile_resets (player_id, reset_at);

-- The public player page finds a player's prizes without reading every round's results.
CREATE INDEX tournament_results_by_player ON tournament_results (player_id);
