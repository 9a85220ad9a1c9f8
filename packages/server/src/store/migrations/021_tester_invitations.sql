-- Issue 27: naming a tester is an invitation, not consent (docs/concepts/consent.md, "Testers").
-- Only a tester who accepted, signed in as themself, may be charged by the unpublished game.
-- Every existing row was named by a developer with no word from the wallet: it becomes an
-- invitation not yet accepted, never a grandfathered consent.
ALTER TABLE game_testers RENAME COLUMN added_at TO invited_at;
ALTER TABLE game_testers ADD COLUMN state text NOT NULL DEFAULT 'invited'
  CHECK (state IN ('invited', 'accepted', 'declined', 'left'));
-- When the player last answered (accepted, declined, left); null while the invitation waits.
ALTER TABLE game_testers ADD COLUMN answered_at timestamptz;
ALTER TABLE game_testers ADD CONSTRAINT game_testers_answered
  CHECK ((state = 'invited') = (answered_at IS NULL));
-- New rows state what they are; the default was only for the rows above.
ALTER TABLE game_testers ALTER COLUMN state DROP DEFAULT;
-- A player's invitations, by their wallet.
CREATE INDEX game_testers_wallet ON game_testers (wallet);
