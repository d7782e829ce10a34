// Prices usage records: lookup, then arithmetic. Pure; the table and the options are injected,
// and lookups are remembered per model.

import type { Source, TokenCounts } from '../types.js';
import { costOf, type TokenKind } from './cost.js';
import { findPrice, type LookupOptions, type PriceHint } from './lookup.js';
import type { PriceTable } from './table.js';

/**
 * - priced: every token kind had a rate;
 * - partial: some kinds had none (e.g. no cache-read price): the cost covers the rest;
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
  missing: TokenKind[];
  note: string | null;
  /** The provider bills by subscription (even when priced at API rates on request). */
  subscription: boolean;
}

/** What pricing needs of a usage record: who billed it and its token counts. */
export interface Priceable extends TokenCounts {
  provider: string | null;
  model: string | null;
}

export type Pricer = (usage: Priceable, source: Source) => PricedUsage;

/** The price hint of a provider as the agent of `source` names it (from the source's reader and its configuration). */
export type PriceHints = (source: Source, provider: string | null) => PriceHint;

export interface PricerOptions extends LookupOptions {
  hints: PriceHints;
}

export function createPricer(table: PriceTable, options: PricerOptions): Pricer {
  const lookups = new Map<string, { lookup: ReturnType<typeof findPrice>; subscription: boolean }>();
  // The same record is priced for the totals, usage.csv and its session's page: once is enough.
  const priced = new WeakMap<Priceable, { source: Source; result: PricedUsage }>();
  const price = (usage: Priceable, source: Source): PricedUsage => {
    const memo = `${source}\0${usage.provider ?? ''}\0${usage.model ?? ''}`;
    let found = lookups.get(memo);
    if (!found) {
      const hint = options.hints(source, usage.provider);
      found = { lookup: findPrice(table, { provider: usage.provider, model: usage.model, hint }, options), subscription: hint.subscription };
      lookups.set(memo, found);
    }
    const { lookup, subscription } = found;
    switch (lookup.kind) {
      case 'unpriced':
        return { cost: null, state: 'unpriced', key: null, tier: null, missing: [], note: lookup.reason, subscription };
      case 'free':
        return {
          cost: 0,
          state: lookup.rule === 'free-model' ? 'free' : lookup.rule,
          key: lookup.key,
          tier: null,
          missing: [],
          note: FREE_NOTES[lookup.rule],
          subscription,
        };
      case 'priced': {
        const cost = costOf(lookup.price, usage);
        const notes = [
          cost.missing.length > 0 ? `no ${cost.missing.join(', ')} price in the table` : '',
          cost.derived.includes('cacheWrite1h') ? 'one-hour cache writes at twice the input rate' : '',
          cost.tier !== null ? `long-context rates (prompt above ${cost.tier.toLocaleString('en-US')} tokens)` : '',
        ].filter(Boolean);
        return {
          cost: cost.total,
          state: cost.missing.length > 0 ? 'partial' : 'priced',
          key: lookup.key,
          tier: cost.tier,
          missing: cost.missing,
          note: notes.length > 0 ? notes.join('; ') : null,
          subscription,
        };
      }
    }
  };
  return (usage, source) => {
    const known = priced.get(usage);
    if (known && known.source === source) return known.result;
    const result = price(usage, source);
    priced.set(usage, { source, result });
    return result;
  };
}

const FREE_NOTES = {
  'free-model': 'a free model: $0 by rule',
  local: 'a local model: $0 by rule',
  subscription: 'a subscription: $0 by rule',
} as const;
