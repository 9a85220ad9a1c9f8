import { findOutlier, type Clock, type Ids } from '@coinop/core';
import type { Db } from '../store/db.js';
import {
  boardHistory,
  boardsToCheck,
  claimBoardCheck,
  markBoardChecked,
  newLeaders,
  type BoardToCheck,
} from '../store/score-outliers.js';
import { findFlaggableScore, insertOutlier } from '../store/score-reviews.js';

/** Boards one run of the check looks at before it yields to the sweep's other chores. */
export const OUTLIER_BOARDS_PER_RUN = 100;

/**
 * The outlier check (issue 30, docs/reference/review-queue.md#outliers), run beside the expiry
 * sweep, never in a score's request or batch. For each board written since its last check it
 * reads the top `leadersMax` bests, keeps those written since, and flags each that stands out
 * against the board's history (the bests of the last check: `findOutlier`). Answers how many it
 * flagged. Several processes may run it: a board is checked by one at a time (row lock, skip).
 */
export async function flagOutlierScores(deps: { db: Db; clock: Clock; ids: Ids }): Promise<number> {
  let flagged = 0;
  for (const board of await boardsToCheck(deps.db, OUTLIER_BOARDS_PER_RUN)) {
    flagged += await deps.db.transaction((tx) => checkBoard({ ...deps, db: tx }, board));
  }
  return flagged;
}

async function checkBoard(
  deps: { db: Pick<Db, 'query'>; clock: Clock; ids: Ids },
  board: BoardToCheck,
): Promise<number> {
  const { db } = deps;
  const checkedSeq = await claimBoardCheck(db, board.id);
  if (checkedSeq === null) return 0;
  const leaders = await newLeaders(db, board, checkedSeq);
  let flagged = 0;
  if (leaders.length > 0) {
    const history = await boardHistory(db, board.id, board.display, checkedSeq);
    for (const leader of leaders) {
      const evidence = findOutlier(leader.score, history, board.display);
      if (evidence === null) continue;
      const score = await findFlaggableScore(db, leader.scoreId);
      if (!score || score.voided) continue;
      const now = deps.clock.now();
      if (await insertOutlier(db, { id: deps.ids.next(), score, now, evidence })) flagged++;
    }
  }
  await markBoardChecked(db, board.id, board.writeSeq);
  return flagged;
}
