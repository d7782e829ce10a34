// `mkdir -p` of bough's own: Node's recursive mkdir spins for ever on a path below /proc (Node
// 20: /proc answers ENOENT to every new name, and each ENOENT sends it to make the parent again).
// Here each missing folder is made once, parent first, and the first that cannot be is the error.

import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function makeFolderSync(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    let folder: boolean;
    try {
      folder = statSync(at).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(at);
      if (dirname(at) === at) break;
      continue;
    }
    // A file where a folder should be: said as mkdir says it.
    if (!folder) throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${at}'`), { code: 'EEXIST', path: at });
    break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Made meanwhile by another bough: as good.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
