-- Issue 27: no HST leaves the vault while the ledger and the chain disagree, and HST that reaches
-- the vault without a deposit is recorded as surplus instead of staying an unexplained difference
-- (docs/concepts/chain.md#halts, #surplus).

-- One row per halt of a vault's senders (withdrawals, play settlements, refunds): why and since
-- when, then who resumed them, when and why. A vault has at most one halt not yet resumed, and
-- every sender reads it in the database transaction that records what it is about to broadcast.
CREATE TABLE chain_halts (
  id                        uuid PRIMARY KEY,
  chain_id                  bigint NOT NULL,
  vault_address             text NOT NULL,
  -- reorg: the chain no longer has a block the watcher recorded (deeper than the confirmations);
  -- chain_mismatch: the RPC answered another chain id, or the vault another token, than recorded;
  -- shortfall: the watcher's reconciliation found the vault holding less than the ledger owes.
  cause                     text NOT NULL CHECK (cause IN ('reorg', 'chain_mismatch', 'shortfall')),
  detail                    text NOT NULL CHECK (length(detail) BETWEEN 1 AND 2000),
  -- Where it was found, and for a shortfall how much (base units).
  block_number              bigint CHECK (block_number >= 0),
  shortfall_units           numeric(78, 0) CHECK (shortfall_units > 0),
  halted_at                 timestamptz NOT NULL,
  -- The operator's resume: who (as they named themselves: the admin token names nobody), why,
  -- for a reorganisation the block the watcher reads again from, and a shortfall they accepted.
  resume_requested_at       timestamptz,
  resumed_by                text CHECK (length(resumed_by) BETWEEN 1 AND 200),
  resume_reason             text CHECK (length(resume_reason) BETWEEN 1 AND 2000),
  resume_from_block         bigint CHECK (resume_from_block >= 0),
  accepted_shortfall_units  numeric(78, 0) CHECK (accepted_shortfall_units > 0),
  -- When HST could leave again: at the resume, or after a reorganisation once the watcher has
  -- read the chain again up to the confirmations and the vault reconciled.
  resumed_at                timestamptz,
  FOREIGN KEY (chain_id, vault_address) REFERENCES chain_checkpoints (chain_id, vault_address),
  CHECK ((resume_requested_at IS NULL) = (resume_reason IS NULL)),
  CHECK ((resume_requested_at IS NULL) = (resumed_by IS NULL)),
  CHECK (resumed_at IS NULL OR resume_requested_at IS NOT NULL),
  CHECK ((cause = 'shortfall') = (shortfall_units IS NOT NULL))
);
CREATE UNIQUE INDEX chain_halts_open ON chain_halts (chain_id, vault_address)
  WHERE resumed_at IS NULL;
CREATE INDEX chain_halts_newest ON chain_halts (chain_id, vault_address, halted_at DESC, id);

-- A reorganisation recorded before this migration halts the senders like any other.
INSERT INTO chain_halts (id, chain_id, vault_address, cause, detail, block_number, halted_at)
SELECT gen_random_uuid(), chain_id, vault_address, 'reorg',
       'block ' || block_number || ' was recorded with hash ' || block_hash ||
         ' and the chain has ' || reorg_found_hash || ' there',
       block_number, reorg_detected_at
FROM chain_checkpoints WHERE reorg_detected_at IS NOT NULL;

-- The watcher's reading of HST transfers to the vault, behind the checkpoint: the last block whose
-- transfers are recorded (null: none yet, so from start_block, which also covers the history of a
-- vault watched before this migration).
ALTER TABLE chain_checkpoints ADD COLUMN surplus_block_number bigint
  CHECK (surplus_block_number >= 0);
-- The watcher's last reconciliation of the vault with the ledger: when, at which block, and the
-- unexplained difference then (signed base units: below zero is a shortfall).
ALTER TABLE chain_checkpoints ADD COLUMN reconciled_at timestamptz;
ALTER TABLE chain_checkpoints ADD COLUMN reconciled_block bigint;
ALTER TABLE chain_checkpoints ADD COLUMN unexplained_units numeric(78, 0);
-- A shortfall the operator accepted when resuming (covered outside the vault): the watcher halts
-- again only beyond it, and lowers it as the shortfall shrinks.
ALTER TABLE chain_checkpoints ADD COLUMN accepted_shortfall_units numeric(78, 0) NOT NULL DEFAULT 0
  CHECK (accepted_shortfall_units >= 0);

-- HST transferred to the vault without a deposit or a play lock (a plain ERC-20 transfer, a mint
-- to the vault): its Transfer event, and what the operator did with it. unsolicited: in the
-- vault, owed to nobody; credited: to an account in the ledger (transfer_id, from the vault's
-- account); swept: credited to the arcade's account and withdrawn from it to an address
-- (withdrawal_id); covered: it backs what the ledger already owes (a shortfall), with a note.
CREATE TABLE chain_surplus (
  chain_id             bigint NOT NULL,
  tx_hash              text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index            integer NOT NULL CHECK (log_index >= 0),
  vault_address        text NOT NULL,
  block_number         bigint NOT NULL CHECK (block_number >= 0),
  block_hash           text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  from_address         text NOT NULL CHECK (from_address ~ '^0x[0-9a-f]{40}$'),
  amount_units         numeric(78, 0) NOT NULL CHECK (amount_units > 0),
  status               text NOT NULL CHECK (status IN ('unsolicited', 'credited', 'swept', 'covered')),
  transfer_id          uuid NOT NULL UNIQUE,
  credited_account_id  uuid,
  withdrawal_id        uuid REFERENCES chain_withdrawals (id),
  note                 text CHECK (length(note) BETWEEN 1 AND 2000),
  seen_at              timestamptz NOT NULL,
  settled_at           timestamptz,
  PRIMARY KEY (tx_hash, log_index, chain_id),
  FOREIGN KEY (chain_id, vault_address) REFERENCES chain_checkpoints (chain_id, vault_address),
  CHECK ((status = 'unsolicited') = (settled_at IS NULL)),
  CHECK ((status IN ('credited', 'swept')) = (credited_account_id IS NOT NULL)),
  CHECK ((status = 'swept') = (withdrawal_id IS NOT NULL)),
  CHECK ((status = 'covered') = (note IS NOT NULL)),
  CHECK (status IN ('unsolicited', 'covered') OR amount_units <= 9223372036854775807)
);
CREATE INDEX chain_surplus_newest ON chain_surplus (block_number DESC, log_index DESC);
