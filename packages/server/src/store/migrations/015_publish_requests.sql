-- A developer's request that the operator list their game in the catalog (issue 17). A request
-- is pending until the operator approves it (the game is published), declines it with a reason,
-- or the developer withdraws it. Decided requests stay as the game's history.
CREATE TABLE publish_requests (
  id              uuid PRIMARY KEY,
  game_id         uuid NOT NULL REFERENCES games (id),
  state           text NOT NULL CHECK (state IN ('pending', 'approved', 'declined', 'withdrawn')),
  note            text NOT NULL CHECK (length(note) <= 1000),
  decline_reason  text CHECK (length(decline_reason) BETWEEN 1 AND 1000),
  requested_at    timestamptz NOT NULL,
  decided_at      timestamptz,
  CHECK ((state = 'pending') = (decided_at IS NULL)),
  CHECK ((state = 'declined') = (decline_reason IS NOT NULL)),
  CHECK (decided_at IS NULL OR decided_at >= requested_at)
);

-- One open request per game: a second insert while one is pending fails, whichever process.
CREATE UNIQUE INDEX publish_requests_one_pending ON publish_requests (game_id)
  WHERE state = 'pending';
CREATE INDEX publish_requests_of_game ON publish_requests (game_id, requested_at DESC, id DESC);
CREATE INDEX publish_requests_queue ON publish_requests (state, requested_at, id);
