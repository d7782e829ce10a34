// summary.json is written in pieces; its text must be exactly JSON.stringify's, so that nothing
// reading it (or comparing two builds byte for byte) can tell.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { prettyJsonPieces } from '../src/report/json-pieces.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';

const whole = (value: unknown) => [...prettyJsonPieces(value)].join('');

describe('JSON in pieces', () => {
  it('is JSON.stringify(value, null, 2), whatever the shape', () => {
    const values: unknown[] = [
      null,
      0,
      'text with "quotes", \\ and a\nnewline, \u2028 and é',
      [],
      {},
      { empty: [], none: {}, gone: undefined, fn: () => 1, list: [undefined, () => 2, Symbol('s'), null, 1] },
      { when: new Date(Date.UTC(2026, 11, 2)), nested: { deeper: { deepest: [{ a: [1, [2, { b: 'c\nd' }]] }] } } },
      [[[['four levels', { and: ['more'] }]]], { x: { y: { z: { w: 'v' } } } }],
      { sessions: Array.from({ length: 3000 }, (_, i) => ({ id: `s${i}`, tokens: { input: i, output: i * 2 }, tools: [{ name: 'bash', calls: i }] })) },
      { 'key "quoted"\n': 1, '': { '': [] } },
    ];
    for (const value of values) expect(whole(value)).toBe(JSON.stringify(value, null, 2));
  });

  it('cuts a large value into pieces of 64 to 128 kB or so', () => {
    const value = { rows: Array.from({ length: 20_000 }, (_, i) => ({ row: i, text: 'x'.repeat(40) })) };
    const pieces = [...prettyJsonPieces(value)];
    expect(pieces.length).toBeGreaterThan(10);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(160 * 1024);
    expect(Math.min(...pieces.slice(0, -1).map((p) => p.length))).toBeGreaterThanOrEqual(64 * 1024);
    expect(pieces.join('')).toBe(JSON.stringify(value, null, 2));
  });

  it('writes summary.json as JSON.stringify would', async () => {
    const out = join(await tempDir(), 'report');
    const result = await build({ inputs: [join(FIXTURES, 'pi')], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 1)) });
    expect(await readFile(join(out, 'summary.json'), 'utf8')).toBe(`${JSON.stringify(result.summary, null, 2)}\n`);
  });
});
