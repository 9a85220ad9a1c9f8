import type { ScoreRules } from '@coinop/protocol';
import { groupedNumber } from '@coinop/protocol';
import { scoreText } from '../components/score.js';

/**
 * The rules in force on the chosen tier, in one short line for the player (issue 30): "Scores
 * between 0 and 5000 · a run takes at least 10 s · replays verified". Nothing when it has none.
 */
export function ScoreRulesLine({ rules, unit }: { rules: ScoreRules | undefined; unit: string }) {
  const text = rules === undefined ? '' : scoreRulesText(rules, unit);
  if (text === '') return null;
  return <p className="muted score-rules-line">{text}</p>;
}

/** The line's text; empty when no rule is set. */
export function scoreRulesText(rules: ScoreRules, unit: string): string {
  const parts: string[] = [];
  const { minScore, maxScore, minPlayMs } = rules;
  if (minScore !== null && maxScore !== null) {
    parts.push(`Scores between ${scoreText(minScore, unit)} and ${scoreText(maxScore, unit)}`);
  } else if (maxScore !== null) {
    parts.push(`Scores up to ${scoreText(maxScore, unit)}`);
  } else if (minScore !== null) {
    parts.push(`Scores from ${scoreText(minScore, unit)}`);
  }
  if (minPlayMs !== null && minPlayMs > 0) parts.push(`a run takes at least ${seconds(minPlayMs)}`);
  if (rules.replay === 'required') parts.push('replays verified');
  const line = parts.join(' · ');
  return line.charAt(0).toUpperCase() + line.slice(1);
}

/** 10000 → "10 s", 2500 → "2.5 s", 400 → "0.4 s", 3600000 → "3,600 s". */
function seconds(ms: number): string {
  return `${groupedNumber(Number((ms / 1000).toFixed(3)))} s`;
}
