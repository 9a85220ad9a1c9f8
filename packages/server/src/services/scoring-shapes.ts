import type { CoinopError, GameRef, ScoreBatchDecision, SettlementBatch } from '@coinop/core';
import type { BatchScore, BoardEntry } from '../store/score-batch.js';
import type { ScoreOutcome, SubmitScoreInput } from './play-requests.js';

/** The shapes `Scoring` passes between reading, deciding and writing a batch of scores. */

export interface ScoreJob {
  readonly input: SubmitScoreInput;
  readonly game: GameRef;
  readonly requestHash: string;
}

export type Settled = { ok: true; value: ScoreOutcome } | { ok: false; error: CoinopError };

/** A batch decided: each step's answer, the scores to write, their settlement and the boards. */
export interface BatchDecision {
  readonly settled: Settled[];
  readonly scores: BatchScore[];
  readonly ledger: SettlementBatch;
  readonly decided: ScoreBatchDecision<BoardEntry>;
}
