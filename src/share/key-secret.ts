// The secret a redacting build hashes entry keys with (share.ts, EntryKeys): kept on this machine,
// in bough's configuration folder (not its cache, which users delete and --no-cache leaves alone:
// a new secret makes a report folder's archive unmatched), never in a report or an input.

import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { boughConfigDir, type Environment } from '../environment.js';

const FILE = 'entry-key-secret';
const SECRET = /^[0-9a-f]{64}$/;

export interface KeySecret {
  secret: string;
  /** Why this run's secret is its own, or null when it is this machine's. */
  problem: string | null;
}

/**
 * This machine's secret, made on first use, atomically (a file linked into place whole: a build
 * starting at the same moment reads it, never half of it). Never read or made inside `keepOut`
 * (the report folder, the folders read): one for this run alone then, as when it can be neither
 * read nor made, and said: later builds into the same folder cannot match what it archives.
 */
export async function entryKeySecret(environment: Environment, keepOut: readonly string[]): Promise<KeySecret> {
  const dir = boughConfigDir(environment);
  const path = join(dir, FILE);
  const own = (why: string): KeySecret => ({ secret: randomBytes(32).toString('hex'), problem: `${path} ${why}: this build hashes its archive's entry keys with a secret of its own, so a later build into the same report folder cannot match the sessions it keeps there to copies of them it reads (they may count twice).` });
  // Not read from there either: a secret in the report folder goes wherever the report is sent.
  const inside = keepOut.find((folder) => isWithin(realPath(dir), realPath(folder)));
  if (inside !== undefined) return own(`is inside ${inside}, where bough keeps nothing of its own`);
  const found = readSecret(path);
  if (found.kind === 'read') return { secret: found.secret, problem: null };
  if (found.kind === 'damaged') return own('does not hold a secret bough made (delete it to have a new one made)');
  if (found.kind === 'unreadable') return own('cannot be read');
  const made = randomBytes(32).toString('hex');
  const staged = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // A folder asked for by $BOUGH_CONFIG_DIR is made whole; otherwise the configuration folder
    // is, but not a home that does not exist.
    if (dir === environment.env['BOUGH_CONFIG_DIR']) await mkdir(dir, { recursive: true, mode: 0o700 });
    else {
      await mkdir(dirname(dir), { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    }
    await writeFile(staged, `${made}\n`, { flag: 'wx', mode: 0o600 });
    try {
      await link(staged, path);
      return { secret: made, problem: null };
    } catch {
      // Made by another build meanwhile.
      const theirs = readSecret(path);
      return theirs.kind === 'read' ? { secret: theirs.secret, problem: null } : own('could not be made');
    }
  } catch {
    return own('could not be made');
  } finally {
    await unlink(staged).catch(() => {});
  }
}

type SecretRead = { kind: 'read'; secret: string } | { kind: 'missing' } | { kind: 'damaged' } | { kind: 'unreadable' };

/** The secret at `path` (a link to it is followed: one secret kept for several machines), read only from a small regular file. */
function readSecret(path: string): SecretRead {
  let file: number;
  try {
    file = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'missing' } : code === 'EISDIR' ? { kind: 'damaged' } : { kind: 'unreadable' };
  }
  try {
    const info = fstatSync(file);
    if (!info.isFile() || info.size > 256) return { kind: 'damaged' };
    const bytes = Buffer.alloc(256);
    const text = bytes.subarray(0, readSync(file, bytes, 0, 256, 0)).toString('utf8').trim();
    return SECRET.test(text) ? { kind: 'read', secret: text } : { kind: 'damaged' };
  } catch {
    return { kind: 'damaged' };
  } finally {
    closeSync(file);
  }
}

/** A path with its links resolved, as far as it exists (a link to a folder inside the report is inside it). */
function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync.native(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPath(parent), basename(absolute));
  }
}

function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
