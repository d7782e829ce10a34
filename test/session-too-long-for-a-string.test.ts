// A JavaScript string holds at most about 512 MB: a session whose page would be longer must be
// written in parts without its whole page ever being made. (Regression: a 500 MB session's page
// was rendered whole to learn it did not fit, and failed with "Invalid string length".) The
// limit is scaled down here: a page render of more than LIMIT characters of entries fails as V8 would.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../src/build.js';
import type { Summary } from '../src/report/schema.js';
import type { PartSectionView } from '../src/report/session-page.js';
import { PART_BYTES } from '../src/report/session-parts.js';
import { ALL_UTC, tempDir } from './support/fixtures.js';
import { generatePiCorpus } from './support/pi-corpus.js';

const LIMIT = 2 * PART_BYTES;

vi.mock('../src/report/render.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/report/render.js')>();
  return {
    ...real,
    createRenderer: (...args: Parameters<typeof real.createRenderer>) => {
      const renderer = real.createRenderer(...args);
      return {
        ...renderer,
        render(template: string, layout: Parameters<typeof renderer.render>[1], view: object) {
          const sections = (view as { sections?: Pick<PartSectionView, 'items'>[] }).sections ?? [];
          const html = sections.flatMap((section) => section.items.flatMap((item) => (typeof item === 'string' ? [item] : item.html)));
          const chars = html.reduce((n, text) => n + text.length, 0);
          if (chars > LIMIT) throw new RangeError('Invalid string length');
          return renderer.render(template, layout, view);
        },
      };
    },
  };
});

describe('a session too long to be one string', () => {
  it('is written in parts, none of them failed', async () => {
    const input = await tempDir();
    await generatePiCorpus(input, { sessions: 1, seed: 12, turns: [500, 500], payloadBytes: 9000, siblingCopiesOfMissingOrigins: false });
    const out = join(await tempDir(), 'report');
    await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') });
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(summary.diagnostics.byReason['page-failed']).toBeUndefined();
    const pages = await readdir(join(out, 'sessions'));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(await readFile(join(out, 'sessions', page), 'utf8')).not.toContain('could not be written');
  }, 120_000);
});
