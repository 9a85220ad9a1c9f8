/**
 * Statement parameters from rows, one array per column, for the `unnest($n::type[], …)` batches
 * of the play path.
 */

/** Picks one column's value from a row (its index too, for columns given beside the rows). */
export type Column<Row> = (row: Row, index: number) => unknown;

/**
 * Each column's values, in the columns' order; a Date as ISO 8601 text (exact to the millisecond,
 * as a Date is), each distinct instant formatted once. One loop serves every statement: written
 * as a `.map` per column, a score batch's builder (about 50) took TurboFan 0.2–0.8 s to compile,
 * again after each deoptimization, on the API's CPU; and node-postgres formats every Date anew,
 * where a batch's rows share a few instants (issue 32).
 */
export function columns<Row>(rows: readonly Row[], pick: readonly Column<Row>[]): unknown[][] {
  const instants = new Map<number, string>();
  const out: unknown[][] = [];
  for (const take of pick) {
    const column = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const value = take(rows[i] as Row, i);
      column[i] = value instanceof Date ? instant(value, instants) : value;
    }
    out.push(column);
  }
  return out;
}

function instant(date: Date, formatted: Map<number, string>): string {
  const ms = date.getTime();
  let text = formatted.get(ms);
  if (text === undefined) {
    text = date.toISOString();
    formatted.set(ms, text);
  }
  return text;
}
