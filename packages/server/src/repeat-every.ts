/**
 * Runs `work` every `intervalMs`, one run at a time: the next is scheduled when the last ends, so
 * a slow run is never overlapped. The timer alone never keeps the process alive. `work` handles
 * its own failures. Returns a stop function that waits for a run in progress.
 */
export function repeatEvery(intervalMs: number, work: () => Promise<void>): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(run, intervalMs);
    timer.unref();
  };
  const run = () => {
    running = work().finally(() => {
      running = null;
      if (!stopped) schedule();
    });
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
