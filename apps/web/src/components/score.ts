/**
 * A score as the arcade shows it: the number, then the game's unit when it has one ("109 ms").
 * React escapes the unit like any text; the API also refuses markup in it.
 */
export function scoreText(score: number | string, unit: string): string {
  return unit === '' ? String(score) : `${score} ${unit}`;
}
