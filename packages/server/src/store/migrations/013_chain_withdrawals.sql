-- HST withdrawn from the arcade's vault to a wallet (docs/concepts/chain.md). A withdrawal
-- reserves its amount with a pending transfer (its id is the withdrawal's), is paid by the
-- operator's key in a batched withdrawBatch transaction, and its reservation is posted once the
-- vault paid it or voided if the vault refused it for good.

-- The withdrawal sender's lease, beside the deposit watcher's: one process sends.
ALTER TABLE chain_checkpoints ADD COLUMN sender_leader_id text;
ALTER TABLE chain_checkpoints ADD COLUMN sender_lease_expires_at timestamptz;

-- One row per withdrawalBatch transaction, recorded with its nonce, hash and signed bytes BEFORE
-- it is broadcast, so a restart finds it and asks the chain what became of it.
CREATE TABLE chain_withdrawal_batches (
  id                   uuid PRIMARY KEY,
  chain_id             bigint NOT NULL,
  vault_address        text NOT NULL,
  from_address         text NOT NULL CHECK (from_address ~ '^0x[0-9a-f]{40}$'),
  nonce                bigint NOT NULL CHECK (nonce >= 0),
  tx_hash              text NOT NULL UNIQUE CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  -- The signed transaction, to broadcast again (same hash) if it never reached the chain.
  raw_tx               text NOT NULL CHECK (raw_tx ~ '^0x[0-9a-f]+$'),
  -- sent: waiting for its receipt and confirmations; confirmed: mined and succeeded, its
  -- withdrawals posted; reverted: mined and reverted; dropped: never mined (its nonce went to
  -- another transaction). The last two put their unpaid withdrawals back in the queue.
  status               text NOT NULL CHECK (status IN ('sent', 'confirmed', 'reverted', 'dropped')),
  block_number         bigint,
  created_at           timestamptz NOT NULL,
  settled_at           timestamptz,
  FOREIGN KEY (chain_id, vault_address) REFERENCES chain_checkpoints (chain_id, vault_address),
  CHECK ((status = 'sent') = (settled_at IS NULL))
);
CREATE INDEX chain_withdrawal_batches_sent ON chain_withdrawal_batches (nonce) WHERE status = 'sent';

CREATE TABLE chain_withdrawals (
  -- The contract's bytes16 id and the reserving (pending) transfer's id.
  id                   uuid PRIMARY KEY,
  chain_id             bigint NOT NULL,
  vault_address        text NOT NULL,
  account_id           uuid NOT NULL,
  to_address           text NOT NULL
    CHECK (to_address ~ '^0x[0-9a-f]{40}$' AND to_address <> '0x0000000000000000000000000000000000000000'),
  amount_units         bigint NOT NULL CHECK (amount_units > 0),
  -- queued: reserved, waiting to be sent; sent: in batch_id's transaction; paid: the vault paid
  -- it and the reservation is posted; failed: refused for good and the reservation voided.
  status               text NOT NULL CHECK (status IN ('queued', 'sent', 'paid', 'failed')),
  batch_id             uuid REFERENCES chain_withdrawal_batches (id),
  tx_hash              text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  attempts             integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error           text,
  idempotency_key      text,
  requested_at         timestamptz NOT NULL,
  sent_at              timestamptz,
  settled_at           timestamptz,
  updated_at           timestamptz NOT NULL,
  FOREIGN KEY (chain_id, vault_address) REFERENCES chain_checkpoints (chain_id, vault_address),
  CHECK ((status = 'sent') <= (batch_id IS NOT NULL)),
  CHECK ((status IN ('paid', 'failed')) = (settled_at IS NOT NULL))
);
CREATE UNIQUE INDEX chain_withdrawals_idempotency
  ON chain_withdrawals (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX chain_withdrawals_queue ON chain_withdrawals (requested_at, id) WHERE status = 'queued';
CREATE INDEX chain_withdrawals_account ON chain_withdrawals (account_id, requested_at DESC, id DESC);
CREATE INDEX chain_withdrawals_batch ON chain_withdrawals (batch_id) WHERE batch_id IS NOT NULL;
