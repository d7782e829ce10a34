// The floor of `npm run bench`: a bare read and JSON.parse of every line of every *.jsonl under a
// folder, nothing kept. Run in its own process so its time and peak memory compare with bough's.
//
//   node dist-bench/bench/floor.js DIR

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

async function main(dir: string): Promise<void> {
  let lines = 0;
  let records = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      lines++;
      // Counted so the parse cannot be skipped as dead code.
      if (typeof JSON.parse(line) === 'object') records++;
    }
  }
  process.stdout.write(`${JSON.stringify({ lines, records })}\n`);
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: floor.js DIR');
await main(dir);
