// What a file's first lines say of one field, read without parsing them: enough to tell which
// session a file beside another belongs to, when that one is given alone.

import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What the files of a folder name, each folder read once: the files given alone may be thousands
 * (a shell's glob), many in one folder, and each asks about the same neighbours.
 */
export class FileHeads {
  private readonly folders = new Map<string, Promise<Map<string, string[]>>>();

  /**
   * The files of a folder whose names match, by the first string value of `"field": "…"` in each
   * one's first `bytes` bytes (a header may carry kilobytes of instructions before it). A file
   * that names none, or cannot be read, is under none.
   */
  byFirstValue(folder: string, names: RegExp, field: string, bytes: number): Promise<Map<string, string[]>> {
    const key = `${field}\0${bytes}\0${names.source}\0${folder}`;
    let found = this.folders.get(key);
    if (found === undefined) this.folders.set(key, (found = filesByFirstValue(folder, names, field, bytes)));
    return found;
  }

  /** The first string value of `"field": "…"` in a file's first `bytes` bytes, or null. */
  firstValue(path: string, field: string, bytes: number): Promise<string | null> {
    return firstFieldValue(path, field, bytes);
  }

  /** The first value of `"field": true|false` in a file's first `bytes` bytes, or null. */
  async firstFlag(path: string, field: string, bytes: number): Promise<boolean | null> {
    const value = await firstMatch(path, new RegExp(`"${field}"\\s*:\\s*(true|false)\\b`), bytes);
    return value === null ? null : value === 'true';
  }
}

async function filesByFirstValue(folder: string, names: RegExp, field: string, bytes: number): Promise<Map<string, string[]>> {
  const byValue = new Map<string, string[]>();
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (!names.test(name)) continue;
    const path = join(folder, name);
    const value = await firstFieldValue(path, field, bytes);
    if (value === null) continue;
    const list = byValue.get(value);
    if (list) list.push(path);
    else byValue.set(value, [path]);
  }
  return byValue;
}

function firstFieldValue(path: string, field: string, bytes: number): Promise<string | null> {
  return firstMatch(path, new RegExp(`"${field}"\\s*:\\s*"([^"\\\\]*)"`), bytes);
}

/** The first group of `pattern`'s first match in a file's first `bytes` bytes, or null. */
async function firstMatch(path: string, pattern: RegExp, bytes: number): Promise<string | null> {
  // Not blocking, and files only: a named pipe with no writer would wait for one forever.
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (file === null) return null;
  try {
    if (!(await file.stat()).isFile()) return null;
    const { bytesRead, buffer } = await file.read(Buffer.alloc(bytes), 0, bytes, 0);
    return pattern.exec(buffer.toString('utf8', 0, bytesRead))?.[1] ?? null;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
