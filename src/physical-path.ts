// A path as the system opens it. `path.resolve` drops `link/..` as text, the folder the link is
// in; the system (and `ls`, `cat`, `mkdir -p`) goes up from where the link leads.

import { realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';

/**
 * `path` with what leads up to its last `..` resolved by the system, absolute; unchanged when it
 * has no `..`, or when that part cannot be resolved (missing: then nothing links there).
 */
export function physicalPath(path: string): string {
  const parts = path.split(sep === '\\' ? /[\\/]/ : '/');
  const last = parts.lastIndexOf('..');
  if (last === -1) return path;
  const upTo = parts.slice(0, last + 1).join(sep);
  try {
    // Joined as text, and the system's own realpath: `join` and Node's realpath drop `link/..` as text.
    const real = realpathSync.native(isAbsolute(upTo) ? upTo : process.cwd() + sep + upTo);
    return resolve(real, ...parts.slice(last + 1));
  } catch {
    return path;
  }
}
