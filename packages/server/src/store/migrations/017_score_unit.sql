-- The unit a game's scores are counted in, shown after every score the arcade displays
-- ("109 ms"): a short display suffix the developer chooses, empty for none (issue 17). The
-- API refuses markup and control characters too; the length is checked here as well.
ALTER TABLE games ADD COLUMN score_unit text NOT NULL DEFAULT ''
  CHECK (char_length(score_unit) <= 12);
