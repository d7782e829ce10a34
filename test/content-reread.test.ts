// A build holds the ledgers of the whole history and reads each session's content again when it
// writes that session's pages. A file the agent is still writing (the session bough runs in)
// shows what was counted; a file rewritten in between costs its own page only.

import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type BuildOptions } from '../src/build.js';
import type { Summary } from '../src/report/schema.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';

async function buildChanging(change: (path: string) => void, { builtBefore = false } = {}): Promise<{ summary: Summary; pages: Map<string, string>; out: string; options: BuildOptions }> {
  const input = join(await tempDir(), 'in');
  await cp(join(FIXTURES, 'pi'), input, { recursive: true });
  const path = join(input, 'minimal-v3.jsonl');
  const out = join(await tempDir(), 'report');
  const options = { inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') };
  // Without the cache, so that the rebuild writes every page again.
  if (builtBefore) await build({ ...options, cache: false });
  let changed = false;
  await build({
    ...options,
    cache: !builtBefore,
    // Called once the ledgers are made, before any page is written.
    progress: (message) => {
      if (!changed && message.startsWith('counting')) {
        changed = true;
        change(path);
      }
    },
  });
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
  const pages = new Map<string, string>();
  for (const name of await readdir(join(out, 'sessions'))) pages.set(`sessions/${name}`, await readFile(join(out, 'sessions', name), 'utf8'));
  return { summary, pages, out, options };
}

describe('content read again for pages', () => {
  it('shows what was counted when the agent appended to the file meanwhile', async () => {
    const { summary, pages } = await buildChanging((path) =>
      appendFileSync(path, `${JSON.stringify({ type: 'message', id: 'late', parentId: null, timestamp: '2026-11-30T12:00:00.000Z', message: { role: 'user', content: 'Written during the build' } })}\n`),
    );
    const session = summary.sessions.find((s) => s.file.endsWith('minimal-v3.jsonl'));
    expect(summary.diagnostics.byReason['page-failed']).toBeUndefined();
    const page = pages.get(session?.page as string) as string;
    expect(page).not.toContain('Written during the build');
    expect(page).toContain('kind-prompt');
  });

  it('fails only the page of a file rewritten meanwhile, and says so', async () => {
    const { summary, pages } = await buildChanging((path) =>
      writeFileSync(path, `${JSON.stringify({ type: 'session', version: 3, id: 'other', timestamp: '2026-11-30T12:00:00.000Z', cwd: '/x' })}\n`),
    );
    expect(summary.diagnostics.byReason['page-failed']).toBe(1);
    const session = summary.sessions.find((s) => s.file.endsWith('minimal-v3.jsonl'));
    expect(pages.get(session?.page as string)).toContain('the file changed while the report was being written');
    expect(summary.sessions.length).toBeGreaterThan(5);
  });

  // Regression (a review of builds under stress): the ledger read before the cut was archived with
  // no page to show it, and every later build kept it so, saying its file was gone, the file there.
  it('writes the page of a file cut short meanwhile on the next build, as the file is then', async () => {
    const cut = (path: string) => {
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      writeFileSync(path, `${lines.slice(0, 5).join('\n')}\n`);
    };
    const { summary, out, options } = await buildChanging(cut);
    expect(summary.diagnostics.byReason['page-failed']).toBe(1);
    const again = await build({ ...options, cache: true });
    const session = again.summary.sessions.find((s) => s.file.endsWith('minimal-v3.jsonl'));
    expect(again.summary.diagnostics.byReason['page-failed']).toBeUndefined();
    expect(session?.sourceLastSeen).toBeNull();
    expect(session?.prompts).toBe(1);
    const page = await readFile(join(out, session?.page as string), 'utf8');
    expect(page).not.toContain('could not be written');
    expect(page).not.toContain('gone');
    expect(page).toContain('kind-prompt');
  });

  it('fails only the page of a file deleted meanwhile, its numbers counted, and says why', async () => {
    const { summary, pages } = await buildChanging((path) => rmSync(path));
    expect(summary.diagnostics.byReason['page-failed']).toBe(1);
    const session = summary.sessions.find((s) => s.file.endsWith('minimal-v3.jsonl'));
    expect(session?.prompts).toBeGreaterThan(0);
    expect(pages.get(session?.page as string)).toContain('its file no longer reads as a session since it was counted: it vanished while being read (moved or deleted)');
  });

  it('keeps the page an earlier build wrote of a file deleted meanwhile, saying so (regression: replaced by a page saying it failed)', async () => {
    const { summary, pages } = await buildChanging((path) => rmSync(path), { builtBefore: true });
    expect(summary.diagnostics.byReason['page-failed']).toBe(1);
    const session = summary.sessions.find((s) => s.file.endsWith('minimal-v3.jsonl'));
    const page = pages.get(session?.page as string) as string;
    expect(page).toContain("This build could not write this session's page again (its file no longer reads as a session since it was counted: it vanished while being read (moved or deleted)).");
    expect(page).toContain('What does cart.ts export?');
    expect(page).toContain('kind-prompt');
  });
});
