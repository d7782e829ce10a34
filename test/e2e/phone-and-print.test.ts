// The report on a phone and on paper, in Chromium: no page wider than a phone's screen, every
// folded part of a branched session open in print, the tree drawn with its own attributes and a
// legend, and the header reaching the overview, the projects and data quality.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.js';
import type { Summary } from '../../src/report/schema.js';
import { openPage, pageProblems, requireBrowser, sharedBrowser } from '../support/browser.js';
import { ALL_UTC } from '../support/fixtures.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/pi');
const browser = sharedBrowser();
let work: string;
let out: string;
let summary: Summary;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bough-phone-'));
  out = join(work, 'report');
  // With a session whose tool has a name too long for a phone's line (an MCP tool's).
  const longNames = resolve(FIXTURES, '../cases/long-names');
  await build({ inputs: [FIXTURES, longNames], out, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
  summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
});

afterAll(async () => {
  await browser.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The fixture made to branch: its page has a tree with forks and folded parts in several branch sections. */
function branchedSession(): string {
  const session = summary.sessions.find((s) => s.file.endsWith('tree-branches.jsonl'));
  if (!session || session.branches < 2) throw new Error('fixtures/pi/tree-branches.jsonl should be a branched session');
  return session.page;
}

const url = (page: string) => pathToFileURL(join(out, page)).href;

describe('the report on a 390 px and a 360 px phone screen', () => {
  // Regression at 360 px: the footer's keyboard-shortcuts setting did not wrap, 386 px wide on every page.
  it.for([390, 360])('never scrolls sideways at %i px: the index, a project, a branched session, one with a long tool name and data quality fit', async (screen, context) => {
    requireBrowser(context);
    const phone = await (await browser.context()).browser()!.newContext({ viewport: { width: screen, height: 844 } });
    try {
      const longNames = summary.sessions.find((s) => s.file.endsWith('long-tool-name.jsonl'))!.page;
      for (const page of ['index.html', summary.projects[0]!.page, branchedSession(), longNames, 'data-quality.html']) {
        const visit = await openPage(phone, url(page));
        try {
          const width = await visit.page.evaluate(() => document.documentElement.scrollWidth);
          expect({ page, width }).toEqual({ page, width: screen });
          // Nor does a badge run past its entry (regression: a long label was cut off at its edge).
          const overflowing = await visit.page.evaluate(() =>
            Array.from(document.querySelectorAll('.entry .badge'))
              .filter((badge) => badge.getBoundingClientRect().right > (badge.closest('.entry') as Element).getBoundingClientRect().right + 1)
              .map((badge) => badge.textContent),
          );
          expect({ page, overflowing }).toEqual({ page, overflowing: [] });
          expect(pageProblems(visit, page)).toEqual([]);
        } finally {
          await visit.page.close();
        }
      }
    } finally {
      await phone.close();
    }
  });
});

// Regression (a browser review): at 360 px the keyboard's focus on a tree's row or branch tag
// near the box's edge showed it cut (a link in a drawing is not scrolled into view as an HTML
// link is); every link the tree holds now shows whole when the keyboard reaches it.
describe('the tree on a phone, by keyboard', () => {
  it('scrolls each link it moves to into its box', async (context) => {
    requireBrowser(context);
    const phone = await (await browser.context()).browser()!.newContext({ viewport: { width: 360, height: 844 } });
    try {
      const { page } = await openPage(phone, url(branchedSession()));
      const links = await page.locator('svg.tree a').count();
      expect(links).toBeGreaterThan(3);
      await page.locator('svg.tree a').first().focus();
      const cut: string[] = [];
      for (let n = 0; n < links; n++) {
        const seen = await page.evaluate(() => {
          const link = document.activeElement as Element;
          const box = link.closest('.tree-scroll') as HTMLElement;
          const at = link.getBoundingClientRect();
          const frame = box.getBoundingClientRect();
          const inside = at.left >= frame.left + box.clientLeft - 0.5 && at.right <= frame.left + box.clientLeft + box.clientWidth + 0.5 && at.top >= frame.top - 0.5 && at.bottom <= frame.top + box.clientTop + box.clientHeight + 0.5;
          return { href: link.getAttribute('href') ?? '', inside, scrolled: box.scrollLeft };
        });
        if (!seen.inside) cut.push(seen.href);
        await page.keyboard.press('Tab');
        if (!(await page.evaluate(() => document.activeElement?.closest('svg.tree') !== null))) break;
      }
      expect(cut).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  // Regression (the report at 360 px): the legend was drawn in the SVG in one line, and the tree's
  // scroll box cut it after "abandoned branch".
  it('shows its legend whole, wrapped to the screen, each key with its mark', async (context) => {
    requireBrowser(context);
    const phone = await (await browser.context()).browser()!.newContext({ viewport: { width: 360, height: 844 } });
    try {
      const { page } = await openPage(phone, url(branchedSession()));
      const keys = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.tree-section ul.tree-legend li')).map((key) => {
          const at = key.getBoundingClientRect();
          return { text: key.textContent?.trim(), onScreen: at.left >= 0 && at.right <= window.innerWidth, inScrollBox: key.closest('.tree-scroll') !== null, mark: key.querySelector('svg.tree-key .mark') !== null };
        }),
      );
      expect(keys.map((key) => key.text)).toEqual(['active path', 'abandoned branch']);
      expect(keys.every((key) => key.onScreen && !key.inScrollBox && key.mark)).toBe(true);
    } finally {
      await phone.close();
    }
  });
});

// Regression: a project's folder named with 200 letters and no space kept its column that wide,
// and pushed every number of the overview's tables out of view, behind the box's scroll.
describe('a long name without a space', () => {
  it('breaks in its cell, and leaves the numbers of its table in view', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url('index.html'));
    try {
      expect(await visit.page.locator('a', { hasText: 'afoldernamedwithoutonespace' }).count()).toBeGreaterThan(1);
      const scrolling = await visit.page.evaluate(() =>
        Array.from(document.querySelectorAll('.table-scroll'))
          .filter((box) => box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1)
          .map((box) => box.closest('section')?.querySelector('h2, h3')?.textContent),
      );
      expect(scrolling).toEqual([]);
    } finally {
      await visit.page.close();
    }
  });
});

// Regression (a browser review): at a tablet's width a model's name had 55 px (nine lines of five
// letters), at a phone's a session's title one word a line (the room kept went to the day it
// started) and a touched file's path four letters a line.
describe('the names in a table', () => {
  it.for([768, 640, 360])('keep room for a word or two at %i px', async (screen, context) => {
    requireBrowser(context);
    const narrow = await (await browser.context()).browser()!.newContext({ viewport: { width: screen, height: 900 } });
    try {
      const project = summary.projects.find((p) => p.sessions > 0)!.page;
      for (const [page, selector, least] of [
        ['index.html', 'table.models td:first-child', 9],
        // The price entry a model was priced as, on every project's page (a second hostile look).
        ...summary.projects.filter((p) => p.cost.bough !== null).map((p) => [p.page, 'table.models td:nth-child(2):has(> code)', 9] as const),
        ['index.html', 'table.sessions td:nth-child(2)', 11],
        [project, 'table.files td:first-child', 14],
      ] as const) {
        const visit = await openPage(narrow, url(page));
        try {
          const widths = await visit.page.locator(selector).evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().width / parseFloat(getComputedStyle(cell).fontSize)));
          expect({ page, selector, found: widths.length > 0 }).toEqual({ page, selector, found: true });
          expect({ page, selector, narrowest: Math.min(...widths) >= least - 0.01 }).toEqual({ page, selector, narrowest: true });
        } finally {
          await visit.page.close();
        }
      }
    } finally {
      await narrow.close();
    }
  });
});

describe('a table wider than a phone', () => {
  // Regression: it scrolled sideways in its box with nothing to say there was more of it.
  it('shades the side it can still scroll to, and not the side it has reached', async (context) => {
    requireBrowser(context);
    // The page's own style allows no inline style; this test adds one, to hide the tables' text.
    const phone = await (await browser.context()).browser()!.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    try {
      const { page } = await openPage(phone, url('index.html'));
      const at = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.table-scroll')).findIndex((box) => !box.closest('details:not([open])') && box.scrollWidth > box.clientWidth + 50),
      );
      expect(at).toBeGreaterThanOrEqual(0);
      const box = page.locator('.table-scroll').nth(at);
      // Only the box's own background is left to see: the cue, or the plain panel.
      await page.addStyleTag({ content: '.table-scroll > * { visibility: hidden; }' });
      await box.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const edge = async (side: 'left' | 'right', scrollLeft: number) => {
        await box.evaluate((el, x) => {
          el.scrollLeft = x;
        }, scrollLeft);
        const r = await box.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
        // A strip 12 px wide, whole pixels inside the box, at its very edge.
        return page.screenshot({ clip: { x: side === 'left' ? Math.ceil(r.x) + 1 : Math.floor(r.x + r.width) - 13, y: Math.ceil(r.y) + 4, width: 12, height: 24 } });
      };
      const plainLeft = await edge('left', 0);
      const shadedRight = await edge('right', 0);
      const plainRight = await edge('right', 10_000);
      const shadedLeft = await edge('left', 10_000);
      expect(plainLeft.equals(plainRight)).toBe(true);
      expect(shadedRight.equals(plainRight)).toBe(false);
      expect(shadedLeft.equals(plainLeft)).toBe(false);
      await page.close();
    } finally {
      await phone.close();
    }
  });
});

describe('a caption of a table wider than a phone', () => {
  // Regression (a review of the pages as a user reads them): the note "Costs rounded one by one:
  // the rows as shown add up to …" ran off the screen's edge at 360 px, inside the table's box.
  it('stays on the screen, wrapped, wherever the table is scrolled', async (context) => {
    requireBrowser(context);
    const phone = await (await browser.context()).browser()!.newContext({ viewport: { width: 360, height: 800 } });
    try {
      const { page } = await openPage(phone, url('index.html'));
      const edges = await page.evaluate(() => {
        const box = Array.from(document.querySelectorAll('.table-scroll')).find((b) => !b.closest('details:not([open])') && b.scrollWidth > b.clientWidth + 50);
        const table = box?.querySelector('table');
        if (!box || !table) return null;
        // The page's own captions appear only where rounding shows; the rule is the stylesheet's.
        const caption = table.createCaption();
        caption.textContent = 'Costs rounded one by one: the rows as shown add up to $152.30; the exact sum is $152.31.';
        const at = () => caption.getBoundingClientRect().toJSON() as DOMRect;
        const start = at();
        box.scrollLeft = 10_000;
        return { start, end: at(), width: document.documentElement.clientWidth };
      });
      expect(edges).not.toBeNull();
      for (const r of [edges!.start, edges!.end]) {
        expect(r.left).toBeGreaterThanOrEqual(0);
        expect(r.right).toBeLessThanOrEqual(edges!.width);
      }
      await page.close();
    } finally {
      await phone.close();
    }
  });
});

describe('a table narrower than the page', () => {
  // Regression: the scroll cue gave the tables' boxes the panel's colour, and the tokens table
  // (760 px at most) then stood beside a band of panel as wide as the page.
  it('sits in a box as wide as itself', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const widths = await visit.page.locator('.table-scroll:has(> table.tokens)').first().evaluate((box) => [box.getBoundingClientRect().width, (box.firstElementChild as HTMLElement).getBoundingClientRect().width]);
      expect(widths[0]).toBeCloseTo(widths[1] as number, 0);
    } finally {
      await visit.page.close();
    }
  });
});

describe('a branched session printed', () => {
  it('shows the content of every folded part that prints, and hides the site navigation', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const { page } = visit;
      expect(await page.locator('main details:not([open])').count()).toBeGreaterThan(0);
      await page.emulateMedia({ media: 'print' });
      // Each <details> whose summary prints must print what it folds (navigation not printed at all is exempt).
      const hidden = await page.evaluate(() =>
        Array.from(document.querySelectorAll("details")).flatMap((details) => {
          const summary = details.querySelector(':scope > summary');
          if (!summary || summary.getClientRects().length === 0) return [];
          const folded = Array.from(details.children).filter((child) => child !== summary);
          return folded.filter((child) => child.getClientRects().length === 0).map(() => summary.textContent?.trim() ?? '');
        }),
      );
      expect(hidden).toEqual([]);
      expect(await page.locator('header.site nav').isVisible()).toBe(false);
      expect(await page.locator('svg.tree').isVisible()).toBe(true);
      expect(pageProblems(visit, 'printed session')).toEqual([]);
    } finally {
      await visit.page.close();
    }
  });

  // Regression (an outside review in a browser): printed after "Prompts only" was chosen, the
  // replies and tool results were left out, and nothing said so.
  it('prints every entry whatever view the reader chose on screen', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const { page } = visit;
      const shown = () => page.locator('ol.conversation > li.kind-reply').evaluateAll((entries) => entries.filter((entry) => entry.getClientRects().length > 0).length);
      const all = await shown();
      expect(all).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Prompts only' }).click();
      expect(await shown()).toBe(0);
      await page.emulateMedia({ media: 'print' });
      expect(await shown()).toBe(all);
    } finally {
      await visit.page.close();
    }
  });

  // Regression (a browser review): printed from a system in dark mode, the page took the dark
  // palette, which browsers print without its background: light grey text on white paper.
  it('prints dark text on white whatever the screen\'s colour scheme', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const { page } = visit;
      const colours = () => page.evaluate(() => [getComputedStyle(document.documentElement).color, getComputedStyle(document.documentElement).backgroundColor]);
      await page.emulateMedia({ media: 'screen', colorScheme: 'dark' });
      expect((await colours())[0]).toBe('rgb(230, 227, 220)');
      // The browser's own controls and scrollbars dark too (regression, an outside review in a
      // browser: a checkbox and the tables' scrollbars stayed light on the dark page).
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
      await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
      expect(await colours()).toEqual(['rgb(31, 35, 40)', 'rgb(251, 250, 247)']);
    } finally {
      await visit.page.close();
    }
  });

  // Regression (a browser review): a printed index ended a page with the heading "Cost per month",
  // its chart on the next; a session left pages half blank before each entry taller than the rest.
  it('keeps a heading with what it introduces, and lets a long entry run on to the next page', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const { page } = visit;
      await page.emulateMedia({ media: 'print' });
      const breaks = await page.evaluate(() => ({
        heading: getComputedStyle(document.querySelector('h2') as Element).breakAfter,
        head: getComputedStyle(document.querySelector('.entry-head') as Element).breakAfter,
        entry: getComputedStyle(document.querySelector('.entry') as Element).breakInside,
        // Regression (a browser review): a tree taller than a page, kept whole, left a blank page
        // (its box's edge on it) before it; it runs on from where it starts.
        tree: getComputedStyle(document.querySelector('svg.tree') as Element).breakInside,
        treeBox: getComputedStyle(document.querySelector('.tree-scroll') as Element).display,
      }));
      expect(breaks).toEqual({ heading: 'avoid', head: 'avoid', entry: 'auto', tree: 'auto', treeBox: 'contents' });
    } finally {
      await visit.page.close();
    }
  });

  it('opens every folded part on beforeprint and folds them back on afterprint', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const closed = () => visit.page.locator('details:not([open])').count();
      const before = await closed();
      expect(before).toBeGreaterThan(0);
      await visit.page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      expect(await closed()).toBe(0);
      await visit.page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      expect(await closed()).toBe(before);
    } finally {
      await visit.page.close();
    }
  });
});

describe('a sortable table printed', () => {
  // Regression (an outside review in a browser): Chromium repeats a table's header on each printed
  // page but for what a button holds, and a sortable header's words are in its button: pages after
  // the first began with the sort arrow alone.
  it('prints its header as words, not buttons, and gives the buttons back after', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url('index.html'));
    try {
      const { page } = visit;
      const buttons = () => page.locator('table.sortable thead th > button').count();
      const headers = await page.locator('table.sortable thead th').allTextContents();
      const before = await buttons();
      expect(before).toBeGreaterThan(0);
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      expect(await buttons()).toBe(0);
      expect(await page.locator('table.sortable thead th').allTextContents()).toEqual(headers);
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      expect(await buttons()).toBe(before);
      expect(pageProblems(visit, 'index.html')).toEqual([]);
    } finally {
      await visit.page.close();
    }
  });
});

describe('the overview printed on A4', () => {
  // Regression: tables kept their screen size on paper, which does not scroll: the last columns
  // (the recorded cost) were cut off the page, and a model's name broke every few letters.
  it('fits every table into the paper’s width, and leaves out the charts’ tables of a column per model', async (context) => {
    requireBrowser(context);
    // A4 less Chromium's default margins, at 96 px to the inch.
    const paper = await (await browser.context()).browser()!.newContext({ viewport: { width: 718, height: 1000 } });
    try {
      for (const page of ['index.html', summary.projects[0]!.page]) {
        const visit = await openPage(paper, url(page));
        try {
          await visit.page.emulateMedia({ media: 'print' });
          await visit.page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
          const past = await visit.page.evaluate(() =>
            Array.from(document.querySelectorAll('table'))
              .filter((table) => table.getClientRects().length > 0 && table.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
              .map((table) => table.className),
          );
          expect({ page, past }).toEqual({ page, past: [] });
          expect(await visit.page.locator('details.chart-data').first().isVisible()).toBe(false);
        } finally {
          await visit.page.close();
        }
      }
    } finally {
      await paper.close();
    }
  });
});

describe('a session with a long tool output printed', () => {
  // Regression: a block that scrolls on screen (a file read, a command's output) printed its first
  // 32 lines and went on with the next entry, with nothing to say the rest was cut.
  it('prints every line of it', async (context) => {
    requireBrowser(context);
    const at = '2026-10-05T10:00:00.000Z';
    const lines = Array.from({ length: 120 }, (_, i) => `line ${i + 1} of the build log`).join('\n');
    const records = [
      { type: 'session', version: 3, id: 'long-output', timestamp: at, cwd: '/home/ana/shop' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: 'build it' } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: at, message: { role: 'assistant', content: [{ type: 'toolCall', id: 't1', name: 'bash', arguments: { command: 'npm run build' } }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'toolUse' } },
      { type: 'message', id: 'r1', parentId: 'a1', timestamp: at, message: { role: 'toolResult', toolCallId: 't1', toolName: 'bash', content: [{ type: 'text', text: lines }], isError: false } },
    ];
    const input = join(work, 'long-output');
    await mkdir(input, { recursive: true });
    await writeFile(join(input, 'long.jsonl'), records.map((r) => JSON.stringify(r)).join('\n'));
    const report = join(work, 'long-output-report');
    const built = await build({ inputs: [input], out: report, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const visit = await openPage(await browser.context(), pathToFileURL(join(report, built.summary.sessions[0]!.page)).href);
    try {
      await visit.page.emulateMedia({ media: 'print' });
      await visit.page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      const cut = await visit.page.evaluate(() => Array.from(document.querySelectorAll('pre')).filter((pre) => pre.getClientRects().length > 0 && pre.scrollHeight > pre.clientHeight + 2).length);
      expect(cut).toBe(0);
      expect(await visit.page.getByText('line 120 of the build log').isVisible()).toBe(true);
    } finally {
      await visit.page.close();
    }
  });
});

describe('a reply holding a wide Markdown table printed', () => {
  /** A session of one reply holding `table`, its page printed on A4 (what a page of 718 px lays out). */
  async function printedReply(name: string, table: string, check: (page: Page) => Promise<void>): Promise<void> {
    const at = '2026-10-05T10:00:00.000Z';
    const records = [
      { type: 'session', version: 3, id: name, timestamp: at, cwd: '/home/ana/shop' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: 'summarise the changes' } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: table }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'stop' } },
    ];
    const input = join(work, name);
    await mkdir(input, { recursive: true });
    await writeFile(join(input, `${name}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n'));
    const report = join(work, `${name}-report`);
    const built = await build({ inputs: [input], out: report, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const paper = await (await browser.context()).browser()!.newContext({ viewport: { width: 718, height: 1000 } });
    try {
      const visit = await openPage(paper, pathToFileURL(join(report, built.summary.sessions[0]!.page)).href);
      await visit.page.emulateMedia({ media: 'print' });
      await visit.page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      await check(visit.page);
      await visit.page.close();
    } finally {
      await paper.close();
    }
  }

  // Regression (an outside review in a browser): a table in a message scrolls on screen, and on
  // paper its last column and the ends of its URLs were cut off.
  it('prints every column of it within the paper', async (context) => {
    requireBrowser(context);
    const rows = Array.from({ length: 6 }, (_, i) => `| src/components/very/deeply/nested/folder/module-${i}/index.ts | https://example.com/a/very/long/path/to/the/documentation/page/number/${i}#section | changed the exported function signature | +42 −${i} |`);
    await printedReply('wide-table', ['| File | Link | What | Lines |', '|---|---|---|---|', ...rows].join('\n'), async (page) => {
      const cut = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.markdown table')).map((table) => ({ scrolls: table.scrollWidth > table.clientWidth + 1, right: table.getBoundingClientRect().right <= document.documentElement.clientWidth + 1 })),
      );
      expect(cut).toEqual([{ scrolls: false, right: true }]);
      expect(await page.getByText('+42 −5').isVisible()).toBe(true);
    });
  });

  // Regression (a browser review): a table of 30 columns or more printed its last ones cut off,
  // each column as wide as its padding and a letter; up to about a hundred now fit.
  it.for([40, 90])('prints every column of a table of %i columns within the paper', async (columns, context) => {
    requireBrowser(context);
    const row = (cell: (n: number) => string) => `| ${Array.from({ length: columns }, (_, n) => cell(n)).join(' | ')} |`;
    const table = [row((n) => `Column${n}`), row(() => '---'), row((n) => (n * 1234.5).toFixed(2)), row((n) => `last${n}`)].join('\n');
    await printedReply(`columns-${columns}`, table, async (page) => {
      const pastTheEdge = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.markdown table th')).filter((th) => th.getBoundingClientRect().right > document.documentElement.clientWidth).map((th) => th.textContent),
      );
      expect(pastTheEdge).toEqual([]);
      expect(await page.locator('.markdown table th').count()).toBe(columns);
    });
  });
});

describe('the tree and the header', () => {
  it('draws the tree with a legend and stroked edges, each branch linked to its section', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const tree = visit.page.locator('svg.tree');
      // A group of links, not an image (whose content is presentational: its links hidden from some readers).
      expect(await tree.getAttribute('role')).toBe('group');
      expect(await visit.page.locator('ul.tree-legend li').allTextContents()).toEqual([' active path', ' abandoned branch']);
      expect(await tree.locator('g.edges').getAttribute('stroke')).toMatch(/^#[0-9a-f]{6}$/);
      expect(await tree.locator('g.edges').getAttribute('fill')).toBe('none');
      const edgeFills = await tree.locator('path.edge').evaluateAll((paths) => paths.map((path) => getComputedStyle(path).fill));
      expect(edgeFills.length).toBeGreaterThan(1);
      expect(new Set(edgeFills)).toEqual(new Set(['none']));
      const tags = await tree.locator('a.branch-tag').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(tags.length).toBeGreaterThan(1);
      for (const href of tags) expect(await visit.page.locator(`section${href?.replace(/^.*#/, '#')}`).count()).toBe(1);
    } finally {
      await visit.page.close();
    }
  });

  // Regression: no skip link; 150 to 700 presses of Tab before a session's first message.
  it('lets the keyboard skip to the content, and on a session page to the conversation', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url(branchedSession()));
    try {
      const { page } = visit;
      await page.keyboard.press('Tab');
      const first = page.locator(':focus');
      expect(await first.textContent()).toBe('Skip to content');
      expect(await first.isVisible()).toBe(true);
      const box = await first.boundingBox();
      expect(box !== null && box.x >= 0).toBe(true);
      // Followed, the next stop is the first in the content: the way to the conversation.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').textContent()).toBe('Skip to the conversation');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      // Past the skip, the next stop is inside the conversation.
      expect(await page.locator(':focus').evaluate((el) => el.closest('section.branch, section.subagent, ol.conversation') !== null)).toBe(true);
    } finally {
      await visit.page.close();
    }
  });

  it('reaches the overview, the projects and data quality from every kind of page, the current one marked', async (context) => {
    requireBrowser(context);
    const expected = [
      { page: 'index.html', current: 'Overview' },
      { page: summary.projects[0]!.page, current: 'Projects' },
      { page: 'data-quality.html', current: 'Data quality' },
      { page: branchedSession(), current: null },
    ];
    for (const { page, current } of expected) {
      const visit = await openPage(await browser.context(), url(page));
      try {
        const nav = visit.page.locator('header.site nav a');
        expect(await nav.allTextContents()).toEqual(['Overview', 'Projects', 'Data quality']);
        const marked = await visit.page.locator('header.site nav a[aria-current]').allTextContents();
        expect({ page, marked }).toEqual({ page, marked: current ? [current] : [] });
        const projects = await nav.nth(1).evaluate((a) => (a as HTMLAnchorElement).href);
        expect(projects).toBe(`${url('index.html')}#projects`);
      } finally {
        await visit.page.close();
      }
    }
  });
});
