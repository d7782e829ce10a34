// A failure inside one session costs that session only: a data-quality entry (and, for a page, a
// page that says what failed), never the build. The failures are forced here by replacing one
// step for one session, since every known cause of them is fixed where it arose.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../src/build.js';
import { summarySchema } from '../src/report/schema.js';
import { ALL_UTC, piFixture, tempDir } from './support/fixtures.js';
import { runCli } from './support/cli.js';

vi.mock('../src/report/session-page.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/report/session-page.js')>();
  return {
    ...real,
    sessionPageView: (...args: Parameters<typeof real.sessionPageView>) => {
      if (args[1].ledger.path.endsWith('errors.jsonl')) throw new RangeError('Maximum call stack size exceeded');
      return real.sessionPageView(...args);
    },
  };
});

vi.mock('../src/ledger/ledger.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/ledger/ledger.js')>();
  return {
    ...real,
    ledgerOf: (file: Parameters<typeof real.ledgerOf>[0]) => {
      if (file.path.endsWith('skills.jsonl')) throw new TypeError("Cannot read properties of undefined (reading 'x')");
      return real.ledgerOf(file);
    },
  };
});

describe('a failure inside one session', () => {
  it('costs that session only, and says what failed', async () => {
    const out = join(await tempDir(), 'report');
    const inputs = ['minimal-v3.jsonl', 'errors.jsonl', 'skills.jsonl'].map(piFixture);
    await build({ inputs, out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z') });
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));

    // Reading skills.jsonl failed: it is listed, the others are read.
    expect(summary.sessions.map((s) => s.file.split('/').pop()).sort()).toEqual(['errors.jsonl', 'minimal-v3.jsonl']);
    const failures = summary.diagnostics.items.filter((d) => d.reason === 'session-failed' || d.reason === 'page-failed');
    expect(failures.map((d) => [d.file.split('/').pop(), d.reason, d.detail])).toEqual([
      ['skills.jsonl', 'session-failed', "bough could not read this session: Cannot read properties of undefined (reading 'x')"],
      ['errors.jsonl', 'page-failed', 'its page could not be written: Maximum call stack size exceeded'],
    ]);

    // Rendering errors.jsonl failed: its numbers still count, and its page says what failed.
    const errors = summary.sessions.find((s) => s.file.endsWith('errors.jsonl'));
    expect(errors).toMatchObject({ prompts: 3, replies: 5 });
    const page = await readFile(join(out, errors?.page as string), 'utf8');
    expect(page).toContain('This session&#39;s page could not be written: Maximum call stack size exceeded.');
    const quality = await readFile(join(out, 'data-quality.html'), 'utf8');
    expect(quality).toContain('page-failed');
    // Its row leads to the session's page; the file that is no session's leads nowhere (regression: no row had a link).
    expect(quality).toContain(`<td class="path"><a href="${errors?.page}">${errors?.file}</a></td>`);
    expect(quality).toMatch(/<td class="path">[^<]*skills\.jsonl<\/td>/);
  });

  // Regression: the command line said nothing of a page it could not write; only the data-quality page did.
  it('is said by the command line, even with --quiet, naming the file and what failed', async () => {
    const out = join(await tempDir(), 'report');
    for (const quiet of [[], ['--quiet']]) {
      const run = await runCli(['build', piFixture('minimal-v3.jsonl'), piFixture('errors.jsonl'), '--out', out, '--tz', 'UTC', '--no-cache', ...quiet]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^bough: error: 1 session has no page in the report \(\/.*errors\.jsonl: its page could not be written: Maximum call stack size exceeded\); the totals count them, and the data-quality page lists each with its reason\.$/m);
    }
  });
});
