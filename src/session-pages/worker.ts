// A page-writing thread: renders and writes the pages of the sessions the main thread sends it,
// one at a time, into the report's staging folder (the main thread adopts them).

import { workerData } from 'node:worker_threads';
import { serveTasks } from '../threads/serve.js';
import { pagesJob, type PagesSetup, type PagesTask, type PagesWritten } from './job.js';

export const PAGES_WORKER = new URL('./worker.js', import.meta.url);

if (workerData?.kind === 'pages') {
  const job = pagesJob(workerData.setup as PagesSetup);
  serveTasks<PagesTask, PagesWritten>(async (task) => {
    const result = await job(task);
    // The search rows are handed over, not copied.
    return { result, transfer: [result.rows.bytes.buffer as ArrayBuffer] };
  });
}
