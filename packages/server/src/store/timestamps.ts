/**
 * Instants as statement parameters: ISO 8601 text (exact to the millisecond, as a Date is), each
 * distinct instant formatted once. A batch's rows share a few instants (a score's dozen
 * settlement transfers all have its time), and node-postgres would format every Date anew, at
 * a measurable cost on the play path (issue 32).
 */
export function timestampParams(dates: readonly (Date | null)[]): (string | null)[] {
  const formatted = new Map<number, string>();
  return dates.map((date) => {
    if (date === null) return null;
    const ms = date.getTime();
    let text = formatted.get(ms);
    if (text === undefined) {
      text = date.toISOString();
      formatted.set(ms, text);
    }
    return text;
  });
}
