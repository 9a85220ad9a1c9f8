-- HST deposited into the arcade's vault contract on an EVM chain (docs/concepts/chain.md). The
-- chain watcher reads the vault's Deposited events once they are confirmed and credits each
-- exactly once: the key of a deposit is where its event is on chain, and the transfer that
-- credits it has an id derived from that key.

-- A vault account stands for the HST one vault holds: a deposit moves HST from it to a player's
-- or developer's account, so, like the mint's, its balance goes below zero, by what the vault
-- owes the ledger's accounts.
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check
  CHECK (kind IN ('player', 'developer', 'arcade', 'escrow', 'mint', 'vault'));
ALTER TABLE accounts DROP CONSTRAINT debits_must_not_exceed_credits;
ALTER TABLE accounts ADD CONSTRAINT debits_must_not_exceed_credits
  CHECK (kind IN ('mint', 'vault') OR debits_posted + debits_pending <= credits_posted);

-- One row per vault watched on a chain: its ledger account, how far its events have been read,
-- and what the watcher last saw, so every API process reports the same status. Addresses and
-- hashes are lower-case hex.
CREATE TABLE chain_checkpoints (
  chain_id             bigint NOT NULL CHECK (chain_id > 0),
  vault_address        text NOT NULL CHECK (vault_address ~ '^0x[0-9a-f]{40}$'),
  -- HST, as the vault's token() answered when the row was made.
  token_address        text NOT NULL CHECK (token_address ~ '^0x[0-9a-f]{40}$'),
  account_id           uuid NOT NULL UNIQUE REFERENCES accounts (id),
  -- Where reading began (--chain-start-block when the row was made).
  start_block          bigint NOT NULL CHECK (start_block >= 0),
  -- The last block whose events are recorded, and its hash then; null until the first range.
  block_number         bigint CHECK (block_number >= start_block),
  block_hash           text CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  head_block           bigint CHECK (head_block >= 0),
  head_seen_at         timestamptz,
  -- Set when the chain's block at block_number no longer has block_hash: a reorganisation deeper
  -- than the confirmations. Nothing is credited while it is set.
  reorg_detected_at    timestamptz,
  reorg_found_hash     text CHECK (reorg_found_hash ~ '^0x[0-9a-f]{64}$'),
  last_error           text,
  last_error_at        timestamptz,
  -- Which process reads the chain (a lease; the checkpoint row lock keeps crediting exact
  -- whatever the lease says).
  leader_id            text,
  lease_expires_at     timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  PRIMARY KEY (chain_id, vault_address),
  CHECK ((block_number IS NULL) = (block_hash IS NULL)),
  CHECK ((reorg_detected_at IS NULL) = (reorg_found_hash IS NULL))
);

-- Every Deposited event read from a confirmed block, credited or held. amount_units is the
-- event's uint256 exactly (numeric: an amount too large for a ledger balance is recorded, and
-- held, rather than lost). transfer_id is derived from the key; the transfer exists exactly when
-- the deposit is credited, to credited_account_id: the event's account, or the one an operator
-- chose for a deposit that was held (held_reason then says why it was held).
CREATE TABLE chain_deposits (
  chain_id             bigint NOT NULL,
  tx_hash              text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index            integer NOT NULL CHECK (log_index >= 0),
  vault_address        text NOT NULL,
  block_number         bigint NOT NULL CHECK (block_number >= 0),
  block_hash           text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  account_id           uuid NOT NULL,
  from_address         text NOT NULL CHECK (from_address ~ '^0x[0-9a-f]{40}$'),
  amount_units         numeric(78, 0) NOT NULL CHECK (amount_units >= 0),
  status               text NOT NULL CHECK (status IN ('credited', 'held')),
  held_reason          text
    CHECK (held_reason IN ('unknown_account', 'not_a_deposit_account', 'amount_out_of_range')),
  transfer_id          uuid NOT NULL UNIQUE,
  credited_account_id  uuid,
  seen_at              timestamptz NOT NULL,
  credited_at          timestamptz,
  -- The key is where the event is: (chain, transaction, log). The transaction comes first
  -- because an operator names a held deposit by it.
  PRIMARY KEY (tx_hash, log_index, chain_id),
  FOREIGN KEY (chain_id, vault_address) REFERENCES chain_checkpoints (chain_id, vault_address),
  CHECK (status = 'credited' OR held_reason IS NOT NULL),
  CHECK ((status = 'credited') = (credited_at IS NOT NULL)),
  CHECK ((status = 'credited') = (credited_account_id IS NOT NULL)),
  CHECK (status = 'held' OR amount_units BETWEEN 1 AND 9223372036854775807)
);
-- Listings show the newest first; the held ones are what an operator looks for.
CREATE INDEX chain_deposits_newest ON chain_deposits (block_number, log_index);
CREATE INDEX chain_deposits_held ON chain_deposits (block_number, log_index) WHERE status = 'held';
