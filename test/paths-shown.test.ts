// Paths as pages show them. Regression (a review of the report as used): a path holding a folder
// named in Arabic showed its file's date inside the folder's name, reversed, and two such folders
// swapped: the browser ran the right-to-left name into what stood beside it.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { pathHtml } from '../src/report/escape.js';
import { summarySchema } from '../src/report/schema.js';
import { ALL_UTC, tempDir } from './support/fixtures.js';

describe('a path with folders named in a right-to-left script', () => {
  it('sets each such name apart, escaped, and leaves other paths as they are', () => {
    expect(pathHtml('/srv/מיזם/2026-11-12.jsonl')).toBe('/srv/<bdi>מיזם</bdi>/2026-11-12.jsonl');
    expect(pathHtml('C:\\Users\\<ana>\\مشروع-1\\a&b')).toBe('C:\\Users\\&lt;ana&gt;\\<bdi>مشروع-1</bdi>\\a&amp;b');
    expect(pathHtml('/home/ana/<b>')).toBe('/home/ana/&lt;b&gt;');
  });

  it('is shown so on a session page and its project page', async () => {
    const dir = await tempDir('bough-rtl-paths-');
    const folder = join(dir, 'sessions', '--srv-مشروع-تطبيق--');
    await mkdir(folder, { recursive: true });
    const records = [
      { type: 'session', version: 3, id: 'aaaaaaaa-0000-4000-8000-000000000001', timestamp: '2026-11-12T09:00:00.000Z', cwd: '/srv/مشروع/تطبيق' },
      { type: 'message', id: 'a1', parentId: null, timestamp: '2026-11-12T09:00:01.000Z', message: { role: 'user', content: 'hi' } },
    ];
    await writeFile(join(folder, '2026-11-12T09-00-00.000Z_aaaa.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const out = join(dir, 'report');
    await build({ inputs: [join(dir, 'sessions')], out, scope: ALL_UTC, environment: { env: {}, home: join(dir, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('/<bdi>--srv-مشروع-تطبيق--</bdi>/2026-11-12T09-00-00.000Z_aaaa.jsonl</dd>');
    expect(page).toContain('>/srv/<bdi>مشروع</bdi>/<bdi>تطبيق</bdi></a></dd>');
    expect(await readFile(join(out, summary.projects[0]?.page as string), 'utf8')).toContain('<p class="lede path">/srv/<bdi>مشروع</bdi>/<bdi>تطبيق</bdi></p>');
    // Regression (a browser review): the overview's "By project" table showed the two folders swapped.
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('<span class="sub">/srv/<bdi>مشروع</bdi>/<bdi>تطبيق</bdi></span>');
  });
});
