-- Payouts held before they are spendable, and voided scores (issue 30,
-- docs/concepts/plays-and-settlement.md#hold-and-void).

-- Seconds a settled play's payouts stay pending before they are posted. Null on a tier: the
-- game's; null on a game: the operator's --payout-hold. At most 30 days.
ALTER TABLE games
  ADD COLUMN payout_hold_seconds integer CHECK (payout_hold_seconds BETWEEN 0 AND 2592000);
ALTER TABLE leaderboards
  ADD COLUMN payout_hold_seconds integer CHECK (payout_hold_seconds BETWEEN 0 AND 2592000);

-- When a settled play's held payouts are posted; null once they are (or when nothing was held).
-- The release sweep finds the due plays by an index scan of the partial index.
ALTER TABLE plays ADD COLUMN payouts_release_at timestamptz;
CREATE INDEX plays_payouts_held ON plays (payouts_release_at) WHERE payouts_release_at IS NOT NULL;

-- A voided score left its board; its play keeps its settlement.
ALTER TABLE scores
  ADD COLUMN voided_at timestamptz,
  ADD COLUMN void_reason text CHECK (length(void_reason) BETWEEN 1 AND 500),
  ADD COLUMN voided_by text CHECK (length(voided_by) BETWEEN 1 AND 200),
  ADD CONSTRAINT scores_void_whole
    CHECK ((voided_at IS NULL) = (void_reason IS NULL) AND (voided_at IS NULL) = (voided_by IS NULL));

-- Re-settling a board after a void reads each player's best non-voided score before a time.
CREATE INDEX scores_by_board_player ON scores (leaderboard_id, player_id, created_at)
  WHERE voided_at IS NULL;
