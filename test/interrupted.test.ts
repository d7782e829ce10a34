// Ctrl-C during a build, in the command as installed: the half-written report is dropped, the
// folder is as the last finished build left it, and the run says so rather than stop without a word.
// And output cut short, or a disk that fills: said in a sentence, or (a closed pipe) not at all.

import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { constants } from 'node:os';
import { systemTrouble } from '../src/errors.js';
import { tempDir } from './support/fixtures.js';
import { runCli } from './support/cli.js';
import { mountedSmallDisk } from './support/small-disk.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'bough.js');
const built = existsSync(join(import.meta.dirname, '..', 'dist', 'cli.js'));

describe.skipIf(!built)('a build stopped with Ctrl-C', () => {
  const at = '2026-10-05T10:00:00.000Z';
  const session = (id: string, prompts: number, text: string) => {
    const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: at, cwd: `/tmp/${id}` })];
    for (let i = 0; i < prompts; i++) lines.push(JSON.stringify({ type: 'message', id: `u${i}`, parentId: i === 0 ? null : `u${i - 1}`, timestamp: at, message: { role: 'user', content: `${i} ${text}` } }));
    return `${lines.join('\n')}\n`;
  };
  /** Runs a build of `input` into `out` and stops it with Ctrl-C once it is writing its report (its staging folder is there). */
  async function interrupted(input: string, out: string): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [BIN, 'build', input, '--out', out, '--no-cache'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const staging = async () => (await readdir(dirname(out))).some((name) => name.startsWith('report.bough-tmp-'));
    for (let waited = 0; !(await staging()) && waited < 20_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    return { code: await exited, stderr };
  }

  // Regression: exited 130 without a word; then, stopping a first build, said the folder was as
  // "the last finished build" left it, where there was none.
  it('says the report folder is as the last build left it, or that no report was written', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    // Enough to read for a while: one long session.
    await writeFile(join(input, 'long.jsonl'), session('long', 20_000, 'x'.repeat(2000)));
    const out = join(await tempDir(), 'report');
    const first = await interrupted(input, out);
    expect(first.code).toBe(130);
    expect(first.stderr).toContain('bough: stopped; no report was written.');
    expect((await readdir(dirname(out))).filter((name) => name.startsWith('report'))).toEqual([]);

    const small = join(await tempDir(), 'small');
    await mkdir(small);
    await writeFile(join(small, 'short.jsonl'), session('short', 1, 'hello'));
    const earlier = spawnSync(process.execPath, [BIN, 'build', small, '--out', out, '--no-cache', '--quiet']);
    expect(earlier.status).toBe(0);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    const second = await interrupted(input, out);
    expect(second.code).toBe(130);
    expect(second.stderr).toContain('bough: stopped; the report folder is as the last finished build left it.');
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe(index);
  }, 90_000);
});

describe.skipIf(!built)('output cut short', () => {
  // Regression: `bough stats --json | head` ended in an "Unhandled 'error' event … EPIPE" stack trace.
  it('ends quietly, exit 0, when what reads its output stops reading', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const at = '2026-10-05T10:00:00.000Z';
    for (let i = 0; i < 400; i++) {
      const lines = [
        { type: 'session', version: 3, id: `s${i}`, timestamp: at, cwd: `/tmp/p${i}` },
        { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: `prompt ${i}` } },
      ];
      await writeFile(join(input, `s${i}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    }
    const child = spawn(process.execPath, [BIN, 'stats', input, '--by', 'session', '--json', '--no-cache', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // As `head -c 100` does: the first bytes, then the pipe is closed.
    child.stdout.once('data', () => child.stdout.destroy());
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  }, 60_000);
});

describe('a full disk', () => {
  // Regression: a report that ran out of space ended in "unexpected error: ENOSPC … This is a bug in bough".
  it('is said in a sentence that names the path and what to do, not as a bug', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/mnt/small/report/index.html' });
    expect(systemTrouble(full)).toBe(
      'could not write or read /mnt/small/report/index.html: no space is left on its device. Make room or fix that, then run again; what bough was writing is left as it was before this run.',
    );
    expect(systemTrouble(new TypeError('x is undefined'))).toBeNull();
    // Regression (a hostile look): a file size limit (ulimit -f) was "a bug in bough".
    expect(systemTrouble(Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG' }))).toMatch(/^could not write or read: a file would grow past the size this system allows \(ulimit -f\)\./);
    // Regression: a disk quota used up was "unknown error": Node names no code for it on Linux.
    const quota = -(constants.errno.EDQUOT as number);
    const overQuota = Object.assign(new Error(`Unknown system error ${quota}: Unknown system error ${quota}, write`), { code: `Unknown system error ${quota}`, errno: quota, path: '/home/ana/report/index.html' });
    expect(systemTrouble(overQuota)).toMatch(/^could not write or read \/home\/ana\/report\/index\.html: its disk quota is used up\./);
    // Nor when Node says "UNKNOWN", as it does for most writes (a hostile look).
    expect(systemTrouble(Object.assign(new Error('UNKNOWN: unknown error, write'), { code: 'UNKNOWN', errno: quota }))).toMatch(/^could not write or read: its disk quota is used up\./);
  });
});

describe('a disk that fills during a run', () => {
  const at = '2026-10-05T10:00:00.000Z';
  const session = (id: string, text: string) =>
    [
      { type: 'session', version: 3, id, timestamp: at, cwd: `/tmp/${id}` },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: text } },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join('');

  /** A session whose page is over a megabyte: forty tool outputs of 1,500 lines, each shown whole. */
  const longOutputs = () => {
    const lines: unknown[] = [
      { type: 'session', version: 3, id: 'long', timestamp: at, cwd: '/tmp/long' },
      { type: 'message', id: 'u0', parentId: null, timestamp: at, message: { role: 'user', content: 'read them all' } },
    ];
    const output = (i: number) => Array.from({ length: 1500 }, (_, j) => `line ${j} of file ${i}`).join('\n');
    for (let i = 0, parent = 'u0'; i < 40; i++, parent = `r${i - 1}`) {
      const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
      lines.push({ type: 'message', id: `a${i}`, parentId: parent, timestamp: at, message: { role: 'assistant', content: [{ type: 'toolCall', id: `c${i}`, name: 'bash', arguments: { command: `cat f${i}` } }], provider: 'anthropic', model: 'claude-opus-4-6', stopReason: 'toolUse', usage } });
      lines.push({ type: 'message', id: `r${i}`, parentId: `a${i}`, timestamp: at, message: { role: 'toolResult', toolCallId: `c${i}`, toolName: 'bash', content: [{ type: 'text', text: output(i) }], isError: false } });
    }
    return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  };

  // Regression: Node writes standard output to a file once, and dropped what the disk did not
  // take: `stats --json > stats.json` left 4 kB of JSON, exit 0, without a word.
  it.skipIf(!built)('fails `stats --json > file` in a sentence when the file could not take it all', async (context) => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    for (let i = 0; i < 300; i++) await writeFile(join(input, `s${i}.jsonl`), session(`s${i}`, `prompt ${i}`));
    const disk = await tempDir();
    const small = mountedSmallDisk(disk, 'size=32k');
    if (small === null) return context.skip('cannot mount a small file system here');
    try {
      const file = openSync(join(disk, 'stats.json'), 'w');
      const run = spawnSync(process.execPath, [BIN, 'stats', input, '--by', 'session', '--json', '--no-cache', '--quiet'], { stdio: ['ignore', file, 'pipe'] });
      closeSync(file);
      expect(run.status).toBe(1);
      expect(run.stderr.toString()).toBe('bough: could not write the output: no space is left on its device.\n');
    } finally {
      small.unmount();
    }
  }, 60_000);

  // Regression: a page the disk could not take was published as a page saying it could not be
  // written, exit 0, and kept so by every later build ("every page kept").
  it('fails the build, and leaves the last report as it was, when a page cannot be written for lack of room', async (context) => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    await writeFile(join(input, 'short.jsonl'), session('short', 'hello'));
    const disk = await tempDir();
    const small = mountedSmallDisk(disk, 'size=1m');
    if (small === null) return context.skip('cannot mount a small file system here');
    try {
      const out = join(disk, 'report');
      expect((await runCli(['build', input, '--out', out, '--no-cache', '--quiet'])).code).toBe(0);
      const index = await readFile(join(out, 'index.html'), 'utf8');
      await writeFile(join(input, 'long.jsonl'), longOutputs());
      const full = await runCli(['build', input, '--out', out, '--no-cache', '--quiet']);
      expect(full.code).toBe(1);
      expect(full.stderr).toMatch(/^bough: could not write or read .*: no space is left on its device\. Make room or fix that, then run again; what bough was writing is left as it was before this run\.\n$/);
      expect(await readFile(join(out, 'index.html'), 'utf8')).toBe(index);
      expect((await readdir(disk)).filter((name) => name !== 'report')).toEqual([]);
    } finally {
      small.unmount();
    }
  }, 60_000);
});

// Regression (a review of the command line): with HOME set empty, Node names "" the home, so the
// working folder was read as one (its .claude/projects) and bough's secret written into it.
describe.skipIf(!built)('an empty HOME', () => {
  it('is taken for none: the working folder is not read or written as the home', async () => {
    const work = await tempDir();
    await mkdir(join(work, '.claude', 'projects', '-x'), { recursive: true });
    await writeFile(join(work, '.claude', 'projects', '-x', 'a.jsonl'), '{"type":"user"}\n');
    const env = { ...process.env, HOME: '', XDG_CACHE_HOME: '', XDG_CONFIG_HOME: '', BOUGH_CACHE_DIR: join(await tempDir(), 'cache'), BOUGH_CONFIG_DIR: '' };
    const run = spawnSync(process.execPath, [BIN, 'build', '--redact', '--out', join(await tempDir(), 'report'), '--quiet'], { cwd: work, env });
    expect(run.stderr.toString()).not.toContain('.claude/projects (1 file)');
    expect((await readdir(work)).sort()).toEqual(['.claude']);
  });
});
