// The Codex reader, on handwritten rollouts in fixtures/codex/ (a CODEX_HOME-like tree): what a
// user sees of a thread, and what is counted once across a thread, its archived copy, a fork and
// a spawned sub-agent.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../src/report/markdown.js';
import { claimEntries } from '../src/ledger/claims.js';
import { ledgerOf } from '../src/ledger/ledger.js';
import { splitBranches } from '../src/model/branches.js';
import { buildTree } from '../src/model/tree.js';
import { FileDiagnostics } from '../src/diagnostics.js';
import { codexReader } from '../src/sources/codex/reader.js';
import { readSessionFile } from '../src/sources/read.js';
import { CLAIM_RULES } from '../src/sources/registry.js';
import type { Entry, EntryOf, SessionFile, TokenCounts } from '../src/types.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';
import { build } from '../src/build.js';
import { unpackEntries } from '../src/ledger/packed-entries.js';
import { summarySchema } from '../src/report/schema.js';
import { runCli } from './support/cli.js';

const HOME = join(FIXTURES, 'codex', 'home');
const DAY = join(HOME, 'sessions', '2026', '03', '02');
const PARENT = join(DAY, 'rollout-2026-03-02T11-00-00-0195aaaa-0000-7000-8000-000000000001.jsonl');
const ARCHIVED = join(HOME, 'archived_sessions', 'rollout-2026-03-02T11-00-00-0195aaaa-0000-7000-8000-000000000001.jsonl');
const FORK = join(DAY, 'rollout-2026-03-02T11-30-00-0195aaaa-0000-7000-8000-000000000002.jsonl');
const CHILD = join(DAY, 'rollout-2026-03-02T11-05-00-0195aaaa-0000-7000-8000-000000000003.jsonl');
const LEGACY = join(HOME, 'sessions', 'rollout-2025-08-01T09-00-00-0195aaaa-0000-7000-8000-000000000009.jsonl');
const TWINS = [
  join(FIXTURES, 'codex', 'twins', 'rollout-2026-03-03T09-00-00-0195aaaa-1111-7000-8000-00000000000a.jsonl'),
  join(FIXTURES, 'codex', 'twins', 'rollout-2026-03-03T09-10-00-0195aaaa-2222-7000-8000-00000000000b.jsonl'),
];
const TRAPS = join(FIXTURES, 'codex', 'traps', 'rollout-2026-03-04T09-00-00-0195aaaa-0000-7000-8000-000000000005.jsonl');
const PARENT_ID = '0195aaaa-0000-7000-8000-000000000001';

async function read(path: string): Promise<SessionFile> {
  const outcome = await readSessionFile(path);
  if (outcome.kind !== 'session') throw new Error(`${path} was not read as a session: ${JSON.stringify(outcome.diagnostics)}`);
  expect(outcome.file.source).toBe('codex');
  return outcome.file;
}

type Tokens = Pick<TokenCounts, 'input' | 'cacheRead' | 'cacheWrite' | 'output' | 'reasoning'>;

function tokensOf(entries: readonly Entry[]): Tokens {
  const sum: Tokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  for (const usage of entries.flatMap((e) => e.usage)) for (const k of Object.keys(sum) as (keyof Tokens)[]) sum[k] += usage[k];
  return sum;
}

const ofKind = <K extends Entry['kind']>(file: SessionFile, kind: K): EntryOf<K>[] => file.entries.filter((e): e is EntryOf<K> => e.kind === kind);
const texts = (file: SessionFile) => ofKind(file, 'reply').flatMap((r) => r.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));

/** What each file counts when these files are read together, as build and stats count it. */
async function countedTogether(paths: string[]): Promise<Map<string, { tokens: Tokens; prompts: number; replies: number }>> {
  const ledgers = (await Promise.all(paths.map(read))).map(ledgerOf);
  const claims = claimEntries(ledgers, CLAIM_RULES);
  const result = new Map<string, { tokens: Tokens; prompts: number; replies: number }>();
  for (const ledger of ledgers) {
    const counted = claims.counted.get(ledger.key);
    if (!counted) throw new Error(`no claims for ${ledger.key}`);
    const tokens: Tokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    let u = 0;
    let prompts = 0;
    let replies = 0;
    unpackEntries(ledger.entries).forEach((entry, i) => {
      if (counted.entries[i] && entry.turn === 'prompt') prompts++;
      if (counted.entries[i] && entry.turn === 'reply') replies++;
      for (const usage of entry.usage) {
        if (counted.usage[u++]) for (const k of Object.keys(tokens) as (keyof Tokens)[]) tokens[k] += usage[k];
      }
    });
    result.set(ledger.path, { tokens, prompts, replies });
  }
  return result;
}

function total(counted: Map<string, { tokens: Tokens }>): Tokens {
  const sum: Tokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  for (const { tokens } of counted.values()) for (const k of Object.keys(sum) as (keyof Tokens)[]) sum[k] += tokens[k];
  return sum;
}

// The parent's final total_token_usage: input 4500 (2900 cached), output 150 (25 reasoning).
const PARENT_TOKENS: Tokens = { input: 1600, cacheRead: 2900, cacheWrite: 0, output: 150, reasoning: 25 };
// The fork's own turn: from the parent's turn-1 totals (3300/2100/120/20) to 4800/3200/165/25.
const FORK_OWN_TOKENS: Tokens = { input: 400, cacheRead: 1100, cacheWrite: 0, output: 45, reasoning: 5 };

describe('a Codex thread, as a user sees it', () => {
  it('reads the thread identity from its first session_meta', async () => {
    const file = await read(PARENT);
    expect(file).toMatchObject({
      sessionId: PARENT_ID,
      cwd: '/work/demo',
      startedAt: Date.parse('2026-03-02T10:00:00.000Z'),
      parentFile: null,
      parentSessionId: null,
      subagentOf: null,
      namedByAgent: true,
      formatVersion: 2,
      diagnostics: [],
    });
  });

  // Regression (a review of periods): a session_meta whose own time is no time was passed over
  // without a word, as any other record's is not.
  it('says a session_meta whose time is no time, and starts at its line’s', async () => {
    const path = join(await tempDir(), 'rollout-2026-10-31T23-59-00-0195aaaa-0000-7000-8000-0000000000c1.jsonl');
    const meta = { timestamp: '2026-10-31T23:59:00.000Z', type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-0000000000c1', timestamp: '31/10/2026 23:59', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.60.0', model_provider: 'openai' } };
    await writeFile(path, `${JSON.stringify(meta)}\n${JSON.stringify({ timestamp: '2026-11-01T00:00:05.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'hi' } })}\n`);
    const file = await read(path);
    expect(file.startedAt).toBe(Date.parse('2026-10-31T23:59:00.000Z'));
    expect(file.diagnostics.map((d) => [d.reason, d.line, d.detail])).toEqual([['invalid-time', 1, 'timestamp "31/10/2026 23:59" is not a date and time (the session starts at its line’s time)']]);
  });

  it('counts only the prompts the user typed, not the injected AGENTS.md, permissions or their role:user twins', async () => {
    const file = await read(PARENT);
    expect(ofKind(file, 'prompt').map((p) => p.content)).toEqual([[{ type: 'text', text: 'Fix the failing test' }], [{ type: 'text', text: 'Now run the linter' }]]);
    expect(ofKind(file, 'notice').map((n) => [n.label, n.summary])).toEqual([
      ['injected context', 'developer instructions'],
      ['injected context', '# AGENTS.md instructions for /work/demo'],
    ]);
  });

  it('shows one copy of each assistant text and reasoning summary, never the encrypted reasoning', async () => {
    const file = await read(PARENT);
    expect(texts(file)).toEqual(['Fixed: `a` is now 2.']);
    const thinking = ofKind(file, 'reply').flatMap((r) => r.content.filter((b) => b.type === 'thinking'));
    expect(thinking).toEqual([{ type: 'thinking', text: 'Looking at the test first.', redacted: false }]);
    expect(JSON.stringify(file.entries)).not.toContain('ENCRYPTED-MUST-NOT-RENDER');
  });

  it('adds up usage to the final total_token_usage: re-emits, null info and the compaction sentinel add nothing', async () => {
    const file = await read(PARENT);
    expect(tokensOf(file.entries)).toEqual(PARENT_TOKENS);
    const usage = file.entries.flatMap((e) => e.usage);
    expect(usage).toHaveLength(4);
    // Usage follows the model of the preceding turn_context: the /model switch lands on turn 2.
    expect(usage.map((u) => [u.provider, u.model, u.modelGuessed])).toEqual([
      ['openai', 'gpt-5.2-codex', false],
      ['openai', 'gpt-5.2-codex', false],
      ['openai', 'gpt-5.2-codex', false],
      ['openai', 'gpt-5.3-codex', false],
    ]);
    expect(usage.map((u) => u.timestamp)).toEqual(
      ['2026-03-02T10:01:10.000Z', '2026-03-02T10:01:16.000Z', '2026-03-02T10:01:21.000Z', '2026-03-02T10:02:09.000Z'].map(Date.parse),
    );
    expect(ofKind(file, 'modelChange').map((m) => m.model)).toEqual(['gpt-5.2-codex', 'gpt-5.3-codex']);
  });

  it('shows tool calls in replies with what they did, and pairs each output with its call', async () => {
    const file = await read(PARENT);
    const calls = ofKind(file, 'reply').flatMap((r) => r.content.flatMap((b) => (b.type === 'toolCall' ? [b] : [])));
    expect(calls.map((c) => [c.id, c.name, c.effect.action, c.effect.command, c.effect.paths])).toEqual([
      ['call_test', 'exec_command', 'shell', 'npm test', []],
      ['call_patch', 'apply_patch', 'edit', null, ['src/a.ts']],
      ['call_lint', 'exec_command', 'shell', 'npm run lint', []],
    ]);
    const results = ofKind(file, 'toolResult');
    expect(results.map((r) => [r.toolCallId, r.toolName, r.isError])).toEqual([
      ['call_test', 'exec_command', true],
      ['call_patch', 'apply_patch', false],
    ]);
    expect(results[1]?.change).toEqual({ added: 1, removed: 1 });
    expect(results[1]?.diff).toEqual({ format: 'unified', text: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-const a = 1;\n+const a = 2;\n' });
    expect(results[1]?.content).toEqual([{ type: 'text', text: 'Success. Updated the following files:\nM src/a.ts\n' }]);
  });

  it('marks the interrupted turn, shows one compaction landmark, and chains entries in file order', async () => {
    const file = await read(PARENT);
    expect(ofKind(file, 'reply').map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok', 'aborted']);
    expect(ofKind(file, 'compaction')).toHaveLength(1);
    file.entries.forEach((entry, i) => expect(entry.parentId).toBe(i === 0 ? null : file.entries[i - 1]?.id));
    expect(new Set(file.entries.map((e) => e.key)).size).toBe(file.entries.length);
  });

  it('leaves the turns a rollback undid as a side branch, still counted (regression: they stayed on the conversation’s path)', async () => {
    const path = join(await tempDir(), 'rollout-2026-04-05T10-00-00-0195aaaa-0000-7000-8000-00000000000f.jsonl');
    let n = 0;
    const at = () => `2026-04-05T10:00:${String(n++).padStart(2, '0')}.000Z`;
    const event = (payload: object) => ({ timestamp: at(), type: 'event_msg', payload });
    let total = 0;
    const turn = (prompt: string, reply: string) => {
      total += 100;
      const counts = (input: number) => ({ input_tokens: input, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: input });
      return [
        event({ type: 'user_message', message: prompt }),
        event({ type: 'agent_message', message: reply }),
        event({ type: 'token_count', info: { total_token_usage: counts(total), last_token_usage: counts(100) } }),
      ];
    };
    const lines = [
      { timestamp: at(), type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-00000000000f', timestamp: '2026-04-05T10:00:00.000Z', cwd: '/home/ana/undo', originator: 'codex_cli_rs', cli_version: '0.60.0', model_provider: 'openai' } },
      { timestamp: at(), type: 'turn_context', payload: { cwd: '/home/ana/undo', model: 'gpt-5' } },
      ...turn('first', 'one'),
      // A turn sent from the editor: its context goes with it.
      ...turn('# Context from my IDE setup:\n\n## Active file: a.ts\n\n## My request for Codex:\nsecond', 'two'),
      ...turn('third', 'three'),
      event({ type: 'thread_rolled_back', num_turns: 2 }),
      ...turn('second, again', 'two again'),
      event({ type: 'thread_rolled_back', num_turns: 5 }),
      ...turn('start over', 'fresh'),
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    const tree = buildTree(file.entries);
    const promptsOn = (entries: readonly Entry[]) => entries.flatMap((e) => (e.kind === 'prompt' ? e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : []));
    expect(promptsOn(tree.activePath)).toEqual(['start over']);
    const branches = splitBranches(tree);
    expect(branches.map((b) => promptsOn(b.entries))).toEqual([['start over'], ['first', 'second', 'third'], ['second, again']]);
    expect(branches[2]?.forkPoint?.kind).not.toBe('notice');
    expect(branches.map((b) => b.entries.filter((e) => e.kind === 'notice').map((e) => (e.kind === 'notice' ? e.label : '')))).toEqual([['rolled back'], ['editor context'], ['rolled back']]);
    // The redo hangs where the first turn ended: its token count, line 5.
    expect(branches[2]?.forkPoint).toMatchObject({ kind: 'usageOnly', line: 5 });
    expect(ofKind(file, 'notice').flatMap((e) => (e.label === 'rolled back' ? [e.summary] : []))).toEqual([
      'the user undid the last 2 turns: kept as a side branch, and still counted (they were billed)',
      'the user undid the last 5 turns: kept as a side branch, and still counted (they were billed)',
    ]);
    expect(tokensOf(file.entries).input).toBe(500);
  });

  // Regression (an outside review of Codex's format): a fork copies its parent's rename with its
  // history, and was titled by it.
  it('takes another thread\'s rename, copied with its history, for no name of this one', async () => {
    let n = 0;
    const at = () => `2026-04-09T10:00:${String(n++).padStart(2, '0')}.000Z`;
    const PARENT = '0195aaaa-0000-7000-8000-0000000000b4';
    const FORK = '0195aaaa-0000-7000-8000-0000000000b5';
    const meta = (id: string, extra: object = {}) => ({ timestamp: at(), type: 'session_meta', payload: { id, timestamp: '2026-04-09T10:00:00.000Z', cwd: '/home/ana/fork', originator: 'codex_cli_rs', cli_version: '0.60.0', model_provider: 'openai', ...extra } });
    const renamed = (id: string, name: string) => ({ timestamp: at(), type: 'event_msg', payload: { type: 'thread_name_updated', thread_id: id, thread_name: name } });
    const lines = [meta(FORK, { forked_from_id: PARENT }), meta(PARENT), { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: 'parent prompt' } }, renamed(PARENT, 'Parent name'), { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: 'fork prompt' } }];
    const path = join(await tempDir(), `rollout-2026-04-09T10-00-00-${FORK}.jsonl`);
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect(file.entries.filter((e) => e.kind === 'name')).toEqual([]);
    expect(file.entries.some((e) => e.kind === 'notice' && e.summary === 'thread 0195aaaa-0000-7000-8000-0000000000b4 named “Parent name”')).toBe(true);
    // Its own rename names it.
    await writeFile(path, `${[...lines, renamed(FORK, 'Fork name')].map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect((await read(path)).entries.filter((e) => e.kind === 'name').map((e) => (e.kind === 'name' ? e.name : null))).toEqual(['Fork name']);
  });

  // Regression (an outside review of Codex's format): encrypted reasoning nested in a record shown
  // as data (an unknown item or record type) was shown; only a top-level one was left out.
  it('shows no encrypted content at any depth of a record it shows as data', async () => {
    let n = 0;
    const at = () => `2026-04-08T10:00:${String(n++).padStart(2, '0')}.000Z`;
    const lines = [
      { timestamp: at(), type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-0000000000b3', timestamp: '2026-04-08T10:00:00.000Z', cwd: '/home/ana/enc', originator: 'codex_cli_rs', cli_version: '0.60.0', model_provider: 'openai' } },
      { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
      { timestamp: at(), type: 'response_item', payload: { type: 'agent_message', content: [{ type: 'reasoning', encrypted_content: 'ENC_NESTED_1', summary: [] }], author: 'sub' } },
      { timestamp: at(), type: 'future_record', payload: { inner: { encrypted_content: 'ENC_NESTED_2', kept: 'shown' } } },
    ];
    const path = join(await tempDir(), 'rollout-2026-04-08T10-00-00-0195aaaa-0000-7000-8000-0000000000b3.jsonl');
    // A key `__proto__`, as JSON may hold one, stays a key.
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`.replace('"kept":"shown"}}', '"kept":"shown"},"__proto__":{"x":1}}'));
    const text = JSON.stringify((await read(path)).entries);
    expect(text).not.toContain('ENC_NESTED');
    expect(text).toContain('"inner":{"kept":"shown"},"__proto__":{"x":1}');
  });

  // Regression (an outside review of Codex's format): builds that wrote the injected AGENTS.md and
  // environment as user_message events of kind user_instructions and environment_context made
  // prompts of them, the session titled by its instructions.
  it('takes no user_message event of a kind other than plain for a prompt', async () => {
    let n = 0;
    const at = () => `2026-04-07T10:00:${String(n++).padStart(2, '0')}.000Z`;
    const injected = (text: string, kind: string) => [
      { timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } },
      { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: text, kind } },
    ];
    const lines = [
      { timestamp: at(), type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-0000000000b2', timestamp: '2026-04-07T10:00:00.000Z', cwd: '/home/ana/kinds', originator: 'codex_cli_rs', cli_version: '0.46.0', model_provider: 'openai' } },
      ...injected('<user_instructions>\nAlways answer in French.\n</user_instructions>', 'user_instructions'),
      ...injected('<environment_context>\n<cwd>/home/ana/kinds</cwd>\n</environment_context>', 'environment_context'),
      { timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'why is the loader slow' }] } },
      { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: 'why is the loader slow', kind: 'plain' } },
    ];
    const path = join(await tempDir(), 'rollout-2026-04-07T10-00-00-0195aaaa-0000-7000-8000-0000000000b2.jsonl');
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect(ofKind(file, 'prompt').map((p) => p.content)).toEqual([[{ type: 'text', text: 'why is the loader slow' }]]);
    expect(file.entries.filter((e) => e.kind === 'notice').map((e) => (e.kind === 'notice' ? e.label : ''))).toEqual(['injected context', 'injected context']);
  });

  // Regression (an outside review of session pages): Codex writes an agent_message event for each
  // output_text part of a message; a reply of two parts, or whose event ends in a line break the
  // item has not, was shown twice.
  it('shows a reply once whose event copies are one per part or differ in trailing space, events first or items first', async () => {
    let n = 0;
    const at = () => `2026-04-06T10:00:${String(n++).padStart(2, '0')}.000Z`;
    const event = (payload: object) => ({ timestamp: at(), type: 'event_msg', payload });
    const item = (payload: object) => ({ timestamp: at(), type: 'response_item', payload });
    const message = (...parts: string[]) => item({ type: 'message', role: 'assistant', content: parts.map((text) => ({ type: 'output_text', text })) });
    const lines = [
      { timestamp: at(), type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-0000000000b1', timestamp: '2026-04-06T10:00:00.000Z', cwd: '/home/ana/parts', originator: 'codex_cli_rs', cli_version: '0.60.0', model_provider: 'openai' } },
      { timestamp: at(), type: 'turn_context', payload: { cwd: '/home/ana/parts', model: 'gpt-5' } },
      event({ type: 'user_message', message: 'first' }),
      event({ type: 'agent_message', message: 'Part one. ' }),
      event({ type: 'agent_message', message: 'Part two.' }),
      message('Part one. ', 'Part two.'),
      event({ type: 'user_message', message: 'second' }),
      message('Alone.'),
      event({ type: 'agent_message', message: 'Alone.\n' }),
      event({ type: 'user_message', message: 'third' }),
      message('Three ', 'four'),
      event({ type: 'agent_message', message: 'Three ' }),
      event({ type: 'agent_message', message: 'four' }),
    ];
    const path = join(await tempDir(), 'rollout-2026-04-06T10-00-00-0195aaaa-0000-7000-8000-0000000000b1.jsonl');
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(texts(await read(path))).toEqual(['Part one. ', 'Part two.', 'Alone.', 'Three ', 'four']);
  });

  it('regression: a pasted screenshot was lost and the prompt shown again as injected context; now the prompt holds the image, and a viewed image its tool result', async () => {
    const path = join(await tempDir(), 'rollout-2026-03-01T10-00-00-0195aaaa-0000-7000-8000-0000000000ac.jsonl');
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const image = { type: 'input_image', image_url: `data:image/png;base64,${png}` };
    const item = (t: string, payload: object) => ({ timestamp: `2026-03-01T10:00:0${t}.000Z`, type: 'response_item', payload });
    const lines = [
      { timestamp: '2026-03-01T10:00:00.000Z', type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-0000000000ac', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/home/ana/shot', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
      item('1', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what is in this screenshot' }, { type: 'input_text', text: '<image name=[Image #1]>' }, image, { type: 'input_text', text: '</image>' }] }),
      { timestamp: '2026-03-01T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'what is in this screenshot', images: [], local_images: ['/home/ana/shot.png'] } },
      item('2', { type: 'function_call', name: 'view_image', arguments: '{"path":"/home/ana/b.png"}', call_id: 'c1' }),
      item('3', { type: 'function_call_output', call_id: 'c1', output: 'attached image' }),
      item('3', { type: 'message', role: 'user', content: [image] }),
      // The image inside the output, as a content list (codex.md §5: an output may be an array).
      item('4', { type: 'function_call', name: 'view_image', arguments: '{"path":"/home/ana/c.png"}', call_id: 'c2' }),
      item('5', { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'here' }, image] }),
      // A screenshot pasted with no words right after a tool result: the user's prompt, not the tool's.
      item('6', { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<image name=[Image #2]>' }, image, { type: 'input_text', text: '</image>' }] }),
      { timestamp: '2026-03-01T10:00:06.000Z', type: 'event_msg', payload: { type: 'user_message', message: '', images: [], local_images: ['/home/ana/two.png'] } },
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    const picture = { type: 'image', mimeType: 'image/png', data: png };
    expect(file.entries.map((e) => e.kind)).toEqual(['prompt', 'reply', 'toolResult', 'reply', 'toolResult', 'prompt']);
    expect(ofKind(file, 'prompt').map((p) => p.content)).toEqual([[{ type: 'text', text: 'what is in this screenshot' }, picture], [picture]]);
    expect(ofKind(file, 'toolResult').map((r) => r.content)).toEqual([
      [{ type: 'text', text: 'attached image' }, picture],
      [{ type: 'text', text: 'here' }, picture],
    ]);
  });

  // Regression (a Codex format review): a rollout whose meta names no cwd but a git repository
  // went to "(unknown folder)"; codex.md §3 groups by cwd or git.repository_url.
  it('puts rollouts without a cwd in the project of the git repository their meta names', async () => {
    const dir = await tempDir();
    const rollout = async (n: string, url: string) => {
      const id = `0195aaaa-0000-7000-8000-0000000000${n}`;
      const lines = [
        { timestamp: '2026-03-01T10:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-03-01T10:00:00.000Z', originator: 'codex_exec', cli_version: '0.125.0', git: { repository_url: url, branch: 'main' } } },
        { timestamp: '2026-03-01T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: `task ${n}` } },
      ];
      await writeFile(join(dir, `rollout-2026-03-01T10-00-00-${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    };
    await rollout('e1', 'git@github.com:me/repo.git');
    await rollout('e2', 'https://github.com/me/repo.git');
    // No user, password or token of the address anywhere (a hostile look: a password holding an @ kept its tail).
    await rollout('e3', 'https://me:Xy@9Lm2Qr7Tz@github.com/me/other.git');
    await rollout('e4', 'https://github.com/me/other.git?access_token=ghp_abcdefghijklmnopqrstuvwxyz0123456789#token=abc');
    await rollout('e5', 'oauth2:glpat-abcdefghij0123456789@gitlab.com:me/third.git');
    // A second hostile look: a password holding a / or #, the browser's address, a default port.
    await rollout('e6', 'https://user:p@ss/w0rd@github.com/me/other.git');
    await rollout('e7', 'https://github.com/me/repo');
    await rollout('e8', 'ssh://git@github.com:22/me/repo.git');
    await rollout('e9', 'C:\\Users\\me\\repo');
    const { summary } = await build({ inputs: [dir], out: join(await tempDir(), 'r'), scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    expect(summary.projects.map((p) => [p.name, p.sessions]).sort()).toEqual([
      ['(unknown folder)', 1],
      ['github.com/me/other (repository)', 3],
      ['github.com/me/repo (repository)', 4],
      ['gitlab.com/me/third (repository)', 1],
    ]);
  });

  // Regression (a hostile-input review): "[image: https://example.com/cat.png]" was rendered with
  // the "]" inside the link's address.
  it('shows an image sent by address as a link to that address', async () => {
    const path = join(await tempDir(), 'rollout-2026-03-01T10-00-00-0195aaaa-0000-7000-8000-0000000000ad.jsonl');
    const lines = [
      { timestamp: '2026-03-01T10:00:00.000Z', type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-0000000000ad', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/home/ana/shot', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
      { timestamp: '2026-03-01T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'what is this', images: ['https://example.com/cat.png'] } },
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const [prompt] = ofKind(await read(path), 'prompt');
    const html = (prompt?.content ?? []).flatMap((b) => (b.type === 'text' ? [renderMarkdown(b.text)] : [])).join('');
    expect(html).toContain('image: <a href="https://example.com/cat.png" rel="noopener noreferrer">https://example.com/cat.png</a>');
    // Nothing of Markdown's in the text a title or the search index shows (a hostile look).
    expect(prompt?.content).toContainEqual({ type: 'text', text: 'image: https://example.com/cat.png' });
  });

  it('shows the editor’s context apart from the words typed, which title the session (regression: "# Files mentioned by the user: ## …" as the title)', async () => {
    const path = join(await tempDir(), 'rollout-2026-04-06T10-00-00-0195aaaa-0000-7000-8000-0000000000ab.jsonl');
    const typed = '# Files mentioned by the user:\n\n## notes.vtt: /Users/ana/Downloads/notes.vtt\n\n## My request for Codex:\nsummarise the action items\n';
    const ide = '# Context from my IDE setup:\n\n## Active file: src/a.ts\n\n## Open tabs:\n- a.ts: src/a.ts\n\n## My request for Codex:\nfix the hover';
    const quoted = 'Why does my tool print\n## My request for Codex:\nbefore each line?';
    const windows = '# Files mentioned by the user:\r\n\r\n## C:\\tmp\\shot.png: C:\\tmp\\shot.png\r\n\r\n## My request for Codex:\r\nwhat is in it?';
    const lines = [
      { timestamp: '2026-04-06T10:00:00.000Z', type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-0000000000ab', timestamp: '2026-04-06T10:00:00.000Z', cwd: '/home/ana/ide', originator: 'codex_vscode', cli_version: '0.60.0', model_provider: 'openai' } },
      ...[typed, ide, quoted, windows].flatMap((text, i) => [
        { timestamp: `2026-04-06T10:00:0${i + 1}.000Z`, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } },
        { timestamp: `2026-04-06T10:00:0${i + 1}.100Z`, type: 'event_msg', payload: { type: 'user_message', message: text } },
      ]),
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect(file.entries.map((e) => (e.kind === 'prompt' ? ['prompt', e.content] : e.kind === 'notice' ? [e.label, e.summary] : [e.kind]))).toEqual([
      ['editor context', 'Files mentioned by the user: notes.vtt'],
      ['prompt', [{ type: 'text', text: 'summarise the action items\n' }]],
      ['editor context', 'Context from my IDE setup: Active file, Open tabs'],
      ['prompt', [{ type: 'text', text: 'fix the hover' }]],
      ['prompt', [{ type: 'text', text: quoted }]],
      ['editor context', 'Files mentioned by the user: C:\\tmp\\shot.png'],
      ['prompt', [{ type: 'text', text: 'what is in it?' }]],
    ]);
    expect(ofKind(file, 'notice')[0]?.content).toEqual([{ type: 'text', text: '# Files mentioned by the user:\n\n## notes.vtt: /Users/ana/Downloads/notes.vtt' }]);
    expect(ledgerOf(file).title).toBe('summarise the action items');
  });

  it('takes the thread title from session_index.jsonl, newest line winning', async () => {
    const file = await read(PARENT);
    expect(ofKind(file, 'name').map((n) => n.name)).toEqual(['Fix the failing test']);
    expect(ledgerOf(file).name).toBe('Fix the failing test');
  });

  // Regression (a review): the index's name was put after the rollout's own, whenever each was given.
  it('takes the newer of the index’s name and a rename in the rollout (thread_name_updated), as codex.md says', async () => {
    const home = join(await tempDir(), 'codex');
    const path = join(home, 'sessions', '2026', '03', '02', 'rollout-2026-03-02T11-00-00-0195aaaa-0000-7000-8000-0000000000c1.jsonl');
    await mkdir(dirname(path), { recursive: true });
    const id = '0195aaaa-0000-7000-8000-0000000000c1';
    const lines = [
      { timestamp: '2026-03-02T11:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-03-02T11:00:00.000Z', cwd: '/home/ana/app', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
      { timestamp: '2026-03-02T11:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } },
      { timestamp: '2026-03-02T11:05:00.000Z', type: 'event_msg', payload: { type: 'thread_name_updated', thread_name: 'Renamed in the rollout' } },
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const titleWithIndexAt = async (updatedAt: string) => {
      await writeFile(join(home, 'session_index.jsonl'), `${JSON.stringify({ id, thread_name: 'Named in the index', updated_at: updatedAt })}\n`);
      return ledgerOf(await read(path)).name;
    };
    expect(await titleWithIndexAt('2026-03-02T11:04:00Z')).toBe('Renamed in the rollout');
    expect(await titleWithIndexAt('2026-03-02T11:06:00Z')).toBe('Named in the index');
  });
});

describe('Codex tool results and failures, from a review of the pages', () => {
  /** A thread of one prompt and then these records, each an item (response_item) or an event (event_msg). */
  const rollout = async (id: string, records: ({ item: object } | { event: object })[]) => {
    const path = join(await tempDir(), `rollout-2026-06-06T10-00-00-0195aaaa-0000-7000-8000-0000000000${id}.jsonl`);
    const at = (n: number) => `2026-06-06T10:00:${String(n).padStart(2, '0')}.000Z`;
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id: `0195aaaa-0000-7000-8000-0000000000${id}`, timestamp: at(0), cwd: '/home/ana/app', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
      { timestamp: at(0), type: 'turn_context', payload: { cwd: '/home/ana/app', model: 'gpt-5' } },
      { timestamp: at(1), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } },
      ...records.map((record, i) => ('item' in record ? { timestamp: at(i + 2), type: 'response_item', payload: record.item } : { timestamp: at(i + 2), type: 'event_msg', payload: record.event })),
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    return read(path);
  };
  const patch = '*** Begin Patch\n*** Add File: hello.txt\n+HELLO\n*** Update File: main.py\n@@\n-print(1)\n+print(2)\n*** End Patch';
  const patchFiles = [
    ['hello.txt', 1, 0],
    ['main.py', 1, 1],
  ];

  it('regression: a patch whose output line never came showed no diff and counted no line; now its patch_apply_end is its result', async () => {
    const file = await rollout('b1', [
      { item: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch } },
      { event: { type: 'patch_apply_end', call_id: 'p1', success: true, stdout: 'Success. Updated the following files:\nA hello.txt\nM main.py' } },
    ]);
    const [result] = ofKind(file, 'toolResult');
    expect(result).toMatchObject({ toolCallId: 'p1', isError: false, change: { added: 2, removed: 1 } });
    expect(result?.content).toEqual([{ type: 'text', text: 'Success. Updated the following files:\nA hello.txt\nM main.py' }]);
    // With the output there, it is the result, once.
    const whole = await rollout('b2', [
      { item: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch } },
      { event: { type: 'patch_apply_end', call_id: 'p1', success: true } },
      { item: { type: 'custom_tool_call_output', call_id: 'p1', output: 'Success.' } },
    ]);
    const eachFile = patchFiles.map(([path, added, removed]) => ({ path, added, removed }));
    expect(ofKind(whole, 'toolResult').map((r) => [r.content, r.change])).toEqual([[[{ type: 'text', text: 'Success.' }], { added: 2, removed: 1, files: eachFile }]]);
    // Its unified diffs, as patch_apply_end reports them, tell each file's lines too.
    const unified = await rollout('b7', [
      { item: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch } },
      { event: { type: 'patch_apply_end', call_id: 'p1', success: true, changes: { '/home/ana/app/hello.txt': { type: 'add', content: 'HELLO\n' }, '/home/ana/app/main.py': { type: 'update', unified_diff: '@@ -1 +1 @@\n-print(1)\n+print(2)\n' } } } },
    ]);
    expect(ofKind(unified, 'toolResult')[0]?.change?.files?.map((f) => [f.path, f.added, f.removed])).toEqual(patchFiles);
    // A file moved counts where it went; a patch written with CRLF line ends reads as one with LF.
    const moved = await rollout('b8', [
      { item: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch\r\n*** Update File: old.py\r\n*** Move to: new.py\r\n@@\r\n-a\r\n+b\r\n*** Add File: c.py\r\n+c\r\n*** End Patch' } },
      { item: { type: 'custom_tool_call_output', call_id: 'p1', output: 'Success.' } },
    ]);
    expect(ofKind(moved, 'toolResult')[0]?.change?.files?.map((f) => [f.path, f.added, f.removed])).toEqual([
      ['new.py', 1, 1],
      ['c.py', 1, 0],
    ]);
    const reported = await rollout('b9', [
      { item: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: old.py\n*** Move to: new.py\n@@\n-a\n+b\n*** End Patch' } },
      { event: { type: 'patch_apply_end', call_id: 'p1', success: true, changes: { '/home/ana/app/old.py': { type: 'update', unified_diff: '@@ -1 +1 @@\n-a\n+b\n', move_path: '/home/ana/app/new.py' } } } },
    ]);
    expect(ofKind(reported, 'toolResult')[0]?.change?.files?.map((f) => [f.path, f.added, f.removed])).toEqual([['new.py', 1, 1]]);
    // A function call giving the patch as its `input` field is drawn as a diff too.
    const field = await rollout('b3', [
      { item: { type: 'function_call', call_id: 'p1', name: 'apply_patch', arguments: JSON.stringify({ input: patch }) } },
      { item: { type: 'function_call_output', call_id: 'p1', output: 'Done!' } },
    ]);
    expect(ofKind(field, 'toolResult')[0]?.change).toEqual({ added: 2, removed: 1, files: eachFile });
  });

  // Regression (the same review): a fork whose own session_meta line was cut short took the
  // identity of the parent's meta it copies next: two sessions of one id, the fork titled by the
  // parent's prompt, the parent listed as the fork's duplicate file.
  it('keeps a fork its own identity when its own session_meta line is damaged', async () => {
    const own = '0195aaaa-0000-7000-8000-0000000000b8';
    const parent = '0195aaaa-0000-7000-8000-0000000000b9';
    const path = join(await tempDir(), `rollout-2026-06-06T10-00-00-${own}.jsonl`);
    const meta = (id: string, more: object = {}) => ({ timestamp: '2026-06-06T10:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-06-06T10:00:00.000Z', cwd: '/home/ana/app', originator: 'codex_cli_rs', cli_version: '0.125.0', ...more } });
    const lines = [
      JSON.stringify(meta(own, { forked_from_id: parent })).slice(0, 100),
      JSON.stringify(meta(parent)),
      JSON.stringify({ timestamp: '2026-06-06T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } }),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);
    const file = await read(path);
    expect({ sessionId: file.sessionId, parentSessionId: file.parentSessionId }).toEqual({ sessionId: own, parentSessionId: parent });
    expect(file.diagnostics.map((d) => d.reason)).toContain('header-damaged');
  });

  // Regression (an outside review of hostile sizes): a thread whose meta named itself as the thread
  // it was forked from said on its page that its origin, itself, was not among the files read.
  it('takes a thread forked from itself for no copy', async () => {
    const id = '0195aaaa-0000-7000-8000-0000000000b7';
    const path = join(await tempDir(), `rollout-2026-06-06T10-00-00-${id}.jsonl`);
    const lines = [
      { timestamp: '2026-06-06T10:00:00.000Z', type: 'session_meta', payload: { id, forked_from_id: id, timestamp: '2026-06-06T10:00:00.000Z', cwd: '/home/ana/app', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
      { timestamp: '2026-06-06T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } },
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect({ parentFile: file.parentFile, parentSessionId: file.parentSessionId }).toEqual({ parentFile: null, parentSessionId: null });
  });

  // Regression (a hostile look): a patch over two files counted all its lines to the first in
  // Files touched (hello.txt +2 −1, main.py none); then, to none of them alone. Each file's own.
  it('counts the lines of a patch over several files to each file', async () => {
    const file = await rollout('b6', [
      { item: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch } },
      { item: { type: 'custom_tool_call_output', call_id: 'p1', output: 'Success.' } },
    ]);
    const [result] = unpackEntries(ledgerOf(file).entries).filter((entry) => entry.result !== null).map((entry) => entry.result);
    expect(result).toMatchObject({ path: null, added: 2, removed: 1 });
    expect(result?.files?.map((f) => [f.path, f.added, f.removed])).toEqual(patchFiles);
  });

  it('regression: a failed command polled with write_stdin was two failures; now one, where its exit shows', async () => {
    const file = await rollout('b4', [
      { item: { type: 'function_call', call_id: 'e1', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test' }) } },
      { item: { type: 'function_call_output', call_id: 'e1', output: 'Process running with session ID 7\nOutput:\n' } },
      { item: { type: 'function_call', call_id: 'w1', name: 'write_stdin', arguments: JSON.stringify({ session_id: 7, chars: '' }) } },
      { item: { type: 'function_call_output', call_id: 'w1', output: 'Process exited with code 1\nOutput:\n1 failing' } },
      { event: { type: 'exec_command_end', call_id: 'e1', exit_code: 1, status: 'failed' } },
    ]);
    expect(ofKind(file, 'toolResult').map((r) => [r.toolCallId, r.isError])).toEqual([
      ['e1', false],
      ['w1', true],
    ]);
  });

  it('regression: an API error the user then interrupted counted as aborted, not as an error reply', async () => {
    const file = await rollout('b5', [
      { event: { type: 'stream_error', message: 'Reconnecting... 1/5' } },
      { event: { type: 'error', message: 'stream disconnected before completion: unexpected status 500' } },
      { event: { type: 'turn_aborted', reason: 'interrupted' } },
    ]);
    expect(ofKind(file, 'reply').map((r) => [r.outcome, r.errorMessage])).toEqual([['error', 'stream disconnected before completion: unexpected status 500']]);
    // The interruption is said after it.
    expect(ofKind(file, 'notice').map((n) => [n.label, n.summary]).slice(-2)).toEqual([
      ['stream error', 'Reconnecting... 1/5'],
      ['interrupted', 'turn ended: interrupted'],
    ]);
  });
});

describe('counting a Codex thread once across files', () => {
  it('counts the archived copy of a thread once', async () => {
    const counted = await countedTogether([PARENT, ARCHIVED]);
    expect(total(counted)).toEqual(PARENT_TOKENS);
    expect([...counted.values()].reduce((n, c) => n + c.prompts, 0)).toBe(2);
  });

  it('counts a fork’s replay of its parent in the parent, and only its own turn in the fork', async () => {
    const fork = await read(FORK);
    expect(fork.parentSessionId).toBe(PARENT_ID);
    const counted = await countedTogether([PARENT, FORK]);
    expect(counted.get(PARENT)?.tokens).toEqual(PARENT_TOKENS);
    expect(counted.get(FORK)?.tokens).toEqual(FORK_OWN_TOKENS);
    // The fork typed the same words as the parent's later turn: still its own prompt.
    expect(counted.get(FORK)?.prompts).toBe(1);
    expect(counted.get(FORK)?.replies).toBe(2);
  });

  it('counts the replay in the fork when its parent is not among the inputs', async () => {
    const counted = await countedTogether([FORK]);
    expect(counted.get(FORK)).toMatchObject({ tokens: { input: 1600, cacheRead: 3200, cacheWrite: 0, output: 165, reasoning: 25 }, prompts: 2 });
  });

  it('marks where a fork’s copied history starts', async () => {
    const fork = await read(FORK);
    expect(ofKind(fork, 'notice').find((n) => n.label === 'copied history')?.summary).toBe(`history copied from thread ${PARENT_ID}`);
    expect(ofKind(fork, 'prompt').map((p) => p.content)).toEqual([[{ type: 'text', text: 'Fix the failing test' }], [{ type: 'text', text: 'Now run the linter' }]]);
  });

  it('reads a spawned sub-agent as a sub-agent of its parent thread, with its own usage', async () => {
    const child = await read(CHILD);
    expect(child).toMatchObject({ subagentOf: PARENT_ID, subagentLabel: 'Darwin', parentSessionId: null, subagentId: '0195aaaa-0000-7000-8000-000000000003' });
    expect(tokensOf(child.entries)).toEqual({ input: 300, cacheRead: 0, cacheWrite: 0, output: 20, reasoning: 0 });
  });

  // Regression: only thread_spawn was taken for a sub-agent; a review, compaction or other thread's
  // task counted as a prompt you typed, and its usage not as sub-agent spend.
  it.each([['review', 'review'], ['compact', 'compaction'], [{ other: 'guardian' }, 'guardian']])('reads a %j sub-agent thread, which names no parent, as a sub-agent with no main transcript', async (subagent, label) => {
    const id = '019a0000-0000-7000-8000-000000000251';
    const at = (s: number) => `2026-05-13T11:00:0${s}.000Z`;
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id, timestamp: at(0), cwd: '/proj/o', originator: 'codex-tui', cli_version: '0.125.0', source: { subagent }, model_provider: 'openai' } },
      { timestamp: at(1), type: 'turn_context', payload: { turn_id: 'r1', cwd: '/proj/o', model: 'gpt-5' } },
      { timestamp: at(2), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Review the diff' }] } },
      { timestamp: at(2), type: 'event_msg', payload: { type: 'user_message', message: 'Review the diff' } },
      { timestamp: at(3), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looks fine.' }] } },
      { timestamp: at(4), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 }, last_token_usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 } } } },
    ];
    const path = join(await tempDir(), `rollout-2026-05-13T11-00-00-${id}.jsonl`);
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect(file).toMatchObject({ subagentOf: id, subagentLabel: label, subagentId: null });
    const ledger = ledgerOf(file);
    expect(ledger.title).toContain(label);
    expect(unpackEntries(ledger.entries).filter((e) => e.turn === 'prompt')).toEqual([]);
    // One forked from a thread is that thread's sub-agent (regression: "no main transcript", beside it).
    await writeFile(path, `${[{ ...lines[0], payload: { ...lines[0]?.payload, forked_from_id: PARENT_ID } }, ...lines.slice(1)].map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(await read(path)).toMatchObject({ subagentOf: PARENT_ID, parentSessionId: PARENT_ID });
  });

  // Regressions: a ghost_snapshot item was shown as a raw block in an "aborted" reply the model
  // never gave; a tool search's output lost the tools it found, and its call was shown as raw JSON.
  it('skips a ghost_snapshot item, and pairs a tool search with the tools it found', async () => {
    const id = '019a0000-0000-7000-8000-000000000021';
    const at = (s: number) => `2026-03-10T10:00:0${s}.000Z`;
    const item = (s: number, payload: object) => ({ timestamp: at(s), type: 'response_item', payload });
    const event = (s: number, payload: object) => ({ timestamp: at(s), type: 'event_msg', payload });
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id, timestamp: at(0), cwd: '/tmp/proj', originator: 'codex_cli_rs', cli_version: '0.50.0', source: 'cli', model_provider: 'openai' } },
      { timestamp: at(1), type: 'turn_context', payload: { turn_id: 't1', cwd: '/tmp/proj', model: 'gpt-5' } },
      item(2, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'find a tool' }] }),
      event(2, { type: 'user_message', message: 'find a tool', images: [] }),
      item(3, { type: 'ghost_snapshot', ghost_commit: { id: '0123', parent: '89ab', preexisting_untracked_files: [], preexisting_untracked_dirs: [] } }),
      item(4, { type: 'tool_search_call', call_id: 'ts1', status: 'completed', execution: 'client', arguments: { query: 'calendar' } }),
      item(5, { type: 'tool_search_output', call_id: 'ts1', status: 'completed', execution: 'client', tools: [{ type: 'function', name: 'create_event', description: 'Adds an event' }] }),
      event(6, { type: 'turn_aborted', turn_id: 't1', reason: 'interrupted' }),
    ];
    const path = join(await tempDir(), `rollout-2026-03-10T10-00-00-${id}.jsonl`);
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect(file.entries.flatMap((e) => ('content' in e && Array.isArray(e.content) ? e.content : [])).filter((b) => b.type === 'unknown')).toEqual([]);
    const [result] = ofKind(file, 'toolResult');
    expect(result).toMatchObject({ toolCallId: 'ts1', toolName: 'tool_search', content: [{ type: 'text', text: 'create_event: Adds an event' }] });
    expect(ofKind(file, 'reply').flatMap((r) => r.content).map((b) => b.type)).toEqual(['toolCall']);
  });

  // Found by a review that killed Codex 0.171 mid-turn (SIGTERM): the turn's prompt was followed by
  // the next with nothing said; Ctrl-C's turn says how it ended. A sub-agent's turn, which starts
  // inside its parent's (whose start its replay copies), is no such turn.
  it('says a turn ended without its end recorded, where the next begins, but not a sub-agent’s turn begun in its parent’s', async () => {
    const id = '019a0000-0000-7000-8000-000000000031';
    const at = (s: number) => `2026-03-11T10:00:0${s}.000Z`;
    const item = (s: number, payload: object) => ({ timestamp: at(s), type: 'response_item', payload });
    const event = (s: number, payload: object) => ({ timestamp: at(s), type: 'event_msg', payload });
    const started = (s: number, turn: string, parent: string | null) => event(s, { type: 'task_started', turn_id: turn, turn_attribution: { turn_id: turn, turn_trigger: 'exec', parent_turn_id: parent } });
    const typed = (s: number, turn: string, text: string) => [
      { timestamp: at(s), type: 'turn_context', payload: { turn_id: turn, cwd: '/tmp/proj', model: 'gpt-5' } },
      item(s, { type: 'message', role: 'user', content: [{ type: 'input_text', text }], internal_chat_message_metadata_passthrough: { turn_id: turn, content_item_kinds: ['user.text'] } }),
    ];
    const meta = { timestamp: at(0), type: 'session_meta', payload: { id, timestamp: at(0), cwd: '/tmp/proj', originator: 'codex_exec', cli_version: '0.171.0', source: 'exec', model_provider: 'openai' } };
    const lines = [
      meta,
      started(1, 't1', null),
      ...typed(1, 't1', 'first, killed'),
      started(3, 't2', null),
      ...typed(3, 't2', 'second'),
      item(4, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
      event(5, { type: 'task_complete', turn_id: 't2' }),
      started(6, 't3', 't2x'),
      ...typed(6, 't3', 'third'),
      started(7, 't4', 't3'),
      ...typed(7, 't4', 'a sub-agent’s task'),
      event(8, { type: 'task_complete', turn_id: 't4' }),
    ];
    const path = join(await tempDir(), `rollout-2026-03-11T10-00-00-${id}.jsonl`);
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    const shown = file.entries.flatMap((e) => (e.kind === 'prompt' ? [`prompt ${e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')}`] : e.kind === 'notice' && e.label === 'interrupted' ? [`notice ${e.summary}`] : []));
    expect(shown).toEqual(['prompt first, killed', 'notice turn ended without its end recorded: Codex stopped during it (killed, or it crashed)', 'prompt second', 'prompt third', 'prompt a sub-agent’s task']);
    // A sub-agent's replay of that history (its parent's killed turn copied, not its reply): the
    // parent's page says it, not the sub-agent's (a review found it said there, unbadged).
    const childId = '019a0000-0000-7000-8000-000000000032';
    const child = [
      { ...meta, payload: { ...meta.payload, id: childId, forked_from_id: id, parent_thread_id: id } },
      meta,
      started(1, 't1', null),
      ...typed(1, 't1', 'first, killed'),
      started(3, 't2', null),
      ...typed(3, 't2', 'second'),
      started(4, 'c1', 't2'),
      ...typed(4, 'c1', 'the sub-agent’s task'),
      event(5, { type: 'task_complete', turn_id: 'c1' }),
    ];
    const childPath = join(await tempDir(), `rollout-2026-03-11T10-00-00-${childId}.jsonl`);
    await writeFile(childPath, `${child.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect((await read(childPath)).entries.filter((e) => e.kind === 'notice' && e.label === 'interrupted')).toEqual([]);
    // A user's fork of it: its own turns begin inside none, and its process says its own settings
    // first; its own killed turn is said (a hostile look found the replay never over in such a file).
    const forkId = '019a0000-0000-7000-8000-000000000033';
    const fork = [
      { ...meta, payload: { ...meta.payload, id: forkId, forked_from_id: id } },
      meta,
      started(1, 't1', null),
      ...typed(1, 't1', 'first, killed'),
      event(2, { type: 'thread_settings_applied', thread_id: forkId, thread_settings: { model: 'gpt-5' } }),
      started(3, 'f1', null),
      ...typed(3, 'f1', 'the fork’s own, killed'),
      started(4, 'f2', null),
      ...typed(4, 'f2', 'the fork’s next'),
      event(5, { type: 'task_complete', turn_id: 'f2' }),
    ];
    const forkPath = join(await tempDir(), `rollout-2026-03-11T10-00-00-${forkId}.jsonl`);
    await writeFile(forkPath, `${fork.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const forkShown = (await read(forkPath)).entries.flatMap((e) => (e.kind === 'prompt' ? [`prompt ${e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')}`] : e.kind === 'notice' && e.label === 'interrupted' ? ['notice'] : []));
    expect(forkShown).toEqual(['prompt first, killed', 'prompt the fork’s own, killed', 'notice', 'prompt the fork’s next']);
  });

  it('counts everything in a Codex home once: thread, archived copy, fork, sub-agent, legacy file', async () => {
    const counted = await countedTogether([PARENT, ARCHIVED, FORK, CHILD, LEGACY]);
    expect(total(counted)).toEqual({ input: 1600 + 400 + 300, cacheRead: 2900 + 1100, cacheWrite: 0, output: 150 + 45 + 20, reasoning: 30 });
  });

  it('never merges two unrelated threads whose totals happen to match', async () => {
    const counted = await countedTogether(TWINS);
    expect(total(counted)).toEqual({ input: 1600, cacheRead: 400, cacheWrite: 0, output: 100, reasoning: 20 });
  });
});

describe('Codex files that are odd or old', () => {
  it('survives the traps of the token stream and a cut-off last line', async () => {
    const file = await read(TRAPS);
    // 1000 + a restart counted by its own response (400) + 500 more from the new baseline; "context full" and token_usage_record ignored.
    expect(tokensOf(file.entries)).toEqual({ input: 1800, cacheRead: 100, cacheWrite: 0, output: 160, reasoning: 0 });
    expect(file.diagnostics.map((d) => d.reason).sort()).toEqual(['truncated-line', 'unknown-entry-type']);
  });

  it('counts each response’s own usage when the running totals hold no count (regression: all-null totals dropped the usage, unsaid)', async () => {
    const path = join(await tempDir(), 'rollout-2026-04-03T10-00-00-0195aaaa-0000-7000-8000-00000000000e.jsonl');
    const counts = (input: number | null, output: number | null) => ({ input_tokens: input, cached_input_tokens: input === null ? null : 0, output_tokens: output, reasoning_output_tokens: input === null ? null : 0, total_tokens: input === null ? null : input + (output ?? 0) });
    const tokenCount = (s: number, input: number) => ({ timestamp: `2026-04-03T10:00:0${s}.000Z`, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: counts(null, null), last_token_usage: counts(input, 10) } } });
    const lines = [
      { timestamp: '2026-04-03T10:00:00.000Z', type: 'session_meta', payload: { id: '0195aaaa-0000-7000-8000-00000000000e', timestamp: '2026-04-03T10:00:00.000Z', cwd: '/home/ana/nulls', originator: 'codex_cli_rs', cli_version: '0.50.0', model_provider: 'openai' } },
      { timestamp: '2026-04-03T10:00:00.100Z', type: 'turn_context', payload: { cwd: '/home/ana/nulls', model: 'gpt-5' } },
      { timestamp: '2026-04-03T10:00:00.200Z', type: 'event_msg', payload: { type: 'user_message', message: 'Count these.' } },
      tokenCount(1, 1000),
      tokenCount(2, 2000),
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(tokensOf((await read(path)).entries)).toEqual({ input: 3000, cacheRead: 0, cacheWrite: 0, output: 20, reasoning: 0 });
  });

  it('reads a pre-envelope rollout: typed prompt, one reply, no usage', async () => {
    const file = await read(LEGACY);
    expect(file).toMatchObject({ sessionId: '0195aaaa-0000-7000-8000-000000000009', formatVersion: 1, cwd: null, diagnostics: [] });
    expect(ofKind(file, 'prompt').map((p) => p.content)).toEqual([[{ type: 'text', text: 'Hello from 2025' }]]);
    expect(ofKind(file, 'notice').map((n) => n.summary)).toEqual(['environment context']);
    expect(texts(file)).toEqual(['Hi. One file: a.txt.']);
    expect(ofKind(file, 'toolResult').map((r) => [r.toolName, r.isError, r.content])).toEqual([['shell', false, [{ type: 'text', text: 'a.txt\n' }]]]);
    expect(file.entries.flatMap((e) => e.usage)).toEqual([]);
    expect(JSON.stringify(file.entries)).not.toContain('ENCRYPTED-MUST-NOT-RENDER');
  });

  it('does not take Codex’s side files for sessions', async () => {
    for (const side of ['session_index.jsonl', 'history.jsonl']) {
      expect((await readSessionFile(join(HOME, side))).kind).toBe('skipped');
    }
  });

  // Regression (a hostile look): a Codex home given as an input said "2 files skipped", its index
  // and prompt history listed on the data-quality page as files that are not sessions.
  it('does not list Codex’s side files as files found, when a Codex home is given', async () => {
    const summary = (await build({ inputs: [HOME], out: join(await tempDir(), 'r'), scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z'), cache: false })).summary;
    expect(summary.diagnostics.items.map((item) => item.file).filter((file) => /session_index|history/.test(file))).toEqual([]);
    expect(summary.diagnostics.skippedFiles).toBe(0);
  });

  it('recognises Codex records only', () => {
    expect(codexReader.recognise({ timestamp: 't', type: 'session_meta', payload: { id: 'x' } })).toBe('header');
    expect(codexReader.recognise({ id: 'x', timestamp: '2025-08-01T00:00:00Z', instructions: null })).toBe('header');
    expect(codexReader.recognise({ timestamp: 't', type: 'event_msg', payload: { type: 'user_message' } })).toBe('record');
    // Pi's header and entries, Claude Code's records, Codex's index lines.
    expect(codexReader.recognise({ type: 'session', id: 'x', timestamp: 't', cwd: '/' })).toBeNull();
    expect(codexReader.recognise({ type: 'message', id: 'a', parentId: null, timestamp: 't', message: {} })).toBeNull();
    expect(codexReader.recognise({ type: 'user', uuid: 'u', parentUuid: null, sessionId: 's', timestamp: 't', message: {} })).toBeNull();
    expect(codexReader.recognise({ id: 'x', thread_name: 'n', updated_at: 't' })).toBeNull();
  });

  it('rebuilds the identity of a rollout whose session_meta is missing from its file name', async () => {
    const { readCodexSession } = await import('../src/sources/codex/read.js');
    const lines = (async function* () {})();
    const first = { line: 1, records: [{ timestamp: '2026-03-02T10:00:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'hi' } }], clean: true };
    const file = await readCodexSession({ path: '/x/rollout-2026-03-02T11-00-00-0195aaaa-0000-7000-8000-0000000000ff.jsonl', size: 1, mtime: 0, lines, diagnostics: new FileDiagnostics(), damaged: [], first, headerless: true });
    expect(file.sessionId).toBe('0195aaaa-0000-7000-8000-0000000000ff');
    expect(file.diagnostics.map((d) => d.reason)).toEqual(['header-damaged']);
    expect(ofKind(file, 'prompt')).toHaveLength(1);
  });

  it('looks for sessions in CODEX_HOME (several allowed) or ~/.codex, active and archived', () => {
    expect(codexReader.defaultPlaces({ env: {}, home: '/h' })).toEqual(['/h/.codex/sessions', '/h/.codex/archived_sessions']);
    expect(codexReader.defaultPlaces({ env: { CODEX_HOME: '/a, ~/b' }, home: '/h' })).toEqual(['/a/sessions', '/a/archived_sessions', '/h/b/sessions', '/h/b/archived_sessions']);
  });

  it('prices OpenAI models bare, and other providers under their own prefix first', () => {
    expect(codexReader.priceHint('openai', new Set())).toEqual({ prefixes: ['', 'openai/'], subscription: false, local: false, localByAddress: false, cacheWritesInInput: true });
    expect(codexReader.priceHint('azure', new Set())).toMatchObject({ prefixes: ['azure/', '', 'openai/'] });
    // Configured at this machine's address (perhaps a proxy); `oss` is Codex's own Ollama.
    expect(codexReader.priceHint('lms', new Set(['lms']))).toMatchObject({ local: true, localByAddress: false });
    expect(codexReader.priceHint('openai', new Set(['openai']))).toMatchObject({ local: true, localByAddress: true });
    expect(codexReader.priceHint('oss', new Set())).toMatchObject({ local: true, localByAddress: false });
  });
});

describe('a rollout that ends between a prompt’s item and its event', () => {
  // Regression: a file cut there (a copy taken while Codex wrote the words the user sent and not
  // yet their user_message event, or a crash) showed its last prompt as "injected context", and
  // counted one prompt fewer; the words after an IDE's context were shown as that context.
  it.for([
    ['words alone', 'rename foo to bar', ['prompt']],
    ['the IDE’s context', '# Context from my IDE setup:\n\n## Active file: src/a.ts\n\n## My request for Codex:\nrename foo to bar', ['notice', 'prompt']],
  ] as const)('ends with that prompt: %s', async ([, words, kinds]) => {
    const id = '019e6000-0000-7000-8000-000000000044';
    const at = (s: number) => new Date(Date.UTC(2026, 6, 2, 8, 0, s)).toISOString();
    const line = (s: number, type: string, payload: object) => JSON.stringify({ timestamp: at(s), type, payload });
    const lines = [
      line(0, 'session_meta', { id, timestamp: at(0), cwd: '/work/midpair', originator: 'codex_cli_rs', cli_version: '0.125.0', source: 'cli' }),
      line(0, 'turn_context', { turn_id: 't1', cwd: '/work/midpair', model: 'gpt-5', approval_policy: 'never', sandbox_policy: { type: 'read-only' } }),
      line(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'prompt 0' }] }),
      line(1, 'event_msg', { type: 'user_message', message: 'prompt 0', images: [] }),
      line(2, 'event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 }, last_token_usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 } } }),
      line(2, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'reply 0' }] }),
      line(3, 'turn_context', { turn_id: 't2', cwd: '/work/midpair', model: 'gpt-5', approval_policy: 'never', sandbox_policy: { type: 'read-only' } }),
      line(4, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: words }] }),
    ];
    const path = join(await tempDir(), `rollout-2026-07-02T08-00-00-${id}.jsonl`);
    await writeFile(path, `${lines.join('\n')}\n`);
    const file = await read(path);
    expect(file.entries.filter((e) => e.kind === 'prompt')).toHaveLength(2);
    expect(file.entries.slice(-kinds.length).map((e) => e.kind)).toEqual(kinds);
    const last = file.entries.at(-1);
    expect(last?.kind === 'prompt' ? last.content : null).toEqual([{ type: 'text', text: 'rename foo to bar' }]);
  });
});

// Codex 0.169 writes no user_message event: a typed prompt is a role:user item marked as the
// user's own, a failed request only the turn's end with its error, fast mode a thread setting, and
// a review's parent beside its source. Found by an outside review that ran that Codex itself (all
// its prompts were "injected context", its sessions "(no prompts)"); fixtures/codex/v0169 follows
// what it wrote, record for record, much shortened.
describe('Codex 0.169 rollouts', () => {
  const V0169 = join(FIXTURES, 'codex', 'v0169');
  const summaryOf = async () => {
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await runCli(['build', V0169, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { diagnostics: { items: unknown[] }; sessions: { title: string; prompts: number; replies: number; errorReplies: number; page: string; cost: { bough: number | null }; subagentFiles: { label: string }[] }[] };
    return { summary, page: (session: { page: string }) => readFile(join(out, session.page), 'utf8') };
  };

  it('takes the items marked as typed by the user for its prompts, the injected ones for context, and says a turn that failed', async () => {
    const { summary, page } = await summaryOf();
    const cart = summary.sessions.find((s) => s.title === 'Add a price column to the cart');
    expect(cart).toMatchObject({ prompts: 2, replies: 2, errorReplies: 1 });
    const html = await page(cart as { page: string });
    // The API's own words, out of the JSON Codex wrote them in.
    expect(html).toContain('Rate limit reached for gpt-5.5');
    expect(html).not.toContain('{&quot;error&quot;');
    expect(html).toContain('injected context');
    expect(summary.diagnostics.items).toEqual([]);
  });

  it('prices a turn the thread set to fast mode at the priority tier’s rates, and the turns after it set back at standard ones', async () => {
    const { summary } = await summaryOf();
    const quick = summary.sessions.find((s) => s.title === 'Quick: rename the button');
    // 1,000 in and 100 out at gpt-5.5's priority rates ($10/M, $60/M), then at its standard ones ($5/M, $30/M).
    expect(quick?.cost.bough).toBeCloseTo(1000 * 10e-6 + 100 * 60e-6 + 1000 * 5e-6 + 100 * 30e-6, 9);
  });

  it('counts a review thread in the thread that started it, which it names only beside its source', async () => {
    const { summary } = await summaryOf();
    expect(summary.sessions).toHaveLength(3);
    const parent = summary.sessions.find((s) => s.subagentFiles.length > 0);
    expect(parent?.subagentFiles.map((f) => f.label)).toEqual(['review']);
    expect(parent?.cost.bough).toBeCloseTo(3000 * 5e-6 + 300 * 30e-6, 9);
  });

  // Found by a second review that ran Codex: `codex migrate-rollouts --apply` rewrites older
  // rollouts in place, each event of an item done (user_message, exec_command_end,
  // patch_apply_end) an item_completed, as 0.169 writes them: its prompts were lost ("(no
  // prompts)"), and a failed MCP call, which says so only there, was no failure.
  it('reads item_completed as the events it stands for: a typed prompt, a command’s exit, a patch applied or not, a failed MCP call', async () => {
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await runCli(['build', join(FIXTURES, 'codex', 'migrated'), '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { diagnostics: { items: unknown[] }; sessions: { title: string; prompts: number; tools: { calls: number; failures: number } }[] };
    expect(summary.sessions).toEqual([expect.objectContaining({ title: 'Fix the build', prompts: 1, tools: expect.objectContaining({ calls: 3, failures: 3 }) })]);
    expect(summary.diagnostics.items).toEqual([]);
  });

  // The same review: a 0.169 sub-agent's rollout opened with its tools' definitions as an
  // assistant's "block of type additional_tools" and some 16 kB of JSON.
  it('shows the tools 0.169 puts before the model as injected context naming them', async () => {
    const meta = { timestamp: '2026-05-06T10:00:00.000Z', type: 'session_meta', payload: { id: '0195cccc-0000-7000-8000-000000000009', timestamp: '2026-05-06T10:00:00.000Z', cwd: '/work/shop', cli_version: '0.169.0', model_provider: 'openai' } };
    const tools = { type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec', description: 'Run JavaScript' }, { type: 'function', name: 'wait', parameters: {} }] };
    const item = { timestamp: '2026-05-06T10:00:01.000Z', type: 'response_item', payload: { type: 'additional_tools', id: 'at_1', role: 'developer', tools: [tools] } };
    const path = join(await tempDir(), 'rollout-2026-05-06T10-00-00-0195cccc-0000-7000-8000-000000000009.jsonl');
    await writeFile(path, `${[meta, item].map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect(file.entries.map((e) => (e.kind === 'notice' ? [e.label, e.summary] : e.kind))).toEqual([['injected context', '2 tools made available: exec, wait']]);
  });

  // Regression (a review of the pages as a user reads them): a child whose meta names it by
  // nothing was "Sub-agent: sub-agent", three times on its parent's page, where the spawn_agent
  // call named its task.
  it('names a child its meta does not name by the task its spawn call gives, and never "Sub-agent: sub-agent"', async () => {
    const dir = join(await tempDir(), 'sessions');
    await mkdir(dir);
    const [parent, child] = ['0195cccc-0000-7000-8000-0000000000a1', '0195cccc-0000-7000-8000-0000000000a2'];
    const meta = (id: string, at: string, source: unknown) => ({ timestamp: at, type: 'session_meta', payload: { id, timestamp: at, cwd: '/work/shop', originator: 'codex_cli_rs', cli_version: '0.125.0', model_provider: 'openai', source } });
    const call = (task: string | null) => ({ timestamp: '2026-05-06T10:00:02.000Z', type: 'response_item', payload: { type: 'function_call', name: 'spawn_agent', arguments: JSON.stringify({ ...(task === null ? {} : { task_name: task }), message: 'Inspect fixtures.' }), call_id: 'call-1' } });
    const write = async (task: string | null) => {
      const lines = {
        [parent]: [meta(parent, '2026-05-06T10:00:00.000Z', 'cli'), { timestamp: '2026-05-06T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'look around' } }, call(task), { timestamp: '2026-05-06T10:00:03.000Z', type: 'event_msg', payload: { type: 'collab_tool_call', call_id: 'call-1', sender_thread_id: parent, new_thread_id: child, tool: 'spawn_agent' } }],
        [child]: [meta(child, '2026-05-06T10:00:03.000Z', { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1 } } }), { timestamp: '2026-05-06T10:00:04.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'Inspect fixtures.' } }],
      };
      for (const [id, records] of Object.entries(lines)) await writeFile(join(dir, `rollout-2026-05-06T10-00-00-${id}.jsonl`), `${records.map((l) => JSON.stringify(l)).join('\n')}\n`);
      const out = join(await tempDir(), 'report');
      const { code, stderr } = await runCli(['build', dir, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
      expect(code, stderr).toBe(0);
      const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { page: string }[] };
      return readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    };
    const named = await write('synthetic_researcher');
    expect(named).toContain('<h2>Sub-agent: synthetic_researcher</h2>');
    expect(named).not.toContain('Sub-agent: sub-agent');
    const unnamed = await write(null);
    expect(unnamed).toContain('<h2>Sub-agent</h2>');
    expect(unnamed).not.toContain('Sub-agent: sub-agent');
  });

  // Found by a review that ran Codex 0.169 with `--enable multi_agent_v2`: its spawn_agent
  // output names only the task's path, so no call linked to the child it started, the child was
  // titled by a nickname the calls never use, and the child's answer (and its task) showed as the
  // model's own reply, a folded "block of type agent_message" of JSON.
  it('links a second-version spawn_agent call to its child, names the child by its task, and shows messages between agents as what they are', async () => {
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await runCli(['build', join(FIXTURES, 'codex', 'multi-agent-v2'), '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { prompts: number; replies: number; page: string; cost: { bough: number }; subagentFiles: { label: string; usage: { cost: { bough: number } } }[] }[] };
    expect(summary.sessions).toHaveLength(1);
    const [session] = summary.sessions;
    expect(session).toMatchObject({ prompts: 1, replies: 3 });
    expect(session?.subagentFiles).toEqual([expect.objectContaining({ label: 'alpha (Copernicus)' })]);
    expect(session?.subagentFiles[0]?.usage.cost.bough).toBeCloseTo(500 * 5e-6 + 5 * 30e-6, 9);
    expect(session?.cost.bough).toBeCloseTo(4100 * 5e-6 + 45 * 30e-6, 9);
    const html = await readFile(join(out, session?.page ?? ''), 'utf8');
    expect(html).toMatch(/transcript: <a href="#subagent-1">Sub-agent: alpha \(Copernicus\)<\/a>/);
    expect(html).toMatch(/Started by <a href="#[^"]+">the spawn_agent call<\/a>/);
    expect(html).toContain('final answer from /root/alpha');
    expect(html).toContain('new task from /root');
    expect(html).toContain('(the rest of this message is encrypted)');
    expect(html).not.toContain('agent_message');
    expect(html).not.toContain('gAAAAB-opaque');
  });

  // The same review: 0.169 writes the summariser's answer as an assistant message before the
  // compaction: it was a third reply to two prompts, and its words were shown twice.
  it('takes the assistant message a 0.169 compaction summarises for its summary, not a reply, and counts its usage', async () => {
    const { code, stdout, stderr } = await runCli(['stats', join(FIXTURES, 'codex', 'v0169-compaction'), '--json', '--tz', 'UTC', '--no-cache']);
    expect(code, stderr).toBe(0);
    const { totals } = JSON.parse(stdout) as { totals: { prompts: number; replies: number; usageRecords: number; tokens: { input: number; output: number } } };
    expect(totals).toMatchObject({ prompts: 2, replies: 2, usageRecords: 3, tokens: { input: 27_100, output: 117 } });
    // A reply of the user's whose words a summary merely ends with stays a reply.
    const folder = join(await tempDir(), 'sessions');
    await mkdir(folder);
    const [name] = await readdir(join(FIXTURES, 'codex', 'v0169-compaction'));
    const text = (await readFile(join(FIXTURES, 'codex', 'v0169-compaction', name as string), 'utf8')).replace('SUMMARY OF WORK SO FAR: the cart has a price column."', 'Added."').replace(/\\n(SUMMARY OF WORK SO FAR: the cart has a price column\.)"/, ' $1 Added."');
    await writeFile(join(folder, name as string), text);
    const again = await runCli(['stats', folder, '--json', '--tz', 'UTC', '--no-cache']);
    expect((JSON.parse(again.stdout) as { totals: { replies: number } }).totals.replies).toBe(3);
    // Nor one whose words are the summary's last line (a hostile look: "All 42 tests pass." was lost).
    await writeFile(join(folder, name as string), text.replace(' SUMMARY OF WORK SO FAR: the cart has a price column. Added."', '\\nSUMMARY OF WORK SO FAR: the cart has a price column.\\nAdded."'));
    const lastLine = await runCli(['stats', folder, '--json', '--tz', 'UTC', '--no-cache']);
    expect((JSON.parse(lastLine.stdout) as { totals: { replies: number } }).totals.replies).toBe(3);
  });
});

// A review of the Codex reader against codex-rs and real rollouts (a Codex review): calls that
// failed in the words codex-rs gives the model, patches run through the shell, MCP errors, long
// Windows paths and web searches, as the totals and pages told them.
describe('a Codex review of tool outcomes, projects and searches', () => {
  const ID = '0195aaaa-0000-7000-8000-0000000000d1';
  /**
   * A thread of one typed prompt, then these records (each an item, response_item, or an event,
   * event_msg) and a response's usage (unless `usage` is false: the records end the file), built
   * into a report: what summary.json says of its session, and the session's page.
   */
  const built = async (records: ({ item: object } | { event: object })[], { usage: counted = true } = {}) => {
    const dir = join(await tempDir(), 'sessions');
    await mkdir(dir);
    const at = (n: number) => `2026-06-06T10:00:${String(n).padStart(2, '0')}.000Z`;
    const usage = { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 };
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id: ID, timestamp: at(0), cwd: '/home/ana/app', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
      { timestamp: at(0), type: 'turn_context', payload: { turn_id: 't1', cwd: '/home/ana/app', model: 'gpt-5' } },
      { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
      { timestamp: at(1), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } },
      ...records.map((record, i) => ('item' in record ? { timestamp: at(i + 2), type: 'response_item', payload: record.item } : { timestamp: at(i + 2), type: 'event_msg', payload: record.event })),
      ...(counted ? [{ timestamp: at(59), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage } } }] : []),
    ];
    await writeFile(join(dir, `rollout-2026-06-06T10-00-00-${ID}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(dirname(dir), 'report');
    const { code, stderr } = await runCli(['build', dir, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    const [session] = summary.sessions;
    if (!session) throw new Error('no session built');
    return { session, page: await readFile(join(out, session.page), 'utf8') };
  };
  const call = (id: string, name: string, args: object) => ({ item: { type: 'function_call', call_id: id, name, arguments: JSON.stringify(args) } });
  const output = (id: string, text: string) => ({ item: { type: 'function_call_output', call_id: id, output: text } });

  // Regression (a Codex review): a patch codex-rs did not apply, its output "apply_patch
  // verification failed: Failed to find expected lines in …" or "patch rejected by user" (no
  // patch_apply_end after it), counted as an edit: its file touched, its lines added and removed.
  it('counts a patch Codex could not verify, or the user rejected, as a failed call that touched no file', async () => {
    const { session } = await built([
      { item: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const a = 1;\n+const a = 2;\n+const b = 3;\n*** End Patch' } },
      { item: { type: 'custom_tool_call_output', call_id: 'p1', output: 'apply_patch verification failed: Failed to find expected lines in /home/ana/app/src/a.ts:\nconst a = 1;' } },
      call('p2', 'apply_patch', { input: '*** Begin Patch\n*** Add File: secrets.txt\n+x\n*** End Patch' }),
      output('p2', 'patch rejected by user'),
      // A patch applied, and a command whose own output quotes such words: neither failed.
      { item: { type: 'custom_tool_call', call_id: 'p3', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/ok.ts\n@@\n-x\n+y\n*** End Patch' } },
      { item: { type: 'custom_tool_call_output', call_id: 'p3', output: 'Success. Updated the following files:\nM src/ok.ts' } },
      call('e1', 'exec_command', { cmd: 'grep -r "verification failed" logs' }),
      output('e1', 'Chunk ID: 1a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nlogs/a.log:apply_patch verification failed: Failed to find expected lines\npatch rejected by user'),
    ]);
    expect(session.tools).toEqual({ calls: 4, failures: 2, filesTouched: 1, linesAdded: 1, linesRemoved: 1, commits: 0, failedCommits: 0 });
  });

  // Regression (a Codex review): a shell result in codex-rs's freeform form ("Exit code: 1\nWall
  // time: …\nOutput:\n…", of shell_command and the freeform shell) was never a failure, and a git
  // commit whose result said exit code 128, or "exec command rejected by user", was reported as a
  // commit that landed.
  it('takes a freeform shell result’s exit code and a declined command for failures, and their commits for commits that did not land', async () => {
    const { session } = await built([
      call('c1', 'shell_command', { command: 'npm test', workdir: '/home/ana/app' }),
      output('c1', 'Exit code: 1\nWall time: 2.3 seconds\nOutput:\nFAIL src/a.test.ts\n  1 failing\n'),
      call('c2', 'shell', { command: ['bash', '-lc', "git commit -m 'wip'"], workdir: '/home/ana/app' }),
      output('c2', 'Exit code: 128\nWall time: 0.1 seconds\nOutput:\nfatal: not a git repository\n'),
      call('c3', 'exec_command', { cmd: "git commit -am 'x'" }),
      output('c3', 'exec command rejected by user'),
      // Failed as its exec_command_end says, its output naming no exit code.
      call('c4', 'exec_command', { cmd: "git commit -qm 'y'" }),
      output('c4', 'Chunk ID: 2b\nWall time: 0.2 seconds\nOutput:\nerror: pathspec did not match\n'),
      { event: { type: 'exec_command_end', call_id: 'c4', exit_code: 1 } },
      call('c5', 'shell_command', { command: "git commit -m 'done'" }),
      output('c5', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n[main 4c1e9b2] done\n 1 file changed\n'),
    ]);
    expect(session.tools).toMatchObject({ calls: 5, failures: 4, commits: 1, failedCommits: 3 });
  });
  // Regression (a hostile look at damaged input): a line written twice over (a writer's retry)
  // counted its prompt twice, unsaid; the same damage in Pi is read once and named.
  it('reads a line written twice over once, and says so', async () => {
    const dir = await tempDir();
    const at = (n: number) => `2026-06-06T10:00:0${n}.000Z`;
    const usage = { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 };
    const prompt = { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: 'go' } };
    const reply = { timestamp: at(2), type: 'event_msg', payload: { type: 'agent_message', message: 'done' } };
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id: ID, timestamp: at(0), cwd: '/home/ana/app', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
      { timestamp: at(0), type: 'turn_context', payload: { turn_id: 't1', cwd: '/home/ana/app', model: 'gpt-5' } },
      prompt,
      prompt,
      reply,
      reply,
      { timestamp: at(3), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage } } },
    ];
    const path = join(dir, `rollout-2026-06-06T10-00-00-${ID}.jsonl`);
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const file = await read(path);
    expect(ofKind(file, 'prompt')).toHaveLength(1);
    expect(texts(file)).toEqual(['done']);
    expect(file.diagnostics.map((d) => [d.line, d.detail])).toEqual([
      [4, 'the line before written again as it was: read once'],
      [6, 'the line before written again as it was: read once'],
    ]);
  });

  // Regression (a Codex review): an MCP call that failed, its output the server's result written
  // whole (`{"content":[{"type":"text","text":"401 Bad credentials"}],"isError":true}`), was no
  // failure, and its page showed that JSON.
  it('shows an MCP tool’s failed result as an error in its own words', async () => {
    const { session, page } = await built([
      call('m1', 'mcp__github__create_issue', { title: 'x' }),
      output('m1', JSON.stringify({ content: [{ type: 'text', text: '401 Bad credentials' }], isError: true })),
      call('m2', 'mcp__github__list_issues', {}),
      output('m2', JSON.stringify({ content: [{ type: 'text', text: '#1 crash on start' }] })),
      // A server's words that happen to be codex-rs's for a failure are the server's, which says it did not fail.
      call('m3', 'mcp__ci__last_run', {}),
      output('m3', JSON.stringify({ content: [{ type: 'text', text: 'execution error: none in the last run' }], isError: false })),
    ]);
    expect(session.tools).toMatchObject({ calls: 3, failures: 1 });
    expect(page).toMatch(/<li class="entry kind-toolResult status-error"[^>]*>\n<div class="entry-head">\n[^\n]*mcp__github__create_issue[^\n]*tone-error">error<\/span>[^\n]*\n<pre class="output">401 Bad credentials<\/pre>/);
    expect(page).toContain('<pre class="output">#1 crash on start</pre>');
    expect(page).not.toContain('isError');
  });
  // Regression (a Codex review): a patch the model ran through exec_command or the shell tool as a
  // heredoc (`apply_patch <<'PATCH'`, `["bash", "-lc", "cd web && apply_patch <<'EOF' …"]`), which
  // codex-rs applies itself, listed no file touched; and the warning Codex then records as a user
  // message ("Warning: apply_patch was requested via exec_command. …"), as the file's last line,
  // was counted as a prompt the user typed.
  it('lists the files a patch run as a heredoc touched, and takes Codex’s warning about it for no prompt', async () => {
    const warning = { item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Warning: apply_patch was requested via exec_command. Use the apply_patch tool instead of exec_command.' }] } };
    const { session, page } = await built(
      [
        call('p1', 'exec_command', { cmd: "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const a = 1;\n+const a = 2;\n*** End Patch\nPATCH\n", workdir: '/home/ana/app' }),
        warning,
        output('p1', 'Chunk ID: 3c\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\nSuccess. Updated the following files:\nM src/app.ts\n'),
        call('p2', 'shell', { command: ['bash', '-lc', "cd web && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/b.ts\n+export {};\n*** End Patch\nEOF"], workdir: '/home/ana/app' }),
        output('p2', JSON.stringify({ output: 'Success. Updated the following files:\nA src/b.ts\n', metadata: { exit_code: 0, duration_seconds: 0 } })),
        call('p3', 'exec_command', { cmd: "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const a = 2;\n+const a = 3;\n*** End Patch\nPATCH\n" }),
        warning,
      ],
      { usage: false },
    );
    expect(session.tools).toMatchObject({ calls: 3, failures: 0, filesTouched: 2, linesAdded: 2, linesRemoved: 1 });
    expect(page).toContain('<td class="path">src/app.ts</td><td>edit 2</td>');
    expect(page).toContain('<td class="path">web/src/b.ts</td><td>edit 1</td>');
    expect(session.prompts).toBe(1);
  });
  // Regression (a Codex review): the web searches a Codex response ran (web_search_call items)
  // were never counted (webSearches 0, as if none), unlike Claude Code's, and a search of several
  // queries (`action.queries`) was shown by its first one only. The price table has no price per
  // search for OpenAI's models: its records are priced in part, their tokens' cost as before.
  it('counts the web searches a response ran, as Claude Code’s are, and shows every query of one', async () => {
    const search = (id: string, action: object) => ({ item: { type: 'web_search_call', id, status: 'completed', action } });
    const { session, page } = await built([
      search('ws1', { type: 'search', query: 'vite ssr externals', queries: ['vite ssr externals', 'vite ssr.noExternal default'] }),
      search('ws2', { type: 'search', query: 'rollup treeshake side effects' }),
      // A page the search opened is no search.
      search('ws3', { type: 'open_page', url: 'https://vite.dev/config/ssr-options' }),
    ]);
    expect(session).toMatchObject({ usageRecords: 1, webSearches: 2, cost: { bough: 0.00225 }, unpricedModels: ['openai/gpt-5'] });
    expect(page).toContain('vite ssr externals · vite ssr.noExternal default');
  });
});
