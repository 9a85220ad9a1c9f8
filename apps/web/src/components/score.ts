import { groupedNumber } from '@coinop/protocol';

/**
 * A score as the arcade shows it: the number grouped (`groupedNumber`, from the protocol), then the game's unit when
 * it has one ("12,345 ms"). React escapes the unit like any text; the API also refuses markup in it.
 */
export function scoreText(score: number | string, unit: string): string {
  const number = groupedNumber(score);
  return unit === '' ? number : `${number} ${unit}`;
}

/** A duration in whole milliseconds, grouped like a score: "850 ms", "12,345 ms". */
export function msText(ms: number): string {
  return scoreText(ms, 'ms');
}
