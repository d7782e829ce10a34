// Long sessions are cut into pages of about 2 MB: nothing dropped, every link finds its entry.

import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { linkAcrossParts, partPage, planParts, type PartPlan } from '../src/report/session-parts.js';
import { ALL_UTC, tempDir } from './support/fixtures.js';
import { generatePiCorpus } from './support/pi-corpus.js';

describe('planning parts', () => {
  const section = (id: string, sizes: number[], bytes = 0) => ({ id, bytes, entries: sizes.map((n, i) => ({ anchor: `${id}-${i}`, bytes: n })) });

  it('packs entries in order, carries a section on into the next part, and never leaves a part empty', () => {
    const plan = planParts([section('a', [40, 40, 40]), section('b', [150, 10])], 30, 100);
    expect(plan.parts).toEqual([
      [{ section: 0, from: 0, to: 1 }],
      [{ section: 0, from: 1, to: 3 }],
      [{ section: 1, from: 0, to: 1 }],
      [{ section: 1, from: 1, to: 2 }],
    ]);
    expect(plan.partOf.get('a')).toBe(0);
    expect(plan.partOf.get('b')).toBe(2);
    expect(plan.partOf.get('b-1')).toBe(3);
  });

  it('counts each section\'s own heading on every part it is on (regression: 50,000 short branches made parts of 3 MB)', () => {
    // Alone, the entries would fit two to a part; their sections' headings make it one.
    const plan = planParts([section('a', [30], 30), section('b', [30], 30), section('c', [30, 30], 30)], 0, 100);
    expect(plan.parts).toEqual([
      [{ section: 0, from: 0, to: 1 }],
      [{ section: 1, from: 0, to: 1 }],
      [{ section: 2, from: 0, to: 2 }],
    ]);
    // A section carried on into the next part takes its heading there too.
    expect(planParts([section('a', [40, 40, 40], 20)], 0, 100).parts).toEqual([[{ section: 0, from: 0, to: 2 }], [{ section: 0, from: 2, to: 3 }]]);
  });

  it('points links at the part holding their entry, and leaves text alone', () => {
    const plan = planParts([section('a', [60, 60])], 0, 100);
    const html = '<a href="#a-1">x</a> <a href="#a-0">y</a> <code>href=&quot;#a-1&quot;</code>';
    expect(linkAcrossParts(html, 0, plan, (i) => `s-part-${i + 1}.html`)).toBe('<a href="s-part-2.html#a-1">x</a> <a href="#a-0">y</a> <code>href=&quot;#a-1&quot;</code>');
    expect(partPage('sessions/s.html', 0)).toBe('sessions/s.html');
    expect(partPage('sessions/s.html', 2)).toBe('sessions/s-part-3.html');
  });

  it('points a link to a tool call at the part holding its entry', () => {
    const plan = planParts([section('a', [60, 60])], 0, 100);
    expect(linkAcrossParts('<a href="#a-1~toolu_K">the Task call</a>', 0, plan, (i) => `s-part-${i + 1}.html`)).toBe('<a href="s-part-2.html#a-1~toolu_K">the Task call</a>');
    expect(linkAcrossParts('<a href="#a-0~toolu_K">the Task call</a>', 1, plan, (i) => `s-part-${i + 1}.html`)).toBe('<a href="s-part-1.html#a-0~toolu_K">the Task call</a>');
  });

  it('points links the way a plain replace of every href="#…" would, on any markup', () => {
    const byReplace = (html: string, current: number, plan: PartPlan, fileOf: (i: number) => string) =>
      html.replace(/href="#([^"]+)"/g, (whole, anchor: string) => {
        const part = plan.partOf.get(anchor);
        return part === undefined || part === current ? whole : `href="${fileOf(part)}#${anchor}"`;
      });
    const plan: PartPlan = { parts: [[], [], []], partOf: new Map([['a', 0], ['b', 1], ['c', 2], ['ab', 2]]) };
    const fileOf = (i: number) => `s-part-${i + 1}.html`;
    const atoms = ['href="#', 'a', 'b', 'c', '"', ' ', 'href="', '#', 'ab', 'href="#a"', 'href="#b"', 'href="#"', '\n', '<a ', '>'];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let t = 0; t < 20_000; t++) {
      const html = Array.from({ length: next(12) }, () => atoms[next(atoms.length)]).join('');
      for (const current of [0, 1, 2]) expect(linkAcrossParts(html, current, plan, fileOf), html).toBe(byReplace(html, current, plan, fileOf));
    }
  });
});

describe('a session of several megabytes', () => {
  let out: string;
  let prompts: number;
  beforeAll(async () => {
    const input = await tempDir();
    const truth = await generatePiCorpus(input, { sessions: 1, seed: 11, turns: [500, 500], payloadBytes: 9000, siblingCopiesOfMissingOrigins: false });
    prompts = truth.totals.prompts;
    out = join(await tempDir(), 'report');
    await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') });
  }, 120_000);

  it('is written in parts of about 2 MB, each prompt once, with links that find their entries', async () => {
    const partNumber = (file: string) => Number(/-part-(\d+)\.html$/.exec(file)?.[1] ?? 1);
    const files = (await readdir(join(out, 'sessions'))).sort((a, b) => partNumber(a) - partNumber(b));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const html = new Map<string, string>();
    for (const file of files) {
      expect((await stat(join(out, 'sessions', file))).size).toBeLessThan(2_200_000);
      html.set(file, await readFile(join(out, 'sessions', file), 'utf8'));
    }
    const all = [...html.values()];
    // Each part's outline lists its own prompts: together, each prompt once, each on the part it names.
    const targets = files.flatMap((file) => {
      const page = html.get(file) as string;
      const start = page.indexOf('<nav class="outline"');
      if (start === -1) return [];
      const outline = page.slice(start, page.indexOf('</nav>', start));
      return [...outline.matchAll(/href="#(e-[^"]+)"/g)].map((m) => ({ file, anchor: m[1] as string }));
    });
    expect(targets).toHaveLength(prompts);
    expect(new Set(targets.map((t) => t.anchor)).size).toBe(prompts);
    for (const { file, anchor } of targets) expect(html.get(file), anchor).toContain(`id="${anchor}"`);
    // Every link to an entry on another part names a part that has that entry.
    for (const page of all) {
      for (const [, file, anchor] of page.matchAll(/href="([^"#]*-part-\d+\.html|[^"#/]*\.html)?#(e-[^"]+)"/g)) {
        if (!file) continue;
        expect(html.get(file), `${file}#${anchor}`).toContain(`id="${anchor}"`);
      }
    }
    expect(all[1]).toMatch(/Part 2 of \d+/);
    // Regression (a browser review): the list of parts gave times without their day ("Part 12 ·
    // from 13:02:17" after a part of the next day) and named no branch; now each part names the
    // section it starts in where that changes, and its day where that changes.
    const labels = [...(all[1] as string).matchAll(/<a href="[^"]*">(Part \d+[^<]*)<\/a>|<span[^>]*aria-current[^>]*>(Part \d+[^<]*)</g)].map((m) => m[1] ?? m[2]);
    expect(labels[0]).toMatch(/^Part 1 · Conversation \(active path\) · from \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(labels.some((label) => /^Part \d+ · Branch \d+ · from /.test(label ?? ''))).toBe(true);
    // Its two lists of parts, above and below, are two landmarks named apart.
    expect([...(all[1] as string).matchAll(/<nav class="parts" aria-label="([^"]+)">/g)].map((m) => m[1])).toEqual(['Parts of this session', 'Parts of this session, at its end']);
    // Folded on every part (regression: open on later parts, it put a phone's first message 20,000 px down); the script opens it beside the conversation on a wide screen.
    expect(all[1]).toMatch(/<nav class="outline" aria-label="Prompts on this page">\s*<details><summary>Prompts in this part/);
    // Its entries waited for their parts in a spool beside them, which is gone.
    expect(files.filter((file) => !file.endsWith('.html'))).toEqual([]);
  });
});

describe('a session of many short prompts', () => {
  // Regression: its first part was measured with the outline of every prompt of the session in its
  // head, which each part lists only its own of: a 500 MB session's first part held one entry.
  it('fills its first part as it fills the others', async () => {
    const input = await tempDir();
    await generatePiCorpus(input, { sessions: 1, seed: 12, turns: [6000, 6000], payloadBytes: 200, siblingCopiesOfMissingOrigins: false });
    const out = join(await tempDir(), 'report');
    await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = await readdir(join(out, 'sessions'));
    const first = files.find((f) => !f.includes('-part-')) as string;
    const second = files.find((f) => f.endsWith('-part-2.html')) as string;
    expect(second).toBeDefined();
    const [firstBytes, secondBytes] = [(await stat(join(out, 'sessions', first))).size, (await stat(join(out, 'sessions', second))).size];
    expect(firstBytes).toBeGreaterThan(secondBytes * 0.75);
  }, 120_000);
});

describe('a single line of 30 MB', () => {
  it('builds: what cannot be shown is cut with a note and a count, and no page is much over 2 MB', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 10, 0, s)).toISOString();
    const lines = [
      { type: 'session', version: 3, id: 'huge-line', timestamp: at(0), cwd: '/home/ana/shop' },
      { type: 'message', id: 'p1', parentId: null, timestamp: at(1), message: { role: 'user', content: `Look at this log:\n${'0123456789 abcdefghij\n'.repeat(1_400_000)}` } },
      { type: 'message', id: 'p2', parentId: 'p1', timestamp: at(2), message: { role: 'user', content: 'And the end of it?' } },
    ];
    await writeFile(join(input, 's.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') });
    const pages = await readdir(join(out, 'sessions'));
    const html = await Promise.all(pages.map((p) => readFile(join(out, 'sessions', p), 'utf8')));
    for (const page of html) expect(Buffer.byteLength(page)).toBeLessThan(2_200_000);
    const all = html.join('');
    expect(all).toMatch(/… [\d,]+ more characters not shown here\./);
    expect(all).toContain('And the end of it?');
  }, 60_000);
});
