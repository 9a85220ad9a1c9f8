-- A "next" signing key is published before it signs anything, so verifiers that cache the JWKS
-- already know it when a rotation makes it active. Existing keys became active when created.
ALTER TABLE signing_keys ADD COLUMN activated_at timestamptz;
UPDATE signing_keys SET activated_at = created_at;
DROP INDEX signing_keys_one_active;
-- At most one key signs at a time, and at most one waits to.
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys ((true))
  WHERE retired_at IS NULL AND activated_at IS NOT NULL;
CREATE UNIQUE INDEX signing_keys_one_next ON signing_keys ((true)) WHERE activated_at IS NULL;
ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_next_not_retired
  CHECK (activated_at IS NOT NULL OR retired_at IS NULL);
