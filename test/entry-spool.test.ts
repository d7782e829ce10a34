// A long session's rendered entries wait for their part in a spool on disk: what comes back must be
// exactly what went in, across the spool's chunks and in any script, and the file must go.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEntrySpool, type EntrySpool } from '../src/output/entry-spool.js';
import type { PageRenderer } from '../src/report/render.js';
import type { SessionPageView } from '../src/report/session-page.js';
import { renderedEntries } from '../src/report/session-pages.js';
import { tempDir } from './support/fixtures.js';

/** Entries of every kind of size and script: ASCII, accents, CJK, emoji, one larger than a chunk. */
function entryTexts(): string[] {
  const texts: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const kind = i % 5;
    texts.push(kind === 0 ? `<p>entry ${i}</p>` : kind === 1 ? `<p>café ${i} ${'é'.repeat(i % 300)}</p>` : kind === 2 ? `<p>日本語 ${i}</p>` : kind === 3 ? `<p>🌳 ${'x'.repeat(i)}</p>` : '');
  }
  texts.splice(1500, 0, `<pre>${'ü'.repeat(700_000)}</pre>`);
  return texts;
}

describe('the spool of rendered entries', () => {
  it('gives back each entry as added, written in chunks, one entry larger than a chunk among them', async () => {
    const path = join(await tempDir(), 'a.html.entries');
    const spool = openEntrySpool(path);
    const texts = entryTexts();
    const places = texts.map((text) => spool.add(text));
    expect(places.map((p) => p.bytes)).toEqual(texts.map((t) => Buffer.byteLength(t)));
    // Read back in runs of every length, out of order.
    for (const [from, to] of [[0, texts.length], [1499, 1502], [2000, 2001], [0, 1], [17, 900]] as const) {
      const first = places[from] as { offset: number };
      const last = places[to - 1] as { offset: number; bytes: number };
      const block = spool.read(first.offset, last.offset + last.bytes - first.offset);
      const back = places.slice(from, to).map((p) => block.toString('utf8', p.offset - first.offset, p.offset - first.offset + p.bytes));
      expect(back).toEqual(texts.slice(from, to));
    }
    spool.remove();
    spool.remove();
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a file that is already there rather than write into it', async () => {
    const path = join(await tempDir(), 'b.html.entries');
    openEntrySpool(path).add('x');
    expect(() => openEntrySpool(path)).toThrow();
  });

  it('holds a long page the same as memory does: every run of entries, every size', async () => {
    const texts = entryTexts();
    // Two sections, the budget passed part-way through the first.
    const cut = 1000;
    const view = {
      sections: [texts.slice(0, cut), texts.slice(cut)].map((list, s) => ({
        id: `s${s}`,
        entries: list.map((text, i) => ({ anchor: `e-${s}-${i}`, time: () => '', view: () => text })),
      })),
    } as unknown as SessionPageView;
    const renderer = { partial: (_name: string, data: { entry: string }) => data.entry } as unknown as PageRenderer;
    const budget = 20_000;
    const path = join(await tempDir(), 'c.html.entries');
    let opened: EntrySpool | null = null;
    const spooled = renderedEntries(view, renderer, budget, () => (opened ??= openEntrySpool(path)));
    const held = renderedEntries(view, renderer, budget, null);
    expect(existsSync(path)).toBe(true);
    expect(spooled.length).toBe(held.length);
    expect(spooled.sizes()).toEqual(held.sizes());
    expect(spooled.sizes()).toEqual([texts.slice(0, cut), texts.slice(cut)].map((list) => list.map((t) => Buffer.byteLength(t))));
    for (const range of [
      { section: 0, from: 0, to: cut },
      { section: 0, from: 3, to: 50 },
      { section: 0, from: 200, to: 700 },
      { section: 1, from: 0, to: texts.length - cut },
      { section: 1, from: 499, to: 503 },
    ]) {
      expect(spooled.html(range), JSON.stringify(range)).toEqual(held.html(range));
    }
    (opened as EntrySpool | null)?.remove();
  });

  it('is never opened for a session that fits its budget', async () => {
    const view = { sections: [{ id: 's', entries: [{ anchor: 'e', time: () => '', view: () => '<p>short</p>' }] }] } as unknown as SessionPageView;
    const renderer = { partial: (_name: string, data: { entry: string }) => data.entry } as unknown as PageRenderer;
    const entries = renderedEntries(view, renderer, 1000, () => {
      throw new Error('opened');
    });
    expect(entries.html({ section: 0, from: 0, to: 1 })).toEqual(['<p>short</p>']);
  });
});
