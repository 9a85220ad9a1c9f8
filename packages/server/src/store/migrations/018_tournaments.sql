-- Tournaments and seasons (docs/concepts/tournaments.md). A round is a board: a leaderboards row
-- whose id is the round's id (and its pool account's id), marked with its tournament so the
-- game's tier lists leave it out.

ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check
  CHECK (kind IN ('player', 'developer', 'arcade', 'escrow', 'mint', 'vault', 'pool'));

CREATE TABLE tournaments (
  id                 uuid PRIMARY KEY,
  game_id            uuid NOT NULL REFERENCES games (id),
  name               text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  entry_fee_units    bigint NOT NULL CHECK (entry_fee_units >= 0),
  guarantee_units    bigint NOT NULL DEFAULT 0 CHECK (guarantee_units >= 0),
  -- Who funds each round's guarantee: the developer's account, or the arcade's for an
  -- operator's tournament.
  funder_account_id  uuid NOT NULL REFERENCES accounts (id),
  created_by         text NOT NULL CHECK (created_by IN ('developer', 'operator')),
  payout_table       jsonb NOT NULL,
  max_entrants       integer CHECK (max_entrants >= 1),
  max_attempts       integer CHECK (max_attempts >= 1),
  starts_at          timestamptz NOT NULL,
  duration_seconds   integer NOT NULL CHECK (duration_seconds BETWEEN 60 AND 31622400),
  -- Five-field cron of the rounds' starts, UTC; null for a single round.
  recurrence         text CHECK (length(recurrence) BETWEEN 1 AND 200),
  -- No round after the current one (stopped by its creator, or a single round that closed).
  stopped_at         timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
CREATE INDEX tournaments_by_game ON tournaments (game_id, starts_at);

ALTER TABLE leaderboards ADD COLUMN tournament_id uuid REFERENCES tournaments (id);

CREATE TABLE tournament_rounds (
  -- The round's board, and the id of its pool account.
  id               uuid PRIMARY KEY REFERENCES leaderboards (id),
  tournament_id    uuid NOT NULL REFERENCES tournaments (id),
  number           integer NOT NULL CHECK (number >= 1),
  starts_at        timestamptz NOT NULL,
  ends_at          timestamptz NOT NULL,
  status           text NOT NULL CHECK (status IN ('open', 'closed')),
  entrants         integer NOT NULL DEFAULT 0 CHECK (entrants >= 0),
  -- The guarantee moved into the pool when the round opened (0 when not funded).
  guarantee_units  bigint NOT NULL DEFAULT 0 CHECK (guarantee_units >= 0),
  guarantee_funded boolean NOT NULL,
  -- Set by the close: the pool paid out and when.
  pool_units       bigint CHECK (pool_units >= 0),
  closed_at        timestamptz,
  created_at       timestamptz NOT NULL,
  CHECK (ends_at > starts_at),
  CHECK ((status = 'closed') = (closed_at IS NOT NULL)),
  UNIQUE (tournament_id, number)
);
-- The closer's query: open rounds by end.
CREATE INDEX tournament_rounds_due ON tournament_rounds (ends_at) WHERE status = 'open';

-- A player's entry into a round: created by their first play on it, counting every play.
CREATE TABLE tournament_entries (
  round_id    uuid NOT NULL REFERENCES tournament_rounds (id),
  player_id   uuid NOT NULL REFERENCES players (id),
  attempts    integer NOT NULL CHECK (attempts >= 1),
  entered_at  timestamptz NOT NULL,
  PRIMARY KEY (round_id, player_id)
);

-- The paid places of a closed round. The full standings stay on the round's board.
CREATE TABLE tournament_results (
  round_id     uuid NOT NULL REFERENCES tournament_rounds (id),
  place        integer NOT NULL CHECK (place >= 1),
  player_id    uuid NOT NULL REFERENCES players (id),
  score        double precision NOT NULL,
  prize_units  bigint NOT NULL CHECK (prize_units > 0),
  -- Unique: a prize is one transfer; a player's history finds its place by it.
  transfer_id  uuid NOT NULL UNIQUE,
  PRIMARY KEY (round_id, place)
);
