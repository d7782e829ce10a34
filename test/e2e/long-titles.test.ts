// A session titled by a text that runs unbroken (a path its first prompt starts with) on a
// desktop's width, in Chromium. Regression (a review of the report as used): the title's cell
// widened the index's session tables past the page, their costs scrolled out of sight and one cut
// to "$0.001" at the box's edge.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

const LONG_PATH = '/Users/marco/projects/spotter/src/components/ConversationView/MessageListItemRenderer.tsx';

function piSession(id: string, day: string, text: string): string {
  const usage = { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: { input: 0.0003, output: 0.00075, cacheRead: 0, cacheWrite: 0, total: 0.00105 } };
  return [
    { type: 'session', version: 3, id, timestamp: `${day}T09:00:00.000Z`, cwd: '/Users/marco/projects/spotter' },
    { type: 'message', id: 'a1', parentId: null, timestamp: `${day}T09:00:01.000Z`, message: { role: 'user', content: text } },
    { type: 'message', id: 'a2', parentId: 'a1', timestamp: `${day}T09:00:02.000Z`, message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', usage, content: [{ type: 'text', text: 'Done.' }] } },
  ].map((record) => `${JSON.stringify(record)}\n`).join('');
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bough-long-titles-'));
  const input = join(work, 'sessions');
  await mkdir(input);
  await writeFile(join(input, 'a.jsonl'), piSession('aaaaaaaa-0000-4000-8000-000000000001', '2026-11-20', `${LONG_PATH} throws on empty content, please fix`));
  await writeFile(join(input, 'b.jsonl'), piSession('bbbbbbbb-0000-4000-8000-000000000001', '2026-11-21', 'Add a unit test for the parser'));
  out = join(work, 'report');
  await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
});

afterAll(async () => {
  await browser.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a session titled by a long path', () => {
  it('wraps in its table, which stays as wide as its box on a desktop, every cost in view', async (context) => {
    requireBrowser(context);
    const desktop = await (await browser.context()).browser()!.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const visit = await openPage(desktop, pathToFileURL(join(out, 'index.html')).href);
      try {
        const boxes = await visit.page.evaluate(() =>
          Array.from(document.querySelectorAll('.table-scroll'))
            .filter((box) => box.textContent?.includes('MessageListItemRenderer'))
            .map((box) => ({ table: box.scrollWidth <= box.clientWidth + 1, costs: Array.from(box.querySelectorAll('td.num')).every((cell) => cell.getBoundingClientRect().right <= box.getBoundingClientRect().right + 1) })),
        );
        expect(boxes.length).toBeGreaterThanOrEqual(2);
        expect(boxes).toEqual(boxes.map(() => ({ table: true, costs: true })));
      } finally {
        await visit.page.close();
      }
    } finally {
      await desktop.close();
    }
  });
});
