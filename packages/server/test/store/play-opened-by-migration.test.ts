import { describe, expect, it } from 'vitest';
import { migrateBefore, openEmptyDb, storeVariants } from '@coinop/testkit/db';
import { ensureArcade } from '../../src/store/arcades.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { ManualClock, uuidIds } from '../../src/ids.js';

/**
 * A play now records who opened it, and so who may score it (security review, finding 2): its
 * player or its game's server. 038_play_opened_by.sql fills the column for the plays already
 * there from what recorded their opening: the player's signed play approval or a lock on chain
 * make a play the player's; anything else is the game server's, the side that cannot let a player
 * score a run the server judges.
 */
describe.each(storeVariants())('the play opened-by migration, on %s', (variant) => {
  it("marks signed and chain-locked plays the player's, every other the game server's", async () => {
    const db = await openEmptyDb(variant);
    try {
      const migration = await migrateBefore(db, '_play_opened_by.sql');
      const now = new Date('2026-01-02T03:04:05.000Z');
      const clock = new ManualClock(now);
      const arcade = await ensureArcade(db, clock, uuidIds);
      const developer = await ensureDeveloper(db, clock, uuidIds, `0x${'d'.repeat(40)}`);
      const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const [game, board, vault] = [id(1), id(2), id(3)];
      await db.query(
        `INSERT INTO games (id, arcade_id, developer_id, name, description, category,
                            developer_info, tag_line, url, cover_url, score_display, prod_domain,
                            created_at, updated_at)
         VALUES ($1, $2, $3, 'Old game', '', 'Arcade', '', '', '', '', 'NORMAL', NULL, $4, $4)`,
        [game, arcade.id, developer.id, now],
      );
      await db.query(
        `INSERT INTO leaderboards (id, game_id, name, cost_units, leaders_max, position, created_at)
         VALUES ($1, $2, 'Free', 0, 10, 1, $3)`,
        [board, game, now],
      );
      await db.query(`INSERT INTO accounts (id, kind, created_at) VALUES ($1, 'vault', $2)`, [
        vault,
        now,
      ]);
      const player = async (n: number) => {
        const account = id(100 + n);
        await db.query(`INSERT INTO accounts (id, kind, created_at) VALUES ($1, 'player', $2)`, [
          account,
          now,
        ]);
        await db.query(
          `INSERT INTO players (id, wallet, name, account_id, created_at)
           VALUES ($1, $2, 'Player', $3, $4)`,
          [id(200 + n), `0x${String(n).repeat(40)}`, account, now],
        );
        return id(200 + n);
      };
      const [ada, bob] = [await player(1), await player(2)];
      const play = (n: number, playerId: string, vaultAccountId: string | null = null) =>
        db.query(
          `INSERT INTO plays (id, arcade_id, game_id, developer_id, leaderboard_id, player_id,
                              cost_units, lock_transfer_id, vault_account_id, leader_player_ids,
                              status, expires_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 0, NULL, $7, '{}', 'open', $8, $8, $8)`,
          [id(300 + n), arcade.id, game, developer.id, board, playerId, vaultAccountId, now],
        );
      const approval = (n: number, playerId: string, kind: string, subjectId: string) =>
        db.query(
          `INSERT INTO wallet_approvals (id, player_id, wallet, kind, subject_id, nonce, message,
                                         signature, created_at)
           VALUES ($1, $2, '0x', $3, $4, $5, 'm', 's', $6)`,
          [id(400 + n), playerId, kind, subjectId, `nonce-${n}`, now],
        );
      await play(1, ada); // signed by its player: client-side
      await approval(1, ada, 'play', id(301));
      await play(2, ada); // opened by the game's server, then self-scored before the fix
      await approval(2, ada, 'score', id(302));
      await play(3, bob, vault); // locked on chain by the player's wallet
      await play(4, bob); // no approval of bob's: a game server's
      await approval(4, ada, 'play', id(304));

      await db.transaction((tx) => tx.exec(migration.sql));

      expect(await db.query('SELECT id, opened_by FROM plays ORDER BY id')).toEqual([
        { id: id(301), opened_by: 'player' },
        { id: id(302), opened_by: 'game_server' },
        { id: id(303), opened_by: 'player' },
        { id: id(304), opened_by: 'game_server' },
      ]);
      // New plays must say who opened them, and a chain lock is never a game server's.
      await expect(play(5, ada)).rejects.toThrow(/opened_by/);
      await expect(
        db.query(`UPDATE plays SET opened_by = 'game_server' WHERE id = $1`, [id(303)]),
      ).rejects.toThrow(/plays_chain_lock_opened_by_player/);
    } finally {
      await db.close();
    }
  });
});
