// Periods end to end, through the command line, on a generated corpus over four months in
// America/Los_Angeles, with sessions started shortly before month starts and midnights there: the
// months add up exactly to the whole, each month equals its usage.csv rows bucketed in the zone
// (by Intl, not by bough's own calendar code), and `stats --json` equals the summary of a build.

import { readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIo } from '../src/cli.js';
import { statsSchema, summarySchema, type StatsJson, type Summary } from '../src/report/schema.js';
import { generatePiCorpus } from './support/pi-corpus.js';
import { tempDir } from './support/fixtures.js';

const TZ = 'America/Los_Angeles';
const TOKEN_KINDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'reasoning'] as const;
/** Midnight starting each local day in the zone, computed with Intl alone. */
const monthStarts = ['2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01'].map((day) => zoneMidnight(day));
const midnights = ['2026-07-15', '2026-08-20', '2026-09-09', '2026-10-31'].map((day) => zoneMidnight(day));

let work: string;
let sessions: string;
let all: Summary;
let usageText: string;
let usageRows: Record<string, string>[];
const byMonth = new Map<string, { summary: Summary; stats: StatsJson }>();

async function cli(args: string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {}, home: join(work, 'home'), isTty: false, now: () => new Date('2026-12-01T00:00:00Z') };
  const code = await main(args, io);
  if (code !== 0) throw new Error(`bough ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

async function buildSummary(out: string, extra: string[]): Promise<Summary> {
  await cli(['build', sessions, '--out', join(work, out), '--tz', TZ, '-q', ...extra]);
  return summarySchema.parse(JSON.parse(await readFile(join(work, out, 'summary.json'), 'utf8')));
}

beforeAll(async () => {
  work = await realpath(await tempDir('bough-periods-'));
  sessions = join(work, 'sessions');
  await generatePiCorpus(sessions, {
    sessions: 120,
    seed: 4242,
    window: { from: zoneMidnight('2026-07-01'), to: zoneMidnight('2026-10-31'), edges: [...monthStarts, ...midnights] },
  });
  all = await buildSummary('all', []);
  usageText = await readFile(join(work, 'all', 'usage.csv'), 'utf8');
  usageRows = parseCsv(usageText);
  for (const month of all.months.map((m) => m.key)) {
    const summary = await buildSummary(`month-${month}`, ['--month', month]);
    const stats = statsSchema.parse(JSON.parse(await cli(['stats', sessions, '--tz', TZ, '--month', month, '--json'])));
    byMonth.set(month, { summary, stats });
  }
}, 240_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a report per month, in America/Los_Angeles', () => {
  it('covers at least four months, and sessions that run across a month start there', () => {
    expect(all.months.length).toBeGreaterThanOrEqual(4);
    const split = [...byMonth.values()].flatMap(({ summary }) => summary.sessions.filter((s) => s.partlyOutsidePeriod));
    expect(split.length).toBeGreaterThan(0);
  });

  it('adds the months up exactly to the whole: tokens, prompts, replies and cost', () => {
    const sum = { prompts: 0, replies: 0, errorReplies: 0, usageRecords: 0, bough: 0, recorded: 0, tokens: Object.fromEntries(TOKEN_KINDS.map((k) => [k, 0])) };
    for (const { summary } of byMonth.values()) {
      sum.prompts += summary.totals.prompts;
      sum.replies += summary.totals.replies;
      sum.errorReplies += summary.totals.errorReplies;
      sum.usageRecords += summary.totals.usageRecords;
      sum.bough += summary.totals.cost.bough ?? 0;
      sum.recorded += summary.totals.cost.recorded ?? 0;
      for (const kind of TOKEN_KINDS) (sum.tokens[kind] as number) += summary.totals.tokens[kind];
    }
    expect({ prompts: sum.prompts, replies: sum.replies, errorReplies: sum.errorReplies, usageRecords: sum.usageRecords, tokens: sum.tokens }).toEqual({
      prompts: all.totals.prompts,
      replies: all.totals.replies,
      errorReplies: all.totals.errorReplies,
      usageRecords: all.totals.usageRecords,
      tokens: all.totals.tokens,
    });
    expect(sum.bough).toBeCloseTo(all.totals.cost.bough ?? 0, 8);
    expect(sum.recorded).toBeCloseTo(all.totals.cost.recorded ?? 0, 8);
  });

  it('writes a usage.csv of many pieces whole: a row per line, each ended by CRLF', () => {
    // Pieces are about 64 KB: this one is written in many.
    expect(usageText.length).toBeGreaterThan(4 * 64 * 1024);
    const lines = usageText.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBe(usageRows.length + 1);
    expect(lines.every((line) => !line.includes('\n') && line.split(',').length === lines[0]?.split(',').length)).toBe(true);
  });

  it('gives each month the tokens of its usage.csv rows, bucketed by their time in the zone', () => {
    const monthOf = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit' });
    for (const [month, { summary }] of byMonth) {
      const rows = usageRows.filter((row) => monthOf.format(new Date(row['time'] as string)).slice(0, 7) === month);
      const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      for (const row of rows) {
        tokens.input += Number(row['input']);
        tokens.output += Number(row['output']);
        tokens.cacheRead += Number(row['cache_read']);
        tokens.cacheWrite += Number(row['cache_write']);
      }
      expect({ month, ...tokens, records: rows.length }).toEqual({
        month,
        input: summary.totals.tokens.input,
        output: summary.totals.tokens.output,
        cacheRead: summary.totals.tokens.cacheRead,
        cacheWrite: summary.totals.tokens.cacheWrite,
        records: summary.totals.usageRecords,
      });
    }
  });

  // Regression: usage.csv gave only UTC times, so a spreadsheet's days and months were not the
  // report's (a record at 23:35 in Los Angeles was on the next day in the file).
  it('gives each usage.csv row the day it counts on in the zone, as Intl reads its time and as the day table sums it', () => {
    const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' });
    expect(usageRows.every((row) => row['day'] === dayOf.format(new Date(row['time'] as string)))).toBe(true);
    const inputByDay = new Map<string, number>();
    for (const row of usageRows) inputByDay.set(row['day'] as string, (inputByDay.get(row['day'] as string) ?? 0) + Number(row['input']));
    // Days with turns but no usage are in the table too, at 0.
    const tableDays = all.days.filter((day) => day.tokens.input > 0).map((day) => [day.key, day.tokens.input]);
    expect(tableDays).toEqual([...inputByDay].sort(([a], [b]) => a.localeCompare(b)));
  });

  it('has each month of the whole report equal to the report of that month', () => {
    for (const row of all.months) {
      const { summary } = byMonth.get(row.key) as { summary: Summary };
      expect({ key: row.key, prompts: row.prompts, tokens: row.tokens, sessions: row.sessions }).toEqual({
        key: row.key,
        prompts: summary.totals.prompts,
        tokens: summary.totals.tokens,
        sessions: summary.totals.sessions,
      });
    }
  });

  it('prints with stats --month --json exactly the totals a build of that month writes', () => {
    for (const [month, { summary, stats }] of byMonth) {
      expect({ month, totals: stats.totals }).toEqual({ month, totals: summary.totals });
      expect(stats.period).toEqual(summary.period);
      expect(stats.rows.map((r) => r.key)).toEqual([month]);
    }
  });

  it('prints with stats --json the totals of summary.json', async () => {
    const stats = statsSchema.parse(JSON.parse(await cli(['stats', sessions, '--tz', TZ, '--json'])));
    expect(stats.totals).toEqual(all.totals);
    expect(stats.rows).toEqual(all.months);
  });

  it('lets the sessions of a month add up to its totals', () => {
    for (const [month, { summary }] of byMonth) {
      const input = summary.sessions.reduce((a, s) => a + s.tokens.input, 0);
      const prompts = summary.sessions.reduce((a, s) => a + s.prompts, 0);
      expect({ month, input, prompts }).toEqual({ month, input: summary.totals.tokens.input, prompts: summary.totals.prompts });
    }
  });

  it('names the month and zone on every page of a month report', async () => {
    const [month] = byMonth.keys();
    const { summary } = byMonth.get(month as string) as { summary: Summary };
    const index = await readFile(join(work, `month-${month}`, 'index.html'), 'utf8');
    expect(index).toContain(`<h1>${summary.period.label} · ${TZ}</h1>`);
    const page = await readFile(join(work, `month-${month}`, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain(`Report covers <strong>${summary.period.label} · ${TZ}</strong>`);
  });
});

/** The instant a local day starts in the zone, found with Intl alone (independent of bough's calendar code). */
function zoneMidnight(day: string): number {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: TZ, timeZoneName: 'longOffset' }).formatToParts(guess);
  const offset = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(offset);
  const minutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  return guess - minutes * 60_000;
}

function parseCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split('\r\n');
  const columns = (header ?? '').split(',');
  // The generated corpus has no commas or quotes in the fields summed here.
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i] as string, value])));
}
