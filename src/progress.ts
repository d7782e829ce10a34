// Progress lines for long runs: how far, and roughly how long is left. Only the CLI shows them,
// and only on a terminal.

/**
 * "read 200/1,000 files · about 12 s left"; no estimate until there is something to go on.
 * `fraction`: how much of the work is done, when it is not the count's share (files and
 * sessions differ in size, and the largest go first).
 */
export function progressLine(what: string, done: number, total: number, unit: string, startedMs: number, nowMs: number, fraction = done / total): string {
  const head = `${what} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${unit}`;
  const elapsed = nowMs - startedMs;
  if (done === 0 || done >= total || elapsed < 1000 || !(fraction > 0) || fraction >= 1) return head;
  const left = Math.round(((elapsed / fraction) * (1 - fraction)) / 1000);
  return `${head} · about ${left < 60 ? `${Math.max(1, left)} s` : `${Math.round(left / 60)} min`} left`;
}

/** At most one line in this many milliseconds: a terminal need not redraw for every file. */
export const PROGRESS_EVERY_MS = 200;

export interface ProgressCounter {
  /** One more of the total done, which was `work` of the work (bytes; none for one that cost nothing, as a cached file). */
  (work?: number): void;
  /** The work all of it comes to, once known: time left is then told from the work done since, not from the count. */
  expect(totalWork: number): void;
}

/**
 * Counts one more of `total` at each call, and says so through `say` at most every
 * PROGRESS_EVERY_MS (and at the last one). Does nothing without `say`.
 */
export function progressCounter(what: string, total: number, unit: string, say: ((line: string) => void) | undefined): ProgressCounter {
  let done = 0;
  let started = Date.now();
  let said = 0;
  let work: { total: number; done: number } | null = null;
  const tick = (cost = 1) => {
    done++;
    if (work) work.done += cost;
    if (!say) return;
    const now = Date.now();
    if (now - said < PROGRESS_EVERY_MS && done !== total) return;
    said = now;
    say(progressLine(what, done, total, unit, started, now, work ? work.done / work.total : done / total));
  };
  return Object.assign(tick, {
    expect(totalWork: number) {
      if (totalWork <= 0) return;
      work = { total: totalWork, done: 0 };
      started = Date.now();
    },
  });
}
