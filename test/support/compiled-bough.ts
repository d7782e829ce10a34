// The installed command, run as a process of its own: the compiled code (`npm ci` compiles it
// through the prepare script), with reading and page threads, where the tests' own imports run
// the TypeScript sources in one thread.

import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from './fixtures.js';

const BOUGH = join(PROJECT_ROOT, 'bin', 'bough.js');

/** Fails with what to do when bough has not been compiled. */
export async function requireCompiledBough(): Promise<void> {
  await access(join(PROJECT_ROOT, 'dist', 'reading', 'worker.js')).catch(() => {
    throw new Error('bough is not compiled: run `npm ci` (or `npm run build`) before the tests');
  });
}

/** Runs `bough args` with no home to look in, in UTC, with `env` added; its exit code and output. */
export async function runCompiledBough(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BOUGH, ...args], {
    env: { PATH: process.env['PATH'], HOME: '/nonexistent', TZ: 'UTC', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code: number = await new Promise((done) => child.on('close', (c) => done(c ?? 1)));
  return { code, stdout, stderr };
}
