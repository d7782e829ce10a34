// A record's time as the agents write it: ISO 8601 in UTC. Regressions: Date.parse moved 30
// February to 2 March without a word, and read a time without a zone in the machine's zone, so a
// record's month depended on where bough ran.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { statsSchema, summarySchema } from '../src/report/schema.js';
import { parseTime } from '../src/sources/record-fields.js';
import { FIXTURES, tempDir } from './support/fixtures.js';

const IMPOSSIBLE = join(FIXTURES, 'cases', 'impossible-times.jsonl');

async function stats(args: string[]) {
  const { code, stdout } = await runCli(['stats', IMPOSSIBLE, '--json', '--no-cache', ...args]);
  expect(code).toBe(0);
  return statsSchema.parse(JSON.parse(stdout));
}

/** Runs `work` with the process in another time zone (Node reads TZ again when it is set). */
function inZone<T>(zone: string, work: () => T): T {
  const before = process.env['TZ'];
  process.env['TZ'] = zone;
  try {
    return work();
  } finally {
    if (before === undefined) delete process.env['TZ'];
    else process.env['TZ'] = before;
  }
}

describe('record times', () => {
  it('reads ISO times with a zone, an offset or none (as UTC), and epoch milliseconds', () => {
    expect(parseTime('2026-03-02T10:00:00.123Z')).toBe(Date.UTC(2026, 2, 2, 10, 0, 0, 123));
    expect(parseTime('2026-03-02T10:00:00+05:30')).toBe(Date.UTC(2026, 2, 2, 4, 30));
    expect(parseTime('2026-03-02T10:00:00-0800')).toBe(Date.UTC(2026, 2, 2, 18));
    expect(parseTime('2026-03-02T10:00:00.123456Z')).toBe(Date.UTC(2026, 2, 2, 10, 0, 0, 123));
    expect(parseTime('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    expect(parseTime(1_764_504_000_000)).toBe(1_764_504_000_000);
    for (const zone of ['Asia/Tokyo', 'America/New_York', 'UTC']) {
      expect(inZone(zone, () => parseTime('2026-05-31 22:30:00'))).toBe(Date.UTC(2026, 4, 31, 22, 30));
      expect(inZone(zone, () => parseTime('2026-11-01T00:30:00'))).toBe(Date.UTC(2026, 10, 1, 0, 30));
    }
  });

  it('refuses days and hours that do not exist, and what is not ISO 8601', () => {
    for (const notATime of ['2026-02-30T10:00:00.000Z', '2026-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-03-02T24:00:00Z', '2026-13-01T00:00:00Z', '2026-03-02T10:60:00Z', '2026-03-02T10:00:00+24:00', 'Mon, 02 Mar 2026 10:00:00 GMT', 'yesterday', '', Number.NaN, 9e15]) {
      expect(parseTime(notATime), String(notATime)).toBeNull();
    }
  });

  it('refuses times no session has: before 2000 or from 2100 (regression: 8.64e15 stopped the build; 9999 listed a thousand years of months)', () => {
    for (const notASessionTime of ['0050-06-01T00:00:00Z', '1999-12-31T23:59:59.999Z', '2100-01-01T00:00:00Z', '9999-12-31T23:59:59.000Z', 0, 8.64e15, -8.64e15]) {
      expect(parseTime(notASessionTime), String(notASessionTime)).toBeNull();
    }
    expect(parseTime('2000-01-01T00:00:00Z')).toBe(Date.UTC(2000, 0, 1));
    expect(parseTime('2099-12-31T23:59:59.999Z')).toBe(Date.UTC(2100, 0, 1) - 1);
  });

  it('puts a record with an impossible date on its session’s time, and says so (regression: 30 February counted on 2 March)', async () => {
    const byDay = await stats(['--tz', 'UTC', '--by', 'day']);
    expect(byDay.rows.map((r) => [r.key, r.tokens.input])).toEqual([
      ['2026-02-27', 1000],
      ['2026-02-28', 2000],
    ]);
    expect(byDay.totals.tokens.input).toBe(3000);
    const march = await stats(['--tz', 'UTC', '--month', '2026-03']);
    expect(march.totals.tokens.input).toBe(0);
    const out = join(await tempDir(), 'report');
    expect((await runCli(['build', IMPOSSIBLE, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const { diagnostics } = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(diagnostics.byReason).toEqual({ 'invalid-time': 1 });
    expect(diagnostics.items[0]).toMatchObject({ line: 3, reason: 'invalid-time', skippedLine: false });
    expect(diagnostics.items[0]?.detail).toContain('"2026-02-30T10:00:00.000Z" is not a date and time');
  });

  // Regression (a totals review): the note said such a record went by its session's time, and it
  // was counted by its message's own (a month later), as it should be.
  it('says a Pi message with an impossible entry time goes by the time its message carries, and counts it there', async () => {
    const dir = await tempDir();
    const lines = [
      { type: 'session', version: 3, id: '0196d000-0000-7000-8000-000000000002', timestamp: '2026-12-31T20:00:00.000Z', cwd: '/home/ana/shop' },
      { type: 'message', id: 'c0000001', parentId: null, timestamp: '2026-12-31T20:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } },
      {
        type: 'message',
        id: 'c0000002',
        parentId: 'c0000001',
        timestamp: '2027-02-30T10:00:00.000Z',
        message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }], provider: 'anthropic', model: 'claude-opus-4-6', stopReason: 'stop', timestamp: Date.UTC(2027, 0, 4, 0, 51), usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010 } },
      },
    ];
    await writeFile(join(dir, 'message-time.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const { code, stdout } = await runCli(['stats', dir, '--json', '--no-cache', '--tz', 'UTC', '--by', 'day']);
    expect(code).toBe(0);
    expect(statsSchema.parse(JSON.parse(stdout)).rows.filter((r) => r.tokens.input > 0).map((r) => r.key)).toEqual(['2027-01-04']);
    const out = join(await tempDir(), 'report');
    expect((await runCli(['build', dir, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const { diagnostics } = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(diagnostics.items.map((d) => d.detail)).toEqual(['timestamp "2027-02-30T10:00:00.000Z" is not a date and time (the record goes by its message\'s own time)']);
  });

  // Regression (an outside review of periods): an entry without a time whose message's time was
  // no time (seconds for milliseconds, 31 November) went by its session's time, said nowhere.
  it('says a Pi message time that is no time, where the entry has none of its own', async () => {
    const dir = await tempDir();
    const reply = (id: string, parentId: string, time: unknown) => ({ type: 'message', id, parentId, message: { role: 'assistant', content: [{ type: 'text', text: id }], provider: 'anthropic', model: 'claude-opus-4-6', stopReason: 'stop', timestamp: time, usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010 } } });
    const lines = [
      { type: 'session', version: 3, id: '0196d000-0000-7000-8000-000000000003', timestamp: '2026-10-31T20:00:00.000Z', cwd: '/home/ana/shop' },
      { type: 'message', id: 'd0000001', parentId: null, timestamp: '2026-11-15T10:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } },
      reply('d0000002', 'd0000001', 1794650460),
      reply('d0000003', 'd0000002', '2026-11-31T00:00:00Z'),
      reply('d0000004', 'd0000003', Date.UTC(2026, 10, 16)),
    ];
    await writeFile(join(dir, 'message-times.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const out = join(await tempDir(), 'report');
    expect((await runCli(['build', dir, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const { diagnostics } = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(diagnostics.items.map((d) => [d.line, d.detail])).toEqual([
      [3, "timestamp 1794650460 is not in the years 2000 to 2099 (the record goes by its session's time)"],
      [4, 'timestamp "2026-11-31T00:00:00Z" is not a date and time (the record goes by its session\'s time)'],
    ]);
  });

  it('says when a session header’s time is no time, and when nothing in a session has one (regression: both silent)', async () => {
    const dir = await tempDir();
    const header = (timestamp: string) => JSON.stringify({ type: 'session', version: 3, id: '0196d000-0000-7000-8000-000000000001', timestamp, cwd: '/home/ana/shop' });
    const prompt = (timestamp: string | null) => JSON.stringify({ type: 'message', id: 'c0000001', parentId: null, ...(timestamp === null ? {} : { timestamp }), message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } });
    await writeFile(join(dir, 'garbled-header.jsonl'), `${header('garbage')}\n${prompt('2026-03-02T10:00:00.000Z')}\n`);
    await writeFile(join(dir, 'untimed.jsonl'), `${header('')}\n${prompt(null)}\n`);
    const out = join(await tempDir(), 'report');
    expect((await runCli(['build', dir, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const { diagnostics } = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(diagnostics.byReason).toEqual({ 'invalid-time': 1, 'no-time': 1 });
    const detail = (reason: string) => diagnostics.items.find((d) => d.reason === reason)?.detail;
    expect(detail('invalid-time')).toBe('timestamp "garbage" is not a date and time (the session goes by its first entry’s time)');
    expect(detail('no-time')).toMatch(/^no record holds a readable time: dated by the file's last change \(\d{4}-/);
  });

  it('dates a Pi sub-agent’s spend by each of its messages, not by the tool result holding them (regression: all in April)', async () => {
    const file = join(FIXTURES, 'cases', 'subagent-past-midnight.jsonl');
    const month = async (m: string) => {
      const { code, stdout } = await runCli(['stats', file, '--json', '--no-cache', '--tz', 'UTC', '--month', m]);
      expect(code).toBe(0);
      return statsSchema.parse(JSON.parse(stdout)).totals;
    };
    // March: the main reply (100) and the sub-agent's first reply (1,000); April: its second (2,000).
    expect(await month('2026-03')).toMatchObject({ tokens: { input: 1_100 }, subagents: { tokens: { input: 1_000 } } });
    expect(await month('2026-04')).toMatchObject({ tokens: { input: 2_000 }, subagents: { tokens: { input: 2_000 } } });
  });

  // Regression: the run's entries were never marked outside the period, and its line gave the
  // whole run's spend beside a page that counted part of it.
  it('marks a Pi sub-agent’s messages outside the period on the page, and says what of its spend counts', async () => {
    const out = join(await tempDir(), 'report');
    const file = join(FIXTURES, 'cases', 'subagent-past-midnight.jsonl');
    expect((await runCli(['build', file, '--out', out, '--no-cache', '--tz', 'UTC', '--month', '2026-04', '--quiet'])).code).toBe(0);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    const page = await readFile(join(out, summary.sessions[0]?.page ?? ''), 'utf8');
    const run = page.slice(page.indexOf('<details class="subagent">'));
    expect(run).toContain('<strong>scout</strong> · in this period: in 2,000 · out 0 · cache read 0 · cache write 0 · $0.0020 recorded · $0.0020 bough; in all: in 3,000');
    // Its first reply (31 March, 23:55) is marked; its second (1 April) is not.
    const heads = [...run.matchAll(/<div class="entry-head">([\s\S]*?)<\/div>/g)].map((match) => match[1] ?? '');
    expect(heads.map((head) => [/datetime="([^"]+)"/.exec(head)?.[1], head.includes('outside period')])).toEqual([
      ['2026-03-31T23:55:00.000Z', true],
      ['2026-04-01T00:10:00.000Z', false],
    ]);
  });

  it('counts a time without a zone on the same day whatever the machine’s zone (regression: its month followed TZ)', async () => {
    for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
      const before = process.env['TZ'];
      process.env['TZ'] = zone;
      try {
        const february = await stats(['--tz', 'UTC', '--month', '2026-02']);
        expect(february.totals.tokens.input, zone).toBe(3000);
      } finally {
        if (before === undefined) delete process.env['TZ'];
        else process.env['TZ'] = before;
      }
    }
  });
});
