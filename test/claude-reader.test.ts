// The Claude Code reader on handwritten fixtures (fixtures/claude/projects/…), and on the real
// transcripts in ../shared/corpus/claude against the reference totals of its PROVENANCE.md.

import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../src/reading/collect.js';
import { discover } from '../src/discover.js';
import { claimEntries } from '../src/ledger/claims.js';
import { turnTimeText } from '../src/sources/claude/read.js';
import { sessionSideFolders } from '../src/sources/claude/paths.js';
import { claudeReader } from '../src/sources/claude/reader.js';
import { readSessionFile } from '../src/sources/read.js';
import { CLAIM_RULES } from '../src/sources/registry.js';
import type { Entry, EntryOf, SessionFile, Usage } from '../src/types.js';
import { FIXTURES, SHARED_CORPUS, tempDir } from './support/fixtures.js';
import { unpackEntries } from '../src/ledger/packed-entries.js';
import { ledgerOf } from '../src/ledger/ledger.js';
import { createSharer } from '../src/share/share.js';
import { runCli } from './support/cli.js';
import { main, type CliIo } from '../src/cli.js';
import { blockText } from '../src/report/conversation.js';

const PROJECTS = join(FIXTURES, 'claude', 'projects');
const SHOP = join(PROJECTS, '-home-ana-shop');
const MAIN = join(SHOP, '11111111-1111-4111-8111-111111111111.jsonl');
const OLD = join(PROJECTS, '-home-ana-old', '33333333-3333-4333-8333-333333333333.jsonl');

async function readClaude(path: string): Promise<SessionFile> {
  const outcome = await readSessionFile(path);
  if (outcome.kind !== 'session') throw new Error(`${path} was not read: ${JSON.stringify(outcome.diagnostics)}`);
  expect(outcome.file.source).toBe('claude');
  return outcome.file;
}

/** A Claude Code session file of these records, named by its session id, read. */
async function readRecords(sessionId: string, records: readonly object[]): Promise<SessionFile> {
  const path = join(await tempDir(), `${sessionId}.jsonl`);
  await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return readClaude(path);
}

const ofKind = <K extends Entry['kind']>(entries: Entry[], kind: K) => entries.filter((e): e is EntryOf<K> => e.kind === kind);
const usageOf = (file: SessionFile): Usage[] => file.entries.flatMap((e) => e.usage);
const tokens = (list: Usage[]) => ({
  input: list.reduce((a, u) => a + u.input, 0),
  output: list.reduce((a, u) => a + u.output, 0),
  cacheRead: list.reduce((a, u) => a + u.cacheRead, 0),
  cacheWrite: list.reduce((a, u) => a + u.cacheWrite, 0),
});

/** The usage records the ledger counts over a folder: each response once, its fullest copy. */
async function countedUsage(folder: string) {
  const { files } = await discover([folder], { env: {}, home: '/nonexistent' });
  const { ledgers } = await collect(files, { keepContent: false });
  const claims = claimEntries(ledgers, CLAIM_RULES);
  const counted = ledgers.flatMap((ledger) => {
    const flags = claims.counted.get(ledger.key)?.usage;
    return unpackEntries(ledger.entries).flatMap((e) => e.usage).filter((_, i) => flags?.[i] === 1);
  });
  return { ledgers, counted };
}

describe('Claude Code reader: a main session', () => {
  it('reads the session facts from the records', async () => {
    const file = await readClaude(MAIN);
    expect(file).toMatchObject({
      sessionId: '11111111-1111-4111-8111-111111111111',
      cwd: '/home/ana/shop',
      startedAt: Date.parse('2026-03-02T10:00:00.000Z'),
      namedByAgent: true,
      subagentOf: null,
      subagentLabel: null,
      parentSessionId: null,
      parentFile: null,
    });
    // A summary line titles the earlier session that holds its leaf, never this one.
    expect(file.entryTitles).toEqual([{ entryId: '99999999-0000-4000-8000-00000000aaaa', title: 'An earlier session about the login page' }]);
    expect(ofKind(file.entries, 'name').map((e) => e.name)).toEqual(['Cart total fix']);
  });

  it('counts only what a human typed as prompts', async () => {
    const file = await readClaude(MAIN);
    expect(ofKind(file.entries, 'prompt').map((e) => e.content.map((b) => (b.type === 'text' ? b.text : b.type)).join(''))).toEqual([
      'Fix the cart total in src/cart.ts',
      'wait, also the tax',
      'Now run the tests',
      'try again',
      'src/cart.ts',
      'Thanks!',
    ]);
    const skill = ofKind(file.entries, 'prompt').find((e) => e.skill !== null)?.skill;
    expect(skill).toEqual({ name: 'review', command: '/review', location: '/home/ana/.claude/skills/review', body: '# Review\nRead the diff and list problems.' });
    expect(ofKind(file.entries, 'notice').map((e) => [e.label, e.tone])).toEqual([
      ['interrupted', 'warn'],
      ['command caveat', 'info'],
      ['command /compact', 'info'],
      ['command output', 'info'],
      ['turn time', 'info'],
    ]);
    expect(ofKind(file.entries, 'shell')).toEqual([expect.objectContaining({ command: 'ls src', output: 'cart.ts\ncheckout.ts' })]);
  });

  it('merges the lines of one response into one reply, counting its fullest line once', async () => {
    const file = await readClaude(MAIN);
    const replies = ofKind(file.entries, 'reply');
    expect(replies).toHaveLength(7);
    const [first] = replies;
    expect(first?.id).toBe('a-01');
    // The signature-only thinking is kept, with no text and not redacted (regression: it was called redacted).
    expect(first?.content).toEqual([
      { type: 'thinking', text: '', redacted: false },
      { type: 'text', text: 'Let me read the file.' },
      expect.objectContaining({ type: 'toolCall', id: 'toolu_read', name: 'Read', effect: expect.objectContaining({ action: 'read', paths: ['src/cart.ts'] }) }),
    ]);
    expect(first?.usage).toEqual([
      expect.objectContaining({ origin: 'reply', provider: 'anthropic', model: 'claude-sonnet-4-5-20250929', input: 3, output: 30, cacheWrite: 1000, cacheRead: 5000, claim: 'msg_A\u0000req_A', outputPartial: false }),
    ]);
    expect(replies.find((r) => r.id === 'a-09')?.usage[0]).toMatchObject({ cacheWrite: 200, cacheWrite1h: 200 });
  });

  it('counts no usage from progress copies, tool results or Claude Code’s own lines', async () => {
    const file = await readClaude(MAIN);
    expect(usageOf(file).map((u) => u.claim)).toEqual(['msg_A\u0000req_A', 'msg_B\u0000req_B', 'msg_C\u0000req_C', 'msg_D\u0000req_D', 'msg_E\u0000req_E', 'msg_F\u0000req_F']);
    expect(tokens(usageOf(file))).toEqual({ input: 33, output: 30 + 48 + 60 + 15 + 4096 + 10, cacheRead: 5000 + 6000 + 7000 + 7100 + 9000 + 9100, cacheWrite: 1200 });
    const apiError = ofKind(file.entries, 'reply').find((r) => r.id === 'a-10');
    expect(apiError).toMatchObject({ outcome: 'error', errorMessage: 'API Error: 529 Overloaded', model: null, usage: [] });
  });

  it('keeps the stop reason and says how a reply ended', async () => {
    const file = await readClaude(MAIN);
    const cut = ofKind(file.entries, 'reply').find((r) => r.id === 'a-11');
    expect(cut).toMatchObject({ outcome: 'length', stopReason: 'max_tokens' });
  });

  it('reads each tool result with its call: diffs, changed lines, commits', async () => {
    const file = await readClaude(MAIN);
    const results = ofKind(file.entries, 'toolResult');
    expect(results.map((r) => r.toolName)).toEqual(['Read', 'Edit', 'Bash', 'Write', 'Grep', 'Task']);
    const edit = results[1];
    expect(edit?.diff?.format).toBe('unified');
    expect(edit?.diff?.text).toMatch(/^@@ -1,1 \+1,1 @@\n-export const total/);
    expect(edit?.change).toEqual({ added: 1, removed: 1 });
    expect(results[2]?.commits).toEqual([{ branch: 'main', hash: '4c1e9b2', message: 'Fix cart total', landed: true, line: '[main 4c1e9b2] Fix cart total' }]);
    expect(results[3]?.change).toEqual({ added: 2, removed: 0 });
    const calls = ofKind(file.entries, 'reply').flatMap((r) => r.content.flatMap((b) => (b.type === 'toolCall' ? [[b.name, b.effect.action, b.effect.paths.join(',')]] : [])));
    expect(calls).toEqual([
      ['Read', 'read', 'src/cart.ts'],
      ['Edit', 'edit', 'src/cart.ts'],
      ['Bash', 'shell', ''],
      ['Write', 'write', 'test/cart.test.ts'],
      ['Grep', 'search', 'src'],
      ['Task', 'delegate', ''],
    ]);
  });

  // The links through records that are no entries are remembered (a long chain of progress lines,
  // each with a child, was walked again for every child: 20,000 of them took a minute); what is
  // remembered is forgotten when a record on the way turns out to be something else.
  it('links children through chains of progress lines, whichever comes first in the file', async () => {
    const sessionId = '77777777-7777-4777-8777-777777777777';
    const at = (n: number) => `2026-03-02T10:00:${String(n).padStart(2, '0')}.000Z`;
    const base = { sessionId, cwd: '/home/ana/shop', version: '2.1.0', userType: 'external', isSidechain: false };
    const user = (uuid: string, parentUuid: string | null, n: number) => ({ ...base, type: 'user', uuid, parentUuid, timestamp: at(n), message: { role: 'user', content: `prompt ${uuid}` } });
    const progress = (uuid: string, parentUuid: string, n: number) => ({ ...base, type: 'progress', uuid, parentUuid, timestamp: at(n), data: { type: 'hook_progress' } });
    const file = await readRecords(sessionId, [
      user('u0', null, 0),
      progress('p1', 'u0', 1),
      progress('p2', 'p1', 2),
      user('u1', 'p2', 3),
      // A child before the progress line it hangs from, and a prompt through both.
      user('u2', 'p4', 4),
      progress('p3', 'p2', 5),
      progress('p4', 'p3', 6),
      user('u3', 'p4', 7),
    ]);
    const parentOf = (id: string) => file.entries.find((e) => e.id === id)?.parentId;
    expect(['u1', 'u2', 'u3'].map(parentOf)).toEqual(['u0', 'u0', 'u0']);
  });

  it('keeps the conversation one connected line: skipped records, merged lines and parallel results pass their links on', async () => {
    const file = await readClaude(MAIN);
    const ids = new Set(file.entries.map((e) => e.id));
    const parentOf = (id: string) => file.entries.find((e) => e.id === id)?.parentId;
    expect(file.entries.filter((e) => e.parentId === null).map((e) => e.id)).toEqual(['u-01']);
    expect(file.entries.every((e) => e.parentId === null || ids.has(e.parentId))).toBe(true);
    // Through the progress line; through the reply's later lines; the parallel results one after another.
    expect(parentOf('r-01')).toBe('a-01');
    expect(parentOf('a-04')).toBe('r-01');
    expect(parentOf('r-02')).toBe('a-04');
    expect(parentOf('r-03')).toBe('r-02');
    // The compaction continues from where the conversation was, and its summary is shown once, in it.
    expect(ofKind(file.entries, 'compaction')).toEqual([expect.objectContaining({ id: 's-01', parentId: 'u-05', tokensBefore: 12345, summary: expect.stringMatching(/^This session is being continued/) })]);
    expect(ids.has('u-06')).toBe(false);
    expect(parentOf('u-07')).toBe('s-01');
    // An unknown record type is skipped, its children linked past it (to the shell entry, which
    // took in the bash output line); a turn_duration line is a small notice of the turn's time.
    expect(parentOf('y-01')).toBe('u-12');
    expect(parentOf('u-14')).toBe('y-01');
    expect(file.entries.find((e) => e.id === 'y-01')).toMatchObject({ kind: 'notice', label: 'turn time', summary: 'turn took 1 s' });
    // Keyed by uuid, and by what the node says (a copy says the same; another node under the same uuid does not).
    expect(file.entries.map((e) => e.key.split('@')[0]).slice(0, 3)).toEqual(['u-01', 'a-01', 'r-01']);
  });

  it('reports an unknown record type once, and nothing else', async () => {
    const file = await readClaude(MAIN);
    expect(file.diagnostics.map((d) => [d.reason, d.line])).toEqual([['unknown-entry-type', 37]]);
  });
});

describe('Claude Code reader: sub-agents', () => {
  it('reads a 2.1.x sub-agent file as part of its parent session, labelled from its sidecar', async () => {
    const file = await readClaude(join(SHOP, '11111111-1111-4111-8111-111111111111', 'subagents', 'agent-a9f8e7d6c5.jsonl'));
    expect(file).toMatchObject({ sessionId: '11111111-1111-4111-8111-111111111111', subagentOf: '11111111-1111-4111-8111-111111111111', subagentLabel: 'Search the cart code', namedByAgent: true });
    expect(usageOf(file)).toEqual([expect.objectContaining({ origin: 'subagent', output: 80, cacheWrite: 2000, model: 'claude-haiku-4-5-20251001' })]);
    // The id its parent's Task result names it by, so the page links the call to its transcript.
    expect(file.subagentId).toBe('a9f8e7d6c5');
    expect((await readClaude(MAIN)).startedSubagents).toEqual([{ callId: 'toolu_task', subagentId: 'a9f8e7d6c5' }]);
  });

  it('labels a flat sub-agent by its task, and a warmup as warmup', async () => {
    const flat = await readClaude(join(SHOP, 'agent-5e5e5e5e.jsonl'));
    expect(flat).toMatchObject({ subagentOf: '11111111-1111-4111-8111-111111111111', subagentLabel: 'List the files under src and say what each one does' });
    const warmup = await readClaude(join(SHOP, 'agent-0c0ffee0.jsonl'));
    expect(warmup).toMatchObject({ subagentOf: '22222222-2222-4222-8222-222222222222', subagentLabel: 'warmup' });
    expect(tokens(usageOf(warmup))).toMatchObject({ input: 900, output: 30 });
    // Its session's main file is empty: skipped, while the warmup's usage still counts.
    expect((await readSessionFile(join(SHOP, '22222222-2222-4222-8222-222222222222.jsonl'))).kind).toBe('skipped');
  });

  it('shows an old inline sidechain inside the Task result, its usage counted there as sub-agent spend', async () => {
    const file = await readClaude(OLD);
    expect(file.entries.map((e) => e.kind)).toEqual(['prompt', 'reply', 'toolResult', 'reply']);
    const [task] = ofKind(file.entries, 'toolResult');
    expect(task?.subagents).toEqual([
      expect.objectContaining({ agent: 'Task', task: 'Run the build and find the error', model: 'claude-sonnet-4-20250514', entries: [expect.objectContaining({ kind: 'prompt' }), expect.objectContaining({ kind: 'reply' })] }),
    ]);
    // Two lines without a request id that chain directly are one response; its claim is scoped to
    // the session and time (§9.3). Its form is what report folders archived: kept, else a session
    // archived by an earlier build is counted again once its file moves (a hostile look).
    expect(task?.usage).toEqual([
      expect.objectContaining({ origin: 'subagent', output: 70, claim: `33333333-3333-4333-8333-333333333333\u0000msg_OS1\u0000${Date.parse('2025-07-01T09:00:03.000Z')}` }),
    ]);
    expect(ofKind(file.entries, 'reply')[1]?.usage[0]).toMatchObject({ recordedCost: 0.0123 });
  });

  // Regression (an outside review of the outputs): --omit tool-output dropped an inline sidechain's
  // transcript, its calls and the files it touched, which are the sub-agent's own records in the
  // file (a sub-agent in a file of its own kept them), not what its tool printed.
  it('keeps an inline sidechain’s own entries under --omit tool-output', async () => {
    const file = await readClaude(OLD);
    const shared = createSharer({ redact: false, omit: new Set(['tool-output']), home: '/nonexistent' }).file(file);
    const [task] = ofKind(shared.entries, 'toolResult');
    expect(task?.subagents[0]?.entries.map((e) => e.kind)).toEqual(['prompt', 'reply']);
    expect(task?.content).toEqual([{ type: 'text', text: '[tool output omitted from this report]' }]);
  });

  it('counts each response once across a session and its sub-agents', async () => {
    const { ledgers, counted } = await countedUsage(PROJECTS);
    expect(counted).toHaveLength(6 + 1 + 1 + 1 + 3);
    expect(claimEntries(ledgers, CLAIM_RULES).hostOf.get(`claude:${join(SHOP, 'agent-5e5e5e5e.jsonl')}`)).toBe(`claude:${MAIN}`);
  });
});

describe('Claude Code reader: recognising files', () => {
  it.each([
    ['a user line', { parentUuid: null, uuid: 'u', sessionId: 's', type: 'user', message: { role: 'user', content: 'hi' } }, 'record'],
    ['a summary line', { type: 'summary', summary: 'x', leafUuid: 'u' }, 'record'],
    ['a snapshot', { type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false }, 'record'],
    ['a queue operation', { type: 'queue-operation', operation: 'enqueue', sessionId: 's', timestamp: 't' }, 'record'],
    // Without a type a record is of no known kind (claude.md §3): ccusage's fixtures are not Claude Code's files.
    ['a ccusage usage line', { timestamp: 't', sessionId: 's', message: { id: 'm', usage: { input_tokens: 1 } }, requestId: 'r', costUSD: 0.1 }, null],
    ['a Pi header', { type: 'session', id: 'x', version: 3, timestamp: 't', cwd: '/' }, null],
    ['a Pi entry', { type: 'message', id: 'a', parentId: null, timestamp: 't', message: { role: 'user', content: 'hi' } }, null],
    ['a Codex envelope', { timestamp: 't', type: 'session_meta', payload: { id: 'x' } }, null],
    ['a Codex response item', { timestamp: 't', type: 'response_item', payload: { type: 'message' } }, null],
    ['a pre-envelope Codex header', { id: 'x', timestamp: 't', instructions: '' }, null],
    ['a workflow journal line', { type: 'agent_started', runId: 'r', agentId: 'a', timestamp: 't' }, null],
  ])('%s', (_, record, expected) => {
    expect(claudeReader.recognise(record)).toBe(expected);
  });

  it('finds transcripts under CLAUDE_CONFIG_DIR, or both default roots', () => {
    expect(claudeReader.defaultPlaces({ env: { CLAUDE_CONFIG_DIR: '/a, ~/b/projects/' }, home: '/home/ana' })).toEqual(['/a/projects', '/home/ana/b/projects']);
    expect(claudeReader.defaultPlaces({ env: {}, home: '/home/ana' })).toEqual(['/home/ana/.claude/projects', '/home/ana/.config/claude/projects']);
  });
});

// ---------------------------------------------------------------------------------------------

const CORPUS = join(SHARED_CORPUS, 'claude');

/** PROVENANCE.md "Reference usage totals": requests, input, cache write (1h), cache read, output, requests with a final line. */
const REFERENCE: [string, number, number, number, number, number, number, number][] = [
  ['real/projects/-Users-dain-workspace-claude-code-log-sample/12a546d1-83a7-49a6-abba-5400db340b43.jsonl', 36, 206, 29126, 0, 1167066, 6064, 4],
  ['real/projects/-Users-dain-workspace-claude-code-log-sample/326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl', 15, 43, 25577, 0, 299222, 487, 1],
  ['real/projects/-Users-dain-workspace-claude-code-log-sample/fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl', 34, 279, 83966, 0, 1164952, 2201, 2],
  ['real/projects/-Users-dain-workspace-coderabbit-review-helper/agent-0c78cdae.jsonl', 1, 982, 0, 0, 0, 150, 1],
  ['real/projects/-Users-dain-workspace-coderabbit-review-helper/agent-2b93909d.jsonl', 1, 1004, 0, 0, 0, 48, 1],
  ['real/projects/-Users-dain-workspace-coderabbit-review-helper/agent-645808c9.jsonl', 1, 993, 0, 0, 0, 110, 1],
  ['real/projects/-Users-dain-workspace-coderabbit-review-helper/agent-ea02459f.jsonl', 5, 3289, 36957, 0, 76673, 1799, 5],
  ['real/projects/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl', 80, 735, 152097, 0, 3483153, 23714, 80],
  ['real/projects/-Users-dain-workspace-danieldemmel-me-next/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl', 37, 149, 126282, 0, 1227972, 3130, 0],
  ['real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl', 17, 1308, 102189, 102189, 728660, 22901, 17],
  ['real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a36efb2a1231c41e2.jsonl', 6, 11, 28741, 0, 118168, 2508, 5],
  ['real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a4ca7529859c158c2.jsonl', 20, 445, 113769, 0, 615694, 7923, 18],
  ['real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a52886dc180afb356.jsonl', 15, 39, 85894, 0, 430337, 6475, 15],
  ['real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a6aa8ad077d9ea083.jsonl', 5, 10, 17715, 0, 101254, 3122, 5],
  ['real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-ab1e6e141221a29ab.jsonl', 15, 723, 33267, 0, 360852, 8156, 14],
  ['real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-aef063ba534d73153.jsonl', 5, 10, 16998, 0, 100730, 2373, 4],
  ['real/projects/-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl', 103, 2250, 175207, 0, 8505166, 31430, 20],
  ['real/projects/-src-deep-manifest/agent-c8d9b115.jsonl', 6, 869, 41483, 0, 124362, 840, 0],
  ['real/projects/-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl', 2, 2, 7996, 0, 36009, 2, 0],
  ['real/projects/-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20/subagents/agent-a2271d1.jsonl', 10, 4466, 42768, 0, 236968, 18, 0],
  ['real/spotter/4d5611e5-241a-462a-8d15-5122611a9569.excerpt-L739-L775.jsonl', 3, 7, 19124, 0, 220902, 642, 0],
  ['real/spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl', 12, 53, 71257, 0, 604156, 136, 0],
  ['real/spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-acompact-e1f845.jsonl', 1, 3, 8681, 0, 164830, 8, 0],
  ['real/spotter/short.jsonl', 1, 3, 13835, 13835, 11515, 13, 0],
  ['real/spotter/subagent.jsonl', 12, 1576, 25842, 25842, 427286, 1586, 0],
  ['real/spotter/tool_heavy.jsonl', 4, 54, 17696, 17696, 88231, 212, 0],
  ['synthetic/claude-code-log/dag_cycle.jsonl', 1, 3, 0, 0, 4451, 1, 0],
  ['synthetic/claude-code-log/dag_fork.jsonl', 4, 70, 0, 0, 0, 35, 4],
  ['synthetic/claude-code-log/dag_resume.jsonl', 3, 45, 0, 0, 0, 23, 3],
  ['synthetic/claude-code-log/sidechain.jsonl', 4, 26, 15953, 0, 85688, 1037, 3],
];

describe.skipIf(!existsSync(CORPUS))('Claude Code reader over ../shared/corpus/claude', () => {
  it.each(REFERENCE)('%s matches the reference totals', async (path, requests, input, cacheWrite, cacheWrite1h, cacheRead, output, final) => {
    const file = await readClaude(join(CORPUS, path));
    const usage = usageOf(file);
    expect({
      requests: usage.length,
      input,
      cacheWrite,
      cacheWrite1h: usage.reduce((a, u) => a + u.cacheWrite1h, 0),
      cacheRead,
      output,
      final: usage.filter((u) => !u.outputPartial).length,
    }).toEqual({ requests, ...tokens(usage), cacheWrite1h, final });
    expect(file.diagnostics).toEqual([]);
  });

  it('adds up to the reference totals of real/projects after counting each response once', async () => {
    const { ledgers, counted } = await countedUsage(join(CORPUS, 'real', 'projects'));
    const sum = (k: 'input' | 'output' | 'cacheRead' | 'cacheWrite') => counted.reduce((a, u) => a + u[k], 0);
    expect({ input: sum('input'), output: sum('output'), cacheRead: sum('cacheRead'), cacheWrite: sum('cacheWrite') }).toEqual({
      input: 17_813,
      output: 123_451,
      cacheRead: 18_777_238,
      cacheWrite: 1_120_032,
    });
    // Session cb2e607c = main (80) + agent-ea02459f (5) + two warmups; ef958aa1 = main + 6 sub-agent files (83 requests).
    const requestsOf = (sessionId: string) => ledgers.filter((l) => l.sessionId === sessionId).reduce((n, l) => n + l.entries.usageCount, 0);
    expect(requestsOf('cb2e607c-c758-415a-8b45-c49e4631906a')).toBe(87);
    expect(requestsOf('ef958aa1-0e93-49f0-bb71-150f63befcd1')).toBe(83);
  });

  // Regression (a hostile look at 0d5ae6d): without request ids (a gateway's), lines of one
  // response were taken for several once a line had a stop reason, which Claude Code 2.0 writes on
  // every line: the prompt billed once per line, 2.6× the corpus figures (claude.md §9.2).
  it('counts a real file with its request ids taken out as it counts it with them', async () => {
    const path = join(CORPUS, 'real/projects/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl');
    const withIds = tokens(usageOf(await readClaude(path)));
    const lines = (await readFile(path, 'utf8')).split('\n').map((line) => (line.trim() === '' ? line : JSON.stringify({ ...JSON.parse(line), requestId: undefined })));
    const stripped = join(await tempDir(), 'cb2e607c-c758-415a-8b45-c49e4631906a.jsonl');
    await writeFile(stripped, lines.join('\n'));
    expect(tokens(usageOf(await readClaude(stripped)))).toEqual(withIds);
    expect(withIds).toMatchObject({ cacheRead: 3_483_153, output: 23_714 });
  });

  it('never counts a sub-agent’s task or a command as a human prompt', async () => {
    const ef = await readClaude(join(CORPUS, 'real/projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl'));
    expect(ofKind(ef.entries, 'prompt')).toHaveLength(2);
    const spotter = await readClaude(join(CORPUS, 'real/spotter/subagent.jsonl'));
    expect(ofKind(spotter.entries, 'prompt').map((p) => p.skill?.command ?? null)).toEqual(['/handgemacht:create-beads', null]);
  });
});

describe('a prompt with an IDE selection attached', () => {
  it('is the typed words, titled by them; the selection is shown apart as injected context', async () => {
    const line = {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: '44444444-4444-4444-8444-444444444444',
      cwd: '/home/ana/shop',
      timestamp: '2026-11-01T10:00:00.000Z',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: '<ide_selection>The user selected line 3 of cart.py:\nprice</ide_selection>' },
          { type: 'text', text: 'Why is the price rounded down?' },
        ],
      },
    };
    const file = await readRecords('44444444-4444-4444-8444-444444444444', [line]);
    const prompts = ofKind(file.entries, 'prompt');
    expect(prompts.map((p) => p.content)).toEqual([[{ type: 'text', text: 'Why is the price rounded down?' }]]);
    expect(ofKind(file.entries, 'notice').map((n) => n.label)).toEqual(['injected context']);
    expect(prompts[0]?.parentId).toBe(ofKind(file.entries, 'notice')[0]?.id);
  });

  // Regression: a reminder in the same text block as the typed words stayed in the prompt, and
  // the session's title was "<system-reminder>…".
  it('takes a reminder out of the typed words’ own text, and titles the session by the words', async () => {
    const text = '<system-reminder>\nThe user opened cart.py.\n</system-reminder>\nWhy is the price rounded down?\n<ide_selection>price</ide_selection>';
    const line = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: '44444444-4444-4444-8444-444444444449', cwd: '/home/ana/shop', timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: text } };
    const file = await readRecords('44444444-4444-4444-8444-444444444449', [line]);
    expect(ofKind(file.entries, 'prompt').map((p) => p.content)).toEqual([[{ type: 'text', text: 'Why is the price rounded down?' }]]);
    const [notice] = ofKind(file.entries, 'notice');
    expect(notice?.content).toEqual([{ type: 'text', text: '<system-reminder>\nThe user opened cart.py.\n</system-reminder>\n<ide_selection>price</ide_selection>' }]);
    expect(ledgerOf(file).title).toBe('Why is the price rounded down?');
  });

  // Regression (a hostile look): the line was told a prompt before the reminder was taken out, so
  // an interrupt or a command echo with one after it counted as a prompt, titled by its markup.
  it('tells an interrupt or a command echo with a reminder beside it as what it is', async () => {
    const id = '44444444-4444-4444-8444-44444444444c';
    const user = (uuid: string, parentUuid: string | null, content: string) => ({ type: 'user', uuid, parentUuid, sessionId: id, cwd: '/home/ana/shop', timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content } });
    const file = await readRecords(id, [
      user('u1', null, 'Fix the login bug'),
      user('u2', 'u1', '[Request interrupted by user]\n<system-reminder>x</system-reminder>'),
      user('u3', 'u2', '<system-reminder>x</system-reminder>\n<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>'),
    ]);
    expect(ofKind(file.entries, 'prompt')).toHaveLength(1);
    expect(ofKind(file.entries, 'notice').map((n) => n.label)).toEqual(['interrupted', 'command /clear']);
  });

  // Regression (an outside review in a browser): a command's arguments lost what was in angle
  // brackets in its line ("Make the component accessible; keep Vec"): typed words, not markup.
  it('keeps angle brackets in a command’s arguments', async () => {
    const id = '44444444-4444-4444-8444-44444444444d';
    const content = '<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>Make the <Button> component accessible; keep Vec<String> and a < b</command-args>';
    const file = await readRecords(id, [{ type: 'user', uuid: 'u1', parentUuid: null, sessionId: id, cwd: '/home/ana/shop', timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content } }]);
    expect(ofKind(file.entries, 'notice').map((n) => [n.label, n.summary])).toEqual([['command /review', 'Make the <Button> component accessible; keep Vec<String> and a < b']]);
  });

  it('keeps an element among the typed words: the user wrote it', async () => {
    const text = 'What does <system-reminder>plan mode</system-reminder> mean here?';
    const line = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: '44444444-4444-4444-8444-44444444444b', cwd: '/home/ana/shop', timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: text } };
    const file = await readRecords('44444444-4444-4444-8444-44444444444b', [line]);
    expect(ofKind(file.entries, 'prompt').map((p) => p.content)).toEqual([[{ type: 'text', text }]]);
    expect(ofKind(file.entries, 'notice')).toEqual([]);
  });
});

describe('a usage-limit notice', () => {
  // Regression: its reset time was shown as Claude Code writes it, Unix seconds after a bar.
  it('says when the limit resets', async () => {
    const id = '44444444-4444-4444-8444-44444444444a';
    const line = {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: null,
      sessionId: id,
      isApiErrorMessage: true,
      timestamp: '2026-11-01T10:00:00.000Z',
      message: { id: 'msg_1', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: 'Claude AI usage limit reached|1764590400' }], usage: { input_tokens: 0, output_tokens: 0 } },
    };
    const [reply] = ofKind((await readRecords(id, [line])).entries, 'reply');
    expect(reply?.errorMessage).toBe('Claude AI usage limit reached (resets 2025-12-01 12:00 UTC)');
    expect(reply?.content).toEqual([{ type: 'text', text: 'Claude AI usage limit reached (resets 2025-12-01 12:00 UTC)' }]);
    // A number of seconds past any year a clock shows four digits of is left as written.
    const far = { ...line, message: { ...line.message, content: [{ type: 'text', text: 'Claude AI usage limit reached|999999999999' }] } };
    const [odd] = ofKind((await readRecords(id, [far])).entries, 'reply');
    expect(odd?.errorMessage).toBe('Claude AI usage limit reached|999999999999');
  });
});

describe('a session whose first line is a hook attachment from a worktree', () => {
  // Regression: the session was filed under the worktree's project, though every prompt and reply ran in the main folder.
  it('is in the folder its conversation ran in', async () => {
    const id = '44444444-4444-4444-8444-444444444448';
    const lines = [
      { type: 'attachment', uuid: 'h1', parentUuid: null, sessionId: id, cwd: '/home/u/app/.claude/worktrees/feat', timestamp: '2026-11-01T10:00:00.000Z', attachment: { type: 'hook_success' } },
      { type: 'user', uuid: 'u1', parentUuid: 'h1', sessionId: id, cwd: '/home/u/app', timestamp: '2026-11-01T10:00:01.000Z', message: { role: 'user', content: 'hi' } },
    ];
    expect((await readRecords(id, lines)).cwd).toBe('/home/u/app');
  });
});

describe('a record without a type', () => {
  // Regression: a usage line with no type (as other tools' fixtures write them) was billed as a Claude Code reply.
  it('is of no known kind: skipped and said, its usage not counted (claude.md §3)', async () => {
    const lines = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: '44444444-4444-4444-8444-444444444447', cwd: '/home/ana/shop', timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: 'hi' } },
      { timestamp: '2026-11-01T10:00:01.000Z', sessionId: '44444444-4444-4444-8444-444444444447', requestId: 'r1', costUSD: 0.12, message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-20250514', usage: { input_tokens: 1000, output_tokens: 100 } } },
    ];
    const file = await readRecords('44444444-4444-4444-8444-444444444447', lines);
    expect(usageOf(file)).toEqual([]);
    // Skipped, so counted as a skipped line (regression: listed as skipped, counted as 0 skipped lines).
    expect(file.diagnostics.map((d) => [d.reason, d.line, d.skippedLine])).toEqual([['unknown-entry-type', 2, true]]);
  });
});

describe('a response whose model changed as it streamed', () => {
  // Regression: the reply said the first line's model while its usage was priced as the kept line's.
  it('names both models, the one it was priced as last', async () => {
    const line = (uuid: string, parentUuid: string | null, model: string) => ({
      type: 'assistant',
      uuid,
      parentUuid,
      sessionId: '44444444-4444-4444-8444-444444444446',
      cwd: '/home/ana/shop',
      requestId: 'req_B',
      timestamp: '2026-11-01T10:00:00.000Z',
      message: { id: 'msg_B', role: 'assistant', model, content: [{ type: 'text', text: uuid }], usage: { input_tokens: 100, output_tokens: 20 } },
    });
    const lines = [line('b1', null, 'claude-sonnet-4-5-20250929'), line('b2', 'b1', 'claude-haiku-4-5-20251001')];
    const [reply] = ofKind((await readRecords('44444444-4444-4444-8444-444444444446', lines)).entries, 'reply');
    expect(reply).toMatchObject({ model: 'claude-sonnet-4-5-20250929', responseModel: 'claude-haiku-4-5-20251001' });
    expect(reply?.usage.map((u) => u.model)).toEqual(['claude-haiku-4-5-20251001']);
  });
});

describe('a prompt that is only a pasted image', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  it.each([
    ['alone', []],
    ['with only an IDE selection', [{ type: 'text', text: '<ide_selection>line 3</ide_selection>' }]],
  ])('regression: was shown as empty injected context and not counted; now it is a prompt holding the image (%s)', async (_, text) => {
    const line = {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: '44444444-4444-4444-8444-444444444445',
      cwd: '/home/ana/shop',
      timestamp: '2026-11-01T10:00:00.000Z',
      message: { role: 'user', content: [...text, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] },
    };
    const file = await readRecords('44444444-4444-4444-8444-444444444445', [line]);
    const prompts = ofKind(file.entries, 'prompt');
    expect(prompts.map((p) => p.content)).toEqual([[{ type: 'image', mimeType: 'image/png', data: PNG }]]);
    // Regression: titled "(no prompts)" beside a prompt count of 1.
    expect(ledgerOf(file).title).toBe('(image prompt)');
  });

  // Regression (a review of the command line): a prompt sent empty, or of characters that show
  // nothing, titled its session "(no prompts)" beside a count of 1, or with a blank.
  it.each([['\u200b\u200b'], ['\u2066\u2069 '], ['\u2800\u3164\ufe0f\u{e0020}\u{e0041}\u061c']])('titles a session whose one prompt shows nothing "(empty prompt)": %j', async (text) => {
    const line = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: '44444444-4444-4444-8444-444444444446', cwd: '/home/ana/shop', timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text }] } };
    const file = await readRecords('44444444-4444-4444-8444-444444444446', [line]);
    expect(ofKind(file.entries, 'prompt')).toHaveLength(1);
    expect(ledgerOf(file).title).toBe('(empty prompt)');
  });
});

describe('a response written as several lines', () => {
  it('is one reply that keeps the other lines’ uuids, so a summary naming its last line finds it', async () => {
    const file = await readClaude(MAIN);
    const merged = ofKind(file.entries, 'reply').filter((r) => (r.aliases?.length ?? 0) > 0);
    expect(merged.length).toBeGreaterThan(0);
    const ids = new Set(file.entries.map((e) => e.id));
    for (const reply of merged) for (const alias of reply.aliases ?? []) expect(ids.has(alias)).toBe(false);
  });
});

describe('Claude Code reader: turn time', () => {
  it('says how long a turn took in hours, minutes or seconds, and nothing for a time that is none', () => {
    expect(turnTimeText(247_515, 103)).toBe('turn took 4 min 8 s · 103 messages');
    expect(turnTimeText(120_000, 1)).toBe('turn took 2 min · 1 message');
    expect(turnTimeText(3_725_000, undefined)).toBe('turn took 1 h 2 min');
    expect(turnTimeText(400, 0)).toBe('turn took under a second');
    for (const none of [undefined, '5000', -1, Number.NaN, 1e20]) expect(turnTimeText(none, 3)).toBeNull();
    expect(turnTimeText(5000, 1e15)).toBe('turn took 5 s');
  });
});

// Regressions (a Claude Code format review): compactions whose lines Claude Code writes out of
// the order they hang in (claude.md §6.2, §8.3) split the conversation.
describe('a compaction', () => {
  const env = (uuid: string, parentUuid: string | null, minute: number, more: object) => ({ parentUuid, isSidechain: false, userType: 'external', cwd: '/w', sessionId: '30303030-0000-4000-8000-000000000030', version: '2.1.39', uuid, timestamp: `2026-03-10T10:${String(minute).padStart(2, '0')}:00.000Z`, ...more });
  const user = (uuid: string, parent: string | null, minute: number, text: string) => env(uuid, parent, minute, { type: 'user', message: { role: 'user', content: text } });
  const reply = (uuid: string, parent: string, minute: number, text: string) =>
    env(uuid, parent, minute, { type: 'assistant', requestId: `req_${uuid}`, message: { id: `msg_${uuid}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } } });
  const boundary = (uuid: string, logical: string, minute: number) => env(uuid, null, minute, { type: 'system', subtype: 'compact_boundary', logicalParentUuid: logical, content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 150000 } });
  const summary = (uuid: string, parent: string, minute: number) => env(uuid, parent, minute, { type: 'user', isCompactSummary: true, message: { role: 'user', content: 'This session is being continued from a previous conversation.' } });

  it('that keeps a preserved segment, written again after its summary, is no loop and no split', async () => {
    const file = await readRecords('30303030-0000-4000-8000-000000000030', [
      user('u1', null, 0, 'Start'),
      reply('a1', 'u1', 1, 'Ready'),
      user('b1u', 'a1', 2, 'first try'),
      reply('b1a', 'b1u', 3, 'no'),
      user('b2u', 'a1', 10, 'second try'),
      reply('b2a', 'b2u', 11, 'yes'),
      user('b2u2', 'b2a', 20, 'go on'),
      boundary('cb', 'b2a2', 30),
      summary('cs', 'cb', 30),
      reply('b2a2', 'cs', 21, 'kept going'),
      user('p1u', 'b2a2', 40, 'after compaction'),
      reply('p1a', 'p1u', 41, 'done'),
    ]);
    expect(file.diagnostics.map((d) => d.reason)).not.toContain('tree-loop');
    // The rewind's two tries, no more.
    expect(ledgerOf(file).branches).toBe(2);
  });

  it('followed by an entry whose parent Claude Code discarded goes on from the entry before it', async () => {
    const file = await readRecords('30303030-0000-4000-8000-000000000030', [
      user('u1', null, 0, 'before compaction'),
      reply('a1', 'u1', 1, 'ok'),
      boundary('cb', 'a1', 10),
      summary('cs', 'cb', 10),
      user('u2', 'hook-discarded', 12, 'after compaction'),
      reply('a2', 'u2', 13, 'ok2'),
    ]);
    expect(ledgerOf(file).branches).toBe(1);
    expect(ledgerOf(file).title).toBe('before compaction');
  });

  // A hostile look: with no compaction before it, such a parent is another file's (a resumed
  // copy's rewind into its origin) or a damaged line's: the entry is not hung under the one
  // before it, on another branch, and no branch is lost.
  // Found by a review that ran Claude Code 2.1.332's app: with its background requests on, it
  // writes the session's title first, before any prompt. The first prompt went on from it, and it
  // from the file's last entry: a loop ("tree-loop" on the data-quality page) and two branches.
  it('hangs a title written before the first prompt from the conversation’s end, with no loop and no branch', async () => {
    const id = '30303030-0000-4000-8000-000000000030';
    const title = (text: string) => ({ type: 'ai-title', aiTitle: text, sessionId: id });
    const file = await readRecords(id, [title('Title first'), user('u1', null, 0, 'hello'), reply('a1', 'u1', 1, 'hi'), title('Title again')]);
    expect(ledgerOf(file).branches).toBe(1);
    expect(file.diagnostics).toEqual([]);
    expect(ofKind(file.entries, 'prompt')[0]?.parentId).toBeNull();
  });

  it('leaves an entry whose parent is in no file where it was when no compaction came before it', async () => {
    const file = await readRecords('30303030-0000-4000-8000-000000000030', [
      user('u1', 'in-the-origin', 0, 'resumed here'),
      reply('a1', 'u1', 1, 'ok'),
      user('u2', 'rewound-into-the-origin', 2, 'rewound'),
      reply('a2', 'u2', 3, 'ok2'),
    ]);
    expect(ledgerOf(file).branches).toBe(2);
  });
});

// Found by an outside review that ran Claude Code 2.1.332 itself: every session it writes holds
// records of what the process sent (api-request, its shape and its messages), its running cost,
// the tools it used, its mode: said on every page as "skipped" lines (10 in a two-request
// session), and its web searches shown as JSON. fixtures/claude/v2-1-332 follows what it wrote.
describe('Claude Code 2.1.332 sessions', () => {
  const V2_1_332 = join(FIXTURES, 'claude', 'v2-1-332');

  it('reads its bookkeeping records as such, and a forked copy whose counts it zeroed without a warning', async () => {
    const out = join(await tempDir(), 'report');
    const { code, stdout, stderr } = await runCli(['build', V2_1_332, '--out', out, '--tz', 'UTC', '--no-cache']);
    expect(code, stderr).toBe(0);
    expect(stdout + stderr).toContain('0 skipped lines');
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { diagnostics: { items: unknown[] }; totals: { usageRecords: number; webSearches: number; tokens: { cacheWrite: number } } };
    expect(summary.diagnostics.items).toEqual([]);
    // The copy's response is its origin's: counted once, as the origin wrote it.
    expect(summary.totals).toMatchObject({ usageRecords: 1, webSearches: 1, tokens: { cacheWrite: 200 } });
  });

  // The same review: a tool search's answer (ToolSearch `select:SendMessage`) was shown as "block
  // of type tool_reference" and its JSON.
  it('shows the tool a tool search made available by its name', async () => {
    const id = '44444444-4444-4444-8444-444444444444';
    const base = { sessionId: id, cwd: '/work/shop', version: '2.1.332', isSidechain: false };
    const file = await readRecords(id, [
      { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-05-02T09:00:00.000Z', message: { role: 'user', content: 'Message the agent' } },
      { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-05-02T09:00:01.000Z', requestId: 'r1', message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: 'toolu_s', name: 'ToolSearch', input: { query: 'select:mcp__team__send' } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } } },
      { ...base, type: 'user', uuid: 'r1', parentUuid: 'a1', timestamp: '2026-05-02T09:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: [{ type: 'tool_reference', tool_name: 'mcp__team__send' }] }] } },
    ]);
    const result = ofKind(file.entries, 'toolResult')[0];
    expect(result?.content).toEqual([{ type: 'text', text: 'Tool loaded: mcp__team__send' }]);
  });

  // Found by a review that typed such prompts into the app: words the user typed that begin with
  // one of Claude Code's own tags (a log pasted while debugging it) were taken for a command, its
  // output or a task notification, and not counted as prompts. 2.1.3xx marks what was typed.
  it('takes the lines the user typed for prompts, whatever their words look like, and the app’s own lines by their tags', async () => {
    const id = '55555555-5555-4555-8555-555555555555';
    const base = { sessionId: id, cwd: '/work/shop', version: '2.1.332', isSidechain: false };
    const typed = { promptSource: 'typed', origin: { kind: 'human' } };
    const reply = (uuid: string, parentUuid: string, second: number) => ({ ...base, type: 'assistant', uuid, parentUuid, timestamp: `2026-05-02T09:00:0${second}.000Z`, requestId: `r${uuid}`, message: { id: `m${uuid}`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } } });
    const file = await readRecords(id, [
      { ...base, ...typed, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-05-02T09:00:00.000Z', message: { role: 'user', content: '<command-name>/fake</command-name> why is this tag here?' } },
      reply('a1', 'u1', 1),
      { ...base, ...typed, type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: '2026-05-02T09:00:02.000Z', message: { role: 'user', content: '<task-notification>pasted from a log</task-notification>' } },
      reply('a2', 'u2', 3),
      { ...base, type: 'user', uuid: 'c1', parentUuid: 'a2', timestamp: '2026-05-02T09:00:04.000Z', message: { role: 'user', content: '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>' } },
      { ...base, type: 'user', uuid: 'c2', parentUuid: 'c1', timestamp: '2026-05-02T09:00:05.000Z', message: { role: 'user', content: '<local-command-stdout>Set model to opus</local-command-stdout>' } },
    ]);
    expect(ofKind(file.entries, 'prompt').map((p) => blockText(p.content))).toEqual(['<command-name>/fake</command-name> why is this tag here?', '<task-notification>pasted from a log</task-notification>']);
    expect(ofKind(file.entries, 'notice').map((n) => n.label)).toEqual(['command /model', 'command output']);
  });

  // Found by a review that ran `claude -p` and the SDK's stream-json input (2.1.197): what they sent
  // is marked `promptSource: "sdk"`, but was told by its words: a prompt beginning
  // `<command-name>` or `Caveat:` counted none, the session titled "(no prompts)". A background
  // task's notice carries the mark too, with its origin. And a `--max-turns` stop was not shown.
  it('takes the lines `claude -p` and the SDK sent for prompts, a task’s notice not, and says where --max-turns stopped', async () => {
    const id = '66666666-6666-4666-8666-666666666666';
    const base = { sessionId: id, cwd: '/work/shop', version: '2.1.197', isSidechain: false, entrypoint: 'sdk-cli' };
    const sent = { promptSource: 'sdk' };
    const reply = (uuid: string, parentUuid: string, second: number) => ({ ...base, type: 'assistant', uuid, parentUuid, timestamp: `2026-05-02T09:00:0${second}.000Z`, requestId: `r${uuid}`, message: { id: `m${uuid}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } } });
    const file = await readRecords(id, [
      { ...base, ...sent, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-05-02T09:00:00.000Z', message: { role: 'user', content: '<command-name>/deploy</command-name> is what I typed, why?' } },
      reply('a1', 'u1', 1),
      { ...base, ...sent, type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: '2026-05-02T09:00:02.000Z', message: { role: 'user', content: 'Caveat: The messages below were generated by the user while running local commands. My real question.' } },
      reply('a2', 'u2', 3),
      { ...base, ...sent, origin: { kind: 'task-notification' }, type: 'user', uuid: 'n1', parentUuid: 'a2', timestamp: '2026-05-02T09:00:04.000Z', message: { role: 'user', content: '<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>' } },
      reply('a3', 'n1', 5),
      { ...base, type: 'user', uuid: 'c1', parentUuid: 'a3', timestamp: '2026-05-02T09:00:06.000Z', message: { role: 'user', content: '<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>' } },
      { ...base, type: 'attachment', uuid: 't1', parentUuid: 'c1', timestamp: '2026-05-02T09:00:07.000Z', attachment: { type: 'max_turns_reached', maxTurns: 1, turnCount: 2 } },
    ]);
    expect(ofKind(file.entries, 'prompt').map((p) => blockText(p.content))).toEqual([
      '<command-name>/deploy</command-name> is what I typed, why?',
      'Caveat: The messages below were generated by the user while running local commands. My real question.',
    ]);
    expect(ofKind(file.entries, 'notice').map((n) => [n.label, n.tone])).toEqual([
      ['task notification', 'info'],
      ['command /compact', 'info'],
      ['turn limit reached', 'warn'],
    ]);
    expect(blockText(ofKind(file.entries, 'notice')[2]?.content ?? [])).toContain('--max-turns 1');
  });

  // Found by a review that ran a skill of `context: fork` itself (`/forky …`): its sub-agent was
  // linked from nothing, while the same skill run by the model was linked from its Skill call.
  it('links the command that ran a skill as a sub-agent to that sub-agent’s transcript, and back', async () => {
    const id = '77777777-7777-4777-8777-777777777777';
    const dir = join(await tempDir(), 'projects', '-work-shop');
    const base = { sessionId: id, cwd: '/work/shop', version: '2.1.332', isSidechain: false };
    const launch = '<local-command-stdout>Running in the background as @forky</local-command-stdout>\n<forked-skill-launch>{"agentId":"a70c4941832e7fcd5","skillName":"forky","description":"/forky tidy up"}</forked-skill-launch>';
    const main = [
      { ...base, type: 'system', subtype: 'local_command', uuid: 'c1', parentUuid: null, timestamp: '2026-05-02T09:00:00.000Z', content: '<command-name>/forky</command-name>\n<command-message>forky</command-message>\n<command-args>tidy up</command-args>', level: 'info' },
      { ...base, type: 'system', subtype: 'local_command', uuid: 'c2', parentUuid: 'c1', timestamp: '2026-05-02T09:00:01.000Z', content: launch, level: 'info' },
    ];
    const agent = { ...base, isSidechain: true, agentId: 'a70c4941832e7fcd5' };
    const sub = [
      { ...agent, type: 'user', uuid: 's1', parentUuid: null, timestamp: '2026-05-02T09:00:02.000Z', message: { role: 'user', content: 'tidy up' } },
      { ...agent, type: 'assistant', uuid: 's2', parentUuid: 's1', timestamp: '2026-05-02T09:00:03.000Z', requestId: 'rs2', message: { id: 'ms2', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'tidied' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } } },
    ];
    await mkdir(join(dir, id, 'subagents'), { recursive: true });
    await writeFile(join(dir, `${id}.jsonl`), `${main.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await writeFile(join(dir, id, 'subagents', 'agent-a70c4941832e7fcd5.jsonl'), `${sub.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await runCli(['build', dir, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { page: string }[] };
    const html = await readFile(join(out, summary.sessions[0]?.page ?? ''), 'utf8');
    expect(html).toMatch(/Running in the background as @forky <a href="#subagent-1">Sub-agent: [^<]+<\/a>/);
    expect(html).toMatch(/Started by <a href="#[^"]+">the command<\/a>/);
  });

  // Found by a review that ran a command with a large output: Claude Code keeps only its first
  // 2 kB in the transcript and the whole in `<session>/tool-results/`, which the report (and its
  // archive, once Claude Code deletes the session) never held.
  it('shows the whole of an output Claude Code kept beside the session, and only a plain file of its own tool-results folder', async () => {
    const id = '66666666-6666-4666-8666-666666666666';
    const dir = join(await tempDir(), 'projects', '-work-shop');
    const saved = join(dir, id, 'tool-results');
    await mkdir(saved, { recursive: true });
    const whole = `${Array.from({ length: 400 }, (_, i) => `line-${i + 1}`).join('\n')}\nsk-ant-api03-FAKEb0ughzJr4i0B3JrTAwR4y9\nEND-OF-OUTPUT\n`;
    await writeFile(join(saved, 'big1.txt'), whole);
    const outside = join(dir, 'private.txt');
    await writeFile(outside, 'NOT-FOR-THE-REPORT');
    await symlink(outside, join(saved, 'linked.txt'));
    const base = { sessionId: id, cwd: '/work/shop', version: '2.1.332', isSidechain: false };
    const call = (uuid: string, parentUuid: string, toolId: string, second: number) => ({ ...base, type: 'assistant', uuid, parentUuid, timestamp: `2026-05-02T09:00:0${second}.000Z`, requestId: `r${uuid}`, message: { id: `m${uuid}`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: 'seq 400' } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } } });
    const persisted = (recorded: string) => `<persisted-output>\nOutput too large (3.2KB). Full output saved to: ${recorded}\n\nPreview (first 2KB):\nline-1\nline-2\n...\n</persisted-output>`;
    const result = (uuid: string, parentUuid: string, toolId: string, second: number, recorded: string) => ({ ...base, type: 'user', uuid, parentUuid, timestamp: `2026-05-02T09:00:0${second}.000Z`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: persisted(recorded) }] }, toolUseResult: { stdout: 'line-1', stderr: '', persistedOutputPath: recorded, persistedOutputSize: 3200 } });
    const records = [
      { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-05-02T09:00:00.000Z', message: { role: 'user', content: 'Count to 400' } },
      call('a1', 'u1', 'toolu_1', 1),
      // Recorded where the session was written, on another machine: found by its name beside this file.
      result('r1', 'a1', 'toolu_1', 2, `/home/ana/.claude/projects/-work-shop/${id}/tool-results/big1.txt`),
      call('a2', 'r1', 'toolu_2', 3),
      result('r2', 'a2', 'toolu_2', 4, join(saved, 'linked.txt')),
      call('a3', 'r2', 'toolu_3', 5),
      result('r3', 'a3', 'toolu_3', 6, outside),
    ];
    await writeFile(join(dir, `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const page = async (share: boolean) => {
      const out = join(await tempDir(), 'report');
      const { code, stderr } = await runCli(['build', join(dir, `${id}.jsonl`), '--out', out, '--tz', 'UTC', '--no-cache', '-q', ...(share ? ['--share'] : [])]);
      expect(code, stderr).toBe(0);
      const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { page: string }[] };
      return readFile(join(out, summary.sessions[0]?.page ?? ''), 'utf8');
    };
    const html = await page(false);
    expect(html).toContain('line-400');
    expect(html).toContain('END-OF-OUTPUT');
    expect(html).not.toContain('NOT-FOR-THE-REPORT');
    const shared = await page(true);
    expect(shared).toContain('END-OF-OUTPUT');
    expect(shared).toContain('[REDACTED:anthropic-key]');
    expect(shared).not.toContain('FAKEb0ughzJr4i0B3JrTAwR4y9');
  });

  // Regressions (a hostile look at it): a tool-results folder that is a link put another folder's
  // files in the page; an output that merely began with the tag (a file holding such a text,
  // printed) was replaced by another output the session kept; an image beside the saved text
  // was lost; and a rebuild kept the page of before the saved file came.
  it('reads only what Claude Code saved, from its own folder, in place of the start alone, and again when it comes later', async () => {
    const id = '88888888-8888-4888-8888-888888888888';
    const linkedId = '99999999-9999-4999-8999-999999999999';
    const root = await tempDir();
    const dir = join(root, 'projects', '-work-shop');
    await mkdir(join(dir, id), { recursive: true });
    await mkdir(join(root, 'elsewhere'), { recursive: true });
    await writeFile(join(root, 'elsewhere', 'x.txt'), 'NOT-FOR-THE-REPORT');
    await mkdir(join(dir, linkedId), { recursive: true });
    await symlink(join(root, 'elsewhere'), join(dir, linkedId, 'tool-results'));
    const lines = (sessionId: string, results: { text: string; structured?: object; image?: boolean; tool?: string }[]) => {
      const base = { sessionId, cwd: '/work/shop', version: '2.1.332', isSidechain: false };
      const records: object[] = [{ ...base, type: 'user', uuid: 'u0', parentUuid: null, timestamp: '2026-05-02T09:00:00.000Z', message: { role: 'user', content: 'go' } }];
      results.forEach(({ text, structured, image, tool }, i) => {
        records.push({ ...base, type: 'assistant', uuid: `a${i}`, parentUuid: i === 0 ? 'u0' : `r${i - 1}`, timestamp: `2026-05-02T09:00:0${2 * i + 1}.000Z`, requestId: `ra${i}`, message: { id: `ma${i}`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: `toolu_${i}`, name: tool ?? 'Bash', input: { command: 'x' } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } } });
        const content = [{ type: 'text', text }, ...(image ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] : [])];
        records.push({ ...base, type: 'user', uuid: `r${i}`, parentUuid: `a${i}`, timestamp: `2026-05-02T09:00:0${2 * i + 2}.000Z`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content }] }, ...(structured ? { toolUseResult: structured } : {}) });
      });
      return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
    };
    const persisted = (sessionId: string, name: string) => `<persisted-output>\nOutput too large (3.2KB). Full output saved to: /home/ana/.claude/projects/-work-shop/${sessionId}/tool-results/${name}\n\nPreview (first 2KB):\nstart\n</persisted-output>`;
    await writeFile(
      join(dir, `${id}.jsonl`),
      lines(id, [
        { text: persisted(id, 'b1.txt'), structured: { stdout: 'start', stderr: '', persistedOutputPath: `/x/${id}/tool-results/b1.txt` } },
        // `cat` of a file that holds such a text: its own output, whatever it says.
        { text: `${persisted(id, 'b1.txt')}\nMY-OWN-OUTPUT`, structured: { stdout: 'x', stderr: '' } },
        // An MCP tool's: named in its text only, with an image beside it.
        { text: persisted(id, 'mcp.txt'), image: true, tool: 'mcp__shots__take' },
        // Grep's: its record is its own, naming no file (a third hostile look: lost again).
        { text: persisted(id, 'grep.txt'), structured: { mode: 'content', numFiles: 1, content: 'start' }, tool: 'Grep' },
      ]),
    );
    await writeFile(join(dir, `${linkedId}.jsonl`), lines(linkedId, [{ text: persisted(linkedId, 'x.txt'), structured: { stdout: 'start', stderr: '', persistedOutputPath: `/x/${linkedId}/tool-results/x.txt` } }]));
    const out = join(root, 'report');
    // With one cache, as a user's runs share theirs.
    const io: CliIo = { stdout: () => undefined, stderr: () => undefined, env: { BOUGH_CACHE_DIR: join(root, 'cache') }, home: root, isTty: false, now: () => new Date('2026-12-01T00:00:00Z') };
    const build = async () => {
      expect(await main(['build', dir, '--out', out, '--tz', 'UTC', '-q'], io)).toBe(0);
      const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { page: string }[] };
      return (await Promise.all(summary.sessions.map((s) => readFile(join(out, s.page), 'utf8')))).join('\n');
    };
    // Before Claude Code wrote the saved files: the starts.
    expect(await build()).not.toContain('B1-WHOLE');
    await mkdir(join(dir, id, 'tool-results'));
    await writeFile(join(dir, id, 'tool-results', 'b1.txt'), 'B1-WHOLE');
    await writeFile(join(dir, id, 'tool-results', 'mcp.txt'), 'MCP-WHOLE');
    await writeFile(join(dir, id, 'tool-results', 'grep.txt'), 'GREP-WHOLE');
    const html = await build();
    expect(html).toContain('GREP-WHOLE');
    expect(html.match(/B1-WHOLE/g)).toHaveLength(1);
    expect(html).toContain('MY-OWN-OUTPUT');
    expect(html).toContain('MCP-WHOLE');
    expect(html).toContain('data:image/png;base64,');
    expect(html).not.toContain('NOT-FOR-THE-REPORT');
  });

  it('looks for a sub-agent’s saved outputs in its session’s folder, a workflow’s agents’ too', () => {
    expect(sessionSideFolders('/p/-w/s1.jsonl')).toEqual(['/p/-w/s1']);
    expect(sessionSideFolders('/p/-w/s1/subagents/agent-a.jsonl')).toEqual(['/p/-w/s1', '/p/-w/s1/subagents/agent-a']);
    expect(sessionSideFolders('/p/-w/s1/subagents/workflows/run1/agent-b.jsonl')).toEqual(['/p/-w/s1', '/p/-w/s1/subagents/workflows/run1/agent-b']);
  });

  it('shows a server-side web search as a call with its query and the pages it found, never their encrypted contents', async () => {
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await runCli(['build', V2_1_332, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { page: string; prompts: number }[] };
    const origin = summary.sessions.find((s) => s.prompts === 1) as { page: string };
    const html = await readFile(join(out, origin.page), 'utf8');
    expect(html).toContain('web_search');
    expect(html).toContain('bough report');
    expect(html).toContain('href="https://example.com/bough"');
    expect(html).toContain('Bough [docs]');
    expect(html).not.toContain('href="javascript');
    // Regression (a hostile look): a backslash led the link to another host than the one shown;
    // parentheses in an address lost its link.
    expect(html).not.toContain('evil.example/login"');
    expect(html).toContain('href="https://en.wikipedia.org/wiki/Bough_%28tree%29"');
    expect(html).not.toContain('Zm9v');
    expect(html).not.toContain('block of type');
  });
});

// Found by an outside review that ran Claude Code 2.1.332: its compaction's request is written as
// no line of the transcript (earlier versions wrote agent-acompact-*.jsonl), only in the running
// totals of the `cost-state` record after it. A /compact on a short session was 80% of its spend,
// and bough counted none of it ($0.0193 of $0.0946).
describe('Claude Code 2.1.332: a compaction written only in its running totals', () => {
  const SESSION = '40404040-0000-4000-8000-000000000040';
  const ORIGIN = '41414141-0000-4000-8000-000000000041';
  const env = (uuid: string, parentUuid: string | null, minute: number, more: object) => ({ parentUuid, isSidechain: false, userType: 'external', cwd: '/w', sessionId: SESSION, version: '2.1.332', uuid, timestamp: `2026-11-10T10:${String(minute).padStart(2, '0')}:00.000Z`, ...more });
  const user = (uuid: string, parent: string | null, minute: number, text: string) => env(uuid, parent, minute, { type: 'user', message: { role: 'user', content: text } });
  const reply = (uuid: string, parent: string, minute: number, content: object[] = [{ type: 'text', text: 'ok' }]) =>
    env(uuid, parent, minute, { type: 'assistant', requestId: `req_${uuid}`, message: { id: `msg_${uuid}`, type: 'message', role: 'assistant', model: 'claude-opus-4-7', content, stop_reason: 'end_turn', usage: { input_tokens: 5, cache_read_input_tokens: 12000, cache_creation_input_tokens: 300, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 300 }, output_tokens: 25 } } });
  const boundary = (uuid: string, logical: string, minute: number) => env(uuid, null, minute, { type: 'system', subtype: 'compact_boundary', logicalParentUuid: logical, content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 12000 } });
  const summary = (uuid: string, parent: string, minute: number) => env(uuid, parent, minute, { type: 'user', isCompactSummary: true, message: { role: 'user', content: 'This session is being continued from a previous conversation.' } });
  /** Totals of opus: input, output, cache read, cache written (all for an hour). */
  const costState = (input: number, output: number, cacheRead: number, cacheWrite: number) => ({
    type: 'cost-state',
    sessionId: SESSION,
    totalCostUSD: 0.01,
    startTime: 1796506300352,
    modelUsage: { 'claude-opus-4-7': { inputTokens: input, outputTokens: output, cacheReadInputTokens: cacheRead, cacheCreationInputTokens: cacheWrite, cacheCreationEphemeral5mInputTokens: 0, cacheCreationEphemeral1hInputTokens: cacheWrite, webSearchRequests: 0, costUSD: 0.01 } },
  });
  /** The session's counted tokens (input, output, cache read, cache write), its records in a project folder, with files beside it. */
  const tokensOf = async (records: readonly object[], beside: Record<string, readonly object[]> = {}) => {
    const folder = join(await tempDir(), 'projects', '-w');
    await mkdir(folder, { recursive: true });
    for (const [name, lines] of Object.entries({ [`${SESSION}.jsonl`]: records, ...beside })) {
      await mkdir(dirname(join(folder, name)), { recursive: true });
      await writeFile(join(folder, name), `${lines.map((r) => JSON.stringify(r)).join('\n')}\n`);
    }
    const { code, stdout, stderr } = await runCli(['stats', folder, '--json', '--no-cache']);
    expect(code, stderr).toBe(0);
    const { tokens } = (JSON.parse(stdout) as { totals: { tokens: Record<string, number> } }).totals;
    return [tokens['input'], tokens['output'], tokens['cacheRead'], tokens['cacheWrite']];
  };

  it('counts a /compact’s request, between two of its totals, as what they grew by beyond the requests written', async () => {
    const tokens = await tokensOf([
      user('u1', null, 0, 'hello one'),
      reply('a1', 'u1', 1),
      costState(5, 25, 12000, 300),
      boundary('cb', 'a1', 2),
      summary('cs', 'cb', 2),
      costState(55, 2025, 62000, 300),
      user('u2', 'cs', 3, 'hello after'),
      reply('a2', 'u2', 4),
      costState(60, 2050, 74000, 600),
    ]);
    // The whole session is what Claude Code's own totals say.
    expect(tokens).toEqual([60, 2050, 74000, 600]);
  });

  it('counts an automatic compaction inside a turn, and a sub-agent’s requests once, from its own file', async () => {
    const subagent = (uuid: string, parent: string | null, minute: number, more: object) => ({ ...env(uuid, parent, minute, more), isSidechain: true, agentId: 'ab12' });
    const tokens = await tokensOf(
      [
        user('u1', null, 0, 'hello one'),
        reply('a1', 'u1', 1, [{ type: 'tool_use', id: 'toolu_1', name: 'Agent', input: { description: 'explore', prompt: 'explore' } }]),
        env('r1', 'a1', 3, { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] }, toolUseResult: { agentId: 'ab12' } }),
        boundary('cb', 'r1', 4),
        summary('cs', 'cb', 4),
        reply('a2', 'cs', 5),
        costState(5 + 5 + 5 + 50, 25 + 25 + 25 + 2000, 12000 * 3 + 50000, 900),
      ],
      { [`${SESSION}/subagents/agent-ab12.jsonl`]: [subagent('s1', null, 2, { type: 'user', message: { role: 'user', content: 'explore' } }), { ...reply('s2', 's1', 2), isSidechain: true, agentId: 'ab12' }] },
    );
    expect(tokens).toEqual([65, 2075, 86000, 900]);
  });

  // Regressions (a hostile look): a sub-agent still at work when the main thread wrote its last
  // line was counted again as spend of the totals alone, as was a side question forked as a
  // sub-agent (no call in the main file names it).
  it('counts a sub-agent whose requests came after the main thread’s last line, or that no call names, once', async () => {
    const subagent = (agent: string, uuid: string, parent: string | null, minute: number) => [
      { ...user(`${uuid}u`, parent, minute, 'task'), isSidechain: true, agentId: agent },
      { ...reply(uuid, `${uuid}u`, minute + 1), isSidechain: true, agentId: agent },
    ];
    const background = await tokensOf(
      [
        user('u1', null, 0, 'look around'),
        reply('a1', 'u1', 1, [{ type: 'tool_use', id: 'toolu_1', name: 'Agent', input: { description: 'explore', prompt: 'explore', run_in_background: true } }]),
        env('r1', 'a1', 2, { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Async agent launched' }] }, toolUseResult: { agentId: 'bg1' } }),
        costState(10, 50, 24000, 600),
      ],
      { [`${SESSION}/subagents/agent-bg1.jsonl`]: subagent('bg1', 's1', null, 5) },
    );
    expect(background).toEqual([10, 50, 24000, 600]);
    const side = await tokensOf(
      [user('u1', null, 0, 'one'), reply('a1', 'u1', 1), costState(5, 25, 12000, 300), boundary('cb', 'a1', 3), summary('cs', 'cb', 3), costState(60, 2050, 74000, 600)],
      { [`${SESSION}/subagents/agent-fk1.jsonl`]: [{ type: 'fork-context-ref', agentId: 'fk1', parentSessionId: SESSION, parentLastUuid: 'a1', contextLength: 2 }, ...subagent('fk1', 's1', null, 2)] },
    );
    // The compaction's 50/2000/50000 alone beside the two replies.
    expect(side).toEqual([60, 2050, 74000, 600]);
  });

  it('takes a model the totals name without its date for the one the API answered with it', async () => {
    const haiku = (uuid: string, parent: string, minute: number) => {
      const line = reply(uuid, parent, minute) as ReturnType<typeof reply> & { message: { model: string } };
      return { ...line, message: { ...line.message, model: 'claude-haiku-4-5-20251001' } };
    };
    const state = costState(5, 25, 12000, 300) as ReturnType<typeof costState> & { modelUsage: Record<string, object> };
    const totals = { ...state, modelUsage: { 'claude-haiku-4-5': { ...state.modelUsage['claude-opus-4-7'], outputTokens: 2025, cacheReadInputTokens: 62000 } } };
    // The reply, and the compaction's 2,000 out and 50,000 read.
    expect(await tokensOf([user('u1', null, 0, 'one'), haiku('a1', 'u1', 1), boundary('cb', 'a1', 2), summary('cs', 'cb', 2), totals])).toEqual([5, 2025, 62000, 300]);
  });

  // Regressions (a second hostile look): one model the totals name otherwise (a sub-agent's, asked
  // for under a name the API answered under another) lost another model's compaction; and a later
  // process whose clock was behind made the earlier totals hold less than the files, and the rest
  // was lost for the whole session.
  it('pairs a model the totals name otherwise with the one that holds as much more, and goes on past totals that hold less', async () => {
    const named = (line: ReturnType<typeof reply>, model: string) => ({ ...line, message: { ...(line as unknown as { message: object }).message, model } });
    const state = costState(5 + 50, 25 + 2000, 12000 + 50000, 300) as ReturnType<typeof costState> & { modelUsage: Record<string, object> };
    const twoModels = { ...state, modelUsage: { ...state.modelUsage, 'claude-haiku-5-5': { ...state.modelUsage['claude-opus-4-7'], inputTokens: 5, outputTokens: 25, cacheReadInputTokens: 12000, cacheCreationInputTokens: 300 } } };
    const paired = await tokensOf([user('u1', null, 0, 'one'), reply('a1', 'u1', 1), named(reply('a2', 'a1', 2), 'claude-haiku-4-5-20251001'), boundary('cb', 'a2', 3), summary('cs', 'cb', 3), twoModels]);
    // The two replies, and the compaction's 50/2,000/50,000 on opus.
    expect(paired).toEqual([60, 2050, 74000, 600]);
    const behind = await tokensOf([user('u1', null, 10, 'one'), reply('a1', 'u1', 11), boundary('cb', 'a1', 12), summary('cs', 'cb', 12), costState(55, 2025, 62000, 300), user('u2', 'cs', 5, 'two'), reply('a2', 'u2', 6), costState(60, 2050, 74000, 600)]);
    expect(behind).toEqual([60, 2050, 74000, 600]);
  });

  // Regression (a third hostile look): a fast reply the totals file under the model asked for,
  // beside a compaction of the same model: that model was short of one kind and beyond in others,
  // and the compaction was lost ($0.0665 of $0.1140).
  it('takes all a model the files do not name holds beyond for the one short of some kinds and beyond in others', async () => {
    const named = (line: ReturnType<typeof reply>, model: string, usage: object) => ({ ...line, message: { ...(line as unknown as { message: object }).message, model, usage } });
    const fast = named(reply('a2', 'a1', 2), 'claude-opus-4-7', { input_tokens: 24, output_tokens: 24, cache_read_input_tokens: 6500, cache_creation_input_tokens: 100, speed: 'fast' });
    const state = costState(5 + 10, 25 + 800, 12000 + 30000, 300 + 2000) as ReturnType<typeof costState> & { modelUsage: Record<string, object> };
    const totals = { ...state, modelUsage: { ...state.modelUsage, 'claude-opus-5-5': { inputTokens: 24, outputTokens: 24, cacheReadInputTokens: 6500, cacheCreationInputTokens: 100, cacheCreationEphemeral1hInputTokens: 0, webSearchRequests: 0 } } };
    const tokens = await tokensOf([user('u1', null, 0, 'one'), reply('a1', 'u1', 1), fast, boundary('cb', 'a2', 3), summary('cs', 'cb', 3), totals]);
    expect(tokens).toEqual([5 + 24 + 10, 25 + 24 + 800, 12000 + 6500 + 30000, 300 + 100 + 2000]);
  });

  it('counts nothing beyond the files where the totals hold less than they do, or do not read', async () => {
    const written = [user('u1', null, 0, 'one'), reply('a1', 'u1', 1), boundary('cb', 'a1', 2), summary('cs', 'cb', 2), reply('a2', 'cs', 3)];
    // Lower than the two replies written (totals that started again), and a count no agent could mean.
    for (const state of [costState(6, 30, 20000, 300), costState(55, 1e300, 62000, 300)]) expect(await tokensOf([...written, state])).toEqual([10, 50, 24000, 600]);
  });

  it('counts nothing twice: not a copy’s first totals, which hold its origin’s, nor a compaction its own transcript counts', async () => {
    // A --fork-session copy: its copied lines name the session that made them; its totals go on from its origin's.
    const copied = (record: Record<string, unknown>) => ({ ...record, requestSessionId: ORIGIN });
    const copy = await tokensOf([copied(user('u1', null, 0, 'one')), copied(reply('a1', 'u1', 1)), boundary('cb', 'a1', 2), summary('cs', 'cb', 2), costState(500, 25000, 620000, 3000), user('u2', 'cs', 3, 'two'), reply('a2', 'u2', 4), costState(505, 25025, 632000, 3300)]);
    // Its two replies (its origin is not among the inputs, so its copied one counts here), and
    // nothing of its totals: the first hold its origin's, and the second grew by its own reply.
    expect(copy).toEqual([10, 50, 24000, 600]);
    // A version that wrote the compaction's request as a sub-agent's transcript too.
    const acompact = env('x1', null, 2, {
      type: 'assistant',
      isSidechain: true,
      agentId: 'acompact-1',
      requestId: 'req_x1',
      message: { id: 'msg_x1', type: 'message', role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'text', text: 'summary' }], stop_reason: 'end_turn', usage: { input_tokens: 50, cache_read_input_tokens: 50000, cache_creation_input_tokens: 0, output_tokens: 2000 } },
    });
    const tokens = await tokensOf([user('u1', null, 0, 'one'), reply('a1', 'u1', 1), costState(5, 25, 12000, 300), boundary('cb', 'a1', 2), summary('cs', 'cb', 2), costState(55, 2025, 62000, 300)], { [`${SESSION}/subagents/agent-acompact-1.jsonl`]: [acompact] });
    expect(tokens).toEqual([55, 2025, 62000, 300]);
  });

  // Regression (a review of Claude Code's numbers against an oracle): a copy whose every line took
  // its own session id (claude.md §8.5: some builds rewrite it) showed no sign of one to its reader,
  // so its first totals, holding its origin's, were counted as unrecorded spend: the origin twice.
  it('counts nothing twice of a copy whose lines all name it, its origin beside it', async () => {
    const COPY = '42424242-0000-4000-8000-000000000042';
    const own = (record: Record<string, unknown>) => ({ ...record, sessionId: COPY });
    const origin = [user('u1', null, 0, 'one'), reply('a1', 'u1', 1), costState(5, 25, 12000, 300)];
    const copy = [own(user('u1', null, 0, 'one')), own(reply('a1', 'u1', 1)), own(user('u2', 'a1', 3, 'two')), own(reply('a2', 'u2', 4)), { ...costState(10, 50, 24000, 600), sessionId: COPY }];
    // The origin's reply once, the copy's own once, and nothing of the totals beyond them.
    expect(await tokensOf(origin, { [`${COPY}.jsonl`]: copy })).toEqual([10, 50, 24000, 600]);
    // What the copy's totals hold beyond both (a compaction of its own) is still counted.
    const compacted = [...copy.slice(0, 4), { ...costState(60, 2050, 74000, 600), sessionId: COPY }];
    expect(await tokensOf(origin, { [`${COPY}.jsonl`]: compacted })).toEqual([60, 2050, 74000, 600]);
  });
});

// Found by a review that ran Claude Code 2.1.332's app: it writes its running totals (cost-state)
// rarely (when a process ends, at /clear), so a compaction lies between none of two of them; and
// its side questions (/btw) and the title it asks a model for are written nowhere else either.
// bough counted $0.1242 of a session whose totals, and the API's bill, said $0.1952.
describe('Claude Code 2.1.332: spend written only in its running totals', () => {
  const RUNNING = join(FIXTURES, 'claude', 'running-totals');
  const MAIN = '60606060-6060-4060-8060-606060606060';

  it('counts what the totals hold beyond the session’s files, its sub-agents’ included, once, and not in a copy whose totals go on from its origin’s', async () => {
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await runCli(['build', RUNNING, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { totals: { tokens: Record<string, number> }; sessions: { file: string; page: string; tokens: Record<string, number> }[] };
    const main = summary.sessions.find((s) => s.file.includes(MAIN)) as { page: string; tokens: Record<string, number> };
    // Its totals, to the token: the replies, the sub-agent's requests, the compaction's and the title's.
    expect(main.tokens).toMatchObject({ input: 378, output: 2130, cacheRead: 46000, cacheWrite: 1200 });
    const fork = summary.sessions.find((s) => !s.file.includes(MAIN));
    expect(fork?.tokens).toMatchObject({ input: 7, output: 9, cacheRead: 12000, cacheWrite: 0 });
    const html = await readFile(join(out, main.page), 'utf8');
    expect(html).toContain('Claude Code recorded only in its running totals');
    // usage.csv still sums to the totals.
    const rows = (await readFile(join(out, 'usage.csv'), 'utf8')).trimEnd().split('\r\n');
    const input = rows[0]?.split(',').indexOf('input') as number;
    expect(rows.slice(1).reduce((sum, row) => sum + Number(row.split(',')[input]), 0)).toBe(summary.totals.tokens['input']);
  });

  it('counts nothing where the totals hold less than its files (totals that started again)', async () => {
    const folder = join(await tempDir(), 'projects', '-work-app');
    await cp(join(RUNNING, 'projects', '-work-app'), folder, { recursive: true });
    const path = join(folder, `${MAIN}.jsonl`);
    await writeFile(path, (await readFile(path, 'utf8')).replace('"claude-sonnet-4-6":{"inputTokens":78,', '"claude-sonnet-4-6":{"inputTokens":7,'));
    const { code, stdout, stderr } = await runCli(['stats', path, join(folder, MAIN), '--json', '--no-cache', '--by', 'session']);
    expect(code, stderr).toBe(0);
    const rows = (JSON.parse(stdout) as { rows: { tokens: Record<string, number> }[] }).rows;
    // The replies and the sub-agent's requests, as written; nothing of the totals.
    expect(rows[0]?.tokens).toMatchObject({ input: 28, output: 120 });
  });
});
