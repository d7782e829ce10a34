// Lists the files below a folder as "/"-separated paths relative to it (bough's own assets and
// templates, and the files of an old report).

import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Sorted; with `links`, symbolic links count as files (they are removed, never followed). */
export async function filesUnder(root: string, { links = false } = {}): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() || (links && entry.isSymbolicLink()))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}
