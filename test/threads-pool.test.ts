// The pool of threads behind reading and page writing: results come back for their tasks, a
// thread that dies fails its own task only, and a thread that cannot start leaves its work to
// the main thread.

import { describe, expect, it } from 'vitest';
import { eachOnLanes, openPool } from '../src/threads/pool.js';

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

  it('fails the task of a thread that dies, and carries on with another thread', async () => {
    const pool = openPool<number, number>(script('double'), 1, null, here);
    try {
      const results = await Promise.allSettled([1, 13, 3, 4].map((n) => pool.run(n)));
      expect(results[1]?.status).toBe('rejected');
      expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([2, 6, 8]);
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
});
