-- Discovery and fit (issue 31, docs/concepts/discovery.md).

-- The shape the game's frame keeps, as "width:height" in whole numbers (e.g. "16:9"); null: the
-- frame keeps the arcade's default height, as before.
ALTER TABLE games
  ADD COLUMN aspect_ratio text CHECK (aspect_ratio ~ '^[1-9][0-9]{0,2}:[1-9][0-9]{0,2}$');

-- Screenshots a developer uploads for a game's page, checked like an uploaded cover, shown in
-- `position` order and served at GET /catalog/games/{gameId}/screenshots/{id}.
CREATE TABLE game_screenshots (
  id            uuid PRIMARY KEY,
  game_id       uuid NOT NULL REFERENCES games (id),
  position      integer NOT NULL CHECK (position >= 0),
  alt_text      text NOT NULL CHECK (length(alt_text) BETWEEN 1 AND 200),
  content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  bytes         bytea NOT NULL,
  width         integer NOT NULL CHECK (width > 0),
  height        integer NOT NULL CHECK (height > 0),
  etag          text NOT NULL,
  created_at    timestamptz NOT NULL,
  UNIQUE (game_id, position)
);
