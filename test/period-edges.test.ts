// Where a period's edges cut a session, through the command line: what places a session in a
// period, a reply whose lines straddle the edge, a local time the clock went through twice or
// skipped; and `--project` alike in a report that redacts and in one that does not.

import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statsSchema, summarySchema, type StatsJson } from '../src/report/schema.js';
import { runCli } from './support/cli.js';
import { tempDir } from './support/fixtures.js';

let work: string;

async function cli(args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runCli(args);
  if (code !== 0) throw new Error(`bough ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

async function stats(input: string, args: string[]): Promise<StatsJson> {
  return statsSchema.parse(JSON.parse(await cli(['stats', input, '--json', '--no-cache', ...args])));
}

async function write(path: string, records: unknown[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** A Pi v3 session: a header, then entries chained in order. */
function piSession(id: string, started: string, entries: Record<string, unknown>[]): unknown[] {
  return [
    { type: 'session', version: 3, id, timestamp: started, cwd: '/work/edges' },
    ...entries.map((entry, i) => ({ id: `e${i + 1}`, parentId: i === 0 ? null : `e${i}`, ...entry })),
  ];
}

function piPrompt(timestamp: string): Record<string, unknown> {
  return { type: 'message', timestamp, message: { role: 'user', content: [{ type: 'text', text: 'go on' }], timestamp: Date.parse(timestamp) } };
}

function piReply(timestamp: string, input: number): Record<string, unknown> {
  const usage = { input, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: input + 1, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  return { type: 'message', timestamp, message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage, stopReason: 'stop', timestamp: Date.parse(timestamp) } };
}

/** A Claude Code line of session `sessionId` in /home/alice/proj. */
function claudeLine(sessionId: string, uuid: string, parentUuid: string | null, timestamp: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  const type = message['role'] === 'user' ? 'user' : 'assistant';
  return { type, uuid, parentUuid, sessionId, timestamp, cwd: '/home/alice/proj', version: '2.0.37', isSidechain: false, userType: 'external', ...extra, message };
}

function claudeReply(id: string, output: number, stop: string | null): Record<string, unknown> {
  return { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'hi' }], stop_reason: stop, usage: { input_tokens: 5, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } };
}

beforeAll(async () => {
  work = await realpath(await tempDir('bough-period-edges-'));
  // Opened at 23:50 (Pi writes its model and thinking level then), first used after midnight.
  await write(
    join(work, 'opened-late/--work-edges--/2026-11-05T23-50-00-000Z_a.jsonl'),
    piSession('aaaaaaaa-0000-4000-8000-000000000001', '2026-11-05T23:50:00.000Z', [
      { type: 'model_change', timestamp: '2026-11-05T23:50:00.100Z', provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
      { type: 'thinking_level_change', timestamp: '2026-11-05T23:50:00.200Z', thinkingLevel: 'off' },
      piPrompt('2026-11-06T00:10:00.000Z'),
      piReply('2026-11-06T00:10:05.000Z', 10),
    ]),
  );
  // Berlin: 02:00–03:00 skipped on 29 March 2026; 02:00–03:00 twice on 25 October 2026.
  await write(
    join(work, 'clock-changes/--work-edges--/2026-03-29T00-40-00-000Z_b.jsonl'),
    piSession('bbbbbbbb-0000-4000-8000-000000000001', '2026-03-29T00:40:00.000Z', [
      piPrompt('2026-03-29T00:40:00.000Z'),
      piReply('2026-03-29T00:45:00.000Z', 1), // 01:45 CET
      piReply('2026-03-29T01:15:00.000Z', 10), // 03:15 CEST
      piReply('2026-10-25T00:30:00.000Z', 100), // 02:30 CEST
      piReply('2026-10-25T01:30:00.000Z', 1000), // 02:30 CET
      piReply('2026-10-25T02:30:00.000Z', 10000), // 03:30 CET
    ]),
  );
  // One response written as two lines, the first before midnight in Berlin, the fullest after.
  const straddle = '77777777-0000-4000-8000-000000000001';
  await write(join(work, 'straddle/projects/-home-alice-proj', `${straddle}.jsonl`), [
    claudeLine(straddle, 'u1', null, '2026-10-31T22:59:50.000Z', { role: 'user', content: 'hello' }),
    claudeLine(straddle, 'a1', 'u1', '2026-10-31T22:59:58.000Z', claudeReply('msg_02A', 3, null), { requestId: 'req_02A' }),
    claudeLine(straddle, 'a2', 'a1', '2026-10-31T23:00:30.000Z', claudeReply('msg_02A', 300, 'end_turn'), { requestId: 'req_02A' }),
  ]);
  const alice = '66666666-0000-4000-8000-000000000001';
  await write(join(work, 'alice/projects/-home-alice-proj', `${alice}.jsonl`), [
    claudeLine(alice, 'u1', null, '2026-11-02T10:00:00.000Z', { role: 'user', content: 'hello' }),
    claudeLine(alice, 'a1', 'u1', '2026-11-02T10:00:05.000Z', claudeReply('msg_1', 50, 'end_turn'), { requestId: 'req_1' }),
  ]);
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('what places a session in a period', () => {
  // Regression: the model and thinking-level changes Pi writes on opening a session made it a
  // session of 5 November, with nothing counted there ("1 session, 0 prompts, —").
  it('is what it counts, not the model and thinking-level changes written on opening it', async () => {
    const byDay = await stats(join(work, 'opened-late'), ['--tz', 'UTC', '--month', '2026-11', '--by', 'day']);
    expect(byDay.rows.map((row) => row.key)).toEqual(['2026-11-06']);
    const fifth = await stats(join(work, 'opened-late'), ['--tz', 'UTC', '--since', '2026-11-05', '--until', '2026-11-05']);
    expect(fifth.totals.sessions).toBe(0);
    // Regression from a second look: the sentence for an empty period dated the session by those changes too.
    expect(await cli(['stats', join(work, 'opened-late'), '--no-cache', '--tz', 'UTC', '--since', '2026-11-05', '--until', '2026-11-05'])).toContain('The one session read (2026-11-06) lies outside it.');
    const sixth = await stats(join(work, 'opened-late'), ['--tz', 'UTC', '--since', '2026-11-06', '--until', '2026-11-06']);
    expect(sixth.totals).toMatchObject({ sessions: 1, prompts: 1, replies: 1 });
  });
});

describe('a Claude Code response streamed across the end of a month', () => {
  // Regression: the reply counted in October by its first line, its tokens in November by its fullest.
  it('counts the reply where its tokens count', async () => {
    const input = join(work, 'straddle');
    const october = await stats(input, ['--tz', 'Europe/Berlin', '--month', '2026-10']);
    const november = await stats(input, ['--tz', 'Europe/Berlin', '--month', '2026-11']);
    expect(october.totals).toMatchObject({ prompts: 1, replies: 0, usageRecords: 0 });
    expect(november.totals).toMatchObject({ prompts: 0, replies: 1, usageRecords: 1 });
    expect(november.totals.tokens.output).toBe(300);
  });

  it('marks the reply outside the period on the page of the month it does not count in', async () => {
    const out = join(work, 'straddle-october');
    await cli(['build', join(work, 'straddle'), '--out', out, '--tz', 'Europe/Berlin', '--month', '2026-10', '-q']);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    const page = await readFile(join(out, summary.sessions[0]?.page ?? ''), 'utf8');
    const at = page.indexOf('id="e-a1"');
    expect(at).toBeGreaterThan(-1);
    const reply = page.slice(at, page.indexOf('</article>', at));
    // The reply is marked as a whole (its badge), not only its usage line.
    expect(reply).toContain('outside this report&#39;s period: shown, not counted here');
    // Regression (a review of periods): shown at its first line's time, 23:59:58 of October, a
    // time inside the period it was marked outside of, with nothing saying when it counts. Shown
    // in its place among its lines (a later look: shown at its last line's time, a reply went
    // below the results of its own calls), it says when it counts.
    expect(reply).toContain('datetime="2026-10-31T22:59:58.000Z"');
    expect(reply).toContain(' · counted at 2026-11-01 00:00:30');
  });
});

describe('a local time the clock went through twice, or skipped', () => {
  const input = () => join(work, 'clock-changes');
  const inputTokens = async (args: string[]) => (await stats(input(), ['--tz', 'Europe/Berlin', ...args])).totals.tokens.input;

  // Regression (an outputs review): --until 02:30 on the night clocks go back ended after the
  // second 02:30 and --since 02:31 began at the first, so the hour between was in both periods.
  // A repeated time is taken at its first: back-to-back periods add up to the whole, once.
  it('splits the night the clock goes back into periods that add up exactly', async () => {
    const all = await inputTokens(['--since', '2026-10-01']);
    expect(all).toBe(11100);
    for (const [until, since] of [['02:30', '02:31'], ['02:29', '02:30'], ['02:59', '03:00'], ['01:59', '02:00'], ['03:29', '03:30'], ['02:30:00', '02:30:01'], ['02:30:00.5', '02:30:00.6']]) {
      const before = await inputTokens(['--since', '2026-10-01', '--until', `2026-10-25T${until}`]);
      const after = await inputTokens(['--since', `2026-10-25T${since}`]);
      expect([until, before + after]).toEqual([until, all]);
    }
    // 02:30 is the first 02:30 (CEST); the second (CET) comes after 02:59 as the clock first shows it.
    expect(await inputTokens(['--since', '2026-10-01', '--until', '2026-10-25T02:30'])).toBe(100);
    expect(await inputTokens(['--since', '2026-10-25T02:30', '--until', '2026-10-25T02:30'])).toBe(100);
    expect(await inputTokens(['--since', '2026-10-01', '--until', '2026-10-25T02:59'])).toBe(1100);
  });

  // Regression: --until 02:30, a time skipped that night, took in 03:15 (read as 03:30).
  it('puts a skipped time at the change: what came before it is earlier, what came after later', async () => {
    expect(await inputTokens(['--until', '2026-03-29T02:30'])).toBe(1);
    expect(await inputTokens(['--since', '2026-03-29T02:30', '--until', '2026-03-29T03:20'])).toBe(10);
  });

  // Regression from a second look: a period of skipped times alone was refused as "--since …
  // comes after --until …", though as written it does not.
  it('is an empty period when every time in it was skipped, and refuses only a period written the wrong way round', async () => {
    expect(await inputTokens(['--since', '2026-03-29T02:00', '--until', '2026-03-29T02:59'])).toBe(0);
    expect((await stats(input(), ['--tz', 'America/Santiago', '--since', '2026-09-06T00:00', '--until', '2026-09-06T00:30'])).totals.sessions).toBe(0);
    await expect(inputTokens(['--since', '2026-03-29T03:00', '--until', '2026-03-29T02:59'])).rejects.toThrow('comes after --until');
  });
});

describe('--project in a report that redacts', () => {
  // Regression: `alice-proj` matched the agent's folder (-home-alice-proj) of /home/alice/proj in
  // a redacting build only, so a shared report held a session the plain one did not.
  it('matches the sessions a report that does not redact matches', async () => {
    const sessions = async (name: string, extra: string[]) => {
      const out = join(work, name);
      await cli(['build', join(work, 'alice'), '--out', out, '--tz', 'UTC', '-q', ...extra]);
      return summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).totals.sessions;
    };
    expect(await sessions('plain-folder-name', ['--project', 'alice-proj'])).toBe(0);
    expect(await sessions('redacted-folder-name', ['--project', 'alice-proj', '--redact'])).toBe(0);
    expect(await sessions('plain-folder', ['--project', 'alice/proj'])).toBe(1);
    expect(await sessions('redacted-folder', ['--project', 'alice/proj', '--redact'])).toBe(1);
  });

  // Regressions from a second look: a plain build matched "folder name" (its label's words) in a
  // project named by its folder; and once the session with a working directory was gone (kept
  // from the archive), a redacting build matched its project no more.
  it('matches a project with a session kept from an earlier build, and never by its label’s words', async () => {
    const input = join(work, 'kept-project');
    const withCwd = '11111111-0000-4000-8000-000000000001';
    const without = '22222222-0000-4000-8000-000000000001';
    const lines = (id: string, cwd: boolean) => [
      claudeLine(id, 'u1', null, '2026-11-02T10:00:00.000Z', { role: 'user', content: `hello ${id.slice(0, 2)}` }),
      claudeLine(id, 'a1', 'u1', '2026-11-02T10:00:05.000Z', claudeReply(`msg_${id.slice(0, 2)}`, 50, 'end_turn'), { requestId: `req_${id.slice(0, 2)}` }),
    ].map((line) => (cwd ? line : Object.fromEntries(Object.entries(line as Record<string, unknown>).filter(([k]) => k !== 'cwd'))));
    await write(join(input, 'projects/-home-alice-proj', `${withCwd}.jsonl`), lines(withCwd, true));
    await write(join(input, 'projects/-home-alice-proj', `${without}.jsonl`), lines(without, false));
    const count = async (out: string, extra: string[]) => {
      await cli(['build', input, '--out', join(work, out), '--tz', 'UTC', '-q', ...extra]);
      return summarySchema.parse(JSON.parse(await readFile(join(work, out, 'summary.json'), 'utf8'))).totals.sessions;
    };
    const lone = join(work, 'folder-only');
    await write(join(lone, 'projects/-srv-app', `${without}.jsonl`), lines(without, false));
    await cli(['build', lone, '--out', join(work, 'folder-only-report'), '--tz', 'UTC', '-q', '--project', 'folder name']);
    expect(summarySchema.parse(JSON.parse(await readFile(join(work, 'folder-only-report', 'summary.json'), 'utf8'))).totals.sessions).toBe(0);
    expect(await count('kept-plain', [])).toBe(2);
    expect(await count('kept-redacted', ['--redact'])).toBe(2);
    await rm(join(input, 'projects/-home-alice-proj', `${withCwd}.jsonl`));
    expect(await count('kept-plain', ['--project', 'proj'])).toBe(2);
    expect(await count('kept-redacted', ['--project', 'proj', '--redact'])).toBe(2);
  });
});

describe('a session whose usage all lies outside the period', () => {
  // Regression: its page said "$0.00 of its $0.0150 by bough's price" above cards saying "no usage
  // recorded", and its project page counted "0" tokens: the agent recorded usage, in another month.
  it('says none of it falls in the period, on the session’s page and its project’s, and "since" in a sentence in lower case', async () => {
    const input = join(work, 'outside-usage');
    await write(join(input, 'late.jsonl'), piSession('late', '2026-10-31T23:50:00.000Z', [piPrompt('2026-10-31T23:50:00.000Z'), piReply('2026-11-01T00:10:00.000Z', 1000)]));
    const out = join(work, 'outside-usage-report');
    await cli(['build', input, '--out', out, '--since', '2026-10-15', '--until', '2026-10-31', '--tz', 'UTC', '--no-cache', '-q']);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('The numbers below count that part: 1 of its 1 prompt, none of its usage ($0.0030 by bough&#39;s price in all).');
    const card = (html: string, label: string) => new RegExp(`<div class="card-label">${label}</div>\\s*<div class="card-value">([^<]*)</div>\\s*<div class="card-detail">([^<]*)</div>`).exec(html)?.slice(1);
    const project = await readFile(join(out, summary.projects[0]?.page as string), 'utf8');
    for (const html of [page, project]) {
      expect(card(html, 'Tokens')).toEqual(['—', 'none in this period']);
      expect(card(html, 'Cost \\(bough\\)')?.[1]).toBe('none in this period');
    }
    expect(page).toContain('Report covers <strong>2026-10-15 – 2026-10-31 · UTC</strong>');
    const since = join(work, 'outside-usage-since');
    await cli(['build', input, '--out', since, '--since', '2026-10-15', '--tz', 'UTC', '--no-cache', '-q']);
    expect(await readFile(join(since, 'index.html'), 'utf8')).toContain('Report covers <strong>since 2026-10-15 · UTC</strong>');
  });
});

describe('stats by session over a period that cuts a session', () => {
  // Regression (a review of the monthly report): summary.json and the pages said a session was
  // only partly counted, `stats --by session` did not, in its table or its JSON.
  it('marks the session in its table and says so in its JSON', async () => {
    const input = join(work, 'cut-by-period');
    await write(join(input, 'across.jsonl'), piSession('across', '2026-10-31T23:00:00.000Z', [piPrompt('2026-10-31T23:00:00.000Z'), piReply('2026-10-31T23:00:05.000Z', 1000), piPrompt('2026-11-01T01:00:00.000Z'), piReply('2026-11-01T01:00:05.000Z', 2000)]));
    const json = await stats(input, ['--month', '2026-11', '--tz', 'UTC', '--by', 'session']);
    expect(json.rows.map((r) => [r.tokens.input, r.partlyOutsidePeriod])).toEqual([[2000, true]]);
    const table = await cli(['stats', input, '--month', '2026-11', '--tz', 'UTC', '--by', 'session', '--no-cache']);
    expect(table).toMatch(/ 2026-10-31 † /);
    expect(table).toContain('† part of the session lies outside the period: only its part in it is counted.');
    const whole = await cli(['stats', input, '--tz', 'UTC', '--by', 'session', '--no-cache']);
    expect(whole).not.toContain('†');
  });
});

describe('months a period cuts', () => {
  // Regression (a review of the monthly report): `--since 2026-10-15 --until 2026-11-10` gave rows
  // "October 2026" and "November 2026", read as the whole months' totals.
  it('are labelled with the days the period covers, in stats and on the overview', async () => {
    const input = join(work, 'cut-months');
    await write(join(input, 'a.jsonl'), piSession('a', '2026-10-20T10:00:00.000Z', [piPrompt('2026-10-20T10:00:00.000Z'), piReply('2026-10-20T10:00:05.000Z', 1000)]));
    await write(join(input, 'b.jsonl'), piSession('b', '2026-11-05T10:00:00.000Z', [piPrompt('2026-11-05T10:00:00.000Z'), piReply('2026-11-05T10:00:05.000Z', 1000)]));
    const cut = ['--since', '2026-10-15', '--until', '2026-11-10', '--tz', 'UTC'];
    const json = await stats(input, [...cut, '--by', 'month']);
    expect(json.rows.map((r) => [r.key, r.label])).toEqual([
      ['2026-10', 'October 2026 (15–31)'],
      ['2026-11', 'November 2026 (1–10)'],
    ]);
    const whole = await stats(input, ['--tz', 'UTC', '--by', 'month']);
    expect(whole.rows.map((r) => r.label)).toEqual(['October 2026', 'November 2026']);
    const out = join(work, 'cut-months-report');
    await cli(['build', input, '--out', out, ...cut, '--no-cache', '-q']);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('>October 2026 (15–31)</td>');
  });
});

// Regression (an outside review of periods): `--month 2026-11 --by week` gave "2026-W44" for a
// week of which the period holds one day, where a cut month's row says which days it holds.
describe('weeks a period cuts', () => {
  it('are labelled with the days the period covers', async () => {
    const input = join(work, 'cut-weeks');
    await write(join(input, 'a.jsonl'), piSession('a', '2026-11-01T10:00:00.000Z', [piPrompt('2026-11-01T10:00:00.000Z'), piReply('2026-11-01T10:00:05.000Z', 1000)]));
    await write(join(input, 'b.jsonl'), piSession('b', '2026-11-18T10:00:00.000Z', [piPrompt('2026-11-18T10:00:00.000Z'), piReply('2026-11-18T10:00:05.000Z', 1000)]));
    await write(join(input, 'c.jsonl'), piSession('c', '2026-11-30T10:00:00.000Z', [piPrompt('2026-11-30T10:00:00.000Z'), piReply('2026-11-30T10:00:05.000Z', 1000)]));
    const json = await stats(input, ['--month', '2026-11', '--tz', 'UTC', '--by', 'week']);
    expect(json.rows.map((r) => [r.key, r.label])).toEqual([
      ['2026-W44', '2026-W44 (from 2026-11-01)'],
      ['2026-W47', '2026-W47'],
      ['2026-W49', '2026-W49 (to 2026-11-30)'],
    ]);
    const one = await stats(input, ['--since', '2026-11-18', '--until', '2026-11-18', '--tz', 'UTC', '--by', 'week']);
    expect(one.rows.map((r) => r.label)).toEqual(['2026-W47 (2026-11-18)']);
  });
});

describe('a month whose sessions recorded no usage', () => {
  // Regression (a review of Codex's format): the overview's months table said 0 tokens of a month
  // whose only session recorded none, where `stats` and the projects table say "—".
  it('shows "—" in its token columns, and 0 in a month without a session', async () => {
    const input = join(work, 'no-usage-month');
    await write(join(input, 'quiet.jsonl'), piSession('quiet', '2026-08-10T10:00:00.000Z', [piPrompt('2026-08-10T10:00:00.000Z')]));
    await write(join(input, 'busy.jsonl'), piSession('busy', '2026-10-10T10:00:00.000Z', [piPrompt('2026-10-10T10:00:00.000Z'), piReply('2026-10-10T10:00:05.000Z', 1000)]));
    const out = join(work, 'no-usage-month-report');
    await cli(['build', input, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    const start = index.indexOf('<table class="numbers months');
    const months = index.slice(start, index.indexOf('</table>', start));
    const row = (label: string) => months.split('<tr>').find((r) => r.includes(`>${label}</td>`)) ?? '';
    expect(row('August 2026').match(/>—</g)).toHaveLength(6);
    expect(row('September 2026').match(/>0</g)).toHaveLength(6);
    expect(row('October 2026')).toContain('>1,000<');
  });
});

// Regression (an outside review of periods): an entry of no time counts at its session's header
// time, but the session's start was taken from its timed entries alone: shown as starting after
// the period that counted it.
describe('a session whose entry of no time counts at its header time', () => {
  it('starts at that time', async () => {
    const input = join(work, 'untimed-first/--work-edges--/2026-10-31T22-00-00-000Z_u.jsonl');
    const untimed = piReply('2026-10-31T22:00:00.000Z', 10);
    delete untimed['timestamp'];
    delete (untimed['message'] as Record<string, unknown>)['timestamp'];
    await write(input, piSession('eeeeeeee-0000-4000-8000-000000000001', '2026-10-31T22:00:00.000Z', [untimed, piPrompt('2026-10-31T22:50:00.000Z'), piReply('2026-10-31T22:50:05.000Z', 20)]));
    const out = join(work, 'untimed-first-report');
    await cli(['build', dirname(dirname(input)), '--out', out, '--tz', 'UTC', '--until', '2026-10-31T22:30Z', '--no-cache', '--quiet']);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(summary.sessions.map((s) => [s.startedAt, s.replies])).toEqual([['2026-10-31T22:00:00.000Z', 1]]);
  });
});

// Regression (an outside review of periods): `stats` said "the agent wrote none" of a session
// whose usage lay before the period, where the report's pages say "none in this period".
describe('a session whose usage all lies outside the period', () => {
  it('is said so by stats, in its table and its JSON', async () => {
    const input = join(work, 'usage-before/--work-edges--/2026-11-30T23-00-00-000Z_v.jsonl');
    const result = { type: 'message', timestamp: '2026-12-01T00:10:00.000Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: 'ok' }], isError: false, timestamp: Date.parse('2026-12-01T00:10:00.000Z') } };
    await write(input, piSession('ffffffff-0000-4000-8000-000000000001', '2026-11-30T23:00:00.000Z', [piPrompt('2026-11-30T23:00:00.000Z'), piReply('2026-11-30T23:00:05.000Z', 10), result]));
    const folder = dirname(dirname(input));
    const json = await stats(folder, ['--tz', 'UTC', '--month', '2026-12', '--by', 'session']);
    expect(json.rows.map((r) => [r.usageRecords, r.partlyOutsidePeriod, r.usageOutsidePeriod])).toEqual([[0, true, true]]);
    const table = await cli(['stats', folder, '--no-cache', '--tz', 'UTC', '--month', '2026-12', '--by', 'session']);
    expect(table).toContain('— of a session whose usage all lies outside the period: none in it, not none written.');
    expect(table).not.toContain('the agent wrote none');
    // By month, the row of the period holds none of it (a hostile look: it said the agent wrote none).
    const byMonth = await cli(['stats', folder, '--no-cache', '--tz', 'UTC', '--month', '2026-12']);
    expect(byMonth).toContain('— no usage recorded in the row (not zero tokens: none of it falls there).');
    expect(byMonth).not.toContain('the agent wrote none');
  });
});
