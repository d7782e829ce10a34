// Text written through one reused buffer comes out as the same UTF-8 as Buffer.from would make,
// whatever falls on the buffer's edges.

import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeText } from '../src/output/text-file.js';
import { tempDir } from './support/fixtures.js';

async function written(text: string): Promise<{ bytes: Buffer; count: number }> {
  const path = join(await tempDir(), 'out.html');
  const fd = openSync(path, 'wx');
  try {
    const count = writeText(fd, text);
    return { bytes: readFileSync(path), count };
  } finally {
    closeSync(fd);
  }
}

describe('text written through a reused buffer', () => {
  it('is the UTF-8 of the text, with characters of 2, 3 and 4 bytes across every buffer edge', async () => {
    // Each of these shifts where the 1 MB edges fall within a character.
    for (const lead of ['', 'a', 'ab', 'abc']) {
      const text = lead + 'é€😀 plain <p>'.repeat(200_000) + 'end';
      const { bytes, count } = await written(text);
      expect(count).toBe(Buffer.byteLength(text));
      expect(bytes.equals(Buffer.from(text))).toBe(true);
    }
  });

  it('writes a lone surrogate as U+FFFD, as Buffer.from does, and nothing for no text', async () => {
    const text = `a\uD800b${'x'.repeat(1 << 20)}\uDC00`;
    expect((await written(text)).bytes.equals(Buffer.from(text))).toBe(true);
    expect(await written('')).toEqual({ bytes: Buffer.alloc(0), count: 0 });
  });

  it('writes a text joined from many pieces as it reads', async () => {
    let text = '';
    for (let i = 0; i < 50_000; i++) text += `<li id="e-${i}">ünïcödé ${i}</li>\n`;
    expect((await written(text)).bytes.toString('utf8')).toBe(text);
  });
});
