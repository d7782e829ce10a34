// Codex rollout files (envelope format since autumn 2025, and the bare pre-envelope format of
// mid-2025) → normalised SessionFile. Knows Codex's raw field names so that nothing else has to
// (formats/codex.md).
//
// Counting across files. A fork or a spawned child re-persists its parent's rollout at its start,
// token_count events included (§9), and an archived thread is a byte copy of an active one. Both
// are matched by content, never by file:
// - Each entry's key is `<anchor>:<payload hash>:<turn id>#<occurrence>` (in a turn that names no
//   id, `<turn id>@<running totals before it>`); the envelope's write time is left out because a
//   replay re-stamps it, and the turn id keeps a fork's own turns apart from its parent's later
//   ones even when the same words are typed.
// - Each usage record's claim is `<anchor>|<totals before>><totals after>`, with its turn id (see
//   Usage.claimTurn): a replayed token_count carries the parent's totals on both sides, a thread's
//   own one its own, and two forks of one point, starting from the same totals, tell their own
//   usage apart by their turns.
// - The anchor is the oldest thread of the file's lineage that the file names: follow
//   `forked_from_id` and a spawned child's `parent_thread_id` through the session_meta lines the
//   file holds. Parent, fork and child thus share the anchor (a child's replay is matched to its
//   parent by totals, whether or not it copied the parent's session_meta), while two unrelated
//   threads whose totals happen to match never do.

import { basename } from 'node:path';
import type { z } from 'zod';
import { diagnostic, type FileDiagnostics } from '../../diagnostics.js';
import type { Block, Entry, EntryPayload, FileChange, SessionFile, ToolDiff, Usage } from '../../types.js';
import { cutDeepNesting, isPlainObject, MAX_NESTING } from '../json-line.js';
import { lineRecords } from '../line-records.js';
import type { RawLine } from '../lines.js';
import { diffChange, pathBesideCwd } from '../tool-output.js';
import { diffChangeByFile } from '../../diff-lines.js';
import type { PendingLine, SourceInput } from '../source-input.js';
import * as raw from './schema.js';
import { threadNameOf } from './session-index.js';
import { appliedDiff, commitsOf, exitCodeOf, patchDiff, patchTextOf, saysCallFailed, toolEffect } from './tools.js';
import { contentHash, invalidRecord, parseRecord, parseTime, recordTime, salvagedStringField } from '../record-fields.js';
import { countProblem, describe, MAX_TOKENS_PER_RECORD } from '../usage-check.js';
import { cutText, shortened, SUMMARY_KEPT } from '../../unicode-text.js';

/** Top-level `type`s of the envelope format. */
const ENVELOPE_TYPES: ReadonlySet<string> = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted', 'token_usage_record']);
/** Known record types that hold nothing to show or count. */
const SKIPPED_TYPES: ReadonlySet<string> = new Set([
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'world_state',
  'security_risk_score',
  'ghost_snapshot',
]);
/** Bare response items of the pre-envelope format. */
const LEGACY_ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);
const TOOL_OUTPUT_TYPES: ReadonlySet<string> = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'tool_search_output']);
const COMPACTION_ITEM_TYPES: ReadonlySet<string> = new Set(['compaction', 'compaction_summary', 'context_compaction']);

/** `{timestamp, type: "session_meta", payload: {id}}`. */
export function isCodexHeader(record: Record<string, unknown>): boolean {
  const payload = record['payload'];
  return record['type'] === 'session_meta' && isPlainObject(payload) && typeof payload['id'] === 'string' && payload['id'] !== '';
}

/** The pre-envelope header: `{id, timestamp, instructions?, cwd?, git?}` and nothing else (no `type`, unlike Pi's header). */
export function isLegacyCodexHeader(record: Record<string, unknown>): boolean {
  if (typeof record['id'] !== 'string' || typeof record['timestamp'] !== 'string') return false;
  return Object.keys(record).every((key) => raw.LEGACY_HEADER_KEYS.has(key));
}

/** Whether an object salvaged from a damaged line is a whole Codex record (not a block nested in one). */
export function isCodexRecord(value: Record<string, unknown>): boolean {
  const type = value['type'];
  if (typeof type !== 'string') return false;
  if (ENVELOPE_TYPES.has(type) || SKIPPED_TYPES.has(type)) return isPlainObject(value['payload']) && typeof value['timestamp'] === 'string';
  return false;
}

/** A first record that is a Codex record without a header before it (the session_meta line was damaged). */
export function isHeaderlessCodexRecord(record: Record<string, unknown>): boolean {
  return isCodexRecord(record) && record['type'] !== 'session_meta';
}

type ToolCallBlock = Extract<Block, { type: 'toolCall' }>;
type ReplyEntry = Extract<Entry, { kind: 'reply' }>;
type ToolResultEntry = Extract<Entry, { kind: 'toolResult' }>;

/** An entry as read, before ids, parents and keys are given (they depend on the whole file). */
interface Draft {
  entry: Entry;
  /** The key without its anchor: payload hash, usage position, occurrence. */
  keyBody: string;
  dropped: boolean;
  /** The first entry of what the user sent (the editor's context, else the prompt): a rollback cuts before it. */
  opensUserTurn?: true;
  /** On a `thread_rolled_back` notice: how many of the last user turns the user undid. */
  undoesTurns?: number;
}

interface Totals {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  total: number;
}

/**
 * Counts of texts seen from one copy (events or items) and not yet matched by the other, told
 * apart by what they say: a copy may end in a line break the other has not.
 */
class TextTally {
  private readonly counts = new Map<string, number>();
  add(text: string): void {
    const key = text.trim();
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  /** Takes one match of `text`, if there is one. */
  take(text: string): boolean {
    const key = text.trim();
    const n = this.counts.get(key) ?? 0;
    if (n === 0) return false;
    if (n === 1) this.counts.delete(key);
    else this.counts.set(key, n - 1);
    return true;
  }
  clear(): void {
    this.counts.clear();
  }
}

/** Reading state of one file. */
interface CodexContext {
  file: string;
  diagnostics: FileDiagnostics;
  legacy: boolean;
  /** The file's own thread: its first session_meta (or what was rebuilt for it). */
  own: raw.RawSessionMeta | null;
  ownRebuilt: boolean;
  /** Session metas of other threads whose history the file copies, by id. */
  copied: Map<string, raw.RawSessionMeta>;
  /**
   * The other threads whose metas lead the file, right after its own and before any record of
   * its history, in file order: a copy replays its origin's rollout, which begins with the
   * origin's own meta and those it copied in turn (C holds C, B, A when it copied B, a copy of A).
   * Only these name where the file's history came from.
   */
  leadingCopies: string[];
  /** A record other than a session_meta was read: metas after it lead nothing. */
  pastMetas: boolean;
  cwd: string | null;
  /** The git repository the meta names (its address, without credentials): the project of a rollout with no cwd (codex.md §3). */
  repository: string | null;
  provider: string;
  model: string | null;
  effort: string | null;
  drafts: Draft[];
  /** The reply the current sampling request is writing into. */
  openReply: ReplyEntry | null;
  /** The last reply of the current turn: an interruption or error lands on it. */
  turnReply: ReplyEntry | null;
  calls: Map<string, ToolCallBlock>;
  results: Map<string, ToolResultEntry>;
  execExit: Map<string, number>;
  /** Threads spawned by a tool call (collab events), by call id. */
  spawned: Map<string, string>;
  patchApplied: Map<string, { success: boolean | null; diff: ToolDiff | null }>;
  /** A result made of a patch's `patch_apply_end`, kept only when the call's output never came. */
  patchResults: Map<string, Draft>;
  /** exec_command calls still running when they returned, by the session id write_stdin polls them by. */
  runningCommands: Map<string, string>;
  /** Those whose exit a poll's output told (and counted). */
  exitPolled: Set<string>;
  /** Assistant texts and reasoning summaries seen as events or as response items, not yet matched by their twin. */
  textFromEvents: TextTally;
  textFromItems: TextTally;
  thinkingFromEvents: TextTally;
  thinkingFromItems: TextTally;
  /** Prompts the user typed (user_message events), with their place among the drafts: role:user items with the same text are their twins. */
  typed: { draft: Draft; text: string; at: number }[];
  /**
   * role:user items, shown as injected context unless they are the twin of a typed prompt.
   * `images`: what they held that a prompt may lack; `afterResult`: the tool result an item of
   * images alone follows (view_image's picture), which shows them when no prompt does.
   */
  userItems: { draft: Draft; text: string; images: Block[]; afterResult: Draft | null; at: number; typed: boolean }[];
  justCompacted: boolean;
  /** Usage: the last cumulative totals, and the usage records with their totals before and after. */
  totals: Totals | null;
  /** When the event that gave `totals` was written, when it says. */
  totalsAt: number | null;
  /** A compaction came after the last token_count. */
  compactedSinceCount: boolean;
  /** Tool calls an item_completed says failed (an MCP call's): their results are errors. */
  failedCalls: Set<string>;
  /** Web searches the model ran (web_search_call items) since the last usage counted: billed with the response that ran them, which the next count holds. */
  searches: number;
  /** The thread's service tier as its last settings event said: fast mode (OpenAI's priority tier), flex, or standard. */
  serviceTier: 'fast' | 'flex' | null;
  /** The prompt (input, cached included) of the last response whose own counts were read: a long-context tier of requests whose line is lost is judged by it. */
  lastPrompt: number | null;
  /** Each usage record with what its claim is made of: its turn (null: matched by totals alone), and the running totals before and after it. */
  usages: { usage: Usage; turn: string | null; before: string; after: string }[];
  /**
   * The responses 0.169 recorded one by one (`token_usage_record`, each before its token_count)
   * that no token_count has counted yet: counted apart, unless one does (told by their counts).
   */
  recordsUncounted: RecordedResponse[];
  /** The response the last count event counted, when no record of it was read: a record written right after it is its own. */
  countedUnrecorded: Totals | null;
  /** Usage counted before any turn context named a model, and whether fast mode was set then: see turnContext. */
  unmodelled: { usage: Usage; fastAsked: boolean }[];
  occurrences: Map<string, number>;
  /** The turn being read: part of each entry's key, so a fork's own turns never match its parent's. */
  turnId: string;
  /** The turn being read named itself (its turn_context or turn_started gave its id): its id alone places an entry. */
  turnNamed: boolean;
  /** The turn a task_started opened, until its end (task_complete, turn_aborted) is read. */
  openTurn: string | null;
  /** Reading another thread's history copied here (after its meta), until this thread's own settings or a turn begun inside another's. */
  replaying: boolean;
  /**
   * A copied history leading the file: the start of the thread it copies, and where in `drafts`
   * and `usages` it began (see datedCopy).
   */
  copyStart: { dated: number; drafts: number; usages: number } | null;
  /** The last damaged token_count as written, so that its re-emit is not counted again. */
  lastDamaged: string | null;
  /**
   * Running totals that went lower than the last (a restart, or a damaged line): the totals before
   * them moved on by what their response counted, and their line. Totals after them that are
   * higher again tell a damaged line (a lost digit), measured from these.
   */
  dip: { from: Totals; line: number } | null;
  startedAt: number | null;
}

export interface CodexInput extends Pick<SourceInput, 'path' | 'size' | 'mtime' | 'lines' | 'diagnostics' | 'damaged'> {
  /** The first record and any glued to it. */
  first: PendingLine;
  /** The first record is not a header: the session_meta line was damaged or is missing. */
  headerless: boolean;
}

export async function readCodexSession(input: CodexInput): Promise<SessionFile> {
  const ctx: CodexContext = {
    file: input.path,
    diagnostics: input.diagnostics,
    legacy: false,
    own: null,
    ownRebuilt: false,
    copied: new Map(),
    leadingCopies: [],
    pastMetas: false,
    cwd: null,
    repository: null,
    provider: 'openai',
    model: null,
    effort: null,
    drafts: [],
    openReply: null,
    turnReply: null,
    calls: new Map(),
    results: new Map(),
    execExit: new Map(),
    spawned: new Map(),
    patchApplied: new Map(),
    patchResults: new Map(),
    runningCommands: new Map(),
    exitPolled: new Set(),
    textFromEvents: new TextTally(),
    textFromItems: new TextTally(),
    thinkingFromEvents: new TextTally(),
    thinkingFromItems: new TextTally(),
    typed: [],
    userItems: [],
    justCompacted: false,
    totals: null,
    totalsAt: null,
    lastPrompt: null,
    failedCalls: new Set(),
    searches: 0,
    compactedSinceCount: false,
    serviceTier: null,
    usages: [],
    recordsUncounted: [],
    countedUnrecorded: null,
    unmodelled: [],
    occurrences: new Map(),
    turnId: '',
    turnNamed: false,
    openTurn: null,
    replaying: false,
    copyStart: null,
    lastDamaged: null,
    dip: null,
    startedAt: null,
  };
  if (input.headerless || ownMetaLost(input)) rebuildHeader(ctx, input.damaged, input.first.line);

  const { first } = input;
  first.records.forEach((record, index) => addRecord(ctx, record, first.line, first.records.length > 1 ? index + 1 : 0, first.clean));
  let lineCount = first.line;
  let previous = '';
  for await (const line of input.lines) {
    lineCount = line.number;
    // A line written twice over (a writer's retry, a bad copy): its records have no id to tell a
    // second of the same by, and a prompt or a reply was counted twice. Codex writes none twice.
    if (line.text !== '' && line.text === previous) {
      ctx.diagnostics.push(diagnostic('invalid-record', input.path, line.number, 'the line before written again as it was: read once'));
      continue;
    }
    previous = line.text;
    const { records, clean } = lineRecords(line, input.path, isAnyCodexLine, ctx.diagnostics);
    records.forEach((record, index) => addRecord(ctx, record, line.number, records.length > 1 ? index + 1 : 0, clean));
  }

  const own = ctx.own ?? { id: basename(input.path).replace(/\.jsonl$/i, '') };
  const origin = originOf(own, ctx.leadingCopies);
  const anchor = lineageAnchor(own, ctx.copied, ctx.leadingCopies);
  const entries = finish(ctx, anchor, idPrefixOf(own.id));
  // The index's name, unless the rollout renamed the thread after it (codex.md: newest wins).
  const named = await threadNameOf(input.path, own.id);
  if (named !== null && named.updatedAt >= lastRenameTime(entries)) entries.push(nameEntry(named.name, anchor, own.id, lineCount, entries.at(-1)?.id ?? null));
  const spawn = spawnOf(own);
  return {
    source: 'codex',
    path: input.path,
    size: input.size,
    mtime: input.mtime,
    sessionId: own.id,
    cwd: ctx.cwd,
    // Codex files its rollouts by date, not by project: one with no cwd goes by its repository.
    projectFolder: ctx.cwd === null ? ctx.repository : null,
    startedAt: ctx.startedAt,
    // Codex links forks by thread id, never by path: the id it records is what names the origin (design.md §3).
    parentFile: origin,
    parentSessionId: origin,
    namedByAgent: /^rollout-.*\.jsonl$/.test(basename(input.path)) && basename(input.path).endsWith(`${own.id}.jsonl`),
    // A review, compaction or other sub-agent thread names no parent in its source (§3): the thread
    // it was forked from or copied, when the file says, else none (a sub-agent with no main
    // transcript). Its task is not a prompt of yours, its usage sub-agent spend.
    subagentOf: spawn.label === null ? null : (spawn.parent ?? origin ?? own.id),
    subagentLabel: spawn.label,
    subagentId: spawn.parent === null ? null : own.id,
    startedSubagents: [...ctx.spawned].map(([callId, subagentId]) => ({ callId, subagentId })),
    entryTitles: [],
    formatVersion: ctx.legacy ? 1 : 2,
    agentVersions: own.cli_version ? [own.cli_version] : [],
    entries,
    diagnostics: ctx.diagnostics.list(),
    lineCount,
  };
}

/** Records of either format, for salvaging glued lines once the file is known to be Codex's. */
function isAnyCodexLine(value: Record<string, unknown>): boolean {
  if (isCodexRecord(value)) return true;
  const type = value['type'];
  return typeof type === 'string' && LEGACY_ITEM_TYPES.has(type) && ('role' in value || 'call_id' in value);
}

/** The thread id a rollout's name ends with (`rollout-<time>-<id>.jsonl`), if any. */
function threadIdOfName(path: string): string | null {
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(basename(path))?.[1] ?? null;
}

/**
 * The file's own session_meta was damaged and the first one read is another thread's, which a
 * fork or a spawned child copies after its own (§3, §9): a damaged line holding a session_meta
 * came first, and the one read names a thread other than the file's name does.
 */
function ownMetaLost(input: Pick<CodexInput, 'path' | 'damaged' | 'first'>): boolean {
  const first = input.first.records[0];
  const payload = first?.['payload'];
  if (first?.['type'] !== 'session_meta' || !isPlainObject(payload) || typeof payload['id'] !== 'string') return false;
  const named = threadIdOfName(input.path);
  return named !== null && payload['id'].toLowerCase() !== named.toLowerCase() && input.damaged.some((line) => /"session_meta"/.test(line.text));
}

/** The first record is not the file's own session_meta: identity from what remains of a cut-off one, else the file name's trailing UUID. */
function rebuildHeader(ctx: CodexContext, damaged: readonly RawLine[], firstLine: number): void {
  const text = damaged.map((d) => d.text).find((line) => /"session_meta"/.test(line)) ?? '';
  const field = (name: string): string | null => salvagedStringField(text, name);
  const name = basename(ctx.file);
  const uuid = threadIdOfName(ctx.file);
  const id = field('id') ?? uuid ?? name.replace(/\.jsonl$/i, '');
  ctx.own = { id, cwd: field('cwd'), timestamp: field('timestamp'), model_provider: field('model_provider') };
  ctx.ownRebuilt = true;
  ctx.cwd = ctx.own.cwd || null;
  ctx.startedAt = parseTime(ctx.own.timestamp);
  if (ctx.own.model_provider) ctx.provider = ctx.own.model_provider;
  const rebuilt = field('id') ? 'its thread id rebuilt from what remained of it' : uuid ? 'its thread id taken from the file name' : 'the file name, which holds no thread id, taken whole as its id';
  ctx.diagnostics.push(diagnostic('header-damaged', ctx.file, damaged[0]?.number ?? firstLine, `no readable session_meta before the first record; ${rebuilt}`));
}

function addRecord(ctx: CodexContext, record: Record<string, unknown>, line: number, piece: number, clean: boolean): void {
  const at: Place = { line, piece, recovered: !clean };
  if (ctx.own === null && isLegacyCodexHeader(record)) {
    const header = raw.rawLegacyHeader.parse(record);
    ctx.legacy = true;
    setOwn(ctx, { id: header.id, timestamp: header.timestamp, cwd: header.cwd, git: record['git'] });
    return;
  }
  const type = record['type'];
  if (typeof type !== 'string') {
    // `{"record_type":"state"}` markers of the pre-envelope format carry nothing to show.
    if ('record_type' in record) return;
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, 'a record without a type (skipped)', true));
    return;
  }
  if (!('payload' in record) && LEGACY_ITEM_TYPES.has(type)) {
    ctx.legacy = true;
    handleItem(ctx, record, at, ctx.startedAt);
    return;
  }
  const envelope = raw.rawEnvelope.safeParse(record);
  if (!envelope.success) {
    ctx.diagnostics.push(invalidRecord(ctx.file, line, 'record', envelope.error));
    return;
  }
  const time = recordTime(envelope.data.timestamp, ctx, line);
  const payload = envelope.data.payload;
  if (SKIPPED_TYPES.has(type)) return;
  if (!isPlainObject(payload)) {
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, `${type} record without a payload object (skipped)`, true));
    return;
  }
  if (type !== 'session_meta') ctx.pastMetas = true;
  switch (type) {
    case 'session_meta':
      return sessionMeta(ctx, payload, at, time);
    case 'turn_context':
      return turnContext(ctx, payload, at, time);
    case 'response_item':
      return handleItem(ctx, payload, at, time);
    case 'event_msg':
      return handleEvent(ctx, payload, at, time);
    case 'token_usage_record':
      return usageRecord(ctx, payload, at, time);
    case 'compacted': {
      const r = parse(ctx, raw.rawCompacted, payload, line, 'compacted');
      if (!r) return;
      closeReply(ctx);
      ctx.justCompacted = true;
      ctx.compactedSinceCount = true;
      // 0.169 and later write the summariser's answer as an assistant message first: the
      // compaction's summary, shown by its landmark, not a reply to the user (its usage is counted).
      const summarised = summaryReply(ctx, r.message ?? '');
      if (summarised !== null) summarised.dropped = true;
      add(ctx, payload, at, time, { kind: 'compaction', summary: r.message ?? '', tokensBefore: null, firstKeptEntryId: null });
      return;
    }
    default:
      ctx.diagnostics.push(diagnostic('unknown-entry-type', ctx.file, line, `record type ${JSON.stringify(type.slice(0, 60))}`));
      add(ctx, payload, at, time, { kind: 'unknown', rawType: type, raw: withoutEncrypted(payload) });
  }
}

interface Place {
  line: number;
  piece: number;
  recovered: boolean;
}

function setOwn(ctx: CodexContext, meta: raw.RawSessionMeta): void {
  // A thread named as forked from itself (a hostile or damaged meta) is no copy of another.
  ctx.own = meta.forked_from_id === meta.id ? { ...meta, forked_from_id: null } : meta;
  // An empty cwd names no folder (a project of no name), as a missing one.
  ctx.cwd = meta.cwd || ctx.cwd;
  ctx.repository = repositoryOf(meta['git']) ?? ctx.repository;
  ctx.startedAt = parseTime(meta.timestamp) ?? ctx.startedAt;
  if (meta.model_provider) ctx.provider = meta.model_provider;
}

/**
 * `git.repository_url` as its host and path only (`github.com/acme/alpha.git`), whatever wrote it
 * (https, ssh, scp's `git@host:path`): no user, password, token or query, and one repository one
 * project however it was cloned. An address of no shape git takes gives none.
 */
function repositoryOf(git: unknown): string | null {
  const url = isPlainObject(git) ? git['repository_url'] : undefined;
  if (typeof url !== 'string' || url.trim() === '') return null;
  const address = url.trim();
  let host: string | null = null;
  let path = '';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(address);
  if (scheme) {
    // The credentials end at the last @ (a password may hold / # or @ unencoded, which a URL
    // parser takes for the path's start).
    const rest = address.slice(scheme[0].length);
    const afterCredentials = rest.slice(rest.lastIndexOf('@') + 1);
    try {
      const parsed = new URL(`${scheme[0]}${afterCredentials}`);
      // A local repository (file://) is its path; a remote one its host, without the default port.
      host = parsed.protocol === 'file:' ? '' : parsed.hostname === '' ? null : `${parsed.hostname}${parsed.port && !DEFAULT_PORTS.has(parsed.port) ? `:${parsed.port}` : ''}`;
      path = decodeURIComponentSafe(parsed.pathname);
    } catch {
      host = null;
    }
  } else if (/^(?:\/|~\/)/.test(address)) {
    // A local repository by its path.
    host = '';
    path = address;
  } else {
    // scp's form: [user@]host:path (a host of one letter is a Windows drive: no remote).
    const scp = /^(?:\S*@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{2,}):(?!\/\/)([^\s?#]+)/.exec(address);
    if (scp) {
      host = scp[1] as string;
      path = `/${(scp[2] as string).replace(/^\/+/, '')}`;
    }
  }
  if (host === null || path.replace(/\/+$/, '') === '') return null;
  // One repository however it was cloned: its host in small letters, its path as written, without a trailing / or .git.
  return cutText(`${host.toLowerCase()}${path.replace(/\/+$/, '').replace(/\.git$/i, '')}`, 500);
}

const DEFAULT_PORTS = new Set(['22', '80', '443', '9418']);

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function sessionMeta(ctx: CodexContext, payload: Record<string, unknown>, at: Place, time: number | null): void {
  const meta = parse(ctx, raw.rawSessionMeta, payload, at.line, 'session_meta');
  if (!meta) return;
  if (ctx.own === null || (ctx.ownRebuilt && meta.id === ctx.own.id)) {
    ctx.ownRebuilt = false;
    // Its own time, else its line's; one that is no time is said (a review of periods found it passed over).
    const began = recordTime(meta.timestamp, ctx, at.line, 'the session starts at its line’s time');
    setOwn(ctx, { ...meta, timestamp: began !== null ? meta.timestamp : time === null ? null : new Date(time).toISOString() });
    // Its history before this point is another rollout's, not copied here: its running totals go
    // on from that history's (inheritsTotals), which that rollout counts.
    const base = meta.history_base?.thread_id;
    // The id it names is of the rollout it goes on from (after several edits, another such rollout's), not always the thread's.
    if (base) add(ctx, payload, at, time, notice('earlier history', 'info', `goes on from an earlier point of this thread, in rollout ${base} (a prompt edited, or turns undone): the history before it is there, and counted there`, []));
    return;
  }
  // Codex writes a thread's meta again on some resumes: not a copy of anything.
  if (meta.id === ctx.own.id) return;
  // Another thread's meta: the history that follows is copied from it (a fork's or a spawned child's replay).
  if (!ctx.copied.has(meta.id)) ctx.copied.set(meta.id, meta);
  if (!ctx.pastMetas && !ctx.leadingCopies.includes(meta.id)) ctx.leadingCopies.push(meta.id);
  ctx.replaying = true;
  closeReply(ctx);
  // The first copied meta leading the file: a copy of a copy replays what its origin copied too,
  // all of it done before its origin began.
  const began = parseTime(meta.timestamp);
  if (!ctx.pastMetas && ctx.copyStart === null && began !== null && (time === null || began <= time)) ctx.copyStart = { dated: began, drafts: ctx.drafts.length, usages: ctx.usages.length };
  add(ctx, payload, at, time, notice('copied history', 'info', `history copied from thread ${meta.id}`, []));
}

/**
 * A fork or a spawned child writes the history it copies again, each line stamped with the time
 * of the copy (formats/codex.md §9): read without the thread it copied, that history's spend would
 * fall on the copy's day. What it records was done in that thread, before it: dated at its start
 * (the best the copy tells), once the file marks where the copy ends (0.169 and later: the
 * thread's own settings, or its first turn begun inside another's). Earlier builds mark no end,
 * and a thread's own first lines may follow its copy within the same second: left as written.
 * Keys leave write times out, so a copy still matches its origin's lines.
 */
function datedCopy(ctx: CodexContext): void {
  const copy = ctx.copyStart;
  if (copy === null) return;
  ctx.copyStart = null;
  for (const draft of ctx.drafts.slice(copy.drafts)) draft.entry.timestamp = copy.dated;
  for (const { usage } of ctx.usages.slice(copy.usages)) usage.timestamp = copy.dated;
}

function turnContext(ctx: CodexContext, payload: Record<string, unknown>, at: Place, time: number | null): void {
  const r = parse(ctx, raw.rawTurnContext, payload, at.line, 'turn_context');
  if (!r) return;
  closeReply(ctx);
  ctx.justCompacted = false;
  if (r.turn_id) ctx.turnId = r.turn_id;
  ctx.turnNamed = Boolean(r.turn_id);
  if (ctx.cwd === null && r.cwd) ctx.cwd = r.cwd;
  if (r.model && r.model !== ctx.model) {
    ctx.model = r.model;
    // Usage before the file's first turn context names no model: a compaction Codex ran before its
    // first turn (a thread opened with /compact, or one going on from an edited prompt), made with
    // the thread's model, as far as the file tells: priced as it, and said to be so.
    for (const { usage, fastAsked } of ctx.unmodelled.splice(0)) {
      usage.model = usage.requestedModel = r.model;
      usage.modelGuessed = true;
      usage.fast = fastAsked && offersFast(r.model);
    }
    add(ctx, { type: 'model', model: r.model }, at, time, { kind: 'modelChange', provider: ctx.provider, model: r.model });
  }
  if (r.effort && r.effort !== ctx.effort) {
    ctx.effort = r.effort;
    add(ctx, { type: 'effort', effort: r.effort }, at, time, { kind: 'thinkingChange', level: r.effort });
  }
}

/** A model-visible item: a message, reasoning, a tool call or its output. */
function handleItem(ctx: CodexContext, item: Record<string, unknown>, at: Place, time: number | null): void {
  const type = typeof item['type'] === 'string' ? item['type'] : '(untyped)';
  if (TOOL_OUTPUT_TYPES.has(type)) return toolOutput(ctx, item, at, time);
  if (COMPACTION_ITEM_TYPES.has(type)) {
    closeReply(ctx);
    // Remote compaction keeps only encrypted content: a landmark, nothing to read.
    add(ctx, item, at, time, { kind: 'compaction', summary: '', tokensBefore: null, firstKeptEntryId: null });
    return;
  }
  switch (type) {
    case 'message': {
      const m = parse(ctx, raw.rawMessage, item, at.line, 'message');
      if (!m) return;
      const content = blocksOf(m.content);
      const text = textOf(content);
      switch (m.role) {
        case 'assistant': {
          if (ctx.textFromEvents.take(text)) return;
          // Codex writes an agent_message event for each output_text part (codex.md §5): each part
          // is matched on its own, as the whole is.
          const parts = content.filter((block) => block.type === 'text');
          const kept = parts.length > 1 ? content.filter((block) => !(block.type === 'text' && ctx.textFromEvents.take(block.text))) : content;
          if (kept.length === 0) return;
          ctx.textFromItems.add(text);
          if (parts.length > 1) for (const block of kept) if (block.type === 'text') ctx.textFromItems.add(block.text);
          appendToReply(ctx, item, at, time, kept);
          return;
        }
        case 'user': {
          closeReply(ctx);
          if (ctx.legacy && !looksInjected(text)) {
            addUserTurn(ctx, item, at, time, text, content);
            return;
          }
          // A pasted image is written between "<image name=[Image #1]>" and "</image>" texts: not words typed.
          const shown = content.filter((b) => !(b.type === 'text' && IMAGE_TAG.test(b.text)));
          const typed = textOf(shown).trim();
          const images = shown.filter((b) => b.type === 'image');
          const previous = ctx.drafts.at(-1);
          const afterResult = typed === '' && images.length > 0 && images.length === shown.length && previous?.entry.kind === 'toolResult' ? previous : null;
          // Decided at the end: the twin of a typed prompt is dropped (its images kept in the prompt), the rest is injected context.
          const draft = add(ctx, item, at, time, injectedContext(injectedSummary(typed), shown));
          ctx.userItems.push({ draft, text: typed, images, afterResult, at: ctx.drafts.length, typed: typedByUser(m) });
          return;
        }
        case 'developer':
        case 'system':
          closeReply(ctx);
          add(ctx, item, at, time, injectedContext(`${m.role} instructions`, content));
          return;
        default:
          ctx.diagnostics.push(diagnostic('unknown-role', ctx.file, at.line, `message role ${JSON.stringify(m.role.slice(0, 40))}`));
          add(ctx, item, at, time, { kind: 'unknown', rawType: `message/${m.role}`, raw: withoutEncrypted(item) });
          return;
      }
    }
    case 'additional_tools': {
      // 0.169: the tools put before the model (a sub-agent's, its code-mode exec): context, named.
      closeReply(ctx);
      const names = toolNames(item['tools']);
      const listed = names.length === 0 ? [] : [{ type: 'text' as const, text: names.join('\n') }];
      add(ctx, item, at, time, injectedContext(names.length === 0 ? 'tools made available' : `${names.length === 1 ? 'a tool' : `${names.length} tools`} made available: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`, listed));
      return;
    }
    case 'reasoning': {
      const r = parse(ctx, raw.rawReasoning, item, at.line, 'reasoning');
      if (!r) return;
      // Summaries are what Codex shows; the raw reasoning text only when there is no summary. encrypted_content never.
      const parts = (r.summary ?? []).map((s) => s.text ?? '').filter((t) => t !== '');
      const texts = parts.length > 0 ? parts : (r.content ?? []).map((c) => c.text ?? '').filter((t) => t !== '');
      const blocks: Block[] = [];
      for (const text of texts) {
        if (ctx.thinkingFromEvents.take(text)) continue;
        ctx.thinkingFromItems.add(text);
        blocks.push({ type: 'thinking', text, redacted: false });
      }
      if (blocks.length > 0) appendToReply(ctx, item, at, time, blocks);
      return;
    }
    case 'function_call': {
      const r = parse(ctx, raw.rawFunctionCall, item, at.line, 'function_call');
      if (!r) return;
      const { value, error, cut } = jsonArguments(r.arguments);
      if (cut > 0) ctx.diagnostics.push(diagnostic('deep-nesting', ctx.file, at.line, `${cut} value(s) of the call's arguments nested more than ${MAX_NESTING} levels deep, cut (the rest kept)`));
      appendToReply(ctx, item, at, time, [toolCall(ctx, r.call_id ?? `line-${at.line}`, r.name, value, error)]);
      return;
    }
    case 'custom_tool_call': {
      const r = parse(ctx, raw.rawCustomToolCall, item, at.line, 'custom_tool_call');
      if (!r) return;
      appendToReply(ctx, item, at, time, [toolCall(ctx, r.call_id ?? `line-${at.line}`, r.name, r.input ?? null, null)]);
      return;
    }
    case 'local_shell_call': {
      const r = parse(ctx, raw.rawLocalShellCall, item, at.line, 'local_shell_call');
      if (!r) return;
      const args = { command: r.action?.command ?? [], workdir: r.action?.working_directory ?? null };
      appendToReply(ctx, item, at, time, [toolCall(ctx, r.call_id ?? r.id ?? `line-${at.line}`, 'local_shell', args, null)]);
      return;
    }
    case 'tool_search_call': {
      // The model looking for tools to load; its output (tool_search_output) lists those it found.
      const callId = typeof item['call_id'] === 'string' ? item['call_id'] : `line-${at.line}`;
      appendToReply(ctx, item, at, time, [toolCall(ctx, callId, 'tool_search', item['arguments'] ?? {}, null)]);
      return;
    }
    case 'agent_message': {
      // Another agent of the team writing to this one (a child's answer, the parent's task): not
      // this thread's model speaking, nor the user.
      const r = parse(ctx, raw.rawAgentMessage, item, at.line, 'agent_message');
      if (!r) return;
      closeReply(ctx);
      add(ctx, item, at, time, agentMessage(r));
      return;
    }
    case 'ghost_snapshot':
      // A snapshot of the worktree Codex takes for undo (codex.md §2: skip): nothing the model said.
      return;
    case 'web_search_call': {
      const r = parse(ctx, raw.rawWebSearchCall, item, at.line, 'web_search_call');
      if (!r) return;
      // A search OpenAI ran, billed per search as Claude's are (a page opened or looked into is
      // none); its usage is the next count's.
      if ((r.action?.type ?? 'search') === 'search' && r.status !== 'failed') ctx.searches++;
      const queries = (r.action?.queries ?? []).filter((query): query is string => typeof query === 'string' && query !== '');
      const args = { query: r.action?.query ?? r.action?.url ?? '', ...(queries.length > 0 ? { queries } : {}), action: r.action?.type ?? null };
      appendToReply(ctx, item, at, time, [toolCall(ctx, r.id ?? `line-${at.line}`, 'web_search', args, null)]);
      return;
    }
    default:
      // Newer model output (image generation, tool search…): kept in the reply, shown plainly.
      appendToReply(ctx, item, at, time, [{ type: 'unknown', blockType: type, raw: withoutEncrypted(item) }]);
  }
}

/** The tools a tool search found, a line each: `name: description`. */
function foundToolsText(tools: unknown): string {
  if (!Array.isArray(tools)) return '';
  return tools
    .map((tool) => {
      if (!isPlainObject(tool)) return JSON.stringify(tool) ?? '';
      const name = typeof tool['name'] === 'string' ? tool['name'] : '(unnamed tool)';
      return typeof tool['description'] === 'string' && tool['description'] !== '' ? `${name}: ${tool['description']}` : name;
    })
    .join('\n');
}

/**
 * The lines a patch added and removed, and of a call naming several files (a patch of several, a
 * file moved) each file's (its path as the call names it, beside the thread's folder): the files
 * touched are told apart.
 */
function patchChange(ctx: CodexContext, diff: ToolDiff, call: ToolCallBlock | undefined): { added: number; removed: number; files?: FileChange[] } {
  const change = diffChange(diff);
  if ((call?.effect.paths.length ?? 0) < 2) return change;
  const files = diffChangeByFile(diff);
  return files.length > 0 ? { ...change, files: files.map((file) => ({ ...file, path: pathBesideCwd(file.path, ctx.cwd) })) } : change;
}

function toolCall(ctx: CodexContext, id: string, name: string, args: unknown, argumentsError: string | null): ToolCallBlock {
  const block: ToolCallBlock = { type: 'toolCall', id, name, arguments: args, argumentsError, effect: toolEffect(name, args, ctx.cwd) };
  ctx.calls.set(id, block);
  return block;
}

function toolOutput(ctx: CodexContext, item: Record<string, unknown>, at: Place, time: number | null): void {
  const r = parse(ctx, raw.rawToolOutput, item, at.line, String(item['type']));
  if (!r) return;
  closeReply(ctx);
  const callId = r.call_id ?? null;
  const call = callId === null ? undefined : ctx.calls.get(callId);
  // A tool search's output is the tools it found, not an output text; an MCP tool's, its result's content.
  const mcp = typeof r.output === 'string' ? mcpToolResult(r.output) : null;
  const { text, failed } = item['type'] === 'tool_search_output' && r.output === undefined ? { text: foundToolsText(item['tools']), failed: false } : (mcp ?? outputText(r.output));
  const exit = exitCodeOf(text);
  // An MCP server's own words are its result's, never codex-rs's (its isError says whether it failed).
  const isError = failed || (exit !== null && exit !== 0) || (mcp === null && saysCallFailed(text));
  const patch = call === undefined ? null : patchTextOf(call.name, call.arguments);
  const diff = patch === null ? null : patchDiff(patch);
  const entry = add(ctx, item, at, time, {
    kind: 'toolResult',
    toolCallId: callId,
    toolName: call?.name ?? null,
    // An output given as a content list may hold images (view_image's): shown with the text.
    content: [...(text === '' ? [] : [{ type: 'text' as const, text: shownOutput(text) }]), ...outputImages(r.output), ...(mcp?.images ?? [])],
    isError,
    subagents: [],
    diff,
    change: diff === null || isError ? null : patchChange(ctx, diff, call),
    commits: commitsOf(call?.name ?? null, call?.effect.command ?? null, text, isError),
    nestedCalls: [],
  }).entry;
  if (callId !== null && entry.kind === 'toolResult') ctx.results.set(callId, entry);
  // A command still running when exec_command returned is polled with write_stdin, whose output
  // says how it exited: that poll carries the failure, which exec_command_end would count again.
  if (callId !== null && call?.name === 'exec_command') {
    const session = /^Process running with session ID (\d+)$/m.exec(text.slice(0, 2000))?.[1];
    if (session !== undefined) ctx.runningCommands.set(session, callId);
  }
  if (call?.name === 'write_stdin' && exit !== null && isPlainObject(call.arguments)) {
    const running = ctx.runningCommands.get(String(call.arguments['session_id']));
    if (running !== undefined) ctx.exitPolled.add(running);
  }
  // Without the collab events (written in extended mode only), the thread a spawn is named in its output.
  if (callId !== null && call?.name === 'spawn_agent' && !ctx.spawned.has(callId)) {
    const thread = spawnedThreadOf(text);
    if (thread !== null) ctx.spawned.set(callId, thread);
  }
}

/** The thread id a spawn_agent output names: `{"agent_id": …}`, or the first UUID in its text. */
function spawnedThreadOf(output: string): string | null {
  if (output.length > 10_000) return null;
  try {
    const parsed: unknown = JSON.parse(output);
    if (isPlainObject(parsed) && typeof parsed['agent_id'] === 'string') return parsed['agent_id'];
  } catch {
    // Not JSON: some builds say it in words ("agent … spawned").
  }
  return /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(output)?.[0] ?? null;
}

/** Events: the human's prompts, usage, turn boundaries, interruptions, and what the UI showed. */
function handleEvent(ctx: CodexContext, event: Record<string, unknown>, at: Place, time: number | null): void {
  const type = typeof event['type'] === 'string' ? event['type'] : '';
  switch (type) {
    case 'user_message': {
      const r = parse(ctx, raw.rawUserMessageEvent, event, at.line, 'user_message');
      if (!r) return;
      // Builds of late 2025 wrote the injected AGENTS.md and environment as user_message events too,
      // of a `kind` other than `plain` (codex.md §6, §11.7): no prompt; their item twin shows them.
      if (typeof r.kind === 'string' && r.kind !== 'plain') return;
      typedPrompt(ctx, event, at, time, r.message ?? '', (r.images ?? []).map(imageBlock));
      return;
    }
    case 'item_completed':
      return itemCompleted(ctx, event, at, time);
    case 'agent_message': {
      const text = parse(ctx, raw.rawTextEvent, event, at.line, 'agent_message')?.message ?? '';
      if (text === '' || ctx.textFromItems.take(text)) return;
      ctx.textFromEvents.add(text);
      appendToReply(ctx, event, at, time, [{ type: 'text', text }]);
      return;
    }
    case 'agent_reasoning': {
      const text = parse(ctx, raw.rawTextEvent, event, at.line, 'agent_reasoning')?.text ?? '';
      if (text === '' || ctx.thinkingFromItems.take(text)) return;
      ctx.thinkingFromEvents.add(text);
      appendToReply(ctx, event, at, time, [{ type: 'thinking', text, redacted: false }]);
      return;
    }
    case 'token_count':
      closeReply(ctx);
      return tokenCount(ctx, event, at, time);
    case 'task_started':
    case 'turn_started':
      closeReply(ctx);
      turnWithoutEnd(ctx, event, at, time);
      startTurn(ctx);
      ctx.countedUnrecorded = null;
      if (typeof event['turn_id'] === 'string' && event['turn_id'] !== '') {
        ctx.turnId = event['turn_id'];
        ctx.turnNamed = true;
        ctx.openTurn = event['turn_id'];
      }
      return;
    case 'task_complete':
    case 'turn_complete': {
      closeReply(ctx);
      ctx.openTurn = null;
      // A record after the turn's end is of no response of that turn.
      ctx.countedUnrecorded = null;
      // 0.169 and later write a failed request as the turn's end with its error, and no error event.
      const failure = turnError(event['error']);
      if (failure !== null && ctx.turnReply?.outcome !== 'error') ctx.turnReply = add(ctx, event, at, time, replyPayload(ctx, [], 'error', failure)).entry as ReplyEntry;
      return;
    }
    case 'turn_aborted': {
      const reason = parse(ctx, raw.rawTurnAborted, event, at.line, 'turn_aborted')?.reason ?? 'interrupted';
      closeReply(ctx);
      ctx.openTurn = null;
      turnStopped(ctx, event, at, time, reason, `turn ended: ${reason}`);
      return;
    }
    case 'error':
    case 'stream_error': {
      const message = parse(ctx, raw.rawTextEvent, event, at.line, type)?.message ?? type;
      closeReply(ctx);
      if (type === 'stream_error') {
        add(ctx, event, at, time, notice('stream error', 'warn', message, [{ type: 'text', text: message }]));
        return;
      }
      const reply = add(ctx, event, at, time, replyPayload(ctx, [], 'error', message)).entry as ReplyEntry;
      ctx.turnReply = reply;
      return;
    }
    case 'warning': {
      const message = parse(ctx, raw.rawTextEvent, event, at.line, 'warning')?.message ?? '';
      add(ctx, event, at, time, notice('warning', 'warn', message, message === '' ? [] : [{ type: 'text', text: message }]));
      return;
    }
    case 'context_compacted':
      closeReply(ctx);
      ctx.compactedSinceCount = true;
      // The `compacted` record just before it is the same landmark.
      if (!ctx.justCompacted) add(ctx, event, at, time, { kind: 'compaction', summary: '', tokensBefore: null, firstKeptEntryId: null });
      ctx.justCompacted = false;
      return;
    case 'thread_rolled_back': {
      const turns = parse(ctx, raw.rawRolledBack, event, at.line, 'thread_rolled_back')?.num_turns ?? null;
      closeReply(ctx);
      // The turns stay in the file and were billed; Codex only stops sending them to the model, so
      // they become a side branch (see finish) and their usage is still counted.
      const undoes = turns !== null && Number.isSafeInteger(turns) && turns > 0 ? turns : null;
      const summary =
        undoes === null
          ? 'the user undid some turns (how many is not recorded: they are still shown above)'
          : `the user undid the last ${undoes} turn${undoes === 1 ? '' : 's'}: kept as a side branch, and still counted (they were billed)`;
      const draft = add(ctx, event, at, time, notice('rolled back', 'info', summary, []));
      if (undoes !== null) draft.undoesTurns = undoes;
      return;
    }
    case 'entered_review_mode':
    case 'exited_review_mode':
      closeReply(ctx);
      add(ctx, event, at, time, notice('review', 'info', type === 'entered_review_mode' ? 'review started' : 'review ended', []));
      return;
    case 'thread_settings_applied': {
      // This thread's own process writing: a history copied before it is over, and a turn it left
      // open is the other thread's to end.
      if (ctx.replaying && ctx.own !== null && event['thread_id'] === ctx.own.id) {
        ctx.replaying = false;
        ctx.openTurn = null;
        datedCopy(ctx);
      }
      // 0.169 and later say the thread's service tier as it is set: fast mode is OpenAI's priority
      // tier, and flex its own, each billed at its own rates. A settings event that leaves it out
      // leaves it as it was.
      const settings = event['thread_settings'];
      if (isPlainObject(settings) && 'service_tier' in settings) {
        const tier = settings['service_tier'];
        ctx.serviceTier = tier === 'priority' || tier === 'fast' ? 'fast' : tier === 'flex' ? 'flex' : null;
      }
      return;
    }
    case 'thread_name_updated': {
      const r = parse(ctx, raw.rawThreadName, event, at.line, 'thread_name_updated');
      if (!r) return;
      const name = (r.thread_name ?? r.name ?? '').replace(/[\r\n]+/g, ' ').trim() || null;
      // Another thread's rename, in the history a fork copied from it: shown, naming that thread only.
      if (r.thread_id && ctx.own !== null && r.thread_id !== ctx.own.id) {
        add(ctx, event, at, time, notice('thread renamed', 'info', name === null ? `thread ${r.thread_id}'s name cleared` : `thread ${r.thread_id} named “${name}”`, []));
        return;
      }
      add(ctx, event, at, time, { kind: 'name', name });
      return;
    }
    case 'exec_command_end': {
      const r = parse(ctx, raw.rawExecEnd, event, at.line, 'exec_command_end');
      if (r?.call_id && typeof r.exit_code === 'number') ctx.execExit.set(r.call_id, r.exit_code);
      return;
    }
    case 'patch_apply_end': {
      const r = parse(ctx, raw.rawPatchApplyEnd, event, at.line, 'patch_apply_end');
      if (r) patchEnded(ctx, event, at, time, r);
      return;
    }
    case 'collab_agent_spawn_end':
    case 'collab_tool_call': {
      // The thread a spawn_agent call started: its rollout is a sub-agent section of this page.
      const r = parse(ctx, raw.rawSpawnEnd, event, at.line, type);
      if (r?.call_id && r.new_thread_id) ctx.spawned.set(r.call_id, r.new_thread_id);
      return;
    }
    default:
      // Other UI events (tool begin/end echoes, plan updates, other collab notes) repeat what the items say.
      return;
  }
}

function startTurn(ctx: CodexContext): void {
  ctx.turnReply = null;
  ctx.textFromEvents.clear();
  ctx.textFromItems.clear();
  ctx.thinkingFromEvents.clear();
  ctx.thinkingFromItems.clear();
}

/**
 * Usage (formats/codex.md §7.3): field-wise deltas of the cumulative totals, in file order.
 * Re-emitted totals and compaction sentinels add nothing. A drop in any field (total_tokens
 * included) always becomes the new baseline and counts that response's own usage when it is
 * self-consistent: after a "context window exceeded" event Codex keeps adding to its synthetic
 * totals ({0…, total_tokens: window}), so usage that follows builds on them (§7.2 item 3).
 */
function tokenCount(ctx: CodexContext, event: Record<string, unknown>, at: Place, time: number | null): void {
  const r = parse(ctx, raw.rawTokenCount, event, at.line, 'token_count');
  const info = r?.info;
  if (!info) return; // rate-limit update only
  ctx.countedUnrecorded = null;
  // Totals without a single count (every field null) are no running totals: as in builds without them.
  const total = info.total_token_usage ? carried(totalsOf(info.total_token_usage), info.total_token_usage, ctx.totals) : null;
  const last = info.last_token_usage ? totalsOf(info.last_token_usage) : null;
  const promptBefore = ctx.lastPrompt;
  if (last !== null && selfConsistent(last) && last.input > 0) ctx.lastPrompt = last.input;
  // A compaction since the last count: the response after it tells nothing of the prompts before it.
  const compactedBetween = ctx.compactedSinceCount;
  ctx.compactedSinceCount = false;
  let before = ctx.totals;
  let delta: Totals | null;
  /** The running totals the next token_count is measured from. */
  let next = total;
  let note: string | null = null;
  /** Usage the totals hold beside this response's: of requests whose token_count is not in the file. */
  let unseen: Totals | null = null;
  /** What the totals' growth, counted whole, holds beyond this response's own counts: responses recorded apart may be in it. */
  let heldBeyondOwn: Totals | null = null;
  // The turn goes into the claim: two forks of one point, or two children spawned alike, start
  // from the same totals, and their first responses may well add the same counts; their turns
  // differ, while a replay copies its parent's turn ids with the rest.
  let turn: string | null = ctx.turnId;
  const damage = damagedTotals(total, info.total_token_usage, before);
  const dip = ctx.dip;
  if (damage === null && total !== null && dip !== null && !sameTotals(total, before ?? total)) {
    ctx.dip = null;
    // Lower totals, then totals above those before them again: the lower line was damaged (a digit
    // lost), not a restart; taken for one, what it lacked was counted again as requests unseen.
    // Unless they grew from the lower totals by just this response's own counts: a restart (an
    // older build's resume) whose next request re-sent the history, and so passed the old totals.
    const grewByOwn = last !== null && before !== null && grewFrom(total, before) && sameTotals(difference(total, before), last);
    if (grewFrom(total, dip.from) && !grewByOwn) {
      ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, dip.line, 'token_count: running totals lower than those before and after them: a damaged line, not a restart; its response’s own usage counted, the totals after it measured from those before it'));
      before = dip.from;
    }
  }
  if (damage !== null) {
    // Written again as it was (a re-emit, as good totals are): counted once.
    const written = JSON.stringify([info.total_token_usage, info.last_token_usage]);
    if (written === ctx.lastDamaged) return;
    ctx.lastDamaged = written;
    // Damaged totals are never the baseline: the next good totals' difference would be taken from
    // them. The response's own counts stand in (their own bad counts left out by checkUsageNumbers),
    // and the totals move on by them; without them, the next totals hold its usage.
    ctx.diagnostics.push(diagnostic('absurd-number', ctx.file, at.line, `token_count: running totals ${damage}: ${last === null ? 'left out (the next totals hold its usage)' : 'counted the last response’s own counts instead'}`));
    if (last === null) return;
    delta = last;
    next = movedOn(before, last);
  } else if (total === null) {
    delta = last; // very old builds: no running totals
  } else if (before !== null && sameTotals(total, before)) {
    return; // re-emit
  } else if (before === null && inheritsTotals(ctx, total, last)) {
    // A fork or a spawned child whose copied history carried no token_count: its totals continue
    // from its parent's (§9), which the parent counts. This response's own usage is what it adds,
    // from the totals before it: when it is the parent's last response again (a re-emit of the
    // inherited totals), its claim is the parent's, and the parent counts it.
    delta = last;
    before = difference(total, last);
    // Matched by totals alone: when it is the parent's last response again, it is written in a
    // turn of this thread's own, while the parent's record of it is in whichever turn the
    // parent's last response was.
    turn = null;
    // A rollout going on from an earlier point of its own thread (an edited prompt) has no parent.
    note = ctx.own?.history_base?.thread_id ? 'the running totals go on from this thread’s earlier rollout: this response’s own usage' : 'the running totals continue from the parent thread’s: this response’s own usage';
  } else if (before === null && last !== null && isZero(last) && namesParent(ctx)) {
    // The first totals a fork or a child holds, at a compaction sentinel (its own counts all zero,
    // §7.2 item 2): what they hold was used by its parent (whose copied history carried no count):
    // a baseline, not this thread's usage. A thread of its own holds its own usage there (its
    // first count lost).
    ctx.totals = total;
    ctx.totalsAt = time;
    return;
  } else if (before === null || grewFrom(total, before)) {
    delta = before === null ? total : difference(total, before);
    // The totals grew by more than this response's own counts: the rest is of requests whose
    // token_count is not in the file (a line lost or damaged), one or several: counted apart, as
    // taken with this one it could reach a long-context tier neither did (judgedPrompt).
    // A thread's own first totals hold its first response's alone: more, and the lines before it
    // are lost (a fork's or a child's continue its parent's: inheritsTotals, above).
    const firstOwn = before === null && !namesParent(ctx);
    if ((before !== null || firstOwn) && last !== null && selfConsistent(last) && !isZero(last) && grewFrom(delta, last) && !sameTotals(delta, last)) {
      const rest = difference(delta, last);
      if (rest.cached + rest.cacheWrite <= rest.input) {
        unseen = rest;
        delta = last;
        note = 'the running totals grew by more than this response’s own usage: the rest counted apart, as requests whose usage line is not in the file';
      } else if (delta.cached + delta.cacheWrite > delta.input) {
        // Nor can the totals' growth itself be requests' counts: the response's own, which can, are taken.
        ctx.diagnostics.push(diagnostic('inconsistent-usage', ctx.file, at.line, `token_count: the running totals grew by more cached or written input (${delta.cached + delta.cacheWrite}) than input (${delta.input}), which no request’s counts do: counted this response’s own counts`, false));
        delta = last;
      } else {
        // No request's cached and written tokens are more than its input, of which they are parts
        // (§7.1): the response's own counts disagree with the totals, which are taken.
        ctx.diagnostics.push(diagnostic('inconsistent-usage', ctx.file, at.line, 'token_count: the running totals grew by cached or written input this response’s own counts do not hold, beyond the input they are part of: counted the totals’ difference', false));
        heldBeyondOwn = rest;
      }
    }
  } else if (time !== null && ctx.totalsAt !== null && time < ctx.totalsAt) {
    // Lower totals written earlier than the last: an event out of place (lines moved or merged),
    // not a restart. The higher totals already hold its usage; taken as a baseline, what follows
    // would count it again.
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, at.line, 'token_count: running totals lower than, and timed before, the ones already read: out of order, not counted again'));
    return;
  } else {
    delta = last !== null && selfConsistent(last) ? last : null;
    if (delta !== null) note = 'the running totals restarted: counted this response’s own usage';
    if (before !== null) ctx.dip = { from: delta === null ? before : movedOn(before, delta), line: at.line };
  }
  if (next !== null) {
    ctx.totals = next;
    ctx.totalsAt = time;
  }
  if (delta === null || isZero(delta)) return;
  const served = servedModel(ctx, info, at.line);
  // The reply this usage is of was served by the model the count names, when it names another.
  const reply = ctx.turnReply;
  if (served !== null && reply !== null && reply.model !== served && reply.responseModel === null) reply.responseModel = served;
  const model = served ?? ctx.model;
  const parts: { counts: Totals; from: Totals | null; to: Totals | null; turn: string | null }[] = [];
  if (unseen !== null) {
    // The turn of the requests whose line is lost is not known (an earlier one, maybe): matched by
    // the totals alone, as a fork's replay of their line, intact, records them in their own turn.
    const between = movedOn(before, unseen);
    parts.push({ counts: unseen, from: before, to: between, turn: null }, { counts: delta, from: between, to: next, turn });
  } else parts.push({ counts: delta, from: before, to: next, turn });
  const draft = add(ctx, event, at, time, { kind: 'usageOnly', usageKind: 'usage', note });
  for (const part of parts) {
    // The response's own counts, or the first totals (from nothing), are as the line writes them.
    const usage = codexUsage(ctx, partsWithinWholes(ctx, part.counts, at.line, part.counts === last || part.from === null), model, time);
    if (part.counts === unseen && last !== null) usage.largestPrompt = compactedBetween ? unseen.input : judgedPrompt(unseen.input, promptBefore, last.input);
    draft.entry.usage.push(usage);
    ctx.usages.push({ usage, turn: part.turn, before: part.from === null ? '0' : countsSignature(part.from), after: part.to === null ? `last:${countsSignature(part.counts)}#${at.line}` : countsSignature(part.to) });
  }
  // The searches since the last usage counted, with the response this count holds (the last part).
  const searched = draft.entry.usage.at(-1);
  if (searched !== undefined) {
    searched.webSearches = ctx.searches;
    ctx.searches = 0;
  }
  // The responses recorded one by one that this count holds, told by their counts: its own
  // (recorded just before it, as a rule), and where the totals grew by more, those whose count
  // lines are lost. Not by place: a record may be damaged, or written after its count.
  const own = last !== null && selfConsistent(last) ? last : delta;
  ctx.countedUnrecorded = dropRecorded(ctx, (recorded) => sameTotals(recorded, own)) === null ? own : null;
  // The lost ones: one whose counts are all the rest first (another, such as a compaction's,
  // may fit in it too), else as many as fit; in the totals' growth where it is counted whole.
  const beyond = unseen ?? heldBeyondOwn;
  let rest = beyond;
  if (rest !== null && dropRecorded(ctx, (recorded) => sameTotals(recorded, beyond as Totals)) !== null) rest = null;
  while (rest !== null && !isZero(rest)) {
    const left: Totals = rest;
    const lost = dropRecorded(ctx, (recorded) => grewFrom(left, recorded));
    rest = lost === null ? null : difference(left, lost);
  }
}

/** A response recorded on its own, not yet counted by a count event. */
interface RecordedResponse {
  draft: Draft;
  counts: Totals;
}

/** Drops the latest response recorded on its own that `holds` says is counted; its counts, or null when none is. */
function dropRecorded(ctx: CodexContext, holds: (counts: Totals) => boolean): Totals | null {
  for (let i = ctx.recordsUncounted.length - 1; i >= 0; i--) {
    const recorded = ctx.recordsUncounted[i] as RecordedResponse;
    if (!holds(recorded.counts)) continue;
    ctx.recordsUncounted.splice(i, 1);
    recorded.draft.dropped = true;
    return recorded.counts;
  }
  return null;
}

/**
 * A response's usage as 0.169 records it, one by one (`token_usage_record`, written just before
 * the token_count that adds it to the running totals): counted where no token_count does (see
 * tokenCount). That is a remote compaction's request (the OpenAI provider's), which the running
 * totals leave out, and a response whose token_count line was cut when Codex was killed (its
 * totals, read again on resume, then leave it out too). Another thread's (a copy of its history,
 * or a record that names none) is not this file's.
 */
function usageRecord(ctx: CodexContext, payload: Record<string, unknown>, at: Place, time: number | null): void {
  if (ctx.own === null || payload['thread_id'] !== ctx.own.id) return;
  const r = parse(ctx, raw.rawUsageRecord, payload, at.line, 'token_usage_record');
  const counts = r === null ? null : totalsOf(r.usage);
  if (r === null || counts === null) return;
  // Written right after the count that holds it.
  const countedBefore = ctx.countedUnrecorded;
  ctx.countedUnrecorded = null;
  if (countedBefore !== null && sameTotals(countedBefore, counts)) return;
  const draft = add(ctx, payload, at, time, { kind: 'usageOnly', usageKind: 'usage', note: 'a response Codex recorded on its own, which its running totals do not hold (a remote compaction’s, or one whose count line is lost)' });
  const usage = codexUsage(ctx, partsWithinWholes(ctx, counts, at.line, true), ctx.model, time);
  draft.entry.usage.push(usage);
  // Claimed as its count would be, from the totals before it: a copy of the file that holds its
  // count (the file whose copy was cut between the two) counts it once.
  ctx.usages.push({ usage, turn: ctx.turnId, before: ctx.totals === null ? '0' : countsSignature(ctx.totals), after: countsSignature(movedOn(ctx.totals, counts)) });
  ctx.recordsUncounted.push({ draft, counts });
}

/**
 * The largest prompt among requests whose token_count is lost, known only by their sum: a
 * long-context tier goes by one request's prompt (pricing.md §6.5), not by several added up. A
 * thread's context changes gradually (it grows, or a compaction sets it back), so no lost request's
 * prompt is taken to be larger than the larger of the responses read either side of them (the
 * one before may be unknown). Judged, and said beside the price: a single lost request larger than
 * both is priced at base rates.
 */
function judgedPrompt(sum: number, before: number | null, after: number): number {
  // (Not where a compaction came between: the response after it then tells nothing; see its caller.)
  return Math.min(sum, Math.max(before ?? 0, after));
}

/**
 * Reasoning is part of output (codex.md §7.3): more of it than output between two totals is a
 * count written wrong in one of them, and the output, which is priced, is taken as right; what the
 * running totals say of reasoning in all is then kept as near as the output allows.
 */
function reasoningWithinOutput(ctx: CodexContext, counts: Totals, line: number, written: boolean): Totals {
  if (counts.reasoning <= counts.output || counts.output < 0 || counts.reasoning > MAX_TOKENS_PER_RECORD) return counts;
  const said = written ? `reasoning ${counts.reasoning} is more than the output it is part of (${counts.output})` : `the running totals grew by more reasoning (${counts.reasoning}) than output (${counts.output})`;
  ctx.diagnostics.push(diagnostic('inconsistent-usage', ctx.file, line, `token_count: ${said}: cut to it`, false));
  return { ...counts, reasoning: counts.output };
}

/**
 * Cached and written input are parts of input (codex.md §7.3): more of them than input is a count
 * written wrong, and input, the whole, is taken as right, as a Claude Code record whose parts pass
 * its total is (cut, not a negative uncached part quoted as if the file had written it).
 */
function cacheWithinInput(ctx: CodexContext, counts: Totals, line: number, written: boolean): Totals {
  const { input, cached, cacheWrite } = counts;
  // A count no agent could mean is left out on its own (checkUsageNumbers), not cut.
  if ([input, cached, cacheWrite].some((n) => countProblem(n) !== null) || cached + cacheWrite <= input) return counts;
  const parts = written
    ? cacheWrite > 0
      ? `cached_input_tokens ${cached} and cache_write_input_tokens ${cacheWrite} are more than the input they are part of (${input})`
      : `cached_input_tokens ${cached} is more than the input it is part of (${input})`
    : `the running totals grew by more cached${cacheWrite > 0 ? ' and written' : ''} input (${cached + cacheWrite}) than input (${input})`;
  ctx.diagnostics.push(diagnostic('inconsistent-usage', ctx.file, line, `token_count: ${parts}: cut to it`, false));
  const cachedKept = Math.min(cached, input);
  return { ...counts, cached: cachedKept, cacheWrite: Math.min(cacheWrite, input - cachedKept) };
}

/** A response's counts with no part larger than its whole; `written`: as its line gives them, not a growth of the running totals. */
function partsWithinWholes(ctx: CodexContext, counts: Totals, line: number, written: boolean): Totals {
  return cacheWithinInput(ctx, reasoningWithinOutput(ctx, counts, line, written), line, written);
}

function codexUsage(ctx: CodexContext, counts: Totals, model: string | null, time: number | null): Usage {
  const usage = codexUsageOf(ctx, counts, model, time);
  // Not in a rollout going on from an edited prompt of its own thread (a fork's names its parent
  // too): its first compaction may be made with the model that history had, which it does not
  // tell (the user may have chosen another since: the next turn context names that one).
  const edited = Boolean(ctx.own?.history_base?.thread_id) && !ctx.own?.forked_from_id;
  if (model === null && !edited) ctx.unmodelled.push({ usage, fastAsked: ctx.serviceTier === 'fast' });
  return usage;
}

/** A part of input as it may be taken out of it: one no agent could mean takes nothing (it is left out on its own). */
function usable(part: number): number {
  return countProblem(part) === null ? part : 0;
}

function codexUsageOf(ctx: CodexContext, counts: Totals, model: string | null, time: number | null): Usage {
  return {
    origin: 'reply',
    // Non-cached input is what is left of input once its cached and written parts are taken out; a
    // part no agent could mean (negative, absurdly large) takes nothing out. Nothing is clamped here:
    // a negative count stays negative, for checkUsageNumbers to leave it out of the sums and say so.
    input: counts.input - usable(counts.cached) - usable(counts.cacheWrite),
    cacheRead: counts.cached,
    cacheWrite: counts.cacheWrite,
    cacheWrite1h: 0,
    output: counts.output,
    reasoning: counts.reasoning,
    provider: ctx.provider,
    model,
    requestedModel: model,
    responseModel: null,
    recordedCost: null,
    recordedCostFromProvider: false,
    modelGuessed: false,
    timestamp: time,
    claim: null,
    outputPartial: false,
    responseId: null,
    // Fast mode as the thread's settings last said (0.169+), for a model Codex sends it for;
    // before, a setting of config.toml's that the rollout does not record: standard rates (pricing.md §1).
    fast: ctx.serviceTier === 'fast' && offersFast(model),
    webSearches: 0,
    // Flex as the thread's settings last said, whatever the model: Codex sends it with every
    // request (a model the API serves no flex for answers flex_unavailable, and bills nothing).
    ...(ctx.serviceTier === 'flex' ? { flex: true as const } : {}),
  };
}

/** The model a token_count says served the response, where it names one as text. */
function servedModel(ctx: CodexContext, info: { model?: unknown; model_name?: unknown }, line: number): string | null {
  for (const field of ['model', 'model_name'] as const) {
    const value = info[field];
    if (typeof value === 'string') return value;
    if (value !== undefined && value !== null) ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, `token_count: info.${field} not as the format has it (kept without it)`, false));
  }
  return null;
}

/** A thread's running totals are many requests' counts: a thousand times the most one request takes is still far above any. */
const MAX_RUNNING_TOTAL = MAX_TOKENS_PER_RECORD * 1000;
const RAW_COUNTS = [
  ['input_tokens', 'input'],
  ['cached_input_tokens', 'cached'],
  ['cache_write_input_tokens', 'cacheWrite'],
  ['output_tokens', 'output'],
  ['reasoning_output_tokens', 'reasoning'],
  ['total_tokens', 'total'],
] as const;

/** What makes a usage object's counts ones no agent could mean, or null. */
function countsProblemOf(u: raw.RawTokenUsage, max: number): string | null {
  for (const [field] of RAW_COUNTS) {
    const value = u[field];
    const why = typeof value === 'number' ? countProblem(value, max) : null;
    if (why !== null) return `${field} ${describe(value as number)} (${why})`;
  }
  return null;
}

/** The running totals after a response of these counts, its counts no agent could mean left out. */
function movedOn(before: Totals | null, last: Totals): Totals {
  const by = (value: number) => (countProblem(value) === null ? value : 0);
  const from = before ?? { input: 0, cached: 0, cacheWrite: 0, output: 0, reasoning: 0, total: 0 };
  return {
    input: from.input + by(last.input),
    cached: from.cached + by(last.cached),
    cacheWrite: from.cacheWrite + by(last.cacheWrite),
    output: from.output + by(last.output),
    reasoning: from.reasoning + by(last.reasoning),
    total: from.total + by(last.total),
  };
}

/**
 * Why running totals cannot be the thread's (a count no agent could mean; no count at all in a
 * thread that has totals; the first totals without input or output, which no earlier totals
 * carry on), or null.
 */
function damagedTotals(total: Totals | null, rawTotal: raw.RawTokenUsage | null | undefined, before: Totals | null): string | null {
  if (total === null) return before !== null ? 'missing in a thread whose earlier token_counts have them' : null;
  const written = rawTotal as raw.RawTokenUsage;
  // Every build writes both (an optional count, as cache writes, goes on as it was: carried): one
  // left out is a count lost, which the totals before cannot stand in for.
  for (const field of ['input_tokens', 'output_tokens'] as const) if (written[field] === undefined || written[field] === null) return `without ${field}`;
  const problem = countsProblemOf(written, MAX_RUNNING_TOTAL);
  if (problem !== null) return problem;
  // A part larger than its whole is no count Codex writes (a "context full" total is larger than
  // its parts, never smaller): a count written wrong, which would otherwise be billed in full.
  if (typeof written.total_tokens === 'number' && total.total < total.input + total.output) return `total_tokens ${total.total} below input and output (${total.input + total.output})`;
  if (total.cached > total.input) return `cached_input_tokens ${total.cached} above input_tokens ${total.input}`;
  return null;
}

/**
 * Running totals with a count the totals before gave, and these leave out, as before: a thread
 * resumed by a build that does not write an optional count (cache_write_input_tokens) goes on
 * with the others; read as 0, that count would have fallen, a restart.
 */
function carried(total: Totals | null, rawTotal: raw.RawTokenUsage, before: Totals | null): Totals | null {
  if (total === null || before === null) return total;
  const kept = { ...total };
  for (const [field, kind] of RAW_COUNTS) {
    if (kind !== 'total' && (rawTotal[field] === undefined || rawTotal[field] === null)) kept[kind] = before[kind];
  }
  if (rawTotal.total_tokens === undefined || rawTotal.total_tokens === null) kept.total = kept.input + kept.output;
  return kept;
}

/**
 * Whether a fork's or a spawned child's first totals hold more than the response they follow:
 * they carry on from its parent thread's. (A child that replays nothing starts from its own
 * first response, whose totals are that response's.)
 */
/** The file is a fork's or a spawned child's: its history, and the totals it starts from, are its parent's. */
function namesParent(ctx: CodexContext): boolean {
  return Boolean(ctx.own?.forked_from_id || ctx.own?.history_base?.thread_id || ctx.leadingCopies.length > 0 || (ctx.own && spawnParentOf(ctx.own)));
}

function inheritsTotals(ctx: CodexContext, total: Totals, last: Totals | null): last is Totals {
  if (!namesParent(ctx) || last === null || !selfConsistent(last)) return false;
  return grewFrom(total, last) && !sameTotals(total, last);
}

/** The counts, or null when not one of them is a number. */
function totalsOf(u: raw.RawTokenUsage): Totals | null {
  if (![u.input_tokens, u.cached_input_tokens, u.cache_write_input_tokens, u.output_tokens, u.reasoning_output_tokens, u.total_tokens].some((v) => typeof v === 'number')) return null;
  const n = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return {
    input: n(u.input_tokens),
    cached: n(u.cached_input_tokens),
    cacheWrite: n(u.cache_write_input_tokens),
    output: n(u.output_tokens),
    reasoning: n(u.reasoning_output_tokens),
    total: typeof u.total_tokens === 'number' ? u.total_tokens : n(u.input_tokens) + n(u.output_tokens),
  };
}

const COUNTED = ['input', 'cached', 'cacheWrite', 'output', 'reasoning'] as const;
/** What §7.3 compares: every field of the totals, total_tokens too (a synthetic "context full" total differs only there). */
const COMPARED = [...COUNTED, 'total'] as const;

function sameTotals(a: Totals, b: Totals): boolean {
  return COMPARED.every((k) => a[k] === b[k]);
}

function grewFrom(now: Totals, before: Totals): boolean {
  return COMPARED.every((k) => now[k] >= before[k]);
}

function difference(now: Totals, before: Totals): Totals {
  return {
    input: now.input - before.input,
    cached: now.cached - before.cached,
    cacheWrite: now.cacheWrite - before.cacheWrite,
    output: now.output - before.output,
    reasoning: now.reasoning - before.reasoning,
    total: now.total - before.total,
  };
}

/** `total_tokens = input + output` holds for every real usage object; sentinels break it. */
function selfConsistent(t: Totals): boolean {
  return t.total === t.input + t.output;
}

function isZero(t: Totals): boolean {
  return COUNTED.every((k) => t[k] === 0);
}

function countsSignature(t: Totals): string {
  return `${t.input}/${t.cached}/${t.cacheWrite}/${t.output}/${t.reasoning}`;
}

// --- building entries -------------------------------------------------------------------------

function add(ctx: CodexContext, payload: Record<string, unknown>, at: Place, time: number | null, built: EntryPayload): Draft {
  const hash = contentHash(payload);
  // Where in the thread the item sits: its turn, and in a turn that names none (older builds) the
  // running totals before it too. Not the totals within a named turn: a fork or child whose copy
  // of the history carries no token_count has none, and its copied items were taken for its own.
  const position = ctx.turnNamed ? ctx.turnId : `${ctx.turnId}@${ctx.totals === null ? '0' : countsSignature(ctx.totals)}`;
  const seen = `${hash}@${position}`;
  const occurrence = (ctx.occurrences.get(seen) ?? 0) + 1;
  ctx.occurrences.set(seen, occurrence);
  const entry = {
    key: '',
    id: `L${at.line}${at.piece > 0 ? `.${at.piece}` : ''}`,
    parentId: null,
    timestamp: time ?? ctx.startedAt,
    line: at.line,
    usage: [],
    recovered: at.recovered,
    ...built,
  } as Entry;
  const draft: Draft = { entry, keyBody: `${hash}:${position}#${occurrence}`, dropped: false };
  ctx.drafts.push(draft);
  return draft;
}

function replyPayload(ctx: CodexContext, content: Block[], outcome: 'ok' | 'error', errorMessage: string | null): EntryPayload {
  return { kind: 'reply', content, outcome, stopReason: outcome === 'error' ? 'error' : null, errorMessage, provider: ctx.provider, model: ctx.model, responseModel: null };
}

/** Items of one sampling request (reasoning, text, tool calls) make one reply. */
function appendToReply(ctx: CodexContext, item: Record<string, unknown>, at: Place, time: number | null, blocks: Block[]): void {
  if (ctx.openReply === null) {
    const reply = add(ctx, item, at, time, replyPayload(ctx, [], 'ok', null)).entry as ReplyEntry;
    ctx.openReply = reply;
    ctx.turnReply = reply;
  }
  ctx.openReply.content.push(...blocks);
}

function closeReply(ctx: CodexContext): void {
  ctx.openReply = null;
}

function notice(label: string, tone: 'info' | 'warn', summary: string, content: Block[]): EntryPayload {
  return { kind: 'notice', label, tone, summary, content };
}

/** Instructions and context Codex put before the model (developer instructions, AGENTS.md, the environment). */
/**
 * A message between agents, as context from its sender: "final answer from /root/beta". Its
 * text starts with a header (`Message Type: FINAL_ANSWER`, `Sender: …`); a task's words may be
 * encrypted, which is said rather than shown.
 */
function agentMessage(r: raw.RawAgentMessage): EntryPayload {
  const parts = Array.isArray(r.content) ? r.content : [];
  const texts = parts.flatMap((part) => (isPlainObject(part) && typeof part['text'] === 'string' ? [part['text']] : []));
  const encrypted = parts.some((part) => isPlainObject(part) && part['type'] === 'encrypted_content');
  const text = [...texts, ...(encrypted ? ['(the rest of this message is encrypted)'] : [])].join('\n');
  const kind = /^Message Type: *([A-Z_]+)/m.exec(texts.join('\n'))?.[1]?.toLowerCase().replace(/_/g, ' ') ?? 'message';
  const from = r.author ? ` from ${r.author}` : '';
  return injectedContext(`${kind}${from}`, text === '' ? [] : [{ type: 'text', text }]);
}

function injectedContext(summary: string, content: Block[]): EntryPayload {
  return { kind: 'notice', label: 'injected context', tone: 'info', summary, content, injected: true };
}

/**
 * Ids, parents and keys once the whole file is read: role:user twins of typed prompts dropped, the
 * outcome of each shell call and patch applied to its result, the chain linked in file order
 * (undone turns left as a side branch).
 */
function finish(ctx: CodexContext, anchor: string, idPrefix: string): Entry[] {
  const twins = twinsOf(ctx.userItems, ctx.typed);
  const last = ctx.drafts.findLast((draft) => !draft.dropped);
  for (const item of ctx.userItems) {
    const { draft, images, afterResult } = item;
    const prompt = twins.get(item);
    const cutOff = draft === last && item.text !== '' && !looksInjected(item.text) && !MODEL_WARNING.test(item.text);
    if (prompt === undefined && !ctx.legacy && (item.typed || cutOff)) {
      // Words the user typed with no user_message event: 0.169 and later write none, and mark the
      // item as typed (typedByUser); or the file ends between the item and the event Codex writes
      // a moment later (a copy taken while it ran, or a crash). A prompt either way. (Keyed by its
      // line, as every entry: beside the whole file, such a copy is a session of its own.)
      const content = draft.entry.kind === 'notice' ? draft.entry.content : [];
      // What the IDE put before the words typed is shown apart, as the event's prompt has it.
      const { context, request } = splitEditorContext(item.text);
      const typed = context === null ? content : [...(request.trim() === '' ? [] : [{ type: 'text' as const, text: request.trim() }]), ...content.filter((b) => b.type !== 'text')];
      draft.entry = { ...draft.entry, kind: 'prompt', content: typed, skill: null } as Entry;
      if (context === null) draft.opensUserTurn = true;
      else {
        const { id, timestamp, line, recovered } = draft.entry;
        const entry = { key: '', id, parentId: null, timestamp, line, usage: [], recovered, ...editorContext(context) } as Entry;
        const contextDraft: Draft = { entry, keyBody: `${draft.keyBody}|context`, dropped: false, opensUserTurn: true };
        ctx.drafts.splice(ctx.drafts.indexOf(draft), 0, contextDraft);
      }
      continue;
    }
    if (prompt === undefined) {
      // An image a tool had Codex look at (view_image) follows its result as a user message of its own: shown in the result.
      const result = afterResult?.entry;
      if (result?.kind === 'toolResult') {
        result.content = [...result.content, ...images];
        draft.dropped = true;
      }
      continue;
    }
    draft.dropped = true;
    // The event names a pasted image by its path alone (local_images); the item holds the image.
    const entry = prompt.entry;
    if (entry.kind === 'prompt' && images.length > 0 && !entry.content.some((b) => b.type === 'image')) entry.content = [...entry.content, ...images];
  }
  for (const [callId, standIn] of ctx.patchResults) if (!ctx.results.has(callId)) standIn.dropped = false;
  for (const [callId, result] of ctx.results) {
    const exit = ctx.execExit.get(callId);
    if (exit !== undefined && exit !== 0 && !ctx.exitPolled.has(callId)) result.isError = true;
    if (ctx.failedCalls.has(callId)) result.isError = true;
    const applied = ctx.patchApplied.get(callId);
    if (applied) {
      if (applied.success === false) result.isError = true;
      if (applied.diff !== null) result.diff = applied.diff;
      result.change = result.diff === null || result.isError ? null : patchChange(ctx, result.diff, ctx.calls.get(callId));
    }
    // A call found failed only now (its exec_command_end's exit code) landed no commit either.
    if (result.isError && result.commits.some((commit) => commit.landed)) result.commits = result.commits.map((commit) => ({ ...commit, landed: false }));
  }
  // A claim the file makes again is a request of its own, each time: after a "context window
  // exceeded" event (§7.2 item 3) the counts start again from 0, and its requests go from and to
  // the counts the thread's first ones did. Numbered from the second, in file order, as a copy of
  // the file numbers them too; a claim made once is as it always was (claims archived by earlier
  // builds go on matching).
  // A response recorded on its own and counted by its count event after all is not its own claim.
  const dropped = new Set(ctx.drafts.filter((draft) => draft.dropped).flatMap((draft) => draft.entry.usage));
  const made = new Map<string, number>();
  for (const { usage, turn, before, after } of ctx.usages) {
    if (dropped.has(usage)) continue;
    const claim = `${anchor}|${before}>${after}`;
    const seen = `${claim}\u0000${turn ?? ''}`;
    const times = (made.get(seen) ?? 0) + 1;
    made.set(seen, times);
    usage.claim = times === 1 ? claim : `${claim}#${times}`;
    if (turn !== null) usage.claimTurn = turn;
  }
  const entries: Entry[] = [];
  const ids = new Set<string>();
  let previous: string | null = null;
  // Where each user turn on the current path hangs: a rollback cuts the path back to the parent of
  // the turn it undoes, as Codex's drop_last_n_user_turns does (all of them when it undoes more).
  const turnParents: (string | null)[] = [];
  for (const draft of ctx.drafts) {
    if (draft.dropped) continue;
    const entry = draft.entry;
    const lineId = `${idPrefix}${entry.id}`;
    let id = lineId;
    for (let n = 2; ids.has(id); n++) id = `${lineId}~${n}`;
    ids.add(id);
    entry.id = id;
    if (draft.opensUserTurn) turnParents.push(previous);
    if (draft.undoesTurns !== undefined && turnParents.length > 0) {
      const cut = Math.max(0, turnParents.length - draft.undoesTurns);
      previous = turnParents[cut] ?? null;
      turnParents.length = cut;
    }
    entry.parentId = previous;
    entry.key = `${anchor}:${draft.keyBody}`;
    previous = id;
    entries.push(entry);
  }
  return entries;
}

/**
 * Entry ids are lines; a page that shows a thread with its sub-agents needs them apart, so each
 * is prefixed by the end of its thread id (the random part of a UUID v7; its start is a time).
 */
function idPrefixOf(threadId: string): string {
  const tail = threadId.replace(/[^A-Za-z0-9]/g, '').slice(-8);
  return tail === '' ? '' : `${tail}-`;
}

const INDEX_NAME_ID = 'session-index-name-';

/** When the rollout last renamed its thread (a thread_name_updated event); -Infinity when it never did, or did not say when. */
function lastRenameTime(entries: readonly Entry[]): number {
  let last = -Infinity;
  for (const entry of entries) if (entry.kind === 'name' && entry.timestamp !== null && entry.timestamp > last) last = entry.timestamp;
  return last;
}

/** Whether an entry is the thread's name from session_index.jsonl (see nameEntry), not a line of its rollout. */
export function isIndexNameId(id: string): boolean {
  return id.startsWith(INDEX_NAME_ID);
}

function nameEntry(name: string, anchor: string, sessionId: string, line: number, parentId: string | null): Entry {
  // Of its thread: a parent's page shows its spawned children's transcripts, names and all.
  const id = `${INDEX_NAME_ID}${sessionId}`;
  return { key: `${anchor}:index:${sessionId}:${name}`, id, parentId, timestamp: null, line, usage: [], recovered: false, kind: 'name', name, fromBeside: true };
}

/**
 * The thread a file copied its history from, when that is not a spawning parent (a sub-agent of
 * its own): the one its `forked_from_id` names, else the first other thread whose session_meta
 * leads its history. A copy carries its origin's meta whether or not it names the origin (§3,
 * §9), and one that does not is still a copy: its history counts once, in the origin.
 */
function originOf(own: raw.RawSessionMeta, leadingCopies: readonly string[]): string | null {
  if (own.forked_from_id) return own.forked_from_id;
  if (spawnParentOf(own) !== null) return null;
  return leadingCopies[0] ?? null;
}

/**
 * The oldest thread of this file's lineage that the file names: forks name their origin
 * (`forked_from_id`), spawned children their parent (`thread_spawn.parent_thread_id`), and a
 * thread that names neither copied the one whose meta follows its own among those leading the
 * file (the file's own: the first of them).
 */
function lineageAnchor(own: raw.RawSessionMeta, copied: ReadonlyMap<string, raw.RawSessionMeta>, leadingCopies: readonly string[]): string {
  const seen = new Set<string>();
  let id = own.id;
  let meta: raw.RawSessionMeta | undefined = own;
  while (meta && !seen.has(id)) {
    seen.add(id);
    const place = leadingCopies.indexOf(id);
    const unnamed = meta === own ? leadingCopies[0] : place === -1 ? undefined : leadingCopies[place + 1];
    const parent = meta.forked_from_id ?? spawnParentOf(meta) ?? unnamed;
    if (!parent) break;
    id = parent;
    meta = copied.get(parent);
  }
  return id;
}

/**
 * A spawned child's parent thread. A child may replay its parent's history, token_counts
 * included, with or without a copy of the parent's session_meta (§9): the replayed totals are
 * matched to the parent's by value (§9, option a), which needs the parent's anchor. The child's
 * own usage is in turns of its own, so it never matches.
 */
function spawnParentOf(meta: raw.RawSessionMeta): string | null {
  const source = meta.source;
  if (!isPlainObject(source) || !isPlainObject(source['subagent'])) return null;
  const spawn = source['subagent']['thread_spawn'];
  if (!isPlainObject(spawn) || typeof spawn['parent_thread_id'] !== 'string') return null;
  return spawn['parent_thread_id'];
}

/** A sub-agent thread's parent and what it was for (`source.subagent`). */
function spawnOf(meta: raw.RawSessionMeta): { parent: string | null; label: string | null } {
  const parsed = raw.rawSource.safeParse(meta.source);
  if (!parsed.success || typeof parsed.data === 'string') return { parent: null, label: null };
  const subagent = parsed.data.subagent;
  if (subagent === undefined) return { parent: null, label: null };
  // 0.169 and later name the parent beside `source` too: the only place a review names it.
  const named = meta.parent_thread_id ?? null;
  if (typeof subagent === 'string') return { parent: named, label: subagent === 'compact' ? 'compaction' : subagent };
  const spawn = subagent.thread_spawn;
  if (spawn) {
    const nickname = spawn.agent_nickname ?? spawn.agent_role ?? meta.agent_nickname ?? meta.agent_role ?? null;
    // The second multi-agent version's calls name a child by its task (`alpha` of `/root/alpha`), the app by its nickname.
    const task = (spawn.agent_path ?? meta.agent_path ?? '').split('/').filter((part) => part !== '').at(-1) ?? null;
    const label = task !== null && nickname !== null && task !== nickname ? `${task} (${nickname})` : (task ?? nickname ?? 'sub-agent');
    return { parent: spawn.parent_thread_id ?? named, label };
  }
  return { parent: named, label: typeof subagent.other === 'string' ? subagent.other : 'sub-agent' };
}

// --- small readers ----------------------------------------------------------------------------

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return content === undefined || content === null ? [] : [{ type: 'unknown', blockType: typeof content, raw: content }];
  return content.map((value): Block => {
    if (!isPlainObject(value)) return { type: 'unknown', blockType: typeof value, raw: value };
    const type = typeof value['type'] === 'string' ? value['type'] : '(untyped)';
    if ((type === 'input_text' || type === 'output_text' || type === 'text') && typeof value['text'] === 'string') return { type: 'text', text: value['text'] };
    if (type === 'input_image' && typeof value['image_url'] === 'string') return imageBlock(value['image_url']);
    return { type: 'unknown', blockType: type, raw: withoutEncrypted(value) };
  });
}

const IMAGE_ADDRESS_CHARS = 2000;

function imageBlock(url: string): Block {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (data) return { type: 'image', mimeType: data[1] ?? 'image/png', data: data[2] ?? '' };
  // "image: <address>", nothing after it: Markdown's autolink took a "]" after it for part of the
  // address, and angle brackets around it showed in titles and the search index. A long address
  // (a signed one) is cut with a space before the ellipsis, which no address holds.
  const address = url.length > IMAGE_ADDRESS_CHARS ? `${cutText(url, IMAGE_ADDRESS_CHARS)} …` : url;
  return { type: 'text', text: `image: ${address}` };
}

function textOf(content: Block[]): string {
  return content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/**
 * A warning Codex puts before the model as a user message of its own, with no user_message event
 * (codex-rs's record_model_warning: "Warning: apply_patch was requested via exec_command. …"):
 * never words the user typed, even as the file's last line.
 */
const MODEL_WARNING = /^Warning: /;

/** What Codex adds to the conversation as a user message: AGENTS.md, environment and permission blocks. */
function looksInjected(text: string): boolean {
  const head = text.trimStart();
  return /^<[a-z_ ]+>/i.test(head) || head.startsWith('# AGENTS.md instructions');
}

/** A reply that failed stays an error reply (counted so) when the turn is then stopped; else the last one is the turn's, aborted, or the turn is said to have ended. */
function turnStopped(ctx: CodexContext, event: Record<string, unknown>, at: Place, time: number | null, reason: string, said: string): void {
  if (ctx.turnReply !== null && ctx.turnReply.outcome !== 'error') {
    ctx.turnReply.outcome = 'aborted';
    ctx.turnReply.stopReason = reason;
  } else {
    add(ctx, event, at, time, notice('interrupted', 'warn', said, []));
  }
}

/**
 * A turn started while the last one never ended (no task_complete, no turn_aborted): Codex stopped
 * during it (killed, or crashed) and was started again. Said where the next begins, as Ctrl-C's
 * end is. Told only by 0.171's turn_attribution: a sub-agent's turn starts inside its parent's,
 * which its replay copies open. Not in a replay of another thread's history (a sub-agent's of its
 * parent's killed turn, whose reply it does not copy: the parent's page says it), which ends with
 * this thread's own settings (its process starting) or the first turn begun inside another.
 */
function turnWithoutEnd(ctx: CodexContext, event: Record<string, unknown>, at: Place, time: number | null): void {
  const attribution = event['turn_attribution'];
  if (!isPlainObject(attribution)) return;
  const replayed = ctx.replaying;
  if (typeof attribution['parent_turn_id'] === 'string' && attribution['parent_turn_id'] !== '' && ctx.replaying) {
    ctx.replaying = false;
    datedCopy(ctx);
  }
  if (ctx.openTurn === null || replayed || attribution['parent_turn_id'] === ctx.openTurn) return;
  // Keyed by the turn it ends: the line it is said at is the next turn's start.
  turnStopped(ctx, { type: 'turn_without_end', turn_id: ctx.openTurn }, at, time, 'process stopped', 'turn ended without its end recorded: Codex stopped during it (killed, or it crashed)');
}

/** Words the user typed (a user_message event, or 0.169's UserMessage item): a prompt, whose role:user item twin is dropped at the end. */
function typedPrompt(ctx: CodexContext, record: Record<string, unknown>, at: Place, time: number | null, text: string, images: Block[]): void {
  closeReply(ctx);
  startTurn(ctx);
  const prompt = addUserTurn(ctx, record, at, time, text, [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...images]);
  ctx.typed.push({ draft: prompt, text: text.trim(), at: ctx.drafts.length });
}

/**
 * 0.169's account of an item done, which `codex migrate-rollouts` also writes in place of the
 * events before it (user_message, exec_command_end, patch_apply_end): read as those are. The
 * others (AgentMessage, Reasoning, WebSearch…) repeat a response item, which is shown.
 */
function itemCompleted(ctx: CodexContext, event: Record<string, unknown>, at: Place, time: number | null): void {
  const item = event['item'];
  if (!isPlainObject(item)) return;
  const id = typeof item['id'] === 'string' ? item['id'] : null;
  switch (item['type']) {
    case 'UserMessage': {
      const content = Array.isArray(item['content']) ? item['content'] : [];
      const text = content.flatMap((part) => (isPlainObject(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? [part['text']] : [])).join('\n');
      const images = content.flatMap((part) => (isPlainObject(part) && part['type'] === 'image' && typeof part['image_url'] === 'string' ? [imageBlock(part['image_url'])] : []));
      typedPrompt(ctx, event, at, time, text, images);
      return;
    }
    case 'CommandExecution':
      if (id !== null && typeof item['exit_code'] === 'number') ctx.execExit.set(id, item['exit_code']);
      return;
    case 'FileChange': {
      const r = raw.rawFileChange.safeParse(item);
      if (r.success && id !== null) patchEnded(ctx, event, at, time, { call_id: id, success: r.data.status === 'completed' ? true : r.data.status === 'failed' || r.data.status === 'declined' ? false : null, stdout: r.data.stdout, stderr: r.data.stderr, changes: r.data.changes });
      return;
    }
    case 'McpToolCall':
      // A failed call says so here only: its output item may read as any other.
      if (id !== null && (item['status'] === 'failed' || isPlainObject(item['error']))) ctx.failedCalls.add(id);
      return;
    case 'SubAgentActivity': {
      // The second multi-agent version's spawn_agent says only the task's path in its output;
      // this says which thread the call started.
      const r = raw.rawSubAgentActivity.safeParse(item);
      if (r.success && r.data.kind === 'started' && r.data.id && r.data.agent_thread_id) ctx.spawned.set(r.data.id, r.data.agent_thread_id);
      return;
    }
  }
}

/** A patch applied, or not: its diff and success go to the call's result; a stand-in result should its output line never come. */
function patchEnded(ctx: CodexContext, event: Record<string, unknown>, at: Place, time: number | null, r: Pick<raw.RawPatchApplyEnd, 'call_id' | 'success' | 'stdout' | 'stderr' | 'changes'>): void {
  if (!r.call_id) return;
  const applied = { success: r.success ?? null, diff: r.changes ? appliedDiff(r.changes, ctx.cwd) : null };
  ctx.patchApplied.set(r.call_id, applied);
  // The call's result, should its output line never come (a rollout cut short after this
  // event): shown, and its lines counted, only then (see finish).
  const call = ctx.calls.get(r.call_id);
  if (call === undefined || ctx.results.has(r.call_id)) return;
  closeReply(ctx);
  const patch = patchTextOf(call.name, call.arguments);
  const diff = applied.diff ?? (patch === null ? null : patchDiff(patch));
  const isError = applied.success === false;
  const said = [r.stdout, r.stderr].filter((text): text is string => typeof text === 'string' && text.trim() !== '').join('\n');
  const standIn = add(ctx, event, at, time, {
    kind: 'toolResult',
    toolCallId: r.call_id,
    toolName: call.name,
    content: [{ type: 'text', text: said === '' ? `(no output recorded; Codex reported the patch ${isError ? 'failed' : applied.success ? 'applied' : 'ended'})` : said }],
    isError,
    subagents: [],
    diff,
    change: diff === null || isError ? null : patchChange(ctx, diff, call),
    commits: [],
    nestedCalls: [],
  });
  standIn.dropped = true;
  ctx.patchResults.set(r.call_id, standIn);
}

/**
 * Whether Codex sends a thread's fast mode (the priority tier) with a request to this model: its
 * setting holds whatever the model, but 0.169 sends it only to the models its catalog offers Fast
 * for (gpt-5.5, gpt-5.6-*, gpt-6-* and gpt-6.1-*; checked by running it: not to gpt-5.4,
 * gpt-5.4-mini, gpt-5.3-codex, gpt-4.1 or a Claude model). Later ones are taken to as well.
 */
function offersFast(model: string | null): boolean {
  const version = model === null ? null : /^gpt-(\d+)(?:\.(\d+))?(?:-(?:sol|terra|luna|astra))?$/.exec(model);
  if (!version) return false;
  const major = Number(version[1]);
  const minor = Number(version[2] ?? 0);
  return major > 5 || (major === 5 && minor >= 5);
}

/** The names of the tools a list of tool definitions holds, those in namespaces too (at most a few levels deep). */
function toolNames(tools: unknown, depth = 0): string[] {
  if (!Array.isArray(tools) || depth > 3) return [];
  return tools.flatMap((tool) => {
    if (!isPlainObject(tool)) return [];
    if (Array.isArray(tool['tools'])) return toolNames(tool['tools'], depth + 1);
    return typeof tool['name'] === 'string' ? [tool['name']] : [];
  });
}

/** The reply just before a compaction whose words are its summary: the summariser's own answer. */
function summaryReply(ctx: CodexContext, summary: string): Draft | null {
  for (let i = ctx.drafts.length - 1; i >= 0; i--) {
    const draft = ctx.drafts[i] as Draft;
    if (draft.dropped || draft.entry.kind === 'usageOnly') continue;
    if (draft.entry.kind !== 'reply') return null;
    const { content } = draft.entry;
    const text = textOf(content).trim();
    // The whole summary, or all that follows the line Codex puts before it.
    const whole = summary.trim();
    const firstBreak = whole.indexOf('\n');
    const same = whole === text || (firstBreak !== -1 && whole.slice(firstBreak + 1).trim() === text);
    return text !== '' && content.every((b) => b.type === 'text' || b.type === 'thinking') && same ? draft : null;
  }
  return null;
}

/**
 * What a turn that ended in an error says of it: its message, or the API's own message when the
 * message is the API's JSON answer (`{"error":{"message":…}}`); null for a turn that did not fail.
 */
function turnError(value: unknown): string | null {
  const message = typeof value === 'string' ? value : isPlainObject(value) && typeof value['message'] === 'string' ? value['message'] : null;
  if (message === null) return isPlainObject(value) ? 'the turn failed' : null;
  if (!message.trimStart().startsWith('{')) return message;
  try {
    const answer: unknown = JSON.parse(message);
    const inner = isPlainObject(answer) && isPlainObject(answer['error']) ? answer['error']['message'] : undefined;
    return typeof inner === 'string' && inner !== '' ? inner : message;
  } catch {
    return message;
  }
}

/**
 * A role:user item 0.169 and later mark as the user's own words (every content item of a kind
 * `user.…`), where injected ones say where they come from (`environments.environment_context`,
 * `multi_agent.subagent_notification`). Builds before wrote no marks.
 */
function typedByUser(message: raw.RawMessage): boolean {
  const kinds = message.internal_chat_message_metadata_passthrough?.content_item_kinds ?? [];
  return kinds.length > 0 && kinds.every((kind) => typeof kind === 'string' && kind.startsWith('user.'));
}

/**
 * What the user sent: the prompt, after the editor's context when the IDE extension or the app put
 * it first (`text` is the content's text, `content` all of it). The first of them opens the turn:
 * a rollback cuts before it.
 */
function addUserTurn(ctx: CodexContext, record: Record<string, unknown>, at: Place, time: number | null, text: string, content: Block[]): Draft {
  const { context, request } = splitEditorContext(text);
  const contextDraft = context === null ? null : add(ctx, record, at, time, editorContext(context));
  const typed = context === null ? content : [...(request === '' ? [] : [{ type: 'text' as const, text: request }]), ...content.filter((b) => b.type !== 'text')];
  const prompt = add(ctx, record, at, time, { kind: 'prompt', content: typed, skill: null });
  (contextDraft ?? prompt).opensUserTurn = true;
  return prompt;
}

/**
 * Each role:user item's twin among the typed prompts: the same text, nearest first. An item and
 * its event are written side by side, so pairing the closest pairs first keeps an image a tool
 * showed (an item with no text) from taking the twin of a screenshot pasted with no words. Pairs
 * are looked for within a few drafts (a session may type "continue" a thousand times); what is
 * left is paired in order, as before.
 */
function twinsOf<I extends { text: string; at: number }>(items: readonly I[], typed: readonly { draft: Draft; text: string; at: number }[]): Map<I, Draft> {
  const byText = new Map<string, (typeof typed)[number][]>();
  for (const prompt of typed) {
    const same = byText.get(prompt.text);
    if (same) same.push(prompt);
    else byText.set(prompt.text, [prompt]);
  }
  const pairs: { item: I; prompt: Draft; distance: number }[] = [];
  for (const item of items) {
    const same = byText.get(item.text) ?? [];
    // The prompts are in file order: from the first within reach of the item.
    let low = 0;
    let high = same.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((same[middle] as (typeof typed)[number]).at < item.at - TWIN_REACH) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < same.length && (same[i] as (typeof typed)[number]).at <= item.at + TWIN_REACH; i++) {
      const prompt = same[i] as (typeof typed)[number];
      pairs.push({ item, prompt: prompt.draft, distance: Math.abs(prompt.at - item.at) });
    }
  }
  pairs.sort((a, b) => a.distance - b.distance || a.item.at - b.item.at);
  const twins = new Map<I, Draft>();
  const taken = new Set<Draft>();
  const pair = (item: I, prompt: Draft) => {
    twins.set(item, prompt);
    taken.add(prompt);
  };
  for (const { item, prompt } of pairs) if (!twins.has(item) && !taken.has(prompt)) pair(item, prompt);
  for (const item of items) {
    if (twins.has(item)) continue;
    const prompt = byText.get(item.text)?.find((p) => !taken.has(p.draft));
    if (prompt) pair(item, prompt.draft);
  }
  return twins;
}

/** How many drafts apart an item and its twin prompt are looked for first. */
const TWIN_REACH = 16;

/** The texts codex-rs writes around a pasted image in a user message ("<image name=[Image #1]>", "</image>"). */
const IMAGE_TAG = /^\s*<\/?image(?:\s[^>]*)?>\s*$/;

/** Where the words typed start when Codex's IDE extension or desktop app put what the editor showed before them. */
const REQUEST_MARKER = /^## My request for Codex:[ \t]*(?:\r?\n)?/m;

/**
 * A prompt as the IDE extension and the desktop app write it: "# Context from my IDE setup:" (the
 * active file, open tabs) or "# Files mentioned by the user:", then "## My request for Codex:" and
 * the words typed. The context is shown apart and folded; the request is the prompt (and so the
 * session's title). Anything else, even with the marker further down, is the prompt as written.
 */
function splitEditorContext(text: string): { context: string | null; request: string } {
  const marker = REQUEST_MARKER.exec(text);
  if (!marker) return { context: null, request: text };
  const before = text.slice(0, marker.index).trim();
  if (before !== '' && !/^# [^\n]*:[ \t\r]*(?:\n|$)/.test(before)) return { context: null, request: text };
  return { context: before === '' ? null : before, request: text.slice(marker.index + marker[0].length) };
}

/** The editor's context of a prompt, as a notice named by its parts ("Context from my IDE setup: Active file, Open tabs"). */
function editorContext(context: string): EntryPayload {
  return notice('editor context', 'info', editorContextSummary(context), [{ type: 'text', text: context }]);
}

function editorContextSummary(context: string): string {
  const lines = context.split(/\r?\n/);
  const heading = (lines[0] ?? '').replace(/^#\s*/, '').replace(/:\s*$/, '');
  // "## notes.vtt: /Users/ana/notes.vtt", "## C:\tmp\a.png: C:\tmp\a.png": the name ends at the colon before a space.
  const parts = lines.flatMap((line) => (/^## /.test(line) ? [line.slice(3).replace(/:(?:\s.*)?$/, '').trim()] : [])).filter((part) => part !== '');
  const summary = parts.length === 0 ? heading : `${heading}: ${parts.join(', ')}`;
  return shortened(summary, SUMMARY_KEPT);
}

function injectedSummary(text: string): string {
  const head = text.trimStart();
  const tag = /^<([a-z_ ]+)>/i.exec(head)?.[1];
  if (tag) return tag.replace(/_/g, ' ');
  const line = head.split('\n', 1)[0] ?? '';
  return shortened(line, SUMMARY_KEPT);
}

/** The images of a tool's output given as a content list. */
function outputImages(output: unknown): Block[] {
  if (!Array.isArray(output)) return [];
  return output.flatMap((part) => (isPlainObject(part) && part['type'] === 'input_image' && typeof part['image_url'] === 'string' ? [imageBlock(part['image_url'])] : []));
}

/** A tool's output as text, and whether it says the call failed (`{content, success:false}` in older builds). */
function outputText(output: unknown): { text: string; failed: boolean } {
  if (typeof output === 'string') return { text: output, failed: false };
  if (Array.isArray(output)) {
    const texts = output.flatMap((part) => (isPlainObject(part) && typeof part['text'] === 'string' ? [part['text']] : []));
    return { text: texts.join('\n'), failed: false };
  }
  if (isPlainObject(output)) {
    const content = output['content'];
    if (typeof content === 'string') return { text: content, failed: output['success'] === false };
    return { text: JSON.stringify(output), failed: output['success'] === false };
  }
  return { text: output === undefined || output === null ? '' : JSON.stringify(output), failed: false };
}

/** The fields of an MCP tool's result (CallToolResult), as codex-rs writes it whole as a call's output. */
const MCP_RESULT_KEYS: ReadonlySet<string> = new Set(['content', 'isError', 'structuredContent', '_meta']);

/**
 * An MCP tool's result written whole as its output, `{"content":[{"type":"text","text":…}],
 * "isError":true}`: its texts, its images, and whether the server said the call failed. Null for
 * any other output (an object of other fields, content that is no list of typed parts).
 */
function mcpToolResult(output: string): { text: string; failed: boolean; images: Block[] } | null {
  if (!output.startsWith('{') || output.length > MCP_RESULT_CHARS) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch {
    return null;
  }
  if (!isPlainObject(parsed) || !Object.keys(parsed).every((key) => MCP_RESULT_KEYS.has(key))) return null;
  const { content, isError } = parsed;
  if (!Array.isArray(content) || !content.every((part) => isPlainObject(part) && typeof part['type'] === 'string')) return null;
  if (isError !== undefined && isError !== null && typeof isError !== 'boolean') return null;
  const parts = content as Record<string, unknown>[];
  const texts = parts.flatMap((part) => (part['type'] === 'text' && typeof part['text'] === 'string' ? [part['text']] : part['type'] === 'image' ? [] : [JSON.stringify(part)]));
  const images = parts.flatMap((part) => (part['type'] === 'image' && typeof part['data'] === 'string' ? [imageBlock(`data:${typeof part['mimeType'] === 'string' ? part['mimeType'] : 'image/png'};base64,${part['data']}`)] : []));
  return { text: texts.join('\n'), failed: isError === true, images };
}

/** Longer outputs are not parsed for an MCP result (shown as written). */
const MCP_RESULT_CHARS = 10_000_000;

/** The shell tool wraps its output as `{"output": "…", "metadata": {…}}`: show the output. */
function shownOutput(text: string): string {
  if (!text.trimStart().startsWith('{"output"')) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) && typeof parsed['output'] === 'string' ? parsed['output'] : text;
  } catch {
    return text;
  }
}

/**
 * Function-call arguments are a JSON string; unreadable ones are kept as text and said so. Parsed
 * here, past the line's own cut of deep nesting, so they are cut as a line is (`cut`: how many).
 */
function jsonArguments(args: unknown): { value: unknown; error: string | null; cut: number } {
  if (typeof args !== 'string') return { value: args ?? {}, error: null, cut: 0 };
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch (error) {
    return { value: args, error: `arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`, cut: 0 };
  }
  // The root itself counts as a level: a value nested more than MAX_NESTING deep would overflow the stack when shown.
  const cut = cutDeepNesting([value], MAX_NESTING);
  return { value, error: null, cut };
}

/** Opaque encrypted reasoning is never shown, even in a record bough does not know. */
/** A record shown as data, without the encrypted reasoning it holds at any depth (codex.md §5, §11.12). */
function withoutEncrypted(value: Record<string, unknown>): Record<string, unknown> {
  return hasEncrypted(value, 0) ? (stripEncrypted(value, 0) as Record<string, unknown>) : value;
}

function hasEncrypted(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > MAX_NESTING) return false;
  if (Array.isArray(value)) return value.some((item) => hasEncrypted(item, depth + 1));
  return Object.hasOwn(value, 'encrypted_content') || Object.values(value).some((item) => hasEncrypted(item, depth + 1));
}

function stripEncrypted(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_NESTING) return value;
  if (Array.isArray(value)) return value.map((item) => stripEncrypted(item, depth + 1));
  const kept: Record<string, unknown> = {};
  // Defined, not assigned: a key `__proto__` (JSON.parse makes it an own key) stays a key.
  for (const [key, item] of Object.entries(value)) {
    if (key !== 'encrypted_content') Object.defineProperty(kept, key, { value: stripEncrypted(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return kept;
}

function parse<S extends z.ZodType>(ctx: CodexContext, schema: S, value: unknown, line: number, what: string): z.infer<S> | null {
  return parseRecord(schema, value, (d) => ctx.diagnostics.push(d), ctx.file, line, what);
}

