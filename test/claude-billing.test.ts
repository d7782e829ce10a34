// What Claude Code bills beyond tokens (claude.md §9.1, pricing.md §1 and §6): fast mode, a
// multiple of the model's rates, and server-side web searches, billed per search.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from './support/cli.js';
import { statsSchema } from '../src/report/schema.js';
import { FIXTURES, tempDir } from './support/fixtures.js';

const BILLING = join(FIXTURES, 'cases', 'claude-billing');

describe('Claude Code: fast mode and web searches', () => {
  it('prices a fast-mode reply at the model’s fast multiple (regression: fast mode was billed at standard rates)', async () => {
    const stats = statsSchema.parse(JSON.parse((await run(['stats', BILLING, '--by', 'model', '--json', '--no-cache', '--tz', 'UTC'])).stdout));
    const row = (label: string) => stats.rows.find((r) => r.label === label);
    // claude-opus-4-6: $5/M in, $25/M out, fast ×6 in LiteLLM's table.
    expect(row('anthropic/claude-opus-4-6 (fast mode)')?.cost.bough).toBeCloseTo(0.18, 10);
    expect(row('anthropic/claude-opus-4-6')?.cost.bough).toBeCloseTo(0.03, 10);
    // Keys a script can use (regression: a NUL byte in the fast row's).
    expect(row('anthropic/claude-opus-4-6 (fast mode)')?.key).toBe('anthropic/claude-opus-4-6+fast');
    expect(stats.rows.filter((r) => r.key.includes('\0'))).toEqual([]);
    // Regression: every model's row said 0 prompts, 0 replies, which a script would believe.
    for (const r of stats.rows) expect([r.prompts, r.replies, r.errorReplies, r.usageRecords > 0]).toEqual([null, null, null, true]);
  });

  it('adds web searches at their price per search (regression: searches were not priced)', async () => {
    const stats = statsSchema.parse(JSON.parse((await run(['stats', BILLING, '--by', 'model', '--json', '--no-cache', '--tz', 'UTC'])).stdout));
    // claude-sonnet-4-5: 100 in at $3/M, 100 out at $15/M, 3 searches at $0.01; fetches cost only tokens.
    expect(stats.rows.find((r) => r.label === 'anthropic/claude-sonnet-4-5-20250929')?.cost.bough).toBeCloseTo(0.0318, 10);
  });

  it('says a fast reply on a model without a fast rate is priced in part, at standard rates', async () => {
    const stats = statsSchema.parse(JSON.parse((await run(['stats', BILLING, '--json', '--no-cache', '--tz', 'UTC'])).stdout));
    expect(stats.totals.cost.bough).toBeCloseTo(0.18 + 0.03 + 0.0318 + 0.006, 10);
    expect(stats.totals.partiallyPricedModels).toEqual(['anthropic/claude-haiku-4-5-20251001 (fast mode)']);
  });

  it('counts a record priced in part as unpriced in every table, the models list too (regression: 0 there, 1 in the totals)', async () => {
    const stats = statsSchema.parse(JSON.parse((await run(['stats', BILLING, '--json', '--no-cache', '--tz', 'UTC'])).stdout));
    expect(stats.totals.unpricedRecords).toBe(1);
    expect(stats.totals.models.reduce((sum, m) => sum + m.unpricedRecords, 0)).toBe(1);
    expect(stats.totals.models.find((m) => m.fast && m.model?.startsWith('claude-haiku'))).toMatchObject({ unpricedRecords: 1, partiallyPricedRecords: 1 });
  });

  it('shows fast mode and what it cost on the report, and in usage.csv', async () => {
    const out = join(await tempDir(), 'report');
    expect((await run(['build', BILLING, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    const fastModels = summary.totals.models.filter((m: { fast: boolean }) => m.fast).map((m: { model: string }) => m.model);
    expect(fastModels.sort()).toEqual(['claude-haiku-4-5-20251001', 'claude-opus-4-6']);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain('fast mode: 6× the standard rates');
    expect(index).toContain('web searches billed per search');
    expect(index).toContain('fast mode, but the table has no fast-mode rate: priced at standard rates');
    // Its badge does not say it was billed at a multiple (regression: an outside review of prices).
    expect(index.match(/title="served in fast mode[^"]*"/g)?.sort()).toEqual(['title="served in fast mode, which the price table has no rate for"', 'title="served in fast mode: billed at a multiple of the standard rates"']);
    // The reply that searched says so beside its tokens (regression: its $0.03 of searches showed only in a tooltip).
    const page = await readFile(join(out, summary.sessions[0].page), 'utf8');
    expect(page).toContain('in 100 · out 100 · cache read 0 · cache write 0 · 3 web searches · $0.0318 bough');
    const lines = (await readFile(join(out, 'usage.csv'), 'utf8')).trimEnd().split('\r\n');
    const header = lines[0]?.split(',') ?? [];
    const rows = lines.slice(1).map((line) => line.split(','));
    const column = (name: string) => rows.map((r) => r[header.indexOf(name)]);
    expect(column('fast_mode')).toEqual(['true', 'false', 'false', 'true']);
    expect(column('web_searches')).toEqual(['0', '0', '3', '0']);
    // Dollars as summed, not with a float's noise in the 17th digit (0.00045000000000000004).
    for (const cell of column('cost_bough')) expect(cell).toMatch(/^\d+(\.\d{1,10})?$/);
  });
});

describe('Claude Code: a recorded cost on some replies only', () => {
  // Resumed across the upgrade to 1.0.9, which stopped writing costUSD: the first reply has one
  // ($0.00153: 10 in at $3/M, 100 out at $15/M, as bough prices it), the second has none.
  const UPGRADE = join(FIXTURES, 'cases', 'claude-cost-upgrade');

  it('compares only the replies with a recorded cost, and says the rest have none (regression: "differs by $0.03: different catalog")', async () => {
    const out = join(await tempDir(), 'report');
    expect((await run(['build', UPGRADE, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const [session] = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).sessions;
    expect(session.cost.bough).toBeCloseTo(0.03153, 10);
    expect(session.cost.recorded).toBeCloseTo(0.00153, 10);
    expect(session.costCheck).toEqual({ differs: false, incomplete: false, reason: null, difference: 0, unrecordedRecords: 1, differingRecords: 0 });
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).not.toContain('cost differs');
    const page = await readFile(join(out, session.page), 'utf8');
    expect(page).toContain('covers part of this session only: the agent stored no cost for 1 usage record of this session. Over the rest, bough&#39;s price agrees.');
  });

  // Regression: a reply served by US-only inference (`inference_geo: "us"`) was priced at the
  // standard rates, 10% short on the models the table gives a residency multiple (pricing.md §1).
  it('prices US-only inference at the model’s data-residency multiple, and says so', async () => {
    const folder = join(await tempDir(), 'projects', '-home-ana-geo');
    await mkdir(folder, { recursive: true });
    const line = (uuid: string, parent: string, model: string, geo: string) => ({
      parentUuid: parent, isSidechain: false, cwd: '/home/ana/geo', sessionId: '66666666-6666-4666-8666-666666666666', version: '2.1.114', uuid,
      timestamp: '2026-03-10T10:00:01.000Z', type: 'assistant', requestId: `req_${uuid}`,
      message: { id: `msg_${uuid}`, model, role: 'assistant', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn',
        usage: { input_tokens: 1000, output_tokens: 1000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, inference_geo: geo } },
    });
    const prompt = { parentUuid: null, isSidechain: false, cwd: '/home/ana/geo', sessionId: '66666666-6666-4666-8666-666666666666', version: '2.1.114', uuid: 'u', timestamp: '2026-03-10T10:00:00.000Z', type: 'user', message: { role: 'user', content: 'go' } };
    const lines = [prompt, line('a1', 'u', 'claude-opus-4-7', 'us'), line('a2', 'a1', 'claude-opus-4-7', ''), line('a3', 'a2', 'claude-haiku-4-5-20251001', 'us')];
    await writeFile(join(folder, '66666666-6666-4666-8666-666666666666.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const stats = statsSchema.parse(JSON.parse((await run(['stats', folder, '--by', 'model', '--json', '--no-cache', '--tz', 'UTC'])).stdout));
    const model = (name: string) => stats.totals.models.find((m) => m.model === name);
    // claude-opus-4-7: $5/M in, $25/M out; US-only ×1.1 on one of its two replies.
    expect(model('claude-opus-4-7')?.cost.bough).toBeCloseTo(0.03 * 1.1 + 0.03, 10);
    // The table gives haiku no residency multiple: standard rates, and the record is priced in part.
    expect(model('claude-haiku-4-5-20251001')?.cost.bough).toBeCloseTo(0.001 + 0.005, 10);
    expect(stats.totals.partiallyPricedModels).toEqual(['anthropic/claude-haiku-4-5-20251001']);
    const out = join(await tempDir(), 'report');
    expect((await run(['build', folder, '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain('US-only inference: 1.1× the standard rates');
    expect(index).toContain('US-only inference, but the table has no rate for it: priced at standard rates');
    // usage.csv says which records it was (regression: only fast mode had a column).
    const rows = (await readFile(join(out, 'usage.csv'), 'utf8')).trimEnd().split('\r\n');
    const column = (rows[0] ?? '').split(',').indexOf('us_only');
    expect(rows.slice(1).map((row) => row.split(',')[column])).toEqual(['true', 'false', 'true']);
  });

  // Regression (a review of pricing): a Bedrock or Vertex model Claude Code recorded was filed
  // under `anthropic` (priced as Bedrock sells it), so one model was two rows beside Pi's.
  it('files a Bedrock or Vertex model under that cloud, priced as it sells it', async () => {
    const folder = join(await tempDir(), 'projects', '-home-ana-cloud');
    await mkdir(folder, { recursive: true });
    const session = '77777777-7777-4777-8777-777777777777';
    const line = (uuid: string, parent: string, model: string) => ({
      parentUuid: parent, isSidechain: false, cwd: '/home/ana/cloud', sessionId: session, version: '2.1.114', uuid,
      timestamp: '2026-03-10T10:00:01.000Z', type: 'assistant', requestId: `req_${uuid}`,
      message: { id: `msg_${uuid}`, model, role: 'assistant', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn',
        usage: { input_tokens: 1000, output_tokens: 1000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
    });
    const prompt = { parentUuid: null, isSidechain: false, cwd: '/home/ana/cloud', sessionId: session, version: '2.1.114', uuid: 'u', timestamp: '2026-03-10T10:00:00.000Z', type: 'user', message: { role: 'user', content: 'go' } };
    const lines = [prompt, line('a1', 'u', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'), line('a2', 'a1', 'claude-sonnet-4-5@20250929'), line('a3', 'a2', 'claude-sonnet-4-5-20250929')];
    await writeFile(join(folder, `${session}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const stats = statsSchema.parse(JSON.parse((await run(['stats', folder, '--by', 'model', '--json', '--no-cache', '--tz', 'UTC'])).stdout));
    expect(stats.totals.models.map((m) => [m.provider, m.model, m.cost.bough])).toEqual(
      expect.arrayContaining([
        // Bedrock's regional entry: $3.30/M in, $16.50/M out; Vertex's and Anthropic's: $3/M, $15/M.
        ['amazon-bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', expect.closeTo(0.0198, 10)],
        ['google-vertex', 'claude-sonnet-4-5@20250929', expect.closeTo(0.018, 10)],
        ['anthropic', 'claude-sonnet-4-5-20250929', expect.closeTo(0.018, 10)],
      ]),
    );
  });
});
