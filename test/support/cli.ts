// Runs bough's command line in-process, as a user would from a shell: output captured, no
// terminal, an empty environment and home of its own, and a fixed clock.

import { main, type CliIo } from '../../src/cli.js';
import { tempDir } from './fixtures.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    home: await tempDir(),
    isTty: false,
    now: () => new Date('2026-12-01T00:00:00Z'),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
