// `npm run bench`: one table, measured in one run, over a generated corpus of every agent bough
// reads (by size share: Pi, Claude Code, Codex). Speed is checked here, never in a timed unit test.
//
//   npm run bench -- [--mb 200] [--long-mb 500] [--small 0] [--runs 3] [--keep DIR] [--json]
//
// Rows: the floor (a bare read + JSON.parse of every line, bench/floor.ts), the same line by line
// from bytes with and without long strings skipped (the most lean reading could gain), `bough stats --json`
// with and without its cache, a cold `bough build`, a rebuild with nothing changed and one after a
// session gained a turn, a build of one long session (--long-mb; 0 leaves it out), and, when
// ccusage is on PATH, ccusage and bough stats over the same agent's files; with --small N, a history
// of N small sessions (one file each): its floor, a cold build, and rebuilds as above. Each command runs in a
// fresh process; its peak RSS is read from /proc/<pid>/status (VmHWM) by this process. Every bough
// run gets an empty cache folder of its own, so "cold" holds whether or not the CLI caches yet.
// The machine is noisy: compare medians and ratios from one run of this script, not across runs.

import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { generateClaudeCorpus } from '../test/support/claude-corpus.js';
import { generateCodexCorpus } from '../test/support/codex-corpus.js';
import { generatePiCorpus } from '../test/support/pi-corpus.js';
import { writeLongPiSession } from './long-session.js';
import { writeSmallPiSessions } from './small-sessions.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BOUGH = join(ROOT, 'bin/bough.js');
const FLOOR = join(import.meta.dirname, 'floor.js');

/** Each agent's share of the corpus by size, and where its files go under the corpus folder. */
const AGENTS = [
  { agent: 'pi', share: 0.5, folder: 'pi' },
  { agent: 'claude', share: 0.3, folder: 'claude' },
  { agent: 'codex', share: 0.2, folder: 'codex' },
] as const;
type Agent = (typeof AGENTS)[number]['agent'];

/** Pi sessions of the benchmark's shape are about this large, copies included. */
const PI_SESSION_MB = 0.45;
const SEED = 42;

interface Options {
  mb: number;
  /** Size of the one long session built alone; 0 for none. */
  longMb: number;
  /** Sessions in the history of small ones; 0 for none. */
  small: number;
  runs: number;
  keep: string | null;
  json: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { mb: 200, longMb: 500, small: 0, runs: 3, keep: null, json: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--json') {
      options.json = true;
      continue;
    }
    if (flag === '--mb' && value) options.mb = Number(value);
    else if (flag === '--long-mb' && value) options.longMb = Number(value);
    else if (flag === '--small' && value) options.small = Number(value);
    else if (flag === '--runs' && value) options.runs = Number(value);
    else if (flag === '--keep' && value) options.keep = value;
    else continue;
    i++;
  }
  if (!(options.mb > 0) || !(options.runs >= 1) || !(options.longMb >= 0) || !Number.isInteger(options.small) || options.small < 0) {
    throw new Error('--mb wants a positive number, --long-mb zero or more, --small a whole number of sessions (0 for none) and --runs at least 1');
  }
  return options;
}

/** Size of the files under `dir`; only session files (*.jsonl) unless `all`. */
async function folderBytes(dir: string, all = false): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || (!all && !entry.name.endsWith('.jsonl'))) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}

/** About `mb` megabytes of one agent's sessions: long sessions with sizeable tool outputs. */
async function generate(agent: Agent, dir: string, mb: number): Promise<void> {
  const shape = { seed: SEED, payloadBytes: 2500 };
  switch (agent) {
    case 'pi':
      await generatePiCorpus(dir, { ...shape, sessions: Math.max(10, Math.round(mb / PI_SESSION_MB)), turns: [60, 140] });
      return;
    case 'claude':
      await generateClaudeCorpus(dir, { ...shape, size: { bytes: mb * 1e6 }, turns: [20, 60] });
      return;
    case 'codex':
      await generateCodexCorpus(dir, { ...shape, size: { bytes: mb * 1e6 }, turns: [10, 40] });
      return;
    default: {
      const unhandled: never = agent;
      throw new Error(`no generator for ${String(unhandled)}`);
    }
  }
}

interface Measure {
  seconds: number;
  peakMiB: number;
}

/** Runs a command in a fresh process: wall time and peak RSS. Its standard output is dropped. */
async function measure(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Measure> {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  let peakKb = 0;
  const poll = setInterval(async () => {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
  }, 50);
  const code: number = await new Promise((done) => child.on('exit', (c) => done(c ?? 1)));
  clearInterval(poll);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, peakMiB: peakKb / 1024 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Whether a bough command lists `flag` in its help (the cache may not exist yet). */
async function boughHas(command: string, flag: string): Promise<boolean> {
  const help: string = await new Promise((done, fail) => {
    let out = '';
    const child = spawn(process.execPath, [BOUGH, command, '--help'], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('exit', () => done(out));
  });
  return help.includes(flag);
}

async function onPath(name: string): Promise<string | null> {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}

/** One row of the table: how to run it once (`run` is the run's index, for fresh folders). */
interface Row {
  label: string;
  /** MB the command reads: the whole corpus, or one agent's part of it. */
  mb: number;
  run(run: number): Promise<Measure>;
  /** Compared with the floor over the same files. */
  floor: string;
}

interface Result {
  label: string;
  mb: number;
  seconds: number;
  mbPerSecond: number;
  peakMiB: number;
  timeToFloor: number;
  rssToFloor: number;
}

function table(results: readonly Result[]): string {
  const header = ['command', 'MB', 'median s', 'MB/s', 'peak RSS MiB', 'time × floor', 'RSS × floor'];
  const rows = results.map((r) => [r.label, r.mb.toFixed(1), r.seconds.toFixed(2), r.mbPerSecond.toFixed(1), r.peakMiB.toFixed(0), r.timeToFloor.toFixed(1), r.rssToFloor.toFixed(1)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const format = (cells: readonly string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  return [format(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(format)].join('\n');
}

/**
 * A build that ran but could not write a session's pages is not a build measured: say so and stop.
 * (A 500 MB session's page once failed this way, and its time looked good.)
 */
async function assertPagesWritten(out: string): Promise<void> {
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { diagnostics: { byReason: Record<string, number>; items: { file: string; detail: string; reason: string }[] } };
  const failed = summary.diagnostics.byReason['page-failed'] ?? 0;
  if (failed > 0) {
    const first = summary.diagnostics.items.find((item) => item.reason === 'page-failed');
    throw new Error(`the build in ${out} could not write the pages of ${failed} session(s)${first ? `: ${first.file}: ${first.detail}` : ''}`);
  }
}

/** Appends a prompt to the first Pi session: the change a rebuild after one more turn sees. */
async function addTurn(folder: string, run: number): Promise<void> {
  const name = (await readdir(folder, { recursive: true })).filter((f) => f.endsWith('.jsonl')).sort()[0];
  if (!name) return;
  const path = join(folder, name);
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1) ?? '{}') as { id?: unknown };
  const parentId = typeof last.id === 'string' ? last.id : null;
  const record = { type: 'message', id: `bench${run}x${Date.now() % 100000}`, parentId, timestamp: new Date().toISOString(), message: { role: 'user', content: `one more turn ${run}` } };
  await appendFile(path, `${JSON.stringify(record)}\n`);
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const work = options.keep ?? (await mkdtemp(join(tmpdir(), 'bough-bench-')));
  const input = join(work, 'sessions');
  const part = (agent: Agent) => join(input, AGENTS.find((a) => a.agent === agent)?.folder ?? agent);
  for (const { agent, share } of AGENTS) {
    const { bytes: existing } = await folderBytes(part(agent)).catch(() => ({ bytes: 0, files: 0 }));
    if (existing > 0) continue;
    process.stderr.write(`generating ~${(options.mb * share).toFixed(0)} MB of ${agent} sessions in ${part(agent)}\n`);
    await generate(agent, part(agent), options.mb * share);
  }
  const corpus = await folderBytes(input);
  const corpusMb = corpus.bytes / 1e6;
  const partMb = async (agent: Agent) => (await folderBytes(part(agent))).bytes / 1e6;

  const noCache = { stats: await boughHas('stats', '--no-cache'), build: await boughHas('build', '--no-cache') };
  /** An empty cache folder per bough run: a cold run even where the CLI has no --no-cache yet. */
  const coldEnv = async (name: string): Promise<NodeJS.ProcessEnv> => {
    const cache = join(work, 'cache', name);
    await rm(cache, { recursive: true, force: true });
    await mkdir(cache, { recursive: true });
    return { ...process.env, BOUGH_CACHE_DIR: cache, XDG_CACHE_HOME: cache };
  };
  const bough = (args: string[], name: string) => async () => measure(process.execPath, [BOUGH, ...args], await coldEnv(name));
  const rows: Row[] = [
    { label: 'floor: read + JSON.parse', mb: corpusMb, floor: input, run: () => measure(process.execPath, [FLOOR, input]) },
    // The floor line by line from bytes (as bough reads), and the same with every long string cut
    // out before parsing: the most lean reading could gain.
    { label: 'floor, line by line from bytes', mb: corpusMb, floor: input, run: () => measure(process.execPath, [FLOOR, input, '--bytes']) },
    { label: 'floor, line by line, strings of 1 kB+ skipped', mb: corpusMb, floor: input, run: () => measure(process.execPath, [FLOOR, input, '--lean']) },
    {
      label: noCache.stats ? 'bough stats --json --no-cache' : 'bough stats --json (no --no-cache flag yet)',
      mb: corpusMb,
      floor: input,
      run: bough(['stats', input, '--json', '--by', 'session', '--tz', 'UTC', ...(noCache.stats ? ['--no-cache'] : [])], 'stats'),
    },
    {
      label: 'bough build, cold',
      mb: corpusMb,
      floor: input,
      run: async (run) => {
        const out = join(work, `report-${run}`);
        await rm(out, { recursive: true, force: true });
        const measured = await bough(['build', input, '--out', out, '--quiet', '--tz', 'UTC', ...(noCache.build ? ['--no-cache'] : [])], 'build')();
        await assertPagesWritten(out);
        return measured;
      },
    },
  ];
  // Warm rows: one cache folder and one report folder kept across runs, primed once before measuring.
  const warmEnv: NodeJS.ProcessEnv = { ...process.env, BOUGH_CACHE_DIR: join(work, 'cache', 'warm'), XDG_CACHE_HOME: join(work, 'cache', 'warm') };
  const warmOut = join(work, 'report-warm');
  const warmStats = ['stats', input, '--json', '--by', 'session', '--tz', 'UTC'];
  const warmBuild = ['build', input, '--out', warmOut, '--quiet', '--tz', 'UTC'];
  if (noCache.stats) {
    await rm(join(work, 'cache', 'warm'), { recursive: true, force: true });
    await rm(warmOut, { recursive: true, force: true });
    process.stderr.write('priming the warm cache and report folder\n');
    await measure(process.execPath, [BOUGH, ...warmStats], warmEnv);
    await measure(process.execPath, [BOUGH, ...warmBuild], warmEnv);
    await assertPagesWritten(warmOut);
    rows.push(
      { label: 'bough stats --json, warm cache', mb: corpusMb, floor: input, run: () => measure(process.execPath, [BOUGH, ...warmStats], warmEnv) },
      { label: 'bough build, rebuild, nothing changed', mb: corpusMb, floor: input, run: () => measure(process.execPath, [BOUGH, ...warmBuild], warmEnv) },
      {
        label: 'bough build, rebuild, one session + a turn',
        mb: corpusMb,
        floor: input,
        run: async (run) => {
          await addTurn(part('pi'), run);
          return measure(process.execPath, [BOUGH, ...warmBuild], warmEnv);
        },
      },
    );
  }
  const floors = new Map<string, Row>([[input, rows[0] as Row]]);
  const ccusage = await onPath('ccusage');
  if (ccusage) {
    for (const agent of ['pi', 'claude'] as const) {
      const folder = part(agent);
      const floor: Row = { label: `floor: ${agent} files only`, mb: await partMb(agent), floor: folder, run: () => measure(process.execPath, [FLOOR, folder]) };
      floors.set(folder, floor);
      rows.push(floor);
      // ccusage is told the Pi sessions folder by --pi-path; it finds Claude Code's projects/ under CLAUDE_CONFIG_DIR.
      const env = agent === 'claude' ? { ...process.env, CLAUDE_CONFIG_DIR: folder } : process.env;
      const args = [agent, 'session', '--offline', '--json', ...(agent === 'pi' ? ['--pi-path', folder] : [])];
      rows.push({ label: `ccusage ${agent} session --offline --json`, mb: floor.mb, floor: folder, run: () => measure(ccusage, args, env) });
      rows.push({
        label: `bough stats --json --no-cache, ${agent} files only`,
        mb: floor.mb,
        floor: folder,
        run: bough(['stats', folder, '--json', '--by', 'session', '--tz', 'UTC', '--no-cache'], 'stats'),
      });
    }
  }
  if (options.longMb > 0) {
    const folder = join(work, 'long');
    const file = join(folder, '--home-ana-src-long-haul--', '2026-11-02T09-00-00-000Z_01b00000-0000-7000-8000-000000000500.jsonl');
    if ((await folderBytes(folder).catch(() => ({ bytes: 0, files: 0 }))).bytes === 0) {
      process.stderr.write(`generating one ${options.longMb} MB Pi session in ${folder}\n`);
      await writeLongPiSession(file, options.longMb * 1e6);
    }
    const mb = (await folderBytes(folder)).bytes / 1e6;
    const floor: Row = { label: 'floor: the long session', mb, floor: folder, run: () => measure(process.execPath, [FLOOR, folder]) };
    floors.set(folder, floor);
    rows.push(floor, {
      label: `bough build, one ${Math.round(mb)} MB session`,
      mb,
      floor: folder,
      run: async (run) => {
        const out = join(work, `report-long-${run}`);
        await rm(out, { recursive: true, force: true });
        const measured = await bough(['build', folder, '--out', out, '--quiet', '--tz', 'UTC', '--no-cache'], 'long')();
        await assertPagesWritten(out);
        await rm(out, { recursive: true, force: true });
        return measured;
      },
    });
  }

  if (options.small > 0) {
    const folder = join(work, `small-${options.small}`);
    if ((await folderBytes(folder).catch(() => ({ bytes: 0, files: 0 }))).files !== options.small) {
      await rm(folder, { recursive: true, force: true });
      process.stderr.write(`generating ${options.small} small Pi sessions in ${folder}\n`);
      await writeSmallPiSessions(folder, options.small);
    }
    const mb = (await folderBytes(folder)).bytes / 1e6;
    const floor: Row = { label: `floor: ${options.small} small sessions`, mb, floor: folder, run: () => measure(process.execPath, [FLOOR, folder]) };
    floors.set(folder, floor);
    const smallEnv: NodeJS.ProcessEnv = { ...process.env, BOUGH_CACHE_DIR: join(work, 'cache', 'small'), XDG_CACHE_HOME: join(work, 'cache', 'small') };
    const smallOut = join(work, 'report-small');
    const smallBuild = ['build', folder, '--out', smallOut, '--quiet', '--tz', 'UTC'];
    rows.push(
      floor,
      {
        label: `bough build, cold, ${options.small} small sessions`,
        mb,
        floor: folder,
        run: async (run) => {
          const out = join(work, `report-small-cold-${run}`);
          await rm(out, { recursive: true, force: true });
          const measured = await bough(['build', folder, '--out', out, '--quiet', '--tz', 'UTC', '--no-cache'], 'small-cold')();
          await assertPagesWritten(out);
          await rm(out, { recursive: true, force: true });
          // Primes the warm rows' cache and report the first time round.
          if (run === 0) await measure(process.execPath, [BOUGH, ...smallBuild], smallEnv);
          return measured;
        },
      },
      { label: `bough build, rebuild, nothing changed, ${options.small} small sessions`, mb, floor: folder, run: () => measure(process.execPath, [BOUGH, ...smallBuild], smallEnv) },
      {
        label: `bough build, rebuild, one session + a turn, ${options.small} small sessions`,
        mb,
        floor: folder,
        run: async (run) => {
          await addTurn(folder, run);
          return measure(process.execPath, [BOUGH, ...smallBuild], smallEnv);
        },
      },
    );
  }

  // Runs alternate between the commands, so a slow spell of the machine hits all alike.
  const measures = rows.map(() => [] as Measure[]);
  for (let run = 0; run < options.runs; run++) {
    const said: string[] = [];
    for (const [i, row] of rows.entries()) {
      const m = await row.run(run);
      measures[i]?.push(m);
      said.push(`${row.label} ${m.seconds.toFixed(2)} s ${m.peakMiB.toFixed(0)} MiB`);
    }
    process.stderr.write(`run ${run + 1}/${options.runs}: ${said.join('; ')}\n`);
  }
  const medians = rows.map((row, i) => ({ row, seconds: median((measures[i] ?? []).map((m) => m.seconds)), peakMiB: median((measures[i] ?? []).map((m) => m.peakMiB)) }));
  const floorOf = (row: Row) => medians.find((m) => m.row === floors.get(row.floor)) ?? medians[0];
  const results: Result[] = medians.map(({ row, seconds, peakMiB }) => {
    const floor = floorOf(row);
    return {
      label: row.label,
      mb: row.mb,
      seconds,
      mbPerSecond: row.mb / seconds,
      peakMiB,
      timeToFloor: floor ? seconds / floor.seconds : Number.NaN,
      rssToFloor: floor ? peakMiB / floor.peakMiB : Number.NaN,
    };
  });

  const shares = await Promise.all(AGENTS.map(async ({ agent }) => `${agent} ${(await partMb(agent)).toFixed(1)} MB`));
  const report = await folderBytes(join(work, 'report-0'), true).catch(() => ({ bytes: 0, files: 0 }));
  if (options.json) {
    console.log(JSON.stringify({ corpus: { files: corpus.files, mb: Number(corpusMb.toFixed(1)), shares }, report, runs: options.runs, noCache, ccusage, results }, null, 2));
  } else {
    console.log(`corpus: ${corpus.files} files, ${corpusMb.toFixed(1)} MB (${shares.join(', ')}); median of ${options.runs} run(s); node ${process.version}`);
    console.log(table(results));
    if (!ccusage) console.log('ccusage: not found on PATH, so not measured (install it to compare: ccusage pi/claude session --offline --json).');
    console.log(`report folder written by the build: ${report.files} files, ${(report.bytes / 1e6).toFixed(1)} MB.`);
  }
  if (!options.keep) await rm(work, { recursive: true, force: true });
}

await main();
