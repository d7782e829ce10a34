// Names from a session that are also names of a JavaScript object's own members (`constructor`,
// `toString`, `valueOf`, `__proto__`): a provider, a file, a character reference. Looked up in
// an object literal, they found its methods: a crash of every command, or a method's source as text.

import { mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statsSchema, summarySchema } from '../src/report/schema.js';
import { runCli } from './support/cli.js';
import { tempDir } from './support/fixtures.js';

let work: string;
let input: string;

const PROVIDERS = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty'];

beforeAll(async () => {
  work = await realpath(await tempDir('bough-object-keys-'));
  input = join(work, 'sessions', '--work-keys--');
  await mkdir(input, { recursive: true });
  for (const [n, provider] of PROVIDERS.entries()) {
    const at = (s: number) => `2026-11-10T10:0${n}:${String(s).padStart(2, '0')}.000Z`;
    const usage = { input: 1000, output: 1000, cacheRead: 0, cacheWrite: 0, totalTokens: 2000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const records = [
      { type: 'session', version: 3, id: `5555555${n}-0000-4000-8000-000000000001`, timestamp: at(0), cwd: '/work/keys' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: [{ type: 'text', text: 'What do &valueOf; and &toString; say?' }], timestamp: Date.parse(at(1)) } },
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: at(2),
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Nothing: &valueOf; and &toString; are not **entities**.' },
            { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'src/constructor' } },
          ],
          api: 'openai-completions',
          provider,
          model: 'gpt-5',
          usage,
          stopReason: 'toolUse',
          timestamp: Date.parse(at(2)),
        },
      },
      { type: 'message', id: 't1', parentId: 'a1', timestamp: at(3), message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'export {}' }], isError: false, timestamp: Date.parse(at(3)) } },
    ];
    await writeFile(join(input, `2026-11-10T10-0${n}-00-000Z_${n}.jsonl`), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('names that are an object’s own members', () => {
  // Regression: a Pi provider named `constructor` stopped every command ("prefixes is not iterable").
  it('are a provider like any other: its model unpriced, every session read', async () => {
    const { code, stdout, stderr } = await runCli(['stats', join(work, 'sessions'), '--json', '--no-cache', '--tz', 'UTC']);
    expect(stderr).not.toContain('bug in bough');
    expect(code).toBe(0);
    const stats = statsSchema.parse(JSON.parse(stdout));
    expect(stats.totals).toMatchObject({ sessions: PROVIDERS.length, usageRecords: PROVIDERS.length, unpricedRecords: PROVIDERS.length });
  });

  // Regression: `&valueOf;` was read as a named reference and became the method's source.
  it('are shown as written in pages, search and a redacted report', async () => {
    for (const extra of [[], ['--redact']]) {
      const out = join(work, `report${extra.join('')}`);
      const { code, stderr } = await runCli(['build', join(work, 'sessions'), '--out', out, '--tz', 'UTC', '-q', '--no-cache', ...extra]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
      expect(summary.diagnostics.byReason['page-failed'] ?? 0).toBe(0);
      const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
      expect(page).toContain('&amp;valueOf;');
      expect(page).toContain('src/constructor');
      expect(page).not.toContain('[native code]');
      const index = (await Promise.all((await readdir(join(out, 'search'))).map((f) => readFile(join(out, 'search', f), 'utf8')))).join('');
      expect(index).toContain('valueOf;');
      expect(index).not.toContain('native code');
    }
  });
});
