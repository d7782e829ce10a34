// A reading thread: reads the files the main thread sends it into ledgers, one at a time, and
// sends back each ledger with the redactions it made. Holds one session's content at a time.

import { parentPort, workerData } from 'node:worker_threads';
import { NO_CACHE, openLedgerCache } from '../cache/ledger-cache.js';
import { createSharer } from '../share/share.js';
import { messageOf, readLedger } from './read-ledger.js';
import type { ReadTask, ThreadSetup, TaskDone } from './pool.js';

const setup = workerData as ThreadSetup;
const sharer = setup.share ? createSharer(setup.share) : null;
const cache = setup.cache ? openLedgerCache(setup.cache.dir, setup.cache.codeStamp) : NO_CACHE;

parentPort?.on('message', async (task: ReadTask) => {
  let done: TaskDone;
  try {
    const before = new Map(sharer?.redactions ?? []);
    const { outcome } = await readLedger(task.path, task.identity, sharer, cache, false);
    const redactions = [...(sharer?.redactions ?? [])].flatMap(([kind, n]): [string, number][] => (n > (before.get(kind) ?? 0) ? [[kind, n - (before.get(kind) ?? 0)]] : []));
    done = { id: task.id, outcome, redactions };
  } catch (error) {
    done = { id: task.id, error: messageOf(error) };
  }
  parentPort?.postMessage(done);
});
