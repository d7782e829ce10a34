// What a file's first records say of one field: enough to tell which session a file beside
// another belongs to, when that one is given alone.

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
   * The files of a folder whose names match, by the first string value of `field` in each one's
   * first records (read from its first `bytes` bytes: a header may carry kilobytes of
   * instructions before it). A file that names none, or cannot be read, is under none.
   */
  byFirstValue(folder: string, names: RegExp, field: string, bytes: number): Promise<Map<string, string[]>> {
    const key = `${field}\0${bytes}\0${names.source}\0${folder}`;
    let found = this.folders.get(key);
    if (found === undefined) this.folders.set(key, (found = filesByFirstValue(folder, names, field, bytes)));
    return found;
  }

  /** The first string value of `field` in a file's first records, or null. */
  firstValue(path: string, field: string, bytes: number): Promise<string | null> {
    return firstFieldValue(path, field, bytes);
  }

  /** The first true or false of `field` in a file's first records, or null. */
  firstFlag(path: string, field: string, bytes: number): Promise<boolean | null> {
    return firstInRecords(path, bytes, field, (value) => (typeof value === 'boolean' ? value : null));
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
  return firstInRecords(path, bytes, field, (value) => (typeof value === 'string' ? value : null));
}

/** A first line longer than this is not read to its end: its field is looked for in what was read. */
const MAX_FIRST_LINE = 8 * 1024 * 1024;

/**
 * The value `pick` takes from `field` in a file's first records: as written in its first `bytes`
 * bytes, where agents write it; else from the first record that has it, the shallowest first, the
 * records parsed as JSON (any key order, spacing or escaping), the first line read whole however
 * long, up to MAX_FIRST_LINE, and a line cut short by that searched as text.
 */
async function firstInRecords<T>(path: string, bytes: number, field: string, pick: (value: unknown) => T | null): Promise<T | null> {
  // Not blocking, and files only: a named pipe with no writer would wait for one forever.
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (file === null) return null;
  try {
    const info = await file.stat();
    if (!info.isFile()) return null;
    const size = info.size;
    let buffer = Buffer.alloc(Math.min(bytes, size));
    let read = (await file.read(buffer, 0, buffer.length, 0)).bytesRead;
    // Most files name it early, as their agent writes it: found so, nothing more is read or parsed.
    const early = valueAt(buffer.toString('utf8', 0, read), field, pick);
    if (early !== null) return early;
    // The first line whole, however long (an agent's first prompt may be), up to a limit.
    while (buffer.indexOf(0x0a) === -1 && read === buffer.length && read < size && buffer.length < MAX_FIRST_LINE) {
      const longer = Buffer.alloc(Math.min(buffer.length * 4, MAX_FIRST_LINE, size));
      buffer.copy(longer, 0, 0, read);
      buffer = longer;
      read += (await file.read(buffer, read, buffer.length - read, read)).bytesRead;
    }
    const text = buffer.toString('utf8', 0, read).replace(/^\uFEFF/, '');
    const lines = text.split('\n');
    // The last piece is a whole line only when the file ends there.
    const whole = read === size ? lines : lines.slice(0, -1);
    for (const line of whole) {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      const value = shallowest(record, field, pick);
      if (value !== null) return value;
    }
    return read === size ? null : valueAt(lines.at(-1) ?? '', field, pick);
  } catch {
    return null;
  } finally {
    await file.close();
  }
}

/** The value `pick` takes from the first `"field": …` written in a text (a line cut short), or null. */
function valueAt<T>(text: string, field: string, pick: (value: unknown) => T | null): T | null {
  const written = new RegExp(`"${field}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|true|false)`).exec(text)?.[1];
  if (written === undefined) return null;
  try {
    return pick(JSON.parse(written));
  } catch {
    return null;
  }
}

/** How deep, and over how many values, a record is searched for a field. */
const MAX_DEPTH = 8;
const MAX_VALUES = 10_000;

/** The value `pick` takes from the shallowest `field` in a parsed record, breadth first. */
function shallowest<T>(record: unknown, field: string, pick: (value: unknown) => T | null): T | null {
  let level: unknown[] = [record];
  let seen = 0;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      if (typeof value !== 'object' || value === null || ++seen > MAX_VALUES) continue;
      if (!Array.isArray(value) && Object.hasOwn(value, field)) {
        const found = pick((value as Record<string, unknown>)[field]);
        if (found !== null) return found;
      }
      for (const inner of Array.isArray(value) ? value : Object.values(value)) next.push(inner);
    }
    level = next;
  }
  return null;
}
