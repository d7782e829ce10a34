// A reading thread: reads the files the main thread sends it into ledgers, one at a time, and
// sends back each ledger with the redactions it made.

import { workerData } from 'node:worker_threads';
import { NO_CACHE, openLedgerCache, type CachedOutcome, type LedgerCache } from '../cache/ledger-cache.js';
import { createSharer, type ShareOptions } from '../share/share.js';
import { serveTasks } from '../threads/serve.js';
import { readLedger } from './read-ledger.js';

export interface ReadSetup {
  share: ShareOptions | null;
  cache: LedgerCache['where'];
  /** The `--project` text to match against each file's folder before it is shared, or null. */
  projectFilter: string | null;
}

export interface ReadTask {
  path: string;
  identity: string | null;
  /** Its real path, when discovery resolved it: the identity is taken again by it after reading. */
  real?: string | undefined;
}

export interface ThreadReading {
  /** Its ledger's entries packed, as the main thread holds them: cloned as a few bytes, not as objects. */
  outcome: CachedOutcome;
  /** Replacements the thread's sharer made in this file, by kind. */
  redactions: [string, number][];
  projectMatch: boolean | null;
}

export const READ_WORKER = new URL('./worker.js', import.meta.url);

if (workerData?.kind === 'read') {
  const setup = workerData.setup as ReadSetup;
  const sharer = setup.share ? createSharer(setup.share) : null;
  const cache = setup.cache ? openLedgerCache(setup.cache.dir, setup.cache.codeStamp) : NO_CACHE;
  serveTasks<ReadTask, ThreadReading>(async (task) => {
    const before = new Map(sharer?.redactions ?? []);
    const { outcome, projectMatch } = await readLedger(task.path, task.identity, sharer, cache, false, task.real, setup.projectFilter);
    const redactions = [...(sharer?.redactions ?? [])].flatMap(([kind, n]): [string, number][] => (n > (before.get(kind) ?? 0) ? [[kind, n - (before.get(kind) ?? 0)]] : []));
    return { result: { outcome, redactions, projectMatch } };
  });
}
