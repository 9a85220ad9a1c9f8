-- The vault and the ledger agree on every lock's fate (issue 27, docs/concepts/chain.md, "When a
-- lock ends on chain"): the watcher reads every end of a lock (PlayReclaimed, and PlaySettled or
-- PlayRefunded that coinop did not send) and brings the ledger to it in the same transaction.

-- When the lock's block was made, in the chain's time: with the vault's lockTimeout it says when
-- the player may reclaim the lock, so the play closes to scores before then. Null for locks
-- recorded before this migration.
ALTER TABLE chain_play_locks ADD COLUMN lock_block_time timestamptz;

-- The event that ended the lock, when the watcher read it (not coinop's own settleBatch or refund,
-- which batch_id and settle_tx_hash record): where it is, for the operator and the reconciliation.
ALTER TABLE chain_play_locks
  ADD COLUMN end_tx_hash text CHECK (end_tx_hash ~ '^0x[0-9a-f]{64}$'),
  ADD COLUMN end_block_number bigint CHECK (end_block_number >= 0),
  ADD CONSTRAINT chain_play_locks_end_whole CHECK ((end_tx_hash IS NULL) = (end_block_number IS NULL)),
  ADD CONSTRAINT chain_play_locks_end_state
    CHECK (end_tx_hash IS NULL OR state IN ('settled', 'refunded', 'reclaimed'));
