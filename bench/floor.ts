// The floor of `npm run bench`: a bare read and JSON.parse of every line of every *.jsonl under a
// folder, nothing kept. Run in its own process so its time and peak memory compare with bough's.
//
//   node dist-bench/bench/floor.js DIR [--bytes | --lean]
//
// --bytes: each file read as bytes and each line decoded on its own, as bough reads.
// --lean: the same, but each line's bytes are first scanned for string literals of LEAN_MIN bytes
// or more (tool output, long texts), which are cut out before the line is decoded and parsed: a
// reader that skipped every long value, needed or not, could not be faster than this. Compared
// with --bytes it is what "lean reading" could gain at most.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const LEAN_MIN = 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/** The line with every string literal of LEAN_MIN+ bytes emptied, or the line itself. */
function withoutLongStrings(line: Buffer): Buffer {
  const kept: Buffer[] = [];
  let from = 0;
  let open = line.indexOf(QUOTE);
  while (open !== -1) {
    let close = line.indexOf(QUOTE, open + 1);
    // A quote after an odd run of backslashes is inside the string.
    for (;;) {
      if (close === -1) return line;
      let slashes = 0;
      while (line[close - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
      close = line.indexOf(QUOTE, close + 1);
    }
    if (close - open > LEAN_MIN) {
      kept.push(line.subarray(from, open + 1));
      from = close;
    }
    open = line.indexOf(QUOTE, close + 1);
  }
  if (kept.length === 0) return line;
  kept.push(line.subarray(from));
  return Buffer.concat(kept);
}

async function main(dir: string, mode: 'text' | 'bytes' | 'lean'): Promise<void> {
  let lines = 0;
  let records = 0;
  const decoder = new TextDecoder();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
    const path = join(entry.parentPath, entry.name);
    if (mode === 'text') {
      const text = await readFile(path, 'utf8');
      for (const line of text.split('\n')) {
        if (line === '') continue;
        lines++;
        // Counted so the parse cannot be skipped as dead code.
        if (typeof JSON.parse(line) === 'object') records++;
      }
      continue;
    }
    const bytes = await readFile(path);
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end === -1) end = bytes.length;
      if (end > start) {
        lines++;
        const line = bytes.subarray(start, end);
        if (typeof JSON.parse(decoder.decode(mode === 'lean' ? withoutLongStrings(line) : line)) === 'object') records++;
      }
      start = end + 1;
    }
  }
  process.stdout.write(`${JSON.stringify({ lines, records })}\n`);
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: floor.js DIR [--bytes | --lean]');
await main(dir, process.argv.includes('--lean') ? 'lean' : process.argv.includes('--bytes') ? 'bytes' : 'text');
