// The archive's search index: what it holds, that it stays small, and that a --redact report's
// index is redacted like its pages.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { searchIndexFiles } from '../src/report/search-index.js';
import { ALL_UTC, tempDir } from './support/fixtures.js';

const SECRET = 'sk-ant-api03-Zq8vN2mK5pL9rT4xW7yB1cD6fG3hJ0kM8nP2qR5sT9uV4wX7yZ1aB3cD6eF9gH2j-AbCdEf';

describe('the search index', () => {
  it('keeps prompts and files, and replies only while it stays under its budget', () => {
    const sessions = [{ title: 'Fix the cart', project: 'shop', day: '2026-11-01', page: 'sessions/a.html' }];
    const reply = { session: 0, kind: 'reply' as const, href: 'sessions/a.html#e-r', text: 'word '.repeat(100) };
    const items = [{ session: 0, kind: 'prompt' as const, href: 'sessions/a.html#e-p', text: 'Why   is\nthe total wrong?' }, ...Array.from({ length: 50 }, () => reply)];
    const small = searchIndexFiles(sessions, items, 3_000);
    expect(small.repliesLeftOut).toBeGreaterThan(40);
    expect(small.files.map((f) => f.path)).toEqual(['search/index.js', 'search/shard-0.js']);
    expect(small.files[1]?.content).toContain('"Why is the total wrong?"');
    expect(searchIndexFiles(sessions, items, 1_000_000).repliesLeftOut).toBe(0);
  });

  it('is built from the redacted text in a --redact report', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 10, 0, s)).toISOString();
    const lines = [
      { type: 'session', version: 3, id: 'secret-session', timestamp: at(0), cwd: '/home/ana/shop' },
      { type: 'message', id: 'p1', parentId: null, timestamp: at(1), message: { role: 'user', content: `Use the key ${SECRET} for the deploy script in /home/ana/shop/deploy.sh` } },
    ];
    await writeFile(join(input, 's.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    await build({ inputs: [input], out, scope: ALL_UTC, redact: true, environment: { env: {}, home: '/home/ana' }, now: new Date('2026-12-01T00:00:00Z') });
    const index = (await Promise.all((await readdir(join(out, 'search'))).map((f) => readFile(join(out, 'search', f), 'utf8')))).join('\n');
    expect(index).toContain('deploy script');
    expect(index).toContain('[REDACTED:');
    expect(index).not.toContain('Zq8vN2mK5pL9');
    expect(index).not.toContain('/home/ana');
  });
});
