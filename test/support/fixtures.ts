// Shared helpers for tests: where fixtures live, and reading them through bough's own reader.

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readAll } from '../../src/build.js';
import { buildArchive, type Archive } from '../../src/model/archive.js';
import { readSessionFile } from '../../src/sources/read.js';
import type { SessionFile } from '../../src/types.js';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
export const FIXTURES = join(PROJECT_ROOT, 'fixtures');
export const SHARED_CORPUS = resolve(PROJECT_ROOT, '../shared/corpus');

export function piFixture(name: string): string {
  return join(FIXTURES, 'pi', name);
}

export async function readPiFixture(name: string): Promise<SessionFile> {
  const outcome = await readSessionFile(piFixture(name));
  if (outcome.kind !== 'session') throw new Error(`${name} was not read as a session: ${JSON.stringify(outcome.diagnostics)}`);
  return outcome.file;
}

export async function archiveOf(paths: string[]): Promise<Archive> {
  const { files } = await readAll(paths);
  return buildArchive(files);
}

export function tempDir(prefix = 'bough-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}
