// Lines that come in whatever order threads finish and are wanted in the report's order (a
// session's archive records, which hold its search items: a history's are too many to hold), kept
// in a file of the staging folder until they are taken. A build that stops leaves the file to be
// removed with the folder.

import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeWhole } from './report-folder.js';

export interface LineSpool {
  /** Keeps the lines of one item (numbered by the caller), each without a line break. */
  add(item: number, lines: readonly string[]): void;
  /** An item's lines, as added; none for an item never added. Once items are taken, no more are added. */
  take(item: number): string[];
  /** Removes the spool's file. */
  close(): void;
}

/** Lines held before they are written: one write per batch, not per item. */
const BATCH_BYTES = 256 * 1024;

/**
 * A spool named `name` in `folder`; synchronous, as every call is small and made in turn. No file
 * stays open while items are added, and one while they are taken, until close.
 */
export function openLineSpool(folder: string, name: string): LineSpool {
  const path = join(folder, name);
  closeSync(openSync(path, 'wx'));
  let reader: number | null = null;
  /** Where each item's lines are (their offset and length in bytes, joined by line breaks) and how many. */
  const where = new Map<number, { offset: number; length: number; count: number }>();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let end = 0;
  let flushed = 0;
  const flush = () => {
    if (pendingBytes === 0) return;
    const batch = Buffer.concat(pending, pendingBytes);
    const file = openSync(path, 'r+');
    try {
      writeWhole(file, batch, flushed);
    } finally {
      closeSync(file);
    }
    flushed += batch.length;
    pending = [];
    pendingBytes = 0;
  };
  return {
    add(item, lines) {
      const bytes = Buffer.from(lines.join('\n'), 'utf8');
      where.set(item, { offset: end, length: bytes.length, count: lines.length });
      pending.push(bytes);
      pendingBytes += bytes.length;
      end += bytes.length;
      if (pendingBytes >= BATCH_BYTES) flush();
    },
    take(item) {
      const at = where.get(item);
      if (at === undefined || at.count === 0) return [];
      if (at.offset + at.length > flushed) flush();
      const bytes = Buffer.allocUnsafe(at.length);
      reader ??= openSync(path, 'r');
      const read = readSync(reader, bytes, 0, at.length, at.offset);
      if (read < at.length) throw new Error(`a spool file ended early (${read} of ${at.length} bytes at ${at.offset})`);
      return bytes.toString('utf8').split('\n');
    },
    close() {
      if (reader !== null) closeSync(reader);
      reader = null;
      rmSync(path, { force: true });
    },
  };
}
