// A ledger's entries, packed. Every ledger of the history is held at once (claims and totals need
// them all) but each pass over them needs one session's entries at a time: packed, they are a few
// bytes each outside the heap instead of several objects in it (300 MB of sessions: 115 MB of heap
// as objects, 10 MB packed), and each pass unpacks a session's entries and lets them go (or, up to
// a budget, takes the ones the cache's check unpacked: EntriesHold). Packed as
// rows (one array per entry, not an object with named fields) in JSON, deflated, in chunks of a few
// thousand entries so that no session is too long for one string (a short chunk is kept as its
// text: a trip through zlib costs more than it saves there). The cache stores them so and a
// reading thread sends them so; unpacking checks every field of every row, so packed entries from
// the cache are checked as they are taken: anything out of shape makes the whole entry unusable
// (the file is then read again), never trusted.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { LedgerEntry, LedgerToolCall, LedgerToolResult, LedgerUsage } from './ledger.js';
import { isRecordTime } from '../sources/record-fields.js';
import { MAX_COST_PER_RECORD, MAX_TOKENS_PER_RECORD } from '../sources/usage-check.js';
import type { ReplyOutcome, ToolEffect, UsageOrigin } from '../types.js';

/** A ledger's entries, packed; `unpackEntries` gives them back. */
export interface PackedEntries {
  /** How many entries, and usage records in all: what is counted of them is sized by these, unpacked or not. */
  count: number;
  usageCount: number;
  /** Some usage record is a sub-agent's record of a response (Claude Code's): it may replay one a main thread holds. */
  subagentResponses: boolean;
  /** Chunks, each its length (4 bytes, little-endian), its kind (a byte: TEXT or DEFLATED) and then a JSON array of rows, as UTF-8 or deflated. */
  bytes: Uint8Array;
}

/** Rows per chunk: a chunk's JSON stays far below the longest string, whatever the session's length. */
const CHUNK_ROWS = 4096;
/** A chunk's JSON is never near this long; a forged one that would inflate past it is refused, not held. */
const MAX_CHUNK_BYTES = 256 * 1024 * 1024;
/**
 * A chunk's JSON shorter than this is kept as its text. Each call into zlib costs 10–20 µs and a
 * 16 kB buffer whatever the size: on a history of 30,000 sessions of a few entries, every pass
 * over it spent more in zlib and in collecting its buffers than in reading the rows.
 */
const DEFLATE_FROM = 4096;
const TEXT = 0;
const DEFLATED = 1;
const CHUNK_HEAD = 5;
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
const FAST = 8;
const COUNTS_LEFT_OUT = 16;
const COUNTS_UNKNOWN = 32;
const US_ONLY = 64;
const FLEX = 128;

/** A usage record's key where it has no claim of its own: its entry's key and its place there. */
export function usageKeyOf(entryKey: string, index: number): string {
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
      (usage.modelGuessed ? MODEL_GUESSED : 0) | (usage.recordedCostFromProvider ? COST_FROM_PROVIDER : 0) | (usage.outputPartial ? OUTPUT_PARTIAL : 0) | (usage.fast ? FAST : 0) | (usage.countsLeftOut ? COUNTS_LEFT_OUT : 0) | (usage.countsUnknown ? COUNTS_UNKNOWN : 0) | (usage.usOnly ? US_ONLY : 0) | (usage.flex ? FLEX : 0),
      usage.recordedCost,
      usage.responseId,
      usage.input,
      usage.output,
      usage.cacheRead,
      usage.cacheWrite,
      usage.cacheWrite1h,
      usage.reasoning,
      usage.webSearches,
      // Only where there is one: every other row keeps its fifteen fields.
      ...(usage.requestedModel !== undefined || usage.largestPrompt !== undefined ? [usage.requestedModel ?? null] : []),
      ...(usage.largestPrompt !== undefined ? [usage.largestPrompt] : []),
    ]),
    entry.calls.map(callToRow),
    entry.result && resultToRow(entry.result),
    entry.aliases ?? null,
    // Only on the results that show sub-agent runs: every other row keeps its nine fields.
    ...(entry.inner ? [[entry.inner.calls.map(callToRow), entry.inner.results.map(resultToRow)]] : []),
  ]);
}

function callToRow(call: LedgerToolCall): unknown[] {
  return call.failed ? [call.name, call.action, call.paths, true] : [call.name, call.action, call.paths];
}

function resultToRow(result: LedgerToolResult): unknown[] {
  const row = [result.failed, result.path, result.added, result.removed, result.commits.map((c) => [c.landed, c.line, c.message])];
  return result.files ? [...row, result.files.map((f) => [f.path, f.added, f.removed])] : row;
}

export function packEntries(entries: readonly LedgerEntry[]): PackedEntries {
  const chunks: Buffer[] = [];
  const { usageCount, subagentResponses } = usageFacts(entries);
  for (let from = 0; from < entries.length; from += CHUNK_ROWS) {
    const json = JSON.stringify(entriesToRows(entries.slice(from, from + CHUNK_ROWS)));
    const kind = json.length < DEFLATE_FROM ? TEXT : DEFLATED;
    const body = kind === TEXT ? Buffer.from(json) : deflateRawSync(json, { level: 1 });
    const head = Buffer.alloc(CHUNK_HEAD);
    head.writeUInt32LE(body.length);
    head[4] = kind;
    chunks.push(head, body);
  }
  // One array of its own, exactly as long as its bytes: a view into a larger buffer would keep
  // (and, sent to another thread, copy) all of it.
  return { count: entries.length, usageCount, subagentResponses, bytes: new Uint8Array(Buffer.concat(chunks)) };
}

function usageFacts(entries: readonly LedgerEntry[]): Pick<PackedEntries, 'usageCount' | 'subagentResponses'> {
  let usageCount = 0;
  let subagentResponses = false;
  for (const entry of entries) {
    usageCount += entry.usage.length;
    for (const usage of entry.usage) if (usage.origin === 'subagent' && usage.responseId !== null) subagentResponses = true;
  }
  return { usageCount, subagentResponses };
}

/** The entries back. Packed by this code (read now, or checked when taken from the cache): anything else is a bug. */
export function unpackEntries(packed: PackedEntries): readonly LedgerEntry[] {
  const entries = entriesOfBytes(packed.bytes);
  if (entries === null || entries.length !== packed.count) throw new Error('a ledger packed by bough did not unpack');
  return entries;
}

/** How a pass over ledgers gets their entries: `unpackEntries`, or an `EntriesHold`'s. Read only: a hold shares them between passes. */
export type Unpack = (packed: PackedEntries) => readonly LedgerEntry[];

/**
 * Entries the cache unpacked to check them, kept for the passes that come back to them (claims,
 * titles, the totals, usage.csv) up to a budget: on a rebuild that reads one file, unpacking was
 * most of the work, each pass unpacking the whole history again. Only the cache's: a file read
 * now (every file, on a cold build) is unpacked each pass as before, so that a cold build's
 * memory, which the pages' rendering peaks, is not raised. The budget bounds the heap they take (an
 * entry unpacked is about 400 bytes and a usage record 250 more, against 50 packed): a history that
 * fits is unpacked once; of a larger one, the ledgers first taken from the cache, until the budget
 * is spent. Released before the pages are rendered.
 */
export interface EntriesHold {
  unpack: Unpack;
  /** Entries unpacked (checked as they were taken from the cache), held if there is room. */
  keep(packed: PackedEntries, entries: readonly LedgerEntry[]): void;
  /** Lets every held entry go; unpacking goes on without holding. */
  release(): void;
}

/** Heap a held entry and a held usage record are reckoned to take. */
const HELD_ENTRY_BYTES = 400;
const HELD_USAGE_BYTES = 250;
/** What a build or `stats` holds unpacked: a 100 MB history's entries (about 40 MB), not a gigabyte's. */
export const HOLD_BYTES = 48 * 1024 * 1024;

export function entriesHold(budgetBytes: number): EntriesHold {
  let held = new WeakMap<PackedEntries, readonly LedgerEntry[]>();
  let room = budgetBytes;
  return {
    unpack: (packed) => held.get(packed) ?? unpackEntries(packed),
    keep(packed, entries) {
      const cost = packed.count * HELD_ENTRY_BYTES + packed.usageCount * HELD_USAGE_BYTES;
      if (cost > room || held.has(packed)) return;
      room -= cost;
      held.set(packed, entries);
    },
    release() {
      held = new WeakMap();
      room = 0;
    },
  };
}

/**
 * Packed entries from outside this run (the cache), checked whole, with the entries they unpacked
 * to; null when any part is out of shape or what is said of them is not so.
 */
export function checkedPackedEntries(said: Omit<PackedEntries, 'bytes'>, bytes: Uint8Array): { packed: PackedEntries; entries: readonly LedgerEntry[] } | null {
  const entries = entriesOfBytes(bytes);
  if (entries === null || entries.length !== said.count) return null;
  const facts = usageFacts(entries);
  return facts.usageCount === said.usageCount && facts.subagentResponses === said.subagentResponses ? { packed: { ...facts, count: said.count, bytes }, entries } : null;
}

function entriesOfBytes(bytes: Uint8Array): LedgerEntry[] | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: LedgerEntry[] = [];
  try {
    for (let at = 0; at < view.length; ) {
      if (at + CHUNK_HEAD > view.length) return null;
      const length = view.readUInt32LE(at);
      const kind = view[at + 4];
      at += CHUNK_HEAD;
      if (at + length > view.length) return null;
      let text: string;
      if (kind === TEXT) text = view.toString('utf8', at, at + length);
      else if (kind === DEFLATED) text = inflateRawSync(view.subarray(at, at + length), { maxOutputLength: MAX_CHUNK_BYTES }).toString('utf8');
      else return null;
      at += length;
      const chunk = entriesFromRows(JSON.parse(text));
      if (chunk === null) return null;
      for (const entry of chunk) entries.push(entry);
    }
  } catch {
    // Not deflated, not JSON, or too long: out of shape like any other.
    return null;
  }
  return entries;
}

/** Thrown inside the decoder only, to leave it at the first field out of shape. */
class OutOfShape extends Error {}

function fail(): never {
  throw new OutOfShape();
}

// Checked in place, by index: unpacking runs over every entry of the history several times a run.

function row(value: unknown, length: number): unknown[] {
  if (!Array.isArray(value) || value.length !== length) fail();
  return value;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) fail();
  return value;
}

function text(value: unknown): string {
  if (typeof value !== 'string') fail();
  return value;
}

function textOrNull(value: unknown): string | null {
  if (value !== null && typeof value !== 'string') fail();
  return value;
}

/** A list of texts, checked, as it is (it comes from a parse of this run's). */
function texts(value: unknown): string[] {
  const items = list(value);
  for (let i = 0; i < items.length; i++) text(items[i]);
  return items as string[];
}

function flag(value: unknown): boolean {
  if (typeof value !== 'boolean') fail();
  return value;
}

function count(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) fail();
  return value as number;
}

/** A token count a reader would keep: a ledger in a cache or an archive may have been edited. */
function tokens(value: unknown): number {
  const n = count(value);
  if (n > MAX_TOKENS_PER_RECORD) fail();
  return n;
}

/** A recorded cost a reader would keep. */
function costOrNull(value: unknown): number | null {
  if (value !== null && !(typeof value === 'number' && value >= 0 && value <= MAX_COST_PER_RECORD)) fail();
  return value;
}

/** A time as a reader accepts one, or null: a forged one beyond would stop every page that formats it. */
function timeOrNull(value: unknown): number | null {
  if (value !== null && !isRecordTime(value)) fail();
  return value;
}

function oneOf<T>(known: ReadonlyMap<unknown, T>, value: unknown): T {
  const word = known.get(value);
  if (word === undefined && !known.has(value)) fail();
  return word as T;
}

/** The entries back from their rows, or null when any part of any row is out of shape. */
export function entriesFromRows(rows: unknown): LedgerEntry[] | null {
  try {
    const items = list(rows);
    const entries = new Array<LedgerEntry>(items.length);
    for (let i = 0; i < items.length; i++) entries[i] = entryFromRow(items[i]);
    return entries;
  } catch (error) {
    if (error instanceof OutOfShape) return null;
    throw error;
  }
}

function entryFromRow(value: unknown): LedgerEntry {
  const fields = Array.isArray(value) && value.length === 10 ? value : row(value, 9);
  const id = text(fields[1]);
  const key = fields[0] === DERIVED ? id : text(fields[0]);
  const usageRows = list(fields[5]);
  const usage = new Array<LedgerUsage>(usageRows.length);
  for (let i = 0; i < usageRows.length; i++) usage[i] = usageFromRow(usageRows[i], key, i);
  const callRows = list(fields[6]);
  const calls = new Array<LedgerToolCall>(callRows.length);
  for (let i = 0; i < callRows.length; i++) calls[i] = callFromRow(callRows[i]);
  const entry: LedgerEntry = {
    key,
    id,
    time: timeOrNull(fields[2]),
    turn: oneOf(TURNS, fields[3]),
    outcome: oneOf(OUTCOMES, fields[4]),
    usage,
    calls,
    result: fields[7] === null ? null : resultFromRow(fields[7]),
  };
  if (fields[8] !== null) entry.aliases = texts(fields[8]);
  if (fields.length === 10) {
    const inner = row(fields[9], 2);
    entry.inner = { calls: list(inner[0]).map(callFromRow), results: list(inner[1]).map(resultFromRow) };
  }
  return entry;
}

function usageFromRow(value: unknown, entryKey: string, index: number): LedgerUsage {
  const fields = Array.isArray(value) && (value.length === 16 || value.length === 17) ? value : row(value, 15);
  const bits = count(fields[5]);
  if (bits > (MODEL_GUESSED | COST_FROM_PROVIDER | OUTPUT_PARTIAL | FAST | COUNTS_LEFT_OUT | COUNTS_UNKNOWN | US_ONLY | FLEX)) fail();
  const usage: LedgerUsage = {
    key: fields[0] === DERIVED ? usageKeyOf(entryKey, index) : text(fields[0]),
    time: timeOrNull(fields[1]),
    origin: oneOf(ORIGINS, fields[2]),
    provider: textOrNull(fields[3]),
    model: textOrNull(fields[4]),
    modelGuessed: (bits & MODEL_GUESSED) !== 0,
    recordedCostFromProvider: (bits & COST_FROM_PROVIDER) !== 0,
    recordedCost: costOrNull(fields[6]),
    outputPartial: (bits & OUTPUT_PARTIAL) !== 0,
    fast: (bits & FAST) !== 0,
    responseId: textOrNull(fields[7]),
    input: tokens(fields[8]),
    output: tokens(fields[9]),
    cacheRead: tokens(fields[10]),
    cacheWrite: tokens(fields[11]),
    cacheWrite1h: tokens(fields[12]),
    reasoning: tokens(fields[13]),
    webSearches: tokens(fields[14]),
  };
  // What a reader leaves out of the sums (usage-check.ts) never comes back from a ledger either.
  if (usage.cacheWrite1h > usage.cacheWrite || usage.reasoning > usage.output) fail();
  if ((bits & COUNTS_LEFT_OUT) !== 0) usage.countsLeftOut = true;
  if ((bits & COUNTS_UNKNOWN) !== 0) usage.countsUnknown = true;
  if ((bits & US_ONLY) !== 0) usage.usOnly = true;
  if ((bits & FLEX) !== 0) usage.flex = true;
  if (fields.length === 16) usage.requestedModel = text(fields[15]);
  if (fields.length === 17) {
    if (fields[15] !== null) usage.requestedModel = text(fields[15]);
    usage.largestPrompt = tokens(fields[16]);
  }
  return usage;
}

function callFromRow(value: unknown): LedgerToolCall {
  // A fourth field, true, says its result failed.
  const fields = Array.isArray(value) && value.length === 4 && value[3] === true ? value : row(value, 3);
  const call: LedgerToolCall = { name: text(fields[0]), action: oneOf(ACTIONS, fields[1]), paths: texts(fields[2]) };
  if (fields.length === 4) call.failed = true;
  return call;
}

function resultFromRow(value: unknown): LedgerToolResult {
  // A sixth field, of an edit of several files: each file's lines.
  const fields = Array.isArray(value) && value.length === 6 ? value : row(value, 5);
  const commitRows = list(fields[4]);
  const commits = new Array<LedgerToolResult['commits'][number]>(commitRows.length);
  for (let i = 0; i < commitRows.length; i++) {
    const commit = row(commitRows[i], 3);
    commits[i] = { landed: flag(commit[0]), line: textOrNull(commit[1]), message: textOrNull(commit[2]) };
  }
  const result: LedgerToolResult = { failed: flag(fields[0]), path: textOrNull(fields[1]), added: count(fields[2]), removed: count(fields[3]), commits };
  if (fields.length === 6) {
    result.files = list(fields[5]).map((file) => {
      const [path, added, removed] = row(file, 3);
      return { path: text(path), added: count(added), removed: count(removed) };
    });
  }
  return result;
}
