// Claude Code transcripts that bough once read wrong, each pinned by what a user sees: the totals
// of `stats --json`, summary.json and the rendered pages. Fixtures are written per test from the
// small line builders below, laid out as Claude Code lays them out (`projects/<folder>/…`).

import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from './support/cli.js';
import { statsSchema, summarySchema } from '../src/report/schema.js';
import { readSessionFile } from '../src/sources/read.js';
import { tempDir } from './support/fixtures.js';

async function stats(folder: string, ...more: string[]) {
  const { code, stdout, stderr } = await run(['stats', folder, '--no-cache', '--tz', 'UTC', '--json', ...more]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return statsSchema.parse(JSON.parse(stdout));
}

async function build(folder: string, ...more: string[]) {
  const out = join(await tempDir(), 'report');
  const { code, stderr } = await run(['build', folder, '--no-cache', '--tz', 'UTC', '--out', out, '-q', ...more]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return { out, summary: summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))) };
}

/** A folder of inputs holding these files (paths relative to it), each a list of records. */
async function projects(files: Record<string, readonly object[] | string>): Promise<string> {
  const root = await tempDir();
  for (const [path, records] of Object.entries(files)) {
    const full = join(root, 'projects', path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, typeof records === 'string' ? records : records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
  return root;
}

const SESSION = '44444444-4444-4444-8444-444444444441';

interface Line {
  session?: string;
  cwd?: string | null;
  sidechain?: boolean;
  at?: string;
}

/** What every line of a conversation carries, as Claude Code 2.1 writes it. */
function envelope(uuid: string, parent: string | null, line: Line, at: string): object {
  return {
    parentUuid: parent,
    isSidechain: line.sidechain ?? false,
    ...(line.cwd === null ? {} : { cwd: line.cwd ?? '/home/ana/shop' }),
    sessionId: line.session ?? SESSION,
    version: '2.1.114',
    uuid,
    timestamp: line.at ?? at,
  };
}

function user(uuid: string, parent: string | null, text: string, line: Line = {}): object {
  return { ...envelope(uuid, parent, line, '2026-03-10T10:00:00.000Z'), type: 'user', message: { role: 'user', content: text } };
}

function assistant(uuid: string, parent: string, request: string, usage: object, line: Line = {}): object {
  return {
    ...envelope(uuid, parent, line, '2026-03-10T10:00:01.000Z'),
    type: 'assistant',
    requestId: `req_${request}`,
    message: { model: 'claude-haiku-4-5-20251001', id: `msg_${request}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: `reply ${request}` }], stop_reason: 'end_turn', usage },
  };
}

const tokens = (input: number, output = 10) => ({ input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: output });

describe('Claude Code regressions', () => {
  it('titles an earlier session by the summary a later file writes of its last entry', async () => {
    const EARLIER = '44444444-4444-4444-8444-4444444444e1';
    const LATER = '44444444-4444-4444-8444-4444444444e2';
    const folder = await projects({
      [`-home-ana-shop/${EARLIER}.jsonl`]: [user('e1', null, 'fix the cart', { session: EARLIER }), assistant('e2', 'e1', 'E', tokens(100), { session: EARLIER })],
      [`-home-ana-shop/${LATER}.jsonl`]: [
        { type: 'summary', summary: 'Cart total fix', leafUuid: 'e2' },
        user('l1', null, 'now the tax', { session: LATER, at: '2026-03-11T10:00:00.000Z' }),
        assistant('l2', 'l1', 'L', tokens(100), { session: LATER, at: '2026-03-11T10:00:01.000Z' }),
      ],
    });
    const { summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.id, s.title]).sort()).toEqual([
      [EARLIER, 'Cart total fix'],
      [LATER, 'now the tax'],
    ]);
  });

  // Regressions (a review of Claude Code's files): a file of summaries alone was a session of "(no
  // prompts)", dated by its file's time; a resumed copy holding the summarised entry as history
  // took its origin's summary as its title. A hostile look at the fix: such a file whose session
  // ran sub-agents took their spend with it.
  it('makes no session of a file of summaries alone, but for its sub-agents, and titles a resumed copy by its own prompt', async () => {
    const ORIGIN = '44444444-4444-4444-8444-4444444444f1';
    const COPY = '44444444-4444-4444-8444-4444444444f2';
    const SUMMARIES = '44444444-4444-4444-8444-4444444444f3';
    const WITH_SUBAGENT = '44444444-4444-4444-8444-4444444444f4';
    const history = [user('f1', null, 'first prompt', { session: ORIGIN }), assistant('f2', 'f1', 'F', tokens(100), { session: ORIGIN })];
    const side = { session: WITH_SUBAGENT, sidechain: true };
    const folder = await projects({
      [`-home-ana-shop/${ORIGIN}.jsonl`]: history,
      [`-home-ana-shop/${COPY}.jsonl`]: [
        { type: 'summary', summary: 'Summary of the first work', leafUuid: 'f2' },
        ...history,
        user('g1', 'f2', 'third prompt', { session: COPY, at: '2026-03-11T10:00:00.000Z' }),
        assistant('g2', 'g1', 'G', tokens(200), { session: COPY, at: '2026-03-11T10:00:01.000Z' }),
      ],
      [`-home-ana-shop/${SUMMARIES}.jsonl`]: [{ type: 'summary', summary: 'Another summary', leafUuid: 'zzz' }],
      [`-home-ana-shop/${WITH_SUBAGENT}.jsonl`]: [{ type: 'summary', summary: 'A third summary', leafUuid: 'yyy' }],
      [`-home-ana-shop/${WITH_SUBAGENT}/subagents/agent-abc.jsonl`]: [user('h1', null, 'side task', side), assistant('h2', 'h1', 'H', tokens(1000), side)],
    });
    const { summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.id, s.title, s.prompts]).sort()).toEqual([
      [ORIGIN, 'Summary of the first work', 1],
      [COPY, 'third prompt', 1],
      [WITH_SUBAGENT, expect.any(String), 0],
    ]);
    expect(summary.totals).toMatchObject({ sessions: 3, tokens: { input: 1300 }, subagents: { tokens: { input: 1000 } } });
  });

  // A resume of a resume holds the first session's lines and then the second's: each counted
  // once, where first written, and the copy titled by its own prompt. (It is said to come from the
  // first session: the second, named last, may be gone while the first is kept.)
  it('counts a resume of a resume’s copied history once, each part where it was first written', async () => {
    const [A, B, C] = ['44444444-4444-4444-8444-4444444444a1', '44444444-4444-4444-8444-4444444444b1', '44444444-4444-4444-8444-4444444444c1'];
    const a = [user('a1', null, 'first prompt', { session: A }), assistant('a2', 'a1', 'A', tokens(100), { session: A })];
    const b = [user('b1', 'a2', 'second prompt', { session: B, at: '2026-03-11T10:00:00.000Z' }), assistant('b2', 'b1', 'B', tokens(200), { session: B, at: '2026-03-11T10:00:01.000Z' })];
    const c = [user('c1', 'b2', 'third prompt', { session: C, at: '2026-03-12T10:00:00.000Z' }), assistant('c2', 'c1', 'C', tokens(400), { session: C, at: '2026-03-12T10:00:01.000Z' })];
    const folder = await projects({ [`-home-ana-shop/${A}.jsonl`]: a, [`-home-ana-shop/${B}.jsonl`]: [...a, ...b], [`-home-ana-shop/${C}.jsonl`]: [...a, ...b, ...c] });
    const { summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.id, s.title, s.tokens.input]).sort()).toEqual([
      [A, 'first prompt', 100],
      [B, 'second prompt', 200],
      [C, 'third prompt', 400],
    ]);
  });

  // Regression (a Claude Code review): a resumed copy keeping the old session id on its copied
  // lines (claude.md §8.5), its origin gone, beside a copy that rewrote them and so counts what both
  // copied, was titled by the copied prompt, its own words nowhere in the lists.
  it('titles a resumed copy whose origin is gone by a prompt it counts', async () => {
    const [A, B, C] = ['55555555-5555-4555-8555-5555555555a1', '55555555-5555-4555-8555-5555555555b1', '55555555-5555-4555-8555-5555555555c1'];
    const history = (session: string) => [user('a1', null, 'first task', { session }), assistant('a2', 'a1', 'A', tokens(100), { session })];
    const own = (session: string, text: string) => [user(`${session.slice(-2)}1`, 'a2', text, { session, at: '2026-03-11T10:00:00.000Z' }), assistant(`${session.slice(-2)}2`, `${session.slice(-2)}1`, 'B', tokens(200), { session, at: '2026-03-11T10:00:01.000Z' })];
    const folder = await projects({ [`-home-ana-shop/${B}.jsonl`]: [...history(B), ...own(B, 'continue after resume')], [`-home-ana-shop/${C}.jsonl`]: [...history(A), ...own(C, 'kept ids')] });
    const { summary } = await build(folder);
    expect(summary.sessions.find((s) => s.id === C)).toMatchObject({ title: 'kept ids', prompts: 1 });
  });

  // Regression: an old (1.0.x) inline sub-agent whose Task call got no result (the session ended
  // first) was shown and counted as a branch of its own: its reply a reply of the session's.
  it('shows an inline sub-agent whose Task call got no result under that call, not as a branch', async () => {
    const task = (uuid: string, parent: string) => {
      const line = assistant(uuid, parent, 'T', tokens(100)) as { message: Record<string, unknown> };
      return { ...line, message: { ...line.message, content: [{ type: 'tool_use', id: 'toolu_T', name: 'Task', input: { description: 'Side job', prompt: 'SIDE TASK PROMPT' } }], stop_reason: 'tool_use' } };
    };
    const side = { sidechain: true, at: '2026-03-10T10:00:02.000Z' };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('m1', null, 'please delegate'),
        task('m2', 'm1'),
        user('s1', null, 'SIDE TASK PROMPT', side),
        assistant('s2', 's1', 'S', tokens(50), side),
        // A line of the sub-agent whose parent is not in the file (an excerpt): the same sub-agent.
        assistant('s4', 's3', 'S2', tokens(50), side),
        assistant('m3', 'm2', 'M', tokens(200), { at: '2026-03-10T10:00:05.000Z' }),
      ],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.prompts, s.replies, s.branches])).toEqual([[1, 2, 1]]);
    expect(summary.totals.subagents.usageRecords).toBe(2);
    expect(summary.totals.usageRecords).toBe(4);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).not.toContain('A separate root');
    expect(page).toContain('no result written: the session ended or was stopped first');
    expect(page).toContain('reply S2');
  });

  it('regression: two unrelated sessions whose hand-made uuids collide are each counted whole, neither a copy of the other', async () => {
    const OTHER = '44444444-4444-4444-8444-4444444444f9';
    const session = (id: string, words: string, request: string, at: string) => [
      user('11111111-0000-4000-8000-000000000001', null, words, { session: id, at }),
      assistant('22222222-0000-4000-8000-000000000002', '11111111-0000-4000-8000-000000000001', request, tokens(100), { session: id, at }),
    ];
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: session(SESSION, 'spawn an agent', 'X1', '2026-03-10T10:00:00.000Z'),
      [`-home-ana-shop/${OTHER}.jsonl`]: session(OTHER, 'start a team', 'X2', '2026-03-10T10:00:00.000Z'),
    });
    const { summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.title, s.prompts, s.replies, s.copiedEntries, s.origin]).sort()).toEqual([
      ['spawn an agent', 1, 1, 0, null],
      ['start a team', 1, 1, 0, null],
    ]);
  });

  it('regression: a transcript whose first line is a record type bough does not know is read, that line counted', async () => {
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        { type: 'worktree-state', sessionId: '44444444-4444-4444-8444-444444444440', worktree: '/x' },
        user('u1', null, 'hello'),
        assistant('a1', 'u1', 'A', tokens(100)),
      ],
    });
    expect((await stats(folder)).totals).toMatchObject({ sessions: 1, prompts: 1, tokens: { input: 100, output: 10 } });
    const { summary } = await build(folder);
    expect(summary.sessions.map((s) => s.id)).toEqual([SESSION]);
    expect(summary.diagnostics.byReason).toEqual({ 'unknown-entry-type': 1 });
  });

  it('regression: a response streamed across midnight counts on the day of the line it keeps, its last', async () => {
    const streamed = (uuid: string, parent: string, output: number, at: string) => {
      const line = assistant(uuid, parent, 'S', { ...tokens(100, output) }, { at }) as { message: Record<string, unknown> };
      return { ...line, message: { ...line.message, stop_reason: output < 10 ? null : 'end_turn' } };
    };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('u1', null, 'write the report', { at: '2026-10-31T23:59:58.000Z' }),
        streamed('a1', 'u1', 2, '2026-10-31T23:59:59.900Z'),
        streamed('a2', 'a1', 500, '2026-11-01T00:00:01.000Z'),
      ],
    });
    const days = (await stats(folder, '--by', 'day')).rows.map((row) => [row.key, row.tokens.output]);
    expect(days).toEqual([
      ['2026-10-31', 0],
      ['2026-11-01', 500],
    ]);
  });

  it.each([
    ['negative', -1000],
    ['fractional', 100.5],
    ['written as text', '1000'],
  ])('regression: a reply whose input count is %s is priced in part, its other counts kept, never as fully priced', async (_, input) => {
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'hello'), assistant('a1', 'u1', 'A', { ...tokens(0, 100), input_tokens: input })] });
    const { totals } = await stats(folder);
    expect(totals.tokens).toMatchObject({ input: 0, output: 100 });
    expect(totals.unpricedRecords).toBe(1);
    expect(totals.partiallyPricedModels).toEqual(['anthropic/claude-haiku-4-5-20251001']);
    // Haiku 4.5: $5 per million output; the input is unknown, not $0.
    expect(totals.cost.bough).toBeCloseTo(100 * 5e-6, 12);
  });

  // Regression (an outside review of Claude Code's format): a reply whose line was damaged left the
  // prompt after it with a parent in no record, a root: the conversation seemed to start there,
  // the first prompt shown after it as "Branch 2", the session counted two branches.
  it('goes on from the entry before a damaged line whose record the next one names as parent', async () => {
    const lines = [
      user('d1', null, 'first prompt'),
      assistant('d2', 'd1', 'D2', tokens(100)),
      user('d3', 'd2', 'second prompt', { at: '2026-03-10T10:01:00.000Z' }),
      assistant('d4', 'd3', 'D4', tokens(100), { at: '2026-03-10T10:01:01.000Z' }),
    ].map((record) => JSON.stringify(record));
    // The first reply's line cut short, as a crash leaves one.
    lines[1] = (lines[1] as string).slice(0, 90);
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: `${lines.join('\n')}\n` });
    const { out, summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.prompts, s.branches])).toEqual([[2, 1]]);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).not.toContain('Branch 2');
    expect(page.indexOf('first prompt')).toBeLessThan(page.indexOf('second prompt'));
    expect(summary.diagnostics.byReason).toMatchObject({ 'truncated-line': 1 });
  });

  // Regression (a hostile look at that fix): the damaged line was a rewind (a prompt going on from
  // the first reply), and the reply to it was grafted onto the branch it left, as its next reply.
  it('goes on from the parent a damaged line still names, a rewind kept one', async () => {
    const lines = [
      user('w1', null, 'first prompt'),
      assistant('w2', 'w1', 'W2', tokens(100)),
      user('w3', 'w2', 'abandoned prompt', { at: '2026-03-10T10:01:00.000Z' }),
      assistant('w4', 'w3', 'W4', tokens(100), { at: '2026-03-10T10:01:01.000Z' }),
      user('w5', 'w2', 'rewound prompt', { at: '2026-03-10T10:02:00.000Z' }),
      assistant('w6', 'w5', 'W6', tokens(100), { at: '2026-03-10T10:02:01.000Z' }),
    ].map((record) => JSON.stringify(record));
    lines[4] = (lines[4] as string).slice(0, 60);
    expect(lines[4]).toContain('"parentUuid":"w2"');
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: `${lines.join('\n')}\n` });
    const { out, summary } = await build(folder);
    expect(summary.sessions.map((s) => s.branches)).toEqual([2]);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    const from = page.indexOf('Conversation (active path)');
    const active = page.slice(from, page.indexOf('Branch 2', from));
    expect(active).not.toContain('abandoned prompt');
    expect(active).toContain('reply W6');
  });

  // Regressions (a second hostile look): a line holding a whole record and then a cut one gave the
  // whole one's parent as the lost one's (the next prompt hung one level too high, a false branch);
  // and a cut sidechain line's parent, a sub-agent's, took the main thread.
  it('does not take a recovered record\'s parent, or a sidechain\'s, for a lost main-thread record\'s', async () => {
    const glued = [user('g1', null, 'first prompt'), assistant('g2', 'g1', 'G2', tokens(100)), user('g3', 'g2', 'second prompt', { at: '2026-03-10T10:01:00.000Z' }), assistant('g4', 'g3', 'G4', tokens(100), { at: '2026-03-10T10:01:01.000Z' }), user('g5', 'g4', 'third prompt', { at: '2026-03-10T10:02:00.000Z' })].map((r) => JSON.stringify(r));
    const lines = [glued[0], glued[1], `${glued[2]}${(glued[3] as string).slice(0, 80)}`, glued[4]] as string[];
    const side = { sidechain: true, at: '2026-03-10T10:00:30.000Z' };
    // The main thread's reply s3 and the sub-agent's s5 both cut; s6 goes on from s3, lost.
    const withSidechain = [
      user('s1', null, 'first prompt'),
      assistant('s2', 's1', 'S2', tokens(100)),
      assistant('s3', 's2', 'S3', tokens(100), { at: '2026-03-10T10:00:02.000Z' }),
      user('s4', null, 'side task', side),
      assistant('s5', 's4', 'S5', tokens(50), side),
      user('s6', 's3', 'second prompt', { at: '2026-03-10T10:01:00.000Z' }),
    ].map((r) => JSON.stringify(r));
    withSidechain[2] = (withSidechain[2] as string).slice(0, 90);
    withSidechain[4] = (withSidechain[4] as string).slice(0, 90);
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: `${lines.join('\n')}\n`, '-home-ana-shop/44444444-4444-4444-8444-4444444444b9.jsonl': `${withSidechain.map((l) => l.replace(SESSION, '44444444-4444-4444-8444-4444444444b9')).join('\n')}\n` });
    const { out, summary } = await build(folder);
    expect(summary.sessions.find((s) => s.id === SESSION)?.branches).toBe(1);
    // The main thread goes on from its own reply before the cut line, the sub-agent's chain apart.
    const page = await readFile(join(out, summary.sessions.find((s) => s.id !== SESSION)?.page as string), 'utf8');
    const from = page.indexOf('Conversation (active path)');
    const active = page.slice(from, page.indexOf('</section>', from));
    expect(active.indexOf('reply S2')).toBeGreaterThan(-1);
    expect(active.indexOf('second prompt')).toBeGreaterThan(active.indexOf('reply S2'));
    // The sub-agent, whose call was on no line read, is shown as one, after the reply before it.
    expect(active.indexOf('no call to it in the file (its line lost?)')).toBeGreaterThan(active.indexOf('reply S2'));
    expect(summary.sessions.find((s) => s.id !== SESSION)).toMatchObject({ prompts: 2, branches: 1 });
  });

  // Regression (an outside review of Claude Code's format): the lines of one streamed response
  // that a gateway wrote with its request id but no message id were each counted as a reply (three
  // replies, their prompts counted three times); a request id alone names the request (§9.2).
  it('counts the lines of one request written without a message id once', async () => {
    const line = (uuid: string, parent: string, output: number) => {
      const record = assistant(uuid, parent, 'G1', { input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: output }) as { message: { id?: string } };
      delete record.message.id;
      return record;
    };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('g0', null, 'stream it'), line('g1', 'g0', 1), line('g2', 'g1', 30), line('g3', 'g2', 60)] });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ replies: 1, usageRecords: 1, tokens: { input: 5, output: 60, cacheRead: 1000 } });
  });

  // Regression (a hostile look at that fix): a gateway whose request id is empty, or the same on
  // every line, had all replies of a session merged into the first, and a second session's counted
  // as the first's copy. The id stands for its request only on lines chained to it.
  it.each([[''], ['req_gateway']])('counts each response of a gateway writing the request id %j and no message id', async (request) => {
    const OTHER = '44444444-4444-4444-8444-4444444444a2';
    const session = (id: string, prefix: string) =>
      [1, 2, 3].flatMap((n) => {
        const at = (s: number) => ({ session: id, at: `2026-03-10T1${n}:00:0${s}.000Z` });
        const reply = { ...(assistant(`${prefix}a${n}`, `${prefix}u${n}`, 'X', tokens(1000, 100), at(1)) as { message: { id?: string } }), requestId: request };
        delete reply.message.id;
        return [user(`${prefix}u${n}`, n === 1 ? null : `${prefix}a${n - 1}`, `prompt ${n}`, at(0)), reply];
      });
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: session(SESSION, 's'), [`-home-ana-shop/${OTHER}.jsonl`]: session(OTHER, 'o') });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ replies: 6, usageRecords: 6, tokens: { input: 6000, output: 600 } });
  });

  it('regression: a file no agent claims in its first lines is still skipped as not a session', async () => {
    const folder = await projects({ 'notes/history.jsonl': Array.from({ length: 60 }, (_, n) => ({ display: `typed ${n}`, project: '/home/ana/shop' })) });
    const { code, stderr } = await run(['stats', folder, '--no-cache', '--json']);
    expect(code).toBe(1);
    expect(stderr).toContain(`history.jsonl (the one file found in ${folder}) is not a session file bough can read`);
  });

  it('regression: one-hour cache writes without a cache_creation_input_tokens total are counted as cache writes, and priced', async () => {
    const split = { input_tokens: 1, output_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 500 } };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'hello'), assistant('a1', 'u1', 'A', split)] });
    const { totals } = await stats(folder);
    expect(totals.tokens).toMatchObject({ cacheWrite: 500, cacheWrite1h: 500 });
    // Haiku 4.5: $1 per million input, one-hour writes at twice that, $5 per million output.
    expect(totals.cost.bough).toBeCloseTo(1e-6 + 500 * 2e-6 + 5e-6, 9);
  });

  it('regression: a cache write split that disagrees with its total keeps the total, the one-hour part within it, and is counted', async () => {
    const disagreeing = { ...tokens(1, 1), cache_creation_input_tokens: 300, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 500 } };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'hello'), assistant('a1', 'u1', 'A', disagreeing)] });
    expect((await stats(folder)).totals.tokens).toMatchObject({ cacheWrite: 300, cacheWrite1h: 300 });
    expect((await build(folder)).summary.diagnostics.byReason).toEqual({ 'inconsistent-usage': 1 });
  });

  describe('regression: entries written again with the same uuid in one file (an interactive resume) were counted again', () => {
    const conversation = [
      user('u1', null, 'first prompt', { at: '2026-03-10T10:00:00.000Z' }),
      assistant('a1', 'u1', 'R1', tokens(100), { at: '2026-03-10T10:00:01.000Z' }),
      user('u2', 'a1', 'second prompt', { at: '2026-03-10T10:01:00.000Z' }),
      assistant('a2', 'u2', 'R2', tokens(200), { at: '2026-03-10T10:01:01.000Z' }),
    ];

    it('counts the conversation written twice once: prompts, replies and branches', async () => {
      const folder = await projects({
        [`-home-ana-shop/${SESSION}.jsonl`]: [...conversation, ...conversation, user('u3', 'a2', 'third prompt', { at: '2026-03-11T09:00:00.000Z' }), assistant('a3', 'u3', 'R3', tokens(400), { at: '2026-03-11T09:00:01.000Z' })],
      });
      const { summary } = await build(folder);
      expect(summary.sessions).toEqual([expect.objectContaining({ prompts: 3, replies: 3, branches: 1, tokens: expect.objectContaining({ input: 700 }) })]);
      expect(summary.diagnostics.byReason).toEqual({});
    });

    it('keeps a different entry that reuses a uuid as its own, counted, with what was written after it hanging from it', async () => {
      const folder = await projects({
        [`-home-ana-shop/${SESSION}.jsonl`]: [...conversation, ...conversation, user('u1', 'a2', 'third prompt', { at: '2026-03-11T09:00:00.000Z' }), assistant('a1', 'u1', 'R3', tokens(400), { at: '2026-03-11T09:00:01.000Z' })],
      });
      const { out, summary } = await build(folder);
      expect(summary.sessions).toEqual([expect.objectContaining({ prompts: 3, replies: 3, branches: 1, tokens: expect.objectContaining({ input: 700 }) })]);
      expect(summary.diagnostics.byReason).toEqual({ 'duplicate-id': 2 });
      const page = await readFile(join(out, summary.sessions[0]?.page ?? ''), 'utf8');
      expect(page.indexOf('second prompt')).toBeLessThan(page.indexOf('third prompt'));
    });
  });

  describe('regression: a sub-agent file with no main transcript became a session of its own, its task counted as a prompt', () => {
    const WARMED = '66666666-6666-4666-8666-666666666666';
    const sidechain = { session: WARMED, sidechain: true };

    it('attributes a warmup beside an empty main file to its session: usage counted, no prompt, not titled by the task', async () => {
      const folder = await projects({
        [`-home-ana-shop/${WARMED}.jsonl`]: '',
        '-home-ana-shop/agent-0c78cdae.jsonl': [user('w1', null, 'Warmup', sidechain), assistant('w2', 'w1', 'W1', tokens(1000), sidechain)],
      });
      const { summary } = await build(folder);
      // Listed as no session (claude.md §8.4), its spend counted.
      expect(summary.totals).toMatchObject({ sessions: 0, warmupOnlySessions: 1, prompts: 0, tokens: { input: 1000, output: 10 } });
      // Named as what it is (regression: "Sub-agent: warmup (no main transcript)" read as a session's part).
      expect(summary.sessions).toEqual([expect.objectContaining({ id: WARMED, prompts: 0, warmupOnly: true, title: 'Warmup only (Claude Code started, never given a prompt)' })]);
      expect(summary.sessions[0]?.subagents.tokens).toMatchObject({ input: 1000 });
    });

    // claude.md §8.4: "don't create a visible session for it unless it has other content".
    describe('regression: a session of nothing but start-up warmups was listed and counted as one of the user’s sessions', () => {
      const WORKED = '77777777-7777-4777-8777-777777777777';
      const warmedAndWorked = () =>
        projects({
          [`-home-ana-shop/${WARMED}.jsonl`]: '',
          '-home-ana-shop/agent-0c78cdae.jsonl': [user('w1', null, 'Warmup', sidechain), assistant('w2', 'w1', 'W1', tokens(1000), sidechain)],
          [`-home-ana-shop/${WORKED}.jsonl`]: [
            user('u1', null, 'Fix the login form', { session: WORKED, at: '2026-03-11T09:00:00.000Z' }),
            assistant('a1', 'u1', 'R1', tokens(3000, 200), { session: WORKED, at: '2026-03-11T09:00:05.000Z' }),
          ],
        });

      it('counts its spend in every total while no list, count or table shows it as a session', async () => {
        const { out, summary } = await build(await warmedAndWorked());
        expect(summary.totals).toMatchObject({ sessions: 1, warmupOnlySessions: 1, prompts: 1, tokens: { input: 4000, output: 210 } });
        // Every dollar is still in a session's row, so the sessions add up to the totals.
        const sum = summary.sessions.reduce((total, s) => total + (s.cost.bough ?? 0), 0);
        expect(sum).toBeCloseTo(summary.totals.cost.bough ?? -1, 10);
        expect(summary.projects).toEqual([expect.objectContaining({ sessions: 1, tokens: expect.objectContaining({ input: 4000 }) })]);
        expect(summary.days.map((d) => [d.key, d.sessions])).toEqual([
          ['2026-03-10', 0],
          ['2026-03-11', 1],
        ]);
        const warmup = summary.sessions.find((s) => s.warmupOnly) as (typeof summary.sessions)[number];
        const index = await readFile(join(out, 'index.html'), 'utf8');
        expect(index).not.toContain('Warmup only');
        expect(index).toMatch(/<div class="card[^"]*">\s*<div class="card-label">Sessions<\/div>\s*<div class="card-value">1</);
        expect(index).toContain('Not listed as a session: 1 start of Claude Code that was never given a prompt.');
        // Nor is it found by a search (for its project's name, or "warmup").
        expect(await readFile(join(out, 'search', 'index.js'), 'utf8')).not.toContain('Warmup only');
        // Its project's page says so and links its page, which says why no list shows it.
        const project = await readFile(join(out, summary.projects[0]?.page as string), 'utf8');
        expect(project.match(/Warmup only/g)).toBeNull();
        expect(project).toContain(`href="../${warmup.page}"`);
        const page = await readFile(join(out, warmup.page), 'utf8');
        expect(page).toContain('the report’s lists do not show it as a session');
        const { stdout } = await run(['stats', await warmedAndWorked(), '--no-cache', '--json', '--by', 'session']);
        const bySession = statsSchema.parse(JSON.parse(stdout));
        expect(bySession.rows.map((r) => [r.sessions, r.warmupOnly])).toEqual([
          [1, false],
          [0, true],
        ]);
      });

      // Regression (a review of the first round): a report of a period holding neither said the
      // warmups' day was the sessions', and with --project named a filter the start did match.
      it('is no session an empty report says lies outside its period', async () => {
        const { out } = await build(await warmedAndWorked(), '--since', '2027-01-01');
        const index = await readFile(join(out, 'index.html'), 'utf8');
        expect(index).toContain('Nothing falls since 2027-01-01 · UTC. The one session read (2026-03-11) lies outside it.');
      });

      // Regression: a build into the same folder said "its archive also keeps 2 sessions" of one
      // session and one start, which the build before had said apart.
      it('is no session the archive keeps when a later report does not show it', async () => {
        const folder = await warmedAndWorked();
        const out = join(await tempDir(), 'report');
        expect((await run(['build', folder, '--no-cache', '--tz', 'UTC', '--out', out])).code).toBe(0);
        const { code, stdout } = await run(['build', folder, '--no-cache', '--tz', 'UTC', '--out', out, '--since', '2027-01-01']);
        expect(code).toBe(0);
        expect(stdout).toContain('its archive also keeps 1 session (and 1 start of Claude Code never given a prompt) this report does not show');
        expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('This folder&#39;s archive also keeps 1 session (and 1 start of Claude Code never given a prompt) this report does not show (with their pages)');
        const forgot = await run(['build', folder, '--no-cache', '--tz', 'UTC', '--out', out, '--since', '2027-01-01', '--forget-missing']);
        expect(forgot.stdout).toContain('1 session (and 1 start of Claude Code never given a prompt) the archive kept dropped (--forget-missing)');
        expect(forgot.stdout).not.toContain("sub-agent's file");
      });

      it('keeps a project of warmups alone, with its spend, and says what the build counted', async () => {
        const folder = await projects({
          [`-home-ana-shop/${WARMED}.jsonl`]: '',
          '-home-ana-shop/agent-0c78cdae.jsonl': [user('w1', null, 'Warmup', sidechain), assistant('w2', 'w1', 'W1', tokens(1000), sidechain)],
        });
        const out = join(await tempDir(), 'report');
        const { code, stdout } = await run(['build', folder, '--no-cache', '--tz', 'UTC', '--out', out]);
        expect(code).toBe(0);
        // Not "no session falls in this report's scope", its cost unsaid.
        expect(stdout).toMatch(/bough: 0 sessions \(and 1 start of Claude Code never given a prompt\) from 2 files · 0 skipped lines · \$0\.\d+ by bough/);
        const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
        expect(summary.projects).toEqual([expect.objectContaining({ sessions: 0, tokens: expect.objectContaining({ input: 1000 }) })]);
        const project = await readFile(join(out, summary.projects[0]?.page as string), 'utf8');
        const listed = project.match(/<section id="sessions">[\s\S]*?<\/section>/)?.[0] ?? '';
        expect(listed).not.toContain('<table');
        expect(listed).toContain('Its page, by when Claude Code started:');
      });
    });

    // claude.md §2: a zero-byte main file is what Claude Code 2.0 leaves of a start never given a prompt.
    it('regression: the empty main file of a start never given a prompt was a file skipped on every run', async () => {
      const OTHER = '88888888-8888-4888-8888-888888888888';
      const folder = await projects({
        [`-home-ana-shop/${WARMED}.jsonl`]: '',
        '-home-ana-shop/agent-0c78cdae.jsonl': [user('w1', null, 'Warmup', sidechain), assistant('w2', 'w1', 'W1', tokens(1000), sidechain)],
        // An empty file of no warmup read, or in another folder than its warmups, is still skipped.
        [`-home-ana-shop/${OTHER}.jsonl`]: '',
        [`-home-ana-blog/${WARMED}.jsonl`]: '',
      });
      const { summary } = await build(folder);
      expect(summary.diagnostics).toMatchObject({ files: 4, sessionFiles: 2, skippedFiles: 2, byReason: { 'empty-file': 2 } });
      const { stderr } = await run(['stats', folder, '--no-cache']);
      expect(stderr).toContain(`${OTHER}.jsonl (the file is empty)`);
      expect(stderr).toContain(`-home-ana-blog/${WARMED}.jsonl (the file is empty)`);
      expect(stderr).not.toContain(`-home-ana-shop/${WARMED}.jsonl`);
    });

    // Regression (a hostile look at d54f418): a session whose main file is gone, with a warmup (its
    // oldest file) and a sub-agent that did real work, was titled "Warmup only".
    it('names a session with a warmup and a working sub-agent by the working one', async () => {
      const folder = await projects({
        '-home-ana-shop/agent-0c78cdae.jsonl': [user('w1', null, 'Warmup', sidechain), assistant('w2', 'w1', 'W1', tokens(1000), sidechain)],
        '-home-ana-shop/agent-ea02459f.jsonl': [
          user('p1', null, 'Plan the refactor', { ...sidechain, at: '2026-03-13T10:00:00.000Z' }),
          assistant('p2', 'p1', 'P1', tokens(5000, 900), { ...sidechain, at: '2026-03-13T10:00:05.000Z' }),
        ],
      });
      const { summary } = await build(folder);
      expect(summary.sessions.map((s) => s.title)).toEqual([expect.not.stringContaining('Warmup only')]);
      expect(summary.totals.tokens).toMatchObject({ input: 6000, output: 910 });
    });

    it('never counts the task of a 2.1.x sub-agent whose main file is gone as a prompt; the session is named as a sub-agent', async () => {
      const folder = await projects({
        [`-home-ana-shop/${WARMED}/subagents/agent-abc1234.meta.json`]: '{"agentType":"general-purpose","description":"Research things"}',
        [`-home-ana-shop/${WARMED}/subagents/agent-abc1234.jsonl`]: [user('s1', null, 'Look around', sidechain), assistant('s2', 's1', 'S1', tokens(1000, 100), sidechain)],
        [`-home-ana-shop/${WARMED}/subagents/agent-acompact-1f.jsonl`]: [
          user('c1', null, 'summarise', { ...sidechain, at: '2026-03-10T10:05:00.000Z' }),
          assistant('c2', 'c1', 'C1', tokens(3, 8), { ...sidechain, at: '2026-03-10T10:05:01.000Z' }),
        ],
      });
      const { totals } = await stats(folder);
      expect(totals).toMatchObject({ sessions: 1, prompts: 0, tokens: { input: 1003, output: 108 } });
      const { out, summary } = await build(folder);
      expect(summary.sessions.map((s) => [s.id, s.prompts, s.title])).toEqual([[WARMED, 0, 'Sub-agent: Research things (no main transcript)']]);
      // Its page says what it holds (regression: "0 prompts · 0 replies" above a tree of replies, and an outline of "Prompts").
      const page = await readFile(join(out, summary.sessions[0]?.page ?? ''), 'utf8');
      expect(page).toContain('<p class="lede">a sub-agent&#39;s transcript: 1 task · 1 reply · 1 branch</p>');
      // Regression: its cards said "Prompts 0 typed by the user" and "Replies 0" under that line.
      const card = (label: string) => new RegExp(`<div class="card-label">${label}</div>\\s*<div class="card-value">([^<]*)</div>\\s*<div class="card-detail">([^<]*)</div>`).exec(page)?.slice(1);
      expect(card('Tasks')).toEqual(['1', 'given to the sub-agent']);
      // Named apart from the conversation's replies, which the lists and summary.json count, 0 here
      // (regression, reviews in a browser and of Codex: "Replies 1" on the page, 0 everywhere else).
      expect(card('Sub-agent replies')).toEqual(['1', 'its work: no replies in the lists']);
      expect(card('Replies')).toBeUndefined();
      expect(summary.sessions[0]?.replies).toBe(0);
      expect(card('Prompts')).toBeUndefined();
    });
  });

  describe('regression: sessions without a cwd from different project folders were merged into one "(unknown folder)" project', () => {
    const noCwd = (id: string, text: string) => [
      user(`${id}-u`, null, text, { session: id, cwd: null }),
      assistant(`${id}-a`, `${id}-u`, id, tokens(10, 1), { session: id, cwd: null }),
    ];

    it('groups them by the folder Claude Code filed them in, labelled as a folder name, never decoded', async () => {
      const folder = await projects({
        '-Users-me-my-app-v2/f3000000-0000-4000-8000-000000000001.jsonl': noCwd('f3000000-0000-4000-8000-000000000001', 'one'),
        '-srv-other-project/f3000000-0000-4000-8000-000000000009.jsonl': noCwd('f3000000-0000-4000-8000-000000000009', 'two'),
      });
      const { rows, totals } = await stats(folder, '--by', 'project');
      expect(totals.projects).toBe(2);
      expect(rows.map((r) => [r.label, r.sessions]).sort()).toEqual([
        ['-Users-me-my-app-v2 (folder name)', 1],
        ['-srv-other-project (folder name)', 1],
      ]);
    });

    it('puts one in the project of its folder’s sessions that record a cwd', async () => {
      const folder = await projects({
        '-home-ana-shop/f3000000-0000-4000-8000-000000000001.jsonl': noCwd('f3000000-0000-4000-8000-000000000001', 'one'),
        [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'hello'), assistant('a1', 'u1', 'A', tokens(10, 1))],
      });
      const { rows } = await stats(folder, '--by', 'project');
      expect(rows.map((r) => [r.key, r.label, r.sessions])).toEqual([['/home/ana/shop', 'shop', 2]]);
    });

    it('groups Pi sessions without a cwd by their `--<cwd>--` folder the same way', async () => {
      const root = await tempDir();
      for (const [dir, id] of [['--home-ana-a--', 'pa'], ['--home-ana-b--', 'pb']] as const) {
        await mkdir(join(root, dir));
        const header = { type: 'session', version: 3, id, timestamp: '2026-10-21T09:00:00.000Z' };
        const prompt = { type: 'message', id: `${id}1`, parentId: null, timestamp: '2026-10-21T09:00:01.000Z', message: { role: 'user', content: 'hi' } };
        await writeFile(join(root, dir, `2026-10-21T09-00-00-000Z_${id}.jsonl`), `${JSON.stringify(header)}\n${JSON.stringify(prompt)}\n`);
      }
      const { rows } = await stats(root, '--by', 'project');
      expect(rows.map((r) => r.label).sort()).toEqual(['--home-ana-a-- (folder name)', '--home-ana-b-- (folder name)']);
    });
  });
});

describe('Claude Code sessions as their pages show them', () => {
  const RESUMED = '44444444-4444-4444-8444-4444444444f2';
  /** The page of the session with this id. */
  const pageOf = async (out: string, summary: { sessions: { id: string | null; page: string }[] }, id: string) => readFile(join(out, summary.sessions.find((s) => s.id === id)?.page as string), 'utf8');

  // Regression (an outside review of Claude Code's format): the page said "Claude Code (format
  // v1)", a number Claude Code never writes, and never its version, which §3 says changes mid-session.
  // Regression (an outside review of Claude Code's format): Claude Code 2.x's retry of an
  // overloaded request, an api_error line whose error and attempt are fields, not content, showed
  // as an "api error" notice with no words.
  it('says what an api_error line of a retried request holds', async () => {
    const retry = {
      type: 'system',
      subtype: 'api_error',
      level: 'error',
      error: { status: 529, error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      retryInMs: 1129.7,
      retryAttempt: 1,
      maxRetries: 10,
      uuid: 'r2',
      parentUuid: 'r1',
      sessionId: SESSION,
      timestamp: '2026-03-10T10:00:02.000Z',
      cwd: '/home/ana/shop',
    };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('r1', null, 'hello'), retry] });
    const { out, summary } = await build(folder);
    expect(await pageOf(out, summary, SESSION)).toContain('529 overloaded_error: Overloaded · attempt 1 of 10, again in 1.1 s');
  });

  it('names the versions of Claude Code a session was written by, first and last', async () => {
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('v1', null, 'hello'), { ...(assistant('v2', 'v1', 'V', tokens(10, 1)) as object), version: '2.1.120' }],
    });
    const { out, summary } = await build(folder);
    expect(await pageOf(out, summary, SESSION)).toContain('<dt>Agent</dt><dd>Claude Code 2.1.114 to 2.1.120</dd>');
  });

  it('shows a bash-mode command without calling it killed (regression: "$ git status killed (no exit code)")', async () => {
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('b1', null, '<bash-input>git status</bash-input>'),
        user('b2', 'b1', '<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>'),
        user('b3', 'b2', 'thanks'),
        assistant('b4', 'b3', 'B', tokens(100)),
      ],
    });
    const { out, summary } = await build(folder);
    const page = await pageOf(out, summary, SESSION);
    expect(page).toContain('On branch main');
    expect(page).toContain('no exit code recorded');
    expect(page).not.toContain('killed');
  });

  it('shows a tool result written after the reply that went on from its call in its place, not as a branch (regression: "Branch 2" holding the result)', async () => {
    const call = {
      ...envelope('l2', 'l1', {}, '2026-03-10T10:00:01.000Z'),
      type: 'assistant',
      requestId: 'req_L1',
      message: { model: 'claude-haiku-4-5-20251001', id: 'msg_L1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_L', name: 'Bash', input: { command: 'echo lag' } }], stop_reason: 'tool_use', usage: tokens(100) },
    };
    const result = { ...envelope('l4', 'l2', {}, '2026-03-10T10:00:03.000Z'), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_L', content: 'LAGGING RESULT' }] } };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('l1', null, 'run it'), call, assistant('l3', 'l2', 'L2', tokens(100)), result, user('l5', 'l3', 'and then?'), assistant('l6', 'l5', 'L3', tokens(100))],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.branches, s.prompts])).toEqual([[1, 2]]);
    const page = await pageOf(out, summary, SESSION);
    expect(page).not.toContain('Branch 2');
    expect(page.indexOf('LAGGING RESULT')).toBeLessThan(page.indexOf('reply L2'));
  });

  it('lists every sub-agent file of a session with no main transcript, so that its split adds up (regression: the one shown as the session left out)', async () => {
    const warmup = (agent: string, request: string) => [
      { ...user(`${agent}-1`, null, 'Warmup', { sidechain: true }), agentId: agent },
      { ...assistant(`${agent}-2`, `${agent}-1`, request, tokens(1000), { sidechain: true }), agentId: agent },
    ];
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: '',
      [`-home-ana-shop/agent-w1.jsonl`]: warmup('w1', 'W1'),
      [`-home-ana-shop/agent-w2.jsonl`]: warmup('w2', 'W2'),
    });
    const { summary } = await build(folder);
    expect(summary.sessions).toHaveLength(1);
    const [session] = summary.sessions;
    expect(session?.subagentFiles.map((f) => [f.file.split('/').pop(), f.label])).toEqual([
      ['agent-w1.jsonl', 'warmup'],
      ['agent-w2.jsonl', 'warmup'],
    ]);
    const listed = session?.subagentFiles.reduce((sum, f) => sum + (f.usage.cost.bough ?? 0), 0);
    expect(listed).toBeCloseTo(session?.subagents.cost.bough ?? -1, 10);
    expect(session?.subagents.usageRecords).toBe(2);
  });

  it('says an API error once (regression: its text shown as the error and again as the reply)', async () => {
    const error = {
      ...envelope('e2', 'e1', {}, '2026-03-10T10:00:01.000Z'),
      type: 'assistant',
      isApiErrorMessage: true,
      message: { model: '<synthetic>', id: 'msg_err', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'API Error: 529 Overloaded' }], stop_reason: 'stop_sequence', usage: tokens(0, 0) },
    };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('e1', null, 'go on'), error] });
    const { out, summary } = await build(folder);
    expect((await pageOf(out, summary, SESSION)).split('API Error: 529 Overloaded').length - 1).toBe(1);
  });

  it.each([
    ['toolUseResult.agentId', { toolUseResult: { status: 'completed', agentId: 'a1b2c3', content: [{ type: 'text', text: 'Three carts.' }] } }, 'Three carts.', false],
    // Regression: a result that named its agent only in its text (formats/claude.md §6.3 (b)) was not linked, and titled "sub-agent".
    ['the agentId line of its text', {}, 'Three carts.\nagentId: a1b2c3 (use SendMessage with to: \'a1b2c3\' to continue this agent)', false],
    // Regression: a sub-agent whose sidecar alone named the call (§6.3 (c)) was not linked.
    ['its sidecar’s toolUseId', {}, 'Three carts.', true],
    // Regression: a call whose result names no agent (it failed, or was interrupted) was never
    // linked; the transcript's first prompt repeats the call's prompt word for word (§6.3 (d)).
    ['the call’s prompt, which the transcript begins with', { toolUseResult: 'Error: agent crashed' }, 'Error: agent crashed', false, true],
  ])('links a Task call to the sub-agent transcript it started, and back, named by %s', async (_, structured, text, sidecar, firstPrompt = false) => {
    const call = {
      ...envelope('k2', 'k1', {}, '2026-03-10T10:00:01.000Z'),
      type: 'assistant',
      requestId: 'req_K1',
      message: { model: 'claude-haiku-4-5-20251001', id: 'msg_K1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_K', name: 'Task', input: { description: 'Count the carts', prompt: 'Count them', subagent_type: 'general-purpose' } }], stop_reason: 'tool_use', usage: tokens(100) },
    };
    const result = { ...envelope('k3', 'k2', {}, '2026-03-10T10:00:05.000Z'), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_K', content: text }] }, ...structured };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('k1', null, 'count the carts'), call, result, assistant('k4', 'k3', 'K2', tokens(100))],
      // No first prompt of its own: the call's description names it.
      [`-home-ana-shop/${SESSION}/subagents/agent-a1b2c3.jsonl`]: [
        ...(firstPrompt ? [{ ...user('s1', null, 'Count them', { sidechain: true, at: '2026-03-10T10:00:02.000Z' }), agentId: 'a1b2c3' }] : []),
        { ...assistant('s2', 's1', 'S1', tokens(50), { sidechain: true, at: '2026-03-10T10:00:03.000Z' }), agentId: 'a1b2c3' },
      ],
      // A sidecar with no description: the call's names it still.
      ...(sidecar ? { [`-home-ana-shop/${SESSION}/subagents/agent-a1b2c3.meta.json`]: JSON.stringify({ toolUseId: 'toolu_K' }) } : {}),
    });
    const { out, summary } = await build(folder);
    const page = await pageOf(out, summary, SESSION);
    expect(page).toMatch(/<span class="tool-name">Task<\/span>[^]*?transcript: <a href="#subagent-1">Sub-agent: Count the carts<\/a>/);
    expect(page).toContain('<h2>Sub-agent: Count the carts</h2>');
    // To the call itself (regression: to the reply, which may make several).
    expect(page).toContain('Started by <a href="#e-k2~toolu__K">the Task call</a>');
    expect(page).toContain('<div class="tool-call action-delegate" id="e-k2~toolu__K">');
  });

  // Regression: linked by prompt and file order only, a call refused before it ran took the
  // transcript its retry started (§6.3 (d) is time and prompt).
  it('links a transcript by prompt to the call made before it and answered after it began', async () => {
    const task = (uuid: string, parent: string, id: string, at: string) => ({
      ...envelope(uuid, parent, {}, at),
      type: 'assistant',
      requestId: `req_${uuid}`,
      message: { model: 'claude-haiku-4-5-20251001', id: `msg_${uuid}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Task', input: { description: 'Sum up', prompt: 'Summarise the README.', subagent_type: 'general-purpose' } }], stop_reason: 'tool_use', usage: tokens(100) },
    });
    const answer = (uuid: string, parent: string, id: string, text: string, at: string) => ({ ...envelope(uuid, parent, {}, at), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: true }] } });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('r1', null, 'sum up the readme'),
        task('r2', 'r1', 'toolu_A', '2026-03-10T10:00:01.000Z'),
        answer('r3', 'r2', 'toolu_A', "The user doesn't want to proceed with this tool use.", '2026-03-10T10:00:02.000Z'),
        task('r4', 'r3', 'toolu_B', '2026-03-10T10:00:10.000Z'),
        answer('r5', 'r4', 'toolu_B', '[Request interrupted by user for tool use]', '2026-03-10T10:00:20.000Z'),
      ],
      [`-home-ana-shop/${SESSION}/subagents/agent-b2b2.jsonl`]: [
        { ...user('s1', null, 'Summarise the README.', { sidechain: true, at: '2026-03-10T10:00:11.000Z' }), agentId: 'b2b2' },
        { ...assistant('s2', 's1', 'S1', tokens(50), { sidechain: true, at: '2026-03-10T10:00:12.000Z' }), agentId: 'b2b2' },
      ],
    });
    const { out, summary } = await build(folder);
    const page = await pageOf(out, summary, SESSION);
    expect(page).toContain('Started by <a href="#e-r4~toolu__B">the Task call</a>');
  });

  it('calls a signature-only thinking block unrecorded, not redacted (regression: "Thinking (redacted by the provider)")', async () => {
    const thinking = (uuid: string, parent: string, request: string, block: object) => ({
      ...envelope(uuid, parent, {}, '2026-03-10T10:00:01.000Z'),
      type: 'assistant',
      requestId: `req_${request}`,
      message: { model: 'claude-haiku-4-5-20251001', id: `msg_${request}`, type: 'message', role: 'assistant', content: [block], stop_reason: null, usage: tokens(100) },
    });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('t1', null, 'think'),
        thinking('t2', 't1', 'T1', { type: 'thinking', thinking: '', signature: 'EqQBCkgIARABGAIiQ' }),
        thinking('t3', 't2', 'T2', { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' }),
        assistant('t4', 't3', 'T3', tokens(100)),
      ],
    });
    const { out, summary } = await build(folder);
    const page = await pageOf(out, summary, SESSION);
    // Said with nothing to open: there is no text to show.
    expect(page.match(/<p class="thinking">Thinking[^<]*<\/p>/g)).toEqual(['<p class="thinking">Thinking (no text recorded)</p>', '<p class="thinking">Thinking (redacted by the provider)</p>']);
  });

  it('lists a resumed file’s copied prompts as copied (regression: "Prompts (2)" beside "1 prompt")', async () => {
    const first = [user('c1', null, 'fix the cart'), assistant('c2', 'c1', 'C', tokens(100))];
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: first,
      [`-home-ana-shop/${RESUMED}.jsonl`]: [
        ...first.map((line) => ({ ...line, sessionId: RESUMED })),
        user('c3', 'c2', 'now the tax', { session: RESUMED, at: '2026-03-11T10:00:00.000Z' }),
        assistant('c4', 'c3', 'D', tokens(100), { session: RESUMED, at: '2026-03-11T10:00:01.000Z' }),
      ],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions.find((s) => s.id === RESUMED)?.prompts).toBe(1);
    const page = await pageOf(out, summary, RESUMED);
    expect(page).toContain('Prompts (2, 1 of them copied)');
  });

  // Regression: a resumed copy whose every usage record is its origin's showed "0 tokens" and a
  // table of zeros on its page, where its rows in the lists and summary.json said "—".
  it('says a copy that counts no usage record of its own so, as its rows in the lists do', async () => {
    const first = [user('c1', null, 'fix the cart'), assistant('c2', 'c1', 'C', tokens(100))];
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: first,
      [`-home-ana-shop/${RESUMED}.jsonl`]: [...first.map((line) => ({ ...line, sessionId: RESUMED })), user('c3', 'c2', 'now the tax', { session: RESUMED, at: '2026-03-11T10:00:00.000Z' })],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions.find((s) => s.id === RESUMED)).toMatchObject({ usageRecords: 0, cost: { bough: null } });
    const page = await pageOf(out, summary, RESUMED);
    expect(page).toContain('<div class="card-detail">no usage recorded</div>');
    expect(page).toContain('This session counts no usage record in this report: those its files hold are counted in the session they were copied from, or lie outside the period.');
  });
});

describe('command output with terminal colour codes', () => {
  // Regression: the one-line summary dropped them, the "show" fold kept the raw ESC ("Set model to [1msonnet[22m").
  it('is shown as the text they colour, everywhere on the page', async () => {
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('c1', null, '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>'),
        user('c2', 'c1', '<local-command-stdout>Set model to \u001b[1msonnet\u001b[22m (claude-sonnet-4-5)\nand more \u001b[38;5;208mcolour\u001b[0m, reset\u001b(B\u001b[m</local-command-stdout>'),
        user('c3', 'c2', 'thanks'),
        assistant('c4', 'c3', 'C', tokens(100)),
      ],
    });
    const { out, summary } = await build(folder);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('Set model to sonnet (claude-sonnet-4-5)');
    expect(page).not.toContain('\u001b');
    expect(page).not.toContain('[1msonnet');
    // tput sgr0's reset, with its character-set code.
    expect(page).toContain('colour, reset');
    expect(page).not.toContain('reset(B');
  });
});

describe('a slash command of the user’s own', () => {
  // Regression (a review of claude.md): a custom or plugin command's expanded text was shown as a
  // skill ("skill review"), where only text beginning "Base directory for this skill:" is a
  // skill's (claude.md §7).
  it('is shown as the command typed, a skill as a skill', async () => {
    const echo = (uuid: string, parent: string | null, name: string, args: string) => user(uuid, parent, `<command-name>/${name}</command-name>\n<command-message>${name}</command-message>\n<command-args>${args}</command-args>`);
    const expanded = (uuid: string, parent: string, text: string) => ({ ...(user(uuid, parent, text) as Record<string, unknown>), isMeta: true });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        echo('c1', null, 'review', 'the auth module'),
        expanded('c2', 'c1', 'Review the following code carefully: the auth module'),
        assistant('a1', 'c2', 'A1', tokens(10)),
        echo('c3', 'a1', 'my-skill', ''),
        expanded('c4', 'c3', 'Base directory for this skill: /home/ana/.claude/skills/my-skill\n\nDo the thing.'),
        assistant('a2', 'c4', 'A2', tokens(10)),
      ],
    });
    const { out, summary } = await build(folder);
    expect(summary.totals.prompts).toBe(2);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('<details class="skill"><summary>command <strong>/review</strong>');
    expect(page).toContain('<details class="skill"><summary>skill <strong>my-skill</strong>');
    expect(page).not.toContain('summary>skill <strong>review');
  });
});

describe('an edit whose call is not in the file', () => {
  // Regression (a review of the pages as a user reads them): its lines were counted in "+129 −16
  // lines" but its file was in no row of "Files touched" (an excerpt of a session, its first
  // result's call before the excerpt), so the rows did not add up to the line above them.
  it('counts its lines for the file its result names', async () => {
    const result = {
      ...(user('r1', null, 'x') as Record<string, unknown>),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_gone', content: 'The file has been updated.' }] },
      toolUseResult: { filePath: '/home/ana/shop/lib/cart.ex', structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, lines: [' keep', '-old', '+new', '+more'] }] },
    };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [result, user('u1', 'r1', 'thanks'), assistant('a1', 'u1', 'A1', tokens(10))] });
    const { out, summary } = await build(folder);
    expect(summary.sessions[0]?.tools).toMatchObject({ filesTouched: 1, linesAdded: 2, linesRemoved: 1 });
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('lib/cart.ex');
  });
});

describe('a user line without content', () => {
  // Regression (a review of claude.md): it was shown as an empty "injected context" entry, and
  // the data-quality page said nothing of it.
  it('is passed over and said, the conversation after it kept', async () => {
    const empty = { ...(user('u2', 'a1', 'x') as { message: object }), message: { role: 'user', content: null } };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), assistant('a1', 'u1', 'A1', tokens(10)), empty, user('u3', 'u2', 'and now?'), assistant('a3', 'u3', 'A3', tokens(10))] });
    const { out, summary } = await build(folder);
    expect(summary.totals).toMatchObject({ prompts: 2, replies: 2 });
    expect(summary.sessions[0]?.branches).toBe(1);
    expect(summary.diagnostics.items.map((d) => [d.line, d.reason, d.detail])).toEqual([[3, 'invalid-record', 'user line without content (none): nothing to show, passed over']]);
    expect(await readFile(join(out, summary.sessions[0]?.page as string), 'utf8')).not.toContain('injected context');
  });
});

describe('a side question’s replay of a reply the main thread holds', () => {
  // Regression: its entry showed the reply's cost with no word that the totals leave it out (claude.md §9.3).
  it('is marked as counted elsewhere, and counted once', async () => {
    const replay = { ...(assistant('s2', 's1', 'M2', { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 50_000, output_tokens: 20 }, { sidechain: true }) as Record<string, unknown>), requestId: 'req_other', agentId: 'aside_question-1' };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('m1', null, 'fix the cart'), assistant('m2', 'm1', 'M2', { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 50_000, output_tokens: 20 })],
      [`-home-ana-shop/${SESSION}/subagents/agent-aside_question-1.jsonl`]: [{ ...(user('s1', null, 'what about the tests?', { sidechain: true }) as Record<string, unknown>), agentId: 'aside_question-1' }, replay],
    });
    const { out, summary } = await build(folder);
    expect(summary.totals.tokens.cacheRead).toBe(50_000);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page.split('usage counted elsewhere').length - 1).toBe(1);
    // Regression: its summary named the reply's model, with "0 tokens · — by bough".
    expect(page).toContain('no usage of its own (what it replays is counted where it was first recorded)');
    expect(page).not.toContain('0 tokens · — by bough');
  });

  // Regression: the replay was told by the session id with the message id; a resumed copy writes
  // its own session id on the lines it copies, so with the origin's file gone (the copy holding
  // the reply) the side question's replay counted again: 100,000 cache reads for 50,000.
  it('is counted once when only a resumed copy of its session holds the reply', async () => {
    const RESUMED = '44444444-4444-4444-8444-4444444444b2';
    const reads = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 50_000, output_tokens: 20 };
    const replay = { ...(assistant('s2', 's1', 'M2', reads, { sidechain: true }) as Record<string, unknown>), requestId: 'req_other', agentId: 'aside_question-1' };
    const origin = [user('m1', null, 'fix the cart'), assistant('m2', 'm1', 'M2', reads)];
    const files = {
      [`-home-ana-shop/${RESUMED}.jsonl`]: [...origin.map((line) => ({ ...line, sessionId: RESUMED })), user('m3', 'm2', 'and the tax', { session: RESUMED, at: '2026-03-10T11:00:00.000Z' })],
      [`-home-ana-shop/${SESSION}/subagents/agent-aside_question-1.jsonl`]: [{ ...(user('s1', null, 'what about the tests?', { sidechain: true }) as Record<string, unknown>), agentId: 'aside_question-1' }, replay],
    };
    for (const withOrigin of [true, false]) {
      const folder = await projects(withOrigin ? { ...files, [`-home-ana-shop/${SESSION}.jsonl`]: origin } : files);
      const { summary } = await build(folder);
      expect({ withOrigin, cacheRead: summary.totals.tokens.cacheRead, records: summary.totals.usageRecords }).toEqual({ withOrigin, cacheRead: 50_000, records: 1 });
    }
  });
});

describe('a sub-agent whose transcript is not among the files read', () => {
  /** Claude Code 2.1's copy, in the session's file, of one line of a sub-agent's response (claude.md §8.2). */
  const progress = (uuid: string, request: string, usage: object, at: string) => ({
    ...(envelope(uuid, 'a1', {}, at) as Record<string, unknown>),
    type: 'progress',
    data: {
      type: 'agent_progress',
      agentId: 'abc1234',
      prompt: 'look around',
      normalizedMessages: [],
      message: { type: 'assistant', timestamp: at, requestId: `req_${request}`, uuid: `s-${uuid}`, message: { model: 'claude-haiku-4-5-20251001', id: `msg_${request}`, type: 'message', role: 'assistant', content: [], usage } },
    },
    toolUseID: 'agent_msg_1',
    parentToolUseID: 'toolu_T1',
  });
  const main = [
    user('u1', null, 'plan it'),
    assistant('a1', 'u1', 'M1', tokens(100)),
    // S1 streamed as two lines (its output grows), S2 as one: two requests.
    progress('p1', 'S1', { input_tokens: 2, cache_creation_input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 1 }, '2026-03-10T10:00:02.000Z'),
    progress('p2', 'S1', { input_tokens: 2, cache_creation_input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 40 }, '2026-03-10T10:00:03.000Z'),
    progress('p3', 'S2', { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 6000, output_tokens: 60 }, '2026-03-10T10:00:04.000Z'),
  ];

  // Regression (a review against ccusage): its spend, which only the copies in its session's file
  // told, was left out without a word ("sub-agents 0"; the data-quality page silent).
  it('is said, with what the copies show, and the copies are still not counted', async () => {
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: main });
    const { summary } = await build(folder);
    // The main thread's reply alone: copies are never usage.
    expect(summary.totals.tokens).toMatchObject({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
    expect(summary.diagnostics.byReason).toEqual({ 'subagent-not-read': 1 });
    expect(summary.diagnostics.items[0]).toMatchObject({
      line: 3,
      detail:
        "sub-agent abc1234: its transcript (agent-abc1234.jsonl) is not among the files read; this file holds Claude Code's copies of its 2 requests of claude-haiku-4-5-20251001 (5 input, 100 output, 11,000 cache read, 1,000 cache write tokens), which are not counted, as copies never are: read its transcript to count them",
    });
    const said = await run(['stats', folder, '--no-cache']);
    expect(said.stderr).toBe(
      "bough: warning: 1 sub-agent's requests, of which its session's file holds copies, are in no total: its transcript is not among the files read, or holds fewer of them (`bough build`'s data-quality page names it, with their tokens).\n",
    );
    // Regression (a hostile look): said of a session outside the period asked for too, whose
    // spend is in no total of this report anyway.
    expect((await run(['stats', folder, '--no-cache', '--since', '2027-01-01'])).stderr).not.toContain('sub-agent');
    // Regression (a second hostile look): said of a sub-agent that ran before the period, its
    // session going on into it; and not said of it where a resumed copy holding the same copies,
    // outside the period, came first in the order of files.
    const later = [...main, user('u9', 'p3', 'next day', { at: '2026-03-12T10:00:00.000Z' }), assistant('a9', 'u9', 'M9', tokens(100), { at: '2026-03-12T10:00:01.000Z' })];
    const RESUMED = '11111111-4444-4444-8444-444444444441';
    const resumed = [...main.map((line) => ({ ...line, sessionId: RESUMED })), user('r1', 'p3', 'resumed', { session: RESUMED, at: '2026-03-14T10:00:00.000Z' })];
    const spans = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: later, [`-home-ana-shop/${RESUMED}.jsonl`]: resumed });
    expect((await run(['stats', spans, '--no-cache', '--since', '2026-03-11', '--until', '2026-03-12'])).stderr).not.toContain('sub-agent');
    expect((await run(['stats', spans, '--no-cache', '--until', '2026-03-10'])).stderr).toContain("1 sub-agent's requests");
  });

  // Regression (a hostile look): a file naming thousands of sub-agents listed a note for each,
  // where a file's other problems past a thousand are counted by kind.
  it('is listed up to a thousand notes a file, the rest counted', async () => {
    const many = Array.from({ length: 1003 }, (_, i) => {
      const line = progress(`q${i}`, `Q${i}`, { input_tokens: 1, output_tokens: 1 }, '2026-03-10T10:00:05.000Z') as { data: { agentId: string } };
      return { ...line, data: { ...line.data, agentId: `a${i}` } };
    });
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [...main, ...many] });
    const { summary } = await build(folder);
    expect(summary.diagnostics.byReason).toEqual({ 'subagent-not-read': 1004 });
    expect(summary.diagnostics.items).toHaveLength(1001);
    expect(summary.diagnostics.items[1000]?.detail).toMatch(/^4 more of this kind from line \d+ on, not listed one by one/);
  });

  it('is not said where its transcript is read whole, and is where it holds fewer requests', async () => {
    const transcript = [
      { ...(user('s0', null, 'look around', { sidechain: true }) as Record<string, unknown>), agentId: 'abc1234' },
      { ...(assistant('s1', 's0', 'S1', { input_tokens: 2, cache_creation_input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 40 }, { sidechain: true }) as Record<string, unknown>), agentId: 'abc1234' },
      { ...(assistant('s2', 's1', 'S2', { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 6000, output_tokens: 60 }, { sidechain: true }) as Record<string, unknown>), agentId: 'abc1234' },
    ];
    // A resumed copy of the session holds the copies under its own session id; the transcript is its origin's.
    const RESUMED = '44444444-4444-4444-8444-4444444444c2';
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: main,
      [`-home-ana-shop/${SESSION}/subagents/agent-abc1234.jsonl`]: transcript,
      [`-home-ana-shop/${RESUMED}.jsonl`]: [...main.map((line) => ({ ...line, sessionId: RESUMED })), user('u2', 'p3', 'go on', { session: RESUMED, at: '2026-03-10T11:00:00.000Z' })],
    });
    const { summary } = await build(folder);
    expect(summary.diagnostics.byReason).toEqual({});
    // The transcript's requests, once each; the copies not again.
    expect(summary.totals.tokens).toMatchObject({ input: 105, output: 110, cacheRead: 11_000, cacheWrite: 1_000 });
    // Regression (a hostile look): a transcript read but cut short lost the spend of the requests
    // it no longer holds without a word, where the copies told of them.
    // Regression (a hostile look): held in two files read, it was said short by the larger one's.
    const RESUMED_ID = '44444444-4444-4444-8444-4444444444d2';
    const split = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: main,
      [`-home-ana-shop/${SESSION}/subagents/agent-abc1234.jsonl`]: transcript.slice(0, 2),
      [`-home-ana-shop/${RESUMED_ID}/subagents/agent-abc1234.jsonl`]: [transcript[0] as object, transcript[2] as object],
    });
    expect((await build(split)).summary.diagnostics.byReason).toEqual({});
    const cut = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: main, [`-home-ana-shop/${SESSION}/subagents/agent-abc1234.jsonl`]: transcript.slice(0, 2) });
    const short = (await build(cut)).summary;
    expect(short.totals.tokens).toMatchObject({ input: 102, output: 50, cacheRead: 5_000, cacheWrite: 1_000 });
    expect(short.diagnostics.items.map((d) => [d.reason, d.line, d.detail])).toEqual([
      [
        'subagent-not-read',
        3,
        "sub-agent abc1234: its transcript holds 1 of the 2 requests of claude-haiku-4-5-20251001 of which this file holds Claude Code's copies (cut short?); the other one (3 input, 60 output, 6,000 cache read, 0 cache write tokens) is not counted, as copies never are",
      ],
    ]);
  });
});

describe('a response streamed across the end of a month', () => {
  // Regression: its reply began in October and its usage, dated by its last line (claude.md §9.2),
  // is November's. The October page showed that usage unmarked though it did not count it, and
  // the November page marked the reply outside the period though it counted its cost. Then the
  // reply itself counted in October, its tokens in November: now both count in November.
  it('is marked on each month’s page as its usage is counted there', async () => {
    const first = assistant('a1', 'u1', 'X', tokens(100, 1), { at: '2026-10-31T23:59:59.500Z' }) as { message: object };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('u1', null, 'rename it', { at: '2026-10-31T23:59:00.000Z' }),
        { ...first, message: { ...first.message, stop_reason: null } },
        assistant('a2', 'a1', 'X', tokens(100, 300), { at: '2026-11-01T00:00:01.000Z' }),
        user('u2', 'a2', 'thanks', { at: '2026-11-01T00:05:00.000Z' }),
      ],
    });
    const month = async (name: string) => {
      const out = join(await tempDir(), name);
      const { code, stderr } = await run(['build', folder, '--no-cache', '--tz', 'UTC', '--month', name, '--out', out, '-q']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
      return { summary, page: await readFile(join(out, summary.sessions[0]?.page as string), 'utf8') };
    };
    const october = await month('2026-10');
    expect(october.summary.totals).toMatchObject({ prompts: 1, replies: 0, usageRecords: 0 });
    // The reply, marked as a whole, and the November prompt. Haiku 4.5: 100 × $1/M + 300 × $5/M.
    expect(october.page.match(/>outside period</g)).toHaveLength(2);
    expect(october.page).toContain('$0.0016 bough');
    const november = await month('2026-11');
    expect(november.summary.totals).toMatchObject({ prompts: 1, replies: 1, usageRecords: 1, cost: { bough: 0.0016 } });
    expect(november.page).not.toContain('bough · outside period');
    // The October prompt only: the reply's usage counts in November.
    expect(november.page.match(/>outside period</g)).toHaveLength(1);
  });
});

describe('an old (1.0.x) inline sub-agent’s tool work', () => {
  // Regression: its tool calls were shown inside the Task's result but not counted: "1 tool
  // call", where the same run in a sub-agent file of its own counted its calls and failures.
  it('is counted in its session, as a sub-agent file’s is', async () => {
    const withContent = (line: object, content: object[], stop = 'tool_use') => {
      const { message } = line as { message: object };
      return { ...line, message: { ...message, content, stop_reason: stop } };
    };
    const side = (n: number) => ({ sidechain: true, at: `2026-03-10T10:00:0${n}.000Z` });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('m1', null, 'please delegate'),
        withContent(assistant('m2', 'm1', 'T', tokens(100)), [{ type: 'tool_use', id: 'toolu_T', name: 'Task', input: { description: 'Side job', prompt: 'run the tests' } }]),
        user('s1', null, 'run the tests', side(2)),
        withContent(assistant('s2', 's1', 'S1', tokens(50), side(3)), [{ type: 'tool_use', id: 'toolu_B', name: 'Bash', input: { command: 'npm test' } }]),
        { ...user('s3', 's2', '', side(4)), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_B', content: '1 failing', is_error: true }] } },
        assistant('s4', 's3', 'S2', tokens(50), side(5)),
        { ...user('r1', 'm2', '', { at: '2026-03-10T10:00:06.000Z' }), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_T', content: 'tests fail' }] } },
        assistant('m3', 'r1', 'M', tokens(200), { at: '2026-03-10T10:00:07.000Z' }),
      ],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions.map((s) => [s.prompts, s.tools.calls, s.tools.failures])).toEqual([[1, 2, 1]]);
    // Kept by the archive once its file is gone, with the same numbers (regression: 1 call, 0 failed).
    await rm(join(folder, 'projects', '-home-ana-shop', `${SESSION}.jsonl`));
    const { code } = await run(['build', folder, '--no-cache', '--tz', 'UTC', '--out', out, '-q']);
    expect(code).toBe(0);
    const kept = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(kept.sessions.map((s) => [s.prompts, s.tools.calls, s.tools.failures, s.sourceLastSeen !== null])).toEqual([[1, 2, 1, true]]);
  });
});

describe('system lines', () => {
  // Regression: a failed hook was dropped with the hook bookkeeping, and the line naming a local
  // command was labelled "command output", like the output after it.
  it('say a hook that failed, and name a local command', async () => {
    const system = (uuid: string, parent: string, fields: object) => ({ ...envelope(uuid, parent, {}, '2026-03-10T10:00:02.000Z'), type: 'system', ...fields });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('u1', null, 'hello'),
        assistant('a1', 'u1', 'A', tokens(100)),
        system('h1', 'a1', { subtype: 'stop_hook_summary', hookErrors: ['notify-send: not found'], hookCount: 1 }),
        system('h2', 'h1', { subtype: 'stop_hook_summary', hookErrors: [], hookCount: 1 }),
        system('c1', 'h2', { subtype: 'local_command', content: '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>', level: 'info' }),
        system('c2', 'c1', { subtype: 'local_command', content: '<local-command-stdout>No MCP servers configured.</local-command-stdout>', level: 'info' }),
      ],
    });
    const { out, summary } = await build(folder);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page.match(/notify-send: not found/g)).not.toBeNull();
    expect(page.match(/>hook error</g)).toHaveLength(1);
    expect(page).toContain('>command /mcp<');
    expect(page.match(/>command output</g)).toHaveLength(1);
    // What a failed hook said is what its command printed: left out with the tools' output, as a
    // command's is (regression, a sharing review: shown under --omit tool-output).
    const omitted = await build(folder, '--omit', 'tool-output');
    const omittedPage = await readFile(join(omitted.out, omitted.summary.sessions[0]?.page as string), 'utf8');
    expect(omittedPage).not.toContain('notify-send');
    expect(omittedPage).not.toContain('No MCP servers configured');
    expect(omittedPage.match(/>hook error</g)).toHaveLength(1);
  });

  // Regression: without a request id (a gateway that returns one message id for every answer), an
  // answer following the last directly was taken for another line of it: two answers, one record.
  it('counts two answers under one message id and no request id as two, when their prompts differ', async () => {
    const answer = (uuid: string, parent: string, at: string, text: string, usage: object, stop: string | null = 'end_turn') => ({
      ...envelope(uuid, parent, {}, at),
      type: 'assistant',
      message: { model: 'claude-haiku-4-5-20251001', id: 'ocgo', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: stop, usage },
    });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('u1', null, 'go'),
        answer('a1', 'u1', '2026-03-10T10:00:01.000Z', 'first answer', tokens(1000, 100)),
        answer('a2', 'a1', '2026-03-10T10:00:09.000Z', 'second answer', tokens(2000, 300)),
        // A response streamed over two lines without a request id is still one, also where its
        // last line leaves a count out (a hostile look: it was split, the prompt billed twice).
        answer('a3', 'a2', '2026-03-10T10:00:10.000Z', 'third', tokens(3000, 1), null),
        answer('a4', 'a3', '2026-03-10T10:00:11.000Z', 'answer, second block', { input_tokens: 3000, cache_read_input_tokens: 0, output_tokens: 500 }),
        // Claude Code 2.0 writes the stop reason on every line of a response: still one (a
        // hostile look at a rule that split on it: cb2e607c without request ids billed 2.6×).
        answer('a5', 'a4', '2026-03-10T10:00:12.000Z', 'answer, third block', { input_tokens: 3000, cache_read_input_tokens: 0, output_tokens: 600 }),
      ],
    });
    const { totals } = await stats(folder);
    expect(totals.usageRecords).toBe(3);
    expect(totals.tokens).toMatchObject({ input: 6000, output: 1000 });
    // claude-haiku-4-5: $1/M in, $5/M out.
    expect(totals.cost.bough).toBeCloseTo(0.006 + 0.005, 10);
  });

  // Regression: a line that recorded its cost but no usage (Claude Code before 1.0.9) counted nothing.
  it('counts the recorded cost of a reply line with no usage object', async () => {
    const line: Record<string, unknown> = { ...(assistant('a1', 'u1', 'A', tokens(0)) as Record<string, unknown>), costUSD: 0.123 };
    delete (line['message'] as Record<string, unknown>)['usage'];
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'p'), line] });
    const { totals } = await stats(folder);
    expect(totals.usageRecords).toBe(1);
    expect(totals.cost.recorded).toBeCloseTo(0.123, 10);
    expect(totals.cost.bough).toBeNull();
    expect(totals.unpricedRecords).toBe(1);
  });

  // Regression: a resumed copy holding a fuller record of a copied response than its origin counts
  // it (the fullest record counts), yet its page folded that reply among the entries "copied from
  // “p”, counted there", its cost marked "not counted here" under a headline that included it.
  it('shows a copied reply as counted in the resumed copy that holds its fuller record', async () => {
    const ORIGIN = '33333333-3333-4333-8333-333333333331';
    const COPY = '33333333-3333-4333-8333-333333333332';
    const partial = (session: string) => ({ ...(assistant('a1', 'u1', 'K1', tokens(10, 1), { session }) as Record<string, unknown>) });
    const streamed = (line: Record<string, unknown>) => ({ ...line, message: { ...(line['message'] as object), stop_reason: null } });
    const folder = await projects({
      [`-home-ana-shop/${ORIGIN}.jsonl`]: [user('u1', null, 'p', { session: ORIGIN }), streamed(partial(ORIGIN))],
      [`-home-ana-shop/${COPY}.jsonl`]: [
        user('u1', null, 'p', { session: COPY }),
        streamed(partial(COPY)),
        assistant('a2', 'a1', 'K1', tokens(10, 5000), { session: COPY }),
        user('u3', 'a2', 'go on', { session: COPY, at: '2026-03-10T11:00:00.000Z' }),
        assistant('a3', 'u3', 'K3', tokens(10, 100), { session: COPY, at: '2026-03-10T11:00:01.000Z' }),
      ],
    });
    const { out, summary } = await build(folder);
    const copy = summary.sessions.find((s) => s.id === COPY);
    // claude-haiku-4-5: $1/M in, $5/M out; K1 at its fullest (5,000 out) and K3 count in the copy.
    expect(copy?.cost.bough).toBeCloseTo(0.00001 + 0.025 + 0.00001 + 0.0005, 10);
    const page = await readFile(join(out, copy?.page ?? ''), 'utf8');
    expect(page).not.toContain('not counted here');
    expect(page).toContain('1 entry copied from');
    // The origin shows its partial record of K1, and says it counts elsewhere.
    const origin = await readFile(join(out, summary.sessions.find((s) => s.id === ORIGIN)?.page ?? ''), 'utf8');
    expect(origin).toContain('not counted here');
  });

  // Regression: a sub-agent that ran after the period's end was shown on its session's page as
  // "0 tokens · — by bough", which reads as a sub-agent that cost nothing.
  it('says a sub-agent’s usage lies outside the period rather than show it as none', async () => {
    const PARENT = '77777777-7777-4777-8777-777777777771';
    const late = { session: PARENT, sidechain: true, at: '2026-04-01T00:30:00.000Z' };
    const folder = await projects({
      [`-home-ana-shop/${PARENT}.jsonl`]: [user('p1', null, 'research it', { session: PARENT, at: '2026-03-31T23:00:00.000Z' }), assistant('p2', 'p1', 'P', tokens(100), { session: PARENT, at: '2026-03-31T23:00:01.000Z' })],
      [`-home-ana-shop/${PARENT}/subagents/agent-late1.jsonl`]: [user('s1', null, 'look', late), assistant('s2', 's1', 'S', tokens(20000, 750), { ...late, at: '2026-04-01T00:31:00.000Z' })],
    });
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await run(['build', folder, '--no-cache', '--tz', 'UTC', '--month', '2026-03', '--out', out, '-q']);
    expect([code, stderr]).toEqual([0, '']);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    const page = await readFile(join(out, summary.sessions[0]?.page ?? ''), 'utf8');
    // claude-haiku-4-5: 20,000 in at $1/M, 750 out at $5/M.
    expect(page).toContain('none of its usage in this period · 20,750 tokens, $0.0238 by bough in all');
    expect(page).not.toContain('0 tokens · — by bough');
  });
});


// Regression (an outside review of the pages): a sub-agent's file that replays its session's
// uuids gave its entries the anchors of the session's own, so a search result for the sub-agent's
// reply opened the session's reply instead.
describe('a sub-agent file reusing its session’s uuids', () => {
  it('gets anchors of its own on the session’s page, where search results lead', async () => {
    const side = { sidechain: true, at: '2026-03-10T10:00:05.000Z' };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('U1', null, 'main prompt cword'), assistant('A1', 'U1', 'M', tokens(100))],
      [`-home-ana-shop/${SESSION}/subagents/agent-abc1234.jsonl`]: [user('U1', null, 'sub prompt subcword', side), assistant('A1', 'U1', 'S', tokens(50), side)],
    });
    const { out, summary } = await build(folder);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    const ids = [...page.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const shards = await readFile(join(out, 'search', 'shard-0.js'), 'utf8');
    const anchorOf = (word: string) => new RegExp(`#(e-[^"]+)","[^"]*${word}`).exec(shards)?.[1];
    const sub = anchorOf('reply S');
    expect(sub).toBeDefined();
    expect(sub).not.toBe(anchorOf('reply M'));
    // The anchor is the sub-agent's reply on the page, not the session's.
    expect(page).toMatch(new RegExp(`id="${sub}"[\\s\\S]{0,3000}reply S`));
  });
});

describe('lines without a request id (gateways, Anthropic-compatible endpoints)', () => {
  /** A line of response `id` as a gateway writes it: no requestId. */
  function gatewayLine(uuid: string, parent: string, id: string, block: object, usage: object, stop: string | null, line: Line = {}): object {
    return { ...envelope(uuid, parent, line, '2026-03-10T10:00:01.000Z'), type: 'assistant', message: { model: 'claude-haiku-4-5-20251001', id, type: 'message', role: 'assistant', content: [block], stop_reason: stop, usage } };
  }
  const call = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: `/home/ana/shop/${id}.ts` } });
  const result = (uuid: string, parent: string, id: string, line: Line = {}) => ({ ...envelope(uuid, parent, line, '2026-03-10T10:00:02.000Z'), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
  const prompt = (cacheRead: number, output: number) => ({ input_tokens: 3, cache_creation_input_tokens: 1000, cache_read_input_tokens: cacheRead, output_tokens: output });

  // Regression: a response whose lines Claude Code wrote between its calls' results (2.x) was
  // counted once per line after a result: four replies and records, twice its cache reads.
  it('counts a response written between its calls’ results once, and a gateway’s next answer under the same id apart', async () => {
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('p1', null, 'read three files'),
        gatewayLine('a1', 'p1', 'msg_1', { type: 'text', text: 'Reading them.' }, prompt(20_000, 12), null),
        gatewayLine('a2', 'a1', 'msg_1', call('t1'), prompt(20_000, 12), null),
        result('r1', 'a2', 't1'),
        { ...envelope('h1', 'r1', {}, '2026-03-10T10:00:02.000Z'), type: 'attachment', attachment: { type: 'hook_success', hookName: 'PostToolUse' } },
        gatewayLine('a3', 'h1', 'msg_1', call('t2'), prompt(20_000, 12), null),
        result('r2', 'a3', 't2'),
        gatewayLine('a4', 'r2', 'msg_1', call('t3'), prompt(20_000, 240), 'tool_use'),
        result('r3', 'a4', 't3'),
        // A gateway that writes one id for every response: the next request holds the results.
        gatewayLine('a5', 'r3', 'msg_1', { type: 'text', text: 'Done.' }, prompt(22_000, 30), 'end_turn', { at: '2026-03-10T10:00:09.000Z' }),
      ],
    });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ replies: 2, usageRecords: 2, tokens: { output: 270, cacheRead: 42_000, cacheWrite: 2000 } });
  });

  // Regression: a resumed or forked copy's history, counted by the session whose file holds it
  // first, was counted again by the copy: its usage was keyed by the file's session, not the one
  // its lines say. And (a review of Claude Code's copies) by a copy that rewrites the session id
  // on the lines it copies too: $0.0285 where $0.0180 was spent, claimed under the copy's id.
  it.each(['kept', 'rewritten'])('counts a copied history once when the copy’s lines have its origin’s session id %s', async (copiedAs) => {
    const ORIGIN = 'c2000000-0000-4000-8000-000000000001';
    const COPY = 'c2000000-0000-4000-8000-000000000002';
    const copiedSession = copiedAs === 'kept' ? ORIGIN : COPY;
    const history = (session: string) => [
      user('o1', null, 'first', { session }),
      gatewayLine('o2', 'o1', 'msg_o2', { type: 'text', text: 'one' }, prompt(1000, 100), 'end_turn', { session }),
      user('o3', 'o2', 'second', { session, at: '2026-03-10T10:01:00.000Z' }),
      gatewayLine('o4', 'o3', 'msg_o4', { type: 'text', text: 'two' }, prompt(1000, 100), 'end_turn', { session, at: '2026-03-10T10:01:01.000Z' }),
    ];
    const folder = await projects({
      [`-home-ana-shop/${ORIGIN}.jsonl`]: history(ORIGIN),
      [`-home-ana-shop/${COPY}.jsonl`]: [
        ...history(copiedSession),
        user('c1', 'o4', 'third', { session: COPY, at: '2026-03-11T10:00:00.000Z' }),
        gatewayLine('c2', 'c1', 'msg_c2', { type: 'text', text: 'three' }, prompt(1000, 100), 'end_turn', { session: COPY, at: '2026-03-11T10:00:01.000Z' }),
      ],
    });
    const { totals, rows } = await stats(folder, '--by', 'session');
    expect(totals).toMatchObject({ sessions: 2, usageRecords: 3, tokens: { output: 300, cacheRead: 3000 } });
    expect(rows.map((row) => row.usageRecords).sort()).toEqual([1, 2]);
  });

  // Regression (a pricing review, 2026-12-07): two resumed copies of one session whose file is gone
  // (Claude Code's 30-day clean-up), one rewriting the session id on what it copied and one not,
  // each counted the origin's response: neither is the other's origin by its ids.
  it.each([['rewritten', 'kept'], ['rewritten', 'rewritten']])('counts a gone origin’s history once in two copies of it, its id %s in one and %s in the other', async (firstAs, secondAs) => {
    const [ORIGIN, FIRST, SECOND] = ['c4000000-0000-4000-8000-000000000001', 'c4000000-0000-4000-8000-000000000002', 'c4000000-0000-4000-8000-000000000003'];
    const turn = (n: number, parent: string | null, session: string, day: number) => [
      user(`u${n}`, parent, `prompt ${n}`, { session, at: `2026-03-1${day}T10:00:0${n}.000Z` }),
      gatewayLine(`a${n}`, `u${n}`, `msg_${n}`, { type: 'text', text: `reply ${n}` }, prompt(1000, 100), 'end_turn', { session, at: `2026-03-1${day}T10:00:1${n}.000Z` }),
    ];
    const copied = (as: string, copy: string) => (as === 'kept' ? ORIGIN : copy);
    const folder = await projects({
      [`-home-ana-shop/${FIRST}.jsonl`]: [...turn(1, null, copied(firstAs, FIRST), 0), ...turn(2, 'a1', FIRST, 1)],
      [`-home-ana-shop/${SECOND}.jsonl`]: [...turn(1, null, copied(secondAs, SECOND), 0), ...turn(3, 'a1', SECOND, 2)],
    });
    const { totals } = await stats(folder, '--by', 'session');
    expect(totals).toMatchObject({ sessions: 2, prompts: 3, usageRecords: 3, tokens: { output: 300 } });
  });

  // And its hostile look: a copy holding the response cut mid-stream (its first line, output 12)
  // counted it again beside the other's whole one (output 240).
  it('counts a gone origin’s response once where one copy holds it cut mid-stream', async () => {
    const [FIRST, SECOND] = ['c5000000-0000-4000-8000-000000000002', 'c5000000-0000-4000-8000-000000000003'];
    const ORIGIN = 'c5000000-0000-4000-8000-000000000001';
    const at = '2026-03-10T10:00:01.000Z';
    const streamed = (session: string, whole: boolean) => [
      user('u1', null, 'prompt 1', { session, at: '2026-03-10T10:00:00.000Z' }),
      gatewayLine('a1', 'u1', 'msg_1', { type: 'text', text: 'reply' }, prompt(1000, 12), null, { session, at }),
      ...(whole ? [gatewayLine('a2', 'a1', 'msg_1', { type: 'text', text: 'reply, whole' }, prompt(1000, 240), 'end_turn', { session, at })] : []),
    ];
    const folder = await projects({
      [`-home-ana-shop/${FIRST}.jsonl`]: [...streamed(FIRST, true), user('u3', 'a2', 'prompt 2', { session: FIRST, at: '2026-03-11T10:00:00.000Z' })],
      [`-home-ana-shop/${SECOND}.jsonl`]: [...streamed(ORIGIN, false), user('u4', 'a1', 'prompt 3', { session: SECOND, at: '2026-03-12T10:00:00.000Z' })],
    });
    const { totals } = await stats(folder, '--by', 'session');
    expect(totals).toMatchObject({ usageRecords: 1, tokens: { output: 240, cacheRead: 1000 } });
  });

  // Regression (a second hostile look): a copy of such a copy, the second keeping the first's
  // session id, counted the history again: 6 records where 4 were made. (Both rewriting it is
  // counted once, by its copied entries, but the second copy is taken for the first's origin and
  // counts what they share.)
  it.each(['kept', 'kept by both'])('counts a history copied twice once, the second copy’s session id %s on what it copied', async (secondAs) => {
    const [ORIGIN, FIRST, SECOND] = ['c3000000-0000-4000-8000-000000000001', 'c3000000-0000-4000-8000-000000000002', 'c3000000-0000-4000-8000-000000000003'];
    const turn = (n: number, parent: string | null, session: string, day: number) => [
      user(`u${n}`, parent, `prompt ${n}`, { session, at: `2026-03-1${day}T10:00:0${n}.000Z` }),
      gatewayLine(`a${n}`, `u${n}`, `msg_${n}`, { type: 'text', text: `reply ${n}` }, prompt(1000, 100), 'end_turn', { session, at: `2026-03-1${day}T10:00:1${n}.000Z` }),
    ];
    const origin = [...turn(1, null, ORIGIN, 0), ...turn(2, 'a1', ORIGIN, 0)];
    // 'kept by both': each copy keeps the ids its lines had, so the second holds the origin's first.
    const firstCopied = secondAs === 'kept by both' ? ORIGIN : FIRST;
    const first = [...turn(1, null, firstCopied, 0), ...turn(2, 'a1', firstCopied, 0), ...turn(3, 'a2', FIRST, 1)];
    const copiedBySecond = FIRST;
    const second = [...turn(1, null, secondAs === 'kept by both' ? ORIGIN : copiedBySecond, 0), ...turn(2, 'a1', secondAs === 'kept by both' ? ORIGIN : copiedBySecond, 0), ...turn(3, 'a2', copiedBySecond, 1), ...turn(4, 'a3', SECOND, 2)];
    const folder = await projects({ [`-home-ana-shop/${ORIGIN}.jsonl`]: origin, [`-home-ana-shop/${FIRST}.jsonl`]: first, [`-home-ana-shop/${SECOND}.jsonl`]: second });
    const { totals, rows } = await stats(folder, '--by', 'session');
    expect(totals).toMatchObject({ sessions: 3, usageRecords: 4, tokens: { output: 400 } });
    expect(rows.map((row) => row.usageRecords).sort()).toEqual([1, 1, 2]);
    // Each copy is shown copied from the one it was copied from (a review of Claude Code's
    // copies: a copy of a copy that kept the ids was shown copied from the first session).
    const { summary } = await build(folder);
    const originOf = (id: string) => summary.sessions.find((session) => session.file.endsWith(`${id}.jsonl`))?.origin ?? null;
    expect([originOf(ORIGIN), originOf(FIRST)?.endsWith(`${ORIGIN}.jsonl`), originOf(SECOND)?.endsWith(`${FIRST}.jsonl`)]).toEqual([null, true, true]);
  });

  // Regression (a third hostile look): two copies that rewrite the session id, their files older
  // on disk than their origin's (a folder copied without its times), counted the history again
  // under a change since undone (6 records where 4 were made).
  it('counts a history once when its copies’ files are older on disk than its origin’s', async () => {
    const [ORIGIN, FIRST, SECOND] = ['c4000000-0000-4000-8000-000000000001', 'c4000000-0000-4000-8000-000000000002', 'c4000000-0000-4000-8000-000000000003'];
    const turn = (n: number, parent: string | null, session: string, day: number) => [
      user(`u${n}`, parent, `prompt ${n}`, { session, at: `2026-03-1${day}T10:00:0${n}.000Z` }),
      gatewayLine(`a${n}`, `u${n}`, 'ocgo', { type: 'text', text: `reply ${n}` }, prompt(1000, 100), 'end_turn', { session, at: `2026-03-1${day}T10:00:1${n}.000Z` }),
    ];
    const history = (session: string) => [...turn(1, null, session, 0), ...turn(2, 'a1', session, 0)];
    const folder = await projects({
      [`-home-ana-shop/${ORIGIN}.jsonl`]: history(ORIGIN),
      [`-home-ana-shop/${FIRST}.jsonl`]: [...history(FIRST), ...turn(3, 'a2', FIRST, 1)],
      [`-home-ana-shop/${SECOND}.jsonl`]: [...history(SECOND), ...turn(4, 'a2', SECOND, 2)],
    });
    for (const [id, day] of [[FIRST, 1], [SECOND, 2], [ORIGIN, 3]] as const) await utimes(join(folder, 'projects', '-home-ana-shop', `${id}.jsonl`), new Date(`2026-03-2${day}T00:00:00Z`), new Date(`2026-03-2${day}T00:00:00Z`));
    const { totals } = await stats(folder, '--by', 'session');
    expect(totals).toMatchObject({ sessions: 3, usageRecords: 4, tokens: { output: 400 } });
  });
});

// Regression (a review of Claude Code): a PDF attached as a `document` block, which bough does not
// know, was shown as JSON with some 20,000 characters of its base64.
describe('a document block of encoded data', () => {
  it('names its data by size instead of showing it, and keeps its other fields', async () => {
    const pdf = Buffer.alloc(300_000, 'PDF bytes 0123456789 ').toString('base64');
    const prompt = { ...envelope('u1', null, {}, '2026-03-10T10:00:00.000Z'), type: 'user', message: { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } }, { type: 'text', text: 'read this' }] } };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [prompt, assistant('a1', 'u1', 'A', tokens(100))] });
    const { out, summary } = await build(folder);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('block of type <code>document</code>');
    expect(page).toContain('[293 kB of encoded data, not shown]');
    expect(page).toContain('application/pdf');
    expect(page).not.toContain(pdf.slice(0, 200));
  });
});

// Regression (a review of Claude Code): one field of the wrong type in a line's envelope (a uuid
// written as a number, isSidechain as text) skipped the line whole: a billed reply and its tokens.
describe('a reply whose envelope has a field of the wrong type', () => {
  it('keeps the reply and its tokens, and says which field it left out', async () => {
    const odd: [string, unknown][] = [['uuid', 12345], ['isSidechain', 'false'], ['requestId', 999], ['sessionId', 42], ['cwd', ['a']], ['version', 2.1]];
    const lines: object[] = [user('u0', null, 'go')];
    let parent = 'u0';
    for (const [n, [field, value]] of odd.entries()) {
      const reply = { ...assistant(`a${n}`, parent, `R${n}`, tokens(2 ** n)), [field]: value };
      lines.push(reply, user(`u${n + 1}`, `a${n}`, `next ${n}`));
      parent = `u${n + 1}`;
    }
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: lines });
    const { code, stdout } = await run(['stats', folder, '--no-cache', '--tz', 'UTC', '--json']);
    expect(code).toBe(0);
    expect(statsSchema.parse(JSON.parse(stdout)).totals).toMatchObject({ usageRecords: 6, replies: 6, tokens: { input: 63 } });
    const { summary } = await build(folder);
    const said = summary.diagnostics.items.filter((d) => d.reason === 'invalid-record');
    expect(said.map((d) => d.detail)).toEqual(odd.map(([field]) => expect.stringContaining(`${field} not as the format has it (kept without it)`)));
    expect(summary.diagnostics.skippedLines).toBe(0);
  });

  // Regression (a hostile look at the fix above): a streamed response's line whose request id was
  // a number, left out, started a response of its own: the prompt counted twice (200 where 100).
  it.each([
    ['the second line', 1],
    ['the first line', 0],
  ])('counts a streamed response once when the request id of %s does not read', async (_, odd) => {
    const streamed = (uuid: string, parent: string, output: number, text: string) => {
      const line = assistant(uuid, parent, 'A', { ...tokens(100, output), cache_read_input_tokens: 1000 }) as { message: object };
      return { ...line, message: { ...line.message, content: [{ type: 'text', text }] } };
    };
    const lines = [user('u1', null, 'go'), streamed('a1', 'u1', 5, 'first part'), streamed('a2', 'a1', 50, 'second part')] as Record<string, unknown>[];
    lines[1 + odd] = { ...lines[1 + odd], requestId: 12345 };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [...lines, user('u2', 'a2', 'thanks')] });
    expect((await stats(folder)).totals).toMatchObject({ replies: 1, usageRecords: 1, tokens: { input: 100, cacheRead: 1000, output: 50 } });
  });

  // Regression (a fourth hostile look): two requests of one message id (a gateway's, §9.3), a tool
  // result between them, were joined as one when a request id did not read: the first's tokens lost.
  // And (a seventh): of a gateway that gives no prompt counts, two requests of one message id were
  // joined across the tool result between them, their counts never differing.
  it.each([
    [1, 2, 100],
    [1, 'req_2', 100],
    ['req_1', 2, 100],
    [1, 2, 0],
    ['req_1', 2, 0],
  ])('keeps two requests of one message id apart when request ids %s and %s do not both read (input %s)', async (first, second, input) => {
    const request = (uuid: string, parent: string, requestId: unknown, n: number, content: object[]) => {
      const line = assistant(uuid, parent, 'X', { ...tokens(input * n, 10), cache_read_input_tokens: input * n * 10 }, { at: `2026-03-10T10:00:0${n}.000Z` }) as { message: object };
      return { ...line, requestId, message: { ...line.message, id: 'msg_same', content } };
    };
    const result = { ...envelope('t1', 'a1', {}, '2026-03-10T10:00:02.000Z'), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } };
    const lines = [user('u1', null, 'go'), request('a1', 'u1', first, 1, [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }]), result, request('a2', 't1', second, 3, [{ type: 'text', text: 'done' }])];
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: lines });
    expect((await stats(folder)).totals).toMatchObject({ replies: 2, usageRecords: 2, tokens: { input: input * 4, cacheRead: input * 40, output: 20 } });
  });

  // Regression (a sixth hostile look): joined by its parent alone, a response's line written below
  // a progress line (as Claude Code 2.x writes them) began a reply of its own, its prompt counted
  // twice (the corpus's longest session: $3.84 where $1.97).
  it('joins a line below a progress line to its response when its request id does not read', async () => {
    const streamed = (uuid: string, parent: string, requestId: unknown, output: number, content: object[]) => {
      const line = assistant(uuid, parent, 'A', { ...tokens(100, output), cache_read_input_tokens: 1000 }) as { message: object };
      return { ...line, requestId, message: { ...line.message, content } };
    };
    const progress = { ...envelope('p1', 'a1', {}, '2026-03-10T10:00:01.500Z'), type: 'progress', data: { type: 'hook_progress' } };
    const lines = [user('u1', null, 'go'), streamed('a1', 'u1', 'req_A', 5, [{ type: 'text', text: 'looking' }]), progress, streamed('a2', 'p1', 42, 50, [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }])];
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: lines });
    expect((await stats(folder)).totals).toMatchObject({ replies: 1, usageRecords: 1, tokens: { input: 100, cacheRead: 1000, output: 50 } });
  });

  // Regression (a fifth hostile look): a retry after an API error, its prompt the same, joined the
  // failed attempt above the error line when a request id did not read: the attempt's tokens lost.
  it.each([
    ['req_1', 2],
    [1, 2],
    [1, 'req_2'],
  ])('keeps a retry after an API error apart from the attempt before it, request ids %s and %s', async (first, second) => {
    const attempt = (uuid: string, parent: string, requestId: unknown, output: number, s: number) => {
      const line = assistant(uuid, parent, 'X', { ...tokens(10, output), cache_read_input_tokens: 1000 }, { at: `2026-03-10T10:00:0${s}.000Z` }) as { message: object };
      return { ...line, requestId, message: { ...line.message, id: 'msg_same' } };
    };
    const failed = { ...envelope('e1', 'a1', {}, '2026-03-10T10:00:02.000Z'), type: 'assistant', isApiErrorMessage: true, message: { id: 'e', type: 'message', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 529 Overloaded' }], usage: tokens(0, 0) } };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), attempt('a1', 'u1', first, 5, 1), failed, attempt('a2', 'e1', second, 100, 3)] });
    expect((await stats(folder)).totals).toMatchObject({ usageRecords: 2, tokens: { input: 20, cacheRead: 2000, output: 105 } });
  });
});

// Regression (a review of Claude Code): each entry of a line carried its line's mark, the ids of
// all its blocks: thousands of results on one line made memory grow with their square (6,000 on a
// line of 426 kB: 1.6 GB, and the run failed).
describe('a line of thousands of tool results', () => {
  it('keys each entry in a few dozen characters, and a copy of it still counts once', async () => {
    const calls = Array.from({ length: 1500 }, (_, i) => ({ type: 'tool_use', id: `toolu_${String(i).padStart(6, '0')}`, name: 'Bash', input: { command: `echo ${i}` } }));
    const results = calls.map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: 'ok' }));
    const reply = { ...assistant('a1', 'u1', 'A', tokens(1000)), message: { model: 'claude-haiku-4-5-20251001', id: 'msg_A', type: 'message', role: 'assistant', content: calls, stop_reason: 'tool_use', usage: tokens(1000) } };
    const lines = [user('u1', null, 'run them all'), reply, { ...envelope('r1', 'a1', {}, '2026-03-10T10:00:02.000Z'), type: 'user', message: { role: 'user', content: results } }];
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: lines });
    const outcome = await readSessionFile(join(folder, 'projects', '-home-ana-shop', `${SESSION}.jsonl`));
    if (outcome.kind !== 'session') throw new Error('not read as a session');
    expect(outcome.file.entries.filter((entry) => entry.kind === 'toolResult')).toHaveLength(1500);
    expect(Math.max(...outcome.file.entries.map((entry) => entry.key.length))).toBeLessThan(100);
    // Resumed under another id, its lines copied as they were: claimed by the same keys.
    const COPY = '44444444-4444-4444-8444-4444444444c1';
    const copied = [...lines.map((line) => ({ ...line, sessionId: COPY })), { ...user('u2', 'r1', 'and again'), sessionId: COPY }];
    await writeFile(join(folder, 'projects', '-home-ana-shop', `${COPY}.jsonl`), copied.map((line) => `${JSON.stringify(line)}\n`).join(''));
    expect((await stats(folder)).totals).toMatchObject({ sessions: 2, usageRecords: 1, tokens: { input: 1000 } });
  });
});

describe('a request the user stopped', () => {
  // Regression: Claude Code writes it as "API Error: Request was aborted.", and it was counted as
  // an error reply, never as aborted as Pi's and Codex's stopped requests are.
  it('counts as an aborted reply, and a failed request as an error', async () => {
    const synthetic = (uuid: string, parent: string, text: string) => ({
      ...envelope(uuid, parent, {}, '2026-03-10T10:00:01.000Z'),
      type: 'assistant',
      isApiErrorMessage: true,
      message: { model: '<synthetic>', id: `msg_${uuid}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'stop_sequence', usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
    });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('u1', null, 'fix the cart'),
        synthetic('a1', 'u1', 'API Error: Request was aborted.'),
        user('u2', 'a1', 'try again'),
        synthetic('a2', 'u2', 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
      ],
    });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ replies: 2, abortedReplies: 1, errorReplies: 1 });
  });
});

describe('two Claude Code sessions that share a session id (--session-id) in two projects', () => {
  // Regression (a hostile look): both sub-agents were hosted by the older session, whatever
  // project they ran in: its numbers held the other's sub-agent.
  it('each keep their own sub-agents', async () => {
    const one = { cwd: '/home/ana/one' };
    const two = { cwd: '/home/ana/two', at: '2026-03-12T10:00:00.000Z' };
    const folder = await projects({
      [`-home-ana-one/${SESSION}.jsonl`]: [user('u1', null, 'first project', one), assistant('a1', 'u1', 'r1', tokens(100), one)],
      [`-home-ana-one/${SESSION}/subagents/agent-oneagent.jsonl`]: [user('s1', null, 'task one', { ...one, sidechain: true }), assistant('s2', 's1', 's1', tokens(1000), { ...one, sidechain: true })],
      [`-home-ana-two/${SESSION}.jsonl`]: [user('v1', null, 'second project', two), assistant('b1', 'v1', 'r2', tokens(200), two)],
      [`-home-ana-two/${SESSION}/subagents/agent-twoagent.jsonl`]: [user('t1', null, 'task two', { ...two, sidechain: true }), assistant('t2', 't1', 't2', tokens(10_000), { ...two, sidechain: true })],
    });
    const { summary } = await build(folder);
    const input = (cwd: string) => summary.sessions.find((s) => s.cwd === cwd)?.tokens.input;
    expect(input('/home/ana/one')).toBe(1100);
    expect(input('/home/ana/two')).toBe(10_200);
  });

  // And a copy that went on in another project (a hostile look: its sub-agent went to the origin).
  it('keeps a copy’s own sub-agent with the copy', async () => {
    const one = { cwd: '/home/ana/one' };
    const two = { cwd: '/home/ana/two', at: '2026-03-12T10:00:00.000Z' };
    const shared = [user('u1', null, 'first project', one), assistant('a1', 'u1', 'r1', tokens(100), one)];
    const folder = await projects({
      [`-home-ana-one/${SESSION}.jsonl`]: [...shared, user('u2', 'a1', 'go on here', one), assistant('a2', 'u2', 'r2', tokens(100), one)],
      [`-home-ana-two/${SESSION}.jsonl`]: [...shared, user('v2', 'a1', 'go on there', two), assistant('b2', 'v2', 'r3', tokens(100), two)],
      [`-home-ana-two/${SESSION}/subagents/agent-twoagent.jsonl`]: [user('t1', null, 'task two', { ...two, sidechain: true }), assistant('t2', 't1', 't2', tokens(900), { ...two, sidechain: true })],
    });
    const { summary } = await build(folder);
    const session = (text: string) => summary.sessions.find((s) => s.file.includes(text));
    expect(session('-home-ana-two')?.tokens.input).toBe(1000);
    expect(session('-home-ana-one')?.tokens.input).toBe(200);
  });
});

describe('a sub-agent’s own line on its session’s page', () => {
  it('regression: said nothing of its failed requests, which no count of the session’s holds, and "0 tokens · — by bough" where it recorded none', async () => {
    const side = { sidechain: true };
    // The next day, the sub-agent's retries failed.
    const apiError = (uuid: string, parent: string) => ({
      ...envelope(uuid, parent, side, '2026-03-11T10:00:03.000Z'),
      type: 'assistant',
      isApiErrorMessage: true,
      message: { model: '<synthetic>', id: `msg_${uuid}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'API Error: 500 Internal server error' }], stop_reason: 'stop_sequence' },
    });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'look into it'), assistant('a1', 'u1', 'r1', tokens(100))],
      [`-home-ana-shop/${SESSION}/subagents/agent-failing.jsonl`]: [user('f1', null, 'search the logs', side), assistant('f2', 'f1', 'f2', tokens(1000), side), apiError('f3', 'f2'), apiError('f4', 'f3')],
      [`-home-ana-shop/${SESSION}/subagents/agent-silent.jsonl`]: [user('s1', null, 'wait for it', side), { ...user('s2', 's1', 'done', side), type: 'user' }],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions[0]?.errorReplies).toBe(0);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    const notes = [...page.matchAll(/<p class="note">([^<]*)\. It ran in a file of its own/g)].map((m) => m[1]);
    expect(notes).toEqual([expect.stringMatching(/ · 1,010 tokens · \$[0-9.]+ by bough · 2 failed requests$/), 'no model recorded · no usage recorded']);
    // Regression (a hostile look): in a report of a period they are not in, they were counted all the same.
    const day = join(await tempDir(), 'report');
    expect((await run(['build', folder, '--no-cache', '--tz', 'UTC', '--out', day, '-q', '--since', '2026-03-10', '--until', '2026-03-10'])).code).toBe(0);
    const daySummary = summarySchema.parse(JSON.parse(await readFile(join(day, 'summary.json'), 'utf8')));
    const dayPage = await readFile(join(day, daySummary.sessions[0]?.page as string), 'utf8');
    expect(dayPage).toMatch(/ · 1,010 tokens · \$[0-9.]+ by bough\. It ran in a file of its own/);
  });
});

describe('messages typed while the agent worked (queued_command attachments)', () => {
  const queued = (uuid: string, parent: string, attachment: object) => ({ ...envelope(uuid, parent, {}, '2026-03-10T10:00:02.000Z'), type: 'attachment', attachment: { type: 'queued_command', ...attachment } });
  const queue = (operation: string, content?: string) => ({ type: 'queue-operation', operation, timestamp: '2026-03-10T10:00:01.500Z', sessionId: SESSION, ...(content ? { content } : {}) });

  it('regression: the words were on no page and counted as no prompt; now a prompt, marked as sent while it worked, shown once', async () => {
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('u1', null, 'run the tests'),
        assistant('a1', 'u1', 'r1', tokens(100)),
        queue('enqueue', 'also check the README'),
        queued('q1', 'a1', { prompt: 'also check the README', commandMode: 'prompt', origin: { kind: 'human' } }),
        queue('remove'),
        assistant('a2', 'q1', 'r2', tokens(200)),
        // Another session's message and a background task's notice are not the user's prompts.
        queued('q2', 'a2', { prompt: 'a note from the other session', commandMode: 'prompt', origin: { kind: 'peer' } }),
        queued('q3', 'q2', { prompt: '<task-notification><status>completed</status></task-notification>', commandMode: 'task-notification' }),
        // Regressions (a hostile look): a notice written without its mode, spaces alone, and one
        // the harness marked meta on its line were counted as prompts.
        queued('q4', 'q3', { prompt: '<task-notification><status>failed</status></task-notification>' }),
        queued('q5', 'q4', { prompt: '   ', commandMode: 'prompt' }),
        { ...queued('q6', 'q5', { prompt: 'meta words', commandMode: 'prompt' }), isMeta: true },
        assistant('a3', 'q6', 'r3', tokens(300)),
      ],
    });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ prompts: 2, replies: 3 });
    const { out, summary } = await build(folder);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    const entries = page.split('<li class="entry ').slice(1);
    const steering = entries.filter((entry) => entry.includes('also check the README'));
    expect(steering).toHaveLength(1);
    expect(steering[0]).toContain('<span class="who">User</span>');
    expect(steering[0]).toContain('sent while it worked');
    expect(entries.find((entry) => entry.includes('a note from the other session'))).toContain('<span class="who">message from peer</span>');
    // Their lines say all their tags hold (nothing more to show): "completed", "failed".
    const notices = entries.filter((e) => e.includes('<span class="who">task notification</span>'));
    expect(notices.map((e) => /<p class="event-text">([^<]*)</.exec(e)?.[1])).toEqual(['completed', 'failed']);
    expect(entries.find((entry) => entry.includes('meta words'))).toContain('<span class="who">injected context</span>');
    // The conversation goes on from it: the reply after it is on the same branch.
    expect(summary.sessions[0]?.branches).toBe(1);
  });
});

describe('a workflow run’s journal', () => {
  // Regression: every run's journal.jsonl (claude.md §2: no transcript) was a file skipped, warned of at every run.
  it('is not taken for a session file, and its run’s agents count', async () => {
    const side = { sidechain: true };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'run the workflow'), assistant('a1', 'u1', 'A', tokens(100))],
      [`-home-ana-shop/${SESSION}/subagents/workflows/run1/agent-w1.jsonl`]: [user('w1', null, 'step one', side), assistant('w2', 'w1', 'W', tokens(1000), side)],
      [`-home-ana-shop/${SESSION}/subagents/workflows/run1/journal.jsonl`]: [{ type: 'step', runId: 'run1', step: 1, status: 'done' }],
    });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ sessions: 1, tokens: { input: 1100 }, subagents: { tokens: { input: 1000 } } });
  });

  // Regression (a hostile look): one in a run's folder with no agent's transcript yet was still a file skipped.
  it('is not taken for a session file before its run’s agents wrote theirs', async () => {
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'run the workflow'), assistant('a1', 'u1', 'A', tokens(100))],
      [`-home-ana-shop/${SESSION}/subagents/workflows/run1/journal.jsonl`]: [{ type: 'step', runId: 'run1', step: 1, status: 'started' }],
    });
    expect((await stats(folder)).totals).toMatchObject({ sessions: 1, tokens: { input: 100 } });
  });

  // Regression (an outside review of session pages): a response no line of which holds its final
  // count was counted "at least this much" in the totals, and its reply said nothing of it.
  it('marks a reply whose output count is a lower bound on its own usage line', async () => {
    const partial = assistant('p2', 'p1', 'P2', tokens(100, 7));
    const message = (partial as { message: Record<string, unknown> }).message;
    message['stop_reason'] = null;
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('p1', null, 'go'), partial] });
    const { out, summary } = await build(folder);
    expect(summary.totals.outputPossiblyPartialRecords).toBe(1);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('in 100 · out 7 · cache read 0 · cache write 0 · $0.0001 bough · output possibly partial');
    // The overview and the project's page say it too (regression, a new user's review: 233 of 522
    // records a lower bound, and the output totals there shown as exact).
    for (const file of ['index.html', summary.projects[0]?.page as string]) {
      const html = await readFile(join(out, file), 'utf8');
      expect(html).toContain('at least 107 in all: the agent did not write the final output count of 1 response');
      expect(html).toContain('title="the agent did not write the final output count of 1 response">≥ 7<');
    }
  });

  // Regression (an outside review of Claude Code's format): a local command run before the first
  // prompt is a root of its own (claude.md §6.2, legitimate): it was drawn as a branch, "2 roots".
  it('goes on from a local command run before the first prompt, no branch', async () => {
    const command = (uuid: string, parent: string | null, content: string, at: string) => ({ ...envelope(uuid, parent, { at }, at), type: 'system', subtype: 'local_command', content, level: 'info' });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        command('l1', null, '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>', '2026-03-10T09:59:00.000Z'),
        command('l2', 'l1', '<local-command-stdout>MCP dialog dismissed</local-command-stdout>', '2026-03-10T09:59:01.000Z'),
        user('l3', null, 'real first prompt'),
        assistant('l4', 'l3', 'L4', tokens(100)),
      ],
    });
    const { summary } = await build(folder);
    expect(summary.sessions[0]).toMatchObject({ title: 'real first prompt', prompts: 1, branches: 1 });
  });

  // Regression (an outside review of Claude Code's format): a gateway that gives every response one
  // message id (claude.md §9.3) made a sub-agent's responses replays of the main thread's (the
  // /btw rule: same message id, another request id), and their spend was lost.
  it('counts a sub-agent\'s responses where a gateway gives every response one message id', async () => {
    const gateway = (line: object, request: string) => {
      const { message, ...rest } = line as { message: Record<string, unknown> };
      return { ...rest, requestId: `req_${request}`, message: { ...message, id: 'msg_gateway' } };
    };
    const side = { sidechain: true, at: '2026-03-10T10:00:05.000Z' };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('g1', null, 'main prompt'), gateway(assistant('g2', 'g1', 'G2', tokens(100)), 'G2'), user('g3', 'g2', 'next', { at: '2026-03-10T10:01:00.000Z' }), gateway(assistant('g4', 'g3', 'G4', tokens(200), { at: '2026-03-10T10:01:01.000Z' }), 'G4')],
      [`-home-ana-shop/${SESSION}/subagents/agent-a1.jsonl`]: [user('s1', null, 'research', side), gateway(assistant('s2', 's1', 'S2', tokens(5000), side), 'S2')],
    });
    const json = await stats(folder);
    expect(json.totals.tokens.input).toBe(5300);
    expect(json.totals.subagents).toMatchObject({ usageRecords: 1, tokens: { input: 5000 } });
  });

  // Regressions (an outside review of Claude Code's format): a file in a session's subagents/
  // folder whose lines do not all say isSidechain, or name another session, was a session of its
  // own, and took the session's other sub-agents with it.
  it('takes a file in a session\'s subagents folder for its sub-agent, whatever its lines say', async () => {
    const OTHER = '44444444-4444-4444-8444-4444444444d9';
    const side = { sidechain: true, at: '2026-03-10T10:00:05.000Z' };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('m1', null, 'main prompt'), assistant('m2', 'm1', 'M2', tokens(100))],
      [`-home-ana-shop/${SESSION}/subagents/agent-acompact-1.jsonl`]: [user('c1', null, 'Summarise the conversation', { at: side.at }), assistant('c2', 'c1', 'C2', tokens(1000), side)],
      [`-home-ana-shop/${SESSION}/subagents/agent-a1234567.jsonl`]: [user('s1', null, 'research', { ...side, session: OTHER }), assistant('s2', 's1', 'S2', tokens(2000), { ...side, session: OTHER })],
      [`-home-ana-shop/${SESSION}/subagents/agent-b7654321.jsonl`]: [user('t1', null, 'more research', side), assistant('t2', 't1', 'T2', tokens(4000), side)],
      // A workflow's agent below it (a hostile look at the fix: only subagents/ itself was taken so).
      [`-home-ana-shop/${SESSION}/subagents/workflows/run1/agent-c1.jsonl`]: [user('w1', null, 'look around', { at: side.at }), assistant('w2', 'w1', 'W2', tokens(8000), { at: side.at })],
    });
    const json = await stats(folder, '--by', 'session');
    expect(json.rows.map((r) => [r.label, r.prompts, r.tokens.input])).toEqual([['main prompt', 1, 15100]]);
    expect(json.totals.subagents).toMatchObject({ usageRecords: 4, tokens: { input: 15000 } });
  });

  // Regression (an outside review of Claude Code's format): a compaction replay, a prompt and its
  // reply written again under new uuids with their parent and time (claude.md §6.4), was a branch,
  // its prompt counted twice and its reply's text shown twice.
  it('takes lines written again under new uuids, with their parent and time, for no turn and no branch', async () => {
    const at = (s: number) => ({ at: `2026-03-10T10:0${s}:00.000Z` });
    const prompt = user('r3', 'r2', 'prompt B', at(5));
    const reply = assistant('r4', 'r3', 'R4', tokens(100), at(6));
    const again = (line: object, uuid: string, parent: string) => ({ ...line, uuid, parentUuid: parent });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('r1', null, 'prompt A', at(1)),
        assistant('r2', 'r1', 'R2', tokens(100), at(2)),
        prompt,
        reply,
        again(prompt, 'r13', 'r2'),
        again(reply, 'r14', 'r13'),
        user('r5', 'r14', 'prompt C', at(8)),
        assistant('r6', 'r5', 'R6', tokens(100), at(9)),
      ],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions[0]).toMatchObject({ prompts: 3, replies: 3, branches: 1, tokens: { input: 300 } });
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page.match(/reply R4/g)).toHaveLength(1);
  });

  // Regressions (a hostile look at that fix): a replay holding a tool call and its result was still
  // a branch; two lines of one response at one time, texts of one length, lost the second's text;
  // and a prompt sent again with no time was taken for a replay.
  it('takes a replay of a tool call and its result for none, and no line of a response or prompt without a time for one', async () => {
    const at = (s: number) => ({ at: `2026-03-10T10:0${s}:00.000Z` });
    const call = (uuid: string, parent: string, request: string, s: number) => {
      const line = assistant(uuid, parent, request, tokens(100), at(s)) as { message: Record<string, unknown> };
      return { ...line, message: { ...line.message, content: [{ type: 'tool_use', id: `toolu_${request}`, name: 'Read', input: { file_path: 'x.txt' } }], stop_reason: 'tool_use' } };
    };
    const result = (uuid: string, parent: string, request: string, s: number) => ({ ...envelope(uuid, parent, at(s), ''), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${request}`, content: 'file body' }] } });
    const again = (line: object, uuid: string, parent: string) => ({ ...line, uuid, parentUuid: parent });
    const lines = [user('t1', null, 'prompt A', at(1)), assistant('t2', 't1', 'T2', tokens(100), at(2)), user('t3', 't2', 'read it', at(3)), call('t4', 't3', 'T4', 4), result('t5', 't4', 'T4', 5), assistant('t6', 't5', 'T6', tokens(100), at(6))];
    const replay = [again(lines[2] as object, 'r3', 't2'), again(lines[3] as object, 'r4', 'r3'), again(lines[4] as object, 'r5', 'r4'), again(lines[5] as object, 'r6', 'r5')];
    // One response written as two lines at one time, texts of one length.
    const first = assistant('s1', 'r6x', 'S1', tokens(100), at(8)) as { message: Record<string, unknown> };
    const split = [{ ...first, parentUuid: 't7' }, { ...first, uuid: 's2', parentUuid: 's1', message: { ...first.message, content: [{ type: 'text', text: 'Rome is the capitol!!' }] } }];
    (split[0] as { message: Record<string, unknown> }).message = { ...first.message, content: [{ type: 'text', text: 'Paris is the capital.' }] };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [...lines, ...replay, user('t7', 'r6', 'prompt C', at(7)), ...split] });
    const { out, summary } = await build(folder);
    expect(summary.sessions[0]).toMatchObject({ prompts: 3, branches: 1 });
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('Paris is the capital.');
    expect(page).toContain('Rome is the capitol!!');
    // The same words sent again under one parent, no time on either: a second prompt.
    const untimed = (uuid: string) => ({ ...(user(uuid, 'n2', 'try again') as object), timestamp: null });
    const retyped = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('n1', null, 'first', at(1)), assistant('n2', 'n1', 'N2', tokens(100), at(2)), untimed('n3'), untimed('n4')] });
    expect((await build(retyped)).summary.sessions[0]).toMatchObject({ prompts: 3 });
  });

  // Regression (an outside review of session pages): an old inline sidechain (1.0.x) no call in the
  // file spawned (its line lost) was a root of its own, written last: the conversation's active
  // path, the user's turns shown as an abandoned branch, its reply counted as the session's.
  it('shows an inline sidechain no call spawned as a sub-agent after the entry before it, no branch', async () => {
    const side = { sidechain: true, at: '2026-03-10T10:00:05.000Z' };
    const at = (s: number) => ({ at: `2026-03-10T10:00:0${s}.000Z` });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [
        user('m1', null, 'main prompt', at(1)),
        assistant('m2', 'm1', 'M2', tokens(100), at(2)),
        user('s1', null, 'a task no call names', side),
        assistant('s2', 's1', 'S2', tokens(1000), side),
        user('m3', 'm2', 'next prompt', at(7)),
        assistant('m4', 'm3', 'M4', tokens(100), at(8)),
      ],
    });
    const { out, summary } = await build(folder);
    expect(summary.sessions[0]).toMatchObject({ prompts: 2, replies: 2, branches: 1, subagents: { usageRecords: 1 } });
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('no call to it in the file (its line lost?)');
    expect(page).not.toContain('A separate root');
  });

});

describe('a gateway that writes one message id for every response, and no request id', () => {
  const gateway = (uuid: string, parent: string, text: string, usage: object, line: Line = {}) => ({
    ...envelope(uuid, parent, line, '2026-03-10T10:00:05.000Z'),
    type: 'assistant',
    message: { model: 'claude-haiku-4-5-20251001', id: 'ocgo', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn', usage },
  });

  // Regression (a hostile look): two sessions of hand-made files reusing uuids and times were one
  // response: the second session's usage was counted, the first's dropped.
  it('counts each session’s responses, whatever uuids and times they share', async () => {
    const [A, B] = ['cccccccc-0000-4000-8000-000000000001', 'dddddddd-0000-4000-8000-000000000001'];
    const folder = await projects({
      [`-home-ana-shop/${A}.jsonl`]: [user('11111111-0000-4000-8000-000000000001', null, 'write a poem', { session: A }), gateway('11111111-0000-4000-8000-000000000002', '11111111-0000-4000-8000-000000000001', 'roses', tokens(10, 50), { session: A })],
      [`-home-ana-shop/${B}.jsonl`]: [user('11111111-0000-4000-8000-000000000001', null, 'fix the bug', { session: B }), gateway('11111111-0000-4000-8000-000000000002', '11111111-0000-4000-8000-000000000001', 'patched', tokens(999, 777), { session: B })],
    });
    const { totals } = await stats(folder);
    // (Their replies are one node, by uuid and message id: a copy's, as Claude Code's own files never are.)
    expect(totals).toMatchObject({ sessions: 2, usageRecords: 2, tokens: { input: 1009, output: 827 } });
  });

  // Regression (a review of Claude Code's files): a request of 100 million input tokens (500 times
  // the model's context) added $100 to the totals, and the data-quality page said nothing of it.
  it('counts a request larger than any model’s context as written, and says so', async () => {
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), assistant('a1', 'u1', 'A', tokens(100_000_000, 10))] });
    const { totals, diagnostics } = await stats(folder, '--quiet');
    expect(totals).toMatchObject({ usageRecords: 1, tokens: { input: 100_000_000, output: 10 }, cost: { bough: 100.00005 } });
    expect(diagnostics.byReason).toEqual({ 'unlikely-count': 1 });
    expect(diagnostics.skippedLines).toBe(0);
    const { out } = await build(folder);
    const page = await readFile(join(out, 'data-quality.html'), 'utf8');
    expect(page).toContain('input 100000000 in one request: more than any model’s context, counted as written');
    // Regression (a review of what bough says of bad input): said on the data-quality page only,
    // where $1,200 of such a count stood in the totals of `stats` and the build's last line unsaid.
    const warning = (where: string) => `bough: warning: 1 token count is larger than any model's context in one request, counted as written (${where} it): check it, as a damaged count can add thousands of dollars.\n`;
    expect((await run(['stats', folder, '--no-cache'])).stderr).toBe(warning("`bough build`'s data-quality page names"));
    expect((await run(['build', folder, '--no-cache', '--out', join(await tempDir(), 'report')])).stderr).toBe(warning('its data-quality page names'));
    // Regression (a sharing review): said of a report of another month, or of another project,
    // whose totals it is no part of (the page, under --share, listed none of it).
    expect((await run(['stats', folder, '--no-cache', '--month', '2026-02'])).stderr).not.toContain('larger than any model');
    const elsewhere = join(await tempDir(), 'report');
    expect((await run(['build', folder, '--no-cache', '--share', '--project', 'elsewhere', '--out', elsewhere])).stderr).not.toContain('larger than any model');
    // A hostile look: nor of a session the report shows whose count was made before its period.
    const spanning = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), assistant('a1', 'u1', 'A', tokens(100_000_000, 10)), { ...(user('u2', 'a1', 'later') as object), timestamp: '2026-04-02T10:00:00.000Z' }, { ...(assistant('a2', 'u2', 'B', tokens(100, 10)) as object), timestamp: '2026-04-02T10:00:01.000Z' }],
    });
    const april = await run(['stats', spanning, '--no-cache', '--month', '2026-04', '--json']);
    expect(JSON.parse(april.stdout)).toMatchObject({ totals: { sessions: 1, usageRecords: 1 } });
    expect(april.stderr).not.toContain('larger than any model');
    expect((await run(['stats', spanning, '--no-cache', '--month', '2026-03'])).stderr).toContain('1 token count is larger than any model');
  });

  // Regression (a review of Claude Code's files): a response of message id `msg_x␀req_y` and
  // request id `req_z` and one of `msg_x` and `req_y␀req_z` were one claim (the two joined by a
  // NUL), and the second's usage was lost.
  it('counts two responses whose ids, joined, would read alike', async () => {
    const first = assistant('a1', 'u1', 'A', tokens(1000, 1000));
    const second = assistant('a2', 'u2', 'B', tokens(2000, 10));
    const ids = (line: object, message: string, request: string) => ({ ...line, requestId: request, message: { ...(line as { message: object }).message, id: message } });
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'first'), ids(first, 'msg_x\u0000req_y', 'req_z'), user('u2', 'a1', 'second'), ids(second, 'msg_x', 'req_y\u0000req_z')],
    });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ replies: 2, usageRecords: 2, tokens: { input: 3000, output: 1010 } });
  });

  // Regression (a hostile look): a sub-agent's response under the id the main thread's had was
  // taken for a replay of it, and its usage dropped (sub-agent usage is additive, claude.md §8.1).
  it('counts a sub-agent’s responses as its own', async () => {
    const side = { sidechain: true };
    const folder = await projects({
      [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'look around'), gateway('a1', 'u1', 'ok', tokens(30, 110))],
      [`-home-ana-shop/agent-abcd1234.jsonl`]: [user('s1', null, 'look', { ...side, at: '2026-03-10T10:01:00.000Z' }), gateway('s2', 's1', 'seen', tokens(300, 400), { ...side, at: '2026-03-10T10:01:05.000Z' })],
    });
    const { totals } = await stats(folder);
    expect(totals).toMatchObject({ tokens: { input: 330, output: 510 }, subagents: { tokens: { input: 300, output: 400 } } });
  });

  // Regression (a review of damaged input): output_tokens of -5 (not -1) left the whole response's
  // usage out, its input and cache counts too, without a word.
  it('keeps a response’s other counts when its output is a negative number, and says so', async () => {
    for (const output of [-1, -5]) {
      const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), assistant('a1', 'u1', 'A', { ...tokens(100, output), cache_read_input_tokens: 1000 })] });
      const { totals, diagnostics } = await stats(folder);
      expect(totals, String(output)).toMatchObject({ usageRecords: 1, tokens: { input: 100, cacheRead: 1000, output: 0 } });
      expect(diagnostics.byReason['absurd-number'], String(output)).toBe(1);
    }
  });

  // Regression (a hostile look): of a response's streamed lines, a later one with an impossible
  // output (2e9, 600.5) outranked a good one, and a final line with a count written as text lost to
  // an early line of 8.
  it('counts the line of a response whose output is the most that any agent could mean', async () => {
    // And the damaged line passed over is said (regression, the last stop's still-weak list: it was
    // not); the one kept, damaged, is said as a record it kept in part.
    const cases: [object, object, number, Record<string, number>][] = [
      [tokens(100, 500), tokens(100, 2e9), 500, { 'absurd-number': 1 }],
      [tokens(100, 500), tokens(100, 600.5), 500, { 'absurd-number': 1 }],
      [tokens(100, 8), { ...tokens(100, 500), cache_creation_input_tokens: '2000' }, 500, { 'invalid-record': 1 }],
    ];
    for (const [first, second, output, said] of cases) {
      const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), assistant('a1', 'u1', 'A', first), assistant('a2', 'a1', 'A', second)] });
      const { totals, diagnostics } = await stats(folder);
      expect(totals.tokens.output, JSON.stringify(second)).toBe(output);
      expect(diagnostics.byReason, JSON.stringify(second)).toEqual(said);
    }
    // Of two lines of the same output, the whole one (a later look: the last, a count written as text, won).
    const whole = { ...tokens(10, 500), cache_read_input_tokens: 100_000 };
    const folder = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), assistant('a1', 'u1', 'A', whole), assistant('a2', 'a1', 'A', { ...whole, cache_read_input_tokens: '100000' })] });
    const { totals, diagnostics } = await stats(folder);
    expect(totals.tokens).toMatchObject({ input: 10, cacheRead: 100_000, output: 500 });
    expect(diagnostics.byReason['absurd-number']).toBe(1);
    // Lines of a response that all read whole: nothing to say.
    const clean = await projects({ [`-home-ana-shop/${SESSION}.jsonl`]: [user('u1', null, 'go'), assistant('a1', 'u1', 'A', tokens(10, 5)), assistant('a2', 'a1', 'A', tokens(10, 500))] });
    expect((await stats(clean)).diagnostics.byReason).toEqual({});
  });
});
