// Requests an agent recorded only in its running totals of a session (Claude Code 2.1.3xx's
// `cost-state`: its compactions, side questions, the title it asks a model for; found by a review
// that ran it). Its totals, by model, hold everything the session spent up to where they were
// written, sub-agents included; what the session's files count by then is the rest: counted as
// usage of their own, at the time the totals were written. Only where the totals are of no
// fewer tokens of any kind for any model than the files count: where not (a model the totals
// name otherwise, totals that started again), nothing is known of the rest, and none is counted.

import type { RunningTotals, TokenCounts } from '../types.js';
import type { Counted } from './claims.js';
import type { LedgerEntry, LedgerUsage, SessionLedger } from './ledger.js';

const KINDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h'] as const;

type Sums = Record<(typeof KINDS)[number] | 'webSearches', number>;

/** One file of a session as counted: its ledger, its entries, what it counts of them. */
export interface CountedFile {
  ledger: SessionLedger;
  entries: readonly LedgerEntry[];
  counted: Counted;
}

/** What a usage entry of unrecorded spend is keyed by (never an entry of a file). */
export const UNRECORDED = 'running totals';

/**
 * Entries of the spend the main file's running totals hold beyond what the session's files
 * (`files`, the main one first) count, one at each point the totals grew past them; none when the
 * main file has no running totals.
 */
export function unrecordedSpend(files: readonly CountedFile[], untimedAt: number): LedgerEntry[] {
  const main = files[0];
  const checkpoints = main?.ledger.runningTotals;
  if (main === undefined || checkpoints === undefined || checkpoints.length === 0) return [];
  const usage = countedUsage(files, untimedAt);
  const found: LedgerEntry[] = [];
  /** What was counted apart so far, by model. */
  const apart = new Map<string, Sums>();
  let next = 0;
  const counted = new Map<string, Sums>();
  // In file order, each time the latest written before it: never earlier than the one before.
  for (const [index, checkpoint] of checkpoints.entries()) {
    for (; next < usage.length && (usage[next] as TimedUsage).time <= checkpoint.time; next++) {
      const { model, usage: record } = usage[next] as TimedUsage;
      add(sumsOf(counted, model), record, record.webSearches);
    }
    const rest = restOf(checkpoint, counted, apart);
    if (rest === null) break;
    if (rest.length === 0) continue;
    const key = `${UNRECORDED}#${index}@${main.ledger.key}`;
    found.push({
      key,
      id: key,
      time: checkpoint.time,
      turn: null,
      outcome: null,
      usage: rest.map(({ model, counts, webSearches, cost }) => ({
        key: `${key}#${model}`,
        time: checkpoint.time,
        origin: 'usage-entry',
        provider: 'anthropic',
        model,
        modelGuessed: false,
        recordedCostFromProvider: false,
        recordedCost: cost,
        outputPartial: false,
        fast: false,
        webSearches,
        responseId: null,
        ...counts,
        reasoning: 0,
      })),
      calls: [],
      result: null,
    });
  }
  return found;
}

interface TimedUsage {
  time: number;
  model: string;
  usage: LedgerUsage;
}

/** The usage the files count, each at its time (else its entry's, else the session's), oldest first. */
function countedUsage(files: readonly CountedFile[], untimedAt: number): TimedUsage[] {
  const found: TimedUsage[] = [];
  for (const { entries, counted } of files) {
    let u = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as LedgerEntry;
      for (const usage of entry.usage) {
        if (counted.usage[u++] === 1) found.push({ time: usage.time ?? entry.time ?? untimedAt, model: usage.model ?? '', usage });
      }
    }
  }
  return found.sort((a, b) => a.time - b.time);
}

function sumsOf(map: Map<string, Sums>, model: string): Sums {
  let sums = map.get(model);
  if (sums === undefined) map.set(model, (sums = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, webSearches: 0 }));
  return sums;
}

function add(into: Sums, counts: Pick<TokenCounts, (typeof KINDS)[number]>, webSearches: number): void {
  for (const kind of KINDS) into[kind] += counts[kind];
  into.webSearches += webSearches;
}

/**
 * What the totals hold beyond what was counted and counted apart, by model (those it grew for);
 * null when they hold less of any kind for any model than was counted (then nothing is known of
 * the rest). What is returned is counted apart from then on.
 */
function restOf(checkpoint: RunningTotals, counted: ReadonlyMap<string, Sums>, apart: Map<string, Sums>): { model: string; counts: Pick<TokenCounts, (typeof KINDS)[number]>; webSearches: number; cost: null }[] | null {
  const totals = new Map(checkpoint.models.map((m) => [m.model, m]));
  for (const [model, sums] of counted) {
    const total = totals.get(model);
    if (total === undefined) {
      if (KINDS.some((kind) => sums[kind] > 0) || sums.webSearches > 0) return null;
      continue;
    }
    if (KINDS.some((kind) => total.counts[kind] < sums[kind]) || total.webSearches < sums.webSearches) return null;
  }
  const rest: { model: string; counts: Pick<TokenCounts, (typeof KINDS)[number]>; webSearches: number; cost: null }[] = [];
  for (const total of checkpoint.models) {
    const seen = counted.get(total.model);
    const before = sumsOf(apart, total.model);
    const grown = (kind: keyof Sums) => Math.max(0, (kind === 'webSearches' ? total.webSearches : total.counts[kind]) - (seen?.[kind] ?? 0) - before[kind]);
    const counts = { input: grown('input'), output: grown('output'), cacheRead: grown('cacheRead'), cacheWrite: grown('cacheWrite'), cacheWrite1h: 0 };
    counts.cacheWrite1h = Math.min(grown('cacheWrite1h'), counts.cacheWrite);
    const webSearches = grown('webSearches');
    if (counts.input + counts.output + counts.cacheRead + counts.cacheWrite === 0 && webSearches === 0) continue;
    add(before, counts, webSearches);
    rest.push({ model: total.model, counts, webSearches, cost: null });
  }
  return rest;
}
