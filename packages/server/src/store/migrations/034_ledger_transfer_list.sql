-- The operator's list of ledger transfers (issue 31, GET /admin/ledger/transfers), newest first by
-- (created_at, id), filtered by an account on either side. Chosen by measurement (docs/
-- benchmarks.md, "Issue 31: the ledger transfer list and its indexes"): on 200,000 transfers the
-- first page took 485 ms on PGlite (134 ms on Postgres) without an index, a scan and a sort that
-- grows with the ledger, and 0.13 ms with it; a player's transfers took 65 ms (28 ms) with the
-- debit side scanned whole, 4.5 ms (0.19 ms) with the debit index back. A BRIN index on
-- created_at cannot give an unbounded newest-first page (the planner still sorted every row).
-- The cost: about 2,750 more WAL bytes per play+score pair (+27%), two index entries a transfer.
CREATE INDEX transfers_by_time ON transfers (created_at, id);
-- Dropped by 006 when no query read it; the account filter's debit side reads it now.
CREATE INDEX transfers_by_debit_account ON transfers (debit_account_id, created_at, id);
