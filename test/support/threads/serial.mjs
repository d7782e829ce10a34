// A pool thread served by bough's own serveTasks (compiled): each task waits a little and
// answers how many tasks were under way at once while it ran, and which thread ran it.
import { setTimeout as sleep } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { serveTasks } from '../../../dist/threads/serve.js';

let active = 0;
serveTasks(async (task) => {
  active++;
  const most = active;
  await sleep(20);
  active--;
  return { result: { task, most, thread: threadId } };
});
