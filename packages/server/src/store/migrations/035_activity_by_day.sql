-- Issue 31: the console's Activity chart reads the arcade's plays and leader payouts per UTC day
-- over the last 1 to 90 days. plays is written by every play, so a B-tree on created_at would be
-- one more index to keep on the hot path; a BRIN index is a summary per range of pages, updated
-- only when a new row widens it, and plays are inserted in time order. autosummarize: a range is
-- summarized once it fills, not at the next VACUUM (until then a query reads all of it).
-- transfers needs none here: 034's B-tree transfers_by_time (created_at, id), which the ledger's
-- newest-first list needs anyway, serves the chart's time range too.
CREATE INDEX plays_by_time ON plays USING brin (created_at) WITH (autosummarize = on);
