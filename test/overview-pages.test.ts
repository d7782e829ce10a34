// The monthly report as a reader sees it: the index answers "what did I spend in a month, on which
// model, in which project", with a month table, charts, and tables sorted by cost.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { parsePeriod } from '../src/ledger/scope.js';
import { summarySchema, type Summary } from '../src/report/schema.js';
import { FIXTURES, piFixture, tempDir } from './support/fixtures.js';
import { liveMarkup } from './support/html.js';

const TZ = 'America/Los_Angeles';
let all: { out: string; summary: Summary; index: string };
let october: { out: string; summary: Summary; index: string };

async function buildWith(flags: { month?: string }): Promise<{ out: string; summary: Summary; index: string }> {
  const out = join(await tempDir(), 'report');
  await build({
    inputs: [join(FIXTURES, 'pi')],
    out,
    scope: { timeZone: TZ, period: parsePeriod(flags, TZ), project: null, sources: null },
    environment: { env: {}, home: await tempDir() },
    now: new Date('2026-12-01T00:00:00Z'),
  });
  const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
  return { out, summary, index: await readFile(join(out, 'index.html'), 'utf8') };
}

/** The HTML of the section with this id. */
function section(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}">`);
  if (start === -1) throw new Error(`no section #${id}`);
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}

/** The text of each body row's cells, tags removed. */
function rows(html: string, part: 'tbody' | 'tfoot' = 'tbody'): string[][] {
  const body = html.slice(html.indexOf(`<${part}>`), html.indexOf(`</${part}>`));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => (cell[1] ?? '').replace(/<span class="(sub|badge)[^"]*"[^>]*>[\s\S]*?<\/span>/g, '').replace(/<[^>]+>/g, '').trim()),
  );
}

beforeAll(async () => {
  all = await buildWith({});
  october = await buildWith({ month: '2026-10' });
});

describe('the index of a report', () => {
  it('names the period and the zone in its heading and title', () => {
    expect(all.index).toContain(`<h1>All time · ${TZ}</h1>`);
    expect(october.index).toContain(`<h1>October 2026 · ${TZ}</h1>`);
    expect(october.index).toContain(`<title>Overview · October 2026 · ${TZ} · bough</title>`);
  });

  // Regression (an outside review of Claude Code's format): a report of all time implied the
  // files held all of it (claude.md §1: say how far back the data goes).
  it('says how far back the data of a report of all time goes, and not of a month', () => {
    expect(all.index).toMatch(/<p class="note">Its data runs from 2025-11-\d\d to 2026-11-0\d, as far back as the files read go\.<\/p>/);
    expect(october.index).not.toContain('Its data runs from');
  });

  // Regression (a review of the pages as a user reads them): a report of one project said its
  // span, the project's, ran "as far back as the files read go", which went further back.
  it('says the span of a report of one project is its sessions’, not the files’', async () => {
    const out = join(await tempDir(), 'report');
    await build({ inputs: [join(FIXTURES, 'pi')], out, scope: { timeZone: TZ, period: parsePeriod({}, TZ), project: all.summary.projects[0]?.name ?? '', sources: null }, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z') });
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toMatch(/<p class="note">Its data runs from [0-9-]+( to [0-9-]+)?: that of the sessions it shows, as far back as the files read hold them\.<\/p>/);
    expect(index).not.toContain('as far back as the files read go');
    // Regression (a hostile look): a report ending at --until spoke of data past its end.
    const until = join(await tempDir(), 'report');
    await build({ inputs: [join(FIXTURES, 'pi')], out: until, scope: { timeZone: TZ, period: parsePeriod({ until: '2026-06-01' }, TZ), project: null, sources: null }, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z') });
    expect(await readFile(join(until, 'index.html'), 'utf8')).not.toContain('Its data runs from');
  });

  it('has a month table naming every month, with a total row equal to summary.json', () => {
    const months = section(all.index, 'months');
    const body = rows(months);
    expect(body.map((r) => r[0])).toEqual(all.summary.months.length > 0 ? monthNamesBetween(all.summary.months[0]!.key, all.summary.months.at(-1)!.key) : []);
    for (const month of all.summary.months) expect(months).toContain(`>${month.label}<`);
    const [total] = rows(months, 'tfoot');
    expect(total?.slice(0, 4)).toEqual(['Total', String(all.summary.totals.sessions), String(all.summary.totals.prompts), all.summary.totals.tokens.input.toLocaleString('en-US')]);
  });

  it('lists only the months with activity when the sessions span more than five years (regression: a row for each of 88 quiet months)', async () => {
    const dir = await tempDir();
    const session = (id: string, day: string) =>
      [
        { type: 'session', version: 3, id, timestamp: `${day}T10:00:00.000Z`, cwd: '/home/ana/old' },
        { type: 'message', id: `${id}-u`, parentId: null, timestamp: `${day}T10:00:01.000Z`, message: { role: 'user', content: 'Hello.' } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n');
    await mkdir(join(dir, 'sessions'));
    await writeFile(join(dir, 'sessions', 'then.jsonl'), `${session('then', '2019-06-03')}\n`);
    await writeFile(join(dir, 'sessions', 'now.jsonl'), `${session('now', '2026-10-05')}\n`);
    const out = join(dir, 'report');
    await build({ inputs: [join(dir, 'sessions')], out, scope: { timeZone: TZ, period: parsePeriod({}, TZ), project: null, sources: null }, environment: { env: {}, home: dir }, now: new Date('2026-12-01T00:00:00Z') });
    const months = section(await readFile(join(out, 'index.html'), 'utf8'), 'months');
    expect(rows(months).map((r) => r[0])).toEqual(['June 2019', 'October 2026']);
    expect(months).toContain('Months without activity are left out: the sessions span more than five years.');
  });

  it('draws cost per day as inline SVG stacked by model, with exact values in tooltips and the same numbers as a table', () => {
    const chart = section(october.index, 'cost-over-time');
    expect(chart).toMatch(/<svg class="chart"[^>]*role="img"/);
    expect(chart).toMatch(/<rect [^>]*fill="#[0-9a-f]{6}"><title>2026-10-16 · anthropic\/claude-sonnet-4-5: \$0\.9923 \(all models: \$0\.9998\)<\/title><\/rect>/);
    expect(chart).toMatch(/<ul class="legend"><li><svg class="swatch"/);
    // The two models the table lacks; and a Pi tool's own model use, which names none, said apart
    // (a hostile look: "3 models have no price in the table").
    expect(chart).toContain('2 models have no price in the table: their cost is unknown and not drawn.');
    expect(chart).toContain('Some usage names no model: its cost is unknown and not drawn.');
    const table = rows(chart);
    // That day also holds records of the two unpriced models, as the month's row says of it.
    expect(table.find((r) => r[0] === '2026-10-16')?.at(-1)).toBe('$0.9998 + unknown');
    expect(rows(section(october.index, 'months')).flat().join(' ')).toContain('+ unknown');
    // A month is drawn day by day only: no monthly chart for a month.
    expect(chart).not.toContain('Cost per month');
    expect(section(all.index, 'cost-over-time')).toContain('Cost per month');
  });

  // Regression: the month chart's table sorted "April 2026" before "December 2025" (by name); the
  // By month table sorted by its key.
  it('sorts the chart table’s months and days by date, not by name', () => {
    const chart = section(all.index, 'cost-over-time');
    const keys = [...chart.matchAll(/<tr><td data-sort="([^"]*)">([^<]*)</g)].map(([, key, name]) => ({ key, name }));
    const months = keys.filter(({ name }) => /^[A-Z][a-z]+ \d{4}$/.test(name ?? ''));
    expect(months.length).toBeGreaterThan(1);
    for (const { key } of months) expect(key).toMatch(/^\d{4}-\d{2}$/);
    expect(section(october.index, 'cost-over-time')).toMatch(/<tr><td data-sort="2026-10-16">2026-10-16</);
  });

  it('lists models, projects and agents most expensive first, which is how they read without JavaScript', () => {
    for (const id of ['models', 'projects', 'agents']) {
      const table = section(october.index, id);
      expect(table).toContain('class="numbers');
      expect(table).toContain(' sortable"');
      expect(table).toMatch(/<th scope="col" class="num"[^>]*aria-sort="descending">Cost \(bough\)<\/th>/);
      const costs = sortValues(table, 'Cost (bough)');
      expect(costs.length).toBeGreaterThan(0);
      expect(costs).toEqual([...costs].sort((a, b) => b - a));
    }
  });

  // Regression: beside bough's total, a Recorded total of Pi's records alone (Claude Code and Codex
  // record none) read as the agents disagreeing with bough by a quarter.
  it('says the recorded total is of the records whose agent stored one', async () => {
    expect(all.index).not.toContain('Recorded: what the agents stored');
    const out = join(await tempDir(), 'report');
    const { summary } = await build({
      inputs: [join(FIXTURES, 'pi'), join(FIXTURES, 'cases', 'claude-billing')],
      out,
      scope: { timeZone: TZ, period: parsePeriod({}, TZ), project: null, sources: null },
      environment: { env: {}, home: await tempDir() },
      now: new Date('2026-12-01T00:00:00Z'),
    });
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain(`Recorded: what the agents stored, for 55 of ${summary.totals.usageRecords} usage records`);
  });

  it('shows an unpriced model’s cost as unknown, never as $0', () => {
    const models = rows(section(october.index, 'models'));
    expect(models.find((r) => r[0] === 'claude-fable-9')?.slice(-2)).toEqual(['unknown', '$0.0200']);
    expect(october.index).toMatch(/<div class="card-label">Cost \(bough\)<\/div>\s*<div class="card-value">\$1\.18 \+ unknown<\/div>/);
  });

  it('lists the ten most expensive sessions of the period', () => {
    const top = rows(section(october.index, 'top-sessions'));
    expect(top.length).toBeLessThanOrEqual(10);
    expect(top[0]?.[1]).toBe('Price these.');
  });

  it('says an empty period in a sentence', async () => {
    const empty = await buildWith({ month: '2020-01' });
    expect(empty.index).toContain('<p class="empty">Nothing falls in January 2020 · America/Los_Angeles. The 21 sessions read (2025-11-20 to 2026-11-01) lie outside it.</p>');
    expect(empty.summary.sessions).toEqual([]);
    expect(liveMarkup(empty.index)).toEqual([]);
  });
});

describe('a project page', () => {
  it('shows its cost over time, its models, its sessions and the files most touched', async () => {
    const shop = all.summary.projects.find((p) => p.cwd === '/home/ana/projects/shop') as Summary['projects'][number];
    const html = await readFile(join(all.out, shop.page), 'utf8');
    expect(html).toContain(`Report covers <strong>all time · ${TZ}</strong>`);
    expect(section(html, 'cost-over-time')).toMatch(/<svg class="chart"/);
    expect(section(html, 'models')).toContain('claude-sonnet-4-5');
    expect(rows(section(html, 'sessions'))).toHaveLength(shop.sessions);
    const files = rows(section(html, 'files'));
    expect(files[0]).toEqual(['src/a.ts', '2', '0', '1', '+3', '−1']);
  });
});

describe('a session page in a report of one month', () => {
  it('counts only the part in the month, says so, and marks the entries outside it', async () => {
    const session = october.summary.sessions.find((s) => s.file === piFixture('across-midnight.jsonl'));
    expect(session).toMatchObject({ prompts: 1, replies: 1, partlyOutsidePeriod: true, tokens: { input: 2000 } });
    const html = await readFile(join(october.out, session!.page), 'utf8');
    expect(html).toContain('This report covers October 2026 · America/Los_Angeles, and only part of this session falls in it. The numbers below count that part: 1 of its 2 prompts, $0.0090 of its $0.0225');
    expect(html.match(/>outside period</g)).toHaveLength(2);
    expect(html).toContain('And the rest, now that it is November.');
  });
});

/** The data-sort values of one column, found by its header. */
function sortValues(html: string, header: string): number[] {
  const heads = [...html.slice(0, html.indexOf('</thead>')).matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
  const column = heads.indexOf(header);
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => {
    const cells = [...(row[1] ?? '').matchAll(/<td[^>]*?(?: data-sort="([^"]*)")?[^>]*>/g)];
    return Number(cells[column]?.[1]);
  });
}

function monthNamesBetween(first: string, last: string): string[] {
  const names: string[] = [];
  let [year, month] = first.split('-').map(Number) as [number, number];
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    names.push(new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }));
    if (key === last) return names;
    month++;
    if (month > 12) {
      month = 1;
      year++;
    }
  }
}

// Regression (a money review): a session whose prompt falls in the month and whose reply's usage
// falls after it said "— of its $0.0105", where nothing of its cost is in the month; then "$0.00
// of its $0.0105" above cards saying "no usage recorded" (a review of the monthly report).
describe('a session page in a month holding its prompt but none of its usage', () => {
  it('says none of its usage, and what it cost in all', async () => {
    const dir = await tempDir();
    const lines = [
      { type: 'session', version: 3, id: 'edge', timestamp: '2026-10-31T23:58:00.000Z', cwd: '/w' },
      { type: 'message', id: 'u1', parentId: null, timestamp: '2026-10-31T23:59:00.000Z', message: { role: 'user', content: 'go' } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: '2026-11-01T00:01:00.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 2000, output: 300, cacheRead: 0, cacheWrite: 0, totalTokens: 2300, cost: { input: 0.006, output: 0.0045, cacheRead: 0, cacheWrite: 0, total: 0.0105 } }, stopReason: 'stop' } },
    ];
    await writeFile(join(dir, 'edge.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    const { summary } = await build({ inputs: [dir], out, scope: { timeZone: 'UTC', period: parsePeriod({ month: '2026-10' }, 'UTC'), project: null, sources: null }, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z') });
    const html = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(html).toContain('The numbers below count that part: 1 of its 1 prompt, none of its usage ($0.0105 by bough&#39;s price in all).');
  });
});

// Regression (a money review): the models, projects and agents tables' rows, each rounded to the
// cent, missed the card's total by a cent without a word, where the months table and stats said so.
describe('tables whose rows, rounded one by one, miss their sum', () => {
  it('say so under the projects, models and chart tables, and not where they add up', async () => {
    const dir = await tempDir();
    const session = (n: number, model: string) =>
      [
        { type: 'session', version: 3, id: `s${n}`, timestamp: `2026-10-0${n + 5}T10:00:00.000Z`, cwd: `/home/ana/project-${n}` },
        { type: 'message', id: `u${n}`, parentId: null, timestamp: `2026-10-0${n + 5}T10:00:01.000Z`, message: { role: 'user', content: 'go' } },
        { type: 'message', id: `a${n}`, parentId: `u${n}`, timestamp: `2026-10-0${n + 5}T10:00:02.000Z`, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model, usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1 }, stopReason: 'stop' } },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n');
    await mkdir(join(dir, 'sessions'));
    for (const [n, model] of ['claude-fable-a', 'claude-fable-b', 'claude-fable-c'].entries()) await writeFile(join(dir, 'sessions', `s${n}.jsonl`), `${session(n, model)}\n`);
    // $1.00401 a token: each row shows $1.00, the three $3.01.
    const prices = join(dir, 'prices.json');
    const price = { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 1.00401, output_cost_per_token: 0 };
    await writeFile(prices, JSON.stringify({ 'claude-fable-a': price, 'claude-fable-b': price, 'claude-fable-c': price }));
    const buildAt = async (pricesFile: string) => {
      const out = join(await tempDir(), 'report');
      await build({ inputs: [join(dir, 'sessions')], out, pricesFile, scope: { timeZone: 'UTC', period: parsePeriod({}, 'UTC'), project: null, sources: null }, environment: { env: {}, home: dir }, now: new Date('2026-12-01T00:00:00Z') });
      return readFile(join(out, 'index.html'), 'utf8');
    };
    const index = await buildAt(prices);
    const note = 'Costs rounded one by one: the rows as shown add up to $3.00; the exact sum is $3.01.';
    expect(section(index, 'projects')).toContain(note);
    expect(section(index, 'models')).toContain(note);
    // The chart's table of days too (a later look: "a chart's data" had none).
    expect(section(index, 'cost-over-time')).toContain(note);
    expect(index).toContain('$3.01');
    // A cent a token: the rows add up.
    await writeFile(prices, JSON.stringify({ 'claude-fable-a': { ...price, input_cost_per_token: 0.01 }, 'claude-fable-b': { ...price, input_cost_per_token: 0.01 }, 'claude-fable-c': { ...price, input_cost_per_token: 0.01 } }));
    expect(await buildAt(prices)).not.toContain('rounded one by one');
  });

  // Regression (a review of pricing): the months table had no such note; the page said the rows
  // "may miss it by a cent" of four months that missed it by two.
  it('say so under the months table', async () => {
    const dir = await tempDir();
    const lines = ['08', '09', '10'].flatMap((month, n) => [
      { type: 'message', id: `u${n}`, parentId: n === 0 ? null : `a${n - 1}`, timestamp: `2026-${month}-05T10:00:01.000Z`, message: { role: 'user', content: 'go' } },
      { type: 'message', id: `a${n}`, parentId: `u${n}`, timestamp: `2026-${month}-05T10:00:02.000Z`, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-fable-a', usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1 }, stopReason: 'stop' } },
    ]);
    await writeFile(join(dir, 's.jsonl'), `${[{ type: 'session', version: 3, id: 's', timestamp: '2026-08-05T10:00:00.000Z', cwd: '/home/ana/p' }, ...lines].map((line) => JSON.stringify(line)).join('\n')}\n`);
    const prices = join(dir, 'prices.json');
    await writeFile(prices, JSON.stringify({ 'claude-fable-a': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 1.00401, output_cost_per_token: 0 } }));
    const out = join(await tempDir(), 'report');
    await build({ inputs: [join(dir, 's.jsonl')], out, pricesFile: prices, scope: { timeZone: 'UTC', period: parsePeriod({}, 'UTC'), project: null, sources: null }, environment: { env: {}, home: dir }, now: new Date('2026-12-01T00:00:00Z') });
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(section(index, 'months')).toContain('Costs rounded one by one: the rows as shown add up to $3.00; the exact sum is $3.01.');
    expect(index).not.toContain('by a cent');
    // Regression (a review of the pages as a user reads them): a chart's table left out the known
    // part of a row whose cost is known in part ("$1.00 + unknown"), which it shows, so that its
    // note's "exact sum" fell short of the page's total; the months table's counted it.
    const unpriced = { type: 'message', id: 'z1', parentId: 'a1', timestamp: '2026-09-05T10:00:03.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-fable-z', usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1 }, stopReason: 'stop' } };
    await writeFile(join(dir, 's.jsonl'), `${[{ type: 'session', version: 3, id: 's', timestamp: '2026-08-05T10:00:00.000Z', cwd: '/home/ana/p' }, ...lines, unpriced].map((line) => JSON.stringify(line)).join('\n')}\n`);
    const partOut = join(await tempDir(), 'report');
    await build({ inputs: [join(dir, 's.jsonl')], out: partOut, pricesFile: prices, scope: { timeZone: 'UTC', period: parsePeriod({}, 'UTC'), project: null, sources: null }, environment: { env: {}, home: dir }, now: new Date('2026-12-01T00:00:00Z') });
    const part = await readFile(join(partOut, 'index.html'), 'utf8');
    expect(section(part, 'months')).toContain('the rows as shown add up to $3.00; the exact sum is $3.01.');
    expect(section(part, 'cost-over-time')).toContain('$1.00 + unknown');
    expect(section(part, 'cost-over-time')).toContain('the rows as shown add up to $3.00; the exact sum is $3.01.');
  });
});
