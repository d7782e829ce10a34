// A v1 /branch pair (Pi ≤ 0.30) of which Pi later rewrote one file as v3, with random ids (pi.md
// §2, §3), and a 2026 fork of a rewritten file. Regression: the copied history was counted twice,
// because a rewritten entry's key was its new id and the other file's the v1 time-and-content key.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { summarySchema } from '../src/report/schema.js';
import { FIXTURES, tempDir } from './support/fixtures.js';

const PAIRS = join(FIXTURES, 'cases', 'pi-v1-branch-rewritten');

async function summaryOf(folder: string) {
  const out = join(await tempDir(), 'report');
  expect((await runCli(['build', folder, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
  return summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
}

describe('a v1 branch pair, one file rewritten by a later Pi', () => {
  // Regression (an outside review of Pi's format): a pair of a Pi 0.30 still in use after Pi 0.31
  // came out (2026-01-02): its rewritten entries, of 2026, were keyed by their new ids.
  for (const rewritten of ['branch-rewritten', 'origin-rewritten', 'origin-rewritten-late']) {
    it(`counts the shared history once (${rewritten})`, async () => {
      const summary = await summaryOf(join(PAIRS, rewritten));
      // Shared: 1000 in; origin's own turn: 2000; branch's own turn: 4000.
      expect(summary.totals).toMatchObject({ sessions: 2, prompts: 3, replies: 3, tokens: { input: 7000, output: 700 }, cost: { recorded: 0.0315 } });
      const branch = summary.sessions.find((s) => s.file.endsWith('_v1branch.jsonl'));
      expect(branch).toMatchObject({ copiedEntries: 2 });
      expect(branch?.origin).toMatch(/_v1origin\.jsonl$/);
    });
  }

  it('counts the history once in a 2026 fork of the rewritten file (regression: keyed by content in the origin, by id in the fork)', async () => {
    const summary = await summaryOf(join(PAIRS, 'fork-of-rewritten'));
    // Shared: 1000 in; the fork's own turn: 8000.
    expect(summary.totals).toMatchObject({ sessions: 2, prompts: 2, replies: 2, tokens: { input: 9000, output: 900 }, cost: { recorded: 0.0405 } });
    expect(summary.sessions.find((s) => s.file.includes('_01a3c000-'))).toMatchObject({ copiedEntries: 2 });
  });
});
