// Temporary folders for tests, removed once the test file's tests are done (cleanup.ts). Imports
// nothing of bough's: the cleanup runs before each test file, and a module of bough's loaded there
// would escape the file's vi.mock.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

export async function tempDir(prefix = 'bough-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
