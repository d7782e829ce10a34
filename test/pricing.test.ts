import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costOf } from '../src/pricing/cost.js';
import { findPrice } from '../src/pricing/lookup.js';
import { createPricer, type PriceHints, type PricedUsage } from '../src/pricing/price.js';
import { claudeReader } from '../src/sources/claude/reader.js';
import { codexPriceHint } from '../src/sources/codex/prices.js';
import { piPriceHint } from '../src/sources/pi/prices.js';
import { costCheck } from '../src/pricing/reconcile.js';
import { parsePriceTable, type ModelPrice, type Rates } from '../src/pricing/table.js';
import type { Source, Usage } from '../src/types.js';
import { PROJECT_ROOT } from './support/fixtures.js';

const M = 1e-6; // $/M → $/token

/** An Anthropic model with a long-context tier that prices input, output and cache reads. */
const TIERED = {
  litellm_provider: 'anthropic',
  mode: 'chat',
  input_cost_per_token: 3 * M,
  output_cost_per_token: 15 * M,
  cache_read_input_token_cost: 0.3 * M,
  cache_creation_input_token_cost: 3.75 * M,
  cache_creation_input_token_cost_above_1hr: 6 * M,
  input_cost_per_token_above_200k_tokens: 6 * M,
  output_cost_per_token_above_200k_tokens: 22.5 * M,
  cache_read_input_token_cost_above_200k_tokens: 0.6 * M,
};

/** Three entries: a tiered Anthropic model, a flat one without cache prices, and one that names no prices. */
const TABLE = parsePriceTable(
  {
    'claude-tiered': TIERED,
    'flat-no-cache': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: '1.25e-06', output_cost_per_token: 10 * M },
    'named-only': { litellm_provider: 'openai', mode: 'chat' },
    'an-embedding': { litellm_provider: 'openai', mode: 'embedding', input_cost_per_token: 1 * M },
    sample_spec: { input_cost_per_token: 0 },
  },
  { origin: 'bundled', label: 'test table', date: '2026-01-01' },
);

const tokens = (t: Partial<Usage>) => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0, ...t });
const priced = (key: string) => TABLE.entries.get(key) as ModelPrice & { base: Rates };

function usage(u: Partial<Usage>): Usage {
  return {
    ...tokens(u),
    origin: 'reply',
    provider: 'anthropic',
    model: 'claude-tiered',
    requestedModel: null,
    responseModel: null,
    recordedCost: null,
    recordedCostFromProvider: false,
    modelGuessed: false,
    timestamp: null,
    claim: null,
    outputPartial: false,
    responseId: null,
    fast: false,
    webSearches: 0,
    ...u,
  };
}

describe('cost arithmetic', () => {
  it('prices each token kind at its own rate; reasoning is inside output and never added', () => {
    const cost = costOf(priced('claude-tiered'), tokens({ input: 1000, output: 2000, reasoning: 1500, cacheRead: 10_000, cacheWrite: 3000, cacheWrite1h: 1000 }));
    // 1000×3 + 2000×15 + 10000×0.3 + 2000×3.75 + 1000×6, per million
    expect(cost.total).toBeCloseTo((3000 + 30_000 + 3000 + 7500 + 6000) * M, 15);
    expect(cost).toMatchObject({ tier: null, missing: [], derived: [] });
  });

  it('applies the long-context tier to the whole request once its prompt passes the threshold', () => {
    const below = costOf(priced('claude-tiered'), tokens({ input: 100_000, cacheRead: 100_000, output: 1000 }));
    const above = costOf(priced('claude-tiered'), tokens({ input: 100_001, cacheRead: 100_000, output: 1000 }));
    expect(below.tier).toBe(null);
    expect(below.total).toBeCloseTo((100_000 * 3 + 100_000 * 0.3 + 1000 * 15) * M, 12);
    expect(above.tier).toBe(200_000);
    // Every kind with a tier rate uses it, output included; kinds without one keep the base rate.
    expect(above.total).toBeCloseTo((100_001 * 6 + 100_000 * 0.6 + 1000 * 22.5) * M, 12);
  });

  // Regression: a tier without a one-hour field took the base one ($6/M), below the tier's five-minute writes ($7.50/M).
  it('prices one-hour writes in a long-context request at twice the tier’s input where the tier has no rate for them', () => {
    const table = parsePriceTable(
      {
        'claude-sonnet-like': { ...TIERED, cache_creation_input_token_cost_above_200k_tokens: 7.5 * M },
      },
      { origin: 'bundled', label: 'test table', date: '2026-01-01' },
    );
    const price = table.entries.get('claude-sonnet-like') as ModelPrice & { base: Rates };
    const cost = costOf(price, tokens({ input: 100, cacheRead: 150_000, cacheWrite: 60_000, cacheWrite1h: 40_000, output: 1000 }));
    // 100×6 + 150,000×0.6 + 20,000×7.5 + 40,000×12 + 1000×22.5, per million: $0.7431.
    expect(cost.total).toBeCloseTo(0.7431, 12);
    expect(cost).toMatchObject({ tier: 200_000, derived: ['cacheWrite1h'] });
    // Below the threshold the table's one-hour rate holds.
    expect(costOf(price, tokens({ input: 100, cacheWrite: 1000, cacheWrite1h: 1000 })).total).toBeCloseTo((100 * 3 + 1000 * 6) * M, 15);
  });

  it('keeps a missing cache price unknown instead of zero', () => {
    const cost = costOf(priced('flat-no-cache'), tokens({ input: 1000, output: 100, cacheRead: 5000 }));
    expect(cost.total).toBeCloseTo(1000 * 1.25 * M + 100 * 10 * M, 15);
    expect(cost.missing).toEqual(['cacheRead']);
  });

  // Regression (an outside review with an oracle of its own): one-hour writes on a model the table
  // gives no cache-write rate at all were left unpriced ("priced in part", never compared with Pi's
  // own cost), where README and Pi price them at twice the input rate whatever the table lacks.
  it('prices one-hour writes at twice the input rate where the table has no cache-write rate at all', () => {
    const cost = costOf(priced('flat-no-cache'), tokens({ input: 100, output: 100, cacheWrite: 1000, cacheWrite1h: 1000 }));
    expect(cost.total).toBeCloseTo((100 * 1.25 + 100 * 10 + 1000 * 2 * 1.25) * M, 15);
    expect(cost).toMatchObject({ missing: [], derived: ['cacheWrite1h'] });
    // Five-minute writes beside them stay unknown: nothing says what they cost.
    expect(costOf(priced('flat-no-cache'), tokens({ input: 100, cacheWrite: 3000, cacheWrite1h: 1000 })).missing).toEqual(['cacheWrite']);
  });

  it('reads thresholds from the field names, including numeric strings', () => {
    expect(priced('claude-tiered').tiers.map((t) => t.threshold)).toEqual([200_000]);
    expect(priced('flat-no-cache').base.input).toBe(1.25e-6);
  });

  it('keeps only text models and leaves non-model keys out', () => {
    expect([...TABLE.entries.keys()].sort()).toEqual(['claude-tiered', 'flat-no-cache', 'named-only']);
  });

  it('multiplies a fast-mode request’s tokens, tier and one-hour writes included, and adds searches at their own price', () => {
    const fastTable = parsePriceTable(
      {
        'claude-fast': {
          litellm_provider: 'anthropic',
          mode: 'chat',
          input_cost_per_token: 5 * M,
          output_cost_per_token: 25 * M,
          cache_creation_input_token_cost: 6.25 * M,
          input_cost_per_token_above_200k_tokens: 10 * M,
          provider_specific_entry: { us: 1.1, fast: 6 },
          search_context_cost_per_query: { search_context_size_low: 0.01, search_context_size_medium: 0.01, search_context_size_high: 0.01 },
        },
      },
      { origin: 'bundled', label: 'test table', date: '2026-01-01' },
    );
    const price = fastTable.entries.get('claude-fast') as ModelPrice & { base: Rates };
    // Above 200k: input at $10/M; 1000 one-hour writes at twice that; all ×6; then 2 searches at $0.01.
    const cost = costOf(price, { ...tokens({ input: 250_000, output: 1000, cacheWrite: 1000, cacheWrite1h: 1000 }), fast: true, webSearches: 2 });
    expect(cost.total).toBeCloseTo((250_000 * 10 + 1000 * 25 + 1000 * 20) * M * 6 + 0.02, 12);
    expect(cost).toMatchObject({ tier: 200_000, fastMultiplier: 6, webSearches: 2, missing: [] });
    expect(costOf(price, { ...tokens({ input: 1000 }), fast: false }).total).toBeCloseTo(1000 * 5 * M, 15);
  });

  /** An OpenAI model's standard rates and long-context input rate, as LiteLLM lists them; its tiers' rates are each test's. */
  const GPT_LIKE = {
    litellm_provider: 'openai',
    mode: 'chat',
    input_cost_per_token: 5 * M,
    output_cost_per_token: 30 * M,
    cache_read_input_token_cost: 0.5 * M,
    input_cost_per_token_above_272k_tokens: 10 * M,
  };

  // Codex 0.169 records fast mode, which OpenAI bills as its priority tier: the table's `*_priority`
  // rates, each kind at its own multiple (on top of a long-context tier, which has none of its own).
  it('prices an OpenAI model’s fast mode at the table’s priority rates, as multiples of the standard ones past a tier too', () => {
    const table = parsePriceTable(
      {
        'gpt-like': {
          ...GPT_LIKE,
          output_cost_per_token_above_272k_tokens: 45 * M,
          input_cost_per_token_priority: 10 * M,
          output_cost_per_token_priority: 60 * M,
          cache_read_input_token_cost_priority: 1 * M,
        },
      },
      { origin: 'bundled', label: 'test table', date: '2026-01-01' },
    );
    const price = table.entries.get('gpt-like') as ModelPrice & { base: Rates };
    const fast = costOf(price, { ...tokens({ input: 1000, cacheRead: 5000, output: 100 }), fast: true });
    expect(fast.total).toBeCloseTo((1000 * 10 + 5000 * 1 + 100 * 60) * M, 15);
    expect(fast).toMatchObject({ priority: true, fastMultiplier: null, missing: [] });
    const long = costOf(price, { ...tokens({ input: 300_000, output: 100 }), fast: true });
    expect(long.total).toBeCloseTo((300_000 * 20 + 100 * 90) * M, 12);
    expect(costOf(price, { ...tokens({ input: 1000 }), fast: false })).toMatchObject({ priority: false });
    // A standard rate of 0 has no multiple: the priority rate itself, never NaN.
    const free = parsePriceTable({ 'gpt-free': { mode: 'chat', input_cost_per_token: 0, output_cost_per_token: 0, input_cost_per_token_priority: 1 * M, output_cost_per_token_priority: 2 * M } }, { origin: 'bundled', label: 'test table', date: '2026-01-01' });
    const zero = costOf(free.entries.get('gpt-free') as ModelPrice & { base: Rates }, { ...tokens({ input: 1000, output: 100 }), fast: true });
    expect(zero.total).toBeCloseTo((1000 * 1 + 100 * 2) * M, 15);
  });

  // Codex's flex tier, recorded as such: the table's `*_flex` rates, each kind at its own multiple
  // (past a long-context tier too); a model without flex rates at standard ones.
  it('prices an OpenAI model’s flex tier at the table’s flex rates, and one without them at standard rates', () => {
    const table = parsePriceTable(
      {
        'gpt-like': {
          ...GPT_LIKE,
          input_cost_per_token_flex: 2.5 * M,
          output_cost_per_token_flex: 15 * M,
          cache_read_input_token_cost_flex: 0.25 * M,
        },
        'gpt-no-flex': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: 5 * M, output_cost_per_token: 30 * M },
      },
      { origin: 'bundled', label: 'test table', date: '2026-01-01' },
    );
    const price = table.entries.get('gpt-like') as ModelPrice & { base: Rates };
    const flex = costOf(price, { ...tokens({ input: 1000, cacheRead: 5000, output: 100 }), flex: true });
    expect(flex.total).toBeCloseTo((1000 * 2.5 + 5000 * 0.25 + 100 * 15) * M, 15);
    expect(flex).toMatchObject({ flex: true, priority: false, missing: [] });
    expect(costOf(price, { ...tokens({ input: 300_000 }), flex: true }).total).toBeCloseTo(300_000 * 5 * M, 12);
    const none = costOf(table.entries.get('gpt-no-flex') as ModelPrice & { base: Rates }, { ...tokens({ input: 1000 }), flex: true });
    expect(none).toMatchObject({ flex: false, missing: [] });
    expect(none.total).toBeCloseTo(1000 * 5 * M, 15);
  });

  it('keeps fast mode and searches the table has no price for out of the cost, and says so', () => {
    const cost = costOf(priced('claude-tiered'), { ...tokens({ input: 1000 }), fast: true, webSearches: 3 });
    expect(cost.total).toBeCloseTo(1000 * 3 * M, 15);
    expect(cost.missing).toEqual(['fastMode', 'webSearch']);
  });
});

/** Pi's price hints, with "my-box" local by this machine's configuration. */
const hints: PriceHints = (_, provider) => piPriceHint(provider, new Set(['my-box']));

describe('pricing usage records', () => {
  const pricer = createPricer(TABLE, { subscriptionsAtApiPrices: false, hints });
  // A record read from no file in an agent's home: priced by this machine's configuration.
  const price = (usage: Parameters<typeof pricer>[0], source: Source) => pricer(usage, source, null);

  it('marks a model the table does not know as unpriced, never $0', () => {
    expect(price(usage({ model: 'mystery-1', input: 10 }), 'pi')).toMatchObject({ cost: null, state: 'unpriced' });
    expect(price(usage({ provider: 'openai', model: 'named-only', output: 10 }), 'pi')).toMatchObject({ cost: null, state: 'unpriced' });
    // Regression (an outside review of totals): a record of no tokens (a tool's record of zeros, a
    // failed request's) made the report's cost "+ unknown" and its model unpriced: it costs $0 at any rate.
    expect(price(usage({ model: 'mystery-1' }), 'pi')).toMatchObject({ cost: 0, state: 'priced' });
    expect(price(usage({ model: null, origin: 'tool' }), 'pi')).toMatchObject({ cost: 0, state: 'priced' });
    expect(price(usage({ model: 'mystery-1', webSearches: 1 }), 'pi')).toMatchObject({ cost: null, state: 'unpriced' });
  });

  it('takes no price beyond reason from a table (regression: 1e308 a token made every total "$∞")', () => {
    const absurd = parsePriceTable(
      { 'gpt-absurd': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: 1e308, output_cost_per_token: 10 * M, cache_read_input_token_cost: 1e300 } },
      { origin: 'file', label: 'a hand-made table', date: '2026-01-01' },
    );
    const inAbsurd = createPricer(absurd, { subscriptionsAtApiPrices: false, hints });
    expect(inAbsurd(usage({ provider: 'openai', model: 'gpt-absurd', input: 1000, output: 1000 }), 'pi', null)).toMatchObject({ cost: null, state: 'unpriced' });
  });

  it('prices free, local and subscription models at $0 by rule, before any lookup', () => {
    expect(price(usage({ provider: 'openrouter', model: 'qwen/qwen3-coder:free', input: 10 }), 'pi')).toMatchObject({ cost: 0, state: 'free' });
    expect(price(usage({ provider: 'ollama', model: 'claude-tiered', input: 10 }), 'pi')).toMatchObject({ cost: 0, state: 'local' });
    expect(price(usage({ provider: 'my-box', model: 'qwen3-coder:30b', input: 10 }), 'pi')).toMatchObject({ cost: 0, state: 'local' });
    expect(price(usage({ provider: 'llama.cpp', model: 'claude-tiered', input: 10 }), 'pi')).toMatchObject({ cost: 0, state: 'local' });
    expect(price(usage({ provider: 'github-copilot', model: 'claude-tiered', input: 10 }), 'pi')).toMatchObject({ cost: 0, state: 'subscription' });
  });

  // Regression (an outside review of prices): a provider configured at this machine's address
  // (Pi's models.json, Codex's config.toml) was $0 whatever it served, where a proxy there
  // (LiteLLM's, in front of OpenAI) bills: a model the table knows by its own name is that model.
  // Regressions (a hostile look at that fix): a provider of the user's own there serving a model
  // named as a paid one (LocalAI names its own as OpenAI's) was billed, and so was a subscription
  // reached through a proxy there.
  it('prices a model the table knows, served by one of the agent\'s own providers pointed at this machine, as that model, and says so', () => {
    const proxied = createPricer(TABLE, { subscriptionsAtApiPrices: false, hints: (_, provider) => piPriceHint(provider, new Set(['anthropic', 'my-box', 'github-copilot'])) });
    expect(proxied(usage({ provider: 'anthropic', model: 'claude-tiered', input: 1000 }), 'pi', null)).toMatchObject({
      cost: 1000 * 3 * M,
      state: 'priced',
      key: 'claude-tiered',
      note: "served at this machine's address, as a proxy in front of its maker's API is: priced as claude-tiered",
    });
    // A name with a vendor path is a download run here (LM Studio's), whatever the table holds.
    expect(proxied(usage({ provider: 'anthropic', model: 'vendor/claude-tiered', input: 1000 }), 'pi', null)).toMatchObject({ cost: 0, state: 'local' });
    expect(proxied(usage({ provider: 'my-box', model: 'claude-tiered', input: 1000 }), 'pi', null)).toMatchObject({ cost: 0, state: 'local' });
    expect(proxied(usage({ provider: 'github-copilot', model: 'claude-tiered', input: 1000 }), 'pi', null)).toMatchObject({ cost: 0, state: 'subscription' });
    const codex = createPricer(TABLE, { subscriptionsAtApiPrices: false, hints: (_, provider) => codexPriceHint(provider, new Set(['openai', 'litellm', 'oss'])) });
    expect(codex(usage({ provider: 'openai', model: 'claude-tiered', input: 1000 }), 'codex', null)).toMatchObject({ cost: 1000 * 3 * M, state: 'priced' });
    expect(codex(usage({ provider: 'litellm', model: 'claude-tiered', input: 1000 }), 'codex', null)).toMatchObject({ cost: 0, state: 'local' });
    expect(codex(usage({ provider: 'oss', model: 'claude-tiered', input: 1000 }), 'codex', null)).toMatchObject({ cost: 0, state: 'local' });
  });

  it('prices subscriptions at API rates when asked', () => {
    const api = createPricer(TABLE, { subscriptionsAtApiPrices: true, hints });
    expect(api(usage({ provider: 'github-copilot', model: 'claude-tiered', input: 1000 }), 'pi', null)).toMatchObject({ state: 'priced', key: 'claude-tiered' });
  });
});

describe('agreement with the recorded cost', () => {
  const checkCost = (records: ReturnType<typeof record>[]) => {
    const check = costCheck();
    for (const { usage, priced } of records) check.add(usage, priced);
    return check.result();
  };
  const record = (recorded: number, bough: number, extra: Partial<Usage> = {}, state: 'priced' | 'unpriced' = 'priced'): { usage: Usage; priced: PricedUsage } => ({
    usage: usage({ recordedCost: recorded, ...extra }),
    priced: { cost: state === 'unpriced' ? null : bough, state, key: null, tier: null, missing: [], note: null, subscription: extra.provider === 'github-copilot' },
  });

  it('agrees within a cent or within 1%', () => {
    expect(checkCost([record(10, 10.009)]).differs).toBe(false);
    expect(checkCost([record(100, 100.5)]).differs).toBe(false);
  });

  it('flags a difference of more than a cent and 1%, with the likely reason', () => {
    expect(checkCost([record(1, 1.5)])).toMatchObject({ differs: true, reason: 'different catalog', difference: 0.5 });
    expect(checkCost([record(1, 0, {}, 'unpriced'), record(0.1, 0.1)])).toEqual({ differs: false, differingRecords: 0, comparedRecords: 1, incomplete: true, incompleteBy: 'unpriced model', unrecorded: 0, reason: 'unpriced model', difference: null });
    expect(checkCost([record(2, 1, { recordedCostFromProvider: true })]).reason).toBe('provider-billed total');
    // Regression (a second hostile look): a Pi tool's own model use, which names no model, was "a model not in the price table".
    expect(checkCost([record(0.12, 0, { origin: 'tool', model: null }, 'unpriced'), record(0.1, 0.1)])).toMatchObject({ incomplete: true, incompleteBy: 'no model recorded' });
    expect(checkCost([record(0.12, 0, { origin: 'tool', model: null }, 'unpriced'), record(1, 0, {}, 'unpriced')])).toMatchObject({ incompleteBy: 'unpriced model' });
    expect(checkCost([record(0, 3, { provider: 'github-copilot' })]).reason).toBe('subscription provider');
    expect(checkCost([record(1, 3, { origin: 'summary', modelGuessed: true }), record(1, 1.1)]).reason).toBe('model guessed for summary usage');
    // A sub-agent run given by its sums, priced under a tier two of its requests passed (a hostile look).
    expect(checkCost([record(0.346, 0.18, { origin: 'subagent', largestPrompt: 166_667 })]).reason).toBe('long-context rates judged from sums');
  });

  // Regression: Pi's $0.028, $0.008 and $0.0185 against bough's $0.018 each agreed as a session (−$0.0005); pricing.md compares per message.
  it('flags records that differ on their own though they cancel out over the session', () => {
    expect(checkCost([record(0.028, 0.018), record(0.008, 0.018), record(0.0185, 0.018)])).toMatchObject({ differs: true, differingRecords: 3 });
    expect(checkCost([record(0.018, 0.01805)])).toMatchObject({ differs: false, differingRecords: 0 });
  });

  // Regression: a long-context price, or one-hour writes the agent priced at the five-minute rate, were put down to a "different catalog".
  it('names long-context and one-hour cache rates as the likely reason, and a model priced in part apart from an unknown one', () => {
    const tiered = { ...record(0.09, 0.17), priced: { ...record(0.09, 0.17).priced, tier: 200_000 } };
    expect(checkCost([tiered]).reason).toBe('long-context or one-hour cache rates');
    expect(checkCost([record(0.0765, 0.1215, { cacheWrite1h: 20_000 })]).reason).toBe('long-context or one-hour cache rates');
    const partial = { ...record(0.1, 0.05), priced: { ...record(0.1, 0.05).priced, state: 'partial' as const } };
    expect(checkCost([partial])).toMatchObject({ incomplete: true, reason: 'model priced in part' });
  });

  // Regression (a review of what bough says of bad input): a Pi reply whose input read 200 million
  // ($1,200 by bough, $0.018 recorded) was put down to long-context rates, its tier; the count,
  // larger than any model's context and said on the data-quality page, is the likely cause.
  it('names a token count larger than any model’s context as the likely reason, whatever tier it falls in', () => {
    const damaged = record(0.018, 1200.015, { input: 200_000_000 });
    expect(checkCost([{ ...damaged, priced: { ...damaged.priced, tier: 200_000 } }, record(0.018, 0.018)]).reason).toBe('a token count to be checked');
    // A sub-agent run's sums may pass it: they are many requests'.
    expect(checkCost([record(0.346, 0.18, { origin: 'subagent', largestPrompt: 166_667, cacheRead: 20_000_000 })]).reason).toBe('long-context rates judged from sums');
  });

  // Found by a review that ran Pi 1.6 on OpenAI's flex and priority tiers: Pi prices them (½×, 2.5×
  // on gpt-5.5) and records no tier, and the difference was put down to a "different catalog".
  // A later review: a Claude model the user priced at half in Pi's models.json was put down to a tier.
  it('names a service tier as the likely reason where an OpenAI reply’s recorded cost is one of its multiples', () => {
    const openai = { provider: 'openai' };
    expect(checkCost([record(0.044, 0.088, openai), record(0.11, 0.044, { provider: 'openai-codex' })]).reason).toBe('a service tier the session does not record');
    expect(checkCost([record(0.06, 0.044, openai)]).reason).toBe('different catalog');
    expect(checkCost([record(0.0132, 0.0264, { provider: 'anthropic' })]).reason).toBe('different catalog');
    // Nor on Azure's, which Pi prices at list (a third hostile look).
    expect(checkCost([record(0.0132, 0.0264, { provider: 'azure-openai-responses' })]).reason).toBe('different catalog');
  });

  // Regression: one unpriced $0.00003 reply hid a $0.199 difference on the replies bough did price.
  it('still compares the records it priced when another is unpriced', () => {
    expect(checkCost([record(0.5, 0.3), record(0.00003, 0, {}, 'unpriced')])).toMatchObject({ differs: true, differingRecords: 1, incomplete: true, incompleteBy: 'unpriced model', reason: 'different catalog', difference: null });
    expect(checkCost([record(0.5, 0.5), record(0.00003, 0, {}, 'unpriced')])).toMatchObject({ differs: false, incomplete: true, reason: 'unpriced model' });
  });

  it('leaves a record with no recorded cost out, and counts it (regression: it was compared as a recorded $0)', () => {
    const none = (bough: number, state: 'priced' | 'unpriced' = 'priced') => ({ ...record(0, bough, {}, state), usage: usage({ recordedCost: null }) });
    expect(checkCost([record(0.5, 0.5), none(3)])).toEqual({ differs: false, differingRecords: 0, comparedRecords: 1, incomplete: false, incompleteBy: null, unrecorded: 1, reason: null, difference: 0 });
    // Nor does its unknown price make the comparison of the others incomplete.
    expect(checkCost([record(0.5, 0.5), none(0, 'unpriced')])).toMatchObject({ incomplete: false, unrecorded: 1, difference: 0 });
    expect(checkCost([none(3)])).toMatchObject({ differs: false, difference: null });
  });
});

describe('lookup in the bundled LiteLLM table (pricing.md §7 traps)', () => {
  const bundled = parsePriceTable(JSON.parse(readFileSync(join(PROJECT_ROOT, 'data', 'litellm-model-prices.json'), 'utf8')), {
    origin: 'bundled',
    label: 'bundled',
    date: '2026-08-01',
  });
  const lookup = (provider: string | null, model: string) =>
    findPrice(bundled, { provider, model, hint: piPriceHint(provider, new Set()) }, { subscriptionsAtApiPrices: false });
  const keyOf = (provider: string | null, model: string) => {
    const found = lookup(provider, model);
    return found.kind === 'unpriced' ? null : found.key;
  };

  it('reads every price the bundled table writes', () => {
    expect(bundled.snapshot.problem).toBeUndefined();
  });

  // Regression: OpenRouter's auto router, listed at 0, priced its requests at $0.
  it('leaves a request to a router unpriced: what it cost is the model it chose', () => {
    expect(lookup('openrouter', 'openrouter/auto')).toMatchObject({ kind: 'unpriced', reason: expect.stringContaining('routes each request') });
    expect(lookup('openrouter', 'anthropic/claude-sonnet-4.5')).toMatchObject({ kind: 'priced' });
  });

  // Regression: a tier price written "5e-06x" in a --prices table was skipped, and a 300k prompt priced at base rates without a word.
  it('leaves a model unpriced, and says so, when a price it writes cannot be read', () => {
    const table = parsePriceTable(
      {
        'gpt-x': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: 2.5e-6, output_cost_per_token: 1e-5, input_cost_per_token_above_272k_tokens: '5e-06x' },
        'gpt-y': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: -1, output_cost_per_token: 1e-5 },
        'gpt-z': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: '2e-6', output_cost_per_token: 1e-5, cache_read_input_token_cost: null },
      },
      { origin: 'file', label: 'mine.json', date: null },
    );
    expect([...table.entries.keys()].filter((key) => table.entries.get(key)?.base !== null)).toEqual(['gpt-z']);
    const find = (model: string) => findPrice(table, { provider: 'openai', model, hint: { prefixes: [''], subscription: false, local: false } }, { subscriptionsAtApiPrices: false });
    expect(find('gpt-x')).toEqual({ kind: 'unpriced', reason: "gpt-x's input_cost_per_token_above_272k_tokens in the table could not be read" });
    expect(table.snapshot.problem).toBe(
      'prices in mine.json could not be read (gpt-x: input_cost_per_token_above_272k_tokens "5e-06x"; gpt-y: input_cost_per_token -1), so these 2 models are left unpriced: fix the table.',
    );
  });

  // Regression (a review of price tables): a blank price string was read as $0 and "0x10" as $16
  // a token, priced without a word; a price string is read as a decimal, as LiteLLM reads it.
  it('reads a price string as a decimal number, and a blank or hexadecimal one as unreadable', () => {
    const model = (input: unknown) => ({ litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: input, output_cost_per_token: 1.5e-5 });
    const table = parsePriceTable(
      { 'm-blank': model(''), 'm-space': model(' '), 'm-hex': model('0x10'), 'm-padded': model(' 3e-6 '), 'm-point': model('.000003'), 'm-plus': model('+3E-6') },
      { origin: 'file', label: 'mine.json', date: null },
    );
    const priced = [...table.entries].filter(([, entry]) => entry.base !== null).map(([key, entry]) => [key, entry.base?.input]);
    expect(priced).toEqual([['m-padded', 3e-6], ['m-point', 3e-6], ['m-plus', 3e-6]]);
    expect(table.snapshot.problem).toBe('prices in mine.json could not be read (m-blank: input_cost_per_token ""; m-space: input_cost_per_token " "; m-hex: input_cost_per_token "0x10"), so these 3 models are left unpriced: fix the table.');
  });

  // Regression: the entry was dropped, and the model priced by its dated entry's list price
  // while the warning said it was left unpriced.
  it('leaves a model whose entry it cannot read unpriced, not priced by another spelling’s entry', () => {
    const table = parsePriceTable(
      {
        'claude-x': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 5e-6, output_cost_per_token: 2.5e-5, cache_read_input_token_cost: 'oops' },
        'claude-x-20260205': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 5e-6, output_cost_per_token: 2.5e-5 },
      },
      { origin: 'file', label: 'mine.json', date: null },
    );
    const found = findPrice(table, { provider: 'anthropic', model: 'claude-x', hint: { prefixes: [''], subscription: false, local: false } }, { subscriptionsAtApiPrices: false });
    expect(found).toMatchObject({ kind: 'unpriced', reason: "claude-x's cache_read_input_token_cost in the table could not be read" });
  });

  // Regression: Claude Code on Vertex writes `claude-…@date`, which LiteLLM lists under vertex_ai/ only: unpriced.
  it('finds Claude Code’s Vertex ids under vertex_ai/', () => {
    const claudeKey = (model: string) => {
      const found = findPrice(bundled, { provider: 'anthropic', model, hint: claudeReader.priceHint('anthropic', new Set()) }, { subscriptionsAtApiPrices: false });
      return found.kind === 'priced' ? found.key : null;
    };
    expect(claudeKey('claude-3-5-haiku@20241022')).toBe('vertex_ai/claude-3-5-haiku@20241022');
    expect(claudeKey('claude-3-5-sonnet@20240620')).toBe('vertex_ai/claude-3-5-sonnet@20240620');
    expect(claudeKey('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5-20250929');
    // Regression: an id as Anthropic's API writes it, which the table lists under Vertex only, took
    // Vertex's price ($1/$5 for 3.5 Haiku, not Anthropic's $0.80/$4): unpriced, as any unknown id.
    expect(claudeKey('claude-3-5-haiku-20241022')).toBeNull();
    // Regression (a hostile look): Vertex's undated ids are written `@default`, and were left unpriced.
    expect(claudeKey('claude-opus-4-6@default')).toBe('vertex_ai/claude-opus-4-6@default');
    // Regression (an outside review of money): a Vertex id the table lists as it is was priced by
    // Anthropic's entry for it spelled with `-` (pricing.md §6.3: another spelling only without an exact hit).
    expect(claudeKey('claude-sonnet-4-5@20250929')).toBe('vertex_ai/claude-sonnet-4-5@20250929');
    // Regression (a hostile look at that fix): Vertex's entries lack prices Anthropic's of the same
    // model have (web searches; cache for Claude 3 Opus), which were then left unpriced: taken from
    // there, and said.
    const vertex = (model: string) => findPrice(bundled, { provider: 'anthropic', model, hint: claudeReader.priceHint('anthropic', new Set()) }, { subscriptionsAtApiPrices: false });
    expect(vertex('claude-sonnet-4-5@20250929')).toMatchObject({ kind: 'priced', filledFrom: 'claude-sonnet-4-5-20250929', price: { webSearch: 0.01 } });
    expect(vertex('claude-3-opus@20240229')).toMatchObject({ kind: 'priced', key: 'vertex_ai/claude-3-opus@20240229', filledFrom: 'claude-3-opus-20240229', price: { base: { cacheRead: 1.5e-6 } } });
    // Regression (a second hostile look): the table gives Claude 3 Opus and Haiku one-hour writes
    // below their five-minute ones ($6 a million for Opus's $18.75): no rate, so twice the input, said.
    expect(vertex('claude-3-opus@20240229')).toMatchObject({ price: { base: { cacheWrite: 1.875e-5, cacheWrite1h: null } } });
    expect(vertex('claude-3-haiku@20240307')).toMatchObject({ price: { base: { cacheWrite1h: null } } });
    // An undated id is still Anthropic's newest dated entry (a hostile look: vertex_ai/claude-3-haiku, without cache prices).
    expect(claudeKey('claude-3-haiku')).toBe('claude-3-haiku-20240307');
    expect(claudeKey('claude-sonnet-4')).toBe('claude-sonnet-4-20250514');
  });

  // Regression: with --price-subscriptions, Gemini under google-gemini-cli and github-copilot took
  // the bare (Vertex) entry: 50% dearer than the Gemini API the other Gemini providers price by.
  it('prices a subscription’s Gemini model as Google’s Gemini API sells it', () => {
    const subscriptionKey = (provider: string, model: string) => {
      const found = findPrice(bundled, { provider, model, hint: piPriceHint(provider, new Set()) }, { subscriptionsAtApiPrices: true });
      return found.kind === 'priced' ? found.key : null;
    };
    expect(subscriptionKey('google-gemini-cli', 'gemini-2.0-flash-001')).toBe('gemini/gemini-2.0-flash-001');
    expect(subscriptionKey('github-copilot', 'gemini-2.0-flash-001')).toBe('gemini/gemini-2.0-flash-001');
    expect(subscriptionKey('github-copilot', 'claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(subscriptionKey('github-copilot', 'gpt-5')).toBe('gpt-5');
  });

  // Regression: DeepSeek's entries name their cache-hit price input_cost_per_token_cache_hit; read
  // as no cache-read price, every DeepSeek cache read was "priced in part".
  it('reads DeepSeek’s cache-hit price as its cache-read price', () => {
    const found = lookup('deepseek', 'deepseek-v3.2');
    expect(found).toMatchObject({ kind: 'priced', key: 'deepseek/deepseek-v3.2' });
    expect(found.kind === 'priced' && found.price.base.cacheRead).toBe(2.8e-8);
  });

  it('finds OpenRouter models under openrouter/, not a reseller with the same name', () => {
    expect(keyOf('openrouter', 'anthropic/claude-sonnet-4.5')).toBe('openrouter/anthropic/claude-sonnet-4.5');
    expect(keyOf('openrouter', 'openai/gpt-5')).not.toBe('gmi/openai/gpt-5');
  });

  it('prices an OpenRouter :free model at $0, never as its paid sibling', () => {
    expect(lookup('openrouter', 'qwen/qwen3-coder:free')).toMatchObject({ kind: 'free', rule: 'free-model' });
    expect(lookup('openrouter', 'deepseek/deepseek-chat-v3.1:free')).toMatchObject({ kind: 'free' });
  });

  it('prices a local model at $0 instead of matching Ollama’s cloud entry', () => {
    expect(lookup('ollama', 'gpt-oss:20b')).toMatchObject({ kind: 'free', rule: 'local' });
  });

  it('does not price gpt-5.3-codex-spark as gpt-5.3-codex by accident', () => {
    expect(keyOf('openai', 'gpt-5.3-codex-spark')).not.toBe('gpt-5.3-codex');
  });

  it('maps providers to their own entries: Gemini API, Vertex, Bedrock regions', () => {
    expect(keyOf('google', 'gemini-2.5-pro')).toBe('gemini/gemini-2.5-pro');
    expect(keyOf('google-vertex', 'gemini-2.5-pro')).toBe('gemini-2.5-pro');
    expect(keyOf('amazon-bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
  });

  it('tries deterministic spellings: dated ids, @ dates, and version dots', () => {
    expect(keyOf('anthropic', 'claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5-20250929');
    expect(keyOf('anthropic', 'claude-sonnet-4.5')).toBe('claude-sonnet-4-5');
    expect(keyOf(null, 'vertex_ai/claude-haiku-4-5-20251001')).toBe('vertex_ai/claude-haiku-4-5@20251001');
    expect(keyOf('anthropic', 'CLAUDE-SONNET-4-5')).toBe('claude-sonnet-4-5');
  });

  it('knows which Claude models have long-context tiers and which are flat', () => {
    const tiersOf = (model: string) => {
      const found = lookup('anthropic', model);
      return found.kind === 'priced' ? found.price.tiers.map((t) => t.threshold) : null;
    };
    expect(tiersOf('claude-sonnet-4-5')).toEqual([200_000]);
    expect(tiersOf('claude-sonnet-4-6')).toEqual([]);
    expect(tiersOf('claude-opus-5')).toEqual([]);
  });

  it('prices Bedrock regional Claude 10% above Anthropic direct', () => {
    const direct = lookup('anthropic', 'claude-sonnet-4-5-20250929');
    const regional = lookup('amazon-bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(direct.kind === 'priced' && regional.kind === 'priced' && regional.price.base.input / direct.price.base.input).toBeCloseTo(1.1, 9);
  });

  it('leaves a provider the table does not know unpriced rather than guessing', () => {
    expect(lookup('some-proxy', 'claude-sonnet-4-5')).toMatchObject({ kind: 'unpriced' });
    expect(lookup('anthropic', 'claude-sonnet-9-9')).toMatchObject({ kind: 'unpriced' });
  });

  it('checks Pi’s own arithmetic on a real reply (claude-opus-4-5: $0.07902125)', () => {
    const found = lookup('anthropic', 'claude-opus-4-5');
    expect(found.kind).toBe('priced');
    if (found.kind !== 'priced') return;
    expect(costOf(found.price, tokens({ input: 8, output: 1211, cacheRead: 89_775, cacheWrite: 611 })).total).toBeCloseTo(0.07902125, 12);
  });
});
