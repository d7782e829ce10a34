// The cost of one usage record at one model's rates (pricing.md §6): tiers apply to the whole
// request once its prompt crosses the threshold; reasoning is inside output and never added
// again; one-hour cache writes have their own rate.

import type { TokenCounts } from '../types.js';
import type { ModelPrice, Rates } from './table.js';

export type TokenKind = 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'cacheWrite1h';

export interface Cost {
  /** USD for the tokens that have a price. */
  total: number;
  /** The tier threshold applied, or null for base rates. */
  tier: number | null;
  /** Token kinds present in the record that the table has no price for. */
  missing: TokenKind[];
  /** Rates bough derived rather than read (one-hour writes at twice the input rate). */
  derived: TokenKind[];
}

/** Anthropic bills one-hour cache writes at twice the input rate; used where the table lacks that field. */
const ONE_HOUR_WRITE_FACTOR = 2;

export function costOf(price: ModelPrice & { base: Rates }, tokens: TokenCounts): Cost {
  const prompt = tokens.input + tokens.cacheRead + tokens.cacheWrite;
  const tier = price.tiers.find((t) => prompt > t.threshold) ?? null;
  const rates: Rates = { ...price.base, ...tier?.rates };
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
  const oneHour = Math.min(tokens.cacheWrite1h, tokens.cacheWrite);
  let oneHourRate = rates.cacheWrite1h;
  if (oneHourRate === null && oneHour > 0 && rates.cacheWrite !== null) {
    oneHourRate = rates.input * ONE_HOUR_WRITE_FACTOR;
    derived.push('cacheWrite1h');
  }
  const total =
    part('input', tokens.input, rates.input) +
    part('output', tokens.output, rates.output) +
    part('cacheRead', tokens.cacheRead, rates.cacheRead) +
    part('cacheWrite', tokens.cacheWrite - oneHour, rates.cacheWrite) +
    part('cacheWrite1h', oneHour, oneHourRate);
  return { total, tier: tier?.threshold ?? null, missing, derived };
}
