// Counts and sums over entries: what a session, a project and the whole archive add up to.

import type { Entry, TokenCounts, Usage } from '../types.js';

/** Prices one usage record in USD; null when the model is not priced. Injected so the model stays pure. */
export type PriceUsage = (usage: Usage) => number | null;

export interface Cost {
  /** bough's own price from the table; null until priced, or when nothing could be priced. */
  bough: number | null;
  /** What the agent recorded; null when it recorded none. */
  recorded: number | null;
}

export interface UsageTotals {
  tokens: TokenCounts;
  cost: Cost;
  records: number;
}

/** Usage of one billed model (provider and model as the source reported them). */
export interface ModelUsage extends UsageTotals {
  provider: string | null;
  model: string | null;
  local: boolean;
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
  return { tokens: zeroTokens(), cost: { bough: null, recorded: null }, records: 0 };
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

export function addUsage(into: UsageTotals, usage: Usage, price: PriceUsage | null): void {
  for (const kind of TOKEN_KINDS) into.tokens[kind] += usage[kind];
  into.cost.recorded = addMoney(into.cost.recorded, usage.recordedCost);
  if (price) into.cost.bough = addMoney(into.cost.bough ?? 0, price(usage));
  into.records++;
}

function addUsageTotals(into: UsageTotals, from: UsageTotals): void {
  for (const kind of TOKEN_KINDS) into.tokens[kind] += from.tokens[kind];
  into.cost.recorded = addMoney(into.cost.recorded, from.cost.recorded);
  into.cost.bough = addMoney(into.cost.bough, from.cost.bough);
  into.records += from.records;
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
export function addEntry(into: Stats, entry: Entry, price: PriceUsage | null): void {
  if (entry.kind === 'prompt') into.prompts++;
  if (entry.kind === 'reply') {
    into.replies++;
    if (entry.stopReason === 'error') into.errorReplies++;
    if (entry.stopReason === 'aborted') into.abortedReplies++;
  }
  for (const usage of entry.usage) {
    addUsage(into, usage, price);
    if (usage.origin === 'subagent') addUsage(into.subagents, usage, price);
    addUsage(modelUsageOf(into, `${usage.provider ?? ''}/${usage.model ?? ''}`, usage), usage, price);
  }
  into.firstAt = earliest(into.firstAt, entry.timestamp);
  into.lastAt = latest(into.lastAt, entry.timestamp);
}

function modelUsageOf(stats: Stats, key: string, like: { provider: string | null; model: string | null; local: boolean }): ModelUsage {
  let found = stats.byModel.get(key);
  if (!found) {
    found = { ...emptyUsageTotals(), provider: like.provider, model: like.model, local: like.local };
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
  return tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
}
