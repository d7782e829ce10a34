// The monthly report in Chromium: tables sort by a click on their header (the script only
// enhances), the index and project pages fit a phone's width, and the chart draws.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.js';
import { parsePeriod } from '../../src/ledger/scope.js';
import type { Summary } from '../../src/report/schema.js';
import { openPage, pageProblems, requireBrowser, sharedBrowser } from '../support/browser.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/pi');
const TZ = 'America/Los_Angeles';
const browser = sharedBrowser();
let work: string;
let out: string;
let summary: Summary;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bough-monthly-'));
  out = join(work, 'report');
  await build({
    inputs: [FIXTURES],
    out,
    scope: { timeZone: TZ, period: parsePeriod({ month: '2026-10' }, TZ), project: null, sources: null },
    environment: { env: {}, home: join(work, 'home') },
    now: new Date('2026-12-01T00:00:00Z'),
  });
  summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
});

afterAll(async () => {
  await browser.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the monthly report in a browser', () => {
  it('sorts a table by the header clicked, both ways, and says so with aria-sort', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), pathToFileURL(join(out, 'index.html')).href);
    try {
      const table = visit.page.locator('#projects table');
      const prompts = () => table.locator('tbody tr td:nth-child(3)').allTextContents();
      const header = table.locator('thead th', { hasText: 'Prompts' });
      await header.locator('button').click();
      const descending = (await prompts()).map((t) => Number(t.replace(/,/g, '')));
      expect(descending).toEqual([...descending].sort((a, b) => b - a));
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      await header.locator('button').click();
      const ascending = (await prompts()).map((t) => Number(t.replace(/,/g, '')));
      expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      expect(await table.locator('thead th[aria-sort]').count()).toBe(1);
      expect(pageProblems(visit, 'index.html')).toEqual([]);
    } finally {
      await visit.page.close();
    }
  });

  it('fits the index and a project page into a phone’s width; wide tables and charts scroll in their own box', async (context) => {
    requireBrowser(context);
    const phone = await (await browser.context()).browser()!.newContext({ viewport: { width: 390, height: 844 } });
    try {
      for (const page of ['index.html', summary.projects[0]!.page]) {
        const visit = await openPage(phone, pathToFileURL(join(out, page)).href);
        try {
          const width = await visit.page.evaluate('document.documentElement.scrollWidth');
          expect({ page, width }).toEqual({ page, width: 390 });
        } finally {
          await visit.page.close();
        }
      }
    } finally {
      await phone.close();
    }
  });

  // Regression: the single-key shortcuts (t, o, e, /) could not be turned off (WCAG 2.1.4): a
  // word dictated or typed while the page had focus folded and unfolded it.
  it('turns the single-key shortcuts off from a box at the page’s foot, and remembers it', async (context) => {
    requireBrowser(context);
    const session = summary.sessions.find((s) => s.file.endsWith('/minimal-v3.jsonl'));
    const own = await (await browser.context()).browser()!.newContext();
    try {
      const url = pathToFileURL(join(out, session?.page as string)).href;
      const visit = await openPage(own, url);
      const thinking = visit.page.locator('main details.thinking').first();
      const footerBox = visit.page.locator('footer.site').getByLabel('Single-key shortcuts');
      expect(await visit.page.getByLabel('Single-key shortcuts').count()).toBe(2);
      expect(await footerBox.isChecked()).toBe(true);
      expect(await thinking.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      await visit.page.keyboard.press('t');
      expect(await thinking.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      await footerBox.uncheck();
      // The toolbar's box follows the footer's.
      expect(await visit.page.locator('[data-session-toolbar]').getByLabel('Single-key shortcuts').isChecked()).toBe(false);
      await visit.page.locator('main h1').click();
      for (const key of ['t', 'e', '/']) await visit.page.keyboard.press(key);
      expect(await thinking.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      expect(await visit.page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
      // Another page of the report: still off.
      const index = await openPage(own, pathToFileURL(join(out, 'index.html')).href);
      expect(await index.page.locator('footer.site').getByLabel('Single-key shortcuts').isChecked()).toBe(false);
      await index.page.keyboard.press('/');
      expect(await index.page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
      expect(pageProblems(visit, session?.page as string)).toEqual([]);
      expect(pageProblems(index, 'index.html')).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('draws the cost chart with a bar per day that had a cost, each segment titled with its exact amount', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), pathToFileURL(join(out, 'index.html')).href);
    try {
      const chart = visit.page.locator('svg.chart').first();
      const box = await chart.boundingBox();
      expect(box?.width).toBeGreaterThan(500);
      expect(box?.height).toBeGreaterThan(100);
      const titles = await chart.locator('rect > title').allTextContents();
      expect(titles.some((t) => /^2026-10-16 · anthropic\/claude-sonnet-4-5: \$0\.9923/.test(t))).toBe(true);
    } finally {
      await visit.page.close();
    }
  });
});
