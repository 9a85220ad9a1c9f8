/**
 * A count with its noun, singular for one: "1 player", "23 players", "3 days". The web app's
 * screens and the server's texts (log lines, validation messages) count things with it.
 *
 * @example
 * ```ts
 * import { countText } from '@coinop/protocol';
 * countText(1, 'entrant'); // "1 entrant"
 * countText(21, 'place'); // "21 places"
 * ```
 */
export function countText(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
