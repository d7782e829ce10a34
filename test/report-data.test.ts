// The report data on small typed sessions: what falls in a period, by whose time, and how
// sessions, projects and agents are cut. No reader involved: the sessions are built here.

import { describe, expect, it } from 'vitest';
import { claimEntries } from '../src/ledger/claims.js';
import { ledgerOf } from '../src/ledger/ledger.js';
import { ALL_TIME, parsePeriod, type Scope } from '../src/ledger/scope.js';
import { createPricer } from '../src/pricing/price.js';
import { parsePriceTable } from '../src/pricing/table.js';
import { piPriceHint } from '../src/sources/pi/prices.js';
import { CLAIM_RULES } from '../src/sources/registry.js';
import { buildReportData, type ReportData } from '../src/report/data.js';
import { modelName, rowsOf, totalsJson } from '../src/report/json.js';
import { boughCost, emptyScopeSentence, priceBadge } from '../src/report/numbers.js';
import type { SessionFile } from '../src/types.js';
import { prompt, reply, sessionFile } from './support/session-builders.js';

const M = 1e-6;
const PRICES_TABLE = parsePriceTable(
  { 'claude-sonnet-4-5': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 3 * M, output_cost_per_token: 15 * M } },
  { origin: 'bundled', label: 'test', date: '2026-01-01' },
);
const PRICES = createPricer(
  parsePriceTable(
    { 'claude-sonnet-4-5': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 3 * M, output_cost_per_token: 15 * M } },
    { origin: 'bundled', label: 'test', date: '2026-01-01' },
  ),
  { subscriptionsAtApiPrices: false, hints: (_, provider) => piPriceHint(provider, new Set()) },
);
const LA = 'America/Los_Angeles';

function scope(flags: { month?: string; since?: string; until?: string } = {}, more: Partial<Scope> = {}): Scope {
  return { timeZone: LA, period: flags.month || flags.since || flags.until ? parsePeriod(flags, LA) : ALL_TIME, project: null, sources: null, ...more };
}

function report(files: SessionFile[], s: Scope = scope()): ReportData {
  const ledgers = files.map(ledgerOf);
  return buildReportData(ledgers, claimEntries(ledgers, CLAIM_RULES), PRICES, s);
}

/** Asked at 23:50 on 31 October in Los Angeles, answered at 00:10 on 1 November. */
const acrossMidnight = sessionFile({ path: '/s/halloween.jsonl' }, [
  prompt('p1', '2026-11-01T06:50:00Z', 'Fix the cart before midnight'),
  reply('r1', '2026-11-01T07:10:00Z', { input: 1000, output: 100, recordedCost: 0.0045 }, { parentId: 'p1' }),
]);

describe('periods on the report data', () => {
  it('counts each part of a session running across midnight on 31 October in its own month', () => {
    const october = report([acrossMidnight], scope({ month: '2026-10' }));
    const november = report([acrossMidnight], scope({ month: '2026-11' }));
    expect(totalsJson(october)).toMatchObject({ sessions: 1, prompts: 1, replies: 0, usageRecords: 0, tokens: { input: 0 } });
    expect(totalsJson(november)).toMatchObject({ sessions: 1, prompts: 0, replies: 1, usageRecords: 1, tokens: { input: 1000, output: 100 } });
    expect(october.sessions[0]?.partly).toBe(true);
    expect(november.sessions[0]?.tally.cost.bough).toBeCloseTo(0.0045, 12);
    // In UTC both halves fall on 1 November.
    expect(rowsOf(report([acrossMidnight], scope({}, { timeZone: 'UTC' })), 'day').map((r) => r.key)).toEqual(['2026-11-01']);
    expect(rowsOf(report([acrossMidnight]), 'day').map((r) => [r.key, r.prompts, r.replies])).toEqual([
      ['2026-10-31', 1, 0],
      ['2026-11-01', 0, 1],
    ]);
  });

  // Regression: the reply counted in October by its first line, its tokens in November by the
  // line they were kept from (a Claude Code response streamed across midnight).
  it('places a usage record by its own time when it has one, and its reply with it', () => {
    const late = sessionFile({ path: '/s/late.jsonl' }, [
      prompt('p1', '2026-10-31T20:00:00Z', 'Start'),
      reply('r1', '2026-10-31T20:01:00Z', { input: 10, at: '2026-11-02T12:00:00Z' }, { parentId: 'p1' }),
    ]);
    expect(totalsJson(report([late], scope({ month: '2026-10' })))).toMatchObject({ prompts: 1, replies: 0, tokens: { input: 0 } });
    expect(totalsJson(report([late], scope({ month: '2026-11' })))).toMatchObject({ prompts: 0, replies: 1, tokens: { input: 10 } });
  });

  it('places a record without a time by its session’s time', () => {
    const untimed = sessionFile({ path: '/s/untimed.jsonl' }, [
      prompt('p1', '2026-10-15T12:00:00Z', 'Start'),
      reply('r1', null, { input: 7, at: null }, { parentId: 'p1' }),
    ]);
    expect(totalsJson(report([untimed], scope({ month: '2026-10' })))).toMatchObject({ replies: 1, tokens: { input: 7 } });
    expect(report([untimed], scope({ month: '2026-11' })).sessions).toEqual([]);
  });

  // Regression: a record without a time went by the session's first timed entry, days after its
  // header: a reply written on 31 October counted in November.
  it('places a record without a time by its session’s recorded start, not by its first entry with a time', () => {
    const started = sessionFile({ path: '/s/started.jsonl', startedAt: '2026-10-31T20:00:00Z' }, [
      reply('r1', null, { input: 7, at: null }),
      prompt('p1', '2026-11-03T12:00:00Z', 'Later', 'r1'),
    ]);
    expect(totalsJson(report([started], scope({ month: '2026-10' })))).toMatchObject({ replies: 1, prompts: 0, tokens: { input: 7 } });
    expect(totalsJson(report([started], scope({ month: '2026-11' })))).toMatchObject({ replies: 0, prompts: 1, tokens: { input: 0 } });
  });

  it('adds the months up to the whole', () => {
    const files = [acrossMidnight, sessionFile({ path: '/s/sept.jsonl' }, [prompt('a', '2026-09-30T23:00:00Z', 'x'), reply('b', '2026-10-01T08:00:00Z', { input: 5 }, { parentId: 'a' })])];
    const whole = totalsJson(report(files));
    const months = ['2026-09', '2026-10', '2026-11'].map((month) => totalsJson(report(files, scope({ month }))));
    expect(months.reduce((a, m) => a + m.prompts, 0)).toBe(whole.prompts);
    expect(months.reduce((a, m) => a + m.tokens.input, 0)).toBe(whole.tokens.input);
    expect(months.reduce((a, m) => a + (m.cost.bough ?? 0), 0)).toBeCloseTo(whole.cost.bough ?? 0, 12);
    expect(rowsOf(report(files), 'month').map((r) => [r.key, r.label, r.sessions])).toEqual([
      ['2026-09', 'September 2026', 1],
      ['2026-10', 'October 2026', 2],
      ['2026-11', 'November 2026', 1],
    ]);
  });

  it('says why a period is empty, and what the inputs hold', () => {
    const data = report([acrossMidnight], scope({ month: '2024-01' }));
    expect(data.sessions).toEqual([]);
    expect(totalsJson(data)).toMatchObject({ sessions: 0, prompts: 0, tokens: { input: 0 }, cost: { bough: null, recorded: null } });
    expect(emptyScopeSentence(data, 'January 2024 · America/Los_Angeles')).toBe(
      'Nothing falls in January 2024 · America/Los_Angeles. The one session read (2026-10-31 to 2026-11-01) lies outside it.',
    );
  });
});

describe('session times', () => {
  it('start at the first entry the session counts, even before its header (a copy whose origin is gone)', () => {
    const copy = sessionFile({ path: '/s/copy.jsonl', startedAt: '2026-10-20T00:00:00Z', parentFile: '/gone/origin.jsonl' }, [
      prompt('o1', '2026-10-02T09:00:00Z', 'Copied history'),
      reply('o2', '2026-10-02T09:05:00Z', { input: 1 }, { parentId: 'o1' }),
      prompt('n1', '2026-10-20T10:00:00Z', 'New work', 'o2'),
    ]);
    const [session] = report([copy]).sessions;
    expect(new Date(session?.startedAt ?? 0).toISOString()).toBe('2026-10-02T09:00:00.000Z');
    expect(new Date(session?.lastAt ?? 0).toISOString()).toBe('2026-10-20T10:00:00.000Z');
    expect(session?.originMissing).toBe(true);
  });

  it('start at the first new entry when the origin counts the copied ones', () => {
    const origin = sessionFile({ path: '/s/origin.jsonl' }, [prompt('o1', '2026-10-02T09:00:00Z', 'Original')]);
    const fork = sessionFile({ path: '/s/fork.jsonl', parentFile: '/s/origin.jsonl', startedAt: '2026-10-05T00:00:00Z' }, [
      prompt('o1', '2026-10-02T09:00:00Z', 'Original'),
      prompt('f1', '2026-10-05T08:00:00Z', 'Forked', 'o1'),
    ]);
    const data = report([origin, fork]);
    const forked = data.sessions.find((s) => s.ledger.path === '/s/fork.jsonl');
    expect(new Date(forked?.startedAt ?? 0).toISOString()).toBe('2026-10-05T08:00:00.000Z');
    expect(forked?.origin?.path).toBe('/s/origin.jsonl');
    expect(forked?.tally.prompts).toBe(1);
  });
});

describe('projects', () => {
  // Regression (a Codex review): a Windows long path (`\\?\C:\…`, as Codex wrote one cwd) split a
  // project in two, one of them named "?/C:/Users/ana/shop". It names the folder it names, for a
  // Codex, Claude Code or Pi session alike, and a share's (`\\?\UNC\server\…`) the share's.
  it('puts a session whose cwd is a Windows long path in the project of the folder it names', () => {
    const at = (path: string, cwd: string, source: SessionFile['source']) => sessionFile({ path, cwd, source }, [prompt(path, '2026-10-01T10:00:00Z', 'x')]);
    const data = report([
      at('/s/codex-long.jsonl', '\\\\?\\C:\\Users\\ana\\shop', 'codex'),
      at('/s/codex.jsonl', 'C:\\Users\\ana\\shop', 'codex'),
      at('/s/claude-long.jsonl', '\\\\?\\c:\\users\\ana\\shop\\', 'claude'),
      at('/s/pi-long.jsonl', '\\\\?\\C:\\Users\\ana\\shop', 'pi'),
      at('/s/share-long.jsonl', '\\\\?\\UNC\\files\\team\\api', 'claude'),
      at('/s/share.jsonl', '\\\\files\\team\\api', 'pi'),
    ]);
    expect(data.projects.map((p) => [p.name, p.cwd, p.sessions.length])).toEqual([
      ['shop', 'C:\\Users\\ana\\shop', 4],
      ['api', '\\\\files\\team\\api', 2],
    ]);
  });
});

describe('filters', () => {
  const shop = sessionFile({ path: '/s/shop.jsonl', cwd: '/home/ana/Shop' }, [prompt('a', '2026-10-01T10:00:00Z', 'x')]);
  const api = sessionFile({ path: '/s/api.jsonl', cwd: '/home/ana/api' }, [prompt('b', '2026-10-01T10:00:00Z', 'y')]);
  const claude = sessionFile({ path: '/s/claude.jsonl', cwd: '/home/ana/api', source: 'claude' }, [prompt('c', '2026-10-01T10:00:00Z', 'z')]);

  it('keeps the projects whose folder or name holds the text, in any case', () => {
    expect(report([shop, api], scope({}, { project: 'shop' })).sessions.map((s) => s.ledger.path)).toEqual(['/s/shop.jsonl']);
    expect(report([shop, api], scope({}, { project: 'HOME/ANA' })).sessions).toHaveLength(2);
    expect(report([shop, api], scope({}, { project: 'nowhere' })).sessions).toEqual([]);
  });

  it('keeps the agents asked for', () => {
    const data = report([api, claude], scope({}, { sources: ['claude'] }));
    expect(data.sessions.map((s) => s.ledger.source)).toEqual(['claude']);
    expect(rowsOf(report([api, claude]), 'agent').map((r) => [r.key, r.label, r.prompts])).toEqual([
      ['claude', 'Claude Code', 1],
      ['pi', 'Pi', 1],
    ]);
  });
});

describe('unknown costs', () => {
  const mixed = sessionFile({ path: '/s/mixed.jsonl' }, [
    reply('a', '2026-10-01T10:00:00Z', { input: 1000, model: 'claude-sonnet-4-5', recordedCost: 0.003 }),
    reply('b', '2026-10-01T10:01:00Z', { input: 1000, model: 'claude-fable-9', recordedCost: 1.09 }),
  ]);

  it('are unknown, never $0, and never compared with the recorded cost', () => {
    const [session] = report([mixed]).sessions;
    expect(session?.tally).toMatchObject({ unpriced: 1, cost: { recorded: 1.093 } });
    expect(boughCost(session!.tally)).toBe('$0.0030 + unknown');
    expect(session?.costCheck).toEqual({ differs: false, differingRecords: 0, comparedRecords: 1, incomplete: true, incompleteBy: 'unpriced model', unrecorded: 0, reason: 'unpriced model', difference: null });
    const unpricedOnly = report([sessionFile({ path: '/s/u.jsonl' }, [reply('b', '2026-10-01T10:01:00Z', { input: 5, model: 'claude-fable-9' })])]);
    expect(boughCost(unpricedOnly.totals)).toBe('unknown');
  });
});

describe('models', () => {
  it('regression: a model is described by its first record in the file, whichever day each record falls on', () => {
    // The first reply (3 November, with cache reads the table has no rate for: partial) comes
    // before one of 1 November (priced) in the file; 1 November was reached first, by a prompt.
    const file = sessionFile({ path: '/s/days.jsonl' }, [
      prompt('p1', '2026-11-01T18:00:00Z', 'Start'),
      reply('r1', '2026-11-03T18:00:00Z', { input: 10, output: 1, cacheRead: 500 }, { parentId: 'p1' }),
      reply('r2', '2026-11-01T19:00:00Z', { input: 10, output: 1 }, { parentId: 'r1' }),
    ]);
    const data = report([file]);
    expect(data.models.map((m) => [modelName(m), m.priceState, m.records])).toEqual([['anthropic/claude-sonnet-4-5', 'partial', 2]]);
    expect(data.sessions[0]?.byModel.map((m) => m.priceState)).toEqual(['partial']);
    expect(data.projects[0]?.byModel.map((m) => m.priceState)).toEqual(['partial']);
  });

  // Regression: a Copilot model priced with --price-subscriptions read as a plain "priced" row (pricing.md: label it "API-equivalent").
  it('labels a subscription priced at API rates as API-equivalent, and one at $0 as a subscription', () => {
    const file = sessionFile({ path: '/s/copilot.jsonl' }, [prompt('p1', '2026-11-01T18:00:00Z', 'Start'), reply('r1', '2026-11-01T18:01:00Z', { provider: 'github-copilot', input: 1000, output: 100 }, { parentId: 'p1' })]);
    const atApiRates = createPricer(PRICES_TABLE, { subscriptionsAtApiPrices: true, hints: (_, provider) => piPriceHint(provider, new Set()) });
    const ledgers = [ledgerOf(file)];
    const [api] = buildReportData(ledgers, claimEntries(ledgers, CLAIM_RULES), atApiRates, scope()).models;
    expect(api && priceBadge(api)?.label).toBe('API-equivalent');
    const [free] = report([file]).models;
    expect(free && priceBadge(free)?.label).toBe('subscription: $0');
  });
});
