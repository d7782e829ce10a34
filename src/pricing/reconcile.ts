// Does bough's price agree with what the agent recorded, and if not, why most likely?
// Pure: per-record pairs in, a verdict out.

import type { PricedUsage } from './price.js';

export type DifferenceReason =
  | 'unpriced model'
  | 'provider-billed total'
  | 'subscription provider'
  | 'free or local model'
  | 'model guessed for tool or summary usage'
  | 'different catalog';

/** What the check needs of a usage record besides its price. */
export interface RecordedUsage {
  recordedCost: number | null;
  recordedCostFromProvider: boolean;
  modelGuessed: boolean;
}

export interface CostCheck {
  /** bough and the agent differ by more than a cent and more than 1%, over the records with a recorded cost. */
  differs: boolean;
  /** Some record with a recorded cost could not be priced in full: bough's own cost is unknown in part, so nothing is compared. */
  incomplete: boolean;
  /**
   * Records the agent stored no cost for beside others it did (Claude Code stopped writing one in
   * 1.0.9, mid-session for a session resumed across the upgrade): left out of the comparison.
   */
  unrecorded: number;
  /** The cause that explains most of the difference, or why nothing is compared. */
  reason: DifferenceReason | null;
  /** bough minus recorded, USD; null when either is unknown in whole or in part. */
  difference: number | null;
}

const CENT = 0.01;
const SHARE = 0.01;

export const NO_RECORDED_COST: CostCheck = { differs: false, incomplete: false, unrecorded: 0, reason: null, difference: null };

/**
 * Whether bough's price and the recorded cost of a session's records differ, and why; taken record
 * by record as they are priced, so that a long session's records and prices are not held to the end.
 * Only records with a recorded cost are compared: one without is not a recorded $0.
 */
export function costCheck(): { add(usage: RecordedUsage, priced: PricedUsage): void; result(): CostCheck } {
  let bough = 0;
  let recorded = 0;
  let anyRecorded = false;
  let unrecorded = 0;
  let incomplete = false;
  const byReason = new Map<DifferenceReason, number>();
  return {
    add(usage, priced) {
      const theirs = usage.recordedCost;
      if (theirs === null) {
        unrecorded++;
        return;
      }
      anyRecorded = true;
      incomplete ||= priced.state === 'unpriced' || priced.state === 'partial';
      recorded += theirs;
      bough += priced.cost ?? 0;
      const reason = reasonOf(usage, priced);
      byReason.set(reason, (byReason.get(reason) ?? 0) + (priced.cost ?? 0) - theirs);
    },
    result() {
      if (!anyRecorded) return NO_RECORDED_COST;
      // An unknown cost is not $0: a difference from it would be made up.
      if (incomplete) return { differs: false, incomplete: true, unrecorded, reason: 'unpriced model', difference: null };
      const difference = bough - recorded;
      const differs = Math.abs(difference) > CENT && Math.abs(difference) > SHARE * Math.max(Math.abs(bough), Math.abs(recorded));
      if (!differs) return { differs, incomplete: false, unrecorded, reason: null, difference };
      const [reason] = [...byReason].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0] ?? ['different catalog'];
      return { differs, incomplete: false, unrecorded, reason, difference };
    },
  };
}

function reasonOf(usage: RecordedUsage, priced: PricedUsage): DifferenceReason {
  if (priced.state === 'unpriced' || priced.state === 'partial') return 'unpriced model';
  if (usage.recordedCostFromProvider) return 'provider-billed total';
  // Priced at API rates on request, a subscription still explains a $0 recorded cost.
  if (priced.state === 'subscription' || priced.subscription) return 'subscription provider';
  if (priced.state === 'free' || priced.state === 'local') return 'free or local model';
  // Tool and summary usage names no model; bough priced it as the model in use.
  if (usage.modelGuessed) return 'model guessed for tool or summary usage';
  return 'different catalog';
}
