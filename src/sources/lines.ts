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
}

const NEWLINE = 0x0a;
const NUL = 0x00;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

export async function* readLines(path: string, chunkSize = 1 << 20): AsyncGenerator<RawLine> {
  // 'r' opens read-only: bough never writes to its inputs.
  const stream = createReadStream(path, { flags: 'r', highWaterMark: chunkSize });
  let pending: Buffer[] = [];
  let lineNumber = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      const bytes = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      yield decodeLine(bytes, ++lineNumber);
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  // A missing final newline still ends a line.
  if (pending.length > 0) yield decodeLine(Buffer.concat(pending), ++lineNumber);
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
    return { number, text: strictUtf8.decode(bytes), invalidUtf8: false, nulBytes };
  } catch {
    return { number, text: lenientUtf8.decode(bytes), invalidUtf8: true, nulBytes };
  }
}
