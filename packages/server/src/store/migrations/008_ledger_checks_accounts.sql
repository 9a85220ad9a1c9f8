-- A transfer's accounts are checked by the statement that writes it, not by foreign keys: every
-- account a transfer names has its balance changed in that same statement, so the write counts
-- the accounts it updated and calls this when one is missing. The per-row foreign-key checks
-- this replaces were a tenth of the embedded database's work on the play path (two lookups per
-- transfer, a dozen transfers per score). Accounts are never deleted once made (the one DELETE
-- removes an account its own transaction just created). The error is the one a foreign key
-- would raise.
ALTER TABLE transfers
  DROP CONSTRAINT transfers_debit_account_id_fkey,
  DROP CONSTRAINT transfers_credit_account_id_fkey;

CREATE FUNCTION coinop_missing_account() RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'a transfer names an account that does not exist' USING ERRCODE = 'foreign_key_violation'; END $$;
