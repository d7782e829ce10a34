// Does bough's price agree with what the agent recorded, and if not, why most likely?
// Pure: per-record pairs in, a verdict out.

import type { PricedUsage } from './price.js';
import { UNLIKELY_TOKENS_PER_REQUEST } from '../sources/usage-check.js';

export type DifferenceReason =
  | 'unpriced model'
  | 'no model recorded'
  | 'no token counts'
  | 'token count left out'
  | 'model priced in part'
  | 'a token count to be checked'
  | 'long-context or one-hour cache rates'
  | 'long-context rates judged from sums'
  | 'provider-billed total'
  | 'subscription provider'
  | 'free or local model'
  | 'model guessed for summary usage'
  | 'a service tier the session does not record'
  | 'different catalog';

/** What the check needs of a usage record besides its price. */
export interface RecordedUsage {
  /** The provider the record names: OpenAI's service tiers are told by it. */
  provider: string | null;
  /** The model the record names: none (a Pi tool's own model use) is no model missing from the table. */
  model: string | null;
  recordedCost: number | null;
  recordedCostFromProvider: boolean;
  modelGuessed: boolean;
  cacheWrite1h: number;
  /** The record gives a cost but no token counts: nothing for bough to price. */
  countsUnknown?: boolean;
  /** The record sums several requests: whether one passed a long-context tier is judged from the sums. */
  largestPrompt?: number;
  /** A token count of the record could not be read or could not be true, and was left out. */
  countsLeftOut?: boolean;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface CostCheck {
  /**
   * bough and the agent differ: over the records with a recorded cost by more than a cent and 1%,
   * or on some record by more than $0.0001 and 1% (pricing.md: per message, since differences of
   * records may cancel out over a session).
   */
  differs: boolean;
  /** The records with a recorded cost whose own price differs from it by more than $0.0001 and 1%. */
  differingRecords: number;
  /** The records with a recorded cost that bough priced in full: the ones compared. */
  comparedRecords: number;
  /**
   * Some record with a recorded cost could not be priced in full: bough's own cost is unknown in
   * part, so the totals are not compared (`difference` is null); the records it priced still are.
   */
  incomplete: boolean;
  /** Why it is incomplete: a model not in the price table, one it prices in part, or a record without token counts. */
  incompleteBy: 'unpriced model' | 'no model recorded' | 'model priced in part' | 'no token counts' | 'token count left out' | null;
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
/** A message's own difference counts past this much (and SHARE of it). */
const RECORD_TOLERANCE = 0.0001;

export const NO_RECORDED_COST: CostCheck = { differs: false, differingRecords: 0, comparedRecords: 0, incomplete: false, incompleteBy: null, unrecorded: 0, reason: null, difference: null };

function apart(a: number, b: number, tolerance: number): boolean {
  const difference = Math.abs(a - b);
  return difference > tolerance && difference > SHARE * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * Whether bough's price and the recorded cost of a session's records differ, and why; taken record
 * by record as they are priced, so that a long session's records and prices are not held to the end.
 * Only records with a recorded cost are compared: one without is not a recorded $0.
 */
export function costCheck(): { add(usage: RecordedUsage, priced: PricedUsage): void; result(): CostCheck } {
  let bough = 0;
  let recorded = 0;
  /** Over the records priced in full: what is compared when some are not. */
  let pricedBough = 0;
  let pricedRecorded = 0;
  let anyRecorded = false;
  let unrecorded = 0;
  let incomplete = false;
  let partial = false;
  let countless = false;
  /** Some record is priced in part for a rate the table lacks, or only for a count left out. */
  let rateMissing = false;
  let leftOut = false;
  /** Unpriced records: some naming no model, some naming one the table lacks. */
  let modelless = false;
  let namedUnpriced = false;
  let differingRecords = 0;
  let comparedRecords = 0;
  const byReason = new Map<DifferenceReason, number>();
  return {
    add(usage, priced) {
      const theirs = usage.recordedCost;
      if (theirs === null) {
        unrecorded++;
        return;
      }
      anyRecorded = true;
      recorded += theirs;
      bough += priced.cost ?? 0;
      if (priced.state === 'unpriced' || priced.state === 'partial') {
        // An unknown cost is not $0: a difference from it would be made up. The others are still compared.
        incomplete = true;
        partial ||= priced.state === 'partial';
        countless ||= usage.countsUnknown === true;
        rateMissing ||= priced.state === 'partial' && priced.missing.length > 0;
        leftOut ||= usage.countsLeftOut === true;
        if (priced.state === 'unpriced') {
          if (usage.model === null) modelless = true;
          else namedUnpriced = true;
        }
        return;
      }
      pricedBough += priced.cost ?? 0;
      pricedRecorded += theirs;
      comparedRecords++;
      if (priced.cost !== null && apart(priced.cost, theirs, RECORD_TOLERANCE)) differingRecords++;
      const reason = reasonOf(usage, priced);
      // Each cause weighs by what it moves, in either direction: records that cancel out over the session still explain it.
      byReason.set(reason, (byReason.get(reason) ?? 0) + Math.abs((priced.cost ?? 0) - theirs));
    },
    result() {
      if (!anyRecorded) return NO_RECORDED_COST;
      const incompleteBy = !incomplete ? null : countless ? 'no token counts' : partial && leftOut && !rateMissing ? 'token count left out' : partial ? 'model priced in part' : modelless && !namedUnpriced ? 'no model recorded' : 'unpriced model';
      const difference = incomplete ? null : bough - recorded;
      const differs = apart(pricedBough, pricedRecorded, CENT) || differingRecords > 0;
      if (!differs) return { differs, differingRecords, comparedRecords, incomplete, incompleteBy, unrecorded, reason: incompleteBy, difference };
      const [reason] = [...byReason].sort((a, b) => b[1] - a[1])[0] ?? ['different catalog'];
      return { differs, differingRecords, comparedRecords, incomplete, incompleteBy, unrecorded, reason, difference };
    },
  };
}

function reasonOf(usage: RecordedUsage, priced: PricedUsage): DifferenceReason {
  if (usage.countsUnknown) return 'no token counts';
  if (priced.state === 'unpriced') return usage.model === null ? 'no model recorded' : 'unpriced model';
  if (priced.state === 'partial' && usage.countsLeftOut && priced.missing.length === 0) return 'token count left out';
  if (priced.state === 'partial') return 'model priced in part';
  if (usage.recordedCostFromProvider) return 'provider-billed total';
  // Priced at API rates on request, a subscription still explains a $0 recorded cost.
  if (priced.state === 'subscription' || priced.subscription) return 'subscription provider';
  if (priced.state === 'free' || priced.state === 'local') return 'free or local model';
  // Summary usage names no model; bough priced it as the model in use.
  if (usage.modelGuessed) return 'model guessed for summary usage';
  // A count larger than any model's context, counted as written (the data-quality page says so):
  // a damaged count rather than rates, whatever tier it then falls in.
  if (usage.largestPrompt === undefined && [usage.input, usage.output, usage.cacheRead, usage.cacheWrite].some((n) => n > UNLIKELY_TOKENS_PER_REQUEST)) return 'a token count to be checked';
  // A sub-agent run given by its sums: its requests' tiers were judged, the agent knew them.
  if (usage.largestPrompt !== undefined && priced.tier === null) return 'long-context rates judged from sums';
  // Rates an agent's own catalog may not apply: a prompt past a long-context threshold, one-hour cache writes.
  if (priced.tier !== null || usage.cacheWrite1h > 0) return 'long-context or one-hour cache rates';
  // OpenAI's service tiers, which Pi prices but does not record (pi.md: flex ½×, priority 2×, 2.5×
  // on gpt-5.5): a recorded cost at one of those multiples of the standard price, from OpenAI's
  // own API. On another provider's reply (Azure's too, which Pi prices at list) such a multiple
  // is another price (one set in Pi's models.json).
  const ratio = usage.recordedCost !== null && priced.cost !== null && priced.cost > 0 ? usage.recordedCost / priced.cost : null;
  const tiered = usage.provider === 'openai' || usage.provider === 'openai-codex';
  if (tiered && ratio !== null && SERVICE_TIER_MULTIPLES.some((times) => Math.abs(ratio - times) <= times / 100)) return 'a service tier the session does not record';
  return 'different catalog';
}

/** What OpenAI's flex and priority service tiers cost, as multiples of the standard price. */
const SERVICE_TIER_MULTIPLES = [0.5, 2, 2.5];
