-- Plays locked on chain (docs/concepts/chain.md): the player's wallet locks a play's cost in the
-- vault with lockPlay(playId, amount), once the lock is confirmed the play opens in the ledger,
-- its lock drawn on the vault's account, once it is scored or expired the operator's settleBatch
-- pays it out on chain, and locks that open no play are refunded.

-- The vault account a play locked on chain is drawn on (null: locked from the player's balance).
ALTER TABLE plays ADD COLUMN vault_account_id uuid REFERENCES accounts (id);

-- The operator's transactions all go in one table, so they share its nonces: withdrawBatch, and
-- now settleBatch and refund.
ALTER TABLE chain_withdrawal_batches ADD COLUMN kind text NOT NULL DEFAULT 'withdraw'
  CHECK (kind IN ('withdraw', 'settle', 'refund'));

-- One row per play id a wallet may lock (a request from the arcade) or did lock (a PlayLocked
-- event), whichever comes first.
CREATE TABLE chain_play_locks (
  -- The id the wallet locks under (bytes16), and the play's id once it opens.
  play_id              uuid PRIMARY KEY,
  chain_id             bigint NOT NULL,
  vault_address        text NOT NULL,
  -- The request: who may lock, on which tier, how much, and until when.
  player_id            uuid REFERENCES players (id),
  game_id              uuid REFERENCES games (id),
  leaderboard_id       uuid REFERENCES leaderboards (id),
  amount_units         bigint CHECK (amount_units > 0),
  requested_at         timestamptz,
  lock_by              timestamptz,
  -- The PlayLocked event, once confirmed: where it is and what it locked.
  lock_tx_hash         text CHECK (lock_tx_hash ~ '^0x[0-9a-f]{64}$'),
  lock_log_index       integer CHECK (lock_log_index >= 0),
  lock_block_number    bigint,
  locker_address       text CHECK (locker_address ~ '^0x[0-9a-f]{40}$'),
  locked_units         numeric(78, 0) CHECK (locked_units > 0),
  locked_at            timestamptz,
  -- requested: no lock yet, open: the play is open in the ledger (its status says the rest),
  -- refund_due: a lock that opens no play, or a voided play, to return to the wallet,
  -- sent: in batch_id's settleBatch or refund, settled / refunded: done on chain,
  -- reclaimed: the player took the lock back after the vault's lock timeout.
  state                text NOT NULL
    CHECK (state IN ('requested', 'open', 'refund_due', 'sent', 'settled', 'refunded', 'reclaimed')),
  refund_reason        text,
  batch_id             uuid REFERENCES chain_withdrawal_batches (id),
  settle_tx_hash       text CHECK (settle_tx_hash ~ '^0x[0-9a-f]{64}$'),
  attempts             integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  updated_at           timestamptz NOT NULL,
  FOREIGN KEY (chain_id, vault_address) REFERENCES chain_checkpoints (chain_id, vault_address),
  CHECK ((requested_at IS NULL) = (player_id IS NULL)),
  CHECK ((lock_tx_hash IS NULL) = (locked_at IS NULL)),
  CHECK (state IN ('requested') OR lock_tx_hash IS NOT NULL),
  CHECK ((state = 'sent') <= (batch_id IS NOT NULL))
);
-- The sender's work: locks whose play may have ended, and locks to refund.
CREATE INDEX chain_play_locks_due ON chain_play_locks (updated_at, play_id)
  WHERE state IN ('open', 'refund_due');
CREATE INDEX chain_play_locks_batch ON chain_play_locks (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX chain_play_locks_player ON chain_play_locks (player_id, requested_at DESC)
  WHERE player_id IS NOT NULL;
-- The settlement reads a play's payout reservations.
CREATE INDEX transfers_chain_payouts ON transfers (play_id) WHERE reason = 'chain_payout';
