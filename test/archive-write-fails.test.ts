// A session whose archive cannot be written costs its own keeping, never the report. (Regression:
// a session too long for its archive's JSON failed the whole build, "unexpected error: Invalid
// string length", every other session's report with it.)

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { RECORDS_PATH } from '../src/archive.js';
import { build } from '../src/build.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';

vi.mock('../src/archive.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/archive.js')>();
  return {
    ...real,
    archiveFiles: (entry: Parameters<typeof real.archiveFiles>[0]) => {
      if (entry.ledger.path.endsWith('/tools.jsonl')) throw new RangeError('Invalid string length');
      return real.archiveFiles(entry);
    },
  };
});

describe('a session whose archive cannot be written', () => {
  it('is said, its page written, and every other session archived', async () => {
    const out = join(await tempDir(), 'report');
    const { summary } = await build({ inputs: [join(FIXTURES, 'pi')], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') });
    const tools = summary.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    expect(await readFile(join(out, tools?.page as string), 'utf8')).not.toContain('could not be written');
    expect(summary.diagnostics.items.filter((d) => d.reason === 'page-failed').map((d) => [d.file, d.detail])).toEqual([
      [tools?.file, 'its archive could not be written (Invalid string length): should its file go, a later build into this folder cannot keep it'],
    ]);
    const records = (await readFile(join(out, RECORDS_PATH), 'utf8')).trimEnd().split('\n');
    expect(records).toHaveLength(summary.sessions.length);
  });
});
