#!/usr/bin/env node
// The installed command: runs the compiled CLI (built by `npm ci` through the prepare script).
import { constants } from 'node:os';
import { main } from '../dist/cli.js';
import { removeUnfinishedReports } from '../dist/output/report-folder.js';

// Ctrl-C during a build: drop the half-written staging folder and the lock; the previous report
// stays as it was. The final swap into --out is synchronous, so this never runs in the middle of it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    removeUnfinishedReports();
    process.exit(128 + constants.signals[signal]);
  });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Expected failures come back as an exit code with a sentence; anything else is a bough bug.
  removeUnfinishedReports();
  process.stderr.write(`bough: unexpected error: ${error?.message ?? error}. This is a bug in bough; please report it with the command you ran.\n`);
  if (process.env.BOUGH_DEBUG) process.stderr.write(`${error?.stack ?? ''}\n`);
  process.exitCode = 1;
}
