// Lines are read into chunk buffers that are used again from file to file: files read side by
// side, lines across chunk boundaries (multi-byte characters cut in two among them) and a
// reading given up part-way must still give every line exactly.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLines } from '../src/sources/lines.js';
import { tempDir } from './support/fixtures.js';

/** About `bytes` of lines of many lengths, with characters of two to four bytes in them. */
function linesOf(seed: number, bytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const length = ((i * 7919 + seed * 104729) % 300_000) + (i % 5 === 0 ? 0 : 17);
    const line = `{"n":${i},"s":${seed},"t":"${'é€𝄞x'.repeat(Math.ceil(length / 10)).slice(0, length)}"}`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines;
}

describe('reading lines', () => {
  it('gives every line of files read side by side, one of them given up part-way', async () => {
    const dir = await tempDir();
    const files = await Promise.all(
      [1, 2, 3].map(async (seed) => {
        const path = join(dir, `${seed}.jsonl`);
        const lines = linesOf(seed, 4_500_000);
        await writeFile(path, `${lines.join('\n')}\n`);
        return { path, lines };
      }),
    );
    const [a, b, c] = files.map((file) => readLines(file.path)) as [AsyncGenerator<{ text: string }>, AsyncGenerator<{ text: string }>, AsyncGenerator<{ text: string }>];
    const read: string[][] = [[], [], []];
    // The third is given up after a few lines: its chunk goes back and is used again by the others.
    for (let i = 0; i < 3; i++) read[2]?.push(((await c.next()).value as { text: string }).text);
    await c.return(undefined);
    const again = readLines(files[2]?.path as string);
    let done = [false, false, false];
    while (!done.every(Boolean)) {
      const steps = [a, b, again] as const;
      for (const [index, lines] of steps.entries()) {
        if (done[index]) continue;
        const next = await lines.next();
        if (next.done) done = done.map((d, i) => d || i === index);
        else if (index === 2) read[2]?.push(next.value.text);
        else read[index]?.push(next.value.text);
      }
    }
    expect(read[0]).toEqual(files[0]?.lines);
    expect(read[1]).toEqual(files[1]?.lines);
    expect(read[2]?.slice(0, 3)).toEqual(files[2]?.lines.slice(0, 3));
    expect(read[2]?.slice(3)).toEqual(files[2]?.lines);
  });

  it('gives the event loop turns while it reads a large file (Ctrl-C and progress are heard), every line exact', async () => {
    const path = join(await tempDir(), 'long.jsonl');
    const lines = linesOf(4, 20_000);
    await writeFile(path, `${lines.join('\n')}\n`);
    let turnsSeen = 0;
    let linesWhenFirstTurn = -1;
    const read: string[] = [];
    const watch = () =>
      setImmediate(() => {
        if (turnsSeen++ === 0) linesWhenFirstTurn = read.length;
        if (read.length < lines.length) watch();
      });
    watch();
    // Chunks of 256 bytes: many more than are read between turns.
    for await (const line of readLines(path, 256)) read.push(line.text);
    expect(read).toEqual(lines);
    expect(turnsSeen).toBeGreaterThan(1);
    expect(linesWhenFirstTurn).toBeLessThan(lines.length);
  });
});

// Regression (an outside review of hostile sizes): a file of UTF-16 text (PowerShell's `>` writes
// one) was read as damaged UTF-8: "日本" became "e,g", and its byte-order mark a skipped line.
describe('a file of UTF-16 text', () => {
  it('is read as the text it holds, little- or big-endian, whatever chunks cut its characters', async () => {
    const lines = ['{"title":"日本 café"}', '{"emoji":"🙂"}', 'plain'];
    const text = `${lines.join('\n')}\n`;
    const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const big = Buffer.from(little);
    big.swap16();
    for (const [name, bytes] of [['le', little], ['be', big]] as const) {
      const path = join(await tempDir(), `${name}.jsonl`);
      await writeFile(path, bytes);
      for (const chunk of [7, 1024]) {
        const read: string[] = [];
        for await (const line of readLines(path, chunk)) read.push(line.text);
        expect({ name, chunk, read }).toEqual({ name, chunk, read: lines });
      }
    }
  });
});
