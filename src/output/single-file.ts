// One file written whole or not at all (a temporary file beside it, then a rename), never over an
// input: `bough export` writes a single page this way.

import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { BoughError } from '../errors.js';
import { whyUnwritable } from '../file-problems.js';
import { realPathOf } from './out-path.js';

export async function writeSingleFile(path: string, content: string, inputs: readonly string[]): Promise<void> {
  // /dev/stdout into a pipe is a link to a pipe no path can follow: a stream, not a file.
  if (/^\/(?:dev|proc)\//.test(resolve(path))) throw new BoughError(`Refusing to write to ${path}: export writes a plain file, not a stream or a device. Name a file with -o, such as session.html.`);
  const target = await realPathOf(path).catch((error: unknown) => {
    throw error instanceof BoughError ? new BoughError(error.message.replace(/(?:Create that folder, or c|C)hoose another --out\.$/, 'Choose another -o.'), { cause: error }) : error;
  });
  for (const input of inputs) {
    if ((await realPathOf(input)) === target) throw new BoughError(`Refusing to write ${path}: it is an input. Choose another -o.`);
  }
  if (path === '-') throw new BoughError('export writes a file, not to standard output: name one with -o, such as session.html.');
  const existing = await stat(target).catch(() => null);
  if (existing?.isDirectory()) throw new BoughError(`${path} is a folder: name a file with -o, such as session.html.`);
  // A path ending in a separator (or in "/." or "/..") names a folder, whatever is there.
  if (/(^|[\\/])\.{0,2}$/.test(path)) throw new BoughError(`${path} names a folder: name a file with -o, such as session.html.`);
  // A pipe or a device would be replaced by the rename (as root, /dev/null itself): never.
  if (existing && !existing.isFile()) throw new BoughError(`Refusing to write over ${path}: it is not a plain file (a pipe, a device or a socket). Choose another -o.`);
  // Only a page bough exported is written over (or an empty file, as mktemp makes): anything else
  // there is the user's, a page of a report folder included.
  if (existing && existing.size > 0 && (await exportSourceHash(target)) === undefined) {
    throw new BoughError(`Refusing to write over ${path}: it is a file of yours, not a page bough exported. Choose another -o, or remove it first.`);
  }
  const temporary = join(dirname(target), `.${basename(target)}.bough-tmp-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temporary, content);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BoughError(`Cannot write ${path}: its folder does not exist.`, { cause: error });
    if (code === 'ENOTDIR') throw new BoughError(`Cannot write ${path}: ${dirname(path)} is a file, not a folder.`, { cause: error });
    throw new BoughError(`Cannot write ${path}: ${whyUnwritable(error)}.`, { cause: error });
  }
}

/**
 * The hash of its session file's path that the head of a page bough exported carries; null for an
 * export that carries none (bough before 2026-12-06); undefined for anything else. The head of a
 * page bough exported names bough as its generator and says it is an export (before that mark: its
 * stylesheet inline right after its title, which no report page has, as their policy allows no
 * inline style). A report folder's pages, and any other file, are not exports.
 */
export async function exportSourceHash(path: string): Promise<string | null | undefined> {
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return undefined;
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const text = head.toString('utf8', 0, bytesRead);
    if (!/<meta name="generator" content="bough [^"]*">/.test(text)) return undefined;
    if (!text.includes('<meta name="bough-export" content="one session in one file">') && !/<title>[^<]*· bough<\/title>\n<style>/.test(text)) return undefined;
    return /<meta name="bough-session-file-hash" content="([0-9a-f]{64})">/.exec(text)?.[1] ?? null;
  } finally {
    await handle.close();
  }
}
