// Providers, models and their prices (USD per million tokens), and Pi's usage records with costs
// worked out the way Pi does at response time (formats/pi.md §8, §22).

import type { Features } from './features.js';
import type { Random } from './random.js';
import { zeroTokens, type Spend } from './truth.js';

export interface Rates {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** How a provider reports prompt caching once Pi has normalised it. */
export type Caching = 'anthropic' | 'automatic' | 'none';

export interface ModelSpec {
  provider: string;
  api: string;
  model: string;
  /** The id the provider says answered, when it differs (routers, `:free`, Anthropic fallback). */
  responseModel?: string;
  rates: Rates;
  caching: Caching;
  /** The provider reports `usage.reasoning` (a part of output). */
  reportsReasoning: boolean;
  /** OpenRouter bills the request itself: `total` is its bill, not the sum of the parts. */
  billedByProvider: boolean;
}

const model = (spec: Omit<ModelSpec, 'billedByProvider'> & { billedByProvider?: boolean }): ModelSpec => ({
  billedByProvider: false,
  ...spec,
});

const ANTHROPIC = { provider: 'anthropic', api: 'anthropic-messages', caching: 'anthropic', reportsReasoning: true } as const;

export const MODELS = {
  sonnet: model({ ...ANTHROPIC, model: 'claude-sonnet-4-5', rates: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }),
  opus: model({ ...ANTHROPIC, model: 'claude-opus-4-5', rates: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 } }),
  haiku: model({ ...ANTHROPIC, model: 'claude-haiku-4-5', rates: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } }),
  /** Anthropic server-side fallback: answered by another model, billed at its rates. */
  fable: model({
    ...ANTHROPIC,
    model: 'claude-fable-5-2',
    responseModel: 'claude-opus-5',
    rates: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  }),
  gpt5: model({
    provider: 'openai',
    api: 'openai-responses',
    model: 'gpt-5',
    rates: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    caching: 'automatic',
    reportsReasoning: true,
  }),
  gpt5mini: model({
    provider: 'openai',
    api: 'openai-responses',
    model: 'gpt-5-mini',
    rates: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
    caching: 'automatic',
    reportsReasoning: true,
  }),
  gemini: model({
    provider: 'google',
    api: 'google-generative-ai',
    model: 'gemini-2.5-pro',
    rates: { input: 1.25, output: 10, cacheRead: 0.31, cacheWrite: 0 },
    caching: 'automatic',
    reportsReasoning: false,
  }),
  openrouterFree: model({
    provider: 'openrouter',
    api: 'openai-completions',
    model: 'qwen/qwen3-coder:free',
    responseModel: 'qwen/qwen3-coder',
    rates: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    caching: 'none',
    reportsReasoning: false,
  }),
  openrouterAuto: model({
    provider: 'openrouter',
    api: 'openai-completions',
    model: 'openrouter/auto',
    responseModel: 'anthropic/claude-sonnet-4.5',
    rates: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    caching: 'automatic',
    reportsReasoning: false,
    billedByProvider: true,
  }),
  ollama: model({
    provider: 'ollama',
    api: 'openai-completions',
    model: 'qwen3-coder:30b',
    rates: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    caching: 'none',
    reportsReasoning: false,
  }),
} satisfies Record<string, ModelSpec>;

export type ModelName = keyof typeof MODELS;

/** Which models a session of a given era talks to, and how often. */
export function mainModelChoices(features: Features): (readonly [ModelSpec, number])[] {
  if (features.version === 1) return [[MODELS.sonnet, 6], [MODELS.opus, 2], [MODELS.gpt5, 1]];
  if (features.version === 2) return [[MODELS.sonnet, 5], [MODELS.opus, 2], [MODELS.gemini, 1]];
  return [
    [MODELS.sonnet, 8],
    [MODELS.opus, 4],
    [MODELS.gpt5, 3],
    [MODELS.gemini, 2],
    [MODELS.openrouterFree, 1],
    [MODELS.openrouterAuto, 1],
    [MODELS.ollama, 1],
    [MODELS.fable, features.totalFromProvider ? 1 : 0],
  ];
}

export const SUBAGENT_MODELS: readonly ModelSpec[] = [MODELS.haiku, MODELS.gpt5mini, MODELS.sonnet];

/** The size of one request, before the provider splits it into fresh, cached and cache-written tokens. */
export interface RequestSize {
  /** Prompt tokens already seen by the provider in an earlier request of this context. */
  seen: number;
  /** Prompt tokens new in this request. */
  fresh: number;
  output: number;
}

export interface UsageRecord {
  /** The `usage` object as Pi stores it. */
  json: Record<string, unknown>;
  spend: Spend;
}

/**
 * A usage record for one request, with cost as Pi computes it at response time. `zero` is the
 * request that failed before streaming: all zeros, no `cacheWrite1h`, no `totalFromProvider`.
 */
export function usageRecord(
  rng: Random,
  spec: ModelSpec,
  size: RequestSize,
  features: Features,
  options: { zero?: boolean; omitTotalTokens?: boolean } = {},
): UsageRecord {
  const t = options.zero ? zeroTokens() : splitTokens(rng, spec, size, features);
  const litellm = features.catalog === 'litellm';
  const cost = priced(litellm ? litellmRates(spec, t) : spec.rates, t);
  const billed = !litellm && !options.zero && spec.billedByProvider && features.totalFromProvider;
  const total = billed ? roundTo(cost.total * 1.055 + 0.0000004, 12) : cost.total;

  const json: Record<string, unknown> = {
    input: t.input,
    output: t.output,
    cacheRead: t.cacheRead,
    cacheWrite: t.cacheWrite,
  };
  if (features.reasoning && spec.reportsReasoning) json['reasoning'] = t.reasoning;
  if (features.cacheWrite1h && spec.caching === 'anthropic' && !options.zero) json['cacheWrite1h'] = t.cacheWrite1h;
  if (!options.omitTotalTokens) json['totalTokens'] = totalTokensOf(spec, t);
  const costJson: Record<string, unknown> = { ...cost, total };
  if (features.totalFromProvider && !options.zero) costJson['totalFromProvider'] = billed;
  json['cost'] = costJson;

  return { json, spend: { tokens: t, recordedCost: total } };
}

function splitTokens(rng: Random, spec: ModelSpec, size: RequestSize, features: Features) {
  const t = zeroTokens();
  t.output = size.output;
  switch (spec.caching) {
    case 'anthropic':
      t.input = rng.int(1, 40);
      t.cacheRead = size.seen;
      t.cacheWrite = size.fresh;
      // Some Anthropic requests cache for an hour: a part of cacheWrite, never extra to it.
      if (features.cacheWrite1h && rng.chance(0.4)) t.cacheWrite1h = rng.chance(0.5) ? t.cacheWrite : Math.floor(t.cacheWrite / 3);
      break;
    case 'automatic': {
      // Providers cache in blocks; what was seen is read back in multiples of 128.
      const cached = Math.floor(size.seen / 128) * 128;
      t.cacheRead = cached;
      t.input = size.seen - cached + size.fresh;
      break;
    }
    case 'none':
      t.input = size.seen + size.fresh;
      break;
  }
  if (features.reasoning && spec.reportsReasoning && rng.chance(0.7)) t.reasoning = Math.floor(size.output * (0.2 + rng.next() * 0.6));
  return t;
}

/**
 * LiteLLM's rates where they differ from Pi's catalog: Gemini 2.5 Pro cache reads at $0.125/M,
 * and the long-context tiers of Gemini 2.5 Pro and Sonnet 4.5 for the whole request above 200k prompt tokens.
 */
function litellmRates(spec: ModelSpec, t: ReturnType<typeof zeroTokens>): Rates {
  const prompt = t.input + t.cacheRead + t.cacheWrite;
  if (spec.model === 'gemini-2.5-pro') return prompt > 200_000 ? { input: 2.5, output: 15, cacheRead: 0.25, cacheWrite: 0 } : { ...spec.rates, cacheRead: 0.125 };
  if (spec.model === 'claude-sonnet-4-5' && prompt > 200_000) return { input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 };
  return spec.rates;
}

/** Pi's formula (§22): one-hour cache writes at twice the input rate. */
function priced(rates: Rates, t: ReturnType<typeof zeroTokens>) {
  const input = (t.input * rates.input) / 1e6;
  const output = (t.output * rates.output) / 1e6;
  const cacheRead = (t.cacheRead * rates.cacheRead) / 1e6;
  const cacheWrite = ((t.cacheWrite - t.cacheWrite1h) * rates.cacheWrite + t.cacheWrite1h * 2 * rates.input) / 1e6;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}

/** OpenAI Responses report their own total (it can include a few framing tokens). */
function totalTokensOf(spec: ModelSpec, t: ReturnType<typeof zeroTokens>): number {
  const sum = t.input + t.output + t.cacheRead + t.cacheWrite;
  return spec.api === 'openai-responses' && sum > 0 ? sum + 3 : sum;
}

function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
