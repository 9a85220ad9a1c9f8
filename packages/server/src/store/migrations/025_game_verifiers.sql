-- Replay verifiers (issue 30, docs/reference/verifier.md): each game's developer uploads a
-- JavaScript module that recomputes a score from the play's seed and the game's replay. Every
-- upload is a new version and stays, so the review of a refused score can read the module that
-- refused it; the game's current verifier is its highest version, unless that one was removed.
CREATE TABLE game_verifiers (
  game_id      uuid NOT NULL REFERENCES games (id),
  version      integer NOT NULL CHECK (version >= 1),
  source       text NOT NULL,
  -- Of the source's UTF-8 bytes: what the portal shows, so a developer can tell a build apart.
  sha256       text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes   integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 262144),
  uploaded_at  timestamptz NOT NULL,
  uploaded_by  uuid NOT NULL REFERENCES developers (id),
  -- A removal (DELETE …/verifier) marks the current version; a later upload is current again.
  removed_at   timestamptz,
  removed_by   uuid REFERENCES developers (id),
  PRIMARY KEY (game_id, version),
  CONSTRAINT game_verifiers_removal_whole CHECK ((removed_at IS NULL) = (removed_by IS NULL))
);
