// bough's summary.json against the ground truth of a generated Pi corpus: trees, path copies, full
// copies into other projects, missing origins, sub-agent results and error replies. The generator
// computes the truth from its own bookkeeping (test/support/pi-corpus.ts), never from bough's reader.

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import type { Summary } from '../src/report/schema.js';
import { generatePiCorpus, TOKEN_KINDS, type GroundTruth, type SessionTruth, type Tally } from './support/pi-corpus.js';
import { ALL_UTC } from './support/fixtures.js';

/** Another seed gives another corpus: `BOUGH_CORPUS_SEED=7 npx vitest run test/generated-corpus.test.ts`. */
const SEED = Number(process.env['BOUGH_CORPUS_SEED'] ?? 20261126);
const SESSIONS = 300;
/** Recorded costs are float sums in a different order: equal to well below a cent. */
const COST_TOLERANCE = 1e-9;

type SummarySession = Summary['sessions'][number];
type Counted = Pick<SummarySession, 'prompts' | 'replies' | 'errorReplies' | 'abortedReplies' | 'tokens' | 'cost' | 'subagents'>;

let work: string;
let truth: GroundTruth;
let summary: Summary;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'bough-generated-')));
  const sessions = join(work, 'sessions');
  truth = await generatePiCorpus(sessions, { sessions: SESSIONS, seed: SEED });
  await build({
    inputs: [sessions],
    out: join(work, 'report'),
    scope: ALL_UTC,
    environment: { env: {}, home: join(work, 'home') },
    now: new Date('2026-12-01T00:00:00.000Z'),
  });
  summary = JSON.parse(await readFile(join(work, 'report', 'summary.json'), 'utf8')) as Summary;
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Every difference between what bough counted and the truth, one readable line each. */
function countDifferences(where: string, expected: Tally, got: Counted): string[] {
  const out: string[] = [];
  const same = (what: string, want: number, have: number | null | undefined) => {
    if (have !== want) out.push(`${where}: ${what} expected ${want}, got ${have}`);
  };
  const closeCost = (what: string, want: number, have: number | null | undefined) => {
    if (typeof have !== 'number' || Math.abs(have - want) > COST_TOLERANCE) out.push(`${where}: ${what} expected ${want}, got ${have}`);
  };
  same('prompts', expected.prompts, got.prompts);
  same('replies', expected.replies, got.replies);
  same('errorReplies', expected.errorReplies, got.errorReplies);
  same('abortedReplies', expected.abortedReplies, got.abortedReplies);
  for (const kind of TOKEN_KINDS) {
    same(`tokens.${kind}`, expected.tokens[kind], got.tokens[kind]);
    same(`subagents.tokens.${kind}`, expected.subagents.tokens[kind], got.subagents.tokens[kind]);
  }
  closeCost('cost.recorded', expected.recordedCost, got.cost.recorded ?? 0);
  closeCost('subagents.cost.recorded', expected.subagents.recordedCost, got.subagents.cost.recorded ?? 0);
  return out;
}

function describeSession(t: SessionTruth): string {
  return `${t.kind} v${t.formatVersion} ${relative(truth.dir, t.file)}`;
}

describe('bough on a generated Pi corpus', () => {
  it('covers every case a reviewer will throw at it', () => {
    const required = [
      'file-v1', 'file-v2', 'file-v3',
      'copy-fork', 'copy-clone', 'copy-full-fork', 'copy-import', 'copy-v1-branch', 'copy-of-copy',
      'origin-missing', 'origin-found-by-session-id', 'copy-parent-rechained',
      'import-name-clash', 'import-same-name-other-folder', 'custom-session-id', 'trailing-prompt-without-reply', 'parent-path-local', 'parent-path-other-machine', 'parent-path-windows',
      'label-recreated', 'full-fork-system-message', 'import-continued', 'flat-session-dir',
      'tree-branch-from-prompt', 'tree-branch-from-reply', 'tree-extra-root', 'tree-orphan', 'leaf-on-older-branch',
      'branch-summary', 'branch-summary-usage', 'compaction', 'compaction-usage', 'compaction-retain-none',
      'subagent-tool-results', 'subagent-run-transcript', 'subagent-run-aggregate-only', 'subagent-run-empty-messages', 'subagent-run-failed',
      'error-reply-empty', 'error-reply-partial', 'context-edit-retry', 'stop-length',
      'aborted-reply-usage-normal', 'aborted-reply-usage-zero', 'aborted-reply-usage-absent',
      'tool-read', 'tool-bash', 'tool-edit', 'tool-write', 'tool-grep', 'tool-codemode', 'tool-result-usage',
      'usage-entry-cache-warm', 'skill-prompt-tag', 'skill-prompt-old', 'prompt-string-content', 'prompt-with-image',
      'session-name', 'session-name-clear', 'label', 'label-clear', 'custom', 'custom-message', 'custom-message-hidden', 'hook-message',
      'bash-execution', 'bash-execution-killed', 'system-message',
      'model-anthropic', 'model-openai', 'model-openrouter', 'model-ollama', 'model-google',
    ];
    const missing = required.filter((what) => !(truth.coverage[what] ?? 0));
    expect(missing).toEqual([]);
    expect(truth.sessions.some((s) => s.kind !== 'original' && s.originMissing === true)).toBe(true);
    expect(truth.sessions.some((s) => s.duplicateOf !== null)).toBe(true);
  });

  it('reads every file cleanly', () => {
    expect(summary.diagnostics.files).toBe(SESSIONS);
    expect(summary.diagnostics.skippedFiles).toBe(0);
    expect(summary.diagnostics.skippedLines).toBe(0);
    const reasons = Object.keys(summary.diagnostics.byReason).filter((reason) => reason !== 'missing-origin');
    expect(reasons).toEqual([]);
  });

  it('counts the totals of the ground truth', () => {
    expect(summary.totals.sessions).toBe(truth.totals.sessions);
    expect(summary.totals.projects).toBe(truth.totals.projects);
    expect(countDifferences('totals', truth.totals, summary.totals)).toEqual([]);
  });

  it('counts each session what was first recorded in it', () => {
    const byFile = new Map(summary.sessions.map((s) => [s.file, s]));
    expect(summary.sessions.length).toBe(truth.totals.sessions);
    const differences: string[] = [];
    for (const expected of truth.sessions) {
      const where = describeSession(expected);
      const got = byFile.get(expected.file);
      if (expected.duplicateOf !== null) {
        if (got) differences.push(`${where}: a copy holding nothing more than ${expected.duplicateOf}, yet a session of its own`);
        else if (!byFile.get(expected.duplicateOf)?.duplicateFiles.includes(expected.file)) differences.push(`${where}: not listed with ${expected.duplicateOf}`);
        continue;
      }
      if (!got) {
        differences.push(`${where}: not in summary.json`);
        continue;
      }
      differences.push(...countDifferences(where, expected, got));
      if (got.entries !== expected.entries) differences.push(`${where}: entries expected ${expected.entries}, got ${got.entries}`);
      if (got.copiedEntries !== expected.copiedEntries) {
        differences.push(`${where}: copiedEntries expected ${expected.copiedEntries}, got ${got.copiedEntries}`);
      }
      if (got.branches !== expected.branches) differences.push(`${where}: branches expected ${expected.branches}, got ${got.branches}`);
    }
    expect(differences).toEqual([]);
  });

  it('links every copy to its origin, or says the origin is missing', () => {
    const byFile = new Map(summary.sessions.map((s) => [s.file, s]));
    const differences: string[] = [];
    for (const expected of truth.sessions) {
      const got = byFile.get(expected.file);
      if (!got) continue;
      const where = describeSession(expected);
      if (got.id !== expected.sessionId) differences.push(`${where}: id expected ${expected.sessionId}, got ${got.id}`);
      if (got.cwd !== expected.cwd) differences.push(`${where}: cwd expected ${expected.cwd}, got ${got.cwd}`);
      if (got.name !== expected.name) differences.push(`${where}: name expected ${expected.name}, got ${got.name}`);
      if (got.parentFile !== expected.parentFile) differences.push(`${where}: parentFile expected ${expected.parentFile}, got ${got.parentFile}`);
      if (expected.origin !== undefined && got.origin !== expected.origin) {
        differences.push(`${where}: origin expected ${expected.origin}, got ${got.origin}`);
      }
      if (expected.originMissing !== undefined && got.originMissing !== expected.originMissing) {
        differences.push(`${where}: originMissing expected ${expected.originMissing}, got ${got.originMissing}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('counts each project the sessions recorded in its folder', () => {
    const byCwd = new Map(summary.projects.map((p) => [p.cwd, p]));
    const differences: string[] = [];
    for (const expected of truth.projects) {
      const got = byCwd.get(expected.cwd);
      if (!got) {
        differences.push(`project ${expected.cwd}: not in summary.json`);
        continue;
      }
      if (got.sessions !== expected.sessions) differences.push(`project ${expected.cwd}: sessions expected ${expected.sessions}, got ${got.sessions}`);
      differences.push(...countDifferences(`project ${expected.cwd}`, expected, got));
    }
    expect(differences).toEqual([]);
  });

  it('adds the sessions up to the totals', () => {
    const sum = { prompts: 0, replies: 0, errorReplies: 0, recorded: 0, subagentRecorded: 0, tokens: {} as Record<string, number> };
    for (const s of summary.sessions) {
      sum.prompts += s.prompts;
      sum.replies += s.replies;
      sum.errorReplies += s.errorReplies;
      sum.recorded += s.cost.recorded ?? 0;
      sum.subagentRecorded += s.subagents.cost.recorded ?? 0;
      for (const kind of TOKEN_KINDS) sum.tokens[kind] = (sum.tokens[kind] ?? 0) + s.tokens[kind];
    }
    expect(sum.prompts).toBe(summary.totals.prompts);
    expect(sum.replies).toBe(summary.totals.replies);
    expect(sum.errorReplies).toBe(summary.totals.errorReplies);
    for (const kind of TOKEN_KINDS) expect(sum.tokens[kind], kind).toBe(summary.totals.tokens[kind]);
    expect(Math.abs(sum.recorded - (summary.totals.cost.recorded ?? 0))).toBeLessThan(COST_TOLERANCE);
    expect(Math.abs(sum.subagentRecorded - (summary.totals.subagents.cost.recorded ?? 0))).toBeLessThan(COST_TOLERANCE);
  });
});

describe('the corpus generator', () => {
  async function digest(dir: string): Promise<string> {
    const hash = createHash('sha256');
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
    const paths = files.map((f) => join(f.parentPath, f.name)).sort();
    // Local parentSession paths name the corpus folder itself; compare what lies below it.
    for (const path of paths) hash.update(relative(dir, path)).update((await readFile(path, 'utf8')).replaceAll(dir, '<root>'));
    return hash.digest('hex');
  }

  it('writes the same bytes for the same seed, and other bytes for another', async () => {
    const make = async (name: string, seed: number) => {
      const dir = join(work, name);
      const made = await generatePiCorpus(dir, { sessions: 40, seed });
      return { digest: await digest(dir), totals: made.totals };
    };
    const [a, b, c] = [await make('same-a', 5), await make('same-b', 5), await make('other', 6)];
    expect(a.digest).toBe(b.digest);
    expect(a.totals).toEqual(b.totals);
    expect(c.digest).not.toBe(a.digest);
  });

  it('writes exactly the number of session files asked for', () => {
    expect(truth.sessions).toHaveLength(SESSIONS);
    expect(new Set(truth.sessions.map((s) => s.file)).size).toBe(SESSIONS);
  });
});

describe('bough’s own prices on a corpus whose recorded costs follow LiteLLM’s rates', () => {
  let priced: Summary;
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'bough-generated-litellm-')));
    await generatePiCorpus(join(dir, 'sessions'), { sessions: 150, seed: SEED + 1, catalog: 'litellm' });
    const { summary } = await build({
      inputs: [join(dir, 'sessions')],
      out: join(dir, 'report'),
      scope: ALL_UTC,
      environment: { env: {}, home: join(dir, 'home') },
      now: new Date('2026-12-01T00:00:00.000Z'),
    });
    priced = summary;
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('agrees with every session’s recorded cost within one cent', () => {
    // A tool's own model use names no model: unpriced, so a session holding one is compared on the records bough priced.
    const off = priced.sessions
      .filter((s) => (!s.costCheck?.incomplete && Math.abs((s.cost.bough ?? 0) - (s.cost.recorded ?? 0)) > 0.01) || s.costCheck?.differs)
      .map((s) => `${relative(dir, s.file)}: bough ${s.cost.bough}, recorded ${s.cost.recorded}`);
    expect(off).toEqual([]);
    expect(priced.totals.unpricedModels).toEqual(['model not recorded']);
    expect(priced.totals.partiallyPricedModels).toEqual([]);
  });
});
