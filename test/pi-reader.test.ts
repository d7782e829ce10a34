import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../src/sources/read.js';
import { ledgerOf } from '../src/ledger/ledger.js';
import { attachedFilesLength } from '../src/attached-files.js';
import type { Entry, EntryOf } from '../src/types.js';
import { splitSkillPrompt } from '../src/sources/pi/skills.js';
import { piFixture, readPiFixture, tempDir } from './support/fixtures.js';

const ofKind = <K extends Entry['kind']>(entries: Entry[], kind: K) => entries.filter((e): e is EntryOf<K> => e.kind === kind);

describe('Pi reader', () => {
  it('reads a v3 session into normalised entries with the header facts', async () => {
    const file = await readPiFixture('minimal-v3.jsonl');
    expect(file).toMatchObject({
      source: 'pi',
      sessionId: '0196a000-0000-7000-8000-000000000001',
      cwd: '/home/ana/projects/shop',
      formatVersion: 3,
      parentFile: null,
      startedAt: Date.parse('2026-10-01T09:00:00.000Z'),
      diagnostics: [],
    });
    expect(file.entries.map((e) => e.kind)).toEqual(['modelChange', 'thinkingChange', 'system', 'prompt', 'reply', 'toolResult', 'reply']);
    const [first] = ofKind(file.entries, 'reply');
    expect(first?.content.map((b) => b.type)).toEqual(['thinking', 'text', 'toolCall']);
    expect(first?.usage).toEqual([
      expect.objectContaining({ origin: 'reply', provider: 'anthropic', model: 'claude-sonnet-4-5', input: 10, output: 20, cacheWrite: 1000, recordedCost: 0.00408 }),
    ]);
    // Its id and time, and what it says in brief (role, blocks, tokens): see entryMark.
    expect(file.entries[4]?.key).toBe('a0000005@2026-10-01T09:00:03.000Z@assistant.3.10.20.0.1000');
  });

  // Regression (a fuzzing review): a line written twice (`cat f f`, a sync tool's merge) was
  // renamed and counted again, its tokens and cost doubled; as two files, it counted once.
  it('reads an entry written twice in one file once, and renames only an id reused by another entry', async () => {
    const lines = (await readFile(piFixture('minimal-v3.jsonl'), 'utf8')).trimEnd().split('\n');
    const path = join(await tempDir(), 'twice.jsonl');
    const reused = { ...(JSON.parse(lines[5] as string) as object), timestamp: '2026-10-01T09:59:00.000Z' };
    await writeFile(path, `${[...lines, ...lines.slice(1), JSON.stringify(reused)].join('\n')}\n`);
    const outcome = await readSessionFile(path);
    if (outcome.kind !== 'session') throw new Error('not read');
    const once = await readPiFixture('minimal-v3.jsonl');
    expect(outcome.file.entries.map((e) => e.id)).toEqual([...once.entries.map((e) => e.id), `${once.entries[4]?.id}~${2 * lines.length}`]);
    expect(outcome.file.diagnostics.filter((d) => d.detail.endsWith('written again as it was: read once'))).toHaveLength(lines.length - 1);
  });

  // Regression (an outside review of Pi's format): a reply naming a reused id as its parent hung
  // under the first entry of that id, not the one written just before it (Pi's index keeps the last).
  it('takes a reused id, named as a parent after it, for the latest entry written under it', async () => {
    const path = join(await tempDir(), 'reused.jsonl');
    const at = (n: number) => `2026-10-01T09:00:0${n}.000Z`;
    const records = [
      { type: 'session', version: 3, id: 's-reused', timestamp: at(0), cwd: '/w' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'first', timestamp: 0 } },
      { type: 'message', id: 'u1', parentId: 'u1', timestamp: at(2), message: { role: 'user', content: 'second', timestamp: 0 } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: at(3), message: { role: 'assistant', content: [{ type: 'text', text: 'answer' }], timestamp: 0 } },
      // A label naming it after: the latest too (a hostile look: it was put on the first).
      { type: 'label', id: 'l1', parentId: 'a1', timestamp: at(4), targetId: 'u1', label: 'kept' },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    expect(read.file.entries.map((e) => [e.id, e.parentId])).toEqual([
      ['u1', null],
      ['u1~3', 'u1'],
      ['a1', 'u1~3'],
      ['l1', 'a1'],
    ]);
    expect(read.file.entries.find((e) => e.kind === 'label')).toMatchObject({ targetId: 'u1~3' });
  });

  // Found by a review that ran Pi 1.6.0: files attached with @path come first in the prompt's
  // text, and titled the session `<file name="/tmp/red.png"></file> what is this image`.
  it('puts the files attached to a prompt after the words typed, which title the session', async () => {
    const path = join(await tempDir(), 'attached.jsonl');
    const at = (n: number) => `2026-10-01T09:00:0${n}.000Z`;
    const pixel = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const attached = '<file name="/w/red.png"></file>\n<file name="/w/notes.md">\n# Notes\n</file>\n';
    const records = [
      { type: 'session', version: 3, id: 's-attached', timestamp: at(0), cwd: '/w' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: [{ type: 'text', text: `${attached}what is this image` }, pixel], timestamp: 0 } },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    expect(ofKind(read.file.entries, 'prompt')[0]?.content).toEqual([{ type: 'text', text: 'what is this image' }, pixel, { type: 'text', text: attached.trim() }]);
    expect(ledgerOf(read.file).title).toBe('what is this image');
  });

  // Regression (the final read): the first pattern for attached files took exponential time on a
  // text of many elements followed by anything else (5,000 of them: minutes).
  it('finds attached files in a time linear in the text, whatever follows them', async () => {
    const texts = ['<file name="a"></file>'.repeat(5000) + 'x', '<file name="a">'.repeat(6000), '<file name="a">' + '</file>'.repeat(10000) + 'x', '<file name="a"></file>'.repeat(5000)];
    const path = join(await tempDir(), 'many.jsonl');
    const records = [
      { type: 'session', version: 3, id: 's-many', timestamp: '2026-10-01T09:00:00.000Z', cwd: '/w' },
      ...texts.map((text, n) => ({ type: 'message', id: `u${n}`, parentId: n === 0 ? null : `u${n - 1}`, timestamp: `2026-10-01T09:00:0${n + 1}.000Z`, message: { role: 'user', content: [{ type: 'text', text }], timestamp: 0 } })),
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const started = Date.now();
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    expect(ledgerOf(read.file).title).toBe('x');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(attachedFilesLength(`${'<file name="a"></file>'.repeat(3)} words`)).toBe(67);
  });

  it('chains v1 entries in file order and maps firstKeptEntryIndex to an entry', async () => {
    const file = await readPiFixture('v1-linear.jsonl');
    expect(file.formatVersion).toBe(1);
    expect(file.parentFile).toMatch(/gone-0000\.jsonl$/);
    expect(file.entries.map((e) => [e.id, e.parentId])).toEqual([
      ['v1-2', null],
      ['v1-3', 'v1-2'],
      ['v1-4', 'v1-3'],
      ['v1-5', 'v1-4'],
      ['v1-6', 'v1-5'],
      ['v1-7', 'v1-6'],
    ]);
    expect(ofKind(file.entries, 'compaction')[0]).toMatchObject({ firstKeptEntryId: 'v1-5', tokensBefore: 3110 });
    // The oldest files have no cost.total: the components are summed.
    expect(ofKind(file.entries, 'reply')[1]?.usage[0]?.recordedCost).toBeCloseTo(0.00615, 12);
  });

  it('keeps every good record around damaged lines and reports each bad one', async () => {
    const file = await readPiFixture('damaged-lines.jsonl');
    expect(file.entries.map((e) => e.id)).toEqual(['f0000001', 'f0000002', 'f0000003', 'f0000005', 'f0000007', 'f0000008']);
    expect(file.entries.filter((e) => e.recovered).map((e) => e.id)).toEqual(['f0000002', 'f0000003', 'f0000007']);
    expect(file.diagnostics.map((d) => [d.line, d.reason, d.skippedLine])).toEqual([
      [4, 'glued-objects', false],
      [5, 'truncated-line', true],
      [6, 'invalid-json', true],
      [8, 'partial-line', true],
    ]);
  });

  // Regression (an outside review): the entry after a reply whose line was cut short named it as
  // its parent, in no record read: a root, the conversation seeming to start there, what came
  // before drawn as a second root. It goes on from the entry before the damaged line.
  it('goes on from the entry before a damaged line whose record the next one names as parent', async () => {
    const lines = (await readFile(piFixture('minimal-v3.jsonl'), 'utf8')).trimEnd().split('\n');
    lines[5] = (lines[5] as string).slice(0, 80);
    const path = join(await tempDir(), 'cut.jsonl');
    await writeFile(path, `${lines.join('\n')}\n`);
    const result = await readSessionFile(path);
    const file = result.kind === 'session' ? result.file : null;
    expect(file?.entries.filter((e) => e.parentId === null).map((e) => e.id)).toEqual(['a0000001']);
    expect(file?.entries.find((e) => e.id === 'a0000006')?.parentId).toBe('a0000004');
    // Regression (a hostile look): where the damaged line still names its record's parent, that is
    // where the next one goes on from, not the entry before the line (here a branch back to a0000002).
    lines[5] = (lines[5] as string).replace('"parentId":"a0000004"', '"parentId":"a0000002"');
    await writeFile(path, `${lines.join('\n')}\n`);
    const again = await readSessionFile(path);
    expect(again.kind === 'session' ? again.file.entries.find((e) => e.id === 'a0000006')?.parentId : null).toBe('a0000002');
    // Regression (a second hostile look): a line holding a whole entry, then the cut one, gave the
    // whole one's parent for the lost one's: the next entry hung one level too high, a false branch.
    const whole = (await readFile(piFixture('minimal-v3.jsonl'), 'utf8')).trimEnd().split('\n');
    const glued = [...whole.slice(0, 4), `${whole[4]}${(whole[5] as string).slice(0, 80)}`, ...whole.slice(6)];
    await writeFile(path, `${glued.join('\n')}\n`);
    const gluedRead = await readSessionFile(path);
    expect(gluedRead.kind === 'session' ? gluedRead.file.entries.find((e) => e.id === 'a0000006')?.parentId : null).toBe('a0000004');
  });

  it('splits lines on \\n only, so U+2028 stays inside a string', async () => {
    const file = await readPiFixture('damaged-lines.jsonl');
    const reply = ofKind(file.entries, 'reply').find((e) => e.id === 'f0000005');
    expect(reply?.content[0]).toEqual({ type: 'text', text: 'Reply two, with a line separator \u2028 inside.' });
  });

  it('shows a skill prompt as the words typed, with the skill apart, in both stored formats', async () => {
    const file = await readPiFixture('skills.jsonl');
    const prompts = ofKind(file.entries, 'prompt');
    expect(prompts.map((p) => [p.skill?.name, p.content])).toEqual([
      ['review', [{ type: 'text', text: 'the checkout code' }]],
      ['release-notes', [{ type: 'text', text: 'for 0.2.0' }]],
      ['tidy', []],
    ]);
    expect(prompts[0]?.skill?.body).toContain('Read the diff and list problems');
    expect(prompts[0]?.skill?.location).toBe('/home/ana/.pi/skills/review/SKILL.md');
  });

  // Regression (a Pi review): a skill whose text shows Pi's own wrapper (a skill about writing
  // skills) ended at that closing tag, and the rest of its text titled the session as typed.
  it('ends a skill block at its last closing tag', () => {
    const body = 'Write SKILL.md files.\nPi sends a skill as:\n<skill name="x" location="y">\n…\n</skill>\n\nSECRET INTERNAL BODY TEXT that nobody typed';
    const split = splitSkillPrompt(`<skill name="skill-writer" location="/s/SKILL.md">\n${body}\n</skill>\n\nmake a skill for releases`);
    expect(split).toMatchObject({ typed: 'make a skill for releases', skill: { name: 'skill-writer', body } });
    expect(splitSkillPrompt(`<skill name="tidy" location="/t/SKILL.md">\n${body}\n</skill>`)).toMatchObject({ typed: '', skill: { body } });
  });

  it('collects usage from replies, tool results, summaries and usage entries', async () => {
    const file = await readPiFixture('usage-kinds.jsonl');
    const usage = file.entries.flatMap((e) => e.usage);
    expect(usage.map((u) => [u.origin, u.model, u.modelGuessed])).toEqual([
      ['reply', 'claude-opus-4-5', false],
      // A tool's own model use names no model (pi.md §5): not the chat model's, a guess that billed
      // a tool's 1M tokens at Opus's price (an outside review of money).
      ['tool', null, false],
      ['summary', 'claude-opus-4-5', true],
      ['usage-entry', 'claude-opus-4-5', false],
    ]);
    expect(usage[0]).toMatchObject({ cacheWrite: 611, cacheWrite1h: 100, reasoning: 300 });
  });

  it('reads sub-agent transcripts from the tool result, preferring child usage over the aggregate', async () => {
    const file = await readPiFixture('subagent.jsonl');
    const result = ofKind(file.entries, 'toolResult')[0];
    expect(result?.subagents.map((run) => [run.agent, run.task, run.entries.length])).toEqual([
      ['scout', 'find the cart', 2],
      ['scout', 'find the basket', 0],
    ]);
    expect(result?.usage.map((u) => [u.origin, u.input, u.output, u.cacheRead, u.recordedCost])).toEqual([
      ['subagent', 1000, 100, 0, 0.0015],
      ['subagent', 2000, 200, 300, 0.003],
    ]);
  });

  // Regression (a Pi format review): a run's aggregate usage named no provider though its child's
  // replies did: "claude-haiku-4-5 (unknown provider)", a row apart from the same model's.
  // Regression (a hostile look at pricing a run's sums by its largest prompt): a run whose last
  // reply failed gives contextTokens 0, and its sums were priced as requests of no prompt at all.
  it('judges a run\'s largest prompt by its last reply\'s context or its prompts\' mean, whichever is larger', async () => {
    const path = join(await tempDir(), 'sums.jsonl');
    const run = (usage: object) => ({ agent: 'scout', task: 't', exitCode: 0, stderr: '', model: 'claude-sonnet-4-5', usage });
    const records = [
      { type: 'session', version: 3, id: 's-sums', timestamp: '2026-10-21T08:00:00.000Z', cwd: '/w' },
      { type: 'message', id: 'm1', parentId: null, timestamp: '2026-10-21T08:00:01.000Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'subagent', content: [], isError: false, details: { mode: 'parallel', results: [
        run({ input: 300, output: 30, cacheRead: 299_700, cacheWrite: 0, cost: 0.1, contextTokens: 0, turns: 3 }),
        run({ input: 300, output: 30, cacheRead: 299_700, cacheWrite: 0, cost: 0.1, contextTokens: 150_000, turns: 3 }),
        run({ input: 300, output: 30, cacheRead: 299_700, cacheWrite: 0, cost: 0.1, contextTokens: 9_000_000, turns: 3 }),
      ] } } },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    expect(read.file.entries.flatMap((e) => e.usage).map((u) => u.largestPrompt)).toEqual([100_000, 150_000, 300_000]);
  });

  // Regression (a review of periods): a sub-agent's message whose time is no time went by its tool
  // result's, an hour and a day later, without a word; an entry's own bad time is said.
  it('says a sub-agent message whose time is no time, which goes by its tool result’s', async () => {
    const path = join(await tempDir(), 'bad-time.jsonl');
    const reply = (timestamp: unknown) => ({ role: 'assistant', provider: 'anthropic', model: 'claude-haiku-4-5', timestamp, stopReason: 'stop', content: [{ type: 'text', text: 'r' }], usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 11, cost: { total: 0 } } });
    const run = { agent: 'scout', task: 't', messages: [reply(Date.parse('2026-10-31T22:20:00.000Z')), reply('2026-10-31T22:25:00Z-garbled')] };
    const records = [
      { type: 'session', version: 3, id: 's-bad-time', timestamp: '2026-10-31T22:00:00.000Z', cwd: '/w' },
      { type: 'message', id: 'm1', parentId: null, timestamp: '2026-10-31T23:30:00.000Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'subagent', content: [], isError: false, details: { mode: 'single', results: [run] } } },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    expect(read.file.entries.flatMap((e) => e.usage).map((u) => new Date(u.timestamp ?? 0).toISOString())).toEqual(['2026-10-31T22:20:00.000Z', '2026-10-31T23:30:00.000Z']);
    expect(read.file.diagnostics.map((d) => [d.reason, d.line, d.detail])).toEqual([['invalid-time', 2, 'timestamp "2026-10-31T22:25:00Z-garbled" is not a date and time (the sub-agent message goes by its tool result’s time)']]);
    // Said once for a result of many such messages (a hostile look: a row each, 201 rows).
    const many = { agent: 'scout', task: 't', messages: [reply('soon'), reply('soon'), reply('later')] };
    await writeFile(path, `${[records[0], { ...records[1], message: { ...(records[1] as { message: object }).message, details: { mode: 'single', results: [many] } } }].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const again = await readSessionFile(path);
    if (again.kind !== 'session') throw new Error('not read');
    expect(again.file.diagnostics.map((d) => d.detail)).toEqual(['timestamp "soon" is not a date and time (it and 2 more of its sub-agent messages go by their tool result’s time)']);
  });

  // Regression (a browser review, 2026-12-07): a run in 0.58's shape (no status) whose child exited
  // with 1 was shown as if it had done its task.
  it('says a run in 0.58’s shape failed where its child exited with a code other than 0', async () => {
    const path = join(await tempDir(), 'exit.jsonl');
    const run = (agent: string, exitCode: number) => ({ agent, task: 't', exitCode, stderr: '', model: 'claude-haiku-4-5', messages: [] });
    const records = [
      { type: 'session', version: 3, id: 's-exit', timestamp: '2026-10-21T08:00:00.000Z', cwd: '/w' },
      { type: 'message', id: 'm1', parentId: null, timestamp: '2026-10-21T08:00:01.000Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'subagent', content: [], isError: false, details: { mode: 'parallel', results: [run('worker', 1), run('scout', 0)] } } },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    const runs = read.file.entries.flatMap((e) => (e.kind === 'toolResult' ? e.subagents : []));
    expect(runs.map((r) => [r.agent, r.status])).toEqual([['worker', 'failed (exit 1)'], ['scout', null]]);
  });

  // Regression (a review of Pi's files): pi-subagents keeps a run's last 200 messages while its
  // sums count every turn: of a run of five turns whose transcript kept two replies, two were
  // counted. And its model, written with Pi's thinking level (`:high`), left the sums unpriced.
  it('counts what a run\'s sums hold beyond the replies its cut transcript kept, as sums of their own', async () => {
    const path = join(await tempDir(), 'cut.jsonl');
    const reply = (n: number) => ({ role: 'assistant', provider: 'anthropic', model: 'claude-haiku-4-5', timestamp: 0, stopReason: 'stop', content: [{ type: 'text', text: `r${n}` }], usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { input: 0.001, output: 0.0005, cacheRead: 0, cacheWrite: 0, total: 0.0015 } } });
    const run = { agent: 'scout', task: 't', exitCode: 0, stderr: '', model: 'claude-haiku-4-5:high', messages: [reply(4), reply(5)], usage: { input: 5000, output: 500, cacheRead: 0, cacheWrite: 0, cost: 0.0075, contextTokens: 1100, turns: 5 } };
    const records = [
      { type: 'session', version: 3, id: 's-cut', timestamp: '2026-10-21T08:00:00.000Z', cwd: '/w' },
      { type: 'message', id: 'm1', parentId: null, timestamp: '2026-10-21T08:00:01.000Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'subagent', content: [], isError: false, details: { mode: 'single', results: [run] } } },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    const usage = read.file.entries.flatMap((e) => e.usage);
    expect(usage.map((u) => [u.model, u.input, u.output, u.recordedCost])).toEqual([
      ['claude-haiku-4-5', 1000, 100, 0.0015],
      ['claude-haiku-4-5', 1000, 100, 0.0015],
      ['claude-haiku-4-5', 3000, 300, 0.0045],
    ]);
    expect(usage[2]?.provider).toBe('anthropic');
    // A transcript holding every turn adds nothing.
    const whole = { ...run, usage: { ...run.usage, input: 2000, output: 200, cost: 0.003, turns: 2 } };
    await writeFile(path, `${[records[0], { ...records[1], message: { ...records[1]!.message, details: { mode: 'single', results: [whole] } } }].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const again = await readSessionFile(path);
    if (again.kind !== 'session') throw new Error('not read');
    expect(again.file.entries.flatMap((e) => e.usage)).toHaveLength(2);
    // A third hostile look: the sums are the run's own replies', not those of a run inside it (a
    // grandchild of 10,000 in took the cut turns' 3,000 with it); and a model written with its
    // provider and level is that provider's model.
    const grandchild = { agent: 'g', task: 't', exitCode: 0, stderr: '', model: 'claude-haiku-4-5', messages: [{ ...reply(9), usage: { ...reply(9).usage, input: 10_000 } }], usage: { input: 10_000, output: 100, cacheRead: 0, cacheWrite: 0, cost: 0.0105, contextTokens: 10_100, turns: 1 } };
    const inner = { role: 'toolResult', toolCallId: 'g1', toolName: 'subagent', content: [], isError: false, timestamp: 0, details: { mode: 'single', results: [grandchild] } };
    const nested = { ...run, model: 'anthropic/claude-haiku-4-5:high', messages: [reply(4), inner, reply(5)] };
    await writeFile(path, `${[records[0], { ...records[1], message: { ...records[1]!.message, details: { mode: 'single', results: [nested] } } }].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const deep = await readSessionFile(path);
    if (deep.kind !== 'session') throw new Error('not read');
    const records3 = deep.file.entries.flatMap((e) => e.usage);
    expect(records3.reduce((sum, u) => sum + u.input, 0)).toBe(15_000);
    expect(records3.at(-1)).toMatchObject({ provider: 'anthropic', model: 'claude-haiku-4-5', input: 3000 });
    // A fourth hostile look: where its replies name the whole as their model (OpenRouter's), it is
    // no provider's and its model: one row, not split by the first part.
    const routed = (n: number) => ({ ...reply(n), provider: 'openrouter', model: 'anthropic/claude-haiku-4.5' });
    const viaRouter = { ...run, model: 'anthropic/claude-haiku-4.5', messages: [routed(4), routed(5)] };
    await writeFile(path, `${[{ ...records[0], provider: 'anthropic', modelId: 'claude-sonnet-4-5' }, { ...records[1], message: { ...records[1]!.message, details: { mode: 'single', results: [viaRouter] } } }].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const routedRead = await readSessionFile(path);
    if (routedRead.kind !== 'session') throw new Error('not read');
    expect(new Set(routedRead.file.entries.flatMap((e) => e.usage).map((u) => `${u.provider}/${u.model}`))).toEqual(new Set(['openrouter/anthropic/claude-haiku-4.5']));
  });

  it('gives a run\'s aggregate usage the provider its child\'s replies name', async () => {
    const dir = await tempDir();
    const path = join(dir, 'chain.jsonl');
    const at = '2026-10-14T09:00:01.000Z';
    const records = [
      { type: 'session', version: 3, id: 'chain', timestamp: '2026-10-14T09:00:00.000Z', cwd: '/p' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: 'scout it' } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: at, message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'toolUse', content: [{ type: 'toolCall', id: 'c1', name: 'subagent', arguments: { chain: [] } }] } },
      {
        type: 'message', id: 't1', parentId: 'a1', timestamp: at,
        message: {
          role: 'toolResult', toolCallId: 'c1', toolName: 'subagent', isError: false, content: [{ type: 'text', text: 'done' }],
          details: {
            mode: 'chain',
            results: [
              { agent: 'scout', task: 'look', model: 'claude-haiku-4-5', usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, cost: 0.00015 }, messages: [{ role: 'user', content: 'look' }, { role: 'assistant', provider: 'anthropic', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'seen' }] }] },
              // A run that failed at once, on the session's own model: its provider (a hostile look).
              { agent: 'scout', task: 'again', model: 'claude-sonnet-4-5', exitCode: 1, usage: { input: 50, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.0002 }, messages: [] },
              // A run that failed at once on another model than the session's, which a sibling run's
              // replies name the provider of (an outside review: a row "?/claude-haiku-4-5").
              { agent: 'worker', task: 'fail', model: 'claude-haiku-4-5', exitCode: 1, usage: { input: 20, output: 2, cacheRead: 0, cacheWrite: 0, cost: 0.00003 } },
            ],
          },
        },
      },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const file = await readSessionFile(path);
    if (file.kind !== 'session') throw new Error('a session was expected');
    expect(ofKind(file.file.entries, 'toolResult')[0]?.usage.map((u) => [u.origin, u.provider, u.model, u.input])).toEqual([
      ['subagent', 'anthropic', 'claude-haiku-4-5', 100],
      ['subagent', 'anthropic', 'claude-sonnet-4-5', 50],
      ['subagent', 'anthropic', 'claude-haiku-4-5', 20],
    ]);
  });

  // Regression (an outside review of Pi's format): a local sub-agent's second run given by its sums
  // alone, its first run's replies naming ollama in another call, was a row "?/qwen3-coder:30b",
  // unpriced, beside "ollama/qwen3-coder:30b" at $0.
  it('gives a run given by its sums the provider another call\'s run names for its model', async () => {
    const path = join(await tempDir(), 'two-calls.jsonl');
    const at = '2026-11-20T10:00:01.000Z';
    const result = (id: string, call: string, messages: object[], input: number) => ({
      type: 'message', id, parentId: null, timestamp: at,
      message: { role: 'toolResult', toolCallId: call, toolName: 'subagent', isError: false, content: [{ type: 'text', text: 'done' }], details: { mode: 'single', results: [{ agent: 'local', task: 't', model: 'qwen3-coder:30b', usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, cost: 0 }, messages }] } },
    });
    const reply = { role: 'assistant', provider: 'ollama', model: 'qwen3-coder:30b', content: [{ type: 'text', text: 'done' }], usage: { input: 4000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 4010 } };
    const records = [
      { type: 'session', version: 3, id: 'two-calls', timestamp: at, cwd: '/p' },
      result('t2', 'c2', [], 6000),
      result('t1', 'c1', [{ role: 'user', content: 't' }, reply], 4000),
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const file = await readSessionFile(path);
    if (file.kind !== 'session') throw new Error('a session was expected');
    expect(file.file.entries.flatMap((e) => e.usage).map((u) => [u.provider, u.model, u.input])).toEqual([
      ['ollama', 'qwen3-coder:30b', 6000],
      ['ollama', 'qwen3-coder:30b', 4000],
    ]);
    // Its sibling's provider first (regression, a hostile look: an earlier reply's API provider
    // for a run beside one on a $0 subscription).
    const siblings = result('t3', 'c3', [], 0) as { message: { details: { results: object[] } } };
    siblings.message.details.results.push({ agent: 'local', task: 't', model: 'qwen3-coder:30b', usage: { input: 500, output: 10, cacheRead: 0, cacheWrite: 0, cost: 0 }, messages: [{ role: 'user', content: 't' }, { ...reply, provider: 'github-copilot', usage: { ...reply.usage, input: 500 } }] });
    await writeFile(path, `${[...records, siblings].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const again = await readSessionFile(path);
    if (again.kind !== 'session') throw new Error('a session was expected');
    expect(again.file.entries.at(-1)?.usage.map((u) => [u.provider, u.input])).toEqual([
      ['github-copilot', 0],
      ['github-copilot', 500],
    ]);
  });

  it('keeps unknown entry types and roles, and maps v2 hookMessage to an extension message', async () => {
    const file = await readPiFixture('v2-hook-message.jsonl');
    expect(file.entries.map((e) => e.kind)).toEqual(['prompt', 'custom', 'custom', 'reply', 'unknown', 'unknown']);
    expect(file.entries[1]).toMatchObject({ kind: 'custom', customType: 'reminder', isMessage: true });
    expect(file.diagnostics.map((d) => d.reason)).toEqual(['unknown-entry-type', 'unknown-role']);
  });

  // Regression (a review of Pi's trees): a "version": 4 header was read as v3 without a word.
  it('says a format version newer than it knows, and reads the file as the newest it knows', async () => {
    const path = join(await tempDir(), 'v4.jsonl');
    const records = [
      { type: 'session', version: 4, id: 'v4', timestamp: '2026-10-15T10:00:00.000Z', cwd: '/w' },
      { type: 'message', id: 'u', parentId: null, timestamp: '2026-10-15T10:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const file = await readSessionFile(path);
    if (file.kind !== 'session') throw new Error('a session was expected');
    expect(file.file.entries.map((e) => e.kind)).toEqual(['prompt']);
    expect(file.file.diagnostics.map((d) => [d.reason, d.line, d.skippedLine, d.detail])).toEqual([['newer-format', 1, false, 'format version 4, newer than 3, the newest bough knows: read as version 3']]);
  });

  it('skips files that are not sessions, and empty files, with one note each', async () => {
    expect(await readSessionFile(piFixture('not-a-session.jsonl'))).toMatchObject({
      kind: 'skipped',
      diagnostics: [{ reason: 'not-a-session', line: null }],
    });
    expect(await readSessionFile(piFixture('empty.jsonl'))).toMatchObject({ kind: 'skipped', diagnostics: [{ reason: 'empty-file' }] });
  });
});

describe('a record with a field not as the format has it', () => {
  it('is kept without the field when it can do without it, and said (regression: an exit code of "NaN" dropped the command and its output)', async () => {
    const dir = await tempDir();
    const path = join(dir, 'odd-field.jsonl');
    const records = [
      { type: 'session', version: 3, id: 'odd', timestamp: '2026-10-01T09:00:00.000Z', cwd: '/home/ana/p' },
      { type: 'message', id: 'b1', parentId: null, timestamp: '2026-10-01T09:00:01.000Z', message: { role: 'bashExecution', command: 'ls -la', output: 'total 0', exitCode: 'NaN' } },
      { type: 'message', id: 'b2', parentId: 'b1', timestamp: '2026-10-01T09:00:02.000Z', message: { role: 'bashExecution', command: 42, output: 'no command' } },
    ];
    await writeFile(path, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const outcome = await readSessionFile(path);
    if (outcome.kind !== 'session') throw new Error('not read as a session');
    const shells = ofKind(outcome.file.entries, 'shell');
    expect(shells).toMatchObject([{ kind: 'shell', command: 'ls -la', output: 'total 0', exitCode: null }]);
    expect(outcome.file.diagnostics.map((d) => [d.line, d.reason, d.detail, d.skippedLine])).toEqual([
      [2, 'invalid-record', 'bashExecution message: exitCode not as the format has it (kept without it)', false],
      [3, 'invalid-record', expect.stringContaining('bashExecution message: '), true],
    ]);
  });
});

// Regression (an outside review of Pi's format): an entry whose id or parentId was no text (a
// number, written by a tool of the user's) was skipped whole, its usage with it, where any other
// field out of shape is read without it.
describe('ids that are no text', () => {
  it('reads an entry whose id or parent is a number, or something else, with its usage', async () => {
    const at = (n: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString();
    const reply = (id: unknown, parentId: unknown, n: number, input: number) => ({
      type: 'message', id, parentId, timestamp: at(n),
      message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 }, stopReason: 'stop' },
    });
    const lines = [
      { type: 'session', version: 3, id: 'odd-ids', timestamp: at(0), cwd: '/home/u/proj' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'go' } },
      reply(17, 'u1', 2, 1000),
      reply('r2', 17, 3, 2000),
      reply({ nested: true }, 'r2', 4, 3000),
    ];
    const path = join(await tempDir(), 'odd-ids.jsonl');
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const result = await readSessionFile(path);
    const file = result.kind === 'session' ? result.file : null;
    expect(file?.entries.map((e) => [e.id, e.parentId, e.usage[0]?.input ?? null])).toEqual([
      ['u1', null, null],
      ['17', 'u1', 1000],
      ['r2', '17', 2000],
      ['line-5', 'r2', 3000],
    ]);
    expect(file?.diagnostics.map((d) => [d.line, d.detail, d.skippedLine])).toEqual([
      [3, 'id 17 is no text: read as text', false],
      [4, 'parentId 17 is no text: read as text', false],
      [5, 'id {"nested":true} is no text: read without it', false],
      [5, 'entry without an id (given one from its line)', false],
    ]);
  });

  // Regression (a hostile look at the fix above): a number naming a call or an entry was dropped
  // (the call shown as a block of JSON, its result paired with nothing, a label on nothing).
  it('reads a number naming a call or an entry as its text', async () => {
    const at = (n: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString();
    const lines = [
      { type: 'session', version: 3, id: 'odd-refs', timestamp: at(0), cwd: '/home/u/proj' },
      { type: 'message', id: '1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'go' } },
      { type: 'message', id: '2', parentId: '1', timestamp: at(2), message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', content: [{ type: 'toolCall', id: 7, name: 'read', arguments: { path: 'a.ts' } }] } },
      { type: 'message', id: '3', parentId: '2', timestamp: at(3), message: { role: 'toolResult', toolCallId: 7, toolName: 'read', content: [{ type: 'text', text: 'x' }], isError: false } },
      { type: 'label', id: '4', parentId: '3', timestamp: at(4), targetId: 1, label: 'start' },
    ];
    const path = join(await tempDir(), 'odd-refs.jsonl');
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const result = await readSessionFile(path);
    const file = result.kind === 'session' ? result.file : null;
    const [reply] = ofKind(file?.entries ?? [], 'reply');
    expect(reply?.content.map((b) => [b.type, b.type === 'toolCall' ? b.id : null])).toEqual([['toolCall', '7']]);
    expect(ofKind(file?.entries ?? [], 'toolResult')[0]?.toolCallId).toBe('7');
    expect(ofKind(file?.entries ?? [], 'label')[0]?.targetId).toBe('1');
    expect(file?.diagnostics.map((d) => [d.line, d.detail])).toEqual([
      [3, 'a tool call’s id written as a number: read as text'],
      [4, 'toolCallId written as a number: read as text'],
      [5, 'targetId written as a number: read as text'],
    ]);
  });
});

// Regression (a review of Pi's files): pi-subagents keeps each run's `pi --mode json` output, a
// session header then the run's events, in `subagent-artifacts/` beside the session's file: read
// as a session of no prompts, with a warning for each of its lines.
describe('a Pi event stream', () => {
  it('is no session: skipped, saying what it is', async () => {
    const path = join(await tempDir(), 'ab12cd34_scout_0.jsonl');
    const message = { role: 'assistant', content: [{ type: 'text', text: 'found' }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 10, output: 5 } };
    const lines = [
      { type: 'session', version: 3, id: 'child', timestamp: '2026-11-20T10:00:04.000Z', cwd: '/home/u/proj' },
      { type: 'agent_start' },
      { type: 'turn_start' },
      { type: 'message_start', message },
      { type: 'message_end', message },
      { type: 'agent_end', messages: [message] },
    ];
    await writeFile(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const read = await readSessionFile(path);
    expect(read).toMatchObject({ kind: 'skipped', diagnostics: [{ reason: 'not-a-session', detail: expect.stringContaining('a Pi event stream') }] });
    expect(read.kind === 'skipped' && read.diagnostics).toHaveLength(1);
  });

  it('is told from a session holding an entry of a type bough does not know', async () => {
    const path = join(await tempDir(), 'session.jsonl');
    const lines = [
      { type: 'session', version: 3, id: 's', timestamp: '2026-11-20T10:00:04.000Z', cwd: '/home/u/proj' },
      { type: 'message', id: 'a', parentId: null, timestamp: '2026-11-20T10:00:05.000Z', message: { role: 'user', content: 'go', timestamp: 0 } },
      { type: 'agent_start' },
    ];
    await writeFile(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    expect((await readSessionFile(path)).kind).toBe('session');
  });
});

// Regression (a review of Pi's files): a /share copy imported and continued: its new prompt hangs
// from the `pi.share` entry the export adds last (pi.md §12), which bough leaves out, so the
// prompt was a second root and the copied history a branch of "a separate root".
describe('a /share copy continued after import', () => {
  it('hangs what follows the export’s pi.share entry from that entry’s parent', async () => {
    const path = join(await tempDir(), 'session-export.jsonl');
    const at = (s: number) => `2026-11-20T10:00:0${s}.000Z`;
    const message = (id: string, parentId: string | null, role: string, s: number) => ({ type: 'message', id, parentId, timestamp: at(s), message: { role, content: [{ type: 'text', text: id }], timestamp: 0 } });
    const lines = [
      { type: 'session', version: 3, id: 'exported', timestamp: at(0), cwd: '/home/u/proj' },
      message('u1', null, 'user', 1),
      message('a1', 'u1', 'assistant', 2),
      { type: 'custom', customType: 'pi.share', id: 'share', parentId: 'a1', timestamp: at(3), data: { systemPrompt: 'x', tools: [] } },
      message('u2', 'share', 'user', 4),
    ];
    await writeFile(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const read = await readSessionFile(path);
    if (read.kind !== 'session') throw new Error('not read');
    expect(read.file.entries.map((entry) => [entry.id, entry.parentId])).toEqual([['u1', null], ['a1', 'u1'], ['u2', 'a1']]);
  });
});
