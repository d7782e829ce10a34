// `npm run bench`: builds reports (and runs `stats --json`) over generated Pi corpora with the
// installed CLI and reports medians of wall time and peak memory. Speed is checked here, never
// in a timed unit test.
//
//   npm run bench -- [--mb 200] [--runs 3] [--keep DIR]
//
// Each run starts a fresh `node bin/bough.js build` process; its peak RSS is read from
// /proc/<pid>/status (VmHWM) by the measuring process. The machine is noisy: compare medians
// and ratios from one run of this script, not numbers across runs.

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generatePiCorpus } from '../test/support/pi-corpus.js';

const ROOT = resolve(import.meta.dirname, '../..');

interface Options {
  mb: number;
  runs: number;
  keep: string | null;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { mb: 200, runs: 3, keep: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--mb' && value) options.mb = Number(value);
    else if (flag === '--runs' && value) options.runs = Number(value);
    else if (flag === '--keep' && value) options.keep = value;
    else continue;
    i++;
  }
  return options;
}

async function folderBytes(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}

/** Generates about `mb` megabytes of sessions: long sessions with sizeable tool outputs. */
async function generate(dir: string, mb: number): Promise<void> {
  // A session of this shape is about 0.45 MB, copies included.
  const sessions = Math.max(10, Math.round(mb / 0.45));
  await generatePiCorpus(dir, { sessions, seed: 42, turns: [60, 140], payloadBytes: 2500 });
}

interface Measure {
  seconds: number;
  peakMb: number;
}

/** Runs `bough ARGS` in a fresh process: wall time and peak RSS. Its standard output is dropped. */
async function measure(args: string[]): Promise<Measure> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(ROOT, 'bin/bough.js'), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  let peakKb = 0;
  const poll = setInterval(async () => {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
  }, 50);
  const code: number = await new Promise((done) => child.on('exit', (c) => done(c ?? 1)));
  clearInterval(poll);
  if (code !== 0) throw new Error(`bough ${args[0]} exited ${code}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, peakMb: peakKb / 1024 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const work = options.keep ?? (await mkdtemp(join(tmpdir(), 'bough-bench-')));
  const input = join(work, 'sessions');
  const { bytes: existing } = await folderBytes(input).catch(() => ({ bytes: 0, files: 0 }));
  if (existing === 0) {
    process.stderr.write(`generating ~${options.mb} MB of Pi sessions in ${input}\n`);
    await generate(input, options.mb);
  }
  const corpus = await folderBytes(input);
  // Runs alternate between the commands, so a slow spell of the machine hits both alike.
  const builds: Measure[] = [];
  const stats: Measure[] = [];
  for (let run = 0; run < options.runs; run++) {
    const out = join(work, `report-${run}`);
    await rm(out, { recursive: true, force: true });
    builds.push(await measure(['build', input, '--out', out, '--quiet', '--tz', 'UTC']));
    stats.push(await measure(['stats', input, '--json', '--by', 'session', '--tz', 'UTC']));
    process.stderr.write(
      `run ${run + 1}: build ${builds.at(-1)?.seconds.toFixed(2)} s, peak ${builds.at(-1)?.peakMb.toFixed(0)} MB; stats ${stats.at(-1)?.seconds.toFixed(2)} s, peak ${stats.at(-1)?.peakMb.toFixed(0)} MB\n`,
    );
  }
  const report = await folderBytes(join(work, 'report-0'));
  const corpusMb = corpus.bytes / 1e6;
  const summary = (runs: Measure[]) => {
    const seconds = median(runs.map((r) => r.seconds));
    return { medianSeconds: Number(seconds.toFixed(2)), mbPerSecond: Number((corpusMb / seconds).toFixed(1)), medianPeakMb: Number(median(runs.map((r) => r.peakMb)).toFixed(0)) };
  };
  const build = summary(builds);
  const statsJson = summary(stats);
  console.log(
    JSON.stringify(
      {
        corpus: { files: corpus.files, mb: Number(corpusMb.toFixed(1)) },
        report: { files: report.files, mb: Number((report.bytes / 1e6).toFixed(1)) },
        runs: options.runs,
        build,
        statsJson,
        statsToBuild: Number((statsJson.medianSeconds / build.medianSeconds).toFixed(2)),
      },
      null,
      2,
    ),
  );
  if (!options.keep) await rm(work, { recursive: true, force: true });
}

await main();
