// Session files compressed: Codex 0.169's thread store compresses rollouts a week old with zstd
// (a feature still off by default), and people gzip old ones. Said, with how to read them, not read.

import { open } from 'node:fs/promises';
import { basename } from 'node:path';

export type Compression = 'zstd' | 'gzip';

/** A compressed session file by its name: found in a folder, or given. */
export const COMPRESSED_SESSION = /\.jsonl\.(?:zst|gz)$/i;

export const compressionOf = (name: string): Compression => (name.toLowerCase().endsWith('.zst') ? 'zstd' : 'gzip');

/** What a file's first bytes say it is compressed with (a session file renamed, or gzipped in place), or null. */
export async function compressionOfBytes(path: string): Promise<Compression | null> {
  const head = Buffer.alloc(4);
  const file = await open(path, 'r').catch(() => null);
  if (file === null) return null;
  try {
    const { bytesRead } = await file.read(head, 0, 4, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
    if (bytesRead === 4 && head.readUInt32LE(0) === 0xfd2fb528) return 'zstd';
    return null;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}

/** What to do with a compressed session file for bough to read it: a command whose names are quoted for a POSIX shell. */
export function howToRead(path: string, compression: Compression = compressionOf(path)): string {
  const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  return `decompress a copy into a folder of its own and give bough that folder too (${compression} -dc ${quoted(path)} > FOLDER/${quoted(basename(path).replace(/\.(?:zst|gz)$/i, ''))})`;
}

/** The same for `bough export`, which takes one file, not a folder. */
export function howToExport(path: string, compression: Compression = compressionOf(path)): string {
  const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  return `decompress a copy and export that (${compression} -dc ${quoted(path)} > COPY.jsonl, then bough export COPY.jsonl)`;
}

/** The note on a compressed session file, not read. */
export function compressedNote(path: string, compression: Compression = compressionOf(path)): string {
  return `compressed (${compression}), so not read: ${howToRead(path, compression)}`;
}
