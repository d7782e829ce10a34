// The thread side of a pool: answers each task the main thread posts with the handler's result,
// or the error's message, one task after the other (the pool posts the next before the last is
// done). Results may name buffers to move rather than copy.

import { parentPort } from 'node:worker_threads';
import { messageOf, systemCode } from '../errors.js';
import { READY, type Reply } from './pool.js';

export function serveTasks<Task, Result>(handle: (task: Task) => Promise<{ result: Result; transfer?: ArrayBuffer[] }>): void {
  parentPort?.postMessage(READY);
  let previous = Promise.resolve();
  parentPort?.on('message', ({ id, task }: { id: number; task: Task }) => {
    previous = previous.then(async () => {
      try {
        const { result, transfer } = await handle(task);
        parentPort?.postMessage({ id, result } satisfies Reply<Result>, transfer ?? []);
      } catch (error) {
        const code = systemCode(error);
        parentPort?.postMessage({ id, error: messageOf(error), ...(code !== null ? { code } : {}) } satisfies Reply<Result>);
      }
    });
  });
}
