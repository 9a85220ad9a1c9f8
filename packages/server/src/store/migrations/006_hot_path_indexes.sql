-- Indexes that no query needs but every play and score writes (see docs/benchmarks.md, "Where a
-- pair's time goes"). No query looks transfers up by debit account or by play (a play's lock is
-- found by `pending_id`, payouts by credit account), nor plays by player. A play+score pair
-- inserted about 30 entries into them.
DROP INDEX transfers_by_debit_account;
DROP INDEX transfers_by_play;
DROP INDEX plays_by_player;
