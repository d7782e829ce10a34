// `bough stats` over generated Claude Code trees and Codex rollouts against the generators' own
// truth (test/support/claude-corpus.ts, codex-corpus.ts): the benchmark corpus is only as good
// as this agreement.

import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stats } from '../src/stats.js';
import type { StatsJson } from '../src/report/schema.js';
import { generateClaudeCorpus, type ClaudeCorpusTruth } from './support/claude-corpus.js';
import { generateCodexCorpus, type CodexCorpusTruth } from './support/codex-corpus.js';
import { ALL_UTC } from './support/fixtures.js';

const SEED = Number(process.env['BOUGH_CORPUS_SEED'] ?? 20261126);
const SESSIONS = 6;

let work: string;
let claude: { truth: ClaudeCorpusTruth; json: StatsJson };
let codex: { truth: CodexCorpusTruth; json: StatsJson };

async function statsOver(dir: string): Promise<StatsJson> {
  const result = await stats({ inputs: [dir], scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, by: 'session' });
  return result.json;
}

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'bough-agents-')));
  const claudeTruth = await generateClaudeCorpus(join(work, 'claude'), { seed: SEED, size: { sessions: SESSIONS }, turns: [3, 8] });
  const codexTruth = await generateCodexCorpus(join(work, 'codex'), { seed: SEED, size: { sessions: SESSIONS }, turns: [3, 8] });
  claude = { truth: claudeTruth, json: await statsOver(claudeTruth.root) };
  codex = { truth: codexTruth, json: await statsOver(codexTruth.root) };
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('bough stats on a generated Claude Code tree', () => {
  it('writes what the benchmark needs to exercise', () => {
    expect(claude.truth.sessions).toBe(SESSIONS);
    expect(claude.truth.subagentFiles).toBeGreaterThan(0);
  });

  it('counts one session per main transcript and the human prompts', () => {
    expect(claude.json.totals).toMatchObject({ sessions: claude.truth.sessions, prompts: claude.truth.prompts });
  });

  it('counts each response once at its fullest line, sub-agents included, no progress copies', () => {
    expect(claude.json.totals.tokens).toEqual(claude.truth.tokens);
    expect(claude.json.totals.subagents.tokens).toEqual(claude.truth.subagents);
  });
});

describe('bough stats on generated Codex rollouts', () => {
  it('counts one session per rollout and the typed prompts', () => {
    expect(codex.json.totals).toMatchObject({ sessions: codex.truth.sessions, prompts: codex.truth.prompts });
  });

  it('counts each request once: no re-emits, no sentinels, cached input apart', () => {
    expect(codex.json.totals.tokens).toEqual(codex.truth.tokens);
  });
});
