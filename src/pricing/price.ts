// Prices usage records: lookup, then arithmetic. Pure; the table and the options are injected,
// and lookups are remembered per model.

import type { Source } from '../types.js';
import { costOf, type Billed, type TokenKind } from './cost.js';
import { findPrice, type LookupOptions, type PriceHint } from './lookup.js';
import type { PriceTable } from './table.js';

/**
 * - priced: every token kind had a rate;
 * - partial: some kinds had none (e.g. no cache-read price): the cost covers the rest; or the
 *   record gives no token counts (only a cost): its cost is null;
 * - free / local / subscription: $0 by rule;
 * - unpriced: the table does not know the model; never shown as $0.
 */
export type PriceState = 'priced' | 'partial' | 'free' | 'local' | 'subscription' | 'unpriced';

export interface PricedUsage {
  /** USD, or null when unpriced. */
  cost: number | null;
  state: PriceState;
  /** The table entry used (or the rule's name for $0 rules). */
  key: string | null;
  tier: number | null;
  missing: readonly TokenKind[];
  note: string | null;
  /** The provider bills by subscription (even when priced at API rates on request). */
  subscription: boolean;
}

/** What pricing needs of a usage record: who billed it, its token counts, its speed and searches. */
export interface Priceable extends Billed {
  provider: string | null;
  model: string | null;
  /** The model asked for, where another answered: priced in its place when the table does not know the one that answered. */
  requestedModel?: string | null;
  /** The record names no model (a summary's): `model` is the one in use, which made it. */
  modelGuessed?: boolean;
}

/** `file`: the session file the usage was read from, whose agent's home may say what runs locally. */
export type Pricer = (usage: Priceable, source: Source, file: string | null) => PricedUsage;

/**
 * The price hint of a provider as the agent of `source` names it (from the source's reader and its
 * configuration: the home `file` lies in, or this machine's). The same object for the same answer.
 */
export type PriceHints = (source: Source, provider: string | null, file: string | null) => PriceHint;

export interface PricerOptions extends LookupOptions {
  hints: PriceHints;
}

export function createPricer(table: PriceTable, options: PricerOptions): Pricer {
  // Every record of a provider and model is looked up once. A record that is unpriced or free has
  // the same answer as every other of its model: one object for all of them. The answers are not
  // kept per record: the main thread would hold one for each record of the history (20 MB for 300 MB
  // of sessions), and pricing a record again costs a few multiplications.
  // By the hint (one per agent, home and provider), then the model.
  const answers = new Map<PriceHint, Map<string, Answer>>();
  const priceOne: Pricer = (usage, source, file) => {
    const hint = options.hints(source, usage.provider, file);
    let lookups = answers.get(hint);
    if (lookups === undefined) {
      lookups = new Map();
      answers.set(hint, lookups);
    }
    const memo = `${usage.model ?? ''}\0${usage.requestedModel ?? ''}\0${usage.modelGuessed === true}`;
    let answer = lookups.get(memo);
    if (!answer) {
      const answered = findPrice(table, { provider: usage.provider, model: usage.model, hint }, options);
      // A relay's or a gateway's own id for the model that answered, which the table does not
      // know: the model asked for, as the agent itself prices it (pi.md §9), rather than no price.
      const requested = usage.requestedModel ?? null;
      const asked = answered.kind === 'unpriced' && answered.notInTable && requested !== null && requested !== usage.model ? findPrice(table, { provider: usage.provider, model: requested, hint }, options) : null;
      const guessed = usage.modelGuessed && usage.model !== null ? `a summary, which names no model: priced as ${usage.model}, the model in use, which made it` : null;
      answer = asked !== null && asked.kind !== 'unpriced' ? answerFor(asked, hint, `priced as ${requested}, the model asked for: the table does not know ${usage.model}, which answered`) : answerFor(answered, hint, answered.kind === 'priced' ? guessed : null);
      lookups.set(memo, answer);
    }
    if ('same' in answer) return answer.same;
    const { lookup, subscription, writesAsInput, note } = answer;
    // A priced model's record that gives no token counts: nothing to multiply, and never $0.
    if (usage.countsUnknown) return { cost: null, state: 'partial', key: lookup.key, tier: null, missing: [], note: 'no token counts recorded', subscription };
    const cost = costOf(lookup.price, writesAsInput ? withWritesAsInput(usage) : usage);
    return {
      cost: cost.total,
      state: cost.missing.length > 0 || usage.countsLeftOut ? 'partial' : 'priced',
      key: lookup.key,
      tier: cost.tier,
      missing: cost.missing,
      note: [note, priceNote(cost, usage.countsLeftOut === true, usage.largestPrompt !== undefined && lookup.price.tiers.length > 0, usage.flex === true && usage.fast !== true)].filter(Boolean).join('; ') || null,
      subscription,
    };
  };
  // A record of no tokens and no searches costs nothing at any rate: known, whatever its model
  // (a tool's record of zeros names none; a failed request's, one the table may not know).
  return (usage, source, file) => {
    const priced = priceOne(usage, source, file);
    return (priced.state === 'unpriced' || priced.state === 'partial') && nothingBilled(usage) ? NOTHING_BILLED : priced;
  };
}

/** A record of no tokens and no searches, as priced: $0, no table entry named. */
export const NOTHING_BILLED: PricedUsage = Object.freeze({ cost: 0, state: 'priced', key: null, tier: null, missing: [], note: null, subscription: false });

function nothingBilled(usage: Priceable): boolean {
  return usage.input === 0 && usage.output === 0 && usage.cacheRead === 0 && usage.cacheWrite === 0 && (usage.webSearches ?? 0) === 0 && !usage.countsUnknown && !usage.countsLeftOut;
}

/** The price note of a flex-tier record the table has no flex rates for: a model row's badge tells it by this. */
export const NO_FLEX_RATE = 'flex tier, but the table has no rates for it: priced at standard rates';

/** The price note of a fast-mode record the table has no fast-mode rate for: a model row's badge tells it by this. */
export const NO_FAST_RATE = 'fast mode, but the table has no fast-mode rate: priced at standard rates';

/** What to say of how a record was priced, when anything. */
function priceNote(cost: ReturnType<typeof costOf>, countsLeftOut: boolean, tierJudged: boolean, flexAsked: boolean): string | null {
  const flexWithoutRates = flexAsked && !cost.flex;
  const oneHour = cost.derived.includes('cacheWrite1h');
  const missingTokens = cost.missing.filter((kind) => kind !== 'fastMode' && kind !== 'usOnly' && kind !== 'webSearch');
  const notes = [
    missingTokens.length > 0 ? `no ${missingTokens.join(', ')} price in the table` : '',
    oneHour ? 'one-hour cache writes at twice the input rate' : '',
    cost.tier !== null ? `long-context rates (prompt above ${cost.tier.toLocaleString('en-US')} tokens)` : '',
    cost.fastMultiplier !== null ? `fast mode: ${cost.fastMultiplier}× the standard rates` : '',
    cost.priority ? 'fast mode: billed at the priority tier’s rates' : '',
    cost.flex ? 'flex tier: billed at its rates' : flexWithoutRates ? NO_FLEX_RATE : '',
    cost.missing.includes('fastMode') ? NO_FAST_RATE : '',
    cost.usOnlyMultiplier !== null ? `US-only inference: ${cost.usOnlyMultiplier}× the standard rates` : '',
    cost.missing.includes('usOnly') ? 'US-only inference, but the table has no rate for it: priced at standard rates' : '',
    cost.webSearches > 0 && !cost.missing.includes('webSearch') ? 'web searches billed per search' : '',
    cost.missing.includes('webSearch') ? 'web searches, but the table has no price for them: not in the cost' : '',
    countsLeftOut ? 'a token count that could not be read is left out' : '',
    // A record of several requests' sums: whether one passed a long-context tier is judged, not known.
    tierJudged ? 'the sums of several requests: long-context rates judged by the largest prompt they tell of' : '',
  ].filter(Boolean);
  return notes.length > 0 ? notes.join('; ') : null;
}

type Lookup = ReturnType<typeof findPrice>;

/**
 * What a model's lookup says of its records: one answer for all (unpriced, free), or the price to
 * work each one out with, and whether their cache writes are priced as the input they are part of.
 */
type Answer = { same: PricedUsage } | { lookup: Extract<Lookup, { kind: 'priced' }>; subscription: boolean; writesAsInput: boolean; note: string | null };

/** `note`: said of every record the answer prices (why it is priced by another model's entry). */
function answerFor(lookup: Lookup, hint: PriceHint, note: string | null = null): Answer {
  const { subscription } = hint;
  switch (lookup.kind) {
    case 'unpriced':
      return { same: Object.freeze({ cost: null, state: 'unpriced', key: null, tier: null, missing: [], note: lookup.reason, subscription }) };
    case 'free':
      return {
        same: Object.freeze({
          cost: 0,
          state: lookup.rule === 'free-model' ? 'free' : lookup.rule,
          key: lookup.key,
          tier: null,
          missing: [],
          note: note ?? FREE_NOTES[lookup.rule],
          subscription,
        }),
      };
    case 'priced': {
      const filled = lookup.filledFrom === undefined ? null : `the prices ${lookup.key} lacks taken from ${lookup.filledFrom}`;
      const proxied = lookup.proxied ? `served at this machine's address, as a proxy in front of its maker's API is: priced as ${lookup.key}` : null;
      return { lookup, subscription, writesAsInput: hint.cacheWritesInInput === true && !pricesCacheWrites(lookup.price), note: [note, proxied, filled].filter(Boolean).join('; ') || null };
    }
  }
}

function pricesCacheWrites(price: Extract<Lookup, { kind: 'priced' }>['price']): boolean {
  return price.base.cacheWrite !== null || price.tiers.some((tier) => tier.rates.cacheWrite !== undefined && tier.rates.cacheWrite !== null);
}

/** Cache writes counted as the input they are part of: a provider without a write price bills them so. */
function withWritesAsInput(usage: Priceable): Priceable {
  return { ...usage, input: usage.input + usage.cacheWrite, cacheWrite: 0, cacheWrite1h: 0 };
}

const FREE_NOTES = {
  'free-model': 'a free model: $0 by rule',
  local: 'a local model: $0 by rule',
  subscription: 'a subscription: $0 by rule',
} as const;
