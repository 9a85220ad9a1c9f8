-- Who opened a play, which decides who may score it (docs/concepts/score-integrity.md, "Who can
-- lie about a score"): 'player' for a client-side play, opened with the player's own signed play
-- approval or locked on chain by the player's wallet, which the player scores with a signed score;
-- 'game_server' for a play a game's server opened with its write token, which only that server
-- scores. Before this column the player's score route took a score for either, so a player could
-- score a play their game's server opened (security review, finding 2).
ALTER TABLE plays ADD COLUMN opened_by text;

-- Existing plays are told apart by what recorded their opening: a client-side play has its
-- player's 'play' approval in wallet_approvals (written in the transaction that opened it) or a
-- vault lock. Anything else was opened by a game server. The safe side for a play we cannot tell
-- is 'game_server': its player can no longer score it, and its game's server still can.
UPDATE plays p SET opened_by = CASE
  WHEN p.vault_account_id IS NOT NULL
    OR EXISTS (SELECT 1 FROM wallet_approvals a
               WHERE a.kind = 'play' AND a.subject_id = p.id AND a.player_id = p.player_id)
  THEN 'player'
  ELSE 'game_server'
END;

ALTER TABLE plays ALTER COLUMN opened_by SET NOT NULL;
ALTER TABLE plays ADD CONSTRAINT plays_opened_by_check
  CHECK (opened_by IN ('player', 'game_server'));
-- A play locked on chain is the player's wallet's own: it is never a game server's.
ALTER TABLE plays ADD CONSTRAINT plays_chain_lock_opened_by_player
  CHECK (vault_account_id IS NULL OR opened_by = 'player');
