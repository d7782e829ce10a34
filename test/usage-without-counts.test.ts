// Usage records whose token counts say nothing, or cannot all be true: never priced as $0, never
// summed as they stand. Regressions from a review of Pi's money: `"usage": {}` and a usage of only
// a cost were counted as a $0 record ("differs … Likely reason: different catalog"); one-hour
// writes above the cache writes they are part of were summed and priced without a word.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../src/cli.js';
import { statsSchema } from '../src/report/schema.js';
import { tempDir } from './support/fixtures.js';

/** Writes each file's records as lines ("INF" strings as the JSON number 1e400, which JSON.parse reads as Infinity) and returns stats of them by session. */
async function stats(files: Record<string, readonly object[]>) {
  const dir = await tempDir();
  for (const [name, records] of Object.entries(files)) await writeFile(join(dir, name), `${records.map((r) => JSON.stringify(r).replaceAll('"INF"', '1e400')).join('\n')}\n`);
  let stdout = '';
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => {}, env: {}, home: await tempDir(), isTty: false, stdoutIsTty: false, now: () => new Date('2026-12-01T00:00:00Z') };
  expect(await main(['stats', dir, '--json', '--no-cache', '--tz', 'UTC', '--by', 'session'], io)).toBe(0);
  return statsSchema.parse(JSON.parse(stdout));
}

let sessions = 0;
/** Builds a report of the files and returns its one session page. */
async function sessionPage(files: Record<string, readonly object[]>): Promise<string> {
  const dir = await tempDir();
  for (const [name, records] of Object.entries(files)) await writeFile(join(dir, name), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const out = join(await tempDir(), 'report');
  const io: CliIo = { stdout: () => {}, stderr: () => {}, env: {}, home: await tempDir(), isTty: false, stdoutIsTty: false, now: () => new Date('2026-12-01T00:00:00Z') };
  expect(await main(['build', dir, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'], io)).toBe(0);
  const [name] = await readdir(join(out, 'sessions'));
  return readFile(join(out, 'sessions', name as string), 'utf8');
}

const at = (s: number) => new Date(Date.parse('2026-10-05T10:00:00.000Z') + sessions * 60_000 + s * 1000).toISOString();

/** A Pi session of one prompt and one Sonnet 4.5 reply carrying `usage` (each a minute after the last: no copies of one another). */
function piSession(id: string, usage: unknown): object[] {
  sessions++;
  return [
    { type: 'session', version: 3, id, timestamp: at(0), cwd: `/proj/${id}` },
    { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: [{ type: 'text', text: `hi ${id}` }] } },
    { type: 'message', id: 'a1', parentId: 'u1', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', usage } },
  ];
}

describe('a Pi usage without token counts', () => {
  it('records no usage when it gives nothing: {} and nulls are "no usage recorded"', async () => {
    const result = await stats({ 'empty.jsonl': piSession('empty', {}), 'nulls.jsonl': piSession('nulls', { input: null, output: null }) });
    expect(result.totals).toMatchObject({ replies: 2, usageRecords: 0, unpricedRecords: 0, cost: { bough: null } });
  });

  it('is unpriced, not $0, when it gives only a cost or a total; the recorded cost still counts', async () => {
    const result = await stats({
      'cost.jsonl': piSession('cost', { cost: { total: 0.5 } }),
      'total.jsonl': piSession('total', { totalTokens: 5000 }),
      'priced.jsonl': piSession('priced', { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 0, cost: { total: 0.033 } }),
    });
    expect(result.totals).toMatchObject({ usageRecords: 3, unpricedRecords: 2, cost: { bough: 0.033, recorded: 0.533 } });
    const bySession = Object.fromEntries(result.rows.map((row) => [row.label, row]));
    expect(bySession['hi cost']).toMatchObject({ usageRecords: 1, unpricedRecords: 1, cost: { bough: null, recorded: 0.5 } });
    expect(bySession['hi total']).toMatchObject({ usageRecords: 1, unpricedRecords: 1, cost: { bough: null } });
    // The model is in the price table: priced in part, not a model without a price.
    expect(result.totals).toMatchObject({ unpricedModels: [], partiallyPricedModels: ['anthropic/claude-sonnet-4-5'] });
  });
});

describe('a Claude Code usage without token counts', () => {
  const line = (record: object) => ({ isSidechain: false, sessionId: 'aaaaaaaa-1111-4111-8111-111111111111', cwd: '/proj/x', version: '1.0.3', ...record });
  const reply = (uuid: string, parentUuid: string, s: number, extra: object) =>
    line({ type: 'assistant', uuid, parentUuid, timestamp: at(s), requestId: `req_${uuid}`, message: { id: `msg_${uuid}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: {} }, ...extra });

  it('records no usage for {}, and an unknown cost (not $0) for {} beside a costUSD', async () => {
    sessions++;
    const result = await stats({
      'aaaaaaaa-1111-4111-8111-111111111111.jsonl': [
        line({ type: 'user', uuid: 'u1', parentUuid: null, timestamp: at(1), message: { role: 'user', content: 'hi' } }),
        reply('a1', 'u1', 2, { costUSD: 0.25 }),
        line({ type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: at(3), message: { role: 'user', content: 'again' } }),
        reply('a2', 'u2', 4, {}),
      ],
    });
    expect(result.totals).toMatchObject({ replies: 2, usageRecords: 1, unpricedRecords: 1, cost: { bough: null, recorded: 0.25 } });
  });

  it('says why its cost is not compared, and claims no priced record agrees when none was priced', async () => {
    sessions++;
    const records = [line({ type: 'user', uuid: 'u1', parentUuid: null, timestamp: at(1), message: { role: 'user', content: 'hi' } }), reply('a1', 'u1', 2, { costUSD: 0.25 })];
    const page = await sessionPage({ 'aaaaaaaa-1111-4111-8111-111111111111.jsonl': records });
    expect(page).toContain('a usage record gives a cost but no token counts');
    expect(page).not.toContain('the records it priced agree');
    // The reply's own line says why too (regression: "unknown (unpriced model)", of a model in the table).
    expect(page).toContain('bough: unknown (no token counts recorded)');
    expect(page).not.toContain('unpriced model');
  });
});

describe('a usage whose part is larger than its whole', () => {
  it('leaves the part out and says so: one-hour writes above the cache writes, reasoning above the output', async () => {
    const result = await stats({
      'hour.jsonl': piSession('hour', { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 5000, cacheWrite1h: 6000 }),
      'reasoning.jsonl': piSession('reasoning', { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 0, reasoning: 5000 }),
    });
    expect(result.totals.tokens).toMatchObject({ input: 2000, output: 4000, cacheWrite: 5000, cacheWrite1h: 0, reasoning: 0 });
    // The one-hour split is unknown: the writes are priced at the five-minute rate, and the record is priced in part.
    expect(result.totals.unpricedRecords).toBe(1);
    expect(result.totals.cost.bough).toBeCloseTo(0.003 + 0.03 + 5000 * 3.75e-6 + 0.003 + 0.03, 10);
    expect(result.diagnostics.byReason).toMatchObject({ 'absurd-number': 2 });
  });

  it('gives the count left out as the reason its cost is not compared, not a rate the table lacks', async () => {
    const page = await sessionPage({ 'hour.jsonl': piSession('hour', { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 100, cacheWrite1h: 500, cost: { total: 0.04 } }) });
    expect(page).toContain('a token count that could not be read, or could not be true, is left out');
    expect(page).not.toContain('the price table lacks some rates');
  });
});

/** A Claude Code session of one prompt and one Sonnet 4.5 reply carrying `usage`. */
function claudeSession(id: string, usage: object): object[] {
  const line = { sessionId: id, cwd: `/proj/${id}`, version: '2.0.37', isSidechain: false, userType: 'external' };
  return [
    { ...line, type: 'user', uuid: 'u1', parentUuid: null, timestamp: at(1), message: { role: 'user', content: `hi ${id}` } },
    { ...line, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: at(2), requestId: `req_${id}`, message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage } },
  ];
}

// Regressions from a pricing review: 1e400 (Infinity to JSON.parse) in one count or cost lost the
// whole record, tokens and all; a web-search count that did not read was taken as none, the
// record called priced in full.
describe('a count or cost no agent could mean, in one field of a usage', () => {
  it('leaves that field out and keeps the rest, priced in part', async () => {
    const result = await stats({
      'claude-inf.jsonl': claudeSession('inf', { input_tokens: 1000, output_tokens: 'INF', cache_read_input_tokens: 200_000, cache_creation_input_tokens: 0 }),
      'pi-inf-cost.jsonl': piSession('pi-inf', { input: 1000, output: 1000, cacheRead: 0, cacheWrite: 0, cost: { total: 'INF' } }),
      'claude-searches.jsonl': claudeSession('searches', { input_tokens: 100, output_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, server_tool_use: { web_search_requests: '3' } }),
    });
    const bySession = Object.fromEntries(result.rows.map((row) => [row.label, row]));
    // Above 200k of prompt, Sonnet 4.5's long-context rates: 1,000 × $6/M + 200,000 × $0.60/M; the output unknown.
    expect(bySession['hi inf']).toMatchObject({ usageRecords: 1, unpricedRecords: 1, tokens: { input: 1000, cacheRead: 200_000, output: 0 } });
    expect(bySession['hi inf']?.cost.bough).toBeCloseTo(0.126, 10);
    // The tokens priced (1,000 × $3/M + 1,000 × $15/M), the recorded cost left out.
    expect(bySession['hi pi-inf']).toMatchObject({ usageRecords: 1, unpricedRecords: 0, cost: { recorded: null } });
    expect(bySession['hi pi-inf']?.cost.bough).toBeCloseTo(0.018, 10);
    // The tokens priced, the searches not: priced in part.
    expect(bySession['hi searches']).toMatchObject({ usageRecords: 1, unpricedRecords: 1 });
    expect(bySession['hi searches']?.cost.bough).toBeCloseTo(0.0018, 10);
  });
});

// Regression: a reply's web searches were priced and said on its page and in usage.csv, but the
// JSON said nothing of them, so the cost beyond the tokens could not be told from the numbers.
describe('web searches in the JSON', () => {
  it('are counted beside every usageRecords', async () => {
    const searched = (id: string, searches: number) => claudeSession(id, { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, server_tool_use: { web_search_requests: searches } });
    const result = await stats({ 'three.jsonl': searched('three', 3), 'two.jsonl': searched('two', 2), 'none.jsonl': searched('none', 0) });
    expect(result.totals.webSearches).toBe(5);
    expect(Object.fromEntries(result.rows.map((row) => [row.label, row.webSearches]))).toEqual({ 'hi three': 3, 'hi two': 2, 'hi none': 0 });
    expect(result.totals.models.map((m) => m.webSearches)).toEqual([5]);
    expect(result.totals.subagents.webSearches).toBe(0);
    // Three replies of 1,000 × $3/M + 100 × $15/M, and five searches at $10 per thousand.
    expect(result.totals.cost.bough).toBeCloseTo(3 * 0.0045 + 0.05, 10);
  });
});

// Regression from a second look: with one count unreadable, the usage was rebuilt field by field,
// and a `__proto__` key set the rebuilt object's prototype: its output of 5,000,000 was counted.
describe('a Pi usage with a __proto__ key', () => {
  it('counts none of what that key holds', async () => {
    // An own __proto__ key, as JSON.parse makes one and JSON.stringify writes it.
    const usage = JSON.parse('{"input":"10","cacheRead":0,"cacheWrite":0,"totalTokens":11,"__proto__":{"output":5000000}}') as object;
    const { totals } = await stats({ 'proto.jsonl': piSession('proto', usage) });
    expect(totals.tokens.output).toBe(0);
    expect(totals).toMatchObject({ usageRecords: 1, unpricedRecords: 1 });
  });
});
