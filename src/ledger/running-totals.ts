// Requests an agent recorded only in its running totals of a session (Claude Code 2.1.3xx's
// `cost-state`: its compactions, side questions, the title it asks a model for; found by a review
// that ran it). Its totals, by model, hold everything the session spent up to where they were
// written, sub-agents included (written when a process ends: what they hold was spent before
// the next process wrote anything); beyond what the session's files count by then is the rest:
// counted as usage of its own, placed where the totals were written. A copy's first totals hold
// its origin's too: those after them are measured from them. The totals name a model as asked
// for, the files as it answered: one the files count more of is paired with another name of it
// (restOf). Where the totals hold less than the files in all (totals that started again, a later
// process's clock behind), nothing is known of the rest there, and none is counted.

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
  /**
   * A copy of another session (claims.ts), whose running totals hold what it copied and does not
   * count (its origin does), even where its reader saw no sign of a copy (every line's session id
   * rewritten as its own).
   */
  copy?: boolean;
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
  /** What was counted apart so far, by model; from a copy's first totals, those totals. */
  const apart = new Map<string, Sums>();
  let next = 0;
  const counted = new Map<string, Sums>();
  // In file order: each bound no earlier than the one before.
  for (const [index, checkpoint] of checkpoints.entries()) {
    const bound = checkpoint.until === null ? Infinity : Math.max(checkpoint.until, checkpoint.time + 1);
    for (; next < usage.length && (usage[next] as TimedUsage).time < bound; next++) {
      const { model, usage: record } = usage[next] as TimedUsage;
      add(sumsOf(counted, sameModel(model)), record, record.webSearches);
    }
    if (checkpoint.baseline) {
      // What the files count by then is in it, and what they do not: from here on, only growth.
      counted.clear();
      for (const total of checkpoint.models) add(sumsOf(apart, sameModel(total.model)), total.counts, total.webSearches);
      continue;
    }
    const rest = restOf(checkpoint, counted, apart);
    // Totals holding less than the files count by then (a later process's clock behind, totals
    // that started again): none here; the next totals, which hold these, may tell.
    if (rest === null || rest.length === 0) continue;
    const key = `${UNRECORDED}#${index}@${main.ledger.key}`;
    found.push({
      key,
      id: key,
      time: checkpoint.time,
      turn: null,
      outcome: null,
      usage: rest.map(({ model, counts, webSearches }) => ({
        key: `${key}#${model}`,
        time: checkpoint.time,
        origin: 'usage-entry',
        provider: 'anthropic',
        model,
        modelGuessed: false,
        recordedCostFromProvider: false,
        recordedCost: null,
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

/**
 * The usage the files count (a copy's, all it holds), each at its time (else its entry's, else the
 * session's), oldest first.
 */
function countedUsage(files: readonly CountedFile[], untimedAt: number): TimedUsage[] {
  const found: TimedUsage[] = [];
  for (const { entries, counted, copy } of files) {
    let u = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as LedgerEntry;
      for (const usage of entry.usage) {
        if (counted.usage[u++] === 1 || copy === true) found.push({ time: usage.time ?? entry.time ?? untimedAt, model: usage.model ?? '', usage });
      }
    }
  }
  return found.sort((a, b) => a.time - b.time);
}

/**
 * A model as the totals and the files both name it: the totals name it as asked for (an id
 * without its date, `claude-haiku-4-5`), a response as the API answered (`…-20251001`). A model
 * asked for under another name still (fast mode's, a gateway's) is paired in restOf.
 */
function sameModel(model: string): string {
  return model.replace(/@[\w.-]+$/, '').replace(/-\d{8}$/, '');
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
 * What the totals hold beyond what was counted and counted apart (a baseline too), by model
 * (those it grew for); null when they hold less than that in all, of any kind. A model the files
 * count more of than the totals hold is one the totals name otherwise (they name a model as
 * asked for: fast mode's reply as the model asked for, the files as the one that answered): what
 * it lacks is taken from a model of its family that holds at least as much more, the nearest;
 * with none such, or a model both short of one kind and beyond in another, null. What is
 * returned is counted apart from then on.
 */
function restOf(checkpoint: RunningTotals, counted: ReadonlyMap<string, Sums>, apart: Map<string, Sums>): { model: string; counts: Pick<TokenCounts, (typeof KINDS)[number]>; webSearches: number }[] | null {
  // By model as both name it, each under the first name the totals give it.
  const names = new Map<string, string>();
  const beyond = new Map<string, Sums>();
  for (const { model, counts, webSearches } of checkpoint.models) {
    const key = sameModel(model);
    if (!names.has(key)) names.set(key, model);
    add(sumsOf(beyond, key), counts, webSearches);
  }
  for (const [key, sums] of [...counted, ...apart]) {
    const into = sumsOf(beyond, key);
    for (const kind of ALL_KINDS) into[kind] -= sums[kind];
  }
  const short = [...beyond].filter(([, sums]) => ALL_KINDS.some((kind) => sums[kind] < 0));
  for (const [key, lacking] of short) {
    const needed = Object.fromEntries(ALL_KINDS.map((kind) => [kind, Math.min(0, lacking[kind])])) as Sums;
    const holders = [...beyond].filter(([other, sums]) => other !== key && familyOf(other) === familyOf(key) && ALL_KINDS.every((kind) => sums[kind] + needed[kind] >= 0));
    const nearest = holders.sort(([, a], [, b]) => spare(a, needed) - spare(b, needed))[0];
    if (nearest === undefined) return null;
    // Short of every kind it names: what it lacks, from the holder. Short of some and beyond in
    // others (a compaction beside a reply the totals file under another name, as fast mode's):
    // all the holder holds beyond is taken for its, as what it lacks cannot be told apart there.
    const mixed = ALL_KINDS.some((kind) => lacking[kind] > 0);
    for (const kind of ALL_KINDS) {
      const moved = mixed ? nearest[1][kind] : -lacking[kind];
      nearest[1][kind] -= moved;
      lacking[kind] += moved;
    }
  }
  const rest: { model: string; counts: Pick<TokenCounts, (typeof KINDS)[number]>; webSearches: number }[] = [];
  for (const [key, grown] of beyond) {
    const name = names.get(key);
    if (name === undefined) continue;
    const counts = { input: grown.input, output: grown.output, cacheRead: grown.cacheRead, cacheWrite: grown.cacheWrite, cacheWrite1h: Math.min(grown.cacheWrite1h, grown.cacheWrite) };
    if (counts.input + counts.output + counts.cacheRead + counts.cacheWrite === 0 && grown.webSearches === 0) continue;
    add(sumsOf(apart, key), counts, grown.webSearches);
    rest.push({ model: name, counts, webSearches: grown.webSearches });
  }
  return rest;
}

const ALL_KINDS = [...KINDS, 'webSearches'] as const;

/** A model's family (`claude-opus-4-6` and `claude-opus-5-5`: opus): only one of its own is taken for another name of it. */
function familyOf(model: string): string {
  return model.replace(/^claude-/, '').split(/[-.@\d]/)[0] ?? model;
}

/** What a model holds beyond another's lack, in all. */
function spare(sums: Sums, lacking: Sums): number {
  return ALL_KINDS.reduce((total, kind) => total + sums[kind] + lacking[kind], 0);
}
