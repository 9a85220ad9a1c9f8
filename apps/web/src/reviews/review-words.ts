import { countText, groupedNumber, type ReviewItem } from '@coinop/protocol';
import { msText, scoreText } from '../components/score.js';

/** What the queue calls each kind of item, as a reviewer reads it. */
export const KIND_LABELS: Record<string, string> = {
  outlier: 'Outlier',
  reported: 'Reported',
  score_out_of_bounds: 'Refused: out of bounds',
  score_too_fast: 'Refused: too fast',
  replay_required: 'Refused: no replay',
  replay_rejected: 'Refused: replay rejected',
};

export const STATE_LABELS: Record<string, string> = {
  open: 'Open',
  approved: 'Kept',
  voided: 'Voided',
  refused: 'Refused',
};

/** A report's reason as the reporter chose it. */
export const REPORT_LABELS: Record<string, string> = {
  impossible: 'impossible score',
  bot: 'looks like a bot',
  bug: 'used a bug in the game',
  other: 'something else',
};

/** A duration in ms as a person reads it: "850 ms", "12.4 s", "3 min 20 s", "1,440 min 0 s". */
export function durationText(ms: number): string {
  if (ms < 1000) return msText(ms);
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${groupedNumber(Math.floor(seconds / 60))} min ${seconds % 60} s`;
}

/** Why the item is in the queue, in one line. */
export function whyText(item: ReviewItem): string {
  if (item.report !== null) {
    const note = item.report.note === null ? '' : `: “${item.report.note}”`;
    return `A player reported it (${REPORT_LABELS[item.report.reason]})${note}`;
  }
  if (item.refusalDetail !== null) return item.refusalDetail;
  const e = item.evidence as { rule?: string; median?: number; n?: number; previousBest?: number };
  const median = e.median === undefined ? '?' : scoreText(e.median, item.scoreUnit);
  if (e.rule === 'best_factor') {
    const best = e.previousBest === undefined ? '?' : scoreText(e.previousBest, item.scoreUnit);
    return `At least twice the best so far (${best}; median ${median} over ${countText(e.n ?? 0, 'player')})`;
  }
  return `Far beyond the other players: their median is ${median} over ${countText(e.n ?? 0, 'player')}`;
}

/** Who closed a review, as the API records it (`admin`, `developer:<id>`). */
export function actorText(by: string): string {
  return by === 'admin' ? 'the operator' : "the game's developer";
}
