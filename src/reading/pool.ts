// Reading threads: files are read into ledgers across the machine's cores. Each thread takes one
// file at a time, so memory holds at most one session's content per thread; the main thread only
// hands out paths and gathers ledgers (small plain data, cloned across).

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CachedOutcome, LedgerCache } from '../cache/ledger-cache.js';
import type { ShareOptions } from '../share/share.js';

export interface ThreadSetup {
  share: ShareOptions | null;
  cache: LedgerCache['where'];
}

export interface ReadTask {
  id: number;
  path: string;
  identity: string | null;
}

export type TaskDone = { id: number; outcome: CachedOutcome; redactions: [string, number][] } | { id: number; error: string };

export interface ThreadReading {
  outcome: CachedOutcome;
  /** Replacements the thread's sharer made in this file, by kind. */
  redactions: [string, number][];
}

export interface ReadPool {
  read(path: string, identity: string | null): Promise<ThreadReading>;
  close(): Promise<void>;
}

const WORKER_SCRIPT = new URL('./worker.js', import.meta.url);

/** How many reading threads, and from how much to read on they pay for their start. */
export interface ThreadPlan {
  threads: number;
  minBytes: number;
}

/** Below this much to read, starting threads (each loads bough anew) costs more than it saves. */
const MIN_BYTES_FOR_THREADS = 16 * 1024 * 1024;

/**
 * Threads to read with: `$BOUGH_THREADS` when set (0 or 1 reads in the main thread; any amount
 * to read then goes to them), else one per core but one. V8 collects garbage on helper threads,
 * so a lone reading thread already keeps about one and a half cores busy; on two cores, measured,
 * two reading threads were slower than none. Running from TypeScript sources (the tests) there is
 * no compiled thread script: none.
 */
export function readThreads(env: Readonly<Record<string, string | undefined>>): ThreadPlan {
  if (!import.meta.url.endsWith('.js')) return { threads: 0, minBytes: 0 };
  const asked = env['BOUGH_THREADS'];
  if (asked !== undefined && asked.trim() !== '') {
    const n = Number(asked);
    return { threads: Number.isInteger(n) && n >= 0 ? Math.min(n, 64) : 0, minBytes: 0 };
  }
  return { threads: availableParallelism() - 1, minBytes: MIN_BYTES_FOR_THREADS };
}

export function openReadPool(threads: number, setup: ThreadSetup): ReadPool {
  let nextId = 0;
  const waiting: { task: ReadTask; done: (r: ThreadReading) => void; fail: (e: Error) => void }[] = [];
  const running = new Map<Worker, (typeof waiting)[number]>();
  const idle: Worker[] = [];
  const workers = new Set<Worker>();
  let closed = false;

  const dispatch = () => {
    while (idle.length > 0 && waiting.length > 0) {
      const worker = idle.pop() as Worker;
      const job = waiting.shift() as (typeof waiting)[number];
      running.set(worker, job);
      worker.postMessage(job.task);
    }
  };
  const start = () => {
    const worker = new Worker(WORKER_SCRIPT, { workerData: setup });
    workers.add(worker);
    worker.on('message', (message: TaskDone) => {
      const job = running.get(worker);
      running.delete(worker);
      idle.push(worker);
      if (job) {
        if ('error' in message) job.fail(new Error(message.error));
        else job.done({ outcome: message.outcome, redactions: message.redactions });
      }
      dispatch();
    });
    // A thread that dies (out of memory on one huge file) fails its file only; another takes its place.
    const lost = (error: Error) => {
      if (!workers.delete(worker)) return;
      const job = running.get(worker);
      running.delete(worker);
      job?.fail(error);
      const at = idle.indexOf(worker);
      if (at !== -1) idle.splice(at, 1);
      if (!closed) start();
      dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the reading thread stopped (exit code ${code})`)));
    idle.push(worker);
  };
  for (let i = 0; i < threads; i++) start();
  return {
    read(path, identity) {
      return new Promise((done, fail) => {
        waiting.push({ task: { id: nextId++, path, identity }, done, fail });
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
