// A path as the system opens it. `path.resolve` drops `link/..` as text, the folder the link is
// in; the system (and `ls`, `cat`, `mkdir -p`) goes up from where the link leads.

import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, parse, resolve, sep } from 'node:path';
import { BoughError } from './errors.js';
import { whyUnreadable } from './file-problems.js';

/**
 * `path` with what leads up to its last `..` walked as the system walks it, absolute; unchanged
 * when it has no `..`. A part that does not exist is walked as `mkdir -p` would make it
 * (`new/../report` is `report`); one the system cannot go through (a loop of links, a link to
 * nowhere, a file, a name too long) is an error, said, not a folder beside it read instead.
 */
export function physicalPath(path: string): string {
  const parts = path.split(sep === '\\' ? /[\\/]/ : '/');
  const last = parts.lastIndexOf('..');
  if (last === -1) return path;
  // The working folder is the system's own (getcwd: no links in it), as is the root.
  let at = isAbsolute(path) ? parse(resolve(path)).root : process.cwd();
  for (let i = 0; i <= last; i++) {
    const part = parts[i] as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      at = dirname(at);
      continue;
    }
    const next = at.endsWith(sep) ? at + part : at + sep + part;
    let isLink = false;
    let isFolder = false;
    try {
      const info = lstatSync(next);
      isLink = info.isSymbolicLink();
      isFolder = info.isDirectory();
    } catch (error) {
      // A folder `mkdir -p` would make: nothing in it, no link to follow; what follows is walked on.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new BoughError(`Cannot go through ${next} in ${path}: ${whyUnreadable(error)}.`);
      at = next;
      continue;
    }
    if (isLink) {
      try {
        at = realpathSync.native(next);
      } catch (error) {
        // Nor through a link to nowhere: `ls` says no such file, `mkdir -p` that it exists.
        const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'a link to nowhere' : whyUnreadable(error);
        throw new BoughError(`Cannot go up through ${next} in ${path}: ${why}.`);
      }
      isFolder = lstatSync(at).isDirectory();
    } else at = next;
    if (!isFolder) throw new BoughError(`Cannot go up through ${next} in ${path}: it is a file, not a folder.`);
  }
  return resolve(at, ...parts.slice(last + 1));
}
