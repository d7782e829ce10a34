// What a hostile tester broke, pinned: a record nested thousands deep, absurd numbers, huge
// names. Each must cost its own session at most, never the build.

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { TOO_DEEP } from '../src/sources/json-line.js';
import { summarySchema, type Summary } from '../src/report/schema.js';
import { ALL_UTC, tempDir } from './support/fixtures.js';
import { liveMarkup } from './support/html.js';

const DEPTH = 8000;
/** JSON text too deep for JSON.stringify, spliced into a record's line where it stands. */
class Raw {
  constructor(readonly json: string) {}
}
const nestedArray = () => new Raw(`${'['.repeat(DEPTH)}"bottom"${']'.repeat(DEPTH)}`);
const nestedObject = () => new Raw(`${'{"a":'.repeat(DEPTH)}"bottom"${'}'.repeat(DEPTH)}`);

function line(record: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(record, (_, value: unknown) => (value instanceof Raw ? `@@raw${raws.push(value.json) - 1}@@` : value));
  return text.replace(/"@@raw(\d+)@@"/g, (_, i: string) => raws[Number(i)] as string);
}
const header = (id: string, cwd = '/home/ana/projects/shop') => ({ type: 'session', version: 3, id, timestamp: '2026-10-01T09:00:00.000Z', cwd });
const at = (s: number) => new Date(Date.parse('2026-10-01T09:00:00.000Z') + s * 1000).toISOString();
const usage = (input: number, output: number, cost: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, cost: { total: cost } });

/** A session with a value nested 8,000 deep in every field that can hold one. */
function deepSession(): unknown[] {
  return [
    header('deep'),
    { type: 'message', id: 'd1', parentId: null, timestamp: at(1), message: { role: 'user', content: nestedArray() } },
    {
      type: 'message', id: 'd2', parentId: 'd1', timestamp: at(2),
      message: {
        role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'toolUse', usage: usage(100, 10, 0.00045),
        content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: nestedObject(), argumentsError: nestedObject() }, { type: 'mystery', payload: nestedArray() }],
      },
    },
    {
      type: 'message', id: 'd3', parentId: 'd2', timestamp: at(3),
      message: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: `${'> '.repeat(DEPTH)}quoted` }], details: nestedObject(), isError: false },
    },
    { type: 'custom', id: 'd4', parentId: 'd3', timestamp: at(4), customType: 'state', data: nestedObject() },
    { type: 'message', id: 'd5', parentId: 'd4', timestamp: at(5), message: { role: 'user', content: `${'- '.repeat(DEPTH)}listed\n${Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n')}` } },
    { type: 'mystery_entry', id: 'd6', parentId: 'd5', timestamp: at(6), payload: nestedObject() },
  ];
}

/** Replies whose numbers no agent could mean, beside one whose numbers are real. */
function absurdSession(): unknown[] {
  const reply = (id: string, parentId: string, s: number, u: unknown) => ({
    type: 'message', id, parentId, timestamp: at(s),
    message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', content: [{ type: 'text', text: id }], usage: u },
  });
  return [
    header('absurd'),
    { type: 'message', id: 'a1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'Count this.' } },
    reply('a2', 'a1', 2, usage(1000, 100, 0.0045)),
    reply('a3', 'a2', 3, { input: -1_000_000, output: 0.5, cacheRead: 1e300, cacheWrite: 0, cost: { total: -5 } }),
    reply('a4', 'a3', 4, { input: 10, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: Number.MAX_VALUE } }),
  ];
}

const HUGE = 10_000_000;
function hugeNameSession(): unknown[] {
  return [
    header('huge'),
    { type: 'message', id: 'h1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'Name this.' } },
    { type: 'session_info', id: 'h2', parentId: 'h1', timestamp: at(2), name: `HUGE-NAME-${'x'.repeat(HUGE)}-END` },
  ];
}

let work: string;
let out: string;
let summary: Summary;
const text = new Map<string, string>();

/** A session's page, all its parts together (a long one is cut into parts). */
const partsOf = (id: string): string[] => {
  const first = summary.sessions.find((s) => s.id === id)?.page as string;
  const stem = first.replace(/\.html$/, '');
  return [...text.keys()].filter((name) => name === first || (name.startsWith(`${stem}-part-`) && name.endsWith('.html'))).map((name) => text.get(name) as string);
};
const pageOf = (id: string) => partsOf(id).join('\n');

beforeAll(async () => {
  work = await tempDir('bough-hardening-');
  const inputs = join(work, 'sessions');
  await mkdir(inputs);
  const write = (name: string, records: unknown[]) => writeFile(join(inputs, name), `${records.map(line).join('\n')}\n`);
  await write('deep.jsonl', deepSession());
  await write('absurd.jsonl', absurdSession());
  await write('huge-name.jsonl', hugeNameSession());
  out = join(work, 'report');
  await build({ inputs: [inputs], out, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
  summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
  for (const name of await readdir(out, { recursive: true })) {
    if (/\.(html|json|csv)$/.test(name)) text.set(name, await readFile(join(out, name), 'utf8'));
  }
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a record nested 8,000 levels deep (regression: "Maximum call stack size exceeded … this is a bug")', () => {
  it('builds, with the session, its page and the rest of the report', () => {
    expect(summary.sessions.map((s) => s.id).sort()).toEqual(['absurd', 'deep', 'huge']);
    const deep = summary.sessions.find((s) => s.id === 'deep');
    expect(deep).toMatchObject({ prompts: 2, replies: 1, tokens: { input: 100, output: 10 } });
  });

  it('shows what it could and says what was cut', () => {
    const page = pageOf('deep');
    expect(page).toContain(TOO_DEEP);
    expect(page).toContain('quoted');
    // Nine million characters of nested list: shown as written up to a cut, with a count of the rest.
    expect(page).toContain('item 100');
    expect(page).toMatch(/… [\d,]+ more characters not shown here\./);
    for (const part of partsOf('deep')) expect(liveMarkup(part)).toEqual([]);
    expect(summary.diagnostics.byReason['deep-nesting']).toBeGreaterThanOrEqual(5);
    expect(text.get('data-quality.html')).toContain('deep-nesting');
  });
});

describe('absurd numbers (regression: −1,000,000 input made the totals read 0; Number.MAX_VALUE showed as "$∞")', () => {
  it('keeps negative, fractional, infinite and absurdly large counts and costs out of the sums', () => {
    const absurd = summary.sessions.find((s) => s.id === 'absurd');
    expect(absurd?.tokens).toMatchObject({ input: 1010, output: 101, cacheRead: 0 });
    expect(absurd?.cost.recorded).toBeCloseTo(0.0045, 12);
    expect(absurd?.replies).toBe(3);
  });

  it('lists each one on the data-quality page with its line', () => {
    const listed = summary.diagnostics.items.filter((d) => d.reason === 'absurd-number');
    // In the order of the file's lines.
    expect(listed.map((d) => [d.line, d.detail])).toEqual([
      [4, 'input -1000000 (negative); output 0.5 (not a whole number); cacheRead 1.000e+300 (absurdly large); recorded cost -5 (negative): left out of the sums'],
      [5, 'recorded cost 1.798e+308 (absurdly large): left out of the sums'],
    ]);
    expect(text.get('data-quality.html')).toContain('input -1000000 (negative)');
  });

  it('never writes an infinite or absurd amount', () => {
    for (const [name, content] of text) {
      expect({ name, infinity: content.includes('∞') || content.includes('Infinity') }).toEqual({ name, infinity: false });
    }
  });
});

describe('a 10-million-character session name (regression: written three times into its page and into summary.json)', () => {
  it('is cut wherever it is repeated, and kept whole once, folded, on its page', () => {
    const huge = summary.sessions.find((s) => s.id === 'huge');
    expect(huge?.name?.length).toBeLessThanOrEqual(300);
    expect(huge?.title.length).toBeLessThanOrEqual(90);
    expect((text.get('summary.json') as string).length).toBeLessThan(200_000);
    const page = pageOf('huge');
    // <title>, heading and facts cut; the name entry's line cut; its whole text once, folded.
    expect(page.split('HUGE-NAME-').length - 1).toBe(5);
    // The full text, in one folded block, cut like any long text (its length said).
    expect(page).toMatch(/<details class="event-detail"><summary>show<\/summary><pre class="output">HUGE-NAME-x{1000}/);
    expect(page.length).toBeLessThan(400_000);
    expect((text.get('index.html') as string).length).toBeLessThan(200_000);
  });
});

describe('paths bough writes itself, under --redact', () => {
  it('names a --prices file in the home folder as ~ (regression: the home folder leaked through the price table label)', async () => {
    const home = join(work, 'home-of-ana');
    await mkdir(join(home, 'prices'), { recursive: true });
    const prices = join(home, 'prices', 'table.json');
    await writeFile(prices, JSON.stringify({ 'claude-sonnet-4-5': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5 } }));
    const redactedOut = join(work, 'redacted');
    await build({ inputs: [join(work, 'sessions', 'absurd.jsonl')], out: redactedOut, scope: ALL_UTC, pricesFile: prices, redact: true, environment: { env: {}, home }, now: new Date('2026-12-01T00:00:00Z') });
    for (const name of ['summary.json', 'index.html', 'data-quality.html']) {
      const content = await readFile(join(redactedOut, name), 'utf8');
      expect({ name, leaks: content.includes(home) }).toEqual({ name, leaks: false });
    }
    expect(await readFile(join(redactedOut, 'index.html'), 'utf8')).toContain('~/prices/table.json');
  });
});

describe('a file of 130,000 bad lines (regression: "Maximum call stack size exceeded … this is a bug", and a million objects to list them)', () => {
  const BAD = 130_000;
  it('builds, counts every bad line, lists the first thousand of the file and counts the rest by kind, and keeps the good records', async () => {
    const inputs = join(work, 'many-bad');
    await mkdir(inputs);
    const lines = [line(header('many-bad')), line({ type: 'message', id: 'g1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'Still here.' } })];
    // Two kinds of problem, interleaved: lines that are not JSON, and JSON values that are not records.
    for (let i = 0; i < BAD; i++) lines.push(i % 2 === 0 ? `not json ${i}` : `[${i}]`);
    lines.push(line({ type: 'message', id: 'g2', parentId: 'g1', timestamp: at(2), message: { role: 'user', content: 'And after them.' } }));
    await writeFile(join(inputs, 'many-bad.jsonl'), `${lines.join('\n')}\n`);
    const report = join(work, 'many-bad-report');
    await build({ inputs: [inputs], out: report, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const many = summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8')));
    expect(many.totals.prompts).toBe(2);
    expect(many.diagnostics.byReason).toEqual({ 'invalid-json': BAD / 2, 'not-a-record': BAD / 2 });
    expect(many.diagnostics.skippedLines).toBe(BAD);
    // Listed one by one up to a thousand; each kind's rest is one item with its count, which add up.
    const items = many.diagnostics.items;
    expect(items.length).toBe(1002);
    expect(items.reduce((n, item) => n + item.count, 0)).toBe(BAD);
    const rest = items.filter((item) => item.count > 1);
    expect(rest.map((item) => [item.reason, item.count, item.line])).toEqual([
      ['invalid-json', BAD / 2 - 500, 1003],
      ['not-a-record', BAD / 2 - 500, 1004],
    ]);
    expect(rest[0]?.detail).toMatch(/^64,500 more of this kind from line 1003 on, not listed one by one; the first: /);
    const quality = await readFile(join(report, 'data-quality.html'), 'utf8');
    expect(quality).toContain('64,500 more of this kind from line 1003 on');
    expect(quality.length).toBeLessThan(1_000_000);
  }, 120_000);
});

describe('more than a thousand damaged counts in one file', () => {
  // Regression (a review of what bough says of bad input): the counts were checked from the file's
  // end, so the page listed the last thousand, lines falling, and "200 more of this kind from line
  // 1702 on" named the line after those it did not list, which came before it; and a file's
  // notes of reading came before those of its numbers, out of the order of its lines.
  it('lists them in the order of the file, and the rest from where they begin', async () => {
    const inputs = join(work, 'many-counts');
    await mkdir(inputs);
    const REPLIES = 1005;
    const reply = (i: number) => ({
      type: 'message', id: `r${i}`, parentId: i === 0 ? 'p1' : `r${i - 1}`, timestamp: at(2 + i),
      message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', content: [{ type: 'text', text: `answer ${i}` }], usage: usage(-1, 5, 0.0001) },
    });
    // Header, prompt, the replies (lines 3 to 1007), then a line that is not JSON (1008).
    const lines = [line(header('many-counts')), line({ type: 'message', id: 'p1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'Count.' } }), ...Array.from({ length: REPLIES }, (_, i) => line(reply(i))), 'not json'];
    await writeFile(join(inputs, 'many-counts.jsonl'), `${lines.join('\n')}\n`);
    const report = join(work, 'many-counts-report');
    await build({ inputs: [inputs], out: report, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const { items } = summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8'))).diagnostics;
    expect(items.map((item) => item.line)).toEqual([...Array.from({ length: 1000 }, (_, i) => 3 + i), 1003, 1008]);
    expect(items[1000]).toMatchObject({ reason: 'absurd-number', count: 5 });
    expect(items[1000]?.detail).toMatch(/^5 more of this kind from line 1003 on, not listed one by one; the first: input -1 \(negative\)/);
    expect(items[1001]?.reason).toBe('invalid-json');
  });
});

describe('150 branches from one prompt (regression: the prompt\'s line linked all 50,000 branches of a session, 4 MB)', () => {
  it('links the first hundred and the next one, saying how many more', async () => {
    const inputs = join(work, 'many-branches');
    await mkdir(inputs);
    const reply = (i: number) => ({
      type: 'message', id: `r${i}`, parentId: 'p1', timestamp: at(2 + i),
      message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', content: [{ type: 'text', text: `answer ${i}` }], usage: usage(10, 5, 0.0001) },
    });
    const records = [header('many-branches'), { type: 'message', id: 'p1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'Try again.' } }, ...Array.from({ length: 150 }, (_, i) => reply(i))];
    await writeFile(join(inputs, 'many-branches.jsonl'), `${records.map(line).join('\n')}\n`);
    const report = join(work, 'many-branches-report');
    await build({ inputs: [inputs], out: report, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const branches = summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8')));
    const html = await readFile(join(report, branches.sessions[0]?.page as string), 'utf8');
    const forks = /<p class="forks">.*?<\/p>/s.exec(html)?.[0] ?? '';
    expect(forks.match(/<a /g)).toHaveLength(101);
    // Every branch is still on the page, the ones not linked from here included.
    expect(forks).toMatch(/<a href="#e-r100">and 50 more, from branch \d+ on<\/a>/);
    expect(html).toContain('answer 149');
  }, 60_000);
});

describe('a reply of 3,000 blocks (regression: 300,000 blocks made one entry of 40 MB, a page no part could hold)', () => {
  it('shows its first thousand blocks and says how many more the file holds', async () => {
    const inputs = join(work, 'many-blocks');
    await mkdir(inputs);
    const content = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? { type: 'text', text: `block ${i}` } : { type: 'toolCall', id: `c${i}`, name: 'bash', arguments: { command: `echo ${i}` } }));
    const records = [
      header('many-blocks'),
      { type: 'message', id: 'p1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'Go.' } },
      { type: 'message', id: 'r1', parentId: 'p1', timestamp: at(2), message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', content, usage: usage(10, 5, 0.0001) } },
    ];
    await writeFile(join(inputs, 'many-blocks.jsonl'), `${records.map(line).join('\n')}\n`);
    const report = join(work, 'many-blocks-report');
    await build({ inputs: [inputs], out: report, scope: ALL_UTC, environment: { env: {}, home: join(work, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const blocks = summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8')));
    const html = await readFile(join(report, blocks.sessions[0]?.page as string), 'utf8');
    expect(html).toContain('block 998');
    expect(html).not.toContain('block 1000<');
    expect(html).toContain('… 2,000 more blocks of this entry not shown: too many for one page (the session file holds them).');
    // Its numbers are all there: the blocks not shown are not lost to the counts.
    expect(blocks.totals.replies).toBe(1);
  }, 60_000);
});

describe('times at the ends of what a Date holds, and a thousand years on (regression: "Invalid time value … a bug in bough"; NaN in page names; 12,000 empty month rows)', () => {
  /** A session of one good prompt and reply, then prompts stamped with times no agent wrote. */
  const timesSession = (): unknown[] => [
    header('times'),
    { type: 'message', id: 't1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'A real prompt.' } },
    {
      type: 'message', id: 't2', parentId: 't1', timestamp: at(2),
      message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', content: [{ type: 'text', text: 'A real reply.' }], usage: usage(100, 10, 0.00045) },
    },
    { type: 'message', id: 't3', parentId: 't2', timestamp: 8.64e15, message: { role: 'user', content: 'The last millisecond a Date holds.' } },
    { type: 'message', id: 't4', parentId: 't3', timestamp: -8.64e15, message: { role: 'user', content: 'The first one.' } },
    { type: 'message', id: 't5', parentId: 't4', timestamp: '9999-12-31T23:59:59.000Z', message: { role: 'user', content: 'A thousand years on.' } },
    { type: 'message', id: 't6', parentId: 't5', timestamp: '1970-01-01T00:00:00.000Z', message: { role: 'user', content: 'Before any agent.' } },
  ];

  for (const timeZone of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati']) {
    it(`builds in ${timeZone}, the odd times said and the session placed by its real ones`, async () => {
      const dir = await tempDir('bough-times-');
      await mkdir(join(dir, 'sessions'));
      await writeFile(join(dir, 'sessions', 'times.jsonl'), `${timesSession().map(line).join('\n')}\n`);
      const report = join(dir, 'report');
      await build({ inputs: [join(dir, 'sessions')], out: report, scope: { ...ALL_UTC, timeZone }, environment: { env: {}, home: join(dir, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
      const built = summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8')));
      expect(built.sessions.map((s) => [s.prompts, s.page.startsWith('sessions/2026-10-0'), s.startedAt.slice(0, 10)])).toEqual([[5, true, '2026-10-01']]);
      expect(built.months.map((m) => m.key)).toEqual(['2026-10']);
      const invalid = built.diagnostics.items.filter((d) => d.reason === 'invalid-time');
      expect(invalid.map((d) => d.line)).toEqual([4, 5, 6, 7]);
      expect(invalid[2]?.detail).toContain('is not in the years 2000 to 2099');
      const index = await readFile(join(report, 'index.html'), 'utf8');
      expect(index.length).toBeLessThan(100_000);
      for (const name of await readdir(report, { recursive: true })) {
        expect(name).not.toMatch(/NaN|undefined|(^|\/)-/);
        if (/\.(html|js|json|csv)$/.test(name)) expect({ name, nan: /\bNaN\b|undefined/.test(await readFile(join(report, name), 'utf8')) }).toEqual({ name, nan: false });
      }
    });
  }
});

describe('a Codex call whose arguments string nests 5,000 deep (regression: the page failed with "Maximum call stack size exceeded"; export stopped)', () => {
  const codexLines = () => {
    const meta = { timestamp: '2026-04-06T11:00:00.000Z', type: 'session_meta', payload: { id: 'deep-args', timestamp: '2026-04-06T11:00:00.000Z', cwd: '/home/ana/deep', originator: 'codex_cli_rs', cli_version: '0.50.0', source: 'cli', model_provider: 'openai' } };
    const say = (s: number, type: string, message: string) => ({ timestamp: `2026-04-06T11:00:0${s}.000Z`, type: 'event_msg', payload: { type, message } });
    const call = { timestamp: '2026-04-06T11:00:02.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', call_id: 'c1', arguments: `${'['.repeat(5000)}${']'.repeat(5000)}` } };
    return [meta, say(1, 'user_message', 'GOOD-BEFORE'), call, say(3, 'agent_message', 'GOOD-AFTER')];
  };

  it('shows the session with the call cut where it nests too deep, and says so', async () => {
    const dir = await tempDir('bough-deep-args-');
    await mkdir(join(dir, 'sessions'));
    await writeFile(join(dir, 'sessions', 'rollout-2026-04-06T11-00-00-deep-args.jsonl'), `${codexLines().map((r) => JSON.stringify(r)).join('\n')}\n`);
    const report = join(dir, 'report');
    await build({ inputs: [join(dir, 'sessions')], out: report, scope: ALL_UTC, environment: { env: {}, home: join(dir, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const built = summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8')));
    expect(built.diagnostics.byReason['page-failed']).toBeUndefined();
    expect(built.diagnostics.byReason['deep-nesting']).toBe(1);
    const page = await readFile(join(report, built.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('GOOD-BEFORE');
    expect(page).toContain('GOOD-AFTER');
    expect(page).toContain(TOO_DEEP);
  });
});

describe('NULs written escaped in a record ("\\u0000") (regression: raw NUL bytes in pages and usage.csv)', () => {
  it('reach no file of the report: each is shown as U+FFFD', async () => {
    const nul = (text: string) => `${text}\u0000${text}`;
    const dir = await tempDir('bough-nul-');
    await mkdir(join(dir, 'sessions'));
    const records = [
      { ...header('nul'), cwd: nul('/home/ana/p') },
      { type: 'message', id: 'n1', parentId: null, timestamp: at(1), message: { role: 'user', content: nul('prompt') } },
      {
        type: 'message', id: 'n2', parentId: 'n1', timestamp: at(2),
        message: {
          role: 'assistant', provider: nul('anthropic'), model: nul('claude'), stopReason: 'stop', usage: usage(10, 1, 0.0001),
          content: [{ type: 'text', text: `**${nul('bold')}** \`${nul('code')}\`\n\n\`\`\`ts\n${nul('const a = 1;')}\n\`\`\`` }, { type: 'toolCall', id: 'c1', name: nul('bash'), arguments: { command: nul('ls') } }],
        },
      },
      { type: 'message', id: 'n3', parentId: 'n2', timestamp: at(3), message: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: nul('output') }], isError: false } },
    ];
    await writeFile(join(dir, 'sessions', 'nul.jsonl'), `${records.map(line).join('\n')}\n`);
    const report = join(dir, 'report');
    await build({ inputs: [join(dir, 'sessions')], out: report, scope: ALL_UTC, environment: { env: {}, home: join(dir, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const page = await readFile(join(report, summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8'))).sessions[0]?.page as string), 'utf8');
    expect(page).toContain('prompt\uFFFDprompt');
    for (const name of await readdir(report, { recursive: true })) {
      if (/\.(html|js|json|csv)$/.test(name)) expect({ name, nul: (await readFile(join(report, name), 'utf8')).includes('\u0000') }).toEqual({ name, nul: false });
    }
  });
});

// Regression (a hostile-input review): a model named with a terminal's codes went into usage.csv
// as they were, for `cat usage.csv` to retitle the window or blink the text.
describe('control characters in names', () => {
  it('reach usage.csv as the page shows them', async () => {
    const dir = await tempDir('bough-csv-controls-');
    await mkdir(join(dir, 'sessions'));
    const records = [
      header('controls'),
      { type: 'message', id: 'c1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'hi' } },
      { type: 'message', id: 'c2', parentId: 'c1', timestamp: at(2), message: { role: 'assistant', provider: 'p\b\bXX', model: '\u001b]0;PWNED\u0007m\u001b[5m', stopReason: 'stop', usage: usage(10, 1, 0.0001), content: [{ type: 'text', text: 'ok' }] } },
    ];
    await writeFile(join(dir, 'sessions', 'controls.jsonl'), `${records.map(line).join('\n')}\n`);
    const report = join(dir, 'report');
    await build({ inputs: [join(dir, 'sessions')], out: report, scope: ALL_UTC, environment: { env: {}, home: join(dir, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    const csv = await readFile(join(report, 'usage.csv'), 'utf8');
    expect(csv).toContain(',p\u2408\u2408XX,\u241b]0;PWNED\u2407m\u241b[5m,');
    expect(csv.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});

// Regression (a hostile-input review): a title cut between the halves of an emoji, or half of one
// written alone in a session, went into summary.json as "\ud83d", which jq refuses whole.
describe('emoji cut in titles, and half characters in a session', () => {
  it('leave no half character in summary.json, the search index or stats --json', async () => {
    const dir = await tempDir('bough-surrogate-');
    await mkdir(join(dir, 'sessions'));
    const records = [
      { ...header('emoji'), cwd: '/home/ana/\ud83d' },
      { type: 'session_info', id: 'i0', parentId: null, timestamp: at(1), name: 'Deploy \ud83d notes' },
      { type: 'message', id: 'e1', parentId: 'i0', timestamp: at(2), message: { role: 'user', content: '😀'.repeat(300) } },
      { type: 'message', id: 'e2', parentId: 'e1', timestamp: at(3), message: { role: 'assistant', provider: 'anthropic', model: 'claude-\udc00', stopReason: 'stop', usage: usage(10, 1, 0.0001), content: [{ type: 'text', text: `ok ${'🚀'.repeat(300)}` }] } },
    ];
    await writeFile(join(dir, 'sessions', 'emoji.jsonl'), `${records.map(line).join('\n')}\n`);
    const second = JSON.stringify({ ...header('emoji2'), timestamp: at(5) }) + '\n' + JSON.stringify({ type: 'message', id: 'f1', parentId: null, timestamp: at(6), message: { role: 'user', content: `${'a'.repeat(80)}${'😀'.repeat(100)}` } }) + '\n';
    await writeFile(join(dir, 'sessions', 'emoji2.jsonl'), second);
    const report = join(dir, 'report');
    await build({ inputs: [join(dir, 'sessions')], out: report, scope: ALL_UTC, environment: { env: {}, home: join(dir, 'home') }, now: new Date('2026-12-01T00:00:00Z') });
    // A strict reader's view: no escaped surrogate that is not one of a pair.
    const lone = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;
    const halves = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    for (const name of await readdir(report, { recursive: true })) {
      if (!/\.(json|js)$/.test(name)) continue;
      const text = await readFile(join(report, name), 'utf8');
      expect({ name, lone: lone.test(text) || halves.test(text) }).toEqual({ name, lone: false });
    }
    const summary = summarySchema.parse(JSON.parse(await readFile(join(report, 'summary.json'), 'utf8')));
    const titles = summary.sessions.map((s) => s.title);
    // Cut before the emoji it would halve, not into a replacement character.
    expect(titles.some((t) => /^a{80}(?:😀)+…$/u.test(t))).toBe(true);
    expect(titles.every((t) => !t.includes('\uFFFD') || t.startsWith('Deploy'))).toBe(true);
    expect(summary.sessions.find((s) => s.id === 'emoji')?.name).toBe('Deploy \uFFFD notes');
  });
});
