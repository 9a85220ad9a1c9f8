-- Sign-in service: token signing keys, wallet challenges (EIP-4361 nonces) and CLI login
-- requests (RFC 8628 style). Every sign-in process shares these, so several may run at once.

-- RS256 keys that sign player tokens. One is active (retired_at IS NULL); a retired key stays
-- published in the JWKS until retired_at + max_ttl_seconds (+ a grace), when every token it can
-- have signed has expired.
CREATE TABLE signing_keys (
  kid              text PRIMARY KEY,
  alg              text NOT NULL CHECK (alg = 'RS256'),
  public_jwk       text NOT NULL,
  private_pkcs8    text NOT NULL,
  -- The longest lifetime of any token this key has signed, admin-minted ones included.
  max_ttl_seconds  integer NOT NULL CHECK (max_ttl_seconds > 0),
  created_at       timestamptz NOT NULL,
  retired_at       timestamptz,
  CHECK (retired_at IS NULL OR retired_at >= created_at)
);
-- At most one key signs at a time.
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys ((retired_at IS NULL))
  WHERE retired_at IS NULL;

-- A challenge is the exact message issued for an address; used_at marks its one sign-in.
CREATE TABLE wallet_challenges (
  nonce       text PRIMARY KEY CHECK (nonce ~ '^[A-Za-z0-9]{8,64}$'),
  address     text NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
  message     text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  CHECK (expires_at > created_at),
  CHECK (used_at IS NULL OR used_at < expires_at)
);
CREATE INDEX wallet_challenges_by_expiry ON wallet_challenges (expires_at);

-- A CLI login request: pending until a signed-in player approves or rejects it with the user
-- code; an approved one's token is handed out once (collected).
CREATE TABLE cli_logins (
  requestor_id    uuid PRIMARY KEY,
  description     text NOT NULL CHECK (length(description) BETWEEN 1 AND 200),
  user_code       text NOT NULL CHECK (user_code ~ '^[A-Z]{4}-[A-Z]{4}$'),
  status          text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'collected')),
  player_id       uuid REFERENCES players (id),
  last_polled_at  timestamptz,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  decided_at      timestamptz,
  CHECK (expires_at > created_at),
  CHECK ((status IN ('approved', 'collected')) = (player_id IS NOT NULL)),
  CHECK ((status = 'pending') = (decided_at IS NULL))
);
CREATE INDEX cli_logins_by_expiry ON cli_logins (expires_at);
