// The cost of one usage record at one model's rates (pricing.md §6): tiers apply to the whole
// request once its prompt crosses the threshold; reasoning is inside output and never added
// again; one-hour cache writes have their own rate; fast mode and US-only inference multiply the
// tokens' cost; web searches are billed per search, on top.

import type { TokenCounts } from '../types.js';
import type { ModelPrice, Rates, ServiceTierRates } from './table.js';

/** What a record is billed for: its kinds of tokens, fast mode's multiple of them, its web searches. */
export type TokenKind = 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'cacheWrite1h' | 'fastMode' | 'usOnly' | 'webSearch';

/** What pricing needs of a record beyond its tokens; absent means standard speed and no searches. */
export interface Billed extends TokenCounts {
  fast?: boolean;
  /** Served by US-only inference: billed at the model's data-residency multiple. */
  usOnly?: boolean;
  /** Served in OpenAI's flex service tier: billed at the table's flex rates. */
  flex?: boolean;
  webSearches?: number;
  /** A token count of the record could not be read and is left out (see usage-check.ts): its cost is known in part only. */
  countsLeftOut?: boolean;
  /** The record gives no token counts at all: what the table would charge is unknown. */
  countsUnknown?: boolean;
  /**
   * The record sums several requests: the prompt of the largest, which a long-context tier goes
   * by (pricing.md §6.5: per request), not the prompts summed.
   */
  largestPrompt?: number;
}

export interface Cost {
  /** USD for the tokens that have a price. */
  total: number;
  /** The tier threshold applied, or null for base rates. */
  tier: number | null;
  /** Token kinds present in the record that the table has no price for. */
  missing: TokenKind[];
  /** Rates bough derived rather than read (one-hour writes at twice the input rate). */
  derived: TokenKind[];
  /** The fast-mode multiple applied to the tokens, or null at standard speed (or when the table has none). */
  fastMultiplier: number | null;
  /** Fast mode billed at the table's priority-tier rates (OpenAI's: Codex's fast mode). */
  priority: boolean;
  /** Billed at the table's flex-tier rates; false for a flex record whose model the table gives none (standard rates). */
  flex: boolean;
  /** The US-only inference multiple applied to the tokens, or null (not asked for, or the table has none). */
  usOnlyMultiplier: number | null;
  /** Web searches priced (at `webSearch` each). */
  webSearches: number;
}

/** Anthropic bills one-hour cache writes at twice the input rate; used where the table lacks that field. */
const ONE_HOUR_WRITE_FACTOR = 2;

export function costOf(price: ModelPrice & { base: Rates }, tokens: Billed): Cost {
  const prompt = tokens.largestPrompt ?? tokens.input + tokens.cacheRead + tokens.cacheWrite;
  const tier = price.tiers.find((t) => prompt > t.threshold) ?? null;
  const rates: Rates = { ...price.base, ...tier?.rates };
  // A tier that prices input but not one-hour writes: they are twice its input (as Anthropic bills
  // them), never the base rate, which would put them below the tier's five-minute writes.
  if (tier !== null && tier.rates.input !== undefined && tier.rates.cacheWrite1h === undefined) rates.cacheWrite1h = null;
  const missing: TokenKind[] = [];
  const derived: TokenKind[] = [];
  const part = (kind: TokenKind, count: number, perToken: number | null): number => {
    if (count === 0) return 0;
    if (perToken === null) {
      missing.push(kind);
      return 0;
    }
    return count * perToken;
  };
  // Fast mode where the table has no multiple for it but priority-tier rates (OpenAI's models,
  // Codex's fast mode), and the flex tier: each kind of token at the multiple its tier's rate is
  // of its standard one, on top of a long-context tier.
  const fast = tokens.fast === true;
  const priority = fast && price.fastMultiplier === null && price.priority ? price.priority : null;
  if (priority !== null) atServiceTier(rates, price.base, priority);
  const flex = tokens.flex === true && !fast && price.flex ? price.flex : null;
  if (flex !== null) atServiceTier(rates, price.base, flex);
  const oneHour = Math.min(tokens.cacheWrite1h, tokens.cacheWrite);
  let oneHourRate = rates.cacheWrite1h;
  // Whether or not the table prices five-minute writes: Pi prices one-hour ones so too (pi.md §22).
  if (oneHourRate === null && oneHour > 0) {
    oneHourRate = rates.input * ONE_HOUR_WRITE_FACTOR;
    derived.push('cacheWrite1h');
  }
  const tokenCost =
    part('input', tokens.input, rates.input) +
    part('output', tokens.output, rates.output) +
    part('cacheRead', tokens.cacheRead, rates.cacheRead) +
    part('cacheWrite', tokens.cacheWrite - oneHour, rates.cacheWrite) +
    part('cacheWrite1h', oneHour, oneHourRate);
  // Fast mode multiplies what the tokens cost (pricing.md §6 step 5). Without a multiple in the
  // table the tokens stay at standard rates, and the record says its cost is short.
  const fastMultiplier = fast ? price.fastMultiplier : null;
  if (fast && fastMultiplier === null && priority === null) missing.push('fastMode');
  // US-only inference multiplies them too (pricing.md §1: `provider_specific_entry.us`), on top of fast mode.
  const usOnly = tokens.usOnly === true;
  const usOnlyMultiplier = usOnly ? price.usOnlyMultiplier : null;
  if (usOnly && usOnlyMultiplier === null) missing.push('usOnly');
  const webSearches = tokens.webSearches ?? 0;
  const total = tokenCost * (fastMultiplier ?? 1) * (usOnlyMultiplier ?? 1) + part('webSearch', webSearches, price.webSearch);
  return { total, tier: tier?.threshold ?? null, missing, derived, fastMultiplier, priority: priority !== null, flex: flex !== null, usOnlyMultiplier, webSearches };
}

/**
 * `rates` (standard, or a long-context tier's) at a service tier's: each kind at the multiple the
 * tier's rate is of the standard `base` one; kinds it gives no rate of (cache writes, and reads
 * where it gives none), at input's multiple.
 */
function atServiceTier(rates: Rates, base: Rates, tier: ServiceTierRates): void {
  // A standard rate of 0 has no multiple: the tier's rate itself.
  const times = (standard: number, tierRate: number) => (standard > 0 ? tierRate / standard : null);
  const inputTimes = times(base.input, tier.input);
  const readTimes = tier.cacheRead !== null && base.cacheRead ? times(base.cacheRead, tier.cacheRead) : inputTimes;
  const outputTimes = times(base.output, tier.output);
  const scaled = (rate: number, by: number | null, otherwise: number) => (by === null ? otherwise : rate * by);
  rates.input = scaled(rates.input, inputTimes, tier.input);
  rates.output = scaled(rates.output, outputTimes, tier.output);
  if (rates.cacheRead !== null) rates.cacheRead = scaled(rates.cacheRead, readTimes, tier.cacheRead ?? rates.cacheRead);
  if (rates.cacheWrite !== null) rates.cacheWrite = scaled(rates.cacheWrite, inputTimes, rates.cacheWrite);
  if (rates.cacheWrite1h !== null) rates.cacheWrite1h = scaled(rates.cacheWrite1h, inputTimes, rates.cacheWrite1h);
}
