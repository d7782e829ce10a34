// The pool of threads behind reading and page writing: results come back for their tasks, a
// thread that dies fails its own task only, and a thread that cannot start leaves its work to
// the main thread.

import { describe, expect, it } from 'vitest';
import { BIG_FILE_BYTES, eachOnLanes, openPool, threadPlan, threadsFor, threadsSettingProblem } from '../src/threads/pool.js';

const script = (name: string) => new URL(`./support/threads/${name}.mjs`, import.meta.url);
const here = async (task: number) => -task;

describe('the thread pool', () => {
  it('answers each task from a thread, and an error thrown there fails that task only', async () => {
    const pool = openPool<number, number>(script('double'), 2, null, here);
    try {
      const results = await Promise.allSettled([1, 2, 99, 4, 5].map((n) => pool.run(n)));
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 4, 'ninety-nine is refused', 8, 10]);
    } finally {
      await pool.close();
    }
  });

  it('a thread works on one task at a time, though the next is posted to it before the last is done', async () => {
    const pool = openPool<number, { task: number; most: number }>(new URL('./support/threads/serial.mjs', import.meta.url), 1, null, async (task) => ({ task, most: 0 }));
    try {
      const results = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => pool.run(n)));
      expect(results.map(({ task, most }) => ({ task, most }))).toEqual([1, 2, 3, 4, 5, 6].map((task) => ({ task, most: 1 })));
    } finally {
      await pool.close();
    }
  });

  it('gives every thread a task before any thread a second', async () => {
    const pool = openPool<number, { task: number; most: number; thread: number }>(new URL('./support/threads/serial.mjs', import.meta.url), 2, null, async (task) => ({ task, most: 0, thread: -1 }));
    try {
      // Two tasks for two threads: one each, at the same time, not both queued on the first.
      const results = await Promise.all([1, 2].map((n) => pool.run(n)));
      expect(new Set(results.map((r) => r.thread)).size).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('fails the task of a thread that dies, and carries on with another thread', async () => {
    // 13 and 3 are posted to the thread together: 3, not yet begun when it dies, goes to the next thread.
    const pool = openPool<number, number>(script('double'), 1, null, here);
    try {
      const results = await Promise.allSettled([1, 13, 3, 4].map((n) => pool.run(n)));
      expect(results[1]?.status).toBe('rejected');
      expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([2, 6, 8]);
    } finally {
      await pool.close();
    }
  });

  it('gives its threads a small young generation, unless a task is of a big file', async () => {
    const limits = async (big: boolean) => {
      const pool = openPool<number, { maxYoungGenerationSizeMb: number; maxOldGenerationSizeMb: number }>(script('double'), 1, null, async () => ({ maxYoungGenerationSizeMb: -1, maxOldGenerationSizeMb: -1 }), { heapMb: 512, big });
      try {
        return await pool.run(0);
      } finally {
        await pool.close();
      }
    };
    const small = await limits(false);
    const big = await limits(true);
    expect(small.maxOldGenerationSizeMb).toBe(512);
    expect(big.maxOldGenerationSizeMb).toBe(512);
    expect(small.maxYoungGenerationSizeMb).toBeLessThanOrEqual(8);
    expect(big.maxYoungGenerationSizeMb).toBeGreaterThan(8);
  });

  it('fails only the task of a thread that runs out of its heap', async () => {
    const pool = openPool<number, number>(script('double'), 1, null, here, { heapMb: 64 });
    try {
      const results = await Promise.allSettled([1, -1, 3].map((n) => pool.run(n)));
      expect(results[1]?.status).toBe('rejected');
      expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/memory/i);
      expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([2, 6]);
    } finally {
      await pool.close();
    }
  });

  it('does in this thread the work of threads that cannot start', async () => {
    const pool = openPool<number, number>(script('broken'), 2, null, here);
    try {
      const results: number[] = [];
      await eachOnLanes([0, 1, 2], [1, 2, 3, 4, 5, 6], async (_, n) => void results.push(await pool.run(n)));
      expect(results.sort((a, b) => a - b)).toEqual([-6, -5, -4, -3, -2, -1]);
    } finally {
      await pool.close();
    }
  });

  it('gives a lane only the items it takes, and every item to some lane', async () => {
    const seen: [string, number][] = [];
    await eachOnLanes(['here', 'thread'], [5, 100, 6, 200, 7], async (lane, n) => void seen.push([lane, n]), (lane, n) => lane === 'thread' || n < 50);
    expect(seen.map(([, n]) => n).sort((a, b) => a - b)).toEqual([5, 6, 7, 100, 200]);
    expect(seen.filter(([lane, n]) => lane === 'here' && n >= 50)).toEqual([]);
    // regression: one big item and the main lane first: the item was left undone.
    const one: string[] = [];
    await eachOnLanes(['here', 'thread'], [100], async (lane) => void one.push(lane), (lane, n) => lane === 'thread' || n < 50);
    expect(one).toEqual(['thread']);
  });

  it('starts a thread for a big file whenever threads are allowed, however little there is to do', () => {
    const plan = { threads: 1, minBytes: 16 * 1024 * 1024 };
    expect(threadsFor(plan, 1000, 3)).toBe(0);
    expect(threadsFor(plan, BIG_FILE_BYTES, 1, 1)).toBe(1);
    expect(threadsFor({ ...plan, threads: 0, minBytes: 0 }, BIG_FILE_BYTES, 1, 1)).toBe(0);
    expect(threadsFor({ ...plan, threads: 3, minBytes: 0 }, 100, 2)).toBe(1);
  });

  it('starts threads for much work, never more than there are tasks beside the main thread\'s, none for little', () => {
    const plan = { threads: 3, minBytes: 16 * 1024 * 1024 };
    expect(threadsFor(plan, 100 * 1024 * 1024, 50)).toBe(3);
    // Little to write after a rebuild: no thread, whatever the history.
    expect(threadsFor(plan, 1000, 2)).toBe(0);
    expect(threadsFor(plan, 100 * 1024 * 1024, 3)).toBe(2);
    expect(threadsFor({ ...plan, threads: 0 }, 100 * 1024 * 1024, 50)).toBe(0);
  });

  // Regression: "one per core but one" started seven threads on an 8-core machine, and a cold
  // build of 300 MB of sessions peaked at 685 MiB instead of under 300 (each thread holds its own heap).
  it('plans one thread beside the main thread whatever the cores, none on one core, and what $BOUGH_THREADS says', () => {
    expect(threadPlan({}, 8, true).threads).toBe(1);
    expect(threadPlan({}, 64, true).threads).toBe(1);
    expect(threadPlan({}, 2, true).threads).toBe(1);
    expect(threadPlan({}, 1, true).threads).toBe(0);
    expect(threadPlan({ BOUGH_THREADS: '7' }, 2, true).threads).toBe(7);
    expect(threadPlan({ BOUGH_THREADS: '0' }, 8, true).threads).toBe(0);
    // Regression (a README audit): a value that is no number of threads was taken as 0, without a
    // word: no thread, not even for a big file. Now the default holds, and the CLI says why.
    for (const value of ['many', '-1', '1.5']) {
      expect(threadPlan({ BOUGH_THREADS: value }, 8, true).threads).toBe(1);
      expect(threadsSettingProblem({ BOUGH_THREADS: value })).toBe(`BOUGH_THREADS=${value} is not a number of threads (0 or more): bough uses its default.`);
    }
    expect(threadsSettingProblem({ BOUGH_THREADS: '3' })).toBeNull();
    expect(threadsSettingProblem({ BOUGH_THREADS: '100' })).toBe('BOUGH_THREADS=100 is more threads than bough starts: it uses 64.');
    expect(threadsSettingProblem({})).toBeNull();
    // Running from the TypeScript sources there are no thread scripts to start.
    expect(threadPlan({ BOUGH_THREADS: '4' }, 8, false).threads).toBe(0);
  });
});
