// Does bough's price agree with what the agent recorded, and if not, why most likely?
// Pure: per-record pairs in, a verdict out.

import type { Usage } from '../types.js';
import { SUBSCRIPTION_PROVIDERS } from './lookup.js';
import type { PricedUsage } from './price.js';

export type DifferenceReason =
  | 'unpriced model'
  | 'provider-billed total'
  | 'subscription provider'
  | 'free or local model'
  | 'model guessed for tool or summary usage'
  | 'different catalog';

export interface CostCheck {
  /** bough and the agent differ by more than a cent and more than 1%. */
  differs: boolean;
  /** The cause that explains most of the difference, when they differ. */
  reason: DifferenceReason | null;
  /** bough minus recorded, USD; null when either is unknown. */
  difference: number | null;
}

const CENT = 0.01;
const SHARE = 0.01;

export function checkCost(records: readonly { usage: Usage; priced: PricedUsage }[]): CostCheck {
  let bough = 0;
  let recorded = 0;
  let anyRecorded = false;
  const byReason = new Map<DifferenceReason, number>();
  for (const { usage, priced } of records) {
    const theirs = usage.recordedCost ?? 0;
    anyRecorded ||= usage.recordedCost !== null;
    recorded += theirs;
    bough += priced.cost ?? 0;
    const reason = reasonOf(usage, priced);
    // An unpriced record explains as much as the agent says it cost.
    const gap = priced.state === 'unpriced' || priced.state === 'partial' ? Math.max(theirs - (priced.cost ?? 0), 0) : (priced.cost ?? 0) - theirs;
    byReason.set(reason, (byReason.get(reason) ?? 0) + gap);
  }
  if (!anyRecorded) return { differs: false, reason: null, difference: null };
  const difference = bough - recorded;
  const differs = Math.abs(difference) > CENT && Math.abs(difference) > SHARE * Math.max(Math.abs(bough), Math.abs(recorded));
  if (!differs) return { differs, reason: null, difference };
  const [reason] = [...byReason].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0] ?? ['different catalog'];
  return { differs, reason, difference };
}

function reasonOf(usage: Usage, priced: PricedUsage): DifferenceReason {
  if (priced.state === 'unpriced' || priced.state === 'partial') return 'unpriced model';
  if (usage.recordedCostFromProvider) return 'provider-billed total';
  // Priced at API rates on request, a subscription still explains a $0 recorded cost.
  if (priced.state === 'subscription' || SUBSCRIPTION_PROVIDERS.has(usage.provider ?? '')) return 'subscription provider';
  if (priced.state === 'free' || priced.state === 'local') return 'free or local model';
  // Tool and summary usage names no model; bough priced it as the model in use.
  if (usage.modelGuessed) return 'model guessed for tool or summary usage';
  return 'different catalog';
}
