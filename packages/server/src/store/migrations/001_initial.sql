-- coinop schema v1. Money columns are bigint base units (1 HST = 10^8 units); the CHECK
-- constraints repeat the domain's invariants so each rule is checked in two places.

CREATE TABLE server_secrets (
  name        text PRIMARY KEY,
  value       bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  id               uuid PRIMARY KEY,
  kind             text NOT NULL CHECK (kind IN ('player', 'developer', 'arcade', 'escrow', 'mint')),
  debits_pending   bigint NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
  debits_posted    bigint NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
  credits_pending  bigint NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
  credits_posted   bigint NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
  created_at       timestamptz NOT NULL,
  -- Only the mint may spend more than it was credited: it is where HST comes from.
  CONSTRAINT debits_must_not_exceed_credits
    CHECK (kind = 'mint' OR debits_posted + debits_pending <= credits_posted)
);

CREATE TABLE transfers (
  id                 uuid PRIMARY KEY,
  kind               text NOT NULL CHECK (kind IN ('posted', 'pending', 'post_pending', 'void_pending')),
  debit_account_id   uuid NOT NULL REFERENCES accounts (id),
  credit_account_id  uuid NOT NULL REFERENCES accounts (id),
  amount             bigint NOT NULL CHECK (amount > 0 OR kind IN ('post_pending', 'void_pending')),
  pending_id         uuid REFERENCES transfers (id),
  reason             text NOT NULL,
  play_id            uuid,
  created_at         timestamptz NOT NULL,
  CHECK (debit_account_id <> credit_account_id),
  CHECK ((pending_id IS NULL) = (kind IN ('posted', 'pending')))
);
-- A pending transfer is posted or voided at most once.
CREATE UNIQUE INDEX transfers_settle_once ON transfers (pending_id) WHERE pending_id IS NOT NULL;
CREATE INDEX transfers_by_credit_account ON transfers (credit_account_id, created_at, id);
CREATE INDEX transfers_by_debit_account ON transfers (debit_account_id, created_at, id);
CREATE INDEX transfers_by_play ON transfers (play_id) WHERE play_id IS NOT NULL;

CREATE TABLE arcades (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  account_id  uuid NOT NULL REFERENCES accounts (id),
  created_at  timestamptz NOT NULL
);

CREATE TABLE players (
  id          uuid PRIMARY KEY,
  wallet      text UNIQUE,
  name        text NOT NULL,
  avatar_url  text,
  account_id  uuid NOT NULL UNIQUE REFERENCES accounts (id),
  created_at  timestamptz NOT NULL
);

CREATE TABLE developers (
  id          uuid PRIMARY KEY,
  wallet      text NOT NULL UNIQUE,
  account_id  uuid NOT NULL UNIQUE REFERENCES accounts (id),
  created_at  timestamptz NOT NULL
);

CREATE TABLE api_keys (
  prefix        text PRIMARY KEY,
  developer_id  uuid NOT NULL REFERENCES developers (id),
  secret_hash   bytea NOT NULL,
  created_at    timestamptz NOT NULL,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_by_developer ON api_keys (developer_id, created_at);

CREATE TABLE games (
  id              uuid PRIMARY KEY,
  arcade_id       uuid NOT NULL REFERENCES arcades (id),
  developer_id    uuid NOT NULL REFERENCES developers (id),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  description     text NOT NULL,
  category        text NOT NULL DEFAULT '',
  developer_info  text NOT NULL DEFAULT '',
  tag_line        text NOT NULL DEFAULT '',
  url             text NOT NULL DEFAULT '',
  cover_url       text NOT NULL,
  score_display   text NOT NULL CHECK (score_display IN ('NORMAL', 'REVERSE')),
  prod_domain     text,
  published_at    timestamptz,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX games_by_developer ON games (developer_id, created_at);
CREATE INDEX games_published ON games (arcade_id, published_at) WHERE published_at IS NOT NULL;

-- Tiers are immutable once created (name, cost), so the play path may cache them safely.
CREATE TABLE leaderboards (
  id           uuid PRIMARY KEY,
  game_id      uuid NOT NULL REFERENCES games (id),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  cost_units   bigint NOT NULL CHECK (cost_units >= 0),
  leaders_max  integer NOT NULL CHECK (leaders_max BETWEEN 1 AND 100),
  position     integer NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX leaderboards_by_game ON leaderboards (game_id, position);

CREATE TABLE game_clients (
  client_id    text PRIMARY KEY,
  game_id      uuid NOT NULL REFERENCES games (id),
  secret_hash  bytea NOT NULL,
  created_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);
CREATE INDEX game_clients_by_game ON game_clients (game_id);

CREATE TABLE plays (
  id                   uuid PRIMARY KEY,
  arcade_id            uuid NOT NULL,
  game_id              uuid NOT NULL REFERENCES games (id),
  developer_id         uuid NOT NULL,
  leaderboard_id       uuid NOT NULL REFERENCES leaderboards (id),
  player_id            uuid NOT NULL REFERENCES players (id),
  cost_units           bigint NOT NULL CHECK (cost_units >= 0),
  lock_transfer_id     uuid REFERENCES transfers (id),
  -- Player ids of the board's leaders when the play began: they share its payout.
  leader_player_ids    uuid[] NOT NULL,
  status               text NOT NULL CHECK (status IN ('open', 'scored', 'expired')),
  idempotency_key      text,
  request_hash         text,
  expires_at           timestamptz NOT NULL,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  CHECK ((cost_units = 0) = (lock_transfer_id IS NULL))
);
CREATE UNIQUE INDEX plays_idempotency ON plays (game_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX plays_open_by_expiry ON plays (expires_at) WHERE status = 'open';
CREATE INDEX plays_by_player ON plays (player_id, created_at);

CREATE TABLE scores (
  id               uuid PRIMARY KEY,
  play_id          uuid NOT NULL UNIQUE REFERENCES plays (id),
  leaderboard_id   uuid NOT NULL REFERENCES leaderboards (id),
  player_id        uuid NOT NULL REFERENCES players (id),
  score            double precision NOT NULL CHECK (score >= 0 AND score < 'Infinity'),
  leader_rank      integer NOT NULL CHECK (leader_rank >= 1),
  is_winner        boolean NOT NULL,
  idempotency_key  text,
  request_hash     text,
  created_at       timestamptz NOT NULL
);

-- One row per player per board: that player's best score. rank_key orders best-first for either
-- score display; ties go to the earlier achieved_at.
CREATE TABLE leaders (
  leaderboard_id  uuid NOT NULL REFERENCES leaderboards (id),
  player_id       uuid NOT NULL REFERENCES players (id),
  score           double precision NOT NULL,
  rank_key        bigint NOT NULL CHECK (rank_key >= 0),
  score_id        uuid NOT NULL,
  achieved_at     timestamptz NOT NULL,
  PRIMARY KEY (leaderboard_id, player_id)
);
CREATE INDEX leaders_ranked ON leaders (leaderboard_id, rank_key DESC, achieved_at, player_id);

-- Count tree over rank keys: how many players' best keys fall in each bucket at each level.
-- Ranking sums at most 255 sibling buckets per level instead of scanning the board.
CREATE TABLE rank_buckets (
  leaderboard_id  uuid NOT NULL,
  level           smallint NOT NULL CHECK (level BETWEEN 1 AND 8),
  bucket          bigint NOT NULL,
  players         bigint NOT NULL CHECK (players >= 0),
  PRIMARY KEY (leaderboard_id, level, bucket)
);
