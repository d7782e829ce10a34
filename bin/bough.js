#!/usr/bin/env node
// The installed command: runs the compiled CLI (built by `npm ci` through the prepare script).
import { constants } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { main } from '../dist/cli.js';
import { removeUnfinishedReports } from '../dist/output/report-folder.js';
import { troubleWords } from '../dist/errors.js';

// V8 lets a heap grow to up to four times what it kept at its last full collection before the
// next one. bough's heaps keep what they must (every ledger in this thread, one session's content
// in each page thread) and make much garbage around it, so they grew far past it. At twice,
// measured on 2 cores in paired runs: a cold build of 100 MB of sessions peaks at 375 MB instead
// of 505 MB in the same time (medians of 5); of 1 GB, at 1.02 GB instead of 1.12 GB, 2% slower.
// Lower costs time where the heaps are large: at 1.6 times, 100 MB peaked at 345 MB in the same
// time but 1 GB took 13% longer (the page threads collect far more often). V8 reads it at each
// collection: set here, it holds for every thread started after.
setFlagsFromString('--heap-growing-percent=100');

// Ctrl-C during a build: drop the half-written staging folder and the lock; the previous report
// stays as it was. The final swap into --out is synchronous, so this never runs in the middle of it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    // Said, so that an interrupted build is not taken for a finished one.
    const { removed, earlier } = removeUnfinishedReports();
    if (removed > 0) process.stderr.write(`\nbough: stopped; ${earlier ? 'the report folder is as the last finished build left it' : 'no report was written'}.\n`);
    process.exit(128 + constants.signals[signal]);
  });
}

// Output piped into a program that stopped reading (`bough stats --json | head`): nothing more to
// say, and nothing wrong. Any other failure to write it (a full disk) is said in a sentence.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error?.code !== 'EPIPE' && stream === process.stdout) process.stderr.write(`bough: could not write the output: ${troubleWords(error) ?? error?.message ?? error}.\n`);
    removeUnfinishedReports();
    process.exit(error?.code === 'EPIPE' ? 0 : 1);
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
