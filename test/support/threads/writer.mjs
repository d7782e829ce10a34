// A page-writing thread for the tests: writes pages into a staging folder (bough's own compiled
// writeStagedFile), eight at a time, until a write fails; says when 2,000 are written, and how it
// stopped.
import { parentPort, workerData } from 'node:worker_threads';
import { writeStagedFile } from '../../../dist/output/report-folder.js';

let written = 0;
const lane = async (n) => {
  for (let i = n; ; i += 8) {
    await writeStagedFile(workerData.staging, `sessions/p${i % 16}/page-${i}.html`, 'x'.repeat(1000));
    if (++written === 2000) parentPort.postMessage('writing');
  }
};
try {
  await Promise.all(Array.from({ length: 8 }, (_, n) => lane(n)));
} catch (error) {
  parentPort.postMessage({ written, error: error.code ?? error.message });
}
