// The Codex rollouts in ../shared/corpus/codex (skipped when that folder is absent): every file is
// read, and the usage matches the reference totals in its PROVENANCE.md.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimEntries } from '../src/ledger/claims.js';
import { ledgerOf } from '../src/ledger/ledger.js';
import { readSessionFile } from '../src/sources/read.js';
import { CLAIM_RULES } from '../src/sources/registry.js';
import type { SessionFile } from '../src/types.js';
import { SHARED_CORPUS } from './support/fixtures.js';
import { unpackEntries } from '../src/ledger/packed-entries.js';

const CODEX_CORPUS = join(SHARED_CORPUS, 'codex');
const REAL = join(CODEX_CORPUS, 'real', 'codemie', 'sessions', '2026', '05', '11');
const DCL = join(CODEX_CORPUS, 'synthetic', 'claude-code-log');

async function read(path: string): Promise<SessionFile> {
  const outcome = await readSessionFile(path);
  if (outcome.kind !== 'session') throw new Error(`${path} was not read as a session: ${JSON.stringify(outcome.diagnostics)}`);
  expect(outcome.file.source).toBe('codex');
  return outcome.file;
}

function tokens(file: SessionFile) {
  const usage = file.entries.flatMap((e) => e.usage);
  const sum = (pick: (u: (typeof usage)[number]) => number) => usage.reduce((a, u) => a + pick(u), 0);
  return { input: sum((u) => u.input), cacheRead: sum((u) => u.cacheRead), output: sum((u) => u.output), reasoning: sum((u) => u.reasoning), records: usage.length };
}

describe.skipIf(!existsSync(CODEX_CORPUS))('Codex rollouts in ../shared/corpus/codex', () => {
  // PROVENANCE.md "Reference usage totals": input there includes cached; bough's input is the non-cached part.
  it.each([
    ['real/codemie/sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl', 6_055_836, 4_929_536, 9_118, 1_759],
    ['synthetic/ccusage/session-alpha.jsonl', 3_500, 750, 425, 275],
    ['synthetic/codemie/turn-1.jsonl', 1_024, 512, 12, 8],
    ['synthetic/codemie/turn-2.jsonl', 1_100, 512, 20, 10],
    ['synthetic/codemie/turn-spawn-skill.jsonl', 5_000, 1_000, 200, 0],
  ])('%s matches the reference totals', async (path, input, cached, output, reasoning) => {
    const file = await read(join(CODEX_CORPUS, path));
    expect(tokens(file)).toMatchObject({ input: input - cached, cacheRead: cached, output, reasoning });
  });

  it('reads the real codex-tui session as its user saw it', async () => {
    const file = await read(join(REAL, 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'));
    expect(file).toMatchObject({ sessionId: '019e1625-789d-76c0-80ab-3724b5ddb799', cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code', diagnostics: [] });
    expect(file.entries.filter((e) => e.kind === 'prompt')).toHaveLength(2);
    // One usage record per sampling request, all on gpt-5.5 from the turn_context.
    const usage = file.entries.flatMap((e) => e.usage);
    expect(usage).toHaveLength(66);
    expect(new Set(usage.map((u) => u.model))).toEqual(new Set(['gpt-5.5']));
    expect(JSON.stringify(file.entries)).not.toContain('gAAAAAB');
  });

  it('reads the Desktop session without usage as having none', async () => {
    const file = await read(join(REAL, 'rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'));
    expect(file.entries.filter((e) => e.kind === 'prompt')).toHaveLength(3);
    expect(file.entries.flatMap((e) => e.usage)).toEqual([]);
  });

  it('counts a spawned child’s replay of its parent once, in the parent', async () => {
    const parent = await read(join(DCL, 'sessions/2026/01/03/rollout-2026-01-03T04-05-06-22222222-2222-4222-8222-222222222222.jsonl'));
    const child = await read(join(DCL, 'sessions/2026/01/03/rollout-2026-01-03T04-05-10-33333333-3333-4333-8333-333333333333.jsonl'));
    expect(child.subagentOf).toBe(parent.sessionId);
    const ledgers = [parent, child].map(ledgerOf);
    const claims = claimEntries(ledgers, CLAIM_RULES);
    const [parentLedger, childLedger] = ledgers;
    if (!parentLedger || !childLedger) throw new Error('no child');
    const counted = claims.counted.get(childLedger.key);
    const parentPrompts = unpackEntries(parentLedger.entries).filter((e) => e.turn === 'prompt');
    const childCounted = unpackEntries(childLedger.entries).filter((_, i) => counted?.entries[i] === 1);
    // The parent's "Spawn a synthetic researcher.", which the child replays, counts in the parent only.
    expect(parentPrompts.map((e) => e.key)).toHaveLength(1);
    expect(childCounted.map((e) => e.key)).not.toContain(parentPrompts[0]?.key);
    expect(childCounted.length).toBeGreaterThan(0);
    // The child's own task was written by the parent's model, not typed by the user: not a prompt.
    expect(childCounted.filter((e) => e.turn === 'prompt')).toEqual([]);
  });

  it('keeps what comes before a malformed last line, and reads the pre-envelope file', async () => {
    const malformed = await read(join(DCL, 'malformed/rollout-66666666-6666-4666-8666-666666666666.jsonl'));
    expect(malformed.entries.filter((e) => e.kind === 'prompt')).toHaveLength(1);
    // `{synthetic malformed json` was written wrong, not cut off: JSON fails before its end.
    expect(malformed.diagnostics.map((d) => d.reason)).toEqual(['invalid-json']);
    const legacy = await read(join(DCL, 'sessions/rollout-44444444-4444-4444-8444-444444444444.jsonl'));
    expect(legacy).toMatchObject({ formatVersion: 1, sessionId: '44444444-4444-4444-8444-444444444444' });
    expect(legacy.entries.map((e) => e.kind)).toEqual(['prompt', 'reply']);
  });

  it('shows one copy of each visible item and never the encrypted reasoning', async () => {
    const file = await read(join(DCL, 'sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl'));
    const text = file.entries.flatMap((e) => (e.kind === 'reply' ? e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : []));
    expect(text).toEqual(['The synthetic files are alpha.txt and beta.txt.']);
    expect(file.entries.filter((e) => e.kind === 'prompt')).toHaveLength(1);
    expect(JSON.stringify(file.entries)).not.toContain('SYNTHETIC_ENCRYPTED_CONTENT_MUST_NOT_RENDER');
  });
});
