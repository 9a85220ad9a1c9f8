import type { Queryable } from '../src/store/db.js';

/** See board-load.mjs: `rows` players with a best on `board`, and the count tree over them. */
export function bulkLoad(
  db: Queryable & { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  board: string,
  rows: number,
  options?: {
    log?: (line: string) => void;
    scoresBelow?: number;
    sequential?: boolean;
    now?: Date;
    names?: string;
    vacuum?: boolean;
  },
): Promise<void>;
