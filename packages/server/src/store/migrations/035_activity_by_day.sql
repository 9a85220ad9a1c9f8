-- Issue 31: the console's Activity chart reads the arcade's plays and leader payouts per UTC day
-- over the last 1 to 90 days. Both tables are written by every play and score, so a B-tree on
-- created_at would be one more index to keep on the hot path; a BRIN index is a summary per range
-- of pages, updated only when a new row widens it, and these rows are inserted in time order.
-- autosummarize: a range is summarized once it fills, not at the next VACUUM (until then a query
-- reads all of an unsummarized range).
CREATE INDEX plays_by_time ON plays USING brin (created_at) WITH (autosummarize = on);
CREATE INDEX transfers_by_time ON transfers USING brin (created_at) WITH (autosummarize = on);
