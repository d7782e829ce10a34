// A pool thread for the tests: doubles each number it is sent; exits on 13; on -1 grows until its heap is full; on 0 says its heap's limits.
import { parentPort, resourceLimits } from 'node:worker_threads';

parentPort.postMessage('ready');
parentPort.on('message', ({ id, task }) => {
  if (task === 13) process.exit(7);
  if (task === -1) {
    const held = [];
    for (;;) held.push(new Array(100_000).fill(held.length));
  }
  if (task === 0) {
    parentPort.postMessage({ id, result: resourceLimits });
    return;
  }
  if (task === 99) {
    parentPort.postMessage({ id, error: 'ninety-nine is refused' });
    return;
  }
  parentPort.postMessage({ id, result: task * 2 });
});
