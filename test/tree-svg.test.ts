// The session tree's SVG: a legend, marks for errors and compactions, labels on their nodes,
// each branch tied to its section, drawing attributes of its own, and a bounded size when large.

import { describe, expect, it } from 'vitest';
import { splitBranches } from '../src/model/branches.js';
import { buildTree } from '../src/model/tree.js';
import { treeSvg, type TreeDrawing, type TreeSvgOptions } from '../src/report/svg/tree.js';
import type { Entry } from '../src/types.js';
import { prompt, reply } from './support/session-builders.js';

const onePage: TreeSvgOptions = { hrefOf: (e) => `#e-${e.id}`, copied: () => false, describe: (e) => (e.kind === 'prompt' ? `prompt ${e.id}` : e.kind) };

function compaction(id: string, parentId: string): Entry {
  return { key: id, id, parentId, timestamp: null, line: 0, usage: [], recovered: false, kind: 'compaction', summary: 'summary', tokensBefore: 1000, firstKeptEntryId: null };
}

function label(id: string, parentId: string, targetId: string, text: string): Entry {
  return { key: id, id, parentId, timestamp: null, line: 0, usage: [], recovered: false, kind: 'label', targetId, label: text };
}

/** p1 → r1 → p2 → r2 (an error), and a second branch from r1: p3 → a compaction → p4 → r4. */
const BRANCHED: Entry[] = [
  prompt('p1', null, 'first'),
  reply('r1', null, null, { parentId: 'p1' }),
  prompt('p3', null, 'other way', 'r1'),
  compaction('c1', 'p3'),
  prompt('p4', null, 'after compaction', 'c1'),
  reply('r4', null, null, { parentId: 'p4' }),
  prompt('p2', null, 'second', 'r1'),
  reply('r2', null, null, { parentId: 'p2', outcome: 'error' }),
  label('l1', 'r2', 'p2', 'checkpoint'),
];

function drawingOf(entries: readonly Entry[], options: TreeSvgOptions = onePage): TreeDrawing {
  const tree = buildTree(entries);
  return treeSvg(tree, splitBranches(tree), options);
}

function svgOf(entries: readonly Entry[], options: TreeSvgOptions = onePage): string {
  return drawingOf(entries, options).svg;
}

/** The `<a>` of the row whose link goes to `href`. */
function rowLinkingTo(svg: string, href: string): string {
  return new RegExp(`<a href="${href}" class="node[^"]*">.*?</a>`).exec(svg)?.[0] ?? '';
}

describe('the tree SVG', () => {
  const svg = svgOf(BRANCHED);

  // Regression (the report at 360 px): the legend was drawn in the SVG, in one line as wide as the
  // tree, and a phone's scroll box cut it after "abandoned branch"; it listed marks the tree did not draw.
  it('has a legend, apart from the SVG, of the marks it drew', () => {
    const drawing = drawingOf(BRANCHED);
    expect(drawing.legend.map((key) => key.label)).toEqual(['active path', 'abandoned branch', 'error reply', 'compaction']);
    expect(drawing.svg).not.toContain('legend');
    expect(drawing.legend[2]?.swatch).toMatch(/^<svg [^>]*class="tree-key"[^>]*>.*<circle [^>]*class="mark abandoned error"[^>]*stroke="#b42318"/);
    expect(drawing.legend[3]?.swatch).toMatch(/<path d="M8 2l6 6l-6 6l-6 -6z" class="mark abandoned compaction"/);
    const copied = drawingOf(BRANCHED, { ...onePage, copied: (e) => e.id === 'p1' });
    expect(copied.legend.map((key) => key.label)).toContain('copied from another file');
    const line = drawingOf([prompt('p1', null, 'first'), reply('r1', null, null, { parentId: 'p1' })]);
    expect(line.legend.map((key) => key.label)).toEqual(['active path']);
  });

  it('marks a turn with an error reply in the error colour and says "error"', () => {
    expect(rowLinkingTo(svg, '#e-p2')).toMatch(/class="node [^"]*error/);
    expect(rowLinkingTo(svg, '#e-p2')).toContain(' · error');
    expect(svg).toMatch(/<circle [^>]*class="mark [^"]*error[^"]*"[^>]*stroke="#b42318"/);
  });

  // Regression (an outside review for accessibility): rows 22 px apart, their links' 24 px
  // circles (WCAG 2.5.8, target size) overlapped the next row's.
  it('sets its rows, each a link, at least 24 px apart', () => {
    const ys = [...svg.matchAll(/<a href="[^"]*" class="node[^"]*">(?:<title>.*?<\/title>)?<text x="[\d.]+" y="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(ys.length).toBe(4);
    const gaps = ys.slice(1).map((y, n) => y - (ys[n] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(24);
  });

  it('draws a turn holding a compaction as a diamond', () => {
    expect(svg).toMatch(/<path d="M[^"]*z" class="mark [^"]*compaction/);
    expect(rowLinkingTo(svg, '#e-p3')).toContain(' · compaction');
  });

  it('shows a label on the node it names', () => {
    expect(rowLinkingTo(svg, '#e-p2')).toContain('[checkpoint]');
  });

  // Regression (a browser review): a label of 230 letters was drawn whole, the tree 2,577 px wide
  // and the row's title out of view.
  it('cuts a long label, and gives it whole in the row’s tooltip', () => {
    const long = `bookmark ${'x'.repeat(220)} end`;
    const labelled = svgOf([...BRANCHED.slice(0, -1), label('l1', 'r2', 'p2', long)]);
    const row = rowLinkingTo(labelled, '#e-p2');
    expect(row).toContain(`[bookmark ${'x'.repeat(30)}…]`);
    expect(row).toContain(`<title>[${long}] prompt p2</title>`);
    expect(Number(/^<svg [^>]*width="(\d+)"/.exec(labelled)?.[1])).toBeLessThan(Number(/^<svg [^>]*width="(\d+)"/.exec(svg)?.[1]) + 100);
    expect(rowLinkingTo(svg, '#e-p2')).not.toContain('<title>');
  });

  it('links each branch to its "Branch N" section, on the page that holds the branch', () => {
    expect(svg).toContain('<a href="#branch-2" class="branch-tag">');
    const split = svgOf(BRANCHED, { ...onePage, hrefOf: (e) => `part-${e.id === 'p3' ? 2 : 1}.html#e-${e.id}` });
    expect(split).toContain('<a href="part-2.html#branch-2" class="branch-tag">');
    expect(split).toContain('<a href="part-1.html#e-p1"');
  });

  it('carries its own drawing attributes: sized, edges as unfilled strokes, a font', () => {
    expect(svg).toMatch(/^<svg [^>]*width="\d+" height="\d+"[^>]*font-family="[^"]+" font-size="12"/);
    expect(svg).toMatch(/<g class="edges" fill="none" stroke="#[0-9a-f]{6}" stroke-width="2">/);
    expect(svg).toMatch(/<g class="marks" fill="#ffffff" stroke="#[0-9a-f]{6}" stroke-width="2">/);
  });
});

// Regression (a review in Chromium): a row whose text ran into right-to-left words drew " · 1" of
// its count among them and "reply" after them; the session's text is isolated from bough's.
it('sets a row’s text apart from its counts, so right-to-left words do not take them in', () => {
  const svg = svgOf([prompt('p1', null, 'first'), reply('r1', null, null, { parentId: 'p1' })], { ...onePage, describe: () => 'Start: مرحبا שלום' });
  expect(svg).toContain('<tspan class="title" unicode-bidi="isolate">Start: مرحبا שלום</tspan><tspan class="counts" fill="#');
});

// Regression (a reader's review): the labels' room was one width for any text, and a label of
// capitals, CJK or emoji ran past the SVG's edge, cut mid-letter with its counts.
describe('a tree row’s label', () => {
  const widthOf = (text: string) => {
    const svg = svgOf([prompt('p1', null, 'first'), reply('r1', null, null, { parentId: 'p1' })], { ...onePage, describe: () => text });
    return Number(/^<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
  };

  it('gets room for its widest letters, and the counts after it', () => {
    const plain = widthOf('a prompt of plain words');
    expect(widthOf('W'.repeat(71))).toBeGreaterThan(plain + 71 * 9 - 560);
    expect(widthOf('漢'.repeat(71))).toBeGreaterThanOrEqual(plain - 560 + 71 * 12);
    expect(widthOf('a'.repeat(40))).toBe(plain);
  });

  // Regression (a hostile look): cut at 72 UTF-16 units, a label of emoji ended in half of one (�).
  it('is cut between characters, never inside one', () => {
    const svg = svgOf([prompt('p1', null, 'first'), reply('r1', null, null, { parentId: 'p1' })], { ...onePage, describe: () => '🎉'.repeat(50) });
    expect(svg).toContain(`${'🎉'.repeat(35)}…`);
    expect(svg).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('a tree of thousands of turns', () => {
  /** 5,000 turns in a line, with an error every 500th and a side branch every 1,000th. */
  function longSession(): Entry[] {
    const entries: Entry[] = [];
    let parent: string | null = null;
    for (let i = 0; i < 5000; i += 1) {
      entries.push(prompt(`p${i}`, null, `turn ${i}`, parent));
      entries.push(reply(`r${i}`, null, null, { parentId: `p${i}`, outcome: i % 500 === 250 ? 'error' : 'ok' }));
      if (i % 1000 === 500) entries.push(prompt(`side${i}`, null, `side ${i}`, `r${i}`));
      parent = `r${i}`;
    }
    return entries;
  }

  it('folds runs of plain turns, keeps the marked ones, and stays small', () => {
    // Its speed is the bench's to check, never a timed test's: this one failed a loaded machine's CI at 3.2 s.
    const svg = svgOf(longSession());
    const rows = svg.match(/class="node /g)?.length ?? 0;
    expect(rows).toBeGreaterThan(100);
    expect(rows).toBeLessThan(400);
    expect(svg.match(/class="node [^"]*error/g)?.length).toBe(10);
    expect(svg).toMatch(/⋯ \d+ turns in a line/);
    expect(Number(/height="(\d+)"/.exec(svg)?.[1])).toBeLessThan(10_000);
    expect(svg.length).toBeLessThan(150_000);
  });
});

describe('a tree of 5,000 branches from one prompt (regression: each leaf drawn, 26 MB of SVG for 50,000)', () => {
  // Regression: one entry with 300 branches took a lane each, and every label started 1,900 px
  // to the right, out of view in a page 1,280 px wide.
  it('keeps its labels in view whatever the number of branches from one entry', () => {
    const entries: Entry[] = [prompt('p0', null, 'root'), reply('r0', null, null, { parentId: 'p0' })];
    for (let i = 0; i < 300; i += 1) entries.push(prompt(`c${i}`, null, `child ${i}`, 'r0'), reply(`a${i}`, null, null, { parentId: `c${i}` }));
    const svg = svgOf(entries);
    const labelXs = [...svg.matchAll(/class="node[^"]*">(?:<title>[^<]*<\/title>)?<text x="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(labelXs.length).toBeGreaterThan(300);
    expect(Math.max(...labelXs)).toBeLessThan(500);
    expect(Number(/width="(\d+)"/.exec(svg)?.[1])).toBeLessThan(1100);
    // Every row is still there, each a link to its branch's start.
    expect(svg).toContain('href="#e-c299"');
  });

  it('draws a thousand rows, the active path’s first, and says how many turns it did not draw', () => {
    const entries: Entry[] = [prompt('p0', null, 'start')];
    for (let i = 0; i < 5000; i += 1) entries.push(reply(`r${i}`, null, null, { parentId: 'p0' }));
    const svg = svgOf(entries);
    const rows = svg.match(/class="node /g)?.length ?? 0;
    expect(rows).toBe(1000);
    // A row for the prompt and one for each reply (each starts a branch): 999 replies drawn, 4,001 not.
    expect(svg).toContain('⋯ 4,001 more turns, not drawn: a tree this large does not fit a page. Every branch is in the conversation below.');
    // The active path's among them, where the session was left (regression, a trees review: the
    // first thousand written were drawn, and the conversation's last turn not).
    expect(rowLinkingTo(svg, '#e-r4999')).toContain('class="node active');
    expect(svg).toContain('href="#e-r997"');
    expect(svg).not.toContain('href="#e-r998"');
    expect(svg.length).toBeLessThan(600_000);
    // An active path longer than what is drawn: its own rows, from the root (a hostile look: half
    // of the thousand were abandoned turns, its last 550 turns not drawn).
    const long: Entry[] = [];
    for (let i = 0; i < 1100; i += 1) {
      long.push(prompt(`lp${i}`, null, `active ${i}`, i === 0 ? null : `lr${i - 1}`), prompt(`side${i}`, null, `side ${i}`, i === 0 ? null : `lr${i - 1}`));
      long.push(reply(`lr${i}`, null, null, { parentId: `lp${i}` }));
    }
    const longSvg = svgOf(long);
    expect(longSvg.match(/class="node /g)?.length).toBe(1000);
    expect(longSvg.match(/class="node active/g)?.length).toBe(1000);
    // The last line sits inside the drawing.
    const height = Number(/height="(\d+)"/.exec(svg)?.[1]);
    const lastY = Number(/<text class="counts" x="\d+" y="(\d+)"/.exec(svg)?.[1]);
    expect(lastY).toBeLessThan(height);
  });
});

describe('a tree of several roots', () => {
  // Regression (a review of Pi's trees): a second root was drawn in the lane of a branch that ended
  // above it, and read as that branch's next turn: nothing marked it as a root.
  it('says which rows start anew, and only those', () => {
    const entries: Entry[] = [prompt('p1', null, 'first'), reply('r1', null, null, { parentId: 'p1' }), prompt('p2', null, 'fresh start', null), reply('r2', null, null, { parentId: 'p2' })];
    const svg = svgOf(entries);
    expect(rowLinkingTo(svg, '#e-p2')).toContain(' · a new root</tspan>');
    expect(rowLinkingTo(svg, '#e-p1')).not.toContain('a new root');
    // A reply written before its prompt (a hostile look): its prompt is the first root, no new one.
    const childFirst = svgOf([reply('r9', null, null, { parentId: 'p9' }), prompt('p9', null, 'the real root')]);
    expect(childFirst).not.toContain('a new root');
  });

  // Regression (a review of Pi): a file whose lines came out of order (each child written before
  // its parent) drew four unjoined rows, the root turn last, under "1 branch · 1 root".
  it('draws a file written out of order as the same tree as in order', () => {
    const inOrder: Entry[] = [prompt('p1', null, 'one'), reply('r1', null, null, { parentId: 'p1' }), prompt('p2', null, 'two', 'r1'), reply('r2', null, null, { parentId: 'p2' })];
    const rows = (svg: string) => [...svg.matchAll(/<a href="#e-([^"]+)" class="node/g)].map((m) => m[1]);
    const reversed = svgOf([...inOrder].reverse());
    expect(rows(reversed)).toEqual(['p1', 'p2']);
    expect(reversed).toBe(svgOf(inOrder));
  });
});
