// A page-writing thread: renders the pages of the sessions the main thread sends it, one at a
// time, and moves their HTML back (the main thread writes every file of the report).

import { workerData } from 'node:worker_threads';
import { serveTasks } from '../threads/serve.js';
import { pagesJob, type PagesSetup, type PagesTask, type PagesWritten } from './job.js';

export const PAGES_WORKER = new URL('./worker.js', import.meta.url);

if (workerData?.kind === 'pages') {
  const job = pagesJob(workerData.setup as PagesSetup);
  serveTasks<PagesTask, PagesWritten>(async (task) => {
    const result = await job(task);
    return { result, transfer: result.pages.map((p) => p.html.buffer as ArrayBuffer) };
  });
}
