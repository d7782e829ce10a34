// A pool thread for the tests: doubles each number it is sent; dies on 13 (as a thread out of memory would).
import { parentPort } from 'node:worker_threads';

parentPort.postMessage('ready');
parentPort.on('message', ({ id, task }) => {
  if (task === 13) process.exit(7);
  if (task === 99) {
    parentPort.postMessage({ id, error: 'ninety-nine is refused' });
    return;
  }
  parentPort.postMessage({ id, result: task * 2 });
});
