// Lines added in whatever order threads finish are taken back in the report's order, as added,
// past the batches they were written in.

import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openLineSpool } from '../src/output/line-spool.js';
import { tempDir } from './support/fixtures.js';

describe('a line spool', () => {
  it('gives back each item its lines, in any order, across batches, and leaves no file', async () => {
    const folder = await tempDir();
    const spool = openLineSpool(folder, '.spool');
    const long = 'é'.repeat(200_000);
    const items = new Map<number, string[]>([
      [3, ['three', 'and more']],
      [0, [long, 'après']],
      [2, []],
      [1, ['one']],
      [4, [long, long]],
    ]);
    for (const [item, lines] of items) spool.add(item, lines);
    for (const item of [0, 1, 2, 3, 4]) expect(spool.take(item)).toEqual(items.get(item));
    expect(spool.take(9)).toEqual([]);
    spool.close();
    expect(await readdir(folder)).toEqual([]);
  });
});
