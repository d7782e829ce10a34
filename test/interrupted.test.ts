// Ctrl-C during a build, in the command as installed: the half-written report is dropped, the
// folder is as the last finished build left it, and the run says so rather than stop without a word.
// And output cut short, or a disk that fills: said in a sentence, or (a closed pipe) not at all.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemTrouble } from '../src/errors.js';
import { tempDir } from './support/fixtures.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'bough.js');
const built = existsSync(join(import.meta.dirname, '..', 'dist', 'cli.js'));

describe.skipIf(!built)('a build stopped with Ctrl-C', () => {
  it('regression: exited 130 without a word; now it says the report folder is as it was', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    // Enough to read for a while: one long session.
    const at = '2026-10-05T10:00:00.000Z';
    const lines = [JSON.stringify({ type: 'session', version: 3, id: 'long', timestamp: at, cwd: '/tmp/long' })];
    const text = 'x'.repeat(2000);
    for (let i = 0; i < 20_000; i++) lines.push(JSON.stringify({ type: 'message', id: `u${i}`, parentId: i === 0 ? null : `u${i - 1}`, timestamp: at, message: { role: 'user', content: `${i} ${text}` } }));
    await writeFile(join(input, 'long.jsonl'), `${lines.join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    const child = spawn(process.execPath, [BIN, 'build', input, '--out', out, '--no-cache'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Stopped once the build is writing its report (its staging folder is there).
    const staging = async () => (await readdir(dirname(out))).some((name) => name.startsWith('report.bough-tmp-'));
    for (let waited = 0; !(await staging()) && waited < 20_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('bough: stopped; the report folder is as the last finished build left it.');
    expect((await readdir(dirname(out))).filter((name) => name.startsWith('report'))).toEqual([]);
  }, 60_000);
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
  });
});
