// What a page shows when it opens and when it is clicked, in Chromium (regressions found by a
// review that used the report as a new user would): a chart on a phone opens on its newest bar, a
// sortable table sorts from anywhere in a header's cell, the index's month groups are said to be
// as high as their rows make them, and a link to a sub-agent's transcript unfolds it.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.js';
import type { Summary } from '../../src/report/schema.js';
import { openPage, pageProblems, requireBrowser, sharedBrowser } from '../support/browser.js';
import { ALL_UTC } from '../support/fixtures.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const browser = sharedBrowser();
let work: string;
let out: string;
let summary: Summary;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bough-views-'));
  out = join(work, 'report');
  // Pi sessions over several days, and a Claude Code session of one day with a sub-agent it started.
  const inputs = [join(FIXTURES, 'pi'), join(FIXTURES, 'claude', 'projects')];
  await build({ inputs, out, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
  summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
});

afterAll(async () => {
  await browser.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const url = (page: string) => pathToFileURL(join(out, page)).href;

describe('a page as it opens', () => {
  // Regression: the chart opened scrolled to its end; a project of one day in a longer period has
  // days after its bar there, and its only bar was out of view.
  it('shows each chart’s newest bar on a 390 px screen', async (context) => {
    requireBrowser(context);
    const phone = await (await browser.context()).browser()!.newContext({ viewport: { width: 390, height: 844 } });
    try {
      let scrolled = 0;
      for (const page of ['index.html', ...summary.projects.map((p) => p.page)]) {
        const visit = await openPage(phone, url(page));
        try {
          const charts = await visit.page.evaluate(() =>
            Array.from(document.querySelectorAll('.chart-scroll')).map((box) => {
              const bars = box.querySelectorAll('g.bar');
              const last = bars[bars.length - 1]?.getBoundingClientRect();
              const view = box.getBoundingClientRect();
              // A project that cost nothing has no bar.
              return { wider: box.scrollWidth > box.clientWidth, scrolled: box.scrollLeft > 0, inView: last === undefined || (last.left >= view.left - 1 && last.right <= view.right + 1) };
            }),
          );
          expect(charts.length).toBeGreaterThan(0);
          for (const chart of charts) expect({ page, inView: chart.inView }).toEqual({ page, inView: true });
          scrolled += charts.filter((chart) => chart.wider && chart.scrolled).length;
          expect(pageProblems(visit, page)).toEqual([]);
        } finally {
          await visit.page.close();
        }
      }
      // A chart wider than the screen still opens on its newest days, not on its first.
      expect(scrolled).toBeGreaterThan(0);
    } finally {
      await phone.close();
    }
  });

  // Regression: every group was taken for 3,000 px until drawn: nine groups of a few sessions made
  // the page load 31,672 px high, five times its height, the scrollbar as long.
  it('says each month group of the index to be about as high as its rows make it', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url('index.html'));
    try {
      const groups = await visit.page.evaluate(() =>
        Array.from(document.querySelectorAll('section.session-group')).map((group) => ({
          rows: group.querySelectorAll('tbody tr').length,
          said: Number(/(\d+)px/.exec((group as HTMLElement).style.containIntrinsicSize)?.[1]),
        })),
      );
      expect(groups.length).toBeGreaterThan(0);
      for (const group of groups) expect(group.said).toBeLessThan(200 + group.rows * 60);
    } finally {
      await visit.page.close();
    }
  });
});

describe('a click', () => {
  // Regression: only the header's words (its button, 47 of a cell's 440 px) sorted.
  it('anywhere in a sortable header’s cell sorts its table', async (context) => {
    requireBrowser(context);
    const visit = await openPage(await browser.context(), url('index.html'));
    try {
      // The projects table's first header: the column of their names, wider than its word.
      const header = visit.page.locator('#projects table.sortable thead th').first();
      await header.scrollIntoViewIfNeeded();
      const box = (await header.boundingBox())!;
      const button = (await header.locator('button').boundingBox())!;
      // Right of the words, inside the cell.
      expect(box.x + box.width - 4).toBeGreaterThan(button.x + button.width);
      await visit.page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
      expect(await header.getAttribute('aria-sort')).not.toBeNull();
    } finally {
      await visit.page.close();
    }
  });

  // Regression: the link from the call that started a sub-agent landed on its transcript folded.
  it('on the link to a sub-agent’s transcript opens it unfolded', async (context) => {
    requireBrowser(context);
    const pages = await Promise.all(summary.sessions.map(async (s) => ({ s, html: await readFile(join(out, s.page), 'utf8') })));
    const session = pages.find((p) => p.html.includes('href="#subagent-'))?.s;
    expect(session).toBeDefined();
    const visit = await openPage(await browser.context(), url(session!.page));
    try {
      const link = visit.page.locator('a[href^="#subagent-"]').first();
      const target = (await link.getAttribute('href'))!;
      expect(await visit.page.locator(`${target} details.subagent-file`).evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      await link.click();
      // Opened on the hashchange the click makes, which comes after it.
      const opened = await visit.page
        .waitForFunction((selector) => (document.querySelector(selector) as HTMLDetailsElement | null)?.open === true, `${target} details.subagent-file`, { timeout: 5000 })
        .then(() => true, () => false);
      expect(opened).toBe(true);
      expect(pageProblems(visit, session!.page)).toEqual([]);
    } finally {
      await visit.page.close();
    }
  });
});
