import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrateBefore, openEmptyDb, storeVariants } from '@coinop/testkit/db';
import { ensureArcade } from '../../src/store/arcades.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { ManualClock, uuidIds } from '../../src/ids.js';

/**
 * Issue 27: a tester named before invitations existed never said yes. The migration that makes
 * testers invitations turns every such row into an invitation not yet accepted: no consent is
 * grandfathered (docs/concepts/consent.md, "Testers").
 */

describe.each(storeVariants())('the tester invitations migration, on %s', (variant) => {
  it('migrates every named tester as an invitation not yet accepted', async () => {
    const db = await openEmptyDb(variant);
    try {
      const migration = await migrateBefore(db, '_tester_invitations.sql');
      const named = new Date('2026-01-02T03:04:05.000Z');
      // The arcade and developer as the store makes them (021 changes neither table); the game
      // as a row of the schema before 021, since the store's games now carry later columns.
      const clock = new ManualClock(named);
      const arcade = await ensureArcade(db, clock, uuidIds);
      const developer = await ensureDeveloper(db, clock, uuidIds, `0x${'d'.repeat(40)}`);
      const game = { id: randomUUID() };
      await db.query(
        `INSERT INTO games (id, arcade_id, developer_id, name, description, category,
                            developer_info, tag_line, url, cover_url, score_display, prod_domain,
                            created_at, updated_at)
         VALUES ($1, $2, $3, 'Old game', '', 'Arcade', '', '', '', '', 'NORMAL', NULL, $4, $4)`,
        [game.id, arcade.id, developer.id, named],
      );
      await db.query('INSERT INTO game_testers (game_id, wallet, added_at) VALUES ($1, $2, $3)', [
        game.id,
        `0x${'1'.repeat(40)}`,
        named,
      ]);

      await db.transaction((tx) => tx.exec(migration.sql));

      expect(
        await db.query(
          'SELECT wallet, state, invited_at, answered_at FROM game_testers ORDER BY wallet',
        ),
      ).toEqual([
        { wallet: `0x${'1'.repeat(40)}`, state: 'invited', invited_at: named, answered_at: null },
      ]);
      // A new row says what it is: no state is assumed.
      await expect(
        db.query(
          `INSERT INTO game_testers (game_id, wallet, invited_at)
           VALUES ($1, $2, now())`,
          [game.id, `0x${'2'.repeat(40)}`],
        ),
      ).rejects.toThrow(/state/);
      // An answer has its date, and a waiting invitation none.
      await expect(
        db.query(`UPDATE game_testers SET state = 'accepted' WHERE wallet = $1`, [
          `0x${'1'.repeat(40)}`,
        ]),
      ).rejects.toThrow(/game_testers_answered/);
    } finally {
      await db.close();
    }
  });
});
