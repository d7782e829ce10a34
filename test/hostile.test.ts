// Escaping (design.md §7): a report built from sessions full of hostile text must hold none of it
// as live markup, and nothing from it may run, load or navigate in a browser.
//
// The corpus is fixtures/hostile/: every text field of Pi's format carries payloads that name
// their field, and that, if they ever ran, would set window.__boughPwned, open a dialog or request
// https://evil.example/…. One session is copied at test time under a hostile file name in a
// hostile folder (names with " < > cannot be checked out on Windows, so they are not committed).
//
// Static checks read every file of the report; the browser checks open every page from file://,
// once as written and once with its Content-Security-Policy removed (escaping must hold on its
// own, not only because the CSP blocks what slipped through), and click every link of the
// conversations and trees.

import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { BROWSER_TEST_MS, openPage, pageProblems, requireBrowser, sharedBrowser } from './support/browser.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';
import { liveMarkup, tagsOf } from './support/html.js';

const HOSTILE = join(FIXTURES, 'hostile');
const NOW = new Date('2026-12-01T12:00:00Z');

/** The folder and file name the small session `file-name.jsonl` is copied under. */
const HOSTILE_FOLDER = `<svg onload=alert('folder')> "'&#`;
const HOSTILE_FILE = `"><img src=x onerror=alert('file-name')>.jsonl`;

/** The one-line payload of fixtures/hostile (see its generator notes in README.md). */
const short = (t: string) => `"><script>window.__boughPwned='${t}'</script><img src=x onerror="alert('${t}')">'<svg onload=alert('${t}')></title><!--`;
/** The first line of the multi-line payload. */
const fullFirstLine = (t: string) => `<script>window.__boughPwned='${t}/script';alert('${t}/script')</script>`;

interface Report {
  outDir: string;
  /** Every file, relative to outDir with "/" separators. */
  files: string[];
  pages: string[];
  text: Map<string, string>;
  inputDir: string;
  /** Whether the file system took the hostile folder and file name. */
  hostileNameCommitted: boolean;
}

let workDir: string;
let report: Report;
const browser = sharedBrowser();

beforeAll(async () => {
  workDir = await tempDir('bough-hostile-');
  const inputDir = join(workDir, 'sessions');
  await mkdir(inputDir);
  for (const name of await readdir(HOSTILE)) {
    if (name.endsWith('.jsonl') && name !== 'file-name.jsonl') await copyFile(join(HOSTILE, name), join(inputDir, name));
  }
  let hostileNameCommitted = true;
  try {
    await mkdir(join(inputDir, HOSTILE_FOLDER));
    await copyFile(join(HOSTILE, 'file-name.jsonl'), join(inputDir, HOSTILE_FOLDER, HOSTILE_FILE));
  } catch {
    // A file system that refuses these names: keep the session under its own name.
    hostileNameCommitted = false;
    await copyFile(join(HOSTILE, 'file-name.jsonl'), join(inputDir, 'file-name.jsonl'));
  }
  const home = join(workDir, 'home');
  await mkdir(home);
  const outDir = join(workDir, 'report');
  await build({ inputs: [inputDir], out: outDir, scope: ALL_UTC, environment: { env: {}, home }, now: NOW });
  const files = await listFiles(outDir);
  const text = new Map<string, string>();
  for (const file of files) text.set(file, await readFile(join(outDir, ...file.split('/')), 'utf8'));
  report = { outDir, files, pages: files.filter((f) => f.endsWith('.html')), text, inputDir, hostileNameCommitted };
});

afterAll(async () => {
  await browser.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('a report of hostile sessions, as written', () => {
  it('reads every hostile session, so the checks below are not vacuous', () => {
    const summary = JSON.parse(report.text.get('summary.json') as string) as { sessions: { file: string }[] };
    const read = summary.sessions.map((s) => s.file.split(/[\\/]/).pop());
    expect(read.sort()).toEqual(
      ['conversation.jsonl', 'damaged.jsonl', 'extensions.jsonl', report.hostileNameCommitted ? HOSTILE_FILE : 'file-name.jsonl', 'tools.jsonl', 'v1-session.jsonl'].sort(),
    );
    // Only Windows refuses " < > in names; everywhere else the hostile name must be the one read.
    if (process.platform !== 'win32') expect(report.hostileNameCommitted).toBe(true);
    expect(report.pages).toContain('index.html');
    expect(report.pages).toContain('data-quality.html');
    expect(report.pages.filter((p) => p.startsWith('sessions/'))).toHaveLength(6);
  });

  it('has no live markup on any page: no foreign script, event attribute, frame, base, form, meta refresh or unsafe URL', () => {
    const problems = report.pages.flatMap((page) => liveMarkup(report.text.get(page) as string).map((p) => `${page}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('leaves no payload tag from the sessions unescaped in any page', () => {
    // bough writes none of these itself; each one on a page came from session text.
    const openers = [
      '<script>', '<script ', '<img src=x', '<img src="https://evil', '<svg onload', '<iframe', '<base', '<form',
      '<textarea', '<style', '<object', '<embed', '<input', '<details open ontoggle', '<meta http-equiv="refresh"',
      '<b onmouseover', '<div onclick', '<noscript', '<math', '<animate', '<![cdata[', '<!--', '<button', '<link rel="stylesheet" href="https',
    ];
    const problems: string[] = [];
    for (const page of report.pages) {
      const html = (report.text.get(page) as string).toLowerCase();
      expect(html, page).toContain('<form class="search" role="search" data-search');
      expect(html, page).toContain('<noscript><p class="note">search needs javascript; the rest of the report reads without it.</p></noscript>');
      for (const opener of openers) {
        // bough's own script tag is `<script src="…assets/bough.js" defer>`, its search box one `<form class="search" …>` with one `<input type="search" …>`,
        // and one `<noscript>` saying that search needs JavaScript.
        const own = opener === '<script ' || opener === '<form' || opener === '<input' || opener === '<noscript' ? 1 : 0;
        const count = html.split(opener).length - 1 - own;
        if (count > 0) problems.push(`${page}: ${count} × ${opener}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no javascript:, vbscript: or data: URL other than a base64 image bough built, in any attribute', () => {
    const problems: string[] = [];
    const markdownPng = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR42mP8z8DwnwEJMCEBAFQnBPx3ZSQZAAAAAElFTkSuQmCC';
    for (const page of report.pages) {
      for (const tag of tagsOf(report.text.get(page) as string)) {
        for (const [name, value] of tag.attributes) {
          const url = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
          if (/^(javascript|vbscript|livescript):/.test(url)) problems.push(`${page}: <${tag.name} ${name}="${value.slice(0, 60)}">`);
          if (url.startsWith('data:')) {
            const builtImage = tag.name === 'img' && name === 'src' && /^data:image\/(png|jpeg|jpg|gif|webp|bmp|avif);base64,[a-z0-9+/]+=*$/.test(url);
            if (!builtImage) problems.push(`${page}: <${tag.name} ${name}="${value.slice(0, 60)}">`);
            // A Markdown image from a reply is never loaded, even a harmless PNG.
            if (value.includes(markdownPng)) problems.push(`${page}: <${tag.name} ${name}> loads an image written in Markdown`);
          }
          if (name === 'style' && /url\s*\(|expression\s*\(|@import/i.test(value)) problems.push(`${page}: <${tag.name} style="${value.slice(0, 60)}">`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('shows image blocks only as images of image types, never as HTML or SVG', () => {
    const problems: string[] = [];
    for (const page of report.pages) {
      const tags = tagsOf(report.text.get(page) as string);
      for (const tag of tags) {
        for (const [name, value] of tag.attributes) {
          if (/data:(text\/html|image\/svg)/i.test(value)) problems.push(`${page}: <${tag.name} ${name}="${value.slice(0, 60)}">`);
        }
      }
      for (const tag of tags.filter((t) => t.name === 'img')) {
        const src = tag.attributes.get('src') ?? '';
        if (!/^data:image\/(png|jpeg|gif|webp|bmp|avif);base64,[A-Za-z0-9+/]+=*$/.test(src)) problems.push(`${page}: <img src="${src.slice(0, 60)}">`);
      }
    }
    expect(problems).toEqual([]);
    // The legitimate PNGs of the corpus are still shown.
    expect(report.pages.some((page) => /<img [^>]*src="data:image\/png;base64,iVBORw0KGgo/.test(report.text.get(page) as string))).toBe(true);
  });

  it('keeps every page one document: one title, one script, the CSP meta before anything loads', () => {
    const problems: string[] = [];
    for (const page of report.pages) {
      const html = report.text.get(page) as string;
      const count = (needle: RegExp) => (html.match(needle) ?? []).length;
      // One <title> in the head; the SVG tree may have its own, each closed.
      const head = html.slice(0, html.search(/<\/head>/i));
      if ((head.match(/<title[\s>]/gi) ?? []).length !== 1 || (head.match(/<\/title>/gi) ?? []).length !== 1) problems.push(`${page}: the head has no single <title>…</title>`);
      if (count(/<title[\s>]/gi) !== count(/<\/title>/gi)) problems.push(`${page}: ${count(/<title[\s>]/gi)} <title>, ${count(/<\/title>/gi)} </title>`);
      if (count(/<script[\s>]/gi) !== 1 || count(/<\/script>/gi) !== 1) problems.push(`${page}: ${count(/<script[\s>]/gi)} <script>, ${count(/<\/script>/gi)} </script>`);
      if (count(/<\/html>/gi) !== 1 || !html.trimEnd().endsWith('</html>')) problems.push(`${page}: the document does not end once with </html>`);
      const tags = tagsOf(html);
      const csp = tags.findIndex((t) => t.name === 'meta' && t.attributes.get('http-equiv')?.toLowerCase() === 'content-security-policy');
      const firstLoad = tags.findIndex((t) => t.name === 'script' || t.name === 'link' || t.name === 'img' || t.name === 'style');
      if (csp < 0) {
        problems.push(`${page}: no CSP meta`);
        continue;
      }
      if (firstLoad >= 0 && firstLoad < csp) problems.push(`${page}: <${tags[firstLoad]?.name}> before the CSP meta`);
      const policy = tags[csp]?.attributes.get('content') ?? '';
      if (!/(^|;)\s*default-src 'none'/.test(policy)) problems.push(`${page}: CSP without default-src 'none': ${policy}`);
      if (/unsafe-(inline|eval|hashes)|\*|https?:|data:[^;]*script/.test(policy.replace(/img-src[^;]*/, ''))) problems.push(`${page}: CSP allows too much: ${policy}`);
    }
    expect(problems).toEqual([]);
  });

  it('shows the hostile text as text, escaped, wherever a reader expects it', () => {
    const shown = new Map(report.pages.map((page) => [page, visibleText(report.text.get(page) as string)]));
    const anywhere = (needle: string) => [...shown.values()].some((text) => text.includes(needle));
    const on = (pagePrefix: string, needle: string) => [...shown].some(([page, text]) => page.startsWith(pagePrefix) && text.includes(needle));
    const expected: [string, string, string][] = [
      ['the session name', 'sessions/', short('session_info.rename')],
      // Lists show a session's title: its name's first 90 characters, less the word the cut falls in.
      ['the session name on the index', 'index.html', short('session_info.rename').slice(0, 60)],
      ['the working folder', 'projects/', `/home/ana/${short('cwd')}/proj`],
      ['the prompt', 'sessions/', fullFirstLine('prompt')],
      ['the string prompt', 'sessions/', fullFirstLine('prompt2')],
      ['the thinking', 'sessions/', fullFirstLine('thinking')],
      ['raw HTML in the reply', 'sessions/', `<script>window.__boughPwned='reply/raw'</script>`],
      ['the reply text', 'sessions/', fullFirstLine('reply')],
      ['the skill name', 'sessions/', `'><script>window.__boughPwned='skill.name'</script>`],
      ['the skill body', 'sessions/', `<script>window.__boughPwned='skill.body/raw'</script>`],
      ['the error message', 'sessions/', fullFirstLine('errorMessage')],
      ['the label', 'sessions/', short('label')],
      ['the model', 'sessions/', `claude-${short('model')}`],
      ['the model on the index', 'index.html', `claude-${short('model')}`],
      ['the bash command', 'sessions/', short('bash.command')],
      ['the bash output', 'sessions/', fullFirstLine('bash.output')],
      ['the edit patch', 'sessions/', fullFirstLine('patch.add')],
      ['the edited path', 'sessions/', `src/${short('edit.path')}.ts`],
      ['a hostile tool argument', 'sessions/', fullFirstLine('arg.value')],
      ['the arguments error', 'sessions/', fullFirstLine('argumentsError')],
      ['the sub-agent task', 'sessions/', fullFirstLine('subagent.task')],
      ['the sub-agent prompt', 'sessions/', fullFirstLine('subagent.user')],
      ['the user shell command', 'sessions/', fullFirstLine('bashExecution.command')],
      ['the system prompt', 'sessions/', fullFirstLine('system.preamble')],
      ['the custom entry data', 'sessions/', fullFirstLine('custom.data.value')],
      ['the custom message', 'sessions/', `<script>window.__boughPwned='custom_message.content/raw'</script>`],
      ['the compaction summary', 'sessions/', `<script>window.__boughPwned='compaction.summary/raw'</script>`],
      ['the branch summary', 'sessions/', `<script>window.__boughPwned='branch_summary/raw'</script>`],
      ['the unknown entry type', 'sessions/', short('unknown.type')],
      ['the v1 reply', 'sessions/', `<script>window.__boughPwned='v1.reply/raw'</script>`],
      ['the damaged line', 'data-quality.html', `<script>window.__boughPwned='damaged/line'</script>`],
    ];
    const missing = expected.filter(([, page, needle]) => !on(page, needle)).map(([what, page, needle]) => `${what} (${page}): ${needle}`);
    expect(missing).toEqual([]);
    expect(anywhere('evil.example')).toBe(true);
  });

  it('writes summary.json and usage.csv that parse, with the payloads only as data', () => {
    const summary = JSON.parse(report.text.get('summary.json') as string) as unknown;
    const strings = stringsOf(summary);
    expect(strings.some((s) => s.includes(short('session_info.rename')))).toBe(true);
    expect(strings).toContain(`claude-${short('model')}`);

    const rows = parseCsv(report.text.get('usage.csv') as string);
    const header = rows[0] as string[];
    expect(header).toContain('model');
    expect(rows.filter((row) => row.length !== header.length)).toEqual([]);
    const model = header.indexOf('model');
    const models = rows.slice(1).map((row) => row[model] as string);
    expect(models).toContain(`claude-${short('model')}`);
    // A spreadsheet runs a cell that starts with = + - @ as a formula; bough must defuse those.
    const formulas = rows.slice(1).flatMap((row) => row.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d/.test(cell)));
    expect(formulas).toEqual([]);
    expect(models.some((m) => m.includes('HYPERLINK'))).toBe(true);
  });

  it('stays inert with --redact and --omit, which rewrite the same text', async () => {
    const outDir = join(workDir, 'report-redacted');
    // The corpus's paths are under /home/ana: let the home folder be replaced inside hostile text.
    await build({ inputs: [report.inputDir], out: outDir, scope: ALL_UTC, environment: { env: {}, home: '/home/ana' }, now: NOW, redact: true, omit: ['thinking'] });
    const problems: string[] = [];
    for (const page of (await listFiles(outDir)).filter((f) => f.endsWith('.html'))) {
      const html = await readFile(join(outDir, ...page.split('/')), 'utf8');
      problems.push(...liveMarkup(html).map((p) => `${page}: ${p}`));
      if (/<script>|<img src=x|<svg onload|<iframe|<textarea|<style/i.test(html)) problems.push(`${page}: an unescaped payload`);
    }
    expect(problems).toEqual([]);
  });

  it('names every written file with safe characters and leaves assets free of session text', () => {
    expect(report.files.filter((file) => !/^[A-Za-z0-9._/-]+$/.test(file))).toEqual([]);
    const leaked = report.files.filter((f) => f.startsWith('assets/') && /evil\.example|__boughPwned/.test(report.text.get(f) as string));
    expect(leaked).toEqual([]);
  });
});

describe('a report of hostile sessions, in Chromium', () => {
  it('runs, loads and opens nothing from session text on any page', async (context) => {
    requireBrowser(context);
    const problems = await visitAll(await browser.context(), report.outDir, report.pages);
    expect(problems).toEqual([]);
  }, BROWSER_TEST_MS);

  it('runs nothing even with the Content-Security-Policy removed (escaping holds on its own)', async (context) => {
    requireBrowser(context);
    const bare = join(workDir, 'report-without-csp');
    await cp(report.outDir, bare, { recursive: true });
    for (const page of report.pages) {
      const html = report.text.get(page) as string;
      const stripped = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/i, '');
      expect(stripped).not.toBe(html);
      await writeFile(join(bare, ...page.split('/')), stripped);
    }
    const problems = await visitAll(await browser.context(), bare, report.pages);
    expect(problems).toEqual([]);
  }, BROWSER_TEST_MS);

  it('runs nothing when every link of the conversations and trees is clicked or followed', async (context) => {
    requireBrowser(context);
    const browserContext = await browser.context();
    const problems: string[] = [];
    const toFollow = new Set<string>();
    let clicked = 0;
    for (const page of report.pages.filter((p) => p.startsWith('sessions/'))) {
      const url = pathToFileURL(join(report.outDir, ...page.split('/'))).href;
      const visit = await openPage(browserContext, url);
      try {
        const title = await visit.page.title();
        const links = await visit.page.$$eval(LINKS, (elements) =>
          elements.map((el) => el.getAttribute('href') ?? el.getAttributeNS('http://www.w3.org/1999/xlink', 'href') ?? ''),
        );
        for (const [index, href] of links.entries()) {
          const scheme = /^\s*([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(href)?.[1]?.toLowerCase();
          if (scheme === 'http' || scheme === 'https' || scheme === 'mailto') continue; // leaves the report; loads nothing by itself
          if (scheme !== undefined) problems.push(`${page}: a link to ${href}`);
          if (scheme === undefined && !href.startsWith('#')) {
            toFollow.add(new URL(href, url).href);
            continue;
          }
          // In-page anchors and anything unexpected: click it where it is, folded or not.
          await visit.page.locator(LINKS).nth(index).dispatchEvent('click');
          clicked++;
          // A javascript: URL that returns a string replaces the document (and its window).
          const now = await visit.page.title().catch(() => '(no title)');
          if (new URL(visit.page.url()).pathname !== new URL(url).pathname || now !== title) {
            problems.push(`${page}: clicking ${href} replaced the page with ${visit.page.url()} "${now}"`);
            await visit.page.goto(url);
          }
        }
        await visit.page.waitForTimeout(50);
        problems.push(...pageProblems(visit, page), ...(await pwned(visit.page, page)));
      } finally {
        await visit.page.close();
      }
    }
    expect(clicked).toBeGreaterThan(10);
    for (const url of toFollow) {
      const visit = await openPage(browserContext, url);
      try {
        const name = relative(report.outDir, decodeURIComponent(new URL(url).pathname)) + new URL(url).hash;
        problems.push(...pageProblems(visit, name), ...(await pwned(visit.page, name)));
      } finally {
        await visit.page.close();
      }
    }
    expect(problems).toEqual([]);
  }, BROWSER_TEST_MS);
});

/** Links of the conversation and of the SVG tree on a session page. */
const LINKS = '.conversation a, .tree-scroll a, section.branch a';

async function visitAll(context: BrowserContext, outDir: string, pages: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const page of pages) {
    const visit = await openPage(context, pathToFileURL(join(outDir, ...page.split('/'))).href);
    try {
      // Give timers, autofocus and SMIL animations (onbegin) a moment to fire.
      await visit.page.waitForTimeout(50);
      problems.push(...pageProblems(visit, page), ...(await pwned(visit.page, page)));
    } finally {
      await visit.page.close();
    }
  }
  return problems;
}

async function pwned(page: import('playwright-core').Page, name: string): Promise<string[]> {
  const value: unknown = await page.evaluate('window.__boughPwned');
  return value === undefined ? [] : [`${name}: window.__boughPwned = ${JSON.stringify(value)}`];
}

/** Files under `dir`, relative to it, with "/" separators. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** What a reader sees of a page: tags dropped, entities decoded (bough escapes every "<" of data). */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => [k, ...stringsOf(v)]);
  return [];
}

/** RFC 4180: quoted cells may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
