// Codex usage as a user sees it in `stats --json` and summary.json: the token stream's traps
// (formats/codex.md §7), replayed parent history in spawned children (§9) and Codex's pricing
// rules, one small rollout per case under fixtures/codex/usage/.

import { appendFile, cp, mkdir, readdir, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from './support/cli.js';
import { statsSchema } from '../src/report/schema.js';
import { FIXTURES, tempDir } from './support/fixtures.js';

const USAGE = join(FIXTURES, 'codex', 'usage');

async function stats(folder: string) {
  const { code, stdout, stderr } = await run(['stats', join(USAGE, folder), '--json', '--tz', 'UTC', '--no-cache']);
  expect(code, stderr).toBe(0);
  return statsSchema.parse(JSON.parse(stdout));
}

async function statsBy(folder: string, by: string) {
  const { code, stdout, stderr } = await run(['stats', join(USAGE, folder), '--json', '--tz', 'UTC', '--no-cache', '--by', by]);
  expect(code, stderr).toBe(0);
  return statsSchema.parse(JSON.parse(stdout));
}

interface Summary {
  diagnostics: { byReason: Record<string, number>; items: { reason: string; line: number | null; detail: string }[] };
}

async function summaryOf(folder: string): Promise<Summary> {
  const out = join(await tempDir(), 'report');
  const { code, stderr } = await run(['build', join(USAGE, folder), '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
  expect(code, stderr).toBe(0);
  return JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
}

describe('Codex usage in stats', () => {
  // Regression (a review of Codex against its format): a fork read without the thread it copied
  // counts the copied history, as any copy whose origin is not read does; Codex writes that history
  // again stamped with the fork's time, and its spend landed on the fork's day (a report of June 5
  // held the $0.135 spent on June 1). Where the file marks the copy's end (0.169's settings of the
  // thread's own), the copy is dated at the copied thread's start. Where it does not (earlier
  // builds), the fork's own first turn, within the same second, cannot be told from the copy: as
  // written (a first try dated it with the copy, a day early; a hostile look at it).
  it('dates a fork\'s copied history at the start of the thread it copied where the file marks the copy\'s end', async () => {
    const byDay = (rows: { key: string; tokens: { input: number }; cost: { bough: number | null }; prompts: number | null }[]) => rows.map((row) => [row.key, row.tokens.input, row.cost.bough, row.prompts]);
    expect(byDay((await statsBy(join('fork-dated-by-origin', 'fork'), 'day')).rows)).toEqual([
      ['2026-06-01', 100_000, 0.135, 1],
      ['2026-06-05', 10_000, 0.0135, 1],
    ]);
    expect(byDay((await statsBy(join('fork-dated-by-origin', 'fork-unmarked'), 'day')).rows)).toEqual([['2026-06-05', 110_000, 0.1485, 2]]);
    expect(byDay((await statsBy('fork-dated-by-origin', 'day')).rows)).toEqual([
      ['2026-06-01', 100_000, 0.135, 1],
      ['2026-06-05', 20_000, 0.027, 2],
    ]);
  });

  // Regression: two token_count events swapped in the file (lower totals, timed earlier, after
  // higher ones) were taken for a restart: the higher totals' usage was counted again, unsaid.
  it('counts running totals written out of order once, and says so', async () => {
    const { totals } = await stats('out-of-order');
    expect(totals.tokens).toMatchObject({ input: 3000, output: 300 });
    const summary = await summaryOf('out-of-order');
    expect(summary.diagnostics.items.map((d) => d.detail)).toEqual([expect.stringContaining('out of order, not counted again')]);
  });

  // Regression (a hostile look at damaged input): one count line whose totals lost a digit (lower
  // than those before and after it) was taken for a restart, and the next totals' growth from it
  // counted again as requests unseen: $13.37 for a rollout of $8.37, unsaid.
  it('counts running totals lower than those before and after them as a damaged line, not a restart, and says so', async () => {
    const { totals } = await stats('one-total-too-low');
    expect(totals).toMatchObject({ usageRecords: 4, tokens: { input: 4000, output: 400 } });
    const summary = await summaryOf('one-total-too-low');
    expect(summary.diagnostics.items.map((d) => [d.line, d.detail])).toEqual([[6, expect.stringContaining('a damaged line, not a restart')]]);
  });

  // Regression (a review of Codex's numbers against an oracle of its own): an older build's resume
  // restarted the running totals (5,000 → 3,000), and the next request, re-sending the history,
  // passed the old totals: taken for a damaged line, it was measured from the old totals, 1,000
  // input with 2,000 of it cached (cut to 1,000), $0.011125 for a thread of $0.01675, and the
  // data-quality page called a good line damaged.
  it('counts totals that grew from a restart by just the next response’s own counts as that response, not as a damaged line', async () => {
    const { totals } = await stats('restart-then-growth');
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input: 12_000, cacheRead: 2_000, output: 150 } });
    expect(totals.cost.bough).toBeCloseTo(12_000 * 1.25e-6 + 2_000 * 0.125e-6 + 150 * 10e-6, 9);
    const summary = await summaryOf('restart-then-growth');
    expect(summary.diagnostics.items).toEqual([]);
  });

  // Regression (a review of damaged input): running totals whose output read 500,000,200 between
  // 100 and 300 billed $5,000 for a thread of three small responses, without a word. Totals whose
  // parts are larger than their whole are damaged, as a count no agent could mean is.
  it('counts the response’s own counts for running totals whose parts are larger than their whole, and says so', async () => {
    const { totals } = await stats('one-total-too-high');
    expect(totals.tokens).toMatchObject({ input: 3000, output: 300 });
    const summary = await summaryOf('one-total-too-high');
    expect(summary.diagnostics.items.map((d) => d.detail)).toEqual([expect.stringContaining('running totals total_tokens 2200 below input and output (500002200): counted the last response’s own counts instead')]);
  });

  // Regression (still weak at the last stop): the second of three responses of 200,000 tokens in
  // lost its token_count line (cut short), so the third's totals grew by 400,000: priced as one
  // request, past gpt-5.4's 272k tier, $2.56 for three requests each under it ($0.515 each).
  it('prices the usage of a response whose token_count line was lost as a request of its own, not as part of the next', async () => {
    const { totals } = await stats('lost-count-line');
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input: 600_000, output: 3_000 } });
    expect(totals.cost.bough).toBeCloseTo(1.545, 6);
  });

  // Regression (an outside review with an oracle of its own): two lost lines' requests, of 155,000
  // and 160,000 tokens, were priced as one request of 315,000, past gpt-5.4's 272k tier ($2.4375
  // for four requests each under it). Their largest prompt is judged by the responses read either
  // side; where those passed the tier, the lost one is taken to have too.
  it('prices the requests of several lost count lines by the prompts either side, not as one request', async () => {
    const { totals } = await stats('lost-count-lines-under-tier');
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input: 630_000, output: 4_000 } });
    expect(totals.cost.bough).toBeCloseTo(630_000 * 2.5e-6 + 4_000 * 15e-6, 9);
    const past = await stats('lost-count-line-past-tier');
    expect(past.totals).toMatchObject({ usageRecords: 3, tokens: { input: 620_000, output: 3_000 } });
    expect(past.totals.cost.bough).toBeCloseTo(570_000 * 5e-6 + 2_000 * 22.5e-6 + 50_000 * 2.5e-6 + 1_000 * 15e-6, 9);
  });

  // Regressions (a hostile look at that fix): a thread's first count line lost still made its
  // first two requests one past the tier ($1.595 for $0.805); and where a compaction came after
  // the lost request, the small prompt after it judged a lost request of 290,000 to be under the
  // tier ($1.6825 for $2.1275): past a compaction the lost prompts are taken as written.
  it('judges the requests of a thread’s lost first count line too, and takes lost prompts as written across a compaction', async () => {
    const first = await stats('lost-first-count-line');
    expect(first.totals).toMatchObject({ usageRecords: 2, tokens: { input: 310_000, output: 2_000 } });
    expect(first.totals.cost.bough).toBeCloseTo(310_000 * 2.5e-6 + 2_000 * 15e-6, 9);
    const compacted = await stats('lost-count-line-before-compaction');
    expect(compacted.totals.cost.bough).toBeCloseTo(200_000 * 2.5e-6 + 1_000 * 15e-6 + 290_000 * 5e-6 + 1_000 * 22.5e-6 + 50_000 * 2.5e-6 + 1_000 * 15e-6, 9);
  });

  // Found by a second review that ran Codex: editing an earlier prompt (the app's thread/revert)
  // writes a second rollout of the thread, which names the point of its history it goes on from
  // (history_base) and copies none of it, its running totals going on from there: the history
  // before it was counted again in it (7,000 input for 6,000).
  it('counts a rollout that goes on from an earlier point of its thread from there, not the history before it again', async () => {
    const { code, stdout, stderr } = await run(['stats', join(FIXTURES, 'codex', 'edited-prompt'), '--json', '--tz', 'UTC', '--no-cache']);
    expect(code, stderr).toBe(0);
    const { totals } = statsSchema.parse(JSON.parse(stdout));
    expect(totals).toMatchObject({ prompts: 3, usageRecords: 3, tokens: { input: 6_000, output: 60 } });
  });

  // Regression (the same look): Codex 0.169 keeps a thread's fast mode whatever its model, but
  // sends it only to the models it offers Fast for; gpt-5.4 was billed at twice what was asked.
  it('prices a fast-mode thread on a model Codex sends no tier for at standard rates', async () => {
    const { totals } = await stats('fast-on-a-model-codex-sends-no-tier');
    expect(totals.cost.bough).toBeCloseTo(1_000 * 2.5e-6 + 1_000 * 15e-6, 9);
  });

  // Found by a review that ran Codex 0.169 against the OpenAI provider: its compaction is remote,
  // and the request's usage is written only as a token_usage_record, which the running totals
  // leave out for good ($0.0561 of $0.1041); and when Codex was killed as it wrote a count line,
  // the response's record, whole just before it, was skipped too ($0.0049 of $0.01455).
  it('counts a response recorded on its own that no count line holds, once, and never one a count line holds', async () => {
    // gpt-5.5 ($5/M in, $0.50/M cached, $30/M out): 9,000/90, the compaction's 6,000/600, 1,500 + 500 cached/20.
    const remote = await stats('remote-compaction');
    expect(remote.totals).toMatchObject({ usageRecords: 3, tokens: { input: 16_500, cacheRead: 500, output: 710 } });
    expect(remote.totals.cost.bough).toBeCloseTo(9000 * 5e-6 + 90 * 30e-6 + 6000 * 5e-6 + 600 * 30e-6 + 1500 * 5e-6 + 500 * 0.5e-6 + 20 * 30e-6, 9);
    const cut = await stats('count-line-cut-after-record');
    expect(cut.totals).toMatchObject({ usageRecords: 2, tokens: { input: 2_700, cacheRead: 300, output: 30 } });
    // A fork's copy of its parent's history holds the parent's records: counted in the parent only.
    const forked = await statsBy('remote-compaction-forked', 'session');
    expect(forked.rows.map((row) => row.tokens.input).sort((a, b) => a - b)).toEqual([1_000, 16_500]);
  });

  // Regressions (a hostile look at that): each count dropped the record written last, whatever its
  // counts: a damaged record of the next response, a record written after its count, or a lost
  // count line after the compaction lost the compaction ($0.05605 of $0.10405); a copy of the
  // rollout cut between a record and its count counted that response twice.
  it('tells the response a count holds by its counts, not by where its record was written', async () => {
    for (const folder of ['remote-compaction-record-damaged', 'record-after-count', 'copy-cut-after-record']) {
      const { totals } = await stats(folder);
      expect(totals.tokens, folder).toMatchObject({ input: 16_500, cacheRead: 500, output: 710 });
    }
    // Two more responses of 1,000/10, the first's count line lost: each once, the compaction too.
    expect((await stats('remote-compaction-count-lost')).totals.tokens).toMatchObject({ input: 18_500, output: 730 });
    // Regressions (a third hostile look): a lost count's record was passed over for a compaction's
    // that fits in what the totals grew by too; a compaction after the turn's end whose counts are
    // its last response's (whose own record was damaged) was taken for that record written late.
    expect((await stats('count-lost-then-compaction')).totals.tokens).toMatchObject({ input: 22_000, output: 765 });
    expect((await stats('compaction-same-counts-after-turn')).totals.tokens).toMatchObject({ input: 18_000, cacheRead: 1_000, output: 730 });
  });

  // The same review: a thread opened with /compact records that compaction before any turn context
  // names a model; it was unpriced ("model not recorded"). So was a fork's (0.169 writes a fork
  // as going on from its parent's history, history_base, and names its parent).
  it('prices a compaction made before the thread’s first turn context as the model that context names, said', async () => {
    for (const folder of ['compaction-first', 'fork-opened-with-compact']) {
      const { totals } = await stats(folder);
      expect(totals.cost.bough, folder).toBeCloseTo(6000 * 5e-6 + 600 * 30e-6 + 2000 * 5e-6 + 1000 * 0.5e-6 + 30 * 30e-6, 9);
      expect(totals.unpricedRecords).toBe(0);
    }
  });

  // Found by a review that ran Codex 0.169: `service_tier = "flex"` is recorded and sent with
  // every request, and was billed at standard rates, twice what OpenAI bills for flex.
  it('prices a thread set to the flex tier at the table’s flex rates, and at standard ones where the table has none, said', async () => {
    const { totals } = await stats('flex-tier');
    // gpt-5.5 at flex ($2.50/M in, $0.25/M cached, $15/M out); gpt-5.1, which the table gives no
    // flex rates, at standard ($1.25/M, $10/M); gpt-5.5 set back to standard ($5/M, $30/M).
    expect(totals.cost.bough).toBeCloseTo(500 * 2.5e-6 + 500 * 0.25e-6 + 100 * 15e-6 + (1_000 * 1.25e-6 + 100 * 10e-6) + (1_000 * 5e-6 + 100 * 30e-6), 9);
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await run(['build', join(USAGE, 'flex-tier'), '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const csv = (await readFile(join(out, 'usage.csv'), 'utf8')).trim().split('\r\n');
    expect(csv.slice(1).map((row) => row.split(',').at(-1))).toEqual(['true', 'true', 'false']);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { page: string }[] };
    const html = await readFile(join(out, (summary.sessions[0] as { page: string }).page), 'utf8');
    expect(html).toContain('flex tier: billed at its rates');
    expect(html).toContain('flex tier, but the table has no rates for it: priced at standard rates');
    // A row of its own, as fast mode has: its rates are not the model's standard ones.
    const byModel = await statsBy('flex-tier', 'model');
    expect(byModel.rows.map((row) => row.key).sort()).toEqual(['openai/gpt-5.1+flex', 'openai/gpt-5.5', 'openai/gpt-5.5+flex']);
  });

  // Regression (the same review): totals that grew by 600 written tokens beside a response's own
  // 100 split off a rest of 500 written tokens and no input, so the event counted 1,500 prompt
  // tokens where its totals grew by 1,000. Written tokens are part of input: the totals are taken.
  it('takes the totals’ difference where the rest beyond a response’s own counts would write more than its input, and says so', async () => {
    const { totals } = await stats('totals-disagree-on-writes');
    expect(totals).toMatchObject({ usageRecords: 2, tokens: { input: 1_400, cacheWrite: 600, output: 20 } });
    const summary = await summaryOf('totals-disagree-on-writes');
    expect(summary.diagnostics.items.map((d) => d.detail)).toEqual([expect.stringContaining('counted the totals’ difference')]);
  });

  // Regression (a hostile look at that fix): the rest split off was claimed in the turn of the
  // line after the lost one, and a fork replaying the lost line intact, in its own turn, counted
  // it again ($2.575 for four requests of $0.515); so did the parent, when the fork's copy of the
  // line was the one lost.
  it('counts a request whose count line is lost once, beside a fork that replays that line intact, and the other way round', async () => {
    const { totals } = await stats('lost-count-line-forked');
    expect(totals).toMatchObject({ usageRecords: 4, tokens: { input: 800_000, output: 4_000 } });
    expect(totals.cost.bough).toBeCloseTo(2.06, 6);
    // The parent's line whole, the fork's copy of it cut.
    const swapped = join(await tempDir(), 'swapped');
    await cp(join(USAGE, 'lost-count-line-forked'), swapped, { recursive: true });
    const [parent, fork] = (await readdir(swapped)).sort().map((name) => join(swapped, name)) as [string, string];
    const forkLines = (await readFile(fork, 'utf8')).split('\n');
    const parentLines = (await readFile(parent, 'utf8')).split('\n');
    const cut = parentLines.findIndex((line) => !line.endsWith('}'));
    parentLines[cut] = forkLines[cut + 1] as string;
    forkLines[cut + 1] = (forkLines[cut + 1] as string).slice(0, 120);
    await writeFile(parent, parentLines.join('\n'));
    await writeFile(fork, forkLines.join('\n'));
    const { code, stdout } = await run(['stats', swapped, '--json', '--tz', 'UTC', '--no-cache']);
    expect(code).toBe(0);
    const other = statsSchema.parse(JSON.parse(stdout)).totals;
    expect(other).toMatchObject({ usageRecords: 4, tokens: { input: 800_000, output: 4_000 } });
  });

  // Regression (an outside review of Codex lineages): a fork whose copy carries no count and that
  // compacted first took its first totals, at the compaction's sentinel, for its own usage (its
  // parent's whole spend again: $0.5435 for $0.2856).
  it('counts a fork that compacted before its first request from its parent\'s totals, as a baseline', async () => {
    const { totals } = await stats('fork-compacts-first');
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input: 201_000, cacheRead: 99_000, output: 2_200 } });
    expect(totals.cost.bough).toBeCloseTo(0.285625, 9);
    // Regression (a third hostile look): a thread of its own whose first count was lost holds its
    // own usage at the sentinel that follows; it was taken for a baseline, and lost.
    const parentName = (await readdir(join(USAGE, 'fork-compacts-first'))).sort()[0] as string;
    const lines = (await readFile(join(USAGE, 'fork-compacts-first', parentName), 'utf8')).trimEnd().split('\n');
    const sentinel = { timestamp: '2026-04-08T09:00:09.000Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 280000, cached_input_tokens: 99000, output_tokens: 1900, reasoning_output_tokens: 0, total_tokens: 281900 }, last_token_usage: { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 940499 } }, rate_limits: null } };
    const own = join(await tempDir(), 'own');
    await mkdir(own);
    // Both its counts lost; the sentinel holds what they counted.
    await writeFile(join(own, parentName), `${[...lines.filter((line) => !line.includes('token_count')), JSON.stringify(sentinel)].join('\n')}\n`);
    const { code, stdout } = await run(['stats', own, '--json', '--tz', 'UTC', '--no-cache']);
    expect(code).toBe(0);
    expect(statsSchema.parse(JSON.parse(stdout)).totals).toMatchObject({ tokens: { input: 181_000, cacheRead: 99_000, output: 1_900 } });
  });

  it('keeps counting after a "context window exceeded" event, whose synthetic totals later ones build on', async () => {
    const { totals } = await stats('context-full');
    // 100k in (50k cached) before; then +20k (5k cached) and +30k (20k cached) on top of the {0…, total: window} totals.
    expect(totals).toMatchObject({
      usageRecords: 3,
      tokens: { input: 75_000, cacheRead: 75_000, output: 1_800, reasoning: 350, cacheWrite: 0 },
      cost: { bough: 0.121125 },
    });
  });

  // Regression (a fuzzing review): a reasoning count above the output it is part of was cut to
  // the output without a word. (A hostile look at the first fix: leaving it out whole, as a
  // damaged count, moved the sum further from the thread's own totals, 50 for their 90.)
  it('cuts a reasoning count above the output to it, and says so', async () => {
    const { totals } = await stats('reasoning-above-output');
    // 100 of the first totals' 300; 20 of the second's 40 more (their totals, 90 of 120, agree).
    expect(totals).toMatchObject({ usageRecords: 2, tokens: { input: 2000, output: 120, reasoning: 120 } });
    const summary = await summaryOf('reasoning-above-output');
    expect(summary.diagnostics.items.map((d) => d.detail)).toEqual([
      expect.stringContaining('reasoning 300 is more than the output it is part of (100): cut to it'),
      expect.stringContaining('reasoning 40 is more than the output it is part of (20): cut to it'),
    ]);
  });

  // Regression (a review of what bough says of bad input): cached input above the input it is
  // part of left a negative uncached part, said as "input -500", a number the file never wrote,
  // and billed 1,500 cached tokens of a 1,000-token prompt.
  it('cuts cached input above the input it is part of to it, and says so', async () => {
    const { totals } = await stats('cached-above-input');
    // The first response's 1000 in, all cached as cut; the second's 1000 uncached: the thread's own 2000.
    expect(totals).toMatchObject({ usageRecords: 2, tokens: { input: 1_000, cacheRead: 1_000, output: 300 } });
    // gpt-5: 1000 × $1.25/M + 1000 × $0.125/M + 300 × $10/M.
    expect(totals.cost.bough).toBeCloseTo(0.004375, 9);
    const summary = await summaryOf('cached-above-input');
    expect(summary.diagnostics.items.map((d) => [d.line, d.reason, d.detail])).toEqual([
      [4, 'absurd-number', 'token_count: running totals cached_input_tokens 1500 above input_tokens 1000: counted the last response’s own counts instead'],
      [4, 'inconsistent-usage', 'token_count: cached_input_tokens 1500 is more than the input it is part of (1000): cut to it'],
    ]);
  });

  // Regression (a hostile look at the cut): a growth of the running totals whose cached part
  // passed its input was counted and cut, said in numbers the file never wrote, where the
  // response's own counts (500 in, 400 cached) can be a request's; and a cached count past 1e9
  // took the input it is part of out with it ("input -999999001"), the 1,000 input lost.
  it('takes the response’s own counts where the totals grew by more cached than input, and keeps the input of an absurd cached count', async () => {
    const growth = await stats('cached-growth-above-input');
    // 1000 in (500 cached), then the response's own 500 in (400 cached).
    expect(growth.totals).toMatchObject({ usageRecords: 2, tokens: { input: 600, cacheRead: 900, output: 200 } });
    expect((await summaryOf('cached-growth-above-input')).diagnostics.items.map((d) => [d.line, d.detail])).toEqual([
      [6, 'token_count: the running totals grew by more cached or written input (1000) than input (500), which no request’s counts do: counted this response’s own counts'],
    ]);
    const absurd = await stats('cached-absurd');
    expect(absurd.totals).toMatchObject({ usageRecords: 1, tokens: { input: 1_000, cacheRead: 0, output: 100 } });
    const notes = (await summaryOf('cached-absurd')).diagnostics.items.map((d) => d.detail);
    expect(notes).toContain('cacheRead 1000000001 (absurdly large): left out of the sums');
    expect(notes.join(' ')).not.toMatch(/input -/);
  });

  // Regression (a hostile look): a response 0.169 recorded on its own whose count line is cut
  // (resp_2, 2,000 in), held in a growth of the totals counted whole (its rest more cached than
  // input), was counted again from its record: 5,500 input where the thread's totals say 3,500.
  it('counts a response recorded on its own once where the totals’ growth holding it is counted whole', async () => {
    const { totals } = await stats('record-in-growth');
    expect(totals.tokens.input + totals.tokens.cacheRead).toBe(3_500);
    expect(totals).toMatchObject({ usageRecords: 2, tokens: { output: 60 } });
  });

  it('never turns a negative cached count into more non-cached input, and says so', async () => {
    const { totals } = await stats('negative');
    // 1000 in (cached −500 left out) + 1000 in before the restart; the restart's −6000 input is left out, its 100 output counts.
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input: 2_000, cacheRead: 0, output: 300 }, cost: { bough: 0.0055 } });
    const { diagnostics } = await summaryOf('negative');
    expect(diagnostics.byReason).toEqual({ 'absurd-number': 4 });
    expect(diagnostics.items.map((d) => [d.line, d.detail]).sort()).toEqual([
      [4, 'cacheRead -500 (negative): left out of the sums'],
      [4, 'token_count: running totals cached_input_tokens -500 (negative): counted the last response’s own counts instead'],
      [5, 'input -6000 (negative): left out of the sums'],
      [5, 'token_count: running totals input_tokens -5000 (negative): counted the last response’s own counts instead'],
    ]);
  });
  it('counts a spawned child’s replay of its parent once, in the parent, even without a copy of the parent’s session_meta', async () => {
    const { totals } = await stats('spawn-replay');
    // The parent's two responses (gpt-5) once, and the child's own one (gpt-5-mini): the replayed first response is not counted again.
    expect(totals.models.map((m) => [m.model, m.tokens.input, m.tokens.cacheRead, m.tokens.output])).toEqual([
      ['gpt-5', 1_200, 1_000, 150],
      ['gpt-5-mini', 4_000, 0, 400],
    ]);
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input: 5_200, cacheRead: 1_000, output: 550 }, cost: { bough: 0.004925 } });
  });

  it('counts a thread given alone with the sub-agents it spawned beside it, as its folder does (regression: without them)', async () => {
    const parent = join(USAGE, 'spawn-replay', 'rollout-2026-04-06T09-00-00-0195bbbb-0000-7000-8000-000000000007.jsonl');
    const { code, stdout, stderr } = await run(['stats', parent, '--json', '--tz', 'UTC', '--no-cache']);
    expect(code, stderr).toBe(0);
    const { totals } = statsSchema.parse(JSON.parse(stdout));
    const folder = await stats('spawn-replay');
    expect(totals).toEqual(folder.totals);
    expect(totals.subagents.usageRecords).toBe(1);
  });

  // Regression: given alone, a thread found only the threads it spawned in its own day's folder;
  // one spawned after local midnight is filed under the next day, and its spend was lost unsaid.
  it('counts a thread given alone with the threads it spawned on later days, and theirs', async () => {
    const parent = join(USAGE, 'spawn-after-midnight', 'sessions', '2026', '05', '12', 'rollout-2026-05-12T23-50-00-0195dddd-0000-7000-8000-0000000000a1.jsonl');
    const { code, stdout, stderr } = await run(['stats', parent, '--json', '--tz', 'UTC', '--no-cache']);
    expect(code, stderr).toBe(0);
    const { totals } = statsSchema.parse(JSON.parse(stdout));
    // 100,000 / 10,000 of its own, 40,000 / 4,000 of its child (05/13) and 20,000 / 2,000 of the child's (05/14), all gpt-5.
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input: 160_000, output: 16_000 }, subagents: { tokens: { input: 60_000, output: 6_000 } } });
    expect(totals.cost.bough).toBeCloseTo(0.36, 9);
    expect(totals).toEqual((await stats('spawn-after-midnight')).totals);
  });

  // Regression (an outside review of Codex lineages): a thread given alone was read with the
  // threads it spawned in the month after it started only, and, archived, with none of them.
  it('counts a thread given alone with the threads it spawned months later, and when it is archived', async () => {
    const home = join(await tempDir(), 'codex');
    await cp(join(USAGE, 'spawn-after-midnight'), home, { recursive: true });
    const day = (d: string) => join(home, 'sessions', '2026', ...d.split('/'));
    const child = (await readdir(day('05/13')))[0] as string;
    await mkdir(day('08/01'), { recursive: true });
    await rename(join(day('05/13'), child), join(day('08/01'), child));
    const parentName = 'rollout-2026-05-12T23-50-00-0195dddd-0000-7000-8000-0000000000a1.jsonl';
    const parent = join(day('05/12'), parentName);
    await utimes(parent, new Date('2026-08-01T12:00:00Z'), new Date('2026-08-01T12:00:00Z'));
    const alone = async (path: string) => {
      const { code, stdout, stderr } = await run(['stats', path, '--json', '--tz', 'UTC', '--no-cache']);
      expect(code, stderr).toBe(0);
      return statsSchema.parse(JSON.parse(stdout)).totals;
    };
    const expected = { usageRecords: 3, tokens: { input: 160_000, output: 16_000 }, subagents: { tokens: { input: 60_000, output: 6_000 } } };
    expect(await alone(parent)).toMatchObject(expected);
    const archived = join(home, 'archived_sessions', parentName);
    await mkdir(dirname(archived), { recursive: true });
    await rename(parent, archived);
    await utimes(archived, new Date('2026-08-01T12:00:00Z'), new Date('2026-08-01T12:00:00Z'));
    expect(await alone(archived)).toMatchObject(expected);
  });

  it('counts a fork’s first response alone when its copied history carried no token_count (regression: the parent’s totals counted again)', async () => {
    const { totals } = await stats('fork-no-counts');
    // The parent's 10,000 in / 100 out once; the fork's totals 12,000 / 120 carry on from them, so it adds 2,000 / 20.
    expect(totals).toMatchObject({ sessions: 2, usageRecords: 2, tokens: { input: 12_000, output: 120 }, cost: { bough: 0.0162 } });
    // Regression (an outside review of Codex lineages): the parent's reply, written after its
    // token_count, was the fork's own too (its copy had no count to place it by): 2 prompts, 3 replies.
    const { rows } = await statsBy('fork-no-counts', 'session');
    expect(totals).toMatchObject({ prompts: 2, replies: 2 });
    expect(rows.map((r) => [r.prompts, r.replies])).toEqual([
      [1, 1],
      [1, 1],
    ]);
  });

  // Regression: a usage record was claimed by its lineage and totals alone, so two forks of one
  // point whose first responses added the same counts were taken for one response: the second
  // fork's was "counted elsewhere", and nowhere.
  it('counts the same-sized first responses of two forks of one point in each fork', async () => {
    const { totals } = await stats('sibling-forks');
    // The parent's 10,000 / 100 once (each fork replays it); each fork's first response 2,000 new
    // + 10,000 cached in, 50 out; then 1,000 / 10 in one fork and 2,000 / 20 in the other.
    expect(totals).toMatchObject({ sessions: 3, usageRecords: 5, tokens: { input: 17_000, cacheRead: 20_000, output: 230 } });
    expect(totals.cost.bough).toBeCloseTo(0.02605, 9);
  });

  it('counts the same-sized first responses of two children spawned alike in each child', async () => {
    const { totals } = await stats('twin-children');
    // Parent 5,000 / 50; each child 6,000 / 37 first; then 6,000 cached / 40, and 100 new + 6,000 cached / 41.
    expect(totals).toMatchObject({ usageRecords: 5, tokens: { input: 17_100, cacheRead: 12_000, output: 205 }, subagents: { tokens: { input: 12_100, output: 155 } } });
    expect(totals.cost.bough).toBeCloseTo(0.024925, 9);
  });

  // Regression: damaged running totals (a fractional, huge or negative count, a count the totals
  // before gave left out, every count null) became the baseline, so the next good totals'
  // difference was taken from them: 20,000 tokens lost, or counted twice, or moved between kinds.
  // A hostile look at the first fix: each re-emit of damaged totals was counted again, and a
  // count an older build leaves out was called damage.
  it('never takes damaged running totals for the baseline, so the good totals around them count exactly once, and lists them', async () => {
    const { rows } = await statsBy('damaged-totals', 'session');
    // Each file: good totals 10,000 (2,000 cached) / 100, damaged ones, then 30,000 / 300 and
    // 40,000 (5,000 cached) / 400: 35,000 new and 5,000 cached in, 400 out, $0.048375.
    expect(rows.map((row) => row.label).sort()).toEqual(['odd names in info', 'totals all-null', 'totals fractional', 'totals huge', 'totals missing-field', 'totals negative']);
    for (const row of rows) {
      expect(row.tokens, row.label).toMatchObject({ input: 35_000, cacheRead: 5_000, output: 400 });
      expect(row.cost.bough, row.label).toBeCloseTo(0.048375, 9);
    }
    const { diagnostics } = await summaryOf('damaged-totals');
    const details = diagnostics.items.map((item) => item.detail);
    // A count left out of the totals (a build that does not write it resumed the thread) goes on as it was, unsaid.
    for (const said of ['input_tokens 20000.5 (not a whole number)', 'input_tokens 1.000e+20 (absurdly large)', 'cached_input_tokens -50 (negative)', 'missing in a thread whose earlier token_counts have them']) {
      expect(details).toContainEqual(expect.stringContaining(said));
    }
    // A model named by a number is set aside; the counts beside it are kept.
    expect(details).toContainEqual(expect.stringContaining('token_count: info.model not as the format has it (kept without it)'));
  });

  // Regression (a review of the Codex reader): totals after the first that left out their output
  // (or input) count kept the count before, so the response's own 100 out (or 1,000 in) was lost,
  // unsaid, while the same totals as a thread's first were damage.
  it.each([
    ['output', 'totals-without-output'],
    ['input', 'totals-without-input'],
  ])('counts a response whose running totals leave out their %s count by its own counts, and says so', async (field, folder) => {
    expect((await stats(folder)).totals).toMatchObject({ usageRecords: 3, tokens: { input: 3_000, output: 300 }, cost: { bough: 0.00675 } });
    const details = (await summaryOf(folder)).diagnostics.items.map((item) => item.detail);
    expect(details).toEqual([expect.stringContaining(`running totals without ${field}_tokens: counted the last response’s own counts instead`)]);
  });

  // Regression (a review of the Codex reader): after a "context window exceeded" event in the same
  // turn, the counts start again from 0, so the second request after it went from and to the
  // counts the thread's second request did: taken for a copy of it and not counted.
  it('counts requests after a "context window exceeded" event in the same turn apart from the thread’s first ones', async () => {
    expect((await stats('context-full-same-turn')).totals).toMatchObject({ usageRecords: 4, tokens: { input: 4_000, output: 400 }, cost: { bough: 0.009 } });
  });

  // A hostile look at the fix above (which named total_tokens in a claim): a fork of such a thread
  // counted two of its parent's requests again once the parent was kept from an archive of an
  // earlier build, whose claims did not name it. Claims made again are numbered instead.
  it('counts a fork of a thread with requests after a "context window exceeded" event in one turn once, also with its parent archived', async () => {
    const expected = { usageRecords: 5, tokens: { input: 5_000, output: 500 }, cost: { bough: 0.01125 } };
    expect((await stats('context-full-forked')).totals).toMatchObject(expected);
    const inputs = join(await tempDir(), 'in');
    await cp(join(USAGE, 'context-full-forked'), inputs, { recursive: true });
    const out = join(await tempDir(), 'report');
    const build = async () => {
      const { code, stderr } = await run(['build', inputs, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
      expect(code, stderr).toBe(0);
      return JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { totals: object };
    };
    expect((await build()).totals).toMatchObject(expected);
    await rename(join(inputs, 'rollout-2026-05-20T10-00-00-0195dddd-0000-7000-8000-000000000001.jsonl'), join(await tempDir(), 'gone.jsonl'));
    expect((await build()).totals).toMatchObject(expected);
  });

  // Regressions from a hostile look at the fixes above: the turn put in every claim made a fork's
  // re-emit of its parent's last response (the parent's last turn unanswered) and a child's
  // replay without turn lines count again; a count an older build leaves out was "damage", and a
  // damaged token_count written twice was counted twice.
  it.each([
    ['a fork’s re-emit of its parent’s last response after a turn it never answered', 'fork-reemit-after-unanswered-turn', { usageRecords: 3, tokens: { input: 3_500, output: 350 } }],
    ['a child’s replay of its parent without the turn lines', 'spawn-replay-without-turns', { usageRecords: 3, tokens: { input: 5_200, cacheRead: 1_000, output: 550 }, subagents: { tokens: { input: 4_000, output: 400 } } }],
    ['a thread resumed by a build that does not write cache writes, its totals written twice', 'resumed-by-older-build', { usageRecords: 3, tokens: { input: 3_000, cacheRead: 2_500, cacheWrite: 500, output: 300 } }],
    ['damaged running totals written twice', 'damaged-totals-reemitted', { usageRecords: 3, tokens: { input: 6_000, output: 250 } }],
    // A fuzzing review: the thread's first totals without input_tokens were taken as 0, and the next ones' difference counted its input again.
    ['first running totals without their input count', 'first-totals-without-input', { usageRecords: 2, tokens: { input: 2_750, cacheRead: 750, output: 425 } }],
    // The second hostile look: a record in a turn of its own was a copy wherever its origin held the same counts in any turn.
    ['a fork’s own response of the counts its parent then added too', 'fork-same-counts-as-parent', { usageRecords: 4, tokens: { input: 4_000, output: 400 } }],
    ['a child’s own response of the counts its parent then added too', 'spawn-same-counts-as-parent', { usageRecords: 4, tokens: { input: 4_000, output: 400 }, subagents: { tokens: { input: 500 } } }],
  ])('counts %s once', async (_, folder, expected) => {
    expect((await stats(folder)).totals).toMatchObject(expected);
  });

  // Regression: a thread that copied another's history with its session_meta (codex.md §3, §9)
  // but named no origin (no forked_from_id, no thread_spawn) counted that history again.
  it('counts history copied with its thread’s session_meta once, in that thread, though the copy names no origin', async () => {
    const { totals, rows } = await statsBy('unmarked-copy', 'session');
    // The parent's 1,000,000 / 100,000 on gpt-5 ($2.25) once, and the copy's own 100,000 / 10,000 ($0.225).
    expect(totals).toMatchObject({ sessions: 2, prompts: 2, usageRecords: 2, tokens: { input: 1_100_000, output: 110_000 } });
    expect(totals.cost.bough).toBeCloseTo(2.475, 9);
    expect(rows.map((row) => [row.label, row.cost.bough]).sort()).toEqual([
      ['branch question', expect.closeTo(0.225, 9)],
      ['parent question', expect.closeTo(2.25, 9)],
    ]);
  });

  // Regression: the first fix followed a copy's unnamed origin from the file's own meta only, so a
  // fork (or a spawned thread) of such a copy counted the copy's origin again: $4.97 for $2.54.
  it('counts history copied through a copy that names no origin once, wherever the copies go on', async () => {
    const { totals, rows } = await statsBy('copy-of-copy', 'session');
    // A 1,000,000 / 100,000 ($2.25); B, an unnamed copy of A, 100,000 / 10,000 ($0.225); C, a fork
    // of B, 10,000 / 1,000 ($0.0225); K, spawned by B, 20,000 / 2,000 ($0.045), sub-agent spend in B.
    expect(totals).toMatchObject({ usageRecords: 4, tokens: { input: 1_130_000, output: 113_000 }, subagents: { tokens: { input: 20_000, output: 2_000 } } });
    expect(totals.cost.bough).toBeCloseTo(2.5425, 9);
    expect(rows.map((row) => [row.label, row.prompts, row.cost.bough]).sort()).toEqual([
      ['question A', 1, expect.closeTo(2.25, 9)],
      ['question B', 1, expect.closeTo(0.27, 9)],
      ['question C', 1, expect.closeTo(0.0225, 9)],
    ]);
  });

  // Regression: the first fix took any other thread's meta in a file for its origin, one written
  // after its own history too: the origin's own prompt and cost went to the thread forked from it.
  it('takes only the metas that lead a file for where its history came from', async () => {
    const { totals, rows } = await statsBy('meta-after-history', 'session');
    expect(totals.cost.bough).toBeCloseTo(1.575, 9);
    // D 500,000 / 50,000 ($1.125); X, forked from D, 200,000 / 20,000 ($0.45).
    expect(rows.map((row) => [row.label, row.prompts, row.cost.bough]).sort()).toEqual([
      ['question D', 1, expect.closeTo(1.125, 9)],
      ['question X', 1, expect.closeTo(0.45, 9)],
    ]);
  });

  it('counts a review thread’s replay of the thread it reviewed once, there, and its own usage as sub-agent spend', async () => {
    const { totals } = await stats('review-replay');
    // The reviewed thread's $2.25 once; the review's own 40,000 / 4,000 ($0.09) as a sub-agent's.
    expect(totals).toMatchObject({ usageRecords: 2, tokens: { input: 1_040_000, output: 104_000 } });
    expect(totals.cost.bough).toBeCloseTo(2.34, 9);
    expect(totals.subagents.tokens).toMatchObject({ input: 40_000, output: 4_000 });
  });

  // Regression: a fork whose copied history carried no token_count, and a spawned child that
  // replayed its parent's messages alone, each began with a re-emit of the inherited totals
  // (3,000 / 300, the last response 2,000 / 200), which they counted again.
  it.each([
    ['a fork', 'fork-reemit', 3_500, 350, 0],
    ['a spawned child', 'spawn-replay-no-counts', 3_700, 370, 700],
  ])('counts %s’s leading re-emit of its parent’s last response once, in the parent', async (_, folder, input, output, subagentInput) => {
    const { totals } = await stats(folder);
    // The parent's 3,000 / 300 once, and what the other thread added on top of it.
    expect(totals).toMatchObject({ usageRecords: 3, tokens: { input, output } });
    expect(totals.cost.bough).toBeCloseTo(input * 1.25e-6 + output * 10e-6, 9);
    expect(totals.subagents.tokens.input).toBe(subagentInput);
  });
});

describe('the model a Codex reply names', () => {
  it('is the one its token_count says served it, beside the turn’s (regression: the turn’s alone, while priced as the other)', async () => {
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await run(['build', join(USAGE, 'served-model'), '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const pages = (await readdir(join(out, 'sessions'))).filter((name) => name.endsWith('.html'));
    const page = await readFile(join(out, 'sessions', pages[0] as string), 'utf8');
    expect(page).toContain('gpt-5 → gpt-5.4');
    const { totals } = await stats('served-model');
    expect(totals.models.map((m) => m.model)).toEqual(['gpt-5.4']);
  });
});

describe('Codex usage priced', () => {
  it('prices cache writes as input on an OpenAI model without a write price, and at the write price where there is one', async () => {
    const { totals } = await stats('cache-write');
    // gpt-5: 1000 input (400 of them written to cache) at $1.25/M + 100 output at $10/M. gpt-5.6 has its own write price.
    expect(totals.models.map((m) => [m.model, m.priceState, m.cost.bough])).toEqual([
      ['gpt-5.6', 'priced', 0.0076],
      ['gpt-5', 'priced', 0.00225],
    ]);
    expect(totals).toMatchObject({ partiallyPricedModels: [], cost: { bough: 0.00985 } });
  });
  it('prices the built-in `oss` provider (Ollama, `codex --oss`) at $0 as a local model', async () => {
    const { totals } = await stats('oss');
    expect(totals.models.map((m) => [m.provider, m.model, m.priceState, m.local, m.cost.bough])).toEqual([['oss', 'gpt-oss:120b', 'local', true, 0]]);
    expect(totals).toMatchObject({ unpricedModels: [], cost: { bough: 0 } });
  });
});

describe('a session without usage, on its page', () => {
  it('says "no usage recorded" instead of zeros, for Codex and every agent, and keeps the table where there is usage', async () => {
    const out = join(await tempDir(), 'report');
    const inputs = [join(USAGE, 'no-usage'), join(FIXTURES, 'pi', 'windows-cwd.jsonl'), join(USAGE, 'context-full')];
    const { code, stderr } = await run(['build', ...inputs, '--out', out, '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const pages = await Promise.all((await readdir(join(out, 'sessions'))).map((name) => readFile(join(out, 'sessions', name), 'utf8')));
    const pageOf = (sessionId: string) => pages.find((html) => html.includes(sessionId)) ?? '';
    for (const sessionId of ['0195bbbb-0000-7000-8000-000000000006', '0196a000-0000-7000-8000-000000000011']) {
      const page = pageOf(sessionId);
      expect(page).toContain('<div class="card-detail">no usage recorded</div>');
      expect(page).toContain('No usage recorded: the agent wrote no token counts for this session');
      expect(page).not.toContain('<table class="numbers tokens">');
      expect(page).not.toContain('in all</div>');
    }
    const withUsage = pageOf('0195bbbb-0000-7000-8000-000000000001');
    expect(withUsage).toContain('<table class="numbers tokens">');
    expect(withUsage).not.toContain('no usage recorded');
  });
});

// Regression: a parent thread and the child it spawned, both named in session_index.jsonl, gave
// their name entries one id on the parent's page, so the child's link opened the parent's.
describe('a Codex parent page with its named child', () => {
  it('gives each thread’s name entry an id of its own', async () => {
    const home = join(await tempDir(), 'codex');
    await cp(join(FIXTURES, 'codex', 'home'), home, { recursive: true });
    await appendFile(join(home, 'session_index.jsonl'), '{"id":"0195aaaa-0000-7000-8000-000000000003","thread_name":"Helper thread","updated_at":"2026-03-02T11:06:00Z"}\n');
    const out = join(await tempDir(), 'report');
    expect((await run(['build', join(home, 'sessions'), '--out', out, '--no-cache', '--tz', 'UTC', '--quiet'])).code).toBe(0);
    const pages = await Promise.all((await readdir(join(out, 'sessions'))).map((name) => readFile(join(out, 'sessions', name), 'utf8')));
    const parent = pages.find((page) => page.includes('Helper thread')) as string;
    const ids = [...parent.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});
