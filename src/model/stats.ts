// Counts and sums over entries: what a session, a project and the whole archive add up to.

import type { PricedUsage, PriceState } from '../pricing/price.js';
import type { Entry, TokenCounts, Usage } from '../types.js';

/** Prices one usage record; injected so the model stays pure. */
export type PriceOf = (usage: Usage) => PricedUsage;

export interface Cost {
  /** bough's own price from the table; null when nothing was priced. */
  bough: number | null;
  /** What the agent recorded; null when it recorded none. */
  recorded: number | null;
}

export interface UsageTotals {
  tokens: TokenCounts;
  cost: Cost;
  records: number;
  /** Records the table could not price: their cost is unknown, not zero. */
  unpriced: number;
  /** Records priced only in part (the table lacks a rate for some token kind). */
  partial: number;
}

/** Usage of one billed model (provider and model as the source reported them). */
export interface ModelUsage extends UsageTotals {
  provider: string | null;
  model: string | null;
  local: boolean;
  /** The table entry or rule that priced it, and how. */
  priceKey: string | null;
  priceState: PriceState | null;
  priceNote: string | null;
}

export interface Stats extends UsageTotals {
  prompts: number;
  replies: number;
  errorReplies: number;
  abortedReplies: number;
  /** Sub-agent spend, also included in `tokens` and `cost`. */
  subagents: UsageTotals;
  /** Usage by provider and billed model, keyed "provider/model". */
  byModel: Map<string, ModelUsage>;
  firstAt: number | null;
  lastAt: number | null;
}

export function zeroTokens(): TokenCounts {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
}

export function emptyUsageTotals(): UsageTotals {
  return { tokens: zeroTokens(), cost: { bough: null, recorded: null }, records: 0, unpriced: 0, partial: 0 };
}

export function emptyStats(): Stats {
  return {
    ...emptyUsageTotals(),
    prompts: 0,
    replies: 0,
    errorReplies: 0,
    abortedReplies: 0,
    subagents: emptyUsageTotals(),
    byModel: new Map(),
    firstAt: null,
    lastAt: null,
  };
}

const TOKEN_KINDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'reasoning'] as const;

/** Null stays null only while every part is null: a known amount plus an unknown one is the known amount. */
function addMoney(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

function addUsage(into: UsageTotals, usage: Usage, priced: PricedUsage | null): void {
  for (const kind of TOKEN_KINDS) into.tokens[kind] += usage[kind];
  into.cost.recorded = addMoney(into.cost.recorded, usage.recordedCost);
  if (priced) {
    into.cost.bough = addMoney(into.cost.bough, priced.cost);
    if (priced.state === 'unpriced') into.unpriced++;
    if (priced.state === 'partial') into.partial++;
  }
  into.records++;
}

function addUsageTotals(into: UsageTotals, from: UsageTotals): void {
  for (const kind of TOKEN_KINDS) into.tokens[kind] += from.tokens[kind];
  into.cost.recorded = addMoney(into.cost.recorded, from.cost.recorded);
  into.cost.bough = addMoney(into.cost.bough, from.cost.bough);
  into.records += from.records;
  into.unpriced += from.unpriced;
  into.partial += from.partial;
}

export function addStats(into: Stats, from: Stats): void {
  addUsageTotals(into, from);
  addUsageTotals(into.subagents, from.subagents);
  for (const [key, usage] of from.byModel) addUsageTotals(modelUsageOf(into, key, usage), usage);
  into.prompts += from.prompts;
  into.replies += from.replies;
  into.errorReplies += from.errorReplies;
  into.abortedReplies += from.abortedReplies;
  into.firstAt = earliest(into.firstAt, from.firstAt);
  into.lastAt = latest(into.lastAt, from.lastAt);
}

/** Adds one entry's counts and usage. */
export function addEntry(into: Stats, entry: Entry, priceOf: PriceOf | null): void {
  if (entry.kind === 'prompt') into.prompts++;
  if (entry.kind === 'reply') {
    into.replies++;
    if (entry.stopReason === 'error') into.errorReplies++;
    if (entry.stopReason === 'aborted') into.abortedReplies++;
  }
  for (const usage of entry.usage) {
    const priced = priceOf ? priceOf(usage) : null;
    addUsage(into, usage, priced);
    if (usage.origin === 'subagent') addUsage(into.subagents, usage, priced);
    const model = modelUsageOf(into, `${usage.provider ?? ''}/${usage.model ?? ''}`, {
      provider: usage.provider,
      model: usage.model,
      local: usage.local,
      priceKey: priced?.key ?? null,
      priceState: priced?.state ?? null,
      priceNote: priced?.note ?? null,
    });
    addUsage(model, usage, priced);
  }
  into.firstAt = earliest(into.firstAt, entry.timestamp);
  into.lastAt = latest(into.lastAt, entry.timestamp);
}

type ModelFacts = Pick<ModelUsage, 'provider' | 'model' | 'local' | 'priceKey' | 'priceState' | 'priceNote'>;

function modelUsageOf(stats: Stats, key: string, facts: ModelFacts): ModelUsage {
  let found = stats.byModel.get(key);
  if (!found) {
    found = {
      ...emptyUsageTotals(),
      provider: facts.provider,
      model: facts.model,
      local: facts.local,
      priceKey: facts.priceKey,
      priceState: facts.priceState,
      priceNote: facts.priceNote,
    };
    stats.byModel.set(key, found);
  }
  return found;
}

function earliest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

function latest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

export function totalTokens(tokens: TokenCounts): number {
  return tokens.input + tokens.cacheRead + tokens.cacheWrite + tokens.output;
}

/** "provider/model" of every model with usage the table could not price, in whole or in part. */
export function unpricedModels(stats: Stats): { name: string; records: number; partial: boolean }[] {
  return [...stats.byModel.values()]
    .filter((m) => m.unpriced > 0 || m.partial > 0)
    .map((m) => ({ name: `${m.provider ?? '?'}/${m.model ?? '?'}`, records: m.unpriced + m.partial, partial: m.unpriced === 0 }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
