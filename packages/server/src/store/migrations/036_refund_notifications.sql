-- Issue 31: a player is told of their refunds (a play's lock voided back to them). The
-- notifications read them per account, newest first or after a stream's position; the index on
-- debit accounts went in 006 (the hot path does not need it), so this one covers refunds only.
CREATE INDEX transfers_refunds_by_account ON transfers (debit_account_id, created_at, id)
  WHERE reason = 'play_void';
