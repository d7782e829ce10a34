// One headless Chromium per test file, and a helper that opens a report page from file:// and
// records everything the page did that a static, offline report must never do.
//
// We drive the system Chromium (Debian's /usr/bin/chromium) through playwright-core: Playwright's
// own browser downloads cannot work on the machines this project is built on.

import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium binary to drive; BOUGH_CHROMIUM overrides it for machines that keep it elsewhere. */
export const CHROMIUM_PATH = process.env['BOUGH_CHROMIUM'] || '/usr/bin/chromium';

/**
 * Flags for a quiet, offline, headless run. As root Chromium refuses to start without
 * --no-sandbox; without the background-networking flags it tries to reach Google's servers
 * (component updates, sync, QUIC probes) and logs failures that have nothing to do with the report.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** CI sets BOUGH_REQUIRE_BROWSER=1 so that a missing browser fails the run instead of hiding it. */
export const BROWSER_REQUIRED = process.env['BOUGH_REQUIRE_BROWSER'] === '1';

/**
 * Time for a test that opens every page of a report in Chromium: 20–57 s on 2 cores beside the
 * other test files, too close to the usual minute (one timed out). Time is not what they check.
 */
export const BROWSER_TEST_MS = 180_000;

/** Whether the Chromium binary exists and is executable here (checked synchronously, so it can gate tests). */
export function browserAvailable(): boolean {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const NOT_FOUND = `Chromium not found at ${CHROMIUM_PATH} (install Debian's "chromium" package or set BOUGH_CHROMIUM)`;

/**
 * Call first in every browser test: returns when Chromium is there; otherwise skips the test
 * with a message saying why, or fails it when BOUGH_REQUIRE_BROWSER=1.
 */
export function requireBrowser(context: { skip: (note?: string) => never }): void {
  if (browserAvailable()) return;
  if (BROWSER_REQUIRED) throw new Error(`${NOT_FOUND}, and BOUGH_REQUIRE_BROWSER=1 asks for the browser tests to run.`);
  // The default reporter does not print skip notes, so say it once on stderr as well.
  if (!warned) console.warn(`${NOT_FOUND}: browser tests are skipped (BOUGH_REQUIRE_BROWSER=1 makes this a failure).`);
  warned = true;
  context.skip(`${NOT_FOUND}: browser test skipped.`);
}
let warned = false;

/**
 * A lazily launched browser shared by the tests of one file: the first `context()` call starts
 * Chromium, `close()` (from afterAll) stops it. Lazy, so that files whose browser tests are all
 * skipped never try to launch anything.
 */
export interface SharedBrowser {
  context(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export function sharedBrowser(): SharedBrowser {
  let browser: Promise<Browser> | null = null;
  let context: Promise<BrowserContext> | null = null;
  return {
    context() {
      browser ??= chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      context ??= browser.then((b) => b.newContext({ javaScriptEnabled: true, serviceWorkers: 'block' }));
      return context;
    },
    async close() {
      if (browser === null) return;
      const launched = await browser.catch(() => null);
      browser = null;
      context = null;
      await launched?.close();
    },
  };
}

export interface ConsoleEntry {
  type: string;
  text: string;
  /** Where the message came from, e.g. "file:///…/assets/bough.js:3". */
  location: string;
}

/** What happened while a page loaded. */
export interface PageVisit {
  url: string;
  page: Page;
  console: ConsoleEntry[];
  pageErrors: string[];
  /** Every request whose URL is not file: or data: (aborted before it leaves the machine). */
  networkRequests: string[];
  /** file: requests that failed (a missing stylesheet, script or image). */
  failedFileRequests: string[];
  dialogs: { type: string; message: string }[];
}

const LOCAL_SCHEMES = new Set(['file:', 'data:']);

/**
 * Opens `url` (a file:// URL) in a new page of `context`, waits until it has loaded and its
 * deferred scripts have run, and returns what it logged, threw and requested. The caller closes
 * `visit.page` when done.
 */
export async function openPage(context: BrowserContext, url: string): Promise<PageVisit> {
  const page = await context.newPage();
  const visit: PageVisit = { url, page, console: [], pageErrors: [], networkRequests: [], failedFileRequests: [], dialogs: [] };

  page.on('console', (message) => {
    const where = message.location();
    visit.console.push({ type: message.type(), text: message.text(), location: `${where.url}:${where.lineNumber}` });
  });
  page.on('pageerror', (error) => visit.pageErrors.push(String(error.stack ?? error)));
  page.on('dialog', (dialog) => {
    visit.dialogs.push({ type: dialog.type(), message: dialog.message() });
    // An unanswered dialog blocks the page forever; dismiss it and let the assertion report it.
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('request', (request) => {
    if (!LOCAL_SCHEMES.has(new URL(request.url()).protocol)) visit.networkRequests.push(request.url());
  });
  page.on('requestfailed', (request) => {
    if (new URL(request.url()).protocol === 'file:') visit.failedFileRequests.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
  });
  // Record network requests (above) but never let one leave the machine.
  await page.route((target) => !LOCAL_SCHEMES.has(target.protocol), (route) => route.abort('blockedbyclient'));

  // 'load' comes after deferred scripts and DOMContentLoaded handlers have run.
  await page.goto(url, { waitUntil: 'load' });
  return visit;
}

/**
 * Everything a report page must not do, one readable line each, so that a failing assertion
 * `expect(pageProblems(visit)).toEqual([])` lists them all with the page they came from.
 */
export function pageProblems(visit: PageVisit, name: string): string[] {
  return [
    ...visit.console
      .filter((entry) => entry.type === 'error' || entry.type === 'warning')
      .map((entry) => `${name}: console ${entry.type}: ${entry.text} (at ${entry.location})`),
    ...visit.pageErrors.map((error) => `${name}: page error: ${error}`),
    ...visit.networkRequests.map((request) => `${name}: network request: ${request}`),
    ...visit.failedFileRequests.map((request) => `${name}: missing file: ${request}`),
    ...visit.dialogs.map((dialog) => `${name}: ${dialog.type} dialog: ${dialog.message}`),
  ];
}
