// A ledger's entries as the cache stores them and reading threads send them: one array per entry
// (a row), not one object with named fields. The entries are nine tenths of a cache entry and are
// read on every warm run; rows halve the JSON to parse (30 → 17 MB for 101 MB of sessions) and are
// checked field by field here, as they are rebuilt, instead of by a schema and then copied.
// Anything out of shape makes the whole entry unusable (null): the file is then read again, never
// trusted. Entries rebuilt here are plain literals with one copy of each word ('reply', 'shell'):
// objects cloned from a thread grow their fields outside themselves and each word is a copy of its
// own, which made the ledgers of 300 MB of sessions 152 MB of heap instead of 115.

import type { Diagnostic } from '../diagnostics.js';
import type { CachedOutcome } from './ledger-cache.js';
import type { LedgerEntry, LedgerToolCall, LedgerToolResult, LedgerUsage, SessionLedger } from '../ledger/ledger.js';
import { MAX_TIME } from '../sources/record-fields.js';
import type { ReplyOutcome, ToolEffect, UsageOrigin } from '../types.js';

/** `0` in a key's place: the entry's key is its id; a usage record's key is its entry's key and its place. */
const DERIVED = 0;

/** The words a field may hold, each mapped to the one copy of it every rebuilt entry shares. */
function words<T>(values: readonly T[]): ReadonlyMap<unknown, T> {
  return new Map(values.map((value) => [value, value]));
}

/**
 * Every word of a union, listed by a record that must name each: a word added to the type and not
 * here fails to compile, rather than make every entry holding it unreadable.
 */
function every<T extends string>(each: Record<T, true>): T[] {
  return Object.keys(each) as T[];
}

const TURNS = words<LedgerEntry['turn']>([...every<NonNullable<LedgerEntry['turn']>>({ prompt: true, reply: true }), null]);
const OUTCOMES = words<LedgerEntry['outcome']>([...every<ReplyOutcome>({ ok: true, error: true, aborted: true, length: true }), null]);
const ORIGINS = words(every<UsageOrigin>({ reply: true, tool: true, summary: true, subagent: true, 'usage-entry': true }));
const ACTIONS = words(every<ToolEffect['action']>({ read: true, write: true, edit: true, shell: true, search: true, list: true, delegate: true, other: true }));

const MODEL_GUESSED = 1;
const COST_FROM_PROVIDER = 2;
const OUTPUT_PARTIAL = 4;

function usageKeyOf(entryKey: string, index: number): string {
  return `${entryKey}#${index}`;
}

export function entriesToRows(entries: readonly LedgerEntry[]): unknown[] {
  return entries.map((entry) => [
    entry.key === entry.id ? DERIVED : entry.key,
    entry.id,
    entry.time,
    entry.turn,
    entry.outcome,
    entry.usage.map((usage, index) => [
      usage.key === usageKeyOf(entry.key, index) ? DERIVED : usage.key,
      usage.time,
      usage.origin,
      usage.provider,
      usage.model,
      (usage.modelGuessed ? MODEL_GUESSED : 0) | (usage.recordedCostFromProvider ? COST_FROM_PROVIDER : 0) | (usage.outputPartial ? OUTPUT_PARTIAL : 0),
      usage.recordedCost,
      usage.responseId,
      usage.input,
      usage.output,
      usage.cacheRead,
      usage.cacheWrite,
      usage.cacheWrite1h,
      usage.reasoning,
    ]),
    entry.calls.map((call) => [call.name, call.action, call.paths]),
    entry.result && [entry.result.failed, entry.result.path, entry.result.added, entry.result.removed, entry.result.commits.map((c) => [c.landed, c.line, c.message])],
    entry.aliases ?? null,
  ]);
}

/** A reading's outcome with its ledger's entries as rows: as the cache stores it and a reading thread sends it. */
export type OutcomeAsRows =
  | { kind: 'session'; ledger: Omit<SessionLedger, 'entries'> & { entries: unknown[] }; diagnostics: Diagnostic[] }
  | Extract<CachedOutcome, { kind: 'skipped' }>;

export function outcomeToRows(outcome: CachedOutcome): OutcomeAsRows {
  return outcome.kind === 'session' ? { ...outcome, ledger: { ...outcome.ledger, entries: entriesToRows(outcome.ledger.entries) } } : outcome;
}

/** The outcome back from its rows, or null when any part of any row is out of shape. */
export function outcomeFromRows(outcome: OutcomeAsRows): CachedOutcome | null {
  if (outcome.kind === 'skipped') return outcome;
  const entries = entriesFromRows(outcome.ledger.entries);
  return entries === null ? null : { ...outcome, ledger: { ...outcome.ledger, entries } };
}

/** Thrown inside the decoder only, to leave it at the first field out of shape. */
class OutOfShape extends Error {}

function fail(): never {
  throw new OutOfShape();
}

function row(value: unknown, length: number): unknown[] {
  return Array.isArray(value) && value.length === length ? value : fail();
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : fail();
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : fail();
}

function textOrNull(value: unknown): string | null {
  return value === null || typeof value === 'string' ? value : fail();
}

function flag(value: unknown): boolean {
  return typeof value === 'boolean' ? value : fail();
}

function count(value: unknown): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : fail();
}

function finiteOrNull(value: unknown): number | null {
  return value === null || (typeof value === 'number' && Number.isFinite(value)) ? value : fail();
}

/** A time a Date can hold, or null: a forged one beyond it would stop every page that formats it. */
function timeOrNull(value: unknown): number | null {
  return value === null || (typeof value === 'number' && Math.abs(value) <= MAX_TIME) ? value : fail();
}

function oneOf<T>(known: ReadonlyMap<unknown, T>, value: unknown): T {
  return known.has(value) ? (known.get(value) as T) : fail();
}

/** The entries back from their rows, or null when any part of any row is out of shape. */
export function entriesFromRows(rows: unknown): LedgerEntry[] | null {
  try {
    return list(rows).map(entryFromRow);
  } catch (error) {
    if (error instanceof OutOfShape) return null;
    throw error;
  }
}

function entryFromRow(value: unknown): LedgerEntry {
  const [rawKey, rawId, time, turn, outcome, usage, calls, result, aliases] = row(value, 9);
  const id = text(rawId);
  const key = rawKey === DERIVED ? id : text(rawKey);
  const entry: LedgerEntry = {
    key,
    id,
    time: timeOrNull(time),
    turn: oneOf(TURNS, turn),
    outcome: oneOf(OUTCOMES, outcome),
    usage: list(usage).map((u, index) => usageFromRow(u, key, index)),
    calls: list(calls).map(callFromRow),
    result: result === null ? null : resultFromRow(result),
  };
  if (aliases !== null) entry.aliases = list(aliases).map(text);
  return entry;
}

function usageFromRow(value: unknown, entryKey: string, index: number): LedgerUsage {
  const [key, time, origin, provider, model, flags, recordedCost, responseId, input, output, cacheRead, cacheWrite, cacheWrite1h, reasoning] = row(value, 14);
  const bits = count(flags);
  if (bits > (MODEL_GUESSED | COST_FROM_PROVIDER | OUTPUT_PARTIAL)) fail();
  return {
    key: key === DERIVED ? usageKeyOf(entryKey, index) : text(key),
    time: timeOrNull(time),
    origin: oneOf(ORIGINS, origin),
    provider: textOrNull(provider),
    model: textOrNull(model),
    modelGuessed: (bits & MODEL_GUESSED) !== 0,
    recordedCostFromProvider: (bits & COST_FROM_PROVIDER) !== 0,
    recordedCost: finiteOrNull(recordedCost),
    outputPartial: (bits & OUTPUT_PARTIAL) !== 0,
    responseId: textOrNull(responseId),
    input: count(input),
    output: count(output),
    cacheRead: count(cacheRead),
    cacheWrite: count(cacheWrite),
    cacheWrite1h: count(cacheWrite1h),
    reasoning: count(reasoning),
  };
}

function callFromRow(value: unknown): LedgerToolCall {
  const [name, action, paths] = row(value, 3);
  return { name: text(name), action: oneOf(ACTIONS, action), paths: list(paths).map(text) };
}

function resultFromRow(value: unknown): LedgerToolResult {
  const [failed, path, added, removed, commits] = row(value, 5);
  return {
    failed: flag(failed),
    path: textOrNull(path),
    added: count(added),
    removed: count(removed),
    commits: list(commits).map((commit) => {
      const [landed, line, message] = row(commit, 3);
      return { landed: flag(landed), line: textOrNull(line), message: textOrNull(message) };
    }),
  };
}
