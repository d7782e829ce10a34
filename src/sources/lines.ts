// Streams a file as lines, split on "\n" only: U+2028/U+2029 and lone "\r" stay inside strings,
// and a file is never held as one string (sessions reach hundreds of MB).

import { closeSync, constants, openSync, readSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface RawLine {
  /** 1-based line number. */
  number: number;
  text: string;
  /** The bytes were not valid UTF-8; `text` holds U+FFFD where they were. */
  invalidUtf8: boolean;
  /** NUL bytes removed from the line (they are never valid outside JSON strings). */
  nulBytes: number;
  /** The line was longer than bough reads (its length in bytes); `text` is empty. */
  oversized: number;
  /** The file's last line, no line break after it: maybe still being written (a live session). */
  unended?: true;
}

/** Beyond this a line is skipped, not read: a JavaScript string cannot hold much more, and no record is this long. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

const NEWLINE = 0x0a;
const NUL = 0x00;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Chunk buffers, used again from file to file: a fresh buffer for every chunk (as a read stream
 * makes) is memory the kernel maps, zeroes and unmaps each time. Measured over 100 MB of
 * sessions, splitting and decoding included: 0.52 s of CPU with a read stream, 0.18 s so.
 */
const spareChunks: Buffer[] = [];
const MAX_SPARE_CHUNKS = 8;
const CHUNK_BYTES = 1 << 20;
/** Chunks read between turns of the event loop (progress, Ctrl-C, the other files in flight). */
const CHUNKS_PER_TURN = 8;

export async function* readLines(path: string, chunkSize = CHUNK_BYTES, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<RawLine> {
  // Read-only: bough never writes to its inputs. Not blocking: a file that became a FIFO since it
  // was looked at does not wait for a writer. Synchronous reads: a history is thousands of small
  // files, and each asynchronous call took a trip through the file-system threads, several times
  // the call's own cost; the event loop still gets a turn every few chunks of a large file.
  const file = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const spare = chunkSize === CHUNK_BYTES;
  const chunk = (spare ? spareChunks.pop() : undefined) ?? Buffer.allocUnsafe(chunkSize);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes of an oversized line skipped so far; 0 while reading normally. */
  let skipped = 0;
  let lineNumber = 0;
  // The chunk is read into again: what is held of it past a read is copied.
  const hold = (piece: Buffer, copy: boolean) => {
    if (skipped > 0 || pendingBytes + piece.length > maxLineBytes) {
      skipped += pendingBytes + piece.length;
      pending = [];
      pendingBytes = 0;
    } else {
      pending.push(copy ? Buffer.from(piece) : piece);
      pendingBytes += piece.length;
    }
  };
  const take = (): RawLine => {
    const line =
      skipped > 0
        ? { number: ++lineNumber, text: '', invalidUtf8: false, nulBytes: 0, oversized: skipped }
        : decodeLine(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending), ++lineNumber);
    pending = [];
    pendingBytes = 0;
    skipped = 0;
    return line;
  };
  /** A file of UTF-16 text (its byte-order mark says so: PowerShell's `>` writes one): read as UTF-8. */
  let utf16: TextDecoder | null = null;
  try {
    for (let chunks = 1; ; chunks++) {
      const bytesRead = readSync(file, chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      if (chunks % CHUNKS_PER_TURN === 0) await nextTurn();
      const read = chunk.subarray(0, bytesRead);
      if (chunks === 1) utf16 = utf16Decoder(read);
      const bytes = utf16 === null ? read : Buffer.from(utf16.decode(read, { stream: true }), 'utf8');
      let start = 0;
      let newline = bytes.indexOf(NEWLINE, start);
      while (newline !== -1) {
        hold(bytes.subarray(start, newline), false);
        // Decoded before the next read: the line's bytes are not kept.
        yield take();
        start = newline + 1;
        newline = bytes.indexOf(NEWLINE, start);
      }
      if (start < bytes.length) hold(bytes.subarray(start), true);
    }
    // A missing final newline still ends a line.
    if (pendingBytes > 0 || skipped > 0) yield { ...take(), unended: true };
  } finally {
    closeSync(file);
    if (spare && spareChunks.length < MAX_SPARE_CHUNKS) spareChunks.push(chunk);
  }
}

function utf16Decoder(opening: Buffer): TextDecoder | null {
  if (opening[0] === 0xff && opening[1] === 0xfe) return new TextDecoder('utf-16le');
  if (opening[0] === 0xfe && opening[1] === 0xff) return new TextDecoder('utf-16be');
  return null;
}

function decodeLine(bytes: Buffer, number: number): RawLine {
  let nulBytes = 0;
  if (bytes.indexOf(NUL) !== -1) {
    const kept = Buffer.allocUnsafe(bytes.length);
    let length = 0;
    for (const byte of bytes) {
      if (byte === NUL) nulBytes++;
      else kept[length++] = byte;
    }
    bytes = kept.subarray(0, length);
  }
  try {
    return { number, text: strictUtf8.decode(bytes), invalidUtf8: false, nulBytes, oversized: 0 };
  } catch {
    return { number, text: lenientUtf8.decode(bytes), invalidUtf8: true, nulBytes, oversized: 0 };
  }
}
