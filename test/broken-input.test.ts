// Damaged files as they occur for real: each good entry around the damage is kept, and each bad
// line is counted with file, line and reason.

import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { buildTree } from '../src/model/tree.js';
import { checkedAndShared } from '../src/reading/read-ledger.js';
import { readLines } from '../src/sources/lines.js';
import { readSessionFile } from '../src/sources/read.js';
import type { SessionFile } from '../src/types.js';
import { ALL_UTC, FIXTURES, reportOf, tempDir } from './support/fixtures.js';

const header = (id: string) =>
  JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-10-21T09:00:00.000Z', cwd: '/home/ana/p' });
/** A Pi message line, its time the second its id ends with. */
const messageLine = (id: string, parent: string | null, message: object) =>
  JSON.stringify({ type: 'message', id, parentId: parent, timestamp: `2026-10-21T09:00:0${id.at(-1)}.000Z`, message });
const prompt = (id: string, parent: string | null, text: string) => messageLine(id, parent, { role: 'user', content: text });
const reply = (id: string, parent: string, text: string) =>
  messageLine(id, parent, { role: 'assistant', content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 1, output: 1 }, stopReason: 'stop' });

async function fileOf(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, bytes);
  return path;
}

async function session(path: string): Promise<SessionFile> {
  const outcome = await readSessionFile(path);
  if (outcome.kind !== 'session') throw new Error(`not read as a session: ${JSON.stringify(outcome.diagnostics)}`);
  return outcome.file;
}

const texts = (file: SessionFile) =>
  file.entries.flatMap((e) => (e.kind === 'prompt' || e.kind === 'reply' ? e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : []));

describe('damaged input', () => {
  // Regression from a hostile-input review: past 50 damaged lines at its start, a file was put
  // aside as "not a session", its good records and their cost lost with it.
  it('reads a session after hundreds of damaged lines at its start, and counts them', async () => {
    const damage = '{broken\n'.repeat(300);
    const file = await session(await fileOf('after-damage.jsonl', `${damage}${[header('s1'), prompt('m1', null, 'hi'), reply('m2', 'm1', 'ok')].join('\n')}\n`));
    expect(texts(file)).toEqual(['hi', 'ok']);
    expect(file.diagnostics.filter((d) => d.skippedLine).reduce((n, d) => n + (d.count ?? 1), 0)).toBe(300);
    // A file of another kind is still put aside: no record an agent claims in its first records.
    const other = await readSessionFile(await fileOf('other.jsonl', `${'{"kind":"log"}\n'.repeat(60)}${header('s2')}\n`));
    expect(other.kind).toBe('skipped');
  });

  it('keeps the entries around a block of NUL bytes, as a crash on a preallocated disk leaves it', async () => {
    const nuls = Buffer.alloc(4096, 0);
    const path = await fileOf('nul.jsonl', Buffer.concat([Buffer.from(`${header('n')}\n${prompt('a1', null, 'before')}\n`), nuls, Buffer.from(`\n${reply('a2', 'a1', 'after')}\n`)]));
    const file = await session(path);
    expect(texts(file)).toEqual(['before', 'after']);
    expect(file.diagnostics.map((d) => [d.line, d.reason, d.skippedLine])).toEqual([[3, 'nul-bytes', true]]);
  });

  // Regression: the preview of a damaged line showed "…AKIAZQ…", the start of an AWS key id too
  // short for --redact to know.
  it('cuts the preview of a damaged line where a word ends, not inside a key', async () => {
    const start = '{"type":"message","note":"[Zq049] the deploy key is ';
    const damaged = `${start}${'x'.repeat(80 - start.length - 6)} AKIAZQFAKE7KEYQ9Z2W4 and more`;
    const file = await session(await fileOf('cut.jsonl', `${header('n')}\n${damaged}\n${prompt('a1', null, 'kept')}\n`));
    const detail = file.diagnostics.find((d) => d.line === 2)?.detail ?? '';
    expect(detail).toContain('the deploy key is x');
    expect(detail).not.toContain('AKIA');
    expect(texts(file)).toEqual(['kept']);
  });

  it('removes NUL bytes stuck before a record and keeps the record', async () => {
    const path = await fileOf('nul-prefix.jsonl', Buffer.concat([Buffer.from(`${header('n')}\n`), Buffer.alloc(10, 0), Buffer.from(`${prompt('a1', null, 'kept')}\n`)]));
    const file = await session(path);
    expect(texts(file)).toEqual(['kept']);
    expect(file.diagnostics.map((d) => [d.reason, d.detail])).toEqual([['nul-bytes', '10 NUL bytes removed']]);
    // One is one byte (a review: "1 NUL bytes removed").
    const one = await session(await fileOf('nul-one.jsonl', Buffer.concat([Buffer.from(`${header('n')}\n`), Buffer.alloc(1, 0), Buffer.from(`${prompt('a1', null, 'kept')}\n`)])));
    expect(one.diagnostics.map((d) => d.detail)).toEqual(['1 NUL byte removed']);
  });

  it('keeps a record with bytes that are not UTF-8, with U+FFFD in their place', async () => {
    const bad = Buffer.concat([Buffer.from(`${header('u')}\n${prompt('a1', null, 'caf').slice(0, -3)}`), Buffer.from([0xe9, 0xff]), Buffer.from(`"}}\n`)]);
    const file = await session(await fileOf('latin1.jsonl', bad));
    expect(texts(file)).toEqual(['caf\uFFFD\uFFFD']);
    expect(file.diagnostics.map((d) => [d.line, d.reason])).toEqual([[2, 'invalid-utf8']]);
  });

  it('rebuilds a header cut off by a crash, and keeps every entry after it', async () => {
    const file = await session(join(FIXTURES, 'broken', '2026-10-20T09-00-00-000Z_0196a000-0000-7000-8000-0000000000b1.jsonl'));
    expect(file).toMatchObject({ sessionId: '0196a000-0000-7000-8000-0000000000b1', cwd: null, formatVersion: 3, startedAt: Date.parse('2026-10-20T09:00:00.000Z') });
    expect(texts(file)).toEqual(['The header line above was cut off by a crash.', 'Every entry after it is still here.']);
    expect(file.diagnostics.map((d) => [d.line, d.reason])).toEqual([
      [1, 'truncated-line'],
      [1, 'header-damaged'],
      [1, 'header-missing-cwd'],
    ]);
  });

  // Regression: any line opening a brace it never closed was called cut off, the data-quality page
  // telling the user of a crash or a full disk where a line was written wrong.
  it('regression: a line written wrong was said to be cut off mid-record because it opened a brace it never closed', async () => {
    const cut = prompt('a2', 'a1', 'cut here').slice(0, 60);
    const file = await session(await fileOf('wrong.jsonl', `${header('w')}\n${prompt('a1', null, 'kept')}\n{synthetic malformed json\n{"type":"message","id":"a3",,\n${cut}\n${prompt('a4', 'a1', 'also kept')}\n`));
    expect(texts(file)).toEqual(['kept', 'also kept']);
    expect(file.diagnostics.filter((d) => d.skippedLine).map((d) => [d.line, d.reason])).toEqual([
      [3, 'invalid-json'],
      [4, 'invalid-json'],
      [5, 'truncated-line'],
    ]);
  });

  it('regression: a header out of shape (an id that is a number) was rebuilt from nothing, its cwd lost; now from what it holds', async () => {
    const bad = JSON.stringify({ type: 'session', version: 3, id: 12345, timestamp: '2026-10-05T10:00:00.000Z', cwd: '/home/u/projK' });
    const file = await session(await fileOf('k3.jsonl', `${bad}\n${prompt('a1', null, 'kept')}\n`));
    expect(file).toMatchObject({ cwd: '/home/u/projK', startedAt: Date.parse('2026-10-05T10:00:00.000Z') });
    expect(texts(file)).toEqual(['kept']);
    // Said once, as what it is (before: "unknown entry type 'session'" and "no readable header").
    expect(file.diagnostics.map((d) => [d.line, d.reason])).toEqual([[1, 'invalid-record']]);
  });

  // Regression: one field of the wrong type threw the whole header away: the session lost its
  // cwd (its project became "(unknown folder)") and its id, and the page listed "no cwd in the
  // session header" and "a second session header inside the file", both false.
  it.each([
    ['a time that is a list', { timestamp: [1] }, 'timestamp', null],
    ['a version that is true', { version: true }, 'version', Date.parse('2026-10-05T10:00:00.000Z')],
    ['an empty id', { id: '' }, 'id', Date.parse('2026-10-05T10:00:00.000Z')],
    ['an id that is a number', { id: 12345 }, 'id', Date.parse('2026-10-05T10:00:00.000Z')],
    ['an id that is null', { id: null }, 'id', Date.parse('2026-10-05T10:00:00.000Z')],
  ])('keeps the rest of a header with %s', async (_, change, field, startedAt) => {
    const bad = JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2026-10-05T10:00:00.000Z', cwd: '/home/u/projK', ...change });
    const file = await session(await fileOf('k4.jsonl', `${bad}\n${prompt('a1', null, 'kept')}\n${reply('a2', 'a1', 'and this')}\n`));
    expect(file).toMatchObject({ cwd: '/home/u/projK', sessionId: field === 'id' ? 'k4' : 's1', formatVersion: 3 });
    if (startedAt !== null) expect(file.startedAt).toBe(startedAt);
    expect(texts(file)).toEqual(['kept', 'and this']);
    expect(file.entries.map((e) => [e.id, e.parentId])).toEqual([['a1', null], ['a2', 'a1']]);
    expect(file.diagnostics.filter((d) => d.reason !== 'no-time').map((d) => [d.line, d.reason, d.detail])).toEqual([[1, 'invalid-record', `session header: ${field} not as the format has it (kept without it)`]]);
  });

  // Regression (a hostile look): once the reason no longer said "(skipped)" (most such records are
  // kept), the lines skipped said nothing of it: a second header, a message that is no object.
  it('says of each record not of its documented shape whether it was skipped or kept', async () => {
    const lines = [header('q'), header('q'), prompt('a1', null, 'kept'), JSON.stringify({ type: 'message', id: 'a2', parentId: 'a1', timestamp: '2026-10-05T10:00:02.000Z', message: 'just words' })];
    const file = await session(await fileOf('q.jsonl', lines.join('\n')));
    expect(texts(file)).toEqual(['kept']);
    const said = file.diagnostics.filter((d) => d.reason === 'invalid-record').map((d) => [d.line, d.skippedLine, d.detail]);
    expect(said).toEqual([
      [2, true, 'a second session header inside the file (skipped)'],
      [4, true, expect.stringMatching(/^message entry: .* \(skipped\)$/)],
    ]);
  });

  // Regression (a second hostile look): a Pi sub-agent's message out of shape was said "(skipped)"
  // and counted a skipped line each (3 of a 4-line file), its line kept and shown.
  it('says a sub-agent message out of shape was left out, its line kept, and counts no line skipped', async () => {
    const usage = { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { total: 0.01 } };
    const bad = { role: 'bashExecution', command: 7, output: 'x' };
    const messages = [bad, bad, { role: 'assistant', content: [{ type: 'text', text: 'sub reply' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage, stopReason: 'stop' }];
    const lines = [
      header('n'),
      prompt('p1', null, 'go'),
      JSON.stringify({ type: 'message', id: 'p2', parentId: 'p1', timestamp: '2026-10-05T10:00:03.000Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'subagent', content: [{ type: 'text', text: 'result' }], isError: false, details: { results: [{ agent: 'scout', task: 't', messages }] } } }),
    ];
    const file = await session(await fileOf('n.jsonl', lines.join('\n')));
    const said = file.diagnostics.filter((d) => d.reason === 'invalid-record');
    expect(said.map((d) => [d.line, d.skippedLine])).toEqual([[3, false], [3, false]]);
    for (const d of said) expect(d.detail).toMatch(/^bashExecution message \(left out, the rest of its line kept\): /);
    const result = file.entries.find((e) => e.kind === 'toolResult');
    expect(result?.kind === 'toolResult' ? result.subagents.flatMap((run) => run.entries).length : 0).toBe(1);
  });

  // Regression (a second hostile look): a Claude Code user line whose one block was a tool result
  // out of shape said "the rest of its line kept" of a line that became no entry; then (a third)
  // a result whose is_error was "yes" lost its output. A field out of shape is left out, the
  // result and its output kept, and said.
  it('keeps a Claude Code tool result with a field out of shape, without that field', async () => {
    const envelope = (type: string, uuid: string, parentUuid: string | null, s: number, more: object) =>
      JSON.stringify({ parentUuid, isSidechain: false, userType: 'external', cwd: '/home/ana/p', sessionId: 'eeeeeeee-1111-4111-8111-111111111111', version: '2.1.30', type, uuid, timestamp: `2026-10-05T10:00:0${s}.000Z`, ...more });
    const model = 'claude-sonnet-4-5-20250929';
    const lines = [
      envelope('user', 'u1', null, 1, { message: { role: 'user', content: 'PROMPT' } }),
      envelope('assistant', 'a1', 'u1', 2, { requestId: 'r1', message: { id: 'm1', type: 'message', role: 'assistant', model, content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }], usage: { input_tokens: 10, output_tokens: 5 } } }),
      envelope('user', 'u2', 'a1', 3, { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 5, content: 'first output' }] } }),
      envelope('user', 'u3', 'a1', 4, { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: 'yes', content: 'second output' }] } }),
    ];
    const file = await session(await fileOf('eeeeeeee-1111-4111-8111-111111111111.jsonl', lines.join('\n')));
    const said = file.diagnostics.filter((d) => d.reason === 'invalid-record').map((d) => [d.line, d.skippedLine, d.detail]);
    expect(said).toEqual([
      [3, false, 'tool result: tool_use_id not as the format has it (kept without it)'],
      [4, false, 'tool result: is_error not as the format has it (kept without it)'],
    ]);
    const outputs = file.entries.flatMap((e) => (e.kind === 'toolResult' ? e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : []));
    expect(outputs).toEqual(['first output', 'second output']);
  });

  // Regression: an entry naming itself as its parent, and entries whose parents loop, were drawn
  // (each loop cut, a root) without a word on the data-quality page.
  it('says where parent links loop, and keeps every entry', async () => {
    const lines = [header('l'), prompt('a1', null, 'root'), prompt('b2', 'b2', 'itself'), prompt('c3', 'c5', 'loop one'), prompt('c4', 'c3', 'loop two'), prompt('c5', 'c4', 'loop three')];
    // As every command reads a file: its numbers and its tree checked.
    const file = checkedAndShared(await session(await fileOf('loops.jsonl', lines.join('\n'))), null);
    expect(texts(file)).toEqual(['root', 'itself', 'loop one', 'loop two', 'loop three']);
    expect(file.diagnostics.map((d) => [d.line, d.reason, d.detail])).toEqual([
      [3, 'tree-loop', 'entry "b2" names itself as its parent: shown as a root'],
      [4, 'tree-loop', 'entries name each other as parents in a loop; cut at "c3", shown as a root'],
    ]);
    // As the tree is drawn: each cut is a root.
    expect(buildTree(file.entries).roots.map((e) => e.id)).toEqual(['a1', 'b2', 'c3']);
  });

  it('reads a single line of tens of megabytes', async () => {
    const big = 'x'.repeat(30 * 1024 * 1024);
    const file = await session(await fileOf('big.jsonl', `${header('b')}\n${prompt('a1', null, big)}\n${reply('a2', 'a1', 'small')}\n`));
    expect(texts(file).map((t) => t.length)).toEqual([big.length, 5]);
  });

  it('skips a line longer than it can read, and reads on', async () => {
    const path = await fileOf('huge.jsonl', `a${'b'.repeat(100)}\nshort\n`);
    const lines = [];
    for await (const line of readLines(path, 16, 50)) lines.push([line.number, line.text, line.oversized]);
    expect(lines).toEqual([
      [1, '', 101],
      [2, 'short', 0],
    ]);
  });

  // Regression: walking such a record for --redact overflowed the stack and ended the build.
  it.each([false, true])('builds a session with a record nested 100,000 levels deep (redact: %s)', async (redact) => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const tool = `{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-10-21T09:00:02.000Z","message":{"role":"toolResult","toolCallId":"x","toolName":"t","content":[],"details":${deep}}}`;
    const dir = await tempDir();
    await writeFile(join(dir, 'deep.jsonl'), [header('d'), prompt('a1', null, 'before'), tool, reply('a3', 'a2', 'after')].join('\n'));
    const { summary } = await build({ inputs: [dir], out: join(await tempDir(), 'r'), redact, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date() });
    expect(summary.totals).toMatchObject({ prompts: 1, replies: 1 });
  });

  it('keeps a reply whose usage is unreadable, and a message whose content is one block instead of a list', async () => {
    const badUsage = messageLine('a2', 'a1', { role: 'assistant', content: [{ type: 'text', text: 'kept reply' }], usage: { input: 'lots', output: 2 }, stopReason: 'stop' });
    const oneBlock = messageLine('a3', 'a2', { role: 'user', content: { type: 'text', text: 'kept prompt' } });
    const notUsage = messageLine('a4', 'a3', { role: 'assistant', content: [{ type: 'text', text: 'kept too' }], usage: 'lots', stopReason: 'stop' });
    const file = await session(await fileOf('odd.jsonl', [header('o'), prompt('a1', null, 'first'), badUsage, oneBlock, notUsage].join('\n')));
    expect(texts(file)).toEqual(['first', 'kept reply', 'kept prompt', 'kept too']);
    // The count that reads is kept, and the record priced in part; usage that is no object is left out.
    expect(file.entries.flatMap((e) => e.usage)).toEqual([expect.objectContaining({ input: 0, output: 2, countsLeftOut: true })]);
    expect(file.diagnostics.map((d) => [d.line, d.reason, d.skippedLine])).toEqual([
      [3, 'invalid-record', false],
      [5, 'invalid-record', false],
    ]);
  });

  // Regression: a recorded cost written as text, or as a number where Pi writes an object, took
  // the reply's million tokens with it: "no usage recorded", where bough's price is $1.00.
  it.each([
    ['a total written as text', { input: 0.5, output: 0, cacheRead: 0, cacheWrite: 0, total: '1.0' }, 0.5],
    ['a part written as text', { input: '0.5', output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 }, 0.5],
    ['a number where Pi writes an object', 1, null],
  ])('keeps the tokens of a Pi reply whose recorded cost is out of shape (%s)', async (_, cost, recorded) => {
    const line = messageLine('a2', 'a1', { role: 'assistant', content: [{ type: 'text', text: 'done' }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1_000_000, cost }, stopReason: 'stop' });
    const path = await fileOf('cost.jsonl', [header('c'), prompt('a1', null, 'go'), line].join('\n'));
    const { totals } = await reportOf([path]);
    expect(totals).toMatchObject({ replies: 1, records: 1, unpriced: 0, partial: 0, tokens: { input: 1_000_000 }, cost: { bough: 1, recorded: recorded } });
  });

  // Regression: a Pi header's `"cwd": ""` made a project of no name: an empty link on the
  // overview, an empty heading on its page.
  it('takes an empty working directory for none, in Pi’s header and Codex’s session_meta and turn_context', async () => {
    const path = await fileOf('empty-cwd.jsonl', [JSON.stringify({ type: 'session', version: 3, id: 'e', timestamp: '2026-10-21T09:00:00.000Z', cwd: '' }), prompt('a1', null, 'go')].join('\n'));
    const data = await reportOf([path]);
    expect(data.projects.map((p) => [p.cwd, p.name])).toEqual([[null, '(unknown folder)']]);
    const codex = await fileOf('rollout-2026-10-21T09-00-00-0195cccc-0000-7000-8000-000000000001.jsonl', [
      { timestamp: '2026-10-21T09:00:00.000Z', type: 'session_meta', payload: { id: '0195cccc-0000-7000-8000-000000000001', timestamp: '2026-10-21T09:00:00.000Z', cwd: '', originator: 'codex-tui', cli_version: '0.125.0', source: 'cli', model_provider: 'openai' } },
      { timestamp: '2026-10-21T09:00:01.000Z', type: 'turn_context', payload: { turn_id: 't1', model: 'gpt-5', cwd: '' } },
      { timestamp: '2026-10-21T09:00:02.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
    ].map((r) => JSON.stringify(r)).join('\n'));
    expect((await reportOf([codex])).projects.map((p) => p.name)).not.toContain('');
  });

  // Regression: a Claude Code line whose costUSD was text was skipped whole, its reply and tokens with it.
  it('keeps a Claude Code reply whose recorded cost is text, and says so', async () => {
    const line = (record: object) => JSON.stringify({ sessionId: '7a0c0a5e-1111-4222-8333-444455556666', cwd: '/home/ana/p', version: '1.0.0', timestamp: '2026-10-21T09:00:00.000Z', ...record });
    const path = await fileOf('7a0c0a5e-1111-4222-8333-444455556666.jsonl', [
      line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
      line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: 'req_1', costUSD: '0.5', message: { id: 'msg_1', role: 'assistant', model: 'claude-haiku-4-5-20251001', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn', usage: { input_tokens: 1_000_000, output_tokens: 0 } } }),
    ].join('\n'));
    const data = await reportOf([path]);
    expect(data.totals).toMatchObject({ replies: 1, records: 1, tokens: { input: 1_000_000 }, cost: { bough: 1, recorded: null } });
    expect((await session(path)).diagnostics).toEqual([expect.objectContaining({ line: 2, reason: 'invalid-record', skippedLine: false, detail: expect.stringContaining('costUSD') })]);
  });

  // Regression: a Claude Code reply whose model was not text (an array) was skipped whole, its tokens with it.
  it('keeps a Claude Code reply whose model is not text, its tokens unpriced, and says so', async () => {
    const line = (record: object) => JSON.stringify({ sessionId: '7a0c0a5e-1111-4222-8333-444455556667', cwd: '/home/ana/p', version: '1.0.0', timestamp: '2026-10-21T09:00:00.000Z', ...record });
    const path = await fileOf('7a0c0a5e-1111-4222-8333-444455556667.jsonl', [
      line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
      line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: 'req_1', message: { id: 'msg_1', role: 'assistant', model: ['claude-haiku-4-5-20251001'], content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn', usage: { input_tokens: 1000, output_tokens: 10 } } }),
    ].join('\n'));
    const data = await reportOf([path]);
    expect(data.totals).toMatchObject({ replies: 1, records: 1, unpriced: 1, tokens: { input: 1000, output: 10 } });
    expect((await session(path)).diagnostics).toEqual([expect.objectContaining({ line: 2, reason: 'invalid-record', skippedLine: false, detail: expect.stringContaining('model is not text') })]);
  });

  // Regression: a Claude Code entry naming itself as its parent was made a root without a word (a
  // loop of two was said, as Pi's and Codex's are).
  it('says a Claude Code entry that names itself as its parent is a loop', async () => {
    const line = (record: object) => JSON.stringify({ sessionId: '7a0c0a5e-1111-4222-8333-444455556668', cwd: '/home/ana/p', version: '2.1.0', timestamp: '2026-10-21T09:00:00.000Z', ...record });
    const path = await fileOf('7a0c0a5e-1111-4222-8333-444455556668.jsonl', [
      line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
      line({ type: 'user', uuid: 'u2', parentUuid: 'u2', message: { role: 'user', content: 'again' } }),
    ].join('\n'));
    expect((await session(path)).diagnostics).toEqual([expect.objectContaining({ line: 2, reason: 'tree-loop', detail: expect.stringContaining('names itself as its parent') })]);
  });

  // Regression: a sub-agent run with one field out of shape (a cost as text) was passed over
  // without a word, its transcript and spend lost.
  it('keeps a Pi sub-agent run with a field out of shape, and says so', async () => {
    const result = messageLine('a3', 'a2', {
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'subagent',
      content: [{ type: 'text', text: 'done' }],
      details: { results: [{ agent: 'scout', task: 42, usage: { input: 2_000_000, output: 0, cost: 'two dollars' } }] },
      isError: false,
    });
    const call = messageLine('a2', 'a1', { role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'subagent', arguments: { agent: 'scout', task: 'look' } }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 0, output: 0 }, stopReason: 'toolUse' });
    const path = await fileOf('sub.jsonl', [header('s'), prompt('a1', null, 'go'), call, result].join('\n'));
    const { totals } = await reportOf([path]);
    expect(totals.subagents).toMatchObject({ records: 1, tokens: { input: 2_000_000 } });
    expect((await session(path)).diagnostics.map((d) => [d.line, d.skippedLine, d.detail])).toEqual([
      [4, false, expect.stringContaining('sub-agent result')],
      [4, false, expect.stringContaining('subagent usage')],
    ]);
  });

  it('skips a binary file named .jsonl with one note', async () => {
    const binary = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256));
    expect(await readSessionFile(await fileOf('image.jsonl', binary))).toMatchObject({
      kind: 'skipped',
      diagnostics: [{ reason: 'not-a-session' }],
    });
  });

  it('counts every skipped line in summary.json and keeps every good prompt and reply', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, 'mixed.jsonl'),
      [header('m'), prompt('a1', null, 'one'), '{"type":"message","id":"a2","par', reply('a3', 'a1', 'two'), '', 'garbage', `${prompt('a4', 'a3', 'three')}${reply('a5', 'a4', 'four')}`].join('\n'),
    );
    const { summary } = await build({
      inputs: [dir],
      out: join(await tempDir(), 'report'),
      scope: ALL_UTC,
      environment: { env: {}, home: await tempDir() },
      now: new Date('2026-11-30T12:00:00Z'),
    });
    expect(summary.totals).toMatchObject({ prompts: 2, replies: 2 });
    expect(summary.diagnostics.skippedLines).toBe(2);
    expect(summary.diagnostics.items.map((d) => [d.line, d.reason, d.skippedLine])).toEqual([
      [3, 'truncated-line', true],
      [6, 'invalid-json', true],
      [7, 'glued-objects', false],
    ]);
    // A line cut short amid the file is damage, not a line still being written.
    expect(summary.diagnostics.items[0]?.detail).not.toContain('last line');
  });

  // Regression: a run while an agent wrote its session listed the line it was writing as damage
  // ("Unterminated string in JSON"), which the next run read whole.
  it('says a last line not yet ended is maybe still being written, and reads the rest', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'live.jsonl'), [header('m'), prompt('a1', null, 'one'), reply('a2', 'a1', 'two'), '{"type":"message","id":"a3","par'].join('\n'));
    const file = await session(join(dir, 'live.jsonl'));
    expect(texts(file)).toEqual(['one', 'two']);
    expect(file.diagnostics.map((d) => [d.line, d.reason, d.detail.split(';')[0]])).toEqual([[4, 'truncated-line', 'the file’s last line, not yet ended: a session still being written (a later run reads it whole) or a file cut short']]);
  });
});

describe('inputs are never changed', () => {
  it('leaves every input byte and modification time as it was', async () => {
    const inputs = join(FIXTURES);
    const snapshot = async () => {
      const files = (await readdir(inputs, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
      const state: Record<string, string> = {};
      for (const f of files) {
        const path = join(f.parentPath, f.name);
        const info = await stat(path);
        state[path] = `${createHash('sha256').update(await readFile(path)).digest('hex')} ${info.mtimeMs} ${info.mode}`;
      }
      return state;
    };
    const before = await snapshot();
    await build({ inputs: [inputs], out: join(await tempDir(), 'report'), scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date() });
    expect(await snapshot()).toEqual(before);
  });
});

describe('a file whose name is not UTF-8', () => {
  // Regression: a session named in Latin-1 was skipped as "it vanished while being read (moved or deleted)".
  it('is listed with the true reason, and the files beside it are read', async () => {
    const dir = await tempDir();
    const named = Buffer.concat([Buffer.from(`${dir}/sess-`), Buffer.from([0xff, 0xfe, 0xe9]), Buffer.from('.jsonl')]);
    await writeFile(named, await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    await writeFile(join(dir, 'good.jsonl'), await readFile(join(FIXTURES, 'pi', 'errors.jsonl')));
    const { summary } = await build({ inputs: [dir], out: join(await tempDir(), 'report'), scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    expect(summary.sessions.map((s) => s.file.split('/').pop())).toEqual(['good.jsonl']);
    expect(summary.diagnostics.items.map((d) => d.detail)).toContain("its name (or its folder's) is not valid UTF-8, which bough cannot open by name: rename it to read it");
  });
});
