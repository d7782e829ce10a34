// A reply's task list in Chromium. Regression (carried from a review of the report): each item
// showed its list's bullet and its box, two markers on one line, read as a list inside a list.

import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.js';
import { openPage, requireBrowser, sharedBrowser } from '../support/browser.js';
import { ALL_UTC } from '../support/fixtures.js';

const browser = sharedBrowser();
let work: string;
let out: string;

const REPLY = ['Plan:', '', '- [x] read the parser', '- [ ] add a test', '- plain point', '', 'Loose:', '', '- [ ] first step', '', '  with a note', '', '- second point'].join('\n');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bough-task-lists-'));
  const input = join(work, 'sessions');
  await mkdir(input);
  const usage = { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: { input: 0.0003, output: 0.00075, cacheRead: 0, cacheWrite: 0, total: 0.00105 } };
  const records = [
    { type: 'session', version: 3, id: 'cccccccc-0000-4000-8000-000000000001', timestamp: '2026-11-20T09:00:00.000Z', cwd: '/work/parser' },
    { type: 'message', id: 'a1', parentId: null, timestamp: '2026-11-20T09:00:01.000Z', message: { role: 'user', content: 'What is the plan?' } },
    { type: 'message', id: 'a2', parentId: 'a1', timestamp: '2026-11-20T09:00:02.000Z', message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', usage, content: [{ type: 'text', text: REPLY }] } },
  ];
  await writeFile(join(input, 'a.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  out = join(work, 'report');
  await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
});

afterAll(async () => {
  await browser.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a task list in a reply', () => {
  it('shows each item’s box alone, without its list’s bullet, and other items’ bullets as ever', async (context) => {
    requireBrowser(context);
    const [page] = (await readdir(join(out, 'sessions'))).filter((name) => name.endsWith('.html'));
    const visit = await openPage(await browser.context(), pathToFileURL(join(out, 'sessions', page as string)).href);
    try {
      const items = await visit.page.evaluate(() =>
        Array.from(document.querySelectorAll('.markdown li')).map((li) => [li.textContent?.trim().split('\n')[0], getComputedStyle(li).listStyleType === 'none' ? 'no marker' : 'bullet']),
      );
      expect(items).toEqual([
        ['☑ read the parser', 'no marker'],
        ['☐ add a test', 'no marker'],
        ['plain point', 'bullet'],
        ['☐ first step', 'no marker'],
        ['second point', 'bullet'],
      ]);
    } finally {
      await visit.page.close();
    }
  });
});
