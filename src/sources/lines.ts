// Streams a file as lines, split on "\n" only: U+2028/U+2029 and lone "\r" stay inside strings,
// and a file is never held as one string (sessions reach hundreds of MB).

import { createReadStream } from 'node:fs';

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
}

/** Beyond this a line is skipped, not read: a JavaScript string cannot hold much more, and no record is this long. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

const NEWLINE = 0x0a;
const NUL = 0x00;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

export async function* readLines(path: string, chunkSize = 1 << 20, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<RawLine> {
  // 'r' opens read-only: bough never writes to its inputs.
  const stream = createReadStream(path, { flags: 'r', highWaterMark: chunkSize });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes of an oversized line skipped so far; 0 while reading normally. */
  let skipped = 0;
  let lineNumber = 0;
  const hold = (piece: Buffer) => {
    if (skipped > 0 || pendingBytes + piece.length > maxLineBytes) {
      skipped += pendingBytes + piece.length;
      pending = [];
      pendingBytes = 0;
    } else {
      pending.push(piece);
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
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      hold(chunk.subarray(start, newline));
      yield take();
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) hold(chunk.subarray(start));
  }
  // A missing final newline still ends a line.
  if (pendingBytes > 0 || skipped > 0) yield take();
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
