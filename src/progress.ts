// Progress lines for long runs: how far, and roughly how long is left. Only the CLI shows them,
// and only on a terminal.

/** "read 200/1,000 files · about 12 s left"; no estimate until there is something to go on. */
export function progressLine(what: string, done: number, total: number, unit: string, startedMs: number, nowMs: number): string {
  const head = `${what} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${unit}`;
  const elapsed = nowMs - startedMs;
  if (done === 0 || done >= total || elapsed < 1000) return head;
  const left = Math.round(((elapsed / done) * (total - done)) / 1000);
  return `${head} · about ${left < 60 ? `${Math.max(1, left)} s` : `${Math.round(left / 60)} min`} left`;
}

/** At most one line in this many milliseconds: a terminal need not redraw for every file. */
export const PROGRESS_EVERY_MS = 200;

/**
 * Counts one more of `total` at each call, and says so through `say` at most every
 * PROGRESS_EVERY_MS (and at the last one). Does nothing without `say`.
 */
export function progressCounter(what: string, total: number, unit: string, say: ((line: string) => void) | undefined): () => void {
  let done = 0;
  const started = Date.now();
  let said = 0;
  return () => {
    done++;
    if (!say) return;
    const now = Date.now();
    if (now - said < PROGRESS_EVERY_MS && done !== total) return;
    said = now;
    say(progressLine(what, done, total, unit, started, now));
  };
}
