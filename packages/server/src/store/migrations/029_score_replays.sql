-- The replays of accepted scores, kept as evidence for the review queue (issue 30,
-- docs/reference/review-queue.md#replays): a reported or outlier score can be looked at, and
-- re-run through the game's verifier, as a refused attempt's replay (score_refusals.replay,
-- migration 024) can. Written by the score batch in the statement that writes the score, so a
-- score acknowledged with a replay never loses it; a score without a replay writes no row here
-- (and its batch runs the statement it ran before this table existed). Kept as long as the score:
-- coinop deletes no score, voided or not.
CREATE TABLE score_replays (
  score_id  uuid PRIMARY KEY REFERENCES scores (id),
  -- The replay as the game sent it (at most --replay-max-bytes of UTF-8, checked before the batch).
  replay    text NOT NULL
);
