-- Consent to charges (docs/concepts/consent.md). A game server may charge a player only within
-- what that player agreed to; the statement that opens a play checks it and spends it.

-- An operator's suspension: no new plays; the open ones were voided when it was set.
ALTER TABLE games ADD COLUMN suspended_at timestamptz;

-- Before the operator publishes a game, it may charge only its developer's own wallet and these.
CREATE TABLE game_testers (
  game_id   uuid NOT NULL REFERENCES games (id),
  wallet    text NOT NULL CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
  added_at  timestamptz NOT NULL,
  PRIMARY KEY (game_id, wallet)
);

-- What a player allows a published game to lock for its plays in one UTC day, and what plays of
-- that day have locked. daily_units is the player's own choice (0 once revoked); null leaves the
-- operator's default in force. limit_units is the limit the last spend was checked against (null:
-- unlimited), so a spend that raced another process's past the limit fails the whole statement.
CREATE TABLE allowances (
  player_id    uuid NOT NULL REFERENCES players (id),
  game_id      uuid NOT NULL REFERENCES games (id),
  daily_units  bigint CHECK (daily_units >= 0),
  decided_at   timestamptz,
  day          date NOT NULL,
  spent_units  bigint NOT NULL DEFAULT 0 CHECK (spent_units >= 0),
  limit_units  bigint CHECK (limit_units >= 0),
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (player_id, game_id),
  CONSTRAINT allowance_within_limit CHECK (limit_units IS NULL OR spent_units <= limit_units),
  CHECK ((daily_units IS NULL) = (decided_at IS NULL))
);

-- A play voided by a suspension: its lock was returned to the player, nobody was paid.
ALTER TABLE plays DROP CONSTRAINT plays_status_check;
ALTER TABLE plays ADD CONSTRAINT plays_status_check
  CHECK (status IN ('open', 'scored', 'expired', 'voided'));
