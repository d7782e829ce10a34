// What each session gives the search index, kept in a file of the staging folder until the index
// is written: the items of a whole history (prompts of up to 2,000 characters, replies' openings)
// held in memory to the end were 110 MB of the main thread's heap for 300 MB of sessions, most of
// them replies the index then left out. In memory stay, per session, where its rows are and the
// size of each reply's row; the index is then written one session's rows and one shard at a time.

import { closeSync, openSync, readSync } from 'node:fs';
import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repliesThatFit, SearchShards, searchIndexFile, searchManifest, type SearchFile, type SearchSession, type SessionRows } from '../report/search-index.js';

/** Where one session's rows are: its prompts' and files' rows, then its replies' rows, a line each. */
interface Spooled {
  offset: number;
  otherBytes: number;
  replySizes: number[];
}

export interface SearchSpool {
  /** A session's rows (made with its place in the report, its number in the index), in whatever order sessions finish. */
  add(session: number, rows: SessionRows): Promise<void>;
  /** Writes the index for these sessions (in the report's order) under `budgetBytes`; the spool file is then removed. */
  writeIndex(sessions: readonly SearchSession[], budgetBytes: number, write: (file: SearchFile) => Promise<void>): Promise<void>;
}

/** Rows held before they are written: small beside a history's ledgers, large beside one session's rows. */
const BATCH_BYTES = 1024 * 1024;

/**
 * A spool in `folder` (the staging folder: a build that stops before its index leaves the file
 * to be removed with the folder). No file stays open between calls.
 */
export async function openSearchSpool(folder: string): Promise<SearchSpool> {
  const path = join(folder, '.search-spool');
  await writeFile(path, '', { flag: 'wx' });
  const spooled: (Spooled | undefined)[] = [];
  let end = 0;
  // Rows not yet written, in spool order from `flushed` on: written a batch at a time, since a
  // history of tens of thousands of small sessions made one open, write and close each.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let flushed = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const batch = Buffer.concat(pending, pendingBytes);
    const at = flushed;
    // Taken before the write: rows added meanwhile go into the next batch, after this one.
    pending = [];
    pendingBytes = 0;
    flushed += batch.length;
    const handle = await open(path, 'r+');
    try {
      await handle.write(batch, 0, batch.length, at);
    } finally {
      await handle.close();
    }
  };

  /**
   * Reads rows back through a window of the spool: sessions are read in the report's order, which
   * is mostly the order they were spooled in, so one read serves many. Synchronous: a history of
   * tens of thousands of small sessions made tens of thousands of reads, each a trip through the
   * file-system threads when asynchronous (2 s of a rebuild over 30,000 sessions).
   */
  const reader = (file: number) => {
    let window = Buffer.alloc(0);
    let windowAt = 0;
    return (offset: number, length: number): string[] => {
      if (length === 0) return [];
      if (offset < windowAt || offset + length > windowAt + window.length) {
        window = Buffer.allocUnsafe(Math.max(length, BATCH_BYTES));
        windowAt = offset;
        const bytesRead = readSync(file, window, 0, window.length, offset);
        window = window.subarray(0, bytesRead);
        if (bytesRead < length) throw new Error(`the search index's spool file ended early (${bytesRead} of ${length} bytes at ${offset})`);
      }
      // Every row ends in a line break, and none holds one (JSON escapes them).
      return window.toString('utf8', offset - windowAt, offset - windowAt + length - 1).split('\n');
    };
  };

  return {
    async add(session, { bytes, otherBytes, replySizes }) {
      spooled[session] = { offset: end, otherBytes, replySizes };
      end += bytes.length;
      if (bytes.length === 0) return;
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= BATCH_BYTES) await flush();
    },
    async writeIndex(sessions, budgetBytes, write) {
      await flush();
      const file = openSync(path, 'r');
      const read = reader(file);
      try {
        const manifest = searchManifest(sessions);
        const spooledOf = (n: number) => (sessions[n]?.listed === false ? undefined : spooled[n]);
        const base = sessions.reduce((sum, _, n) => sum + (spooledOf(n)?.otherBytes ?? 0), Buffer.byteLength(manifest));
        const { kept, repliesLeftOut, replies } = repliesThatFit(base, sessions.map((_, n) => spooledOf(n)?.replySizes ?? []), budgetBytes);
        const shards = new SearchShards();
        const put = async (row: string) => {
          const closedShard = shards.push(row);
          if (closedShard) await write(closedShard);
        };
        // Prompts and files of every session first, then the replies that fit, as the index always held them.
        for (const [n] of sessions.entries()) {
          const at = spooledOf(n);
          if (at) for (const row of read(at.offset, at.otherBytes)) await put(row);
        }
        for (const [n] of sessions.entries()) {
          const at = spooledOf(n);
          const keep = kept[n] ?? [];
          if (!at || !keep.includes(true)) continue;
          const rows = read(at.offset + at.otherBytes, at.replySizes.reduce((sum, size) => sum + size, 0));
          for (const [r, row] of rows.entries()) if (keep[r]) await put(row);
        }
        await write(shards.finish());
        await write(searchIndexFile(manifest, shards.count, repliesLeftOut, replies));
      } finally {
        closeSync(file);
        await rm(path, { force: true });
      }
    },
  };
}
