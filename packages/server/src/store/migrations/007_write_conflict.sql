-- The score batch writes without holding locks from its read (see docs/concepts/
-- plays-and-settlement.md, "The play and score path in statements"): its one statement checks
-- that nothing it read has changed, and calls this to roll itself back when something has. The
-- error is Postgres's own for a lost race, so callers treat it as one.
CREATE FUNCTION coinop_write_conflict(what text) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'concurrent write: %', what USING ERRCODE = 'serialization_failure'; END $$;
