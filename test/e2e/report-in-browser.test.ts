// End to end: build real reports with build(), then check every page the way a reader meets it.
//
// - statically, every page: a Content-Security-Policy meta (§7), and every relative href/src and
//   every #fragment leads to a file of the report and an id on that page (§6: a folder that opens
//   from file:// and can be zipped and mailed, so a dead link is a bug);
// - in Chromium from file://: no console errors or warnings, no page errors, no request that
//   leaves the machine, no alert/confirm;
// - the index really renders the sessions summary.json lists.
//
// Reports are built from the shared Pi corpus with a few hundred generated sessions (skipped
// without ../shared), from the project's samples/ folder, and from its fixtures.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.js';
import type { Summary } from '../../src/report/schema.js';
import { BROWSER_TEST_MS, openPage, pageProblems, requireBrowser, sharedBrowser } from '../support/browser.js';
import { linksOf, scanHtml, type ScannedPage } from '../support/html-links.js';
import { generatePiCorpus } from '../support/pi-corpus.js';
import { ALL_UTC } from '../support/fixtures.js';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const SHARED_PI = resolve(PROJECT_ROOT, '../shared/corpus/pi');

interface Case {
  name: string;
  /** Why the case cannot run here, or null. */
  unavailable: string | null;
  /** The inputs to build from; may write into the case's temporary folder. */
  inputs(tempDir: string): Promise<string[]>;
}

const CASES: Case[] = [
  {
    name: 'the shared Pi corpus plus 300 generated sessions',
    unavailable: hasSessionFiles(SHARED_PI) ? null : `no session files (*.jsonl) in ${SHARED_PI}`,
    async inputs(tempDir) {
      const generated = join(tempDir, 'generated');
      await generatePiCorpus(generated, { sessions: 300, seed: 20261201 });
      return [SHARED_PI, generated];
    },
  },
  { name: 'the bundled samples', unavailable: null, inputs: async () => [resolve(PROJECT_ROOT, 'samples')] },
  // Hostile text, damaged lines, unknown entry types: a report of bad input must still be clean.
  { name: 'the project fixtures', unavailable: null, inputs: async () => [resolve(PROJECT_ROOT, 'fixtures')] },
];

/** A fixed clock and time zone, so the reports are the same on every machine and every day. */
const NOW = new Date('2026-12-01T12:00:00Z');

/** Above this many session (or project) pages, the browser opens a sample; the static check reads them all. */
const BROWSER_SAMPLE_FIRST = 30;
const BROWSER_SAMPLE_LARGEST = 3;
const BROWSER_PAGES_AT_ONCE = 3;

/** One Chromium for the whole file, started by the first browser test. */
const browser = sharedBrowser();
afterAll(() => browser.close());

for (const testCase of CASES) {
  if (testCase.unavailable !== null) {
    it.skip(`report of ${testCase.name}: skipped, ${testCase.unavailable}`, () => undefined);
    continue;
  }

  describe(`report of ${testCase.name}`, () => {
    let tempDir: string | undefined;
    let report: BuiltReport;
    beforeAll(async () => {
      tempDir = await mkdtemp(join(tmpdir(), 'bough-e2e-'));
      report = await buildReport(await testCase.inputs(tempDir), tempDir);
    });
    afterAll(async () => {
      // Also after a failed build: its half-written output lives in tempDir too.
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    });

    it('has a page for every session and project listed in summary.json', () => {
      const { summary } = report;
      expect(summary.sessions.length).toBeGreaterThan(0);
      // Sessions of Claude Code's start-up warmups alone have pages but are listed as none.
      expect(summary.totals.sessions + (summary.totals.warmupOnlySessions ?? 0)).toBe(summary.sessions.length);
      const listed = [...summary.sessions.map((s) => s.page), ...summary.projects.map((p) => p.page)];
      // A null page means bough listed something it wrote no page for.
      const missing = listed.filter((page) => page === null || !report.pages.includes(page));
      expect(missing).toEqual([]);
      for (const required of ['index.html', 'data-quality.html']) expect(report.pages).toContain(required);
    });

    it('puts a Content-Security-Policy meta tag that forbids inline script and network access before anything loads', () => {
      const problems: string[] = [];
      for (const [name, scanned] of report.scanned) {
        const csp = scanned.tags.find(
          (tag) => tag.name === 'meta' && tag.attributes.get('http-equiv')?.toLowerCase() === 'content-security-policy',
        );
        if (!csp) {
          problems.push(`${name}: no <meta http-equiv="Content-Security-Policy">`);
          continue;
        }
        problems.push(...cspProblems(csp.attributes.get('content') ?? '').map((p) => `${name}: ${p}`));
        // A CSP meta only governs what comes after it in the document.
        const firstLoad = scanned.tags.find((tag) => tag.name === 'script' || tag.name === 'link' || tag.name === 'style');
        if (firstLoad && firstLoad.offset < csp.offset) problems.push(`${name}: <${firstLoad.name}> comes before the CSP meta`);
      }
      expect(problems).toEqual([]);
    });

    it('links only to files inside the report and to ids that exist', async () => {
      const problems: string[] = [];
      for (const name of report.pages) problems.push(...(await linkProblems(report, name)));
      expect(problems).toEqual([]);
    });

    it('loads every page in Chromium from file:// without errors, warnings, network requests or dialogs', async (context) => {
      requireBrowser(context);
      const browserContext = await browser.context();
      // A few pages at a time: large session pages spend most of their time in layout.
      const perPage = await mapConcurrently(await pagesToOpen(report), BROWSER_PAGES_AT_ONCE, async (name) => {
        const visit = await openPage(browserContext, pathToFileURL(join(report.outDir, name)).href);
        try {
          return pageProblems(visit, name);
        } finally {
          await visit.page.close();
        }
      });
      expect(perPage.flat()).toEqual([]);
    }, BROWSER_TEST_MS);

    it('opens with a hash that is no escape sequence without a script error (regression: "#%" threw "URI malformed")', async (context) => {
      requireBrowser(context);
      const visit = await openPage(await browser.context(), `${pathToFileURL(join(report.outDir, 'index.html')).href}#%`);
      try {
        await visit.page.waitForLoadState('load');
        expect(pageProblems(visit, 'index.html#%')).toEqual([]);
      } finally {
        await visit.page.close();
      }
    });

    it('renders the index: a heading, the stylesheet, and one session row per session in summary.json', async (context) => {
      requireBrowser(context);
      const visit = await openPage(await browser.context(), pathToFileURL(join(report.outDir, 'index.html')).href);
      try {
        const { page } = visit;
        const heading = page.locator('h1');
        await expect.poll(() => heading.count()).toBe(1);
        expect((await heading.textContent())?.trim()).toMatch(/\S/);
        expect(await heading.isVisible()).toBe(true);
        // The stylesheet was allowed by the CSP and applied (the page is not bare HTML).
        expect(await page.evaluate('document.styleSheets.length')).toBeGreaterThan(0);
        const rows = page.locator('#sessions table.sessions tbody tr');
        expect(await rows.count()).toBe(report.summary.totals.sessions);
        expect(await rows.count()).toBe(report.summary.sessions.filter((s) => !s.warmupOnly).length);
      } finally {
        await visit.page.close();
      }
    });
  });
}

interface BuiltReport {
  outDir: string;
  summary: Summary;
  /** Every HTML page, relative to outDir with "/" separators, sorted. */
  pages: string[];
  /** Each page scanned once, for the static checks. */
  scanned: Map<string, ScannedPage>;
}

async function buildReport(inputs: string[], tempDir: string): Promise<BuiltReport> {
  // An empty home and environment: the build must not read the agents' default places here.
  const home = join(tempDir, 'home');
  await mkdir(home);
  const outDir = join(tempDir, 'report');
  await build({ inputs, out: outDir, scope: ALL_UTC, environment: { env: {}, home }, now: NOW });
  // Read summary.json as written, not the returned object: the file is the contract.
  const summary = JSON.parse(await readFile(join(outDir, 'summary.json'), 'utf8')) as Summary;
  const pages = (await listFiles(outDir)).filter((file) => file.endsWith('.html')).sort();
  const scanned = new Map<string, ScannedPage>();
  for (const page of pages) scanned.set(page, scanHtml(await readFile(join(outDir, page), 'utf8')));
  return { outDir, summary, pages, scanned };
}

/** Files under `dir`, relative to it, with "/" separators (as links write them). */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

function hasSessionFiles(folder: string): boolean {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return false;
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).some((file) => file.endsWith('.jsonl'));
}

/** §7: no inline script, no eval, nothing from the network. */
function cspProblems(policy: string): string[] {
  const directives = new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map((words) => [(words[0] as string).toLowerCase(), words.slice(1)] as const),
  );
  const problems: string[] = [];
  if (directives.get('default-src')?.join(' ') !== "'none'") problems.push(`CSP default-src is not 'none': ${policy}`);
  for (const [directive, sources] of directives) {
    for (const source of sources) {
      if (/^'unsafe-/.test(source)) problems.push(`CSP ${directive} allows ${source}`);
      // Any host, scheme or wildcard source would allow the network.
      if (/^(\*|https?:|wss?:|ftp:|blob:|filesystem:)|\.|\*/.test(source) && source !== "'self'") {
        problems.push(`CSP ${directive} allows ${source}`);
      }
    }
  }
  return problems;
}

/** Schemes a reader may follow by clicking (links in session text); they load nothing by themselves. */
const CLICKABLE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

async function linkProblems(report: BuiltReport, pageName: string): Promise<string[]> {
  const scanned = report.scanned.get(pageName) as ScannedPage;
  const problems: string[] = [];
  const ids = new Set(scanned.ids);
  const duplicates = [...new Set(scanned.ids.filter((id, index) => scanned.ids.indexOf(id) !== index))];
  if (duplicates.length > 0) problems.push(`${pageName}: duplicate ids (fragment links to them are ambiguous): ${duplicates.join(', ')}`);

  for (const { tag, attribute, value } of linksOf(scanned)) {
    const where = `${pageName}: <${tag} ${attribute}="${value}">`;
    const url = value.trim();
    if (url === '') {
      problems.push(`${where}: empty`);
      continue;
    }
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*:)/.exec(url)?.[1]?.toLowerCase();
    if (scheme !== undefined || url.startsWith('//')) {
      // Clickable links to the web (from session text) are allowed on <a>; data: only for images
      // bough built itself. Everything else would load from, or leave for, somewhere outside the report.
      const allowed = (tag === 'a' && scheme !== undefined && CLICKABLE_SCHEMES.has(scheme)) || (tag === 'img' && scheme === 'data:');
      if (!allowed) problems.push(`${where}: not a relative link into the report`);
      continue;
    }

    const hashAt = url.indexOf('#');
    const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
    const fragment = hashAt < 0 ? null : url.slice(hashAt + 1);
    const path = beforeHash.split('?')[0] as string;

    let target = pageName; // "#id" alone points into this page
    if (path !== '') {
      let decoded: string;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        problems.push(`${where}: badly percent-encoded`);
        continue;
      }
      target = posix.normalize(posix.join(posix.dirname(pageName), decoded));
      if (target.startsWith('../') || target === '..' || posix.isAbsolute(target)) {
        problems.push(`${where}: leads outside the report folder`);
        continue;
      }
      const onDisk = await stat(join(report.outDir, ...target.split('/'))).catch(() => null);
      if (!onDisk?.isFile()) {
        problems.push(`${where}: ${target} does not exist`);
        continue;
      }
    }
    if (fragment === null || fragment === '') continue;

    let id: string;
    try {
      id = decodeURIComponent(fragment);
    } catch {
      problems.push(`${where}: badly percent-encoded fragment`);
      continue;
    }
    const targetPage = report.scanned.get(target);
    if (!targetPage) {
      problems.push(`${where}: fragment into ${target}, which is not an HTML page`);
      continue;
    }
    const targetIds = target === pageName ? ids : new Set(targetPage.ids);
    if (!targetIds.has(id)) problems.push(`${where}: no element with id "${id}" in ${target}`);
  }
  return problems;
}

/**
 * The pages the browser opens: all of them for a small report; for a large one, the overview
 * pages, and of sessions and projects the first 30 (in name order) plus the 3 largest files
 * (the ones most likely to hit a limit). The static checks still read every page.
 */
async function pagesToOpen(report: BuiltReport): Promise<string[]> {
  const chosen = new Set<string>();
  for (const folder of ['sessions/', 'projects/']) {
    const pages = report.pages.filter((page) => page.startsWith(folder));
    if (pages.length <= BROWSER_SAMPLE_FIRST + BROWSER_SAMPLE_LARGEST) {
      pages.forEach((page) => chosen.add(page));
      continue;
    }
    pages.slice(0, BROWSER_SAMPLE_FIRST).forEach((page) => chosen.add(page));
    const sizes = await Promise.all(pages.map(async (page) => ({ page, size: (await stat(join(report.outDir, page))).size })));
    sizes
      .sort((a, b) => b.size - a.size)
      .slice(0, BROWSER_SAMPLE_LARGEST)
      .forEach(({ page }) => chosen.add(page));
  }
  // Every page outside sessions/ and projects/ (index.html, data-quality.html, …) is always opened.
  const others = report.pages.filter((page) => !page.startsWith('sessions/') && !page.startsWith('projects/'));
  return [...others, ...report.pages.filter((page) => chosen.has(page))];
}


/** Like Promise.all(items.map(fn)), with at most `limit` calls running at once; results keep the items' order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
