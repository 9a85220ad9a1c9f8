import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrateBefore, openEmptyDb, storeVariants } from '@coinop/testkit/db';
import { ensureArcade } from '../../src/store/arcades.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { ManualClock, uuidIds } from '../../src/ids.js';

/**
 * Two live tiers of a game could share a name ("Bronze" twice), which players could not tell
 * apart. 037_tier_names.sql makes the database refuse it; an arcade that already has such tiers
 * has them renamed deterministically, so the index can be built: the first keeps its name, each
 * later one gets " (n)", or its id's end where that is taken too. Retired tiers are left alone.
 */

describe.each(storeVariants())('the tier names migration, on %s', (variant) => {
  it('renames the duplicates of live tiers, then refuses a new one', async () => {
    const db = await openEmptyDb(variant);
    try {
      const migration = await migrateBefore(db, '_tier_names.sql');
      const now = new Date('2026-01-02T03:04:05.000Z');
      const clock = new ManualClock(now);
      const arcade = await ensureArcade(db, clock, uuidIds);
      const developer = await ensureDeveloper(db, clock, uuidIds, `0x${'d'.repeat(40)}`);
      const addGame = async () => {
        const id = randomUUID();
        await db.query(
          `INSERT INTO games (id, arcade_id, developer_id, name, description, category,
                              developer_info, tag_line, url, cover_url, score_display, prod_domain,
                              created_at, updated_at)
           VALUES ($1, $2, $3, 'Old game', '', 'Arcade', '', '', '', '', 'NORMAL', NULL, $4, $4)`,
          [id, arcade.id, developer.id, now],
        );
        return id;
      };
      const game = await addGame();
      const other = await addGame();
      const tier = async (
        gameId: string,
        id: string,
        name: string,
        position: number,
        retired = false,
      ) =>
        db.query(
          `INSERT INTO leaderboards (id, game_id, name, cost_units, leaders_max, position,
                                     created_at, retired_at)
           VALUES ($1, $2, $3, 100000000, 10, $4, $5, $6)`,
          [id, gameId, name, position, now, retired ? now : null],
        );
      const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      await tier(game, id(1), 'Bronze', 1);
      await tier(game, id(2), 'bronze ', 2);
      await tier(game, id(3), ' BRONZE', 3);
      // Taken already: the second "Bronze" cannot become "bronze (2)".
      await tier(game, id(4), 'Bronze (2)', 4);
      await tier(game, id(5), 'Bronze', 5, true);
      await tier(game, id(6), 'Gold', 6);
      await tier(other, id(7), 'Bronze', 1);

      await db.transaction((tx) => tx.exec(migration.sql));

      expect(
        await db.query('SELECT id, name FROM leaderboards ORDER BY game_id = $1 DESC, id', [game]),
      ).toEqual([
        { id: id(1), name: 'Bronze' },
        { id: id(2), name: `bronze (${id(2).slice(-12)})` },
        { id: id(3), name: 'BRONZE (3)' },
        { id: id(4), name: 'Bronze (2)' },
        { id: id(5), name: 'Bronze' },
        { id: id(6), name: 'Gold' },
        { id: id(7), name: 'Bronze' },
      ]);
      await expect(tier(game, randomUUID(), ' gold', 7)).rejects.toThrow(/leaderboards_live_name/);
      // A retired tier's name, and a name on another game, are free.
      await tier(other, randomUUID(), 'Gold', 2);
      await db.query('UPDATE leaderboards SET retired_at = $2 WHERE id = $1', [id(6), now]);
      await tier(game, randomUUID(), 'GOLD', 7);
    } finally {
      await db.close();
    }
  });
});
