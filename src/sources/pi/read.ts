// Pi session files (v1, v2, v3) → normalised SessionFile. Knows Pi's raw field names so that
// nothing else has to (formats/pi.md).

import { attachedFilesLength } from '../../attached-files.js';
import type { z } from 'zod';
import { diagnostic, lostLinesBetween, type Diagnostic, type FileDiagnostics } from '../../diagnostics.js';
import type { Block, Entry, EntryOf, EntryPayload, ReplyOutcome, SessionFile, SubagentRun, Usage, UsageOrigin } from '../../types.js';
import { isPlainObject } from '../json-line.js';
import { lineRecords, lostField } from '../line-records.js';
import type { PendingLine, SourceInput } from '../source-input.js';
import * as raw from './schema.js';
import { piProjectFolder } from './paths.js';
import { splitSkillPrompt } from './skills.js';
import { commitsOf, diffChange, editDiff, toolEffect } from './tools.js';
import { contentHash, invalidRecord, parseRecord, parseTime, recordTime, salvagedStringField } from '../record-fields.js';
import { NotASession } from '../not-a-session.js';

export function isPiHeader(record: Record<string, unknown>): boolean {
  return raw.rawHeader.safeParse(record).success;
}

/**
 * An entry whose parent was on a damaged line just before it goes on from the entry before that
 * line, as Pi wrote them (in file order): as a root, the conversation seemed to start there, what
 * came before shown after it as a branch. A parent missing with no line lost stays missing.
 */
function relinkPastLostLines(entries: Entry[], diagnostics: readonly Diagnostic[], lostParents: ReadonlyMap<number, string | null>): void {
  const lostBetween = lostLinesBetween(diagnostics);
  // A file with no line lost (most): nothing to relink, and no set of its ids to make.
  if (lostBetween === null) return;
  const ids = new Set(entries.map((entry) => entry.id));
  /** The parent the record lost on the last damaged line from `from` to `to` named, where the line names one that is an entry. */
  const lostParentBetween = (from: number, to: number): string | null => {
    for (let line = to; line >= from; line--) {
      if (!lostParents.has(line)) continue;
      const parent = lostParents.get(line) ?? null;
      return parent !== null && ids.has(parent) ? parent : null;
    }
    return null;
  };
  let previous: Entry | null = null;
  for (const entry of entries) {
    // Where the damaged line still names its lost record's parent, there (a rewind written on that
    // line is not grafted onto the branch it left).
    if (previous !== null && entry.parentId !== null && !ids.has(entry.parentId) && lostBetween(previous.line, entry.line)) entry.parentId = lostParentBetween(previous.line, entry.line) ?? previous.id;
    previous = entry;
  }
}

/** Whether an object salvaged from a damaged line is a whole Pi record (not a block nested in one). */
export function isPiRecord(value: Record<string, unknown>): boolean {
  const type = value['type'];
  // A header whose id is out of shape is still one: read without its id (see headerKeptWithout).
  if (type === 'session') return 'id' in value || 'cwd' in value;
  return (
    typeof type === 'string' &&
    (raw.PI_ENTRY_TYPES as readonly string[]).includes(type) &&
    (typeof value['timestamp'] === 'string' || typeof value['id'] === 'string')
  );
}

interface ModelInUse {
  provider: string | null;
  model: string | null;
}

/** Reading state of one file. */
interface PiContext {
  file: string;
  cwd: string | null;
  /** Tool calls by id, so a result can be read with the command that produced it. */
  calls: Map<string, ToolCallBlock>;
  /** Whether entries have ids (v2+); null until the first entry says, for a header whose version did not read. */
  treeFormat: boolean | null;
  diagnostics: FileDiagnostics;
  entries: Entry[];
  /** Each id used, and the key of the entry using it. */
  ids: Map<string, string>;
  /** Ids written again by another entry, and the name the latest of them is kept as. */
  reusedIds: Map<string, string>;
  /** Ids of entries from lines Pi itself could parse, in order: v1 `firstKeptEntryIndex` counts these. */
  cleanIds: string[];
  /** v1: the entry each new one is chained to. */
  previousId: string | null;
  modelInUse: ModelInUse;
  /** Records of an event stream's types (agent_start, message_end, …): no entries of a session. */
  events: number;
  /** Entries left out on purpose (a /share copy's `pi.share`), by id: the parent each hands its children on to. */
  passedOver: Map<string, string | null>;
}

/** An entry left out on purpose: what follows it (a /share copy continued after import) hangs from its parent. */
function passOver(ctx: PiContext, record: Record<string, unknown>): void {
  const { id, parentId } = record;
  if (typeof id === 'string' && id !== '') ctx.passedOver.set(id, typeof parentId === 'string' ? parentId : null);
}

/** Entries whose parent was left out on purpose hang from that one's parent (its own, if left out too). */
function skipPassedOver(entries: readonly Entry[], passedOver: ReadonlyMap<string, string | null>): void {
  if (passedOver.size === 0) return;
  for (const entry of entries) {
    const seen = new Set<string>();
    while (entry.parentId !== null && passedOver.has(entry.parentId) && !seen.has(entry.parentId)) {
      seen.add(entry.parentId);
      entry.parentId = passedOver.get(entry.parentId) ?? null;
    }
  }
}

/** What Pi prints of a run in `--mode json`: events, not entries. */
const PI_EVENT_TYPES: ReadonlySet<string> = new Set([
  'agent_start', 'agent_end', 'turn_start', 'turn_end', 'message_start', 'message_update', 'message_end',
  'tool_execution_start', 'tool_execution_update', 'tool_execution_end', 'auto_compaction_start',
  'auto_compaction_end', 'auto_retry_start', 'auto_retry_end', 'queue_update',
]);

type ToolCallBlock = Extract<Block, { type: 'toolCall' }>;

const MAX_SUBAGENT_DEPTH = 6;

/** What the Pi reader reads a file from: its header (as read, or rebuilt) and the records around it. */
export interface PiInput extends Pick<SourceInput, 'path' | 'size' | 'mtime' | 'lines' | 'diagnostics'> {
  header: Record<string, unknown>;
  headerLine: number;
  /** Records read together with or instead of the header (glued to it, or the first entries after a damaged one). */
  pending: PendingLine[];
}

export async function readPiSession(input: PiInput): Promise<SessionFile> {
  const header = raw.rawHeader.parse(input.header);
  // Null when the header's version did not read: the entries say (see treeFormat).
  const version = header.version === undefined || header.version === null ? null : headerVersion(header.version);
  const ctx: PiContext = {
    file: input.path,
    cwd: header.cwd || null,
    calls: new Map(),
    treeFormat: version === null ? null : version >= 2,
    diagnostics: input.diagnostics,
    entries: [],
    ids: new Map(),
    reusedIds: new Map(),
    cleanIds: [],
    previousId: null,
    modelInUse: { provider: header.provider ?? null, model: header.modelId ?? null },
    events: 0,
    passedOver: new Map(),
  };
  if (!header.cwd) {
    ctx.diagnostics.push(diagnostic('header-missing-cwd', input.path, input.headerLine || null, 'no cwd in the session header'));
  }
  // A later Pi may write what bough does not know: read as the newest it knows (entries it does not
  // know are said as such), and said, so that a page's gaps are not taken for the session's.
  if (version !== null && version > NEWEST_VERSION) {
    ctx.diagnostics.push(diagnostic('newer-format', input.path, input.headerLine || null, `format version ${version}, newer than ${NEWEST_VERSION}, the newest bough knows: read as version ${NEWEST_VERSION}`));
  }
  let lineCount = input.headerLine;
  /** Of each damaged line, the parent its lost record named, as far as its text still tells (see lostField). */
  const lostParents = new Map<number, string | null>();
  for (const { line, records, clean } of input.pending) {
    lineCount = line;
    records.forEach((record, index) => addRecord(ctx, record, line, records.length > 1 || line === input.headerLine ? index + 1 : 0, clean));
  }
  for await (const line of input.lines) {
    lineCount = line.number;
    const { records, clean, damaged } = lineRecords(line, input.path, isPiRecord, ctx.diagnostics);
    // A line of which records were recovered as well: which parent in it was the lost one's is not told.
    if (damaged !== undefined) lostParents.set(line.number, records.length > 0 ? null : lostField(damaged, 'parentId'));
    records.forEach((record, index) => addRecord(ctx, record, line.number, records.length > 1 ? index : 0, clean));
  }

  // What `pi --mode json` prints (a sub-agent extension keeps it beside its session's file): a
  // header, then the events of a run, none an entry. Said as what it is, not read as a session of
  // no prompts and a warning a line.
  if (ctx.events > 0 && ctx.entries.every((entry) => entry.kind === 'unknown')) {
    throw new NotASession(`a Pi event stream (what \`pi --mode json\` prints, as sub-agent extensions keep it), not a session file: ${ctx.events} event${ctx.events === 1 ? '' : 's'} and no entry`);
  }
  skipPassedOver(ctx.entries, ctx.passedOver);
  if (ctx.treeFormat) relinkPastLostLines(ctx.entries, ctx.diagnostics.list(), lostParents);
  providersForSums(ctx.entries);
  // Pi leaves the key out of a session that was not forked (pi.md §3); an empty one names no file either.
  const parentFile = header.parentSession || header.branchedFrom || null;
  return {
    source: 'pi',
    path: input.path,
    size: input.size,
    mtime: input.mtime,
    sessionId: header.id,
    cwd: header.cwd || null,
    projectFolder: piProjectFolder(input.path),
    startedAt: recordTime(header.timestamp, ctx, input.headerLine, 'the session goes by its first entry’s time'),
    parentFile,
    parentSessionId: piSessionIdOfPath(parentFile),
    // Pi names its files `<timestamp>_<session id>.jsonl`.
    namedByAgent: (input.path.split(/[\\/]/).pop() ?? '').endsWith(`_${header.id}.jsonl`),
    // Pi's sub-agents live inside tool results, never in files of their own.
    subagentOf: null,
    subagentLabel: null,
    subagentId: null,
    startedSubagents: [],
    entryTitles: [],
    formatVersion: version ?? (ctx.treeFormat ? 3 : 1),
    entries: ctx.entries,
    diagnostics: ctx.diagnostics.list(),
    lineCount,
  };
}

/**
 * A header line that parsed but is out of shape (a time written as a list, a version as `true`):
 * the fields that read are kept, the others left out and said, and an id that does not read is
 * the file name's. A version left out is taken from the entries (ids mean v2+).
 */
export function headerKeptWithout(record: Record<string, unknown>, fileName: string): { header: Record<string, unknown>; left: string[] } {
  const parsed = raw.rawHeader.safeParse(record);
  if (parsed.success) return { header: record, left: [] };
  const left = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '(the header)')))];
  const header: Record<string, unknown> = Object.fromEntries(Object.entries(record).filter(([field]) => !left.includes(field)));
  header['type'] = 'session';
  if (typeof header['id'] !== 'string' || header['id'] === '') header['id'] = salvagePiHeader([], fileName, {}).record['id'];
  return { header, left };
}

/**
 * A header rebuilt for a file whose own header line is damaged: what can still be read of the
 * cut-off line (`"id":"…"`, `"cwd":"…"`), else the file name `<timestamp>_<id>.jsonl`; the
 * format follows the first entry (ids mean v2+).
 */
export function salvagePiHeader(
  damagedLines: readonly string[],
  fileName: string,
  firstEntry: Record<string, unknown>,
): { record: Record<string, unknown>; from: string } {
  const text = damagedLines.find((line) => /"type"\s*:\s*"session"/.test(line)) ?? '';
  const field = (name: string): string | null => salvagedStringField(text, name);
  const version = /"version"\s*:\s*(\d+)/.exec(text)?.[1];
  const named = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)_(.+)\.jsonl$/i.exec(fileName);
  const nameTime = named?.[1]?.replace(/^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, '$1:$2:$3.$4Z');
  const id = field('id') ?? named?.[2] ?? fileName.replace(/\.jsonl$/i, '');
  const record: Record<string, unknown> = {
    type: 'session',
    id,
    version: version ? Number(version) : 'id' in firstEntry ? 3 : 1,
    timestamp: field('timestamp') ?? nameTime ?? null,
    cwd: field('cwd'),
    parentSession: field('parentSession') ?? field('branchedFrom'),
  };
  const from = text ? 'what remained of it' : named ? 'the file name' : 'nothing (the file name is not a session name)';
  return { record, from };
}

/** The newest version of Pi's session format bough knows (pi.md §3). */
const NEWEST_VERSION = 3;

function headerVersion(version: number | string | null | undefined): number {
  const parsed = typeof version === 'string' ? Number.parseInt(version, 10) : version;
  return typeof parsed === 'number' && Number.isFinite(parsed) && parsed >= 1 ? parsed : 1;
}

function addRecord(ctx: PiContext, record: Record<string, unknown>, line: number, piece: number, clean: boolean): void {
  if (typeof record['type'] === 'string' && PI_EVENT_TYPES.has(record['type'])) ctx.events++;
  record = idsAsText(ctx, record, line);
  const envelope = raw.rawEnvelope.safeParse(record);
  if (!envelope.success) {
    ctx.diagnostics.push(invalidRecord(ctx.file, line, 'entry', envelope.error));
    return;
  }
  const env = envelope.data;
  if (env.type === 'session') {
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, 'a second session header inside the file (skipped)', true));
    return;
  }
  const rawTime = typeof env.timestamp === 'string' || typeof env.timestamp === 'number' ? String(env.timestamp) : '';
  // A message carries its own time too: the record goes by it where the entry's is no time.
  const ownMessageTime = messageTime(record);
  const ownTime = recordTime(env.timestamp, ctx, line, ownMessageTime === null ? undefined : "the record goes by its message's own time");
  // With no time of its own, the entry goes by its message's: one there that is no time is said too.
  const noOwnTime = env.timestamp === undefined || env.timestamp === null || env.timestamp === '';
  if (noOwnTime && ownMessageTime === null && isPlainObject(record['message'])) recordTime(record['message']['timestamp'], ctx, line, "the record goes by its session's time");
  const timestamp = ownTime ?? ownMessageTime;
  const built = payloadOf(ctx, env.type, record, line, timestamp);
  if (built === null) return;

  const suffix = piece > 0 ? `.${piece}` : '';
  // A header whose version did not read: entries with ids are of a tree file, as a rebuilt header takes them.
  ctx.treeFormat ??= 'id' in record;
  let id: string;
  let parentId: string | null;
  let key: string;
  if (ctx.treeFormat) {
    id = env.id ?? `line-${line}${suffix}`;
    if (!env.id) {
      ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, 'entry without an id (given one from its line)'));
    }
    // Without an id and a parent, an entry continues from the line before, as in a v1 file.
    parentId = env.parentId !== undefined ? env.parentId : env.id ? null : ctx.previousId;
    // An entry written as v1 was given a random id by a later Pi that rewrote its file (pi.md §2),
    // so its key is its time and content, as in a v1 file. The v1 copy of a /branch pair, and a v3
    // fork of the rewritten file, then all share it. Such an entry is one from before tree files
    // existed, or one whose id was written after its time: Pi's rewrite adds the id to the entry
    // as read (a v1 Pi in use after 0.31 came out wrote entries of 2026), and Pi writes its own first.
    const fromV1 = (ownTime !== null && ownTime < TREE_FILES_SINCE) || idWrittenLate(record);
    key = fromV1 ? v1Key(rawTime, record) : `${id}@${rawTime}@${ownTime === null ? contentHash(withoutIds(record)) : entryMark(env.type, record)}`;
  } else {
    // v1 entries have no ids: chain them in file order; the key must survive a /branch copy.
    id = `v1-${line}${suffix}`;
    parentId = ctx.previousId;
    key = v1Key(rawTime, record);
  }
  if (parentId !== null) parentId = ctx.reusedIds.get(parentId) ?? parentId;
  // So is what a label, a context edit, a compaction or a branch summary names.
  const payload = built.payload as Partial<Record<'targetId' | 'firstKeptEntryId' | 'fromId', string | null>>;
  for (const field of ['targetId', 'firstKeptEntryId', 'fromId'] as const) {
    const named = payload[field];
    if (typeof named === 'string') payload[field] = ctx.reusedIds.get(named) ?? named;
  }
  if (ctx.ids.has(id)) {
    // The same entry written again (its id, time and content): read once, as in two files.
    if (ctx.ids.get(id) === key) {
      ctx.diagnostics.push(diagnostic('duplicate-id', ctx.file, line, `id ${JSON.stringify(id)} written again as it was: read once`));
      return;
    }
    const renamed = `${id}~${line}${suffix}`;
    ctx.diagnostics.push(diagnostic('duplicate-id', ctx.file, line, `id ${JSON.stringify(id)} already used; kept as ${renamed}`));
    // Pi's own index of a file keeps the last entry written under an id: what names it from here on names this one.
    ctx.reusedIds.set(id, renamed);
    id = renamed;
    key = `${key}~${line}${suffix}`;
  }
  ctx.ids.set(id, key);
  ctx.previousId = id;
  if (clean) ctx.cleanIds.push(id);
  ctx.entries.push({ key, id, parentId, timestamp, line, recovered: !clean, ...built.payload, usage: built.usage } as Entry);
}

/**
 * What an entry says, in a few characters, beside its id and time in its key: a fork's copy keeps
 * the record whole, so it still matches, while unrelated sessions whose ids and times agree (short
 * ids in generated files, written on one clock) are not taken for copies of each other and counted
 * once. Its type, else its message's role and: a prompt's content, a tool result's call id, a
 * reply's size and usage (no serialisation of long texts: this runs for every record). An entry
 * without a time of its own is keyed by its whole content (rare, and its time tells nothing apart).
 */
function entryMark(type: string, record: Record<string, unknown>): string {
  const message = record['message'];
  if (!isPlainObject(message)) return type;
  // Pi's rewrite of a v2 file as v3 renames a hook message's role to custom (pi.md §6): one entry.
  const role = message['role'] === 'hookMessage' ? 'custom' : typeof message['role'] === 'string' ? message['role'] : '?';
  const content = message['content'];
  // What was typed, whole: prompts are short, and alike in every other way.
  if (role === 'user') return `user.${contentHash(content)}`;
  // A tool's output may be megabytes; the call it answers has an id of its own.
  if (typeof message['toolCallId'] === 'string') return `${role}.${message['toolCallId']}`;
  const size = Array.isArray(content) || typeof content === 'string' ? content.length : -1;
  const usage = message['usage'];
  const tokens = isPlainObject(usage) ? `${String(usage['input'])}.${String(usage['output'])}.${String(usage['cacheRead'])}.${String(usage['cacheWrite'])}` : '';
  return `${role}.${size}.${tokens}`;
}

/**
 * Ids written as no text (a tool of the user's wrote the file) lose the entry nothing: a number is
 * read as its text, so that what names it (likely a number too) still finds it. An entry's own id
 * or parent that is anything else is read as none, as an entry without one is. What names another
 * entry or a call (a result its call, a label its entry), and a call's own id (or the call was a
 * block of JSON), are read as text when numbers.
 */
function idsAsText(ctx: PiContext, record: Record<string, unknown>, line: number): Record<string, unknown> {
  let read = record;
  for (const field of ['id', 'parentId'] as const) {
    const value = read[field];
    if (value === undefined || value === null || (typeof value === 'string' && value !== '')) continue;
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, `${field} ${JSON.stringify(value) ?? String(value)} is no text: ${text === undefined ? 'read without it' : 'read as text'}`));
    read = { ...read, [field]: text };
  }
  const fields: string[] = [];
  const asText = (value: unknown, field: string): unknown => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return value;
    fields.push(field);
    return String(value);
  };
  for (const field of ['targetId', 'firstKeptEntryId', 'fromId']) if (typeof read[field] === 'number') read = { ...read, [field]: asText(read[field], field) };
  const message = read['message'];
  if (isPlainObject(message)) {
    let shown = message;
    if (typeof shown['toolCallId'] === 'number') shown = { ...shown, toolCallId: asText(shown['toolCallId'], 'toolCallId') };
    const content = shown['content'];
    // Calls are a reply's: other messages' content (a tool's output) is not looked through.
    if (shown['role'] === 'assistant' && Array.isArray(content) && content.some((block) => isPlainObject(block) && block['type'] === 'toolCall' && typeof block['id'] === 'number')) {
      shown = { ...shown, content: content.map((block) => (isPlainObject(block) && block['type'] === 'toolCall' ? { ...block, id: asText(block['id'], 'a tool call’s id') } : block)) };
    }
    if (shown !== message) read = { ...read, message: shown };
  }
  if (fields.length > 0) ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, `${[...new Set(fields)].join(', ')} written as a number: read as text`));
  return read;
}

/** Whether an entry's id comes after its time, as Pi's rewrite of a v1 file adds it (its own entries give it first). */
function idWrittenLate(record: Record<string, unknown>): boolean {
  for (const key in record) {
    if (key === 'id') return false;
    if (key === 'timestamp') return 'id' in record;
  }
  return false;
}

/** A v1-era entry's key: its time and content, without the ids a rewrite as v3 added. */
function v1Key(rawTime: string, record: Record<string, unknown>): string {
  return `v1@${rawTime}@${contentHash(withoutIds(record))}`;
}

/**
 * A record's content: a copy may be chained anew (a label taken out from between two entries), and
 * Pi's rewrite of a v1 file gives a compaction the id of its first entry kept for its index.
 */
function withoutIds(record: Record<string, unknown>): Record<string, unknown> {
  if (!('id' in record) && !('parentId' in record) && !('firstKeptEntryIndex' in record) && !('firstKeptEntryId' in record)) return record;
  const { id: _id, parentId: _parentId, firstKeptEntryIndex: _index, firstKeptEntryId: _kept, ...content } = record;
  return content;
}

/** Pi 0.31.0, the first to write tree files (v2), was released on 2 January 2026 (pi.md §19). */
const TREE_FILES_SINCE = Date.UTC(2026, 0, 2);

interface Built {
  payload: EntryPayload;
  usage: Usage[];
}

function payloadOf(
  ctx: PiContext,
  type: string,
  record: Record<string, unknown>,
  line: number,
  timestamp: number | null,
): Built | null {
  const parse = <S extends z.ZodType>(schema: S, what: string): z.infer<S> | null => parseRecord(schema, record, (d) => ctx.diagnostics.push(d), ctx.file, line, what);
  switch (type) {
    case 'message': {
      const entry = parse(raw.rawMessageEntry, 'message entry');
      return entry && messagePayload(ctx, entry.message, line, timestamp, 0);
    }
    case 'model_change': {
      const r = parse(raw.rawModelChange, 'model_change');
      if (!r) return null;
      ctx.modelInUse = { provider: r.provider ?? ctx.modelInUse.provider, model: r.modelId ?? null };
      return plain({ kind: 'modelChange', provider: r.provider ?? null, model: r.modelId ?? null });
    }
    case 'thinking_level_change': {
      const r = parse(raw.rawThinkingLevelChange, 'thinking_level_change');
      return r && plain({ kind: 'thinkingChange', level: r.thinkingLevel ?? null });
    }
    case 'compaction': {
      const r = parse(raw.rawCompaction, 'compaction');
      if (!r) return null;
      const firstKept =
        r.firstKeptEntryId ?? (typeof r.firstKeptEntryIndex === 'number' ? (ctx.cleanIds[r.firstKeptEntryIndex - 1] ?? null) : null);
      return {
        payload: { kind: 'compaction', summary: r.summary ?? '', tokensBefore: r.tokensBefore ?? null, firstKeptEntryId: firstKept },
        usage: usageFrom(ctx, r.usage, line, 'summary', guessedModel(ctx), timestamp),
      };
    }
    case 'branch_summary': {
      const r = parse(raw.rawBranchSummary, 'branch_summary');
      if (!r) return null;
      return {
        payload: { kind: 'branchSummary', summary: withoutBranchPreamble(r.summary ?? ''), fromId: r.fromId ?? null },
        usage: usageFrom(ctx, r.usage, line, 'summary', guessedModel(ctx), timestamp),
      };
    }
    case 'custom': {
      const r = parse(raw.rawCustom, 'custom');
      // What /share and /bug add to the copy they export (pi.md §5: the system prompt and tools),
      // never to the session: not work, and kept, it would make the copy a session of its own.
      if (r?.customType === 'pi.share') {
        passOver(ctx, record);
        return null;
      }
      return (
        r &&
        plain({ kind: 'custom', customType: r.customType ?? '(unnamed)', isMessage: false, display: false, content: [], data: r.data })
      );
    }
    case 'custom_message': {
      const r = parse(raw.rawCustomMessage, 'custom_message');
      return r && extensionMessage(r, ctx.cwd);
    }
    case 'label': {
      const r = parse(raw.rawLabel, 'label');
      return r && plain({ kind: 'label', targetId: r.targetId ?? null, label: r.label?.trim() || null });
    }
    case 'session_info': {
      const r = parse(raw.rawSessionInfo, 'session_info');
      // Pi replaces newlines with spaces and trims; an empty name clears it.
      return r && plain({ kind: 'name', name: r.name?.replace(/[\r\n]+/g, ' ').trim() || null });
    }
    case 'usage': {
      const r = parse(raw.rawUsageEntry, 'usage entry');
      if (!r) return null;
      const who = { provider: r.provider ?? null, model: r.model ?? null, requestedModel: r.model ?? null, responseModel: null, guessed: false };
      return {
        payload: { kind: 'usageOnly', usageKind: r.kind ?? 'usage', note: r.note ?? null },
        usage: usageFrom(ctx, r.usage, line, 'usage-entry', who, timestamp),
      };
    }
    case 'context_edit': {
      const r = parse(raw.rawContextEdit, 'context_edit');
      if (!r) return null;
      const replacement = r.replacement ? blocksOf(r.replacement.content, ctx.cwd) : null;
      return plain({ kind: 'contextEdit', targetId: r.targetId ?? null, omitted: r.replacement === null, replacement });
    }
    default:
      ctx.diagnostics.push(diagnostic('unknown-entry-type', ctx.file, line, `entry type ${JSON.stringify(type)}`));
      return plain({ kind: 'unknown', rawType: type, raw: record });
  }
}

/** An extension's message to the model: a custom_message entry, or (v2/v3 legacy) a message with role hookMessage/custom. */
function extensionMessage(
  m: { customType?: string | null; content?: unknown; display?: boolean | null; details?: unknown },
  cwd: string | null,
): Built {
  return plain({
    kind: 'custom',
    customType: m.customType ?? '(unnamed)',
    isMessage: true,
    display: m.display ?? true,
    content: blocksOf(m.content, cwd),
    data: m.details,
  });
}

function plain(payload: EntryPayload): Built {
  return { payload, usage: [] };
}

/**
 * A Pi AgentMessage → payload and usage. `depth` > 0 inside a sub-agent transcript, whose
 * usage is all sub-agent spend.
 */
function messagePayload(
  ctx: PiContext,
  message: Record<string, unknown> & { role: string },
  line: number,
  timestamp: number | null,
  depth: number,
): Built | null {
  // A sub-agent's message (depth 1 and on) is one of many in its tool result: left out alone,
  // its line kept (regression: each was said "(skipped)" and counted a skipped line, 3 of a 4-line file).
  const parse = <S extends z.ZodType>(schema: S, what: string): z.infer<S> | null => parseRecord(schema, message, (d) => ctx.diagnostics.push(d), ctx.file, line, what, depth > 0);
  switch (message.role) {
    case 'user': {
      const m = parse(raw.rawUserMessage, 'user message');
      return m && plain(promptPayload(blocksOf(m.content, ctx.cwd)));
    }
    case 'assistant': {
      const m = parse(raw.rawAssistantMessage, 'assistant message');
      if (!m) return null;
      const provider = m.provider ?? null;
      const requested = m.model ?? null;
      const responseModel = m.responseModel && m.responseModel !== requested ? m.responseModel : null;
      if (depth === 0) ctx.modelInUse = { provider, model: requested };
      const who = { provider, model: billedModel(provider, requested, responseModel, m.api ?? null), requestedModel: requested, responseModel, guessed: false };
      const content = blocksOf(m.content, ctx.cwd);
      for (const block of content) if (block.type === 'toolCall' && block.id) ctx.calls.set(block.id, block);
      return {
        payload: {
          kind: 'reply',
          content,
          outcome: replyOutcome(m.stopReason ?? null),
          stopReason: m.stopReason ?? null,
          errorMessage: m.errorMessage ?? null,
          provider,
          model: requested,
          responseModel,
        },
        usage: usageFrom(ctx, m.usage, line, depth > 0 ? 'subagent' : 'reply', who, timestamp),
      };
    }
    case 'toolResult': {
      const m = parse(raw.rawToolResultMessage, 'tool result');
      if (!m) return null;
      const sub = depth < MAX_SUBAGENT_DEPTH ? subagentRuns(ctx, m.details, line, timestamp, depth) : { runs: [], usage: [] };
      // Spend done inside the tool (pi.md §5), on a model it does not name: the chat model's price
      // is no guess for it (a tool may call any model), so it is unpriced, its recorded cost shown.
      const own = usageFrom(ctx, m.usage, line, depth > 0 ? 'subagent' : 'tool', NO_MODEL, timestamp);
      const content = blocksOf(m.content, ctx.cwd);
      const isError = m.isError ?? false;
      const call = m.toolCallId ? ctx.calls.get(m.toolCallId) : undefined;
      const output = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      const diff = editDiff(m.details);
      return {
        payload: {
          kind: 'toolResult',
          toolCallId: m.toolCallId ?? null,
          toolName: m.toolName ?? null,
          content,
          isError,
          subagents: sub.runs,
          diff,
          change: diff === null || isError ? null : diffChange(diff),
          commits: commitsOf(m.toolName ?? call?.name ?? null, call?.effect.command ?? null, output, isError),
          nestedCalls: (m.nestedCalls?.calls ?? []).map((c) => ({ name: c.name, status: c.status ?? null, error: c.error ?? null })),
        },
        usage: [...withoutRepeatOf(own, sub.usage), ...sub.usage],
      };
    }
    case 'bashExecution': {
      const m = parse(raw.rawBashExecutionMessage, 'bashExecution message');
      return (
        m &&
        plain({
          kind: 'shell',
          command: m.command,
          output: m.output ?? '',
          exitCode: m.exitCode ?? null,
          exitCodeRecorded: true,
          cancelled: m.cancelled ?? false,
          truncated: m.truncated ?? false,
          excludedFromContext: m.excludeFromContext ?? false,
        })
      );
    }
    case 'system': {
      const m = parse(raw.rawSystemMessage, 'system message');
      return (
        m &&
        plain({
          kind: 'system',
          content: blocksOf(m.content, ctx.cwd),
          sections: m.sections ?? {},
          toolsAdded: (m.toolsAdded ?? []).map((t) => t.name),
          toolsRemoved: (m.toolsRemoved ?? []).map((t) => t.name),
        })
      );
    }
    case 'custom':
    case 'hookMessage': {
      const m = parse(raw.rawCustomRoleMessage, 'custom message');
      return m && extensionMessage(m, ctx.cwd);
    }
    default:
      ctx.diagnostics.push(diagnostic('unknown-role', ctx.file, line, `message role ${JSON.stringify(message.role)}`));
      return plain({ kind: 'unknown', rawType: `message/${message.role}`, raw: message });
  }
}

/**
 * Files attached with `@path` come first in a prompt's text, each as `<file name="…">its
 * text</file>` (an image's element empty, the image after): put after the words typed, which
 * then title the session (it was titled `<file name="/tmp/red.png"></file> what is this`).
 */
function attachmentsAfterWords(content: Block[]): Block[] {
  const first = content[0];
  if (first?.type !== 'text') return content;
  const length = attachedFilesLength(first.text);
  const words = first.text.slice(length);
  if (length === 0 || words.trim() === '') return content;
  return [{ type: 'text', text: words }, ...content.slice(1), { type: 'text', text: first.text.slice(0, length).trim() }];
}

function promptPayload(written: Block[]): EntryPayload {
  const content = attachmentsAfterWords(written);
  const first = content[0];
  if (first?.type === 'text') {
    const split = splitSkillPrompt(first.text);
    if (split) {
      const typed: Block[] = split.typed ? [{ type: 'text', text: split.typed }] : [];
      return { kind: 'prompt', content: [...typed, ...content.slice(1)], skill: split.skill };
    }
  }
  return { kind: 'prompt', content, skill: null };
}

/**
 * The model that is billed (formats/pi.md §9): the requested one, except when Anthropic
 * answered with a fallback model, or a router alias ("auto") stood for the model that answered.
 * OpenRouter reports `:free` models without the suffix, so their requested id is kept.
 */
function billedModel(provider: string | null, requested: string | null, response: string | null, api: string | null): string | null {
  if (!response) return requested;
  if (provider === 'anthropic' || api === 'anthropic-messages') return response;
  if (requested === null || /(^|\/)auto$/.test(requested)) return response;
  return requested;
}

interface Who {
  provider: string | null;
  model: string | null;
  requestedModel: string | null;
  responseModel: string | null;
  guessed: boolean;
}

/** Tool and summary usage names no model; the one in use is the honest guess. */
const NO_MODEL: Who = { provider: null, model: null, requestedModel: null, responseModel: null, guessed: false };

/** Summaries (compaction, branch summaries) name no model: Pi makes them with the model in use. */
function guessedModel(ctx: PiContext): Who {
  const { provider, model } = ctx.modelInUse;
  return { provider, model, requestedModel: model, responseModel: null, guessed: model !== null };
}

/**
 * A record's usage, checked on its own. A count or a cost written as text ("1000") or as an
 * object is left out and reported, and the rest kept: a recorded cost that does not read costs
 * the record none of its tokens, and a count that does not read prices the record in part. Usage
 * that is not an object at all is reported, and the record kept without it.
 */
function usageFrom(ctx: PiContext, value: unknown, line: number, origin: UsageOrigin, who: Who, timestamp: number | null): Usage[] {
  if (value === undefined || value === null) return [];
  const parsed = raw.rawUsage.safeParse(value);
  if (parsed.success) return withCounts(usageOf(parsed.data, origin, who, timestamp), parsed.data);
  const readable = isPlainObject(value) ? readableUsage(value) : null;
  const retried = readable === null ? null : raw.rawUsage.safeParse(readable.usage);
  if (readable === null || !retried?.success) {
    ctx.diagnostics.push(invalidRecord(ctx.file, line, `${origin} usage (kept the record without it)`, parsed.error, false));
    return [];
  }
  ctx.diagnostics.push(invalidRecord(ctx.file, line, `${origin} usage (kept the counts and costs that read, the others left out)`, parsed.error, false));
  const usage = usageOf(retried.data, origin, who, timestamp);
  return withCounts(readable.countsLeftOut ? { ...usage, countsLeftOut: true } : usage, retried.data, readable.countsLeftOut);
}

/**
 * A usage object that gives no token count (`{}`, nulls) records no usage; one that gives only a
 * cost or a total (`{"cost": {"total": 0.5}}`, `{"totalTokens": 5000}`) records usage whose cost by
 * the table is unknown: priced in part with no part known, never $0.
 */
function withCounts(usage: Usage, u: raw.RawUsage, countsLeftOut = false): Usage[] {
  const counted = [u.input, u.output, u.cacheRead, u.cacheWrite].some((n) => typeof n === 'number');
  if (counted) return [usage];
  if (usage.recordedCost === null && typeof u.totalTokens !== 'number' && !countsLeftOut) return [];
  const { countsLeftOut: _leftOut, ...rest } = usage;
  return [{ ...rest, countsUnknown: true }];
}

const USAGE_COUNT_FIELDS: ReadonlySet<string> = new Set(['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'reasoning', 'totalTokens']);
const COST_FIELDS: ReadonlySet<string> = new Set(['input', 'output', 'cacheRead', 'cacheWrite', 'total']);

/** Usage with each count and cost that is not a number (or null) taken out, and whether a token count was. */
function readableUsage(usage: Record<string, unknown>): { usage: Record<string, unknown>; countsLeftOut: boolean } {
  // Infinity (1e400 in the file) is a number to JSON but no count or cost: left out as text is.
  const isNumber = (v: unknown) => v === null || v === undefined || Number.isFinite(v);
  // As pairs, made an object at once: a `__proto__` key assigned field by field would set the
  // object's prototype, and its counts would read as the record's.
  const kept: [string, unknown][] = [];
  let countsLeftOut = false;
  for (const [field, v] of Object.entries(usage)) {
    if (USAGE_COUNT_FIELDS.has(field) && !isNumber(v)) {
      // totalTokens is not read: a bad one costs nothing.
      if (field !== 'totalTokens') countsLeftOut = true;
    } else if (field === 'cost') {
      if (isPlainObject(v)) {
        kept.push([field, Object.fromEntries(Object.entries(v).filter(([part, n]) => (COST_FIELDS.has(part) ? isNumber(n) : part === 'totalFromProvider' ? typeof n === 'boolean' || n === null : true)))]);
      }
    } else kept.push([field, v]);
  }
  return { usage: Object.fromEntries(kept), countsLeftOut };
}

function usageOf(u: raw.RawUsage, origin: UsageOrigin, who: Who, timestamp: number | null): Usage {
  return {
    origin,
    input: u.input ?? 0,
    output: u.output ?? 0,
    cacheRead: u.cacheRead ?? 0,
    cacheWrite: u.cacheWrite ?? 0,
    cacheWrite1h: u.cacheWrite1h ?? 0,
    reasoning: u.reasoning ?? 0,
    provider: who.provider,
    model: who.model,
    requestedModel: who.requestedModel,
    responseModel: who.responseModel,
    recordedCost: recordedCost(u.cost),
    recordedCostFromProvider: u.cost?.totalFromProvider === true,
    modelGuessed: who.guessed,
    timestamp,
    claim: null,
    outputPartial: false,
    responseId: null,
    // Pi prices service tiers into its own cost but does not record which tier served a reply.
    fast: false,
    webSearches: 0,
  };
}

/** Pi's stored total; very old files may lack it, then the components are summed (as Pi's export does). */
function recordedCost(cost: raw.RawUsage['cost']): number | null {
  if (!cost) return null;
  if (typeof cost.total === 'number') return cost.total;
  const parts = [cost.input, cost.output, cost.cacheRead, cost.cacheWrite].filter((n): n is number => typeof n === 'number');
  return parts.length > 0 ? parts.reduce((a, b) => a + b, 0) : null;
}

/**
 * Sub-agent transcripts kept in a tool result by Pi's subagent extension (formats/pi.md §18):
 * `details.results[]`, each with the child's messages and their usage, or only an aggregate.
 */
function subagentRuns(
  ctx: PiContext,
  details: unknown,
  line: number,
  timestamp: number | null,
  depth: number,
): { runs: SubagentRun[]; usage: Usage[] } {
  if (!isPlainObject(details) || !Array.isArray(details['results'])) return { runs: [], usage: [] };
  const runs: SubagentRun[] = [];
  const usage: Usage[] = [];
  // Messages whose time is no time, said once for the tool result (a run may hold hundreds).
  let badTimes = 0;
  let firstBadTime: unknown;
  details['results'].forEach((item, index) => {
    // Some other tool's results, not a sub-agent's, are passed over without a word; a run with a
    // field out of shape is kept without it, and said.
    if (!isPlainObject(item) || !(Array.isArray(item['messages']) || isPlainObject(item['usage']))) return;
    const result = parseRecord(raw.rawSubagentResult, item, (d) => ctx.diagnostics.push(d), ctx.file, line, 'sub-agent result', true);
    if (result === null) return;
    const entries: Entry[] = [];
    let parentId: string | null = null;
    (result.messages ?? []).forEach((message, position) => {
      if (!isPlainObject(message) || typeof message['role'] !== 'string') return;
      // Each message's spend is of its own time: a sub-agent may run past midnight, or a month's
      // end. One that is no time goes by its tool result's, said (it may move to another day).
      const own = parseTime(message['timestamp']);
      if (own === null && message['timestamp'] !== undefined && message['timestamp'] !== null && message['timestamp'] !== '') {
        if (badTimes === 0) firstBadTime = message['timestamp'];
        badTimes++;
      }
      const time = own ?? timestamp;
      const built = messagePayload(ctx, message as Record<string, unknown> & { role: string }, line, time, depth + 1);
      if (!built) return;
      const id = `sub-${line}-${depth}-${index}-${position}`;
      entries.push({ key: id, id, parentId, timestamp: time, line, recovered: false, ...built.payload, usage: built.usage } as Entry);
      parentId = id;
    });
    const childUsage = entries.flatMap((e) => e.usage);
    const childReplies = entries.filter((e): e is EntryOf<'reply'> => e.kind === 'reply');
    // pi-subagents writes the model as `--model` takes it: with Pi's thinking level
    // (`claude-haiku-4-5:high`), maybe after its provider (`anthropic/…`). The model is the rest.
    const written = result.model === undefined || result.model === null ? null : result.model.replace(THINKING_LEVEL, '');
    const slash = written?.indexOf('/') ?? -1;
    const namedProvider = written !== null && slash > 0 ? written.slice(0, slash) : null;
    // Not where its replies name the whole as their model (OpenRouter's `anthropic/claude-…`).
    const knownProvider =
      namedProvider !== null &&
      !childReplies.some((e) => e.model === written) &&
      (namedProvider === ctx.modelInUse.provider || childReplies.some((e) => e.provider === namedProvider));
    const model = knownProvider && written !== null ? written.slice(slash + 1) : written;
    // The aggregate names no provider; the child's replies do (the same model is one row, not two).
    // Without replies (a run that failed at once), the provider the session's own replies on that model had.
    const provider =
      (knownProvider ? namedProvider : null) ??
      childReplies.find((e) => e.provider !== null && (model === null || e.model === model))?.provider ??
      (model !== null && model === ctx.modelInUse.model ? ctx.modelInUse.provider : null);
    // The sums are of the run's own replies: a run inside it (a sub-agent's sub-agent) has its own.
    const ownUsage = childReplies.flatMap((e) => e.usage);
    const aggregate =
      childUsage.length === 0
        ? aggregateUsage(ctx, result.usage, model, provider, line, timestamp)
        : aggregateUsage(ctx, unkeptSums(result.usage, ownUsage, childReplies.length), model, provider, line, timestamp);
    usage.push(...childUsage, ...aggregate);
    runs.push({
      ...(aggregate.length > 0 ? { aggregate } : {}),
      agent: result.agent ?? 'subagent',
      task: result.task ?? '',
      // 0.58's results have no status: a child that exited with a code other than 0 failed.
      status: result.status ?? (typeof result.exitCode === 'number' && result.exitCode !== 0 ? `failed (exit ${result.exitCode})` : null) ?? result.stopReason ?? null,
      model: result.model ?? null,
      errorMessage: result.errorMessage ?? null,
      entries,
    });
  });
  if (badTimes > 0) recordTime(firstBadTime, ctx, line, badTimes === 1 ? 'the sub-agent message goes by its tool result’s time' : `it and ${badTimes - 1} more of its sub-agent messages go by their tool result’s time`);
  // A run given by its sums alone whose provider nothing above told is given one once the file is
  // read (providersForSums).
  return { runs, usage };
}

/**
 * A sub-agent run given by its sums alone whose provider nothing at its call told: the provider
 * another reply of the file on its model names, the session's or a run's (a sibling of one call,
 * or a run of another: a local model's second call, its first run's replies naming ollama), so
 * that the model is one row, not two.
 */
function providersForSums(entries: readonly Entry[]): void {
  const providers = new Map<string, string>();
  const named = (list: readonly Entry[]) => {
    for (const entry of list) {
      if (entry.kind === 'reply' && entry.model !== null && entry.provider !== null && !providers.has(entry.model)) providers.set(entry.model, entry.provider);
      if (entry.kind === 'toolResult') for (const run of entry.subagents) named(run.entries);
    }
  };
  named(entries);
  if (providers.size === 0) return;
  const fill = (list: readonly Entry[]) => {
    for (const entry of list) {
      if (entry.kind !== 'toolResult') continue;
      // Its sibling runs' first: one call's runs ran on one provider (a subscription's, $0).
      const siblings = new Map<string, string>();
      for (const run of entry.subagents) for (const e of run.entries) if (e.kind === 'reply' && e.model !== null && e.provider !== null && !siblings.has(e.model)) siblings.set(e.model, e.provider);
      for (const run of entry.subagents) {
        for (const record of run.aggregate ?? []) if (record.provider === null && record.model !== null) record.provider = siblings.get(record.model) ?? providers.get(record.model) ?? null;
        fill(run.entries);
      }
    }
  };
  fill(entries);
}

function aggregateUsage(ctx: PiContext, value: unknown, model: string | null, provider: string | null, line: number, timestamp: number | null): Usage[] {
  const usage = isPlainObject(value) && typeof value['cost'] === 'number' ? { ...value, cost: { total: value['cost'] } } : value;
  const records = usageFrom(ctx, usage, line, 'subagent', { provider, model, requestedModel: model, responseModel: null, guessed: false }, timestamp);
  const turns = isPlainObject(value) ? value['turns'] : undefined;
  if (typeof turns !== 'number' || !Number.isInteger(turns) || turns < 2 || !isPlainObject(value)) return records;
  // The sums of several requests: a long-context tier goes by one request's prompt (pricing.md
  // §6.5), here the largest, which the sums can only be judged by: no prompt is smaller than the
  // largest, nor than the prompts' mean; a run's context grows, so its last reply's whole context
  // (§18's contextTokens, its output too) is most often about its largest, but for a last reply
  // that failed (0) or came after a compaction: the larger of the two.
  return records.map((record) => {
    const prompt = record.input + record.cacheRead + record.cacheWrite;
    const context = value['contextTokens'];
    const last = typeof context === 'number' && Number.isInteger(context) && context >= 0 ? context : 0;
    return { ...record, largestPrompt: Math.min(prompt, Math.max(last, Math.ceil(prompt / turns))) };
  });
}

/** Pi's thinking level written after a model (`:high`), as `--model` and sub-agent extensions take it. */
const THINKING_LEVEL = /:(?:off|minimal|low|medium|high|xhigh)$/;

/**
 * What a run's sums hold beyond the replies its transcript kept, as sums of their own: a transcript
 * cut to its last messages (pi-subagents keeps 200) while the sums count every turn. Null when the
 * transcript holds as many replies as the sums' turns, or the sums hold nothing more.
 */
function unkeptSums(sums: unknown, kept: readonly Usage[], replies: number): Record<string, unknown> | null {
  if (!isPlainObject(sums)) return null;
  const turns = sums['turns'];
  if (typeof turns !== 'number' || !Number.isInteger(turns) || turns <= replies) return null;
  const more = (field: 'input' | 'output' | 'cacheRead' | 'cacheWrite') => {
    const total = sums[field];
    return typeof total === 'number' && Number.isFinite(total) ? Math.max(0, total - kept.reduce((sum, usage) => sum + usage[field], 0)) : 0;
  };
  const rest = { input: more('input'), output: more('output'), cacheRead: more('cacheRead'), cacheWrite: more('cacheWrite') };
  if (Object.values(rest).every((value) => value === 0)) return null;
  const cost = sums['cost'];
  const keptCost = kept.every((usage) => usage.recordedCost !== null) ? kept.reduce((sum, usage) => sum + (usage.recordedCost ?? 0), 0) : null;
  const restCost = typeof cost === 'number' && Number.isFinite(cost) && keptCost !== null ? Math.max(0, cost - keptCost) : undefined;
  return { ...rest, ...(restCost === undefined ? {} : { cost: restCost }), turns: turns - replies, contextTokens: sums['contextTokens'] };
}

/** A tool that reports its sub-agents' spend both as its own usage and in its transcripts is counted once. */
function withoutRepeatOf(own: Usage[], subagent: Usage[]): Usage[] {
  if (own.length === 0 || subagent.length === 0) return own;
  const sum = (list: Usage[], k: 'input' | 'output') => list.reduce((a, u) => a + u[k], 0);
  const same = sum(own, 'input') === sum(subagent, 'input') && sum(own, 'output') === sum(subagent, 'output');
  return same ? [] : own;
}

function blocksOf(content: unknown, cwd: string | null): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (Array.isArray(content)) return content.map((value) => blockOf(value, cwd));
  // A single block where an array was expected, or something else entirely: shown as it is.
  return [blockOf(content, cwd)];
}

function blockOf(value: unknown, cwd: string | null): Block {
  if (!isPlainObject(value)) return { type: 'unknown', blockType: typeof value, raw: value };
  const blockType = typeof value['type'] === 'string' ? value['type'] : '(untyped)';
  switch (blockType) {
    case 'text': {
      const b = raw.rawTextBlock.safeParse(value);
      if (b.success) return { type: 'text', text: b.data.text };
      break;
    }
    case 'thinking': {
      const b = raw.rawThinkingBlock.safeParse(value);
      if (b.success) return { type: 'thinking', text: b.data.thinking ?? '', redacted: b.data.redacted ?? false };
      break;
    }
    case 'toolCall': {
      const b = raw.rawToolCallBlock.safeParse(value);
      if (b.success) {
        const error = b.data.argumentsError;
        const args = b.data.arguments ?? {};
        return {
          type: 'toolCall',
          id: b.data.id ?? '',
          name: b.data.name,
          arguments: args,
          argumentsError: error === undefined || error === null ? null : typeof error === 'string' ? error : JSON.stringify(error),
          effect: toolEffect(b.data.name, args, cwd),
        };
      }
      break;
    }
    case 'image': {
      const b = raw.rawImageBlock.safeParse(value);
      if (b.success) return { type: 'image', mimeType: b.data.mimeType, data: b.data.data };
      break;
    }
  }
  return { type: 'unknown', blockType, raw: value };
}

/** Messages carry their own Unix-ms time; used when the entry's ISO time is missing. */
function messageTime(record: Record<string, unknown>): number | null {
  const message = record['message'];
  return isPlainObject(message) ? parseTime(message['timestamp']) : null;
}

/** Pi's stop reasons: `stop` and `toolUse` end a reply normally; the rest say how it failed. */
function replyOutcome(stopReason: string | null): ReplyOutcome {
  switch (stopReason) {
    case 'error':
      return 'error';
    case 'aborted':
      return 'aborted';
    case 'length':
      return 'length';
    default:
      return 'ok';
  }
}

/** `…/2026-11-30T11-32-37-825Z_<id>.jsonl` → `<id>`; a bare id stays as it is. */
function piSessionIdOfPath(recorded: string | null): string | null {
  if (recorded === null) return null;
  const name = (recorded.split(/[\\/]/).pop() ?? recorded).replace(/\.jsonl$/i, '');
  const underscore = name.indexOf('_');
  return underscore === -1 ? name : name.slice(underscore + 1);
}

/** Pi writes its own preamble at the head of a branch summary; the report's event line already says it. */
const BRANCH_SUMMARY_PREAMBLE = /^The user explored a different conversation branch before returning here\.\s*\nSummary of that exploration:\s*\n?/;

function withoutBranchPreamble(summary: string): string {
  return summary.replace(BRANCH_SUMMARY_PREAMBLE, '');
}
