// A link to an entry shows it, on a long page too: entries far from the screen are laid out by an
// estimated height (content-visibility), so the browser's jump to a fragment lands by estimates.
// Regression: a tree node near the end of a real session left its entry screens below the window.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.js';
import { summarySchema } from '../../src/report/schema.js';
import { ALL_UTC, SHARED_CORPUS } from '../support/fixtures.js';
import { BROWSER_TEST_MS, openPage, pageProblems, requireBrowser, sharedBrowser } from '../support/browser.js';

const CLAUDE = join(SHARED_CORPUS, 'claude', 'real');
const browser = sharedBrowser();
let work: string;
let page: string | null = null;

beforeAll(async () => {
  if (!existsSync(CLAUDE)) return;
  work = await mkdtemp(join(tmpdir(), 'bough-links-land-'));
  const out = join(work, 'report');
  await build({ inputs: [CLAUDE], out, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
  const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
  // A session of two branches and some 200 entries, whose second branch sits at the page's end.
  const session = summary.sessions.find((s) => s.file.endsWith('12a546d1-83a7-49a6-abba-5400db340b43.jsonl'));
  page = session ? join(out, session.page) : null;
}, 120_000);

afterAll(async () => {
  await browser.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a link into a long session page', () => {
  it('shows the entry each of the last tree nodes leads to, on a phone and on a desktop', async (context) => {
    if (page === null) return context.skip('the shared corpus is not here');
    requireBrowser(context);
    const html = await readFile(page, 'utf8');
    const start = html.search(/<svg[^>]*class="tree"/);
    const tree = html.slice(start, html.indexOf('</svg>', start));
    const targets = [...new Set([...tree.matchAll(/href="#(e-[^"]+)"/g)].map((m) => m[1] as string))].slice(-4);
    expect(targets).toContain('e-4043ebca-44af-4dc1-b622-e03feee88ead');
    const url = pathToFileURL(page).href;
    const visit = await openPage(await browser.context(), url);
    const missed: string[] = [];
    try {
      for (const width of [1280, 390]) {
        await visit.page.setViewportSize({ width, height: 800 });
        for (const id of targets) {
          // A fresh load each time, as a link from another page or a search result opens it.
          await visit.page.goto('about:blank');
          await visit.page.goto(`${url}#${id}`, { waitUntil: 'load' });
          const shown = async () => visit.page.evaluate((target) => {
            const top = (document.getElementById(target) as HTMLElement).getBoundingClientRect().top;
            return top >= -2 && top < window.innerHeight;
          }, id);
          await expect.poll(shown, { timeout: 3000 }).toBe(true).catch(() => missed.push(`${width} px: ${id}`));
        }
      }
      expect(pageProblems(visit, 'session page')).toEqual([]);
    } finally {
      await visit.page.close();
    }
    expect(missed).toEqual([]);
  }, BROWSER_TEST_MS);
});
