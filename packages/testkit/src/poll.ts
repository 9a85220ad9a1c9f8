/**
 * Polls `check` every 20 ms until it holds; resolves with how long that took, or rejects once
 * `withinMs` have passed. For changes that reach another process or listener asynchronously.
 */
export async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}
