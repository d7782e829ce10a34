// Where a long session's rendered entries wait for their part: in a file beside its pages rather
// than in memory. A session of hundreds of MB renders to hundreds of MB of HTML, all of it made
// before the first part is written (parts are planned from every entry's size); held as strings
// it doubled what the page's thread kept. Synchronous, as the page's generator that uses it.

import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

export interface EntrySpool {
  /** Appends one entry's HTML; where it lies and its size in UTF-8. */
  add(html: string): { offset: number; bytes: number };
  /** The bytes between `offset` and `offset + bytes`, as added. */
  read(offset: number, bytes: number): Buffer;
  /** Closes the file and removes it; again, nothing. */
  remove(): void;
}

/** Entries are written in chunks of this much: one call per entry would be most of the cost. */
const CHUNK_BYTES = 1 << 20;

/** A new spool at `path` (never an existing file: opened exclusively). */
export function openEntrySpool(path: string): EntrySpool {
  const fd = openSync(path, 'wx+');
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let inChunk = 0;
  /** Bytes in the file; the chunk's follow them. */
  let inFile = 0;
  let removed = false;
  const write = (bytes: Uint8Array, length: number) => {
    for (let at = 0; at < length; ) at += writeSync(fd, bytes, at, length - at, inFile + at);
    inFile += length;
  };
  const flush = () => {
    write(chunk, inChunk);
    inChunk = 0;
  };
  return {
    add(html) {
      const offset = inFile + inChunk;
      const bytes = Buffer.byteLength(html);
      if (bytes > CHUNK_BYTES - inChunk) flush();
      if (bytes > CHUNK_BYTES) write(Buffer.from(html), bytes);
      else inChunk += chunk.write(html, inChunk);
      return { offset, bytes };
    },
    read(offset, bytes) {
      if (offset + bytes > inFile) flush();
      const out = Buffer.allocUnsafe(bytes);
      for (let got = 0; got < bytes; ) {
        const read = readSync(fd, out, got, bytes - got, offset + got);
        if (read === 0) throw new Error('the spool of rendered entries ended early');
        got += read;
      }
      return out;
    },
    remove() {
      if (removed) return;
      removed = true;
      closeSync(fd);
      rmSync(path, { force: true });
    },
  };
}
