// The secret a redacting build hashes entry keys with (share.ts, EntryKeys): kept in bough's cache
// folder, on this machine, never in a report.

import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readOwnFile } from '../own-file.js';

const FILE = 'entry-key-secret';
const SECRET = /^[0-9a-f]{64}$/;

/**
 * This machine's secret, made on first use (`keep`: false for --no-cache, which writes nothing to
 * the cache folder). One for this run alone when it can be neither read nor kept: later builds
 * into the same folder then take its archived entries for others' (they are still kept and
 * counted; only a copy of one of them read later is not known as its copy).
 */
export async function entryKeySecret(cacheDir: string, keep: boolean): Promise<string> {
  const path = join(cacheDir, FILE);
  const read = (): string | null => {
    try {
      const text = readOwnFile(path).toString('utf8').trim();
      return SECRET.test(text) ? text : null;
    } catch {
      return null;
    }
  };
  const found = read();
  if (found !== null) return found;
  const made = randomBytes(32).toString('hex');
  if (!keep) return made;
  try {
    await mkdir(cacheDir, { recursive: true, mode: 0o700 });
    try {
      await writeFile(path, `${made}\n`, { flag: 'wx', mode: 0o600 });
      return made;
    } catch {
      // Made by another build meanwhile; or there, damaged, and replaced whole.
      const theirs = read();
      if (theirs !== null) return theirs;
      const staged = `${path}.${process.pid}.tmp`;
      await writeFile(staged, `${made}\n`, { flag: 'wx', mode: 0o600 });
      await rename(staged, path);
      return made;
    }
  } catch {
    return made;
  }
}
