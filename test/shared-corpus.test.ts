// The real Pi files in ../shared/corpus (skipped when that folder is absent): the report is
// built completely, and the numbers match the reference totals in its PROVENANCE.md.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import type { Summary } from '../src/report/schema.js';
import { ALL_UTC, SHARED_CORPUS, tempDir } from './support/fixtures.js';

const PI_CORPUS = join(SHARED_CORPUS, 'pi');

describe.skipIf(!existsSync(PI_CORPUS))('report over ../shared/corpus/pi', () => {
  let summary: Summary;

  beforeAll(async () => {
    const result = await build({
      inputs: [PI_CORPUS],
      out: join(await tempDir(), 'report'),
      scope: ALL_UTC,
      environment: { env: {}, home: await tempDir() },
      now: new Date('2026-11-30T12:00:00Z'),
    });
    summary = result.summary;
  });

  const session = (nameStart: string) => {
    const found = summary.sessions.find((s) => s.file.split('/').pop()?.startsWith(nameStart));
    if (!found) throw new Error(`no session ${nameStart}`);
    return found;
  };

  // PROVENANCE.md, real-v3/: figures checked against Pi's own get_session_stats.
  it.each([
    ['2026-11-30T11-32-04-675Z', 4, 12, 0, { input: 97, output: 496, cacheRead: 23936, cacheWrite: 2890 }, 0.0257493],
    ['2026-11-30T11-32-37-825Z', 6, 11, 2, { input: 2162, output: 448, cacheRead: 10512, cacheWrite: 4101 }, 0.02159485],
    ['2026-11-30T11-32-39-772Z', 2, 3, 0, { input: 20, output: 96, cacheRead: 3432, cacheWrite: 1828 }, 0.0093846],
    ['2026-11-30T11-32-41-271Z', 1, 2, 0, { input: 1394, output: 34, cacheRead: 1317, cacheWrite: 0 }, 0],
    // The /fork copy: only its new work, the copied path counts in its origin.
    ['2026-11-30T11-32-42-814Z', 1, 2, 0, { input: 15, output: 60, cacheRead: 1762, cacheWrite: 1862 }, 0.0140935],
  ])('%s matches Pi’s own totals', (name, prompts, replies, errorReplies, tokens, cost) => {
    const s = session(name);
    expect({ prompts: s.prompts, replies: s.replies, errorReplies: s.errorReplies }).toEqual({ prompts, replies, errorReplies });
    expect(s.tokens).toMatchObject(tokens);
    expect(s.cost.recorded).toBeCloseTo(cost, 9);
    // Pi 1.6 priced these from its catalog; bough's LiteLLM rates agree to the cent (here exactly).
    expect(s.cost.bough).toBeCloseTo(cost, 9);
    expect(s.costCheck).toMatchObject({ differs: false });
  });

  it('links the /fork to its origin', () => {
    expect(session('2026-11-30T11-32-42-814Z').origin).toBe(session('2026-11-30T11-32-37-825Z').file);
  });

  it('reads the v1 files completely, recovering both records of each glued line', () => {
    expect(session('v1-branched-two-compactions')).toMatchObject({ prompts: 55, replies: 484, errorReplies: 1, abortedReplies: 18 });
    expect(session('v1-large-thinking-toggles')).toMatchObject({ replies: 453, errorReplies: 1, abortedReplies: 21 });
    // 77 user and 503 assistant messages parse; line 1013 glues one more assistant message to a compaction.
    expect(session('v1-compaction-glued-line')).toMatchObject({ prompts: 77, replies: 504 });
    // Line 440 glues an assistant message to the following user message.
    expect(session('v1-thinking-glued-line')).toMatchObject({ prompts: 44, replies: 220 });
    expect(summary.diagnostics).toMatchObject({ skippedLines: 0, byReason: { 'glued-objects': 2 } });
  });

  it('prices the v1 files as Pi recorded them, to the cent', () => {
    for (const name of ['v1-branched-two-compactions', 'v1-large-thinking-toggles', 'v1-compaction-glued-line', 'v1-thinking-glued-line']) {
      const s = session(name);
      expect(Math.abs((s.cost.bough ?? NaN) - (s.cost.recorded ?? NaN)), name).toBeLessThan(0.01);
    }
    expect(summary.totals.unpricedModels).toEqual([]);
  });

  it('adds the sessions up to the totals', () => {
    const sum = (pick: (s: Summary['sessions'][number]) => number) => summary.sessions.reduce((a, s) => a + pick(s), 0);
    expect(summary.totals.prompts).toBe(sum((s) => s.prompts));
    expect(summary.totals.replies).toBe(sum((s) => s.replies));
    expect(summary.totals.tokens.cacheRead).toBe(sum((s) => s.tokens.cacheRead));
    expect(summary.totals.cost.recorded).toBeCloseTo(sum((s) => s.cost.recorded ?? 0), 8);
  });
});
