-- Issue 31: a player is told of their refunds (a play's lock voided back to them). The
-- notifications read them per account, newest first or after a stream's position. 034's full
-- debit-account index would find them among all of the account's debits (mostly play locks);
-- this partial one holds the refunds alone, and costs a write only when a play is voided.
CREATE INDEX transfers_refunds_by_account ON transfers (debit_account_id, created_at, id)
  WHERE reason = 'play_void';
