// Worker threads for the parts of a run that split by file: reading files into ledgers, and
// writing sessions' pages. A thread works on one task at a time, so memory holds at most one
// session's content per thread, with the next task already posted to it; a thread that dies fails
// its task only and is replaced.

import { availableParallelism, totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';

/** How many threads, and from how much work on they pay for their start (each loads bough anew). */
export interface ThreadPlan {
  threads: number;
  /** Bytes of session files to read (or pages to write from) below which the work stays in this thread. */
  minBytes: number;
}

/** Below this much, starting threads costs more than it saves. */
const MIN_BYTES_FOR_THREADS = 16 * 1024 * 1024;

/**
 * How many threads beside the main thread when $BOUGH_THREADS does not say, whatever the cores:
 * each costs memory of its own that no history makes smaller (its own heap and copy of bough's
 * code, and one session's content). Measured on a cold build of 300 MB of generated sessions:
 * 283–296 MiB with one thread, 299–302 MiB with two or three reading and one writing pages, 412
 * MiB with three of each, 685 MiB with seven (an 8-core machine's "one per core but one"). Not
 * fewer: the main thread works too, and one thread beside it costs little (the main thread only
 * handing work out to two peaked higher, 330 MB, in the same time).
 */
const DEFAULT_THREADS = 1;

/**
 * `$BOUGH_THREADS` when set (0: the main thread alone; more: that many, for any amount of work:
 * faster on a machine with cores and memory to spare), else DEFAULT_THREADS, or none on one core.
 * Running from TypeScript sources (the tests) there are no compiled thread scripts: none.
 */
export function threadPlan(env: Readonly<Record<string, string | undefined>>, cores = availableParallelism(), compiled = import.meta.url.endsWith('.js')): ThreadPlan {
  if (!compiled) return { threads: 0, minBytes: 0 };
  const asked = askedThreads(env);
  if (asked !== null) return { threads: Math.min(asked, MAX_THREADS), minBytes: 0 };
  return { threads: Math.min(DEFAULT_THREADS, cores - 1), minBytes: MIN_BYTES_FOR_THREADS };
}

/** Threads started at most, whatever `$BOUGH_THREADS` asks: each holds memory of its own. */
const MAX_THREADS = 64;

/** The threads `$BOUGH_THREADS` asks for: null when it is not set, or says no number of threads (then the default holds). */
function askedThreads(env: Readonly<Record<string, string | undefined>>): number | null {
  const asked = env['BOUGH_THREADS']?.trim();
  if (asked === undefined || asked === '' || !/^\d+$/.test(asked)) return null;
  return Number(asked);
}

/** Why `$BOUGH_THREADS` is not taken as it is, said to the user; null when it is not set or is taken. */
export function threadsSettingProblem(env: Readonly<Record<string, string | undefined>>): string | null {
  const asked = env['BOUGH_THREADS'];
  if (asked === undefined || asked.trim() === '') return null;
  const threads = askedThreads(env);
  if (threads === null) return `BOUGH_THREADS=${asked} is not a number of threads (0 or more): bough uses its default.`;
  return threads > MAX_THREADS ? `BOUGH_THREADS=${asked} is more threads than bough starts: it uses ${MAX_THREADS}.` : null;
}

/**
 * A session file this large is read, and its pages written, on a thread (when there may be
 * threads) with a heap of its own, sized by the machine's memory: a session too large for it
 * fails its own page, never the whole build, and one larger than the main thread's heap builds.
 */
export const BIG_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Threads to start beside the main thread (which works too) for `bytes` of work in `tasks`
 * tasks, `big` of them of big files: 0 when not worth it, but one for big files whenever the
 * plan allows threads.
 */
export function threadsFor(plan: ThreadPlan | undefined, bytes: number, tasks: number, big = 0): number {
  if (plan === undefined || plan.threads < 1) return 0;
  const forBig = Math.min(plan.threads, big);
  if (bytes < plan.minBytes) return forBig;
  return Math.max(forBig, Math.min(plan.threads, tasks - 1));
}

/** The old-generation heap a thread may grow to (MB): half the machine's memory, shared by the threads, at least V8's usual 4 GB. */
export function threadHeapMb(threads: number): number {
  return Math.max(4096, Math.floor(totalmem() / 1024 / 1024 / 2 / Math.max(1, threads)));
}

/**
 * A thread's young generation (MB), where what one file or page makes lives briefly: V8's usual
 * size lets each thread hold tens of MB of it between collections. Measured on 2 cores, a cold
 * build of 300 MB of generated sessions: 310 → 280 MB at its peak, in the same time. Not for a
 * pool with a big file to work on: beside one session's content of a GB or more, that is nothing,
 * and what its pages make, promoted early, made the old generation collect over all that content
 * again and again (a 500 MB session, paired: 131–147 s with it, 94–117 s without, the same peak).
 */
const THREAD_YOUNG_MB = 8;

export interface PoolOptions {
  /** The old generation each thread may grow to (MB). */
  heapMb?: number;
  /** A task is of a big file (BIG_FILE_BYTES or more). */
  big?: boolean;
}

/**
 * Tasks posted to a thread at once: it works on one and holds the next, so it never waits for the
 * main thread, which may be busy with a page of its own when the thread finishes. Callers give
 * each thread this many lanes.
 */
export const TASKS_PER_THREAD = 2;

export interface Pool<Task, Result> {
  run(task: Task): Promise<Result>;
  close(): Promise<void>;
}

/** What a thread sends back: the result, or the error's message and its system code (ENOSPC: a full disk is the build's, not the task's). */
export type Reply<Result> = { id: number; result: Result } | { id: number; error: string; code?: string };

/** What a thread's script sends once it has loaded. */
export const READY = 'ready';

/**
 * `script`: a module that calls serveTasks; `setup` is given to each thread once (cloned).
 * `here` runs a task in this thread: the work of a thread that could not start (its script
 * missing or broken) is done here instead, and no more threads are started. A thread that dies
 * after it started (out of memory on one huge session) fails its task only, and another takes
 * its place.
 */
export function openPool<Task, Result>(script: URL, threads: number, setup: unknown, here: (task: Task) => Promise<Result>, options: PoolOptions = {}): Pool<Task, Result> {
  const heapMb = options.heapMb ?? threadHeapMb(threads);
  const resourceLimits = options.big ? { maxOldGenerationSizeMb: heapMb } : { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: THREAD_YOUNG_MB };
  type Job = { id: number; task: Task; done: (r: Result) => void; fail: (e: Error) => void };
  let nextId = 0;
  const waiting: Job[] = [];
  /** Each thread's posted tasks, in the order it works on them: the first is under way. */
  const posted = new Map<Worker, Job[]>();
  const workers = new Set<Worker>();
  let closed = false;
  let broken = false;

  const runHere = (job: Job) => void here(job.task).then(job.done, job.fail);
  const dispatch = () => {
    // Every thread its first task before any its second: a thread with nothing to do never waits
    // while another holds two.
    for (let depth = 1; depth <= TASKS_PER_THREAD; depth++) {
      for (const [worker, jobs] of posted) {
        if (jobs.length >= depth || waiting.length === 0) continue;
        const job = waiting.shift() as Job;
        jobs.push(job);
        worker.postMessage({ id: job.id, task: job.task });
      }
    }
    if (workers.size === 0) for (const job of waiting.splice(0)) runHere(job);
  };
  const start = () => {
    let worker: Worker;
    try {
      worker = new Worker(script, { workerData: setup, resourceLimits });
    } catch {
      broken = true;
      return;
    }
    // Its script says it has loaded before anything else: a thread that dies before that never started.
    let started = false;
    workers.add(worker);
    const jobs: Job[] = [];
    posted.set(worker, jobs);
    worker.on('message', (reply: Reply<Result> | typeof READY) => {
      if (reply === READY) {
        started = true;
        return;
      }
      const at = jobs.findIndex((job) => job.id === reply.id);
      const [job] = at === -1 ? [] : jobs.splice(at, 1);
      if (job) {
        if ('error' in reply) job.fail(Object.assign(new Error(reply.error), reply.code === undefined ? {} : { code: reply.code }));
        else job.done(reply.result);
      }
      dispatch();
    });
    const lost = (error: Error) => {
      if (!workers.delete(worker)) return;
      posted.delete(worker);
      // The first posted task was under way; the others never started and go to another thread.
      const [current, ...unstarted] = jobs.splice(0);
      waiting.unshift(...unstarted);
      if (!started) {
        broken = true;
        if (current) runHere(current);
      } else {
        current?.fail(error);
        if (!closed && !broken) start();
      }
      dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the thread stopped (exit code ${code})`)));
  };
  for (let i = 0; i < threads; i++) start();
  return {
    run(task) {
      return new Promise((done, fail) => {
        waiting.push({ id: nextId++, task, done, fail });
        dispatch();
      });
    },
    async close() {
      closed = true;
      const all = [...workers];
      workers.clear();
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T, index: number) => Promise<void>): Promise<void> {
  await eachOnLanes(Array.from({ length: Math.max(1, limit) }, (_, i) => i), items, (_, item, index) => work(item, index));
}

/**
 * Runs `work` over `items`, each lane (the main thread's runner, a thread's) taking the next item
 * it `accepts` when it is free (every lane accepts every item unless told).
 */
export async function eachOnLanes<L, T>(
  lanes: readonly L[],
  items: readonly T[],
  work: (lane: L, item: T, index: number) => Promise<void>,
  accepts: (lane: L, item: T) => boolean = () => true,
): Promise<void> {
  const taken = new Array<boolean>(items.length).fill(false);
  let first = 0;
  const run = async (lane: L) => {
    for (;;) {
      while (first < items.length && taken[first]) first++;
      let index = first;
      while (index < items.length && (taken[index] || !accepts(lane, items[index] as T))) index++;
      if (index >= items.length) return;
      taken[index] = true;
      await work(lane, items[index] as T, index);
    }
  };
  await Promise.all(lanes.map(run));
  if (taken.includes(false)) throw new Error('an item no lane takes');
}
