-- Client-side play: the arcade web app asks the player's wallet to sign each play, score and
-- in-game payment, and keeps the signature as the record of who approved what.
CREATE TABLE wallet_approvals (
  id          uuid PRIMARY KEY,
  player_id   uuid NOT NULL REFERENCES players (id),
  wallet      text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('play', 'score', 'purchase')),
  -- The play (play, score) or the ledger transfer (purchase) the signature approved.
  subject_id  uuid NOT NULL,
  nonce       text NOT NULL,
  message     text NOT NULL,
  signature   text NOT NULL,
  created_at  timestamptz NOT NULL,
  UNIQUE (player_id, kind, nonce)
);
CREATE INDEX wallet_approvals_by_subject ON wallet_approvals (subject_id);

-- In-game payments (spec 4.10 hstTransfer): which game a player paid, for the developer's stats.
CREATE TABLE game_purchases (
  transfer_id   uuid PRIMARY KEY REFERENCES transfers (id),
  game_id       uuid NOT NULL REFERENCES games (id),
  player_id     uuid NOT NULL REFERENCES players (id),
  amount_units  bigint NOT NULL CHECK (amount_units > 0),
  created_at    timestamptz NOT NULL
);
CREATE INDEX game_purchases_by_game ON game_purchases (game_id, created_at);
