/** A count with its noun, singular for one: "1 player", "23 players", "3 days". */
export function countText(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
