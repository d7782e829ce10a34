// Claude Code transcripts → normalised SessionFile (formats/claude.md). Knows Claude Code's raw
// field names so that nothing else has to. A file is read whole first: a parent may be written
// after its child, and one response's lines are spread among its tool results.

import { countProblem } from '../usage-check.js';
import { readRegularFile } from '../../regular-file.js';
import { shortened } from '../../unicode-text.js';
import { basename, dirname } from 'node:path';
import { diagnostic, lostLinesBetween, type FileDiagnostics } from '../../diagnostics.js';
import { TOKEN_KINDS, zeroTokens, type Block, type Entry, type EntryPayload, type FileChange, type ReplyOutcome, type RunningTotals, type SessionFile, type SubagentCopies, type SubagentRun, type TokenCounts, type ToolDiff, type Usage } from '../../types.js';
import { isPlainObject } from '../json-line.js';
import { lineRecords, lostField, lostFlag } from '../line-records.js';
import type { SourceInput } from '../source-input.js';
import { claudeProjectFolder } from './paths.js';
import * as raw from './schema.js';
import { diffLines, resultFile, toolCommits, toolDiff, toolEffect } from './tools.js';
import { classifyUserText, firstLine, injectedApart, noticeSummary, type UserText } from './user-text.js';
import { contentHash, invalidRecord, parseRecord, parseTime, recordTime } from '../record-fields.js';
import { sha256Hex } from '../../sha256.js';
import { costState, type CostState } from './cost-state.js';

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const BOOKKEEPING: ReadonlySet<string> = new Set(raw.CLAUDE_BOOKKEEPING_TYPES);
/** Record types of Claude Code that carry no `message` and may open a file. */
const METADATA_TYPES: ReadonlySet<string> = new Set([...raw.CLAUDE_BOOKKEEPING_TYPES, 'summary', 'custom-title', 'ai-title', 'system']);
const CONVERSATION_TYPES = new Set(['user', 'assistant', 'system']);

/** Whether an object (a first record, or one salvaged from a damaged line) is a whole Claude Code record. */
export function isClaudeRecord(value: Record<string, unknown>): boolean {
  const type = value['type'];
  // Codex envelopes and Pi's header and entries are never ours.
  if ('payload' in value && typeof type === 'string' && CODEX_TYPES.has(type)) return false;
  if (type === 'session' || 'parentId' in value || ('instructions' in value && 'id' in value)) return false;
  if (type === 'summary') return typeof value['leafUuid'] === 'string';
  if (typeof type === 'string' && CONVERSATION_TYPES.has(type)) return typeof value['uuid'] === 'string' || typeof value['sessionId'] === 'string';
  if (typeof type === 'string' && METADATA_TYPES.has(type)) return typeof value['sessionId'] === 'string' || typeof value['parentSessionId'] === 'string' || 'messageId' in value || 'operation' in value || 'uuid' in value;
  // A type Claude Code added after this reader was written: it still carries the conversation envelope.
  return typeof type === 'string' && typeof value['uuid'] === 'string' && 'parentUuid' in value && typeof value['sessionId'] === 'string';
}

type ToolCallBlock = Extract<Block, { type: 'toolCall' }>;

/** One record with where it was read. */
interface Located {
  record: Record<string, unknown>;
  line: number;
  /** Position among several records on one damaged line (0 when alone). */
  piece: number;
  clean: boolean;
}

/** An entry being built: its parent is resolved once every record is known. */
interface Draft {
  entry: Entry;
  /** The raw uuid the entry hangs from (resolved through skipped records), or an entry id already resolved. */
  parent: { uuid: string | null; nullWhenDangling?: boolean; otherwise?: string | null } | { id: string | null } | { tail: true };
  sidechain: boolean;
}

/** The lines of one response, merged into one reply. */
interface Response {
  draft: Draft;
  messageId: string | null;
  requestId: string | null;
  /** Its first line's request id did not read (a number, an object): a later line's names it. */
  requestUnread: boolean;
  uuids: Set<string>;
  /** The line whose usage counts: most output tokens, the last on ties unless it is more damaged. */
  usageLine: raw.RawAssistantLine | null;
  usageOutput: number;
  /** Some count of the usage line is one no agent could mean (of a line tied on output, a whole one is taken). */
  usageDamaged: boolean;
  /** The file line of `usageLine`, and of each line of the response whose usage was damaged (said when another line's counts). */
  usageLineAt: number;
  damagedAt: number[];
  /** Its prompt's size as its first line with usage gave it (input and cache counts), which every line of one response repeats. */
  promptCounts: PromptCounts | null;
  stopReason: string | null;
  sidechain: boolean;
  /** The session its first line says it is of (a resumed copy may keep its origin's). */
  session: string | null;
  /** What each of its lines said and when (lineSaid): a line said again is a replay of one. */
  said: Set<string>;
}

interface ClaudeContext {
  file: string;
  /** Claude Code's versions its lines name, in the order first written: it may be updated mid-session. */
  versions: Set<string>;
  /** Of each damaged line, the parent its lost record named, as far as its text still tells (see lostField), and whether it was a sidechain's. */
  lostParents: Map<number, { parent: string | null; sidechain: boolean }>;
  /** Sub-agents a Task/Agent call started (`toolUseResult.agentId`), by call id. */
  startedSubagents: Map<string, string>;
  cwd: string | null;
  sessionId: string;
  diagnostics: FileDiagnostics;
  drafts: Draft[];
  /** A record's uuid → the entry its children hang from (set by linkUuid). */
  linkTarget: Map<string, string>;
  /** A record's uuid that became no entry → its own parent (set by passUuid). */
  passThrough: Map<string, string | null>;
  /** What resolveUuid found for each uuid it went through: forgotten when one of them changes. */
  resolved: Map<string, string | null>;
  entryById: Map<string, Draft>;
  calls: Map<string, ToolCallBlock>;
  responses: Map<string, Response>;
  responseOfUuid: Map<string, Response>;
  /** Responses begun by a line whose request id did not read: until one is, no later line looks for them. */
  requestsUnread: number;
  responseOfDraft: Map<Draft, Response>;
  /** Command echoes not yet known to start a turn, by entry id. */
  commands: Map<string, { name: string; args: string }>;
  /** Each user line's uuid by its parent, time and content: a line written again under a new uuid is a replay of it. */
  userLines: Map<string, string>;
  hasCustomTitle: boolean;
  /** Whole-file sub-agent transcript: its usage is sub-agent spend. */
  subagentFile: boolean;
  previousId: string | null;
  entryTitles: { entryId: string; title: string }[];
  /** The record of each uuid read so far (held anyway), to tell a node written again from another reusing its uuid. */
  nodeRecord: Map<string, Record<string, unknown>>;
  /** A uuid another node reused → the name that node goes by, for the records written after it. */
  renamedUuid: Map<string, string>;
  /** The process's running totals (`cost-state`), in file order: see cost-state.ts. */
  costStates: CostState[];
  /** Copies of sub-agents' requests (agent_progress lines), by sub-agent id: see SubagentCopies. */
  subagentCopies: Map<string, CopiedRequests>;
}

/** A sub-agent's requests as its session's file copies them: each request's fullest copy, by message and request id. */
interface CopiedRequests {
  line: number;
  from: number | null;
  to: number | null;
  requests: Map<string, TokenCounts>;
  models: Set<string>;
}

export async function readClaudeFile(input: SourceInput): Promise<SessionFile> {
  const records: Located[] = input.first.records.map((record, index) => ({
    record,
    line: input.first.line,
    piece: input.first.records.length > 1 ? index + 1 : 0,
    clean: input.first.clean,
  }));
  let lineCount = input.first.line;
  const lostParents = new Map<number, { parent: string | null; sidechain: boolean }>();
  for await (const line of input.lines) {
    lineCount = line.number;
    const read = lineRecords(line, input.path, isClaudeRecord, input.diagnostics);
    read.records.forEach((record, index) => records.push({ record, line: line.number, piece: read.records.length > 1 ? index + 1 : 0, clean: read.clean }));
    // A line of which records were recovered as well: which parent in it was the lost one's is not told.
    if (read.damaged !== undefined) lostParents.set(line.number, { parent: read.records.length > 0 ? null : lostField(read.damaged, 'parentUuid'), sidechain: lostFlag(read.damaged, 'isSidechain') });
  }

  const facts = fileFacts(records, input.path);
  const ctx: ClaudeContext = {
    file: input.path,
    versions: new Set(),
    lostParents,
    cwd: facts.cwd,
    sessionId: facts.sessionId,
    diagnostics: input.diagnostics,
    drafts: [],
    linkTarget: new Map(),
    passThrough: new Map(),
    resolved: new Map(),
    entryById: new Map(),
    calls: new Map(),
    startedSubagents: new Map(),
    responses: new Map(),
    responseOfUuid: new Map(),
    requestsUnread: 0,
    responseOfDraft: new Map(),
    commands: new Map(),
    userLines: new Map(),
    hasCustomTitle: facts.hasCustomTitle,
    subagentFile: facts.subagentFile,
    previousId: null,
    entryTitles: [],
    nodeRecord: new Map(),
    renamedUuid: new Map(),
    costStates: [],
    subagentCopies: new Map(),
  };
  for (const located of records) addRecord(ctx, located);
  finishResponses(ctx);
  resolveParents(ctx);
  chainParallelResults(ctx);
  const name = basename(input.path);
  const subagentId = facts.subagentFile ? (facts.agentId ?? /^agent-(.+)\.jsonl$/i.exec(name)?.[1] ?? null) : null;
  // Its session's page shows a sub-agent's transcript beside the session's own, whose records it
  // may replay, uuids and all (a /btw side question): its entries go by ids of their own there.
  const entries = ctx.subagentFile ? withIdPrefix(ctx, ctx.drafts.map((d) => d.entry), `${subagentId ?? name.replace(/\.jsonl$/i, '')}-`) : foldInlineSidechains(ctx);

  const meta = facts.subagentFile ? await readAgentMeta(input.path.replace(/\.jsonl$/i, '.meta.json')) : null;
  const startedSubagents = [...ctx.startedSubagents].map(([callId, subagentId]) => ({ callId, subagentId }));
  // Its sidecar names the call that started it (§6.3 c), where the call's result may not.
  if (meta?.toolUseId && subagentId !== null) startedSubagents.push({ callId: meta.toolUseId, subagentId });
  return {
    source: 'claude',
    path: input.path,
    size: input.size,
    mtime: input.mtime,
    sessionId: facts.sessionId,
    cwd: facts.cwd,
    projectFolder: claudeProjectFolder(input.path),
    startedAt: facts.startedAt,
    parentFile: null,
    parentSessionId: facts.parentSessionId,
    namedByAgent: name === `${facts.sessionId}.jsonl` || (facts.agentId !== null && name === `agent-${facts.agentId}.jsonl`),
    subagentOf: facts.subagentFile ? facts.sessionId : null,
    subagentLabel: facts.subagentFile ? subagentLabel(input.path, entries, meta?.label ?? null) : null,
    subagentId,
    startedSubagents,
    ...subagentCopiesOf(ctx),
    entryTitles: ctx.entryTitles,
    ...(facts.subagentFile || ctx.costStates.length === 0 ? {} : { runningTotals: runningTotals(ctx.costStates, records, ownFromStart(records, facts)) }),
    // Claude Code's transcripts have no format number; `version` is the app's, and changes mid-file.
    formatVersion: 1,
    agentVersions: [...ctx.versions],
    entries,
    diagnostics: ctx.diagnostics.list(),
    lineCount,
  };
}

interface FileFacts {
  sessionId: string;
  cwd: string | null;
  startedAt: number | null;
  parentSessionId: string | null;
  subagentFile: boolean;
  agentId: string | null;
  hasCustomTitle: boolean;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function fileFacts(records: readonly Located[], path: string): FileFacts {
  const sessionIds: string[] = [];
  let cwd: string | null = null;
  let anyCwd: string | null = null;
  let startedAt: number | null = null;
  let agentId: string | null = null;
  let conversation = 0;
  let sidechain = 0;
  let hasCustomTitle = false;
  for (const { record } of records) {
    const sessionId = record['sessionId'];
    if (typeof sessionId === 'string' && sessionId !== '' && sessionIds.at(-1) !== sessionId) sessionIds.push(sessionId);
    const recordCwd = typeof record['cwd'] === 'string' && record['cwd'] !== '' ? record['cwd'] : null;
    anyCwd ??= recordCwd;
    startedAt ??= parseTime(record['timestamp']);
    if (record['type'] === 'custom-title') hasCustomTitle = true;
    if (typeof record['uuid'] === 'string' && isPlainObject(record['message'])) {
      cwd ??= recordCwd;
      conversation++;
      if (record['isSidechain'] === true) {
        sidechain++;
        if (agentId === null && typeof record['agentId'] === 'string') agentId = record['agentId'];
      }
    }
  }
  const name = basename(path).replace(/\.jsonl$/i, '');
  // Where Claude Code 2.1 files a session's sub-agents (`<session>/subagents/`, its workflows'
  // below it): the layout says what the file is (claude.md §2), whatever its lines say of their
  // session or of being a sidechain (a field left out).
  const subagentsOf = sessionOfSubagentsFolder(path);
  const inSubagents = subagentsOf !== null;
  const nameId = UUID.exec(name)?.[0] ?? subagentsOf;
  // A resumed copy is named by its new id and may open with the old session's entries.
  const own = subagentsOf ?? (nameId !== null && sessionIds.includes(nameId) ? nameId : (sessionIds[0] ?? nameId ?? name));
  // Copied from the session whose lines come last before its own: a copy of a copy that kept the
  // ids holds its origin's origin's lines first (a chain of resumes named the first session).
  const before = sessionIds.slice(0, sessionIds.indexOf(own)).filter((id) => id !== own).at(-1) ?? null;
  const subagentFile = conversation > 0 && (sidechain === conversation || inSubagents);
  // The folder the conversation ran in: a hook's attachment may come first from another (a worktree of it).
  return { sessionId: own, cwd: cwd ?? anyCwd, startedAt, parentSessionId: subagentFile ? null : before, subagentFile, agentId, hasCustomTitle };
}

/** User lines remembered for telling a replay (see addUser): far more than a compaction replays. */
const RECENT_USER_LINES = 20_000;

/** How far below a session's subagents/ folder its files lie (workflows/<run>/agent-x.jsonl). */
const SUBAGENTS_DEPTH = 3;

/** The session whose `subagents/` folder a file lies in (`<session id>/subagents/…`), or null. */
function sessionOfSubagentsFolder(path: string): string | null {
  const folders = dirname(path).split(/[\\/]/);
  for (let i = folders.length - 1; i >= Math.max(1, folders.length - SUBAGENTS_DEPTH); i--) {
    if (folders[i] === 'subagents') return UUID.exec(folders[i - 1] ?? '')?.[0] ?? null;
  }
  return null;
}

const MAX_VERSION_LENGTH = 40;

function addRecord(ctx: ClaudeContext, located: Located): void {
  const { record, line } = located;
  // A field of the wrong type is left out and said, the rest kept (regression: a uuid written as a
  // number cost a billed reply its tokens: 9 of 10 replies lost, each for one such field).
  const parsed = parseRecord(raw.rawEnvelope, record, (d) => ctx.diagnostics.push(d), ctx.file, line, 'record');
  if (parsed === null) return;
  const env = asNode(ctx, located, parsed);
  if (env === null) return;
  // A version's few characters; anything longer is no version of Claude Code's.
  if (typeof env.version === 'string' && env.version.length <= MAX_VERSION_LENGTH) ctx.versions.add(env.version);
  // A record without a type is of no known kind (claude.md §3): other tools' fixtures write such
  // usage lines (ccusage's), and counting them would bill what Claude Code never wrote.
  const type = env.type ?? undefined;
  switch (type) {
    case 'assistant':
      return addAssistant(ctx, located, env);
    case 'user':
      return addUser(ctx, located, env);
    case 'system':
      return addSystem(ctx, located, env);
    case 'summary': {
      const summary = raw.rawSummaryLine.safeParse(record);
      if (summary.success) ctx.entryTitles.push({ entryId: summary.data.leafUuid, title: summary.data.summary });
      else ctx.diagnostics.push(invalidRecord(ctx.file, line, 'summary', summary.error));
      return;
    }
    case 'custom-title': {
      const title = raw.rawCustomTitleLine.safeParse(record);
      if (title.success) addDraft(ctx, located, env, { kind: 'name', name: title.data.customTitle?.trim() || null }, [], TAIL);
      return;
    }
    case 'ai-title': {
      const title = raw.rawAiTitleLine.safeParse(record);
      // A title the user gave wins over the agent's guesses, wherever it sits in the file.
      if (title.success && !ctx.hasCustomTitle) addDraft(ctx, located, env, { kind: 'name', name: title.data.aiTitle?.trim() || null }, [], TAIL);
      return;
    }
    case 'attachment':
      if (addQueuedCommand(ctx, located, env) || addTurnLimit(ctx, located, env)) return;
      return skip(ctx, env);
    case 'progress':
      noteSubagentCopy(ctx, record, line);
      return skip(ctx, env);
    case 'cost-state': {
      // Bookkeeping, read for what only it holds (cost-state.ts); one that does not read is passed over.
      const state = raw.rawCostState.safeParse(record);
      ctx.costStates.push(costState(state.success ? state.data : null, line));
      return skip(ctx, env);
    }
    default:
      if (type === undefined || !BOOKKEEPING.has(type)) {
        // Skipped lines: what they hold is not read (counted in skippedLines, as the data-quality page says).
        ctx.diagnostics.push(diagnostic('unknown-entry-type', ctx.file, line, type === undefined ? 'a record without a type (skipped)' : `record type ${JSON.stringify(type)} (skipped)`, true));
      }
      skip(ctx, env);
  }
}

/**
 * A `progress` line copying a sub-agent's response (2.1's agent_progress, claude.md §8.2): never
 * usage, but noted, each request once by its fullest copy, for telling what a sub-agent whose
 * transcript is not read spent. One that does not read as such is passed over, as any progress line.
 */
function noteSubagentCopy(ctx: ClaudeContext, record: Record<string, unknown>, line: number): void {
  const data = record['data'];
  if (!isPlainObject(data) || data['type'] !== 'agent_progress' || typeof data['agentId'] !== 'string' || data['agentId'] === '') return;
  const copy = data['message'];
  if (!isPlainObject(copy) || copy['type'] !== 'assistant' || !isPlainObject(copy['message'])) return;
  const message = copy['message'];
  const usage = raw.rawUsage.safeParse(message['usage']);
  if (!usage.success || typeof message['id'] !== 'string' || typeof copy['requestId'] !== 'string') return;
  const u = usage.data;
  const counts = [u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens, u.cache_creation?.ephemeral_1h_input_tokens];
  // Counts no agent could mean are no guide to what was spent: the copy is passed over.
  if (counts.some((n) => typeof n === 'number' && countProblem(n) !== null)) return;
  const written = u.cache_creation_input_tokens ?? (u.cache_creation?.ephemeral_5m_input_tokens ?? 0) + (u.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  const request: TokenCounts = {
    input: u.input_tokens ?? 0,
    output: u.output_tokens ?? 0,
    cacheRead: u.cache_read_input_tokens ?? 0,
    cacheWrite: written,
    cacheWrite1h: Math.min(written, u.cache_creation?.ephemeral_1h_input_tokens ?? 0),
    reasoning: 0,
  };
  const agent = data['agentId'];
  let copies = ctx.subagentCopies.get(agent);
  if (copies === undefined) {
    // A session starts hundreds at most: a file naming more is no guide, and each is held in its ledger.
    if (ctx.subagentCopies.size >= MAX_COPIED_SUBAGENTS) return;
    ctx.subagentCopies.set(agent, (copies = { line, from: null, to: null, requests: new Map(), models: new Set() }));
  }
  // When the request was made: the copy's own time, else its line's.
  const time = parseTime(copy['timestamp']) ?? parseTime(record['timestamp']);
  if (time !== null) {
    copies.from = copies.from === null ? time : Math.min(copies.from, time);
    copies.to = copies.to === null ? time : Math.max(copies.to, time);
  }
  const key = `${message['id']}\u0000${copy['requestId']}`;
  const before = copies.requests.get(key);
  if (before === undefined || request.output > before.output) copies.requests.set(key, request);
  if (typeof message['model'] === 'string' && message['model'] !== '<synthetic>' && copies.models.size < MAX_COPIED_MODELS) copies.models.add(message['model']);
}

/** Models named per sub-agent's copies: a few tell which; a forged file's thousands would not. */
const MAX_COPIED_MODELS = 8;
/** Sub-agents whose copies a file is noted for. */
const MAX_COPIED_SUBAGENTS = 10_000;

function subagentCopiesOf(ctx: ClaudeContext): { subagentCopies?: SubagentCopies[] } {
  if (ctx.subagentCopies.size === 0) return {};
  const sum = (all: Iterable<TokenCounts>): TokenCounts => {
    const total = zeroTokens();
    for (const one of all) for (const kind of TOKEN_KINDS) total[kind] += one[kind];
    return total;
  };
  return {
    subagentCopies: [...ctx.subagentCopies].map(([subagentId, copies]) => ({ subagentId, line: copies.line, from: copies.from, to: copies.to, requests: copies.requests.size, counts: sum(copies.requests.values()), models: [...copies.models] })),
  };
}

/** Fields that say where and when a record was written, not what its node says: a copy of a node may differ in them. */
const WRITING_FIELDS: ReadonlySet<string> = new Set([
  'parentUuid',
  'logicalParentUuid',
  'sessionId',
  'version',
  'timestamp',
  'cwd',
  'gitBranch',
  'slug',
  'entrypoint',
  'userType',
  'permissionMode',
  'promptId',
]);

/**
 * Conversation nodes are unique by uuid (formats/claude.md §8.5): a record whose uuid was read
 * before and that says the same again (a resumed conversation written into its own file again)
 * is that node, read once (null). One that says something else under a used uuid is a node of
 * its own: renamed, counted, and the records written after it that name the uuid hang from it.
 */
function asNode(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope): raw.RawEnvelope | null {
  const current = (uuid: string | null | undefined) => (uuid ? (ctx.renamedUuid.get(uuid) ?? uuid) : uuid);
  // Nearly every file reuses no uuid: its records go on as they are.
  const linked = ctx.renamedUuid.size === 0 ? env : { ...env, parentUuid: current(env.parentUuid), logicalParentUuid: current(env.logicalParentUuid) };
  if (!env.uuid) return linked;
  const before = ctx.nodeRecord.get(env.uuid);
  if (before === undefined) {
    ctx.nodeRecord.set(env.uuid, located.record);
    return linked;
  }
  if (nodeText(before) === nodeText(located.record)) return null;
  const renamed = `${env.uuid}~${located.line}${located.piece > 0 ? `.${located.piece}` : ''}`;
  ctx.diagnostics.push(diagnostic('duplicate-id', ctx.file, located.line, `uuid ${JSON.stringify(env.uuid)} already names another entry; kept as ${renamed}`));
  ctx.renamedUuid.set(env.uuid, renamed);
  ctx.nodeRecord.set(renamed, located.record);
  return { ...linked, uuid: renamed };
}

/** What a record says as a node, as text to compare (only when a uuid comes again: rare). */
function nodeText(record: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(record).filter(([field]) => !WRITING_FIELDS.has(field)));
}

/**
 * What a node says, in a few characters, beside its uuid in its key: a copy of a session keeps
 * each node's uuid and message, so it still matches, while unrelated nodes that share a uuid
 * (hand-made and generated files reuse them: "11111111-…-0001" in two sessions) are not taken
 * for a copy and counted in the other session. The response id, else the content's shape: its
 * blocks' call ids, or a text's length and hash. Never the text itself: a key is kept where
 * texts are not (the archive's ledgers, which a shared report carries unredacted as ids are). No
 * whole-record serialisation: this runs for every record.
 */
function nodeMark(record: Record<string, unknown>): string {
  let mark = nodeMarks.get(record);
  if (mark === undefined) {
    mark = markOf(record);
    // Every entry of a line carries its mark: one of thousands of call ids, written out in each of
    // thousands of results on one line, made memory grow with their square (regression: 6,000
    // results on one line of 426 kB took 1.6 GB and failed the run). A long one is its hash.
    if (mark.length > LONGEST_MARK) mark = `#${mark.length}.${sha256Hex(mark).slice(0, 32)}`;
    nodeMarks.set(record, mark);
  }
  return mark;
}

/** Longer than any mark of a line of a few dozen calls' results, which keep theirs as they were. */
const LONGEST_MARK = 4096;

/** Each record's mark, made once however many entries its line makes. */
const nodeMarks = new WeakMap<Record<string, unknown>, string>();

function markOf(record: Record<string, unknown>): string {
  const message = record['message'];
  const type = typeof record['type'] === 'string' ? record['type'] : '';
  if (!isPlainObject(message)) return `${type}:${textMark(record['content'] ?? record['summary'])}`;
  if (typeof message['id'] === 'string') return `${type}:${message['id']}`;
  const content = message['content'];
  if (!Array.isArray(content)) return `${type}:${textMark(content)}`;
  const blocks = content.map((block) => {
    if (!isPlainObject(block)) return '?';
    const id = block['tool_use_id'] ?? block['id'];
    return typeof id === 'string' ? id : typeof block['text'] === 'string' ? textMark(block['text']) : String(block['type']);
  });
  return `${type}:${blocks.join(',')}`;
}

function textMark(text: unknown): string {
  return typeof text === 'string' ? `${text.length}.${sha256Hex(text).slice(0, 16)}` : '';
}

/**
 * Titles are written without a place in the conversation: hung from the file's last entry they
 * extend the conversation as it was left, instead of opening a branch where they were written.
 */
const TAIL = { parent: { tail: true }, linksUuid: false } as const satisfies { parent: Draft['parent']; linksUuid: boolean };

/** A record that becomes no entry still links its children to its own parent. */
function skip(ctx: ClaudeContext, env: raw.RawEnvelope): void {
  if (env.uuid) passUuid(ctx, env.uuid, env.parentUuid ?? null);
}

function addDraft(
  ctx: ClaudeContext,
  located: Located,
  env: raw.RawEnvelope,
  payload: EntryPayload,
  usage: Usage[],
  options: { id?: string; parent?: Draft['parent']; linksUuid?: boolean } = {},
): Draft {
  const suffix = located.piece > 0 ? `.${located.piece}` : '';
  let id = options.id ?? env.uuid ?? `line-${located.line}${suffix}`;
  const named = options.id ?? env.uuid;
  let key = named ? `${named}@${nodeMark(located.record)}` : `nouuid@${String(env.timestamp ?? '')}@${contentHash(located.record)}`;
  if (ctx.entryById.has(id)) {
    const renamed = `${id}~${located.line}${suffix}`;
    ctx.diagnostics.push(diagnostic('duplicate-id', ctx.file, located.line, `id ${JSON.stringify(id)} already used; kept as ${renamed}`));
    id = renamed;
    key = `${key}~${located.line}${suffix}`;
  }
  // Records without a parentUuid field at all (hand-made files) continue from the one before.
  const parent: Draft['parent'] = options.parent ?? ('parentUuid' in located.record ? { uuid: env.parentUuid ?? null } : { id: ctx.previousId });
  const entry = {
    key,
    id,
    parentId: null,
    timestamp: recordTime(env.timestamp, ctx, located.line),
    line: located.line,
    recovered: !located.clean,
    ...payload,
    usage,
  } as Entry;
  const draft: Draft = { entry, parent, sidechain: env.isSidechain === true };
  ctx.drafts.push(draft);
  ctx.entryById.set(id, draft);
  if (env.uuid && options.linksUuid !== false) linkUuid(ctx, env.uuid, id);
  if (!('tail' in parent)) ctx.previousId = id;
  return draft;
}

// ---------------------------------------------------------------------------------------------
// Replies: every content block of a response is its own line, all sharing message.id + requestId.

function addAssistant(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope): void {
  const line = parseRecord(raw.rawAssistantLine, located.record, (d) => ctx.diagnostics.push(d), ctx.file, located.line, 'assistant line');
  if (line === null) return skip(ctx, env);
  const message = line.message;
  const writtenModel = isPlainObject(located.record['message']) ? located.record['message']['model'] : undefined;
  if (writtenModel !== undefined && writtenModel !== null && typeof writtenModel !== 'string') {
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, located.line, 'assistant line: its model is not text (kept the reply and its tokens, the model unknown)'));
  }
  const blocks = blocksOf(message.content, ctx);
  if (message.model === '<synthetic>') return addSynthetic(ctx, located, env, line, blocks);

  // A gateway that writes a request id but no message id (§9.2: every line of a response shares
  // its request id): the request id stands in for the message id, with what tells a message id
  // not unique (§9.3): one response is lines chained to it with its prompt's size, counted once
  // in its session, never merged by the id alone (a gateway's id may be empty, or the same on all).
  const writtenRequest = line.requestId === undefined || line.requestId === null ? null : keyPart(line.requestId);
  const requestOnly = message.id === undefined || message.id === null ? writtenRequest : null;
  const messageId = message.id === undefined || message.id === null ? (requestOnly === null || requestOnly === '' ? null : `request ${requestOnly}`) : keyPart(message.id);
  // A request id that did not read (left out above) is that of the response above of the same
  // message id, whichever line's did not read (regression: a streamed response's second line of a
  // numeric request id started a response of its own, its prompt counted twice).
  const requestUnread = requestOnly === null && located.record['requestId'] !== undefined && located.record['requestId'] !== null && line.requestId === undefined;
  const above = requestUnread || (writtenRequest !== null && ctx.requestsUnread > 0) ? sameMessageAbove(ctx, env, messageId, promptCountsOf(message.usage)) : null;
  const requestId = requestUnread ? (above?.requestId ?? null) : requestOnly === null ? writtenRequest : null;
  if (above !== null && above.requestUnread && requestId !== null && messageId !== null && !ctx.responses.has(`${messageId}\u0000${requestId}`)) {
    above.requestId = requestId;
    above.requestUnread = false;
    ctx.requestsUnread--;
    ctx.responses.set(`${messageId}\u0000${requestId}`, above);
  }
  // Never joined further up by its prompt alone, as a gateway's line of no request id is: it had one.
  const response = requestUnread ? above : responseOf(ctx, env, messageId, requestId, promptCountsOf(message.usage));
  if (response) {
    // A later line of a response already read: its blocks join the reply, its uuid passes through.
    if (env.uuid && response.uuids.has(env.uuid)) return;
    // A line of it written again under a new uuid (a compaction replay, claude.md §6.4): what goes
    // on from it goes on from the reply, whose blocks it does not add again.
    // Its counts are taken as any line's: a replay's are the line's it repeats.
    const said = lineSaid(ctx, env, blocks);
    if (said !== null && response.said.has(said)) {
      if (env.uuid) {
        response.uuids.add(env.uuid);
        linkUuid(ctx, env.uuid, response.draft.entry.id);
        ctx.responseOfUuid.set(env.uuid, response);
      }
      considerLine(response, line, located.line);
      return;
    }
    if (said !== null) response.said.add(said);
    if (env.uuid) {
      response.uuids.add(env.uuid);
      passUuid(ctx, env.uuid, env.parentUuid ?? response.draft.entry.id);
      ctx.responseOfUuid.set(env.uuid, response);
    }
    const reply = response.draft.entry;
    if (reply.kind === 'reply') reply.content.push(...blocks);
    considerLine(response, line, located.line);
    return;
  }
  const draft = addDraft(
    ctx,
    located,
    env,
    { kind: 'reply', content: blocks, outcome: 'ok', stopReason: null, errorMessage: null, provider: providerOf(message.model ?? null), model: message.model ?? null, responseModel: null },
    [],
  );
  if (requestUnread && requestId === null) ctx.requestsUnread++;
  const created: Response = { draft, messageId, requestId, requestUnread: requestUnread && requestId === null, uuids: new Set(env.uuid ? [env.uuid] : []), usageLine: null, usageOutput: -1, usageDamaged: false, usageLineAt: 0, damagedAt: [], promptCounts: null, stopReason: null, sidechain: env.isSidechain === true, session: env.sessionId ?? null, said: new Set([lineSaid(ctx, env, blocks)].filter((said) => said !== null)) };
  considerLine(created, line, located.line);
  ctx.responseOfDraft.set(draft, created);
  if (messageId !== null && requestId !== null) ctx.responses.set(`${messageId}\u0000${requestId}`, created);
  if (env.uuid) ctx.responseOfUuid.set(env.uuid, created);
}

/**
 * A line's parent (as the lines before it resolve), its time and the shape of its blocks (kind,
 * size, call id): a replay repeats them all; the lines a response streams in hang one from the
 * other. Null for a line without a time or blocks, which no replay is told by.
 */
function lineSaid(ctx: ClaudeContext, env: raw.RawEnvelope, blocks: readonly Block[]): string | null {
  if (typeof env.timestamp !== 'string' || env.timestamp === '' || blocks.length === 0) return null;
  const parent = env.parentUuid ? (resolveUuid(ctx, env.parentUuid) ?? env.parentUuid) : '';
  const shapes = blocks.map((block) => {
    switch (block.type) {
      case 'text':
      case 'thinking':
        return `${block.type}:${block.text.length}`;
      case 'toolCall':
        return `call:${block.id}`;
      default:
        return block.type;
    }
  });
  return `${parent}\u0000${env.timestamp}\u0000${shapes.join(',')}`;
}

/**
 * Whose model a response names (pricing.md §3): Bedrock's ids (`us.anthropic.…-v1:0`, an
 * inference profile's ARN) and Vertex's (`…@20250929`) are those clouds', priced as they sell them;
 * any other Anthropic's own. Named as Pi names them, so that one model is one row.
 */
function providerOf(model: string | null): string {
  if (model === null) return 'anthropic';
  if (/^(?:[a-z]{2,6}(?:-[a-z]+)?\.)?anthropic\.claude/.test(model) || /^arn:aws[\w-]*:bedrock:/.test(model)) return 'amazon-bedrock';
  if (/^claude-[\w.-]+@[\w-]+$/.test(model)) return 'google-vertex';
  return 'anthropic';
}

/**
 * An id as a part of the keys joined by NUL (a response's, its usage's claim): as written, unless it
 * holds a NUL or a backslash, which no real id does; then escaped, after a backslash no id as
 * written holds. Two responses of ids `a␀b`+`c` and `a`+`b␀c` were one claim, and one was lost.
 */
function keyPart(id: string): string {
  return /[\0\\]/.test(id) ? `\\${id.replace(/\\/g, '\\\\').replace(/\0/g, '\\0')}` : id;
}

/**
 * The response a line continues: the same message and request ids; without a request id (very
 * old lines, gateways that reuse message ids) only a line that chains directly to the response and
 * gives its prompt the same size where both say (claude.md §9.2, §9.3): a gateway's next answer
 * under the same id follows the last directly too. Or one written after tool results and notes
 * (Claude Code 2.x runs a call while its response streams on) that gives its prompt's counts, not
 * all zero, exactly as the response did: a gateway's next answer under the same id, sent with
 * those results, has a larger prompt. (Not told by a stop reason: Claude Code 2.0 writes the
 * response's on every line of it.)
 */
function responseOf(ctx: ClaudeContext, env: raw.RawEnvelope, messageId: string | null, requestId: string | null, promptCounts: PromptCounts | null): Response | null {
  if (messageId === null) return null;
  if (requestId !== null) return ctx.responses.get(`${messageId}\u0000${requestId}`) ?? null;
  const parent = env.parentUuid ? ctx.responseOfUuid.get(env.parentUuid) : undefined;
  if (parent) {
    if (parent.requestId !== null || parent.messageId !== messageId) return null;
    return promptCounts !== null && parent.promptCounts !== null && otherPrompt(promptCounts, parent.promptCounts) ? null : parent;
  }
  const above = responseAbove(ctx, env.parentUuid);
  if (!above || above.requestId !== null || above.messageId !== messageId || promptCounts === null || above.promptCounts === null) return null;
  return samePrompt(promptCounts, above.promptCounts) ? above : null;
}

/**
 * The response of `messageId` this line continues: its parent's, unless their prompts differ; else
 * the nearest above it through the lines Claude Code writes between a response's lines (progress,
 * attachments, its tools' results), with the same prompt, given and not all zero; never past an
 * API error (a retry of the same prompt follows one: another request) or a typed prompt. A message
 * id is not unique (§9.3: a gateway's). Regressions: two requests, a tool result or a failed
 * attempt between them, counted as one; joined by its parent alone, a line below a progress line
 * counted twice; two requests of a gateway that gives no prompt counts joined across a tool result.
 */
function sameMessageAbove(ctx: ClaudeContext, env: raw.RawEnvelope, messageId: string | null, promptCounts: PromptCounts | null): Response | null {
  if (messageId === null) return null;
  const parent = env.parentUuid ? ctx.responseOfUuid.get(env.parentUuid) : undefined;
  if (parent !== undefined) return parent.messageId === messageId && !(promptCounts !== null && parent.promptCounts !== null && otherPrompt(promptCounts, parent.promptCounts)) ? parent : null;
  const above = responseAbove(ctx, env.parentUuid, isApiError);
  return above !== null && above.messageId === messageId && promptCounts !== null && above.promptCounts !== null && samePrompt(promptCounts, above.promptCounts) ? above : null;
}

/** A line of an API error, which ends a request: Claude Code's own (`<synthetic>`), or so marked. */
function isApiError(record: Record<string, unknown>): boolean {
  return record['isApiErrorMessage'] === true || (isPlainObject(record['message']) && record['message']['model'] === '<synthetic>');
}

/** Lines between a response's lines are few: a longer way up is not one response's. */
const MOST_LINES_BETWEEN = 64;

/** The nearest response above a line, through tool results and notes; none past a prompt typed, or a line `stop` names. */
function responseAbove(ctx: ClaudeContext, uuid: string | null | undefined, stop: (record: Record<string, unknown>) => boolean = () => false): Response | null {
  for (let steps = 0; uuid && steps < MOST_LINES_BETWEEN; steps++) {
    const response = ctx.responseOfUuid.get(uuid);
    if (response) return response;
    const record = ctx.nodeRecord.get(uuid);
    if (record === undefined || isTypedPrompt(record) || stop(record)) return null;
    const parent = record['parentUuid'];
    uuid = typeof parent === 'string' ? parent : null;
  }
  return null;
}

/** A user line of words, not only tool results: a new request starts there. */
function isTypedPrompt(record: Record<string, unknown>): boolean {
  if (record['type'] !== 'user') return false;
  const content = isPlainObject(record['message']) ? record['message']['content'] : undefined;
  return !Array.isArray(content) || content.some((block) => !(isPlainObject(block) && block['type'] === 'tool_result'));
}

/** A usage object's input and cache counts, those it gives; null when it gives none. */
type PromptCounts = Partial<Record<'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens', number>>;

function promptCountsOf(usage: unknown): PromptCounts | null {
  if (!isPlainObject(usage)) return null;
  const counts: PromptCounts = {};
  for (const field of ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const n = usage[field];
    if (typeof n === 'number') counts[field] = n;
  }
  return Object.keys(counts).length > 0 ? counts : null;
}

/** Two prompts' counts differ in a count both give (one a line left out is no difference). */
function otherPrompt(a: PromptCounts, b: PromptCounts): boolean {
  return (Object.keys(a) as (keyof PromptCounts)[]).some((field) => b[field] !== undefined && a[field] !== b[field]);
}

/** Two prompts give the same counts, every one, and not all zero (as a gateway may write every prompt). */
function samePrompt(a: PromptCounts, b: PromptCounts): boolean {
  const fields = Object.keys(a) as (keyof PromptCounts)[];
  return fields.length === Object.keys(b).length && fields.every((field) => a[field] === b[field]) && fields.some((field) => (a[field] ?? 0) > 0);
}

function considerLine(response: Response, line: raw.RawAssistantLine, at: number): void {
  // The line with the most output is the response's fullest, whatever else of it is damaged (a
  // count written as text is left out of its sums, and said). One whose output no agent could mean
  // (negative, a fraction, past any response, not a number) still gives its other counts when no
  // line gives better: it ranks above none (-1) and below every real count (regressions: output
  // -5 lost the whole response; 2e9 or 600.5 outranked a good 500).
  const written = isPlainObject(line.message.usage) ? (line.message.usage['output_tokens'] ?? 0) : null;
  const output = typeof written === 'number' && countProblem(written) === null ? written : -0.5;
  const hasUsage = line.message.usage !== undefined && line.message.usage !== null;
  // Of lines giving the same output (Claude Code writes a response's usage on each), a later one
  // replaces an earlier only when it is no more damaged (regression: a count written as text on
  // the last line lost what the line before gave whole).
  const damaged = !raw.rawUsage.safeParse(line.message.usage).success || (isPlainObject(line.message.usage) && Object.values(line.message.usage).some((v) => typeof v === 'number' && countProblem(v) !== null));
  if (hasUsage && damaged) response.damagedAt.push(at);
  if (hasUsage && (output > response.usageOutput || (output === response.usageOutput && (!damaged || response.usageDamaged)))) {
    response.usageLine = line;
    response.usageOutput = output;
    response.usageDamaged = damaged;
    response.usageLineAt = at;
  }
  // A line that records only its cost (Claude Code before 1.0.9 wrote costUSD beside usage): its
  // cost counts, unless a line of the response gives usage.
  if (!hasUsage && response.usageLine === null && line.costUSD !== undefined && line.costUSD !== null) response.usageLine = line;
  response.promptCounts ??= promptCountsOf(line.message.usage);
  if (line.message.stop_reason) response.stopReason = line.message.stop_reason;
  const reply = response.draft.entry;
  if (reply.kind !== 'reply') return;
  if (line.isApiErrorMessage === true || (line.error !== undefined && line.error !== null)) {
    reply.outcome = 'error';
    reply.errorMessage = textOf(reply.content) || (typeof line.error === 'string' ? line.error : 'API error');
  }
}

/** Once every line is read: each response's usage (its fullest line), stop reason and outcome. */
function finishResponses(ctx: ClaudeContext): void {
  for (const response of ctx.responseOfDraft.values()) {
    const { draft } = response;
    const reply = draft.entry;
    if (reply.kind !== 'reply') continue;
    reply.stopReason = response.stopReason;
    if (reply.outcome === 'ok') reply.outcome = replyOutcome(response.stopReason);
    // A summary in a later file names the leaf it ends at: often a response's last line, merged here.
    const aliases = [...response.uuids].filter((uuid) => uuid !== reply.id);
    if (aliases.length > 0) reply.aliases = aliases;
    const usage = usageOf(ctx, response, draft);
    reply.usage = usage === null ? [] : [usage];
    // A damaged line passed over for a better one of the same response: its counts are in no sum, said.
    for (const at of response.damagedAt) {
      if (at === response.usageLineAt) continue;
      ctx.diagnostics.push(diagnostic('absurd-number', ctx.file, at, 'usage counts no agent could mean on a line of a streamed response, passed over for another line of it'));
    }
    // A fallback mid-stream puts another model on a later line (claude.md §9.2): the reply says
    // it went from the first to the one its kept line, and so its price, names.
    const kept = response.usageLine?.message.model ?? null;
    if (kept !== null && kept !== '<synthetic>' && reply.model !== null && kept !== reply.model) reply.responseModel = kept;
  }
}

/**
 * Whether the file's running totals start with it: it holds no line of another session (a copy's
 * lines, whose totals hold its origin's), none copied from one (2.1.3xx's `--fork-session` names
 * the session that made a request it copied, `requestSessionId`).
 */
function ownFromStart(records: readonly Located[], facts: FileFacts): boolean {
  if (facts.parentSessionId !== null) return false;
  for (const { record } of records) {
    const sessionId = record['sessionId'];
    if (typeof sessionId === 'string' && sessionId !== '' && sessionId !== facts.sessionId) return false;
    const madeBy = record['requestSessionId'];
    if (typeof madeBy === 'string' && madeBy !== facts.sessionId) return false;
  }
  return true;
}

/**
 * The running totals that read, each with the latest time written before it and the first after
 * it (a later process's: what it holds was spent before then); the first a baseline where they do
 * not start with the file (`fromStart` false: a copy's hold its origin's).
 */
function runningTotals(states: readonly CostState[], records: readonly Located[], fromStart: boolean): RunningTotals[] {
  const times = records.map(({ record }) => parseTime(record['timestamp']));
  const found: RunningTotals[] = [];
  let latest: number | null = null;
  let next = 0;
  for (const state of states) {
    for (; next < records.length && (records[next] as Located).line < state.line; next++) {
      const time = times[next] as number | null;
      if (time !== null && (latest === null || time > latest)) latest = time;
    }
    if (state.models === null || latest === null) continue;
    let until: number | null = null;
    for (let after = next; after < records.length && until === null; after++) if ((records[after] as Located).line > state.line) until = times[after] as number | null;
    found.push({
      time: latest,
      until,
      ...(found.length === 0 && !fromStart ? { baseline: true as const } : {}),
      models: state.models,
    });
  }
  return found;
}

function usageOf(ctx: ClaudeContext, response: Response, draft: Draft): Usage | null {
  const line = response.usageLine;
  if (line === null) return null;
  const parsed = raw.rawUsage.safeParse(line.message.usage ?? {});
  let u: raw.RawUsage;
  let countsLeftOut = false;
  if (parsed.success) u = parsed.data;
  else if (isPlainObject(line.message.usage)) {
    // A count written as text ("1000") or an object: the counts that read are kept, and the
    // record is priced in part, rather than all its tokens dropped without a word in the totals.
    ctx.diagnostics.push(invalidRecord(ctx.file, draft.entry.line, 'usage (kept the counts that read, the others left out)', parsed.error, false));
    // Infinity (1e400 in the file) is a number to JSON but no count: left out as text is.
    const readable = Object.entries(line.message.usage).filter(([field, value]) => !COUNT_FIELDS.has(field) || value === null || Number.isFinite(value));
    countsLeftOut = readable.length < Object.keys(line.message.usage).length;
    const withSplit = raw.rawUsage.safeParse(Object.fromEntries(readable));
    const retried = withSplit.success ? withSplit : raw.rawUsage.safeParse(Object.fromEntries(readable.filter(([field]) => field !== 'cache_creation')));
    if (!retried.success) return null;
    if (!withSplit.success) countsLeftOut = true;
    u = retried.data;
  } else {
    ctx.diagnostics.push(invalidRecord(ctx.file, draft.entry.line, 'usage (kept the reply without it)', parsed.error, false));
    return null;
  }
  const recordedCost = recordedCostOf(ctx, line.costUSD, draft.entry.line);
  // A usage object without a single count records no usage; with only a cost, usage whose cost
  // by the table is unknown (priced in part with no part known, never $0).
  const counted = [u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens, u.cache_creation?.ephemeral_5m_input_tokens, u.cache_creation?.ephemeral_1h_input_tokens].some((n) => typeof n === 'number');
  if (!counted && recordedCost === null && !countsLeftOut) return null;
  const webSearches = webSearchesOf(u.server_tool_use);
  if (webSearches === null) {
    // Billed per search: a count that does not read leaves the record's cost known in part.
    countsLeftOut = true;
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, draft.entry.line, `usage: server_tool_use.web_search_requests is not a count (kept the tokens, the searches left out)`, false));
  }
  const model = line.message.model ?? null;
  const { messageId, requestId } = response;
  // Without a request id the message id is not unique across sessions (gateways reuse it): with
  // the session its line says it is of and its time (§9.3). A resumed copy that keeps its origin's
  // session id on the lines it copied counts them once, with its origin; one that rewrites it is
  // told by its history, and its claims held under its origin's id (claims.ts).
  const scope = `${response.session ?? ctx.sessionId}\u0000${messageId}\u0000${draft.entry.timestamp ?? ''}`;
  const claim = messageId === null ? null : requestId !== null ? `${messageId}\u0000${requestId}` : scope;
  return {
    origin: ctx.subagentFile || response.sidechain ? 'subagent' : 'reply',
    input: u.input_tokens ?? 0,
    output: u.output_tokens ?? 0,
    cacheRead: u.cache_read_input_tokens ?? 0,
    ...cacheWrites(ctx, u, draft.entry.line, zeroedCopy(line, u)),
    reasoning: 0,
    provider: providerOf(model),
    model,
    requestedModel: model,
    responseModel: null,
    recordedCost,
    recordedCostFromProvider: false,
    modelGuessed: false,
    // The time of the line it keeps, whole (formats/claude.md §9.2): a response streamed across
    // midnight counts on the day it finished, as ccusage dates it.
    timestamp: parseTime(line['timestamp']) ?? draft.entry.timestamp,
    claim,
    // Only a response's last line (with a stop reason) carries the final output count.
    outputPartial: response.stopReason === null,
    // What a sub-agent's replay of a main thread's response shares with it: the API's message id,
    // one response's wherever it is copied (a resumed copy rewrites the session id on the lines it
    // copies, and its main thread holds the response too when the origin's file is gone). A
    // gateway that writes no request id may write one message id for every response (§9.3): there
    // scoped by its session and time.
    responseId: messageId === null ? null : requestId !== null ? messageId : `${ctx.sessionId}\u0000${messageId}\u0000${draft.entry.timestamp ?? ''}`,
    fast: u.speed === 'fast',
    webSearches: webSearches ?? 0,
    ...(!counted ? { countsUnknown: true as const } : countsLeftOut ? { countsLeftOut: true as const } : {}),
    ...(u.inference_geo === 'us' ? { usOnly: true as const } : {}),
  };
}

/** The token counts of a usage object. */
/** The cost Claude Code stored (before 1.0.9); one that is not a number is reported and left out, the tokens kept. */
function recordedCostOf(ctx: ClaudeContext, costUSD: unknown, line: number): number | null {
  if (costUSD === undefined || costUSD === null) return null;
  if (typeof costUSD === 'number') return costUSD;
  ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, line, `recorded cost (costUSD) is ${typeof costUSD === 'string' ? 'text' : Array.isArray(costUSD) ? 'an array' : `a ${typeof costUSD}`}, not a number: left out, the reply's tokens kept`));
  return null;
}

const COUNT_FIELDS = new Set(['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']);

/** `server_tool_use.web_search_requests`, when it is a count; web fetches cost only their tokens. */
/** Web searches billed with a response: 0 when none are said; null when said in a way that does not read as a count. */
function webSearchesOf(serverToolUse: unknown): number | null {
  if (serverToolUse === undefined || serverToolUse === null) return 0;
  if (!isPlainObject(serverToolUse)) return null;
  const searches = serverToolUse['web_search_requests'];
  if (searches === undefined || searches === null) return 0;
  return Number.isSafeInteger(searches) && (searches as number) >= 0 && (searches as number) <= MAX_SEARCHES_PER_RESPONSE ? (searches as number) : null;
}

/** More than any response makes (Anthropic caps a request's searches far lower): a number no agent could mean. */
const MAX_SEARCHES_PER_RESPONSE = 10_000;

/**
 * Cache writes and the part of them kept an hour. The split by TTL adds up to the total when both
 * are written (formats/claude.md §9.1): a missing total is the split's sum; a total the split
 * disagrees with is kept, counted, and the hour part never exceeds it.
 */
function cacheWrites(ctx: ClaudeContext, u: raw.RawUsage, line: number, zeroed: boolean): { cacheWrite: number; cacheWrite1h: number } {
  const total = u.cache_creation_input_tokens ?? null;
  const split = u.cache_creation ?? null;
  const hour = split?.ephemeral_1h_input_tokens ?? 0;
  if (split === null) return { cacheWrite: total ?? 0, cacheWrite1h: 0 };
  const sum = (split.ephemeral_5m_input_tokens ?? 0) + hour;
  if (total === null) return { cacheWrite: sum, cacheWrite1h: hour };
  if (sum !== total && !zeroed) {
    ctx.diagnostics.push(
      diagnostic('inconsistent-usage', ctx.file, line, `cache writes by TTL add up to ${sum}, the total says ${total}: the total kept${hour > total ? `, its 1-hour part cut to it` : ''}`),
    );
  }
  return { cacheWrite: total, cacheWrite1h: Math.min(hour, total) };
}

/**
 * A response copied into another session whose counts its writer set to 0 (2.1.3xx's
 * `--fork-session` marks the line with the session that made the request, `requestSessionId`),
 * leaving the split of cache writes by TTL as it was: a copy, not a count written wrong.
 */
function zeroedCopy(line: Record<string, unknown>, u: raw.RawUsage): boolean {
  const madeBy = line['requestSessionId'];
  const copied = typeof madeBy === 'string' && madeBy !== line['sessionId'];
  return copied && !u.input_tokens && !u.output_tokens && !u.cache_read_input_tokens && !u.cache_creation_input_tokens;
}

/** The usage-limit notice's reset time, written as Unix seconds after a bar (claude.md §9.4). */
const USAGE_LIMIT_RESET = /(Claude AI usage limit reached)\|(\d{9,10})\b/g;

/**
 * Typed words and the context the IDE or a hook attached to them (a selection, a reminder): shown
 * apart, in its own blocks or in the typed words' (regression: a reminder after them titled the
 * session): the prompt is what was typed. `queued`: typed while the agent worked, and given to it
 * between two of its steps.
 */
function addPrompt(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope, blocks: Block[], queued: boolean): void {
  const attached: Block[] = [];
  const typed: Block[] = [];
  for (const block of blocks) {
    const { injected, typed: words } = block.type === 'text' ? injectedApart(block.text) : { injected: '', typed: '' };
    if (block.type !== 'text' || injected === '') typed.push(block);
    else {
      attached.push({ ...block, text: injected });
      if (words !== '') typed.push({ ...block, text: words });
    }
  }
  const prompt = (content: Block[]) => ({ kind: 'prompt' as const, content, skill: null, ...(queued ? { queued: true as const } : {}) });
  if (attached.length === 0) {
    addDraft(ctx, located, env, prompt(blocks), []);
    return;
  }
  const context = addDraft(
    ctx,
    located,
    env,
    { kind: 'notice', label: 'injected context', tone: 'info', summary: noticeSummary(textOf(attached)), content: attached, injected: true },
    [],
    { id: `${env.uuid ?? `line-${located.line}`}#attached`, linksUuid: false },
  );
  addDraft(ctx, located, env, prompt(typed), [], { parent: { id: context.entry.id } });
}

/**
 * A message typed while the agent worked and given to it between two of its steps (claude.md §4:
 * "steering"): Claude Code writes its words only in a `queued_command` attachment, the queue's own
 * records holding them before they are sent, or never. A prompt of the user's; a notice for a
 * background task's notice of its end, or a message another session or the harness sent. False
 * for any other attachment (the harness's bookkeeping), which is skipped.
 */
function addQueuedCommand(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope): boolean {
  const parsed = raw.rawQueuedCommand.safeParse(located.record['attachment']);
  if (!parsed.success) return false;
  const blocks = blocksOf(parsed.data.prompt, ctx);
  const text = textOf(blocks);
  const pictures = blocks.some((b) => b.type === 'image');
  // Spaces alone are no words typed, as on a user line.
  if (text.trim() === '' && !pictures) return false;
  const mode = parsed.data.commandMode ?? 'prompt';
  const sender = parsed.data.origin?.kind ?? 'human';
  const meta = parsed.data.isMeta === true || env.isMeta === true;
  // Told as a user line's words are (a background task's notice written without its mode is one).
  const kind = classifyUserText(injectedApart(text).typed || text, meta, pictures);
  const fromUser = mode === 'prompt' && sender === 'human';
  if (fromUser && kind.kind === 'prompt') addPrompt(ctx, located, env, blocks, true);
  else if (fromUser && kind.kind === 'notice') {
    addDraft(ctx, located, env, { kind: 'notice', label: kind.label, tone: kind.tone, summary: noticeSummary(text), content: blocks, ...(kind.injected ? { injected: true } : {}) }, []);
  } else {
    // Another session's message, or one the harness sent, is no prompt of the user's.
    const label = mode === 'task-notification' ? 'task notification' : fromUser ? 'queued message' : mode === 'prompt' ? `message from ${sender}` : `queued ${mode}`;
    addDraft(ctx, located, env, { kind: 'notice', label, tone: 'info', summary: noticeSummary(text), content: blocks }, []);
  }
  return true;
}

/** Where `--max-turns` stopped the agent part-way through its work: said, or the page ends on a tool's result without a word. */
function addTurnLimit(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope): boolean {
  const parsed = raw.rawMaxTurns.safeParse(located.record['attachment']);
  if (!parsed.success) return false;
  const limit = parsed.data.maxTurns;
  const text = `Stopped at the turn limit${limit === null || limit === undefined ? '' : ` (--max-turns ${limit})`}: the agent's work was cut short here.`;
  addDraft(ctx, located, env, { kind: 'notice', label: 'turn limit reached', tone: 'warn', summary: text, content: [{ type: 'text', text }] }, []);
  return true;
}

/** "Claude AI usage limit reached|1764590400" as a reader says it: "… (resets 2025-12-01 12:00 UTC)". */
function withReadableReset(text: string): string {
  return text.replace(USAGE_LIMIT_RESET, (whole, said: string, seconds: string) => {
    const at = new Date(Number(seconds) * 1000);
    return Number.isNaN(at.getTime()) ? whole : `${said} (resets ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC)`;
  });
}

/** Claude Code's own lines dressed as replies: API errors become failed replies, the rest notices. No usage. */
function addSynthetic(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope, line: raw.RawAssistantLine, written: Block[]): void {
  const blocks = written.map((block) => (block.type === 'text' ? { ...block, text: withReadableReset(block.text) } : block));
  const text = textOf(blocks);
  if (line.isApiErrorMessage === true || (line.error !== undefined && line.error !== null) || /^API Error/.test(text)) {
    // The request the user stopped (Esc) is written as an API error: aborted, as Pi's and Codex's are.
    const outcome = /^API Error: Request was aborted\b/.test(text) ? 'aborted' : 'error';
    addDraft(ctx, located, env, { kind: 'reply', content: blocks, outcome, stopReason: line.message.stop_reason ?? null, errorMessage: text || 'API error', provider: null, model: null, responseModel: null }, []);
    return;
  }
  addDraft(ctx, located, env, { kind: 'notice', label: 'agent notice', tone: 'info', summary: noticeSummary(text), content: blocks }, []);
}

function replyOutcome(stopReason: string | null): ReplyOutcome {
  return stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded' ? 'length' : 'ok';
}

// ---------------------------------------------------------------------------------------------
// User lines: prompts, tool results, and everything else the agent writes as a user line.

function addUser(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope): void {
  const parsed = raw.rawUserLine.safeParse(located.record);
  if (!parsed.success) {
    ctx.diagnostics.push(invalidRecord(ctx.file, located.line, 'user line', parsed.error));
    return skip(ctx, env);
  }
  const content = parsed.data.message.content;
  if (env.isCompactSummary === true) return addCompactSummary(ctx, located, env, blocksOf(content, ctx));
  const results = Array.isArray(content) && content.some((b) => isPlainObject(b) && b['type'] === 'tool_result');
  // A compaction replay (claude.md §6.4): a user line written again under a new uuid, with its
  // parent (as the lines before it resolve), its time and content: no turn of its own (it was
  // counted and drawn twice, a branch); what goes on from it goes on from the first. Only a line
  // with a time: one without cannot be told from the same words sent again.
  if (env.uuid && typeof env.timestamp === 'string' && env.timestamp !== '') {
    // Tool results by the calls they answer (unique to a call): no hash of their output.
    const what = results ? `results ${(content as unknown[]).map((b) => (isPlainObject(b) ? String(b['tool_use_id']) : '')).join(' ')}` : contentHash(content);
    const parent = env.parentUuid ? (resolveUuid(ctx, env.parentUuid) ?? env.parentUuid) : '';
    const said = `${parent}\u0000${env.timestamp}\u0000${what}`;
    const first = ctx.userLines.get(said);
    if (first !== undefined && first !== env.uuid) return passUuid(ctx, env.uuid, first);
    ctx.userLines.set(said, env.uuid);
    // A replay repeats lines written shortly before it: the oldest are let go, so that a file of
    // millions of lines holds no key for each.
    if (ctx.userLines.size > RECENT_USER_LINES) ctx.userLines.delete(ctx.userLines.keys().next().value as string);
  }
  if (results) return addToolResults(ctx, located, env, content as unknown[], parsed.data.toolUseResult);
  // A user line that says nothing (no content, or empty): nothing to show, said; its children still hang from its place.
  if (content === null || content === undefined || content === '' || (Array.isArray(content) && content.length === 0)) {
    ctx.diagnostics.push(diagnostic('invalid-record', ctx.file, located.line, `user line without content (${content === '' ? 'empty text' : Array.isArray(content) ? 'no blocks' : 'none'}): nothing to show, passed over`));
    return skip(ctx, env);
  }
  const blocks = blocksOf(content, ctx);
  const text = textOf(blocks);
  // Told by the words typed: a reminder before or after an interrupt or a command echo leaves it one.
  const typedText = injectedApart(text).typed;
  // 2.1.3xx says which lines the user typed: a prompt, whatever its words look like (a log pasted
  // that starts with `<command-name>` or `<task-notification>`); so does `claude -p` or the SDK of
  // what it sent (`sdk`), save a background task's notice, which says its origin. Without the
  // mark, told by them.
  const fromUser = (env.origin?.kind ?? 'human') === 'human';
  const typedByUser = (env.promptSource === 'typed' || env.promptSource === 'queued' || (env.promptSource === 'sdk' && fromUser)) && env.isMeta !== true;
  const kind: UserText = typedByUser ? { kind: 'prompt' } : classifyUserText(typedText === '' ? text : typedText, env.isMeta === true, blocks.some((b) => b.type === 'image'));
  const parentDraft = env.parentUuid ? draftOf(ctx, resolveUuid(ctx, env.parentUuid)) : null;
  switch (kind.kind) {
    case 'prompt':
      return addPrompt(ctx, located, env, blocks, false);
    case 'command': {
      const draft = addDraft(ctx, located, env, { kind: 'notice', label: `command /${kind.name}`, tone: 'info', summary: firstLine(kind.args), content: blocks }, []);
      ctx.commands.set(draft.entry.id, { name: kind.name, args: kind.args });
      return;
    }
    case 'skill-body': {
      const command = parentDraft ? ctx.commands.get(parentDraft.entry.id) : undefined;
      if (parentDraft && command) return expandCommand(ctx, parentDraft, command, env, { location: kind.location, body: kind.body });
      addDraft(ctx, located, env, { kind: 'notice', label: `skill ${kind.name}`, tone: 'info', summary: kind.location, content: blocks }, []);
      return;
    }
    case 'bash-input':
      addDraft(ctx, located, env, { kind: 'shell', command: kind.command, output: '', exitCode: null, exitCodeRecorded: false, cancelled: false, truncated: false, excludedFromContext: false }, []);
      return;
    case 'bash-output': {
      const shell = parentDraft?.entry;
      if (shell?.kind === 'shell' && shell.output === '') {
        shell.output = [kind.stdout, kind.stderr].filter((s) => s !== '').join('\n');
        if (env.uuid) linkUuid(ctx, env.uuid, shell.id);
        return;
      }
      addDraft(ctx, located, env, { kind: 'notice', label: 'shell output', tone: 'info', summary: noticeSummary(text), content: blocks, output: true }, []);
      return;
    }
    case 'notice': {
      // A prompt-type command's expansion (isMeta, right after the echo) is the turn the command started.
      const command = parentDraft ? ctx.commands.get(parentDraft.entry.id) : undefined;
      if (parentDraft && command && env.isMeta === true && kind.label === 'injected context') {
        return expandCommand(ctx, parentDraft, command, env, { location: null, body: text });
      }
      addDraft(
        ctx,
        located,
        env,
        { kind: 'notice', label: kind.label, tone: kind.tone, summary: noticeSummary(text), content: blocks, ...(kind.output ? { output: true } : {}), ...(kind.injected ? { injected: true } : {}) },
        [],
      );
      return;
    }
  }
}

/** A command the user typed whose expansion was sent to the model: one prompt, the expansion folded in it. */
function expandCommand(
  ctx: ClaudeContext,
  echo: Draft,
  command: { name: string; args: string },
  env: raw.RawEnvelope,
  expansion: { location: string | null; body: string },
): void {
  const { key, id, parentId, timestamp, line, recovered } = echo.entry;
  echo.entry = {
    key,
    id,
    parentId,
    timestamp,
    line,
    recovered,
    usage: [],
    kind: 'prompt',
    content: command.args === '' ? [] : [{ type: 'text', text: command.args }],
    // A skill's expansion says where the skill is (claude.md §7); a custom command's is its text only.
    skill: { ...(expansion.location === null ? { kind: 'command' as const } : {}), name: command.name, command: `/${command.name}`, location: expansion.location, body: expansion.body },
  };
  ctx.commands.delete(id);
  if (env.uuid) linkUuid(ctx, env.uuid, id);
}

/** The lines a result changed; of the file it names itself where its call is not there to (see resultFile). */
function changeOf(diff: ToolDiff, file: string | null): { added: number; removed: number; files?: FileChange[] } {
  const lines = diffLines(diff);
  return file === null ? lines : { ...lines, files: [{ path: file, ...lines }] };
}

function addToolResults(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope, content: unknown[], toolUseResult: unknown): void {
  const results = content.filter((b) => isPlainObject(b) && b['type'] === 'tool_result');
  const others = content.filter((b) => !(isPlainObject(b) && b['type'] === 'tool_result'));
  let previous: string | null = null;
  results.forEach((value, index) => {
    // A field out of shape (an is_error of "yes", a numeric tool_use_id) is left out and said, the
    // result kept (regression: its whole output was left out). No field it needs can fail.
    const data = parseRecord(raw.rawToolResultBlock, value, (d) => ctx.diagnostics.push(d), ctx.file, located.line, 'tool result', true);
    if (data === null) return;
    const id = results.length > 1 && env.uuid ? `${env.uuid}#${index}` : undefined;
    const callId = data.tool_use_id ?? null;
    const call = callId === null ? undefined : ctx.calls.get(callId);
    const toolName = call?.name ?? null;
    const isError = data.is_error === true;
    const blocks = blocksOf(data.content, ctx);
    // `toolUseResult` describes the line's one result; with several it cannot be told apart.
    const structured = results.length === 1 ? toolUseResult : undefined;
    const started = isPlainObject(structured) && typeof structured['agentId'] === 'string' ? structured['agentId'] : toolName !== null && SPAWNING_TOOLS.has(toolName) ? agentIdInText(textOf(blocks)) : null;
    if (callId !== null && started !== null) ctx.startedSubagents.set(callId, started);
    const diff = isError ? null : toolDiff(toolName, call?.arguments, structured);
    const draft: Draft = addDraft(
      ctx,
      located,
      env,
      {
        kind: 'toolResult',
        toolCallId: callId,
        toolName,
        content: blocks,
        isError,
        subagents: [],
        diff,
        change: diff === null ? null : changeOf(diff, call === undefined ? resultFile(structured, ctx.cwd) : null),
        commits: toolCommits(toolName, call?.effect.command ?? null, textOf(blocks), isError),
        nestedCalls: [],
        ...savedOutputOf(blocks, structured, toolName, ctx.sessionId),
      },
      [],
      { id, ...(previous === null ? {} : { parent: { id: previous } }) },
    );
    previous = draft.entry.id;
  });
  if (others.length > 0) {
    const blocks = blocksOf(others, ctx);
    const extra = addDraft(ctx, located, env, { kind: 'notice', label: 'injected context', tone: 'info', summary: noticeSummary(textOf(blocks)), content: blocks, injected: true }, [], {
      id: `${env.uuid ?? `line-${located.line}`}#context`,
      parent: previous === null ? undefined : { id: previous },
    });
    previous = extra.entry.id;
  }
  if (previous === null) return skip(ctx, env);
  if (env.uuid) linkUuid(ctx, env.uuid, previous);
}

/**
 * An output too large for the transcript: Claude Code keeps its first 2 kB there and the whole
 * in a file of the session's `tool-results` folder, named in the text, and for a shell command
 * in `toolUseResult` too (`persistedOutputPath`). An output that merely starts so (a file that
 * holds such a text, printed) is none: a shell command's record names no such file, and another
 * tool's text is not in the exact shape Claude Code writes, naming this session's folder.
 */
function savedOutputOf(blocks: readonly Block[], structured: unknown, toolName: string | null, sessionId: string): { savedOutput?: string } {
  const first = blocks[0];
  if (first?.type !== 'text' || !first.text.startsWith('<persisted-output>')) return {};
  let recorded: string | undefined;
  if (isPlainObject(structured) && typeof structured['persistedOutputPath'] === 'string') recorded = structured['persistedOutputPath'];
  else if (!(isPlainObject(structured) && toolName !== null && SHELL_TOOLS.has(toolName))) {
    const said = /^<persisted-output>\nOutput too large \([^)\n]{1,40}\)\. Full output saved to: ([^\n]+)\n\nPreview /.exec(first.text)?.[1];
    if (said !== undefined && said.replace(/\\/g, '/').includes(`/${sessionId}/tool-results/`)) recorded = said;
  }
  const name = recorded?.trim().split(/[\\/]/).at(-1);
  return name ? { savedOutput: name } : {};
}

/** The tools whose record names a saved output itself: a result of theirs whose record names none was not saved. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(['Bash', 'PowerShell']);

function addCompactSummary(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope, blocks: Block[]): void {
  const summary = textOf(blocks);
  const boundary = env.parentUuid ? draftOf(ctx, resolveUuid(ctx, env.parentUuid))?.entry : undefined;
  if (boundary?.kind === 'compaction' && boundary.summary === '') {
    // The summary belongs to its boundary: shown there, once.
    boundary.summary = summary;
    if (env.uuid) linkUuid(ctx, env.uuid, boundary.id);
    return;
  }
  addDraft(ctx, located, env, { kind: 'compaction', summary, tokensBefore: null, firstKeptEntryId: null }, []);
}

// ---------------------------------------------------------------------------------------------
// System lines.

function addSystem(ctx: ClaudeContext, located: Located, env: raw.RawEnvelope): void {
  const parsed = raw.rawSystemLine.safeParse(located.record);
  if (!parsed.success) {
    ctx.diagnostics.push(invalidRecord(ctx.file, located.line, 'system line', parsed.error));
    return skip(ctx, env);
  }
  const system = parsed.data;
  const text = typeof system.content === 'string' ? system.content : textOf(blocksOf(system.content, ctx));
  switch (system.subtype) {
    case 'compact_boundary':
      // A new root on disk; its logical parent (when still in the file) keeps the conversation
      // whole, else the entry before it in the file: a logical parent that is nowhere (§3) made
      // all before the compaction a branch of its own.
      addDraft(ctx, located, env, { kind: 'compaction', summary: '', tokensBefore: system.compactMetadata?.preTokens ?? null, firstKeptEntryId: null }, [], {
        parent: { uuid: env.logicalParentUuid ?? env.parentUuid ?? null, nullWhenDangling: true, otherwise: ctx.previousId },
      });
      return;
    case 'turn_duration': {
      // How long the turn took, as claude.md says: a small notice, not a part of the conversation.
      const said = turnTimeText(located.record['durationMs'], located.record['messageCount']);
      if (said === null) return skip(ctx, env);
      addDraft(ctx, located, env, { kind: 'notice', label: 'turn time', tone: 'info', summary: said, content: [{ type: 'text', text: said }] }, []);
      return;
    }
    case 'stop_hook_summary': {
      // Hook bookkeeping, unless a hook failed: that a reader wants to know. What it says is what
      // the hook's command printed: output, left out with the tools' (--omit tool-output).
      const errors = Array.isArray(located.record['hookErrors']) ? located.record['hookErrors'].filter((e): e is string => typeof e === 'string' && e.trim() !== '') : [];
      if (errors.length === 0) return skip(ctx, env);
      const said = errors.join('\n');
      addDraft(ctx, located, env, { kind: 'notice', label: 'hook error', tone: 'warn', summary: noticeSummary(said), content: [{ type: 'text', text: said }], output: true }, []);
      return;
    }
    case 'api_error': {
      // A request Claude Code retries (2.x, an overloaded API): the error and the attempt, which
      // the line gives in fields of its own, not as content.
      const said = [text, apiErrorText(located.record)].filter((part) => part !== '').join('\n');
      addDraft(ctx, located, env, { kind: 'notice', label: 'api error', tone: 'warn', summary: noticeSummary(said), content: said === '' ? [] : [{ type: 'text', text: said }] }, []);
      return;
    }
    default: {
      // A local command's line names the command (`<command-name>/mcp</command-name>`); the next holds its output.
      const command = system.subtype === 'local_command' ? /<command-name>([^<]{1,200})<\/command-name>/.exec(text)?.[1]?.trim() : undefined;
      const label = command ? `command ${command}` : system.subtype === 'local_command' ? 'command output' : system.subtype === 'away_summary' ? 'recap' : labelOfSubtype(system.subtype);
      const tone = system.level === 'warning' || system.level === 'error' || /error/.test(system.subtype ?? '') ? 'warn' : 'info';
      const output = system.subtype === 'local_command' && !command ? { output: true as const } : {};
      const draft = addDraft(ctx, located, env, { kind: 'notice', label, tone, summary: noticeSummary(text), content: text === '' ? [] : [{ type: 'text', text }], ...output }, []);
      const forked = system.subtype === 'local_command' ? forkedSkillAgent(text) : null;
      if (forked !== null) ctx.startedSubagents.set(draft.entry.id, forked);
    }
  }
}

/**
 * 2.1.332: a skill of `context: fork` the user ran says in its command's output which sub-agent
 * runs it (`<forked-skill-launch>{"agentId": …}</forked-skill-launch>`); the model's Skill call
 * says so in its result.
 */
function forkedSkillAgent(text: string): string | null {
  const json = /<forked-skill-launch>(\{[^<]{0,4000}\})<\/forked-skill-launch>/.exec(text)?.[1];
  if (json === undefined) return null;
  try {
    const launch: unknown = JSON.parse(json);
    return isPlainObject(launch) && typeof launch['agentId'] === 'string' && launch['agentId'] !== '' ? launch['agentId'] : null;
  } catch {
    return null;
  }
}

/**
 * `529 overloaded_error: Overloaded · attempt 1 of 10, again in 1.1 s`, from an api_error line's
 * `error` (the API's, nested as its body nests it) and its retry fields; '' when it gives none.
 */
export function apiErrorText(record: Record<string, unknown>): string {
  let status: number | null = null;
  let type: string | null = null;
  let message: string | null = null;
  // The API nests its error in the body it sends ({error: {type, error: {type, message}}}): the innermost says most.
  let error: unknown = record['error'];
  for (let depth = 0; depth < 5 && isPlainObject(error); depth++, error = error['error']) {
    if (typeof error['status'] === 'number' && Number.isInteger(error['status'])) status ??= error['status'];
    if (typeof error['type'] === 'string' && error['type'] !== 'error') type = error['type'];
    if (typeof error['message'] === 'string' && error['message'].trim() !== '') message = error['message'];
  }
  const what = [status === null ? '' : String(status), type === null ? '' : type].filter(Boolean).join(' ');
  const problem = message === null ? what : what === '' ? message : `${what}: ${message}`;
  const attempt = record['retryAttempt'];
  const most = record['maxRetries'];
  const wait = record['retryInMs'];
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  const retry = count(attempt)
    ? `attempt ${attempt}${count(most) ? ` of ${most}` : ''}${typeof wait === 'number' && Number.isFinite(wait) && wait >= 0 && wait < MAX_TURN_MS ? `, again in ${(wait / 1000).toFixed(1)} s` : ''}`
    : '';
  return [problem, retry].filter(Boolean).join(' · ');
}

/** Longer than any turn runs: a time beyond it is no agent's, and is not shown. */
const MAX_TURN_MS = 7 * 24 * 3600 * 1000;
const MAX_TURN_MESSAGES = 1_000_000;

/** `turn took 4 min 8 s · 103 messages`; null when the line gives no time that can be one. */
export function turnTimeText(durationMs: unknown, messageCount: unknown): string | null {
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0 || durationMs > MAX_TURN_MS) return null;
  const seconds = Math.round(durationMs / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [hours > 0 ? `${hours} h` : '', minutes > 0 ? `${minutes} min` : '', hours === 0 && seconds % 60 > 0 ? `${seconds % 60} s` : ''];
  const took = `turn took ${seconds === 0 ? 'under a second' : parts.filter((part) => part !== '').join(' ')}`;
  const messages = typeof messageCount === 'number' && Number.isSafeInteger(messageCount) && messageCount > 0 && messageCount <= MAX_TURN_MESSAGES ? ` · ${messageCount} message${messageCount === 1 ? '' : 's'}` : '';
  return took + messages;
}

/**
 * A subtype of words (`api_error`) reads as words. Anything else is kept as written: turned into
 * words, a token in it would no longer be seen as one by redaction.
 */
function labelOfSubtype(subtype: string | null | undefined): string {
  if (subtype === undefined || subtype === null) return 'system';
  return /^[a-z]+(?:_[a-z]+)*$/.test(subtype) ? subtype.replace(/_/g, ' ') : subtype;
}

// ---------------------------------------------------------------------------------------------
// Content blocks.

function blocksOf(content: unknown, ctx: ClaudeContext): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const list = Array.isArray(content) ? content : [content];
  return list.flatMap((value) => blockOf(value, ctx));
}

function blockOf(value: unknown, ctx: ClaudeContext): Block[] {
  if (!isPlainObject(value)) return typeof value === 'string' ? [{ type: 'text', text: value }] : [{ type: 'unknown', blockType: typeof value, raw: value }];
  const blockType = typeof value['type'] === 'string' ? value['type'] : '(untyped)';
  switch (blockType) {
    case 'text': {
      const b = raw.rawTextBlock.safeParse(value);
      // Claude Code writes blank text blocks between a response's parts: nothing to show.
      if (b.success) return b.data.text.trim() === '' ? [] : [{ type: 'text', text: b.data.text }];
      break;
    }
    case 'thinking': {
      const b = raw.rawThinkingBlock.safeParse(value);
      // Newer models may return only a signature: the thinking happened, its text was omitted (not
      // redacted: that is the redacted_thinking block below).
      if (b.success) return [{ type: 'thinking', text: b.data.thinking ?? '', redacted: false }];
      break;
    }
    case 'redacted_thinking':
      return [{ type: 'thinking', text: '', redacted: true }];
    case 'tool_use':
    case 'server_tool_use': {
      const b = raw.rawToolUseBlock.safeParse(value);
      if (b.success) {
        const args = b.data.input ?? {};
        const call: ToolCallBlock = { type: 'toolCall', id: b.data.id ?? '', name: b.data.name, arguments: args, argumentsError: null, effect: toolEffect(b.data.name, args, ctx.cwd) };
        if (call.id) ctx.calls.set(call.id, call);
        return [call];
      }
      break;
    }
    case 'web_search_tool_result': {
      const b = raw.rawWebSearchResultBlock.safeParse(value);
      if (!b.success) break;
      const found = b.data.content;
      if (!Array.isArray(found)) return [{ type: 'text', text: `Web search failed${found.error_code ? `: ${found.error_code}` : ''}.` }];
      // As a list of the pages found, as Claude Code shows them; their encrypted contents never.
      const pages = found.map((page) => `- ${markdownLink(page.title ?? page.url ?? '(untitled)', page.url ?? null)}`);
      return [{ type: 'text', text: pages.length === 0 ? 'Web search: nothing found.' : `Web search found:\n\n${pages.join('\n')}` }];
    }
    case 'tool_reference':
      // What a tool search (ToolSearch `select:…`) answers: the tool it made available, by name.
      if (typeof value['tool_name'] === 'string') return [{ type: 'text', text: `Tool loaded: ${value['tool_name']}` }];
      break;
    case 'image': {
      const b = raw.rawImageBlock.safeParse(value);
      if (b.success && b.data.source.data) return [{ type: 'image', mimeType: b.data.source.media_type ?? 'image/png', data: b.data.source.data }];
      break;
    }
  }
  return [{ type: 'unknown', blockType, raw: value }];
}

/**
 * A Markdown link whose words and address can hold no Markdown of their own (a title with `]`).
 * Only a web address of the characters an address is made of is linked (a backslash would lead a
 * browser to another host than the one shown), its brackets and parentheses percent-encoded.
 */
function markdownLink(words: string, address: string | null): string {
  const text = words.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
  if (address === null || !/^https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/.test(address)) return text;
  return `[${text}](${address.replace(/[()[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)})`;
}

function textOf(blocks: readonly Block[]): string {
  return blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

// ---------------------------------------------------------------------------------------------
// The tree: parents resolved through skipped records and merged lines, parallel results chained.

/** The entry a raw uuid stands for: itself, or its nearest ancestor that became an entry; dangling uuids stay. */
function resolveUuid(ctx: ClaudeContext, uuid: string): string | null {
  // Remembered for every uuid on the way: a long chain of records that are no entries (progress
  // lines), each with children of its own, would otherwise be walked again for each child.
  const path: string[] = [];
  const seen = new Set<string>();
  let at: string | null = uuid;
  let found: string | null;
  for (;;) {
    if (at === null) {
      found = null;
      break;
    }
    const known = ctx.resolved.get(at);
    if (known !== undefined) {
      found = known;
      break;
    }
    const target = ctx.linkTarget.get(at);
    if (target !== undefined || !ctx.passThrough.has(at)) {
      path.push(at);
      found = target ?? at;
      break;
    }
    // A loop of records that are no entries hangs from nothing.
    if (seen.has(at)) {
      found = null;
      break;
    }
    seen.add(at);
    path.push(at);
    at = ctx.passThrough.get(at) ?? null;
  }
  for (const node of path) ctx.resolved.set(node, found);
  return found;
}

/** Children of `uuid` hang from entry `id`. */
function linkUuid(ctx: ClaudeContext, uuid: string, id: string): void {
  ctx.linkTarget.set(uuid, id);
  if (ctx.resolved.has(uuid)) ctx.resolved.clear();
}

/** `uuid` became no entry: its children hang from what its parent does. */
function passUuid(ctx: ClaudeContext, uuid: string, parent: string | null): void {
  ctx.passThrough.set(uuid, parent);
  if (ctx.resolved.has(uuid)) ctx.resolved.clear();
}

function draftOf(ctx: ClaudeContext, id: string | null): Draft | null {
  return id === null ? null : (ctx.entryById.get(id) ?? null);
}

/**
 * The main-thread entry the record lost on the last damaged main-thread line from `from` to `to`
 * named as its parent, where the line still names it; null when it does not (a sidechain's lost
 * line is passed over: the main thread does not go on from a sub-agent's).
 */
function lostParentBetween(ctx: ClaudeContext, from: number, to: number): string | null {
  for (let line = to; line >= from; line--) {
    const lost = ctx.lostParents.get(line);
    if (lost === undefined || lost.sidechain) continue;
    const id = lost.parent === null ? null : resolveUuid(ctx, lost.parent);
    const draft = id === null ? undefined : ctx.entryById.get(id);
    return draft !== undefined && !draft.sidechain ? (id as string) : null;
  }
  return null;
}

function resolveParents(ctx: ClaudeContext): void {
  let tail: string | null = null;
  for (const draft of ctx.drafts) if (!('tail' in draft.parent)) tail = draft.entry.id;
  /** The main thread's last entry so far, in file order, its line, and whether a compaction came before it. */
  let previousMain: string | null = null;
  let previousLine = 0;
  let compacted = false;
  /** A prompt or a reply of the main thread came before. */
  let turned = false;
  // Lines skipped as damaged: a record on one may be the parent its next one names.
  const damagedBetween = lostLinesBetween(ctx.diagnostics.list());
  for (const draft of ctx.drafts) {
    const { parent } = draft;
    let id: string | null;
    if ('tail' in parent) {
      id = tail;
      tail = draft.entry.id;
    } else if ('id' in parent) id = parent.id;
    else {
      id = parent.uuid === null ? null : resolveUuid(ctx, parent.uuid);
      // A compaction's logical parent is what it compacted, written before it: a preserved segment
      // written again after the summary (claude.md §8.3) hangs under the summary, and the boundary
      // under it made a loop (regression: "tree-loop", the conversation split at the compaction).
      if (parent.nullWhenDangling && id !== null && !((ctx.entryById.get(id)?.entry.line ?? Infinity) < draft.entry.line)) id = null;
      if (id === null && parent.otherwise !== undefined) id = parent.otherwise;
    }
    if (id !== null && id === draft.entry.id) {
      // Its parent is itself (directly, or through records that became no entry): a root, said as the other sources' loops are.
      ctx.diagnostics.push(diagnostic('tree-loop', ctx.file, draft.entry.line, `entry ${JSON.stringify(draft.entry.id)} names itself as its parent: shown as a root`));
      id = null;
    }
    // A main-thread entry after a compaction whose parent is in no file (Claude Code discarded it:
    // a hook in flight during the compaction, claude.md §6.2) goes on from the entry before it: a
    // root of its own split the conversation, what came before shown after it as a branch.
    // Elsewhere such a parent is another file's (a resumed copy's rewind into its origin) or a
    // damaged line's, and the entry stays where it was (the entry before it may be on another branch).
    if (!draft.sidechain && compacted && id !== null && !ctx.entryById.has(id) && previousMain !== null) id = previousMain;
    // So does one whose parent was on a damaged line just before it (claude.md §6.5: file order):
    // as a root, the conversation seemed to start there, what came before shown as a branch.
    // The lost record's own parent, where the damaged line still names it, is where it goes on
    // from (a rewind written on that line is not grafted onto the branch it left).
    else if (!draft.sidechain && id !== null && !ctx.entryById.has(id) && previousMain !== null && damagedBetween?.(previousLine, draft.entry.line)) id = lostParentBetween(ctx, previousLine, draft.entry.line) ?? previousMain;
    // The session's first prompt, a root after roots of bookkeeping alone (a local command run
    // before it, a session-start hook: claude.md §6.2), goes on from them: each such root was drawn
    // as a branch of its own.
    if (id === null && !draft.sidechain && !turned && previousMain !== null && draft.entry.kind === 'prompt') id = previousMain;
    // A title hangs from the file's end, wherever it was written: nothing written after it goes on from it.
    if (!draft.sidechain && !('tail' in parent)) {
      previousMain = draft.entry.id;
      previousLine = draft.entry.line;
      if (draft.entry.kind === 'compaction') compacted = true;
      if (draft.entry.kind === 'prompt' || draft.entry.kind === 'reply') turned = true;
    }
    draft.entry.parentId = id;
  }
}

/**
 * Results of parallel tool calls are all written as children of the call's reply; shown as they
 * ran, one after another, they are not branches of the conversation (formats/claude.md §6.4).
 * Nor is a result that lags behind the reply going on from its call.
 */
function chainParallelResults(ctx: ClaudeContext): void {
  const children = new Map<string, Draft[]>();
  for (const draft of ctx.drafts) {
    const parent = draft.entry.parentId;
    if (parent === null) continue;
    const list = children.get(parent);
    if (list) list.push(draft);
    else children.set(parent, [draft]);
  }
  const childCount = (id: string) => children.get(id)?.length ?? 0;
  for (const [parentId, list] of children) {
    let previous: Draft | null = null;
    for (const draft of [...list]) {
      if (draft.entry.kind !== 'toolResult') continue;
      if (previous !== null && childCount(previous.entry.id) === 0) {
        draft.entry.parentId = previous.entry.id;
        children.set(previous.entry.id, [draft]);
        const siblings = children.get(parentId) ?? [];
        siblings.splice(siblings.indexOf(draft), 1);
      }
      previous = draft;
    }
    // A result written after the reply that went on from its call (a lagging tool_result): the
    // reply is shown after the result, not as a branch beside it.
    const left = children.get(parentId) ?? [];
    const replies = left.filter((d) => d.entry.kind === 'reply');
    const [first] = left.filter((d) => d.entry.kind === 'toolResult');
    if (first === undefined || replies.length !== 1 || left.length !== 2) continue;
    let leaf = first;
    for (let next = children.get(leaf.entry.id); next?.length === 1 && next[0]?.entry.kind === 'toolResult'; next = children.get(leaf.entry.id)) leaf = next[0];
    if (childCount(leaf.entry.id) !== 0) continue;
    const reply = replies[0] as Draft;
    reply.entry.parentId = leaf.entry.id;
    children.set(leaf.entry.id, [reply]);
    left.splice(left.indexOf(reply), 1);
  }
}

// ---------------------------------------------------------------------------------------------
// Old inline sidechains (1.0.x): a Task's sub-agent written into the main file.

function foldInlineSidechains(ctx: ClaudeContext): Entry[] {
  if (!ctx.drafts.some((d) => d.sidechain)) return ctx.drafts.map((d) => d.entry);
  // Runs: each sidechain root with everything hanging from it.
  const runOf = new Map<Draft, Draft[]>();
  const runs: Draft[][] = [];
  for (const draft of ctx.drafts) {
    if (!draft.sidechain) continue;
    const parent = draftOf(ctx, draft.entry.parentId);
    // A sidechain line whose parent is not in the file (an excerpt, a lost line) goes on the run before it.
    const dangling = parent === null && 'uuid' in draft.parent && draft.parent.uuid !== null;
    const run = parent && parent.sidechain ? runOf.get(parent) : dangling ? runs.at(-1) : undefined;
    if (run) run.push(draft);
    else runs.push([draft]);
    runOf.set(draft, run ?? (runs.at(-1) as Draft[]));
  }
  const results = ctx.drafts.filter((d) => !d.sidechain && d.entry.kind === 'toolResult');
  const taken = new Set<Draft>();
  const folded = new Set<Draft>();
  const added: { after: Draft; result: Draft }[] = [];
  const callless = new Set<Draft>();
  for (const run of runs) {
    let result = taskResultOf(ctx, run, results, taken);
    if (result === null) {
      // Its call never got a result (the session ended or was interrupted first): the run is shown
      // in a result made for it, after the call, never as a branch of its own or as the user's turns.
      // With no call to it at all (its line lost), after the main thread's entry before it.
      const made = resultForUnansweredCall(ctx, run, results, added) ?? resultWithoutCall(ctx, run);
      if (made !== null) {
        added.push(made);
        if (made.result.entry.kind === 'toolResult' && made.result.entry.toolCallId === null) callless.add(made.result);
        result = made.result;
      }
    }
    if (result === null || result.entry.kind !== 'toolResult') {
      // No call to show it under: the run stays in the conversation, its task never counted as a turn.
      for (const draft of run) {
        if (draft.entry.kind === 'prompt') draft.entry = asNotice(draft.entry, 'sub-agent task');
      }
      continue;
    }
    taken.add(result);
    const call = result.entry.toolCallId ? ctx.calls.get(result.entry.toolCallId) : undefined;
    const args = isPlainObject(call?.arguments) ? call.arguments : {};
    const entries = run.map((d) => d.entry);
    const subagent: SubagentRun = {
      agent: typeof args['subagent_type'] === 'string' ? args['subagent_type'] : 'Task',
      task: typeof args['prompt'] === 'string' ? args['prompt'] : firstPromptText(entries),
      status: callless.has(result)
        ? 'no call to it in the file (its line lost?)'
        : added.some((a) => a.result === result)
          ? 'no result written: the session ended or was stopped first'
          : null,
      model: entries.flatMap((e) => e.usage).find((u) => u.model)?.model ?? null,
      errorMessage: null,
      entries,
      ownRecords: true,
    };
    result.entry.subagents.push(subagent);
    // Counted on the result that shows them: usage is only counted on entries of the file itself.
    result.entry.usage.push(...entries.flatMap((e) => e.usage));
    for (const draft of run) folded.add(draft);
  }
  const drafts = ctx.drafts.filter((d) => !folded.has(d));
  for (const { after, result } of added) drafts.splice(drafts.indexOf(after) + 1, 0, result);
  return drafts.map((d) => d.entry);
}

/**
 * A result for the spawning call a sidechain run answers when none was written: the unanswered
 * call whose prompt it repeats, else the last one before it. Hung under the call's reply, with
 * the main conversation going on from it (as from a result), so that it is no branch; null when
 * there is no such call.
 */
function resultForUnansweredCall(ctx: ClaudeContext, run: readonly Draft[], results: readonly Draft[], made: readonly { result: Draft }[]): { after: Draft; result: Draft } | null {
  const answered = new Set([...results, ...made.map((m) => m.result)].flatMap((d) => (d.entry.kind === 'toolResult' && d.entry.toolCallId ? [d.entry.toolCallId] : [])));
  const firstLine = run[0]?.entry.line ?? 0;
  const task = firstPromptText(run.map((d) => d.entry)).trim();
  const spawns = ctx.drafts.flatMap((draft) =>
    !draft.sidechain && draft.entry.kind === 'reply' && draft.entry.line < firstLine
      ? draft.entry.content.flatMap((block) => (block.type === 'toolCall' && SPAWNING_TOOLS.has(block.name) && !answered.has(block.id) ? [{ draft, call: block }] : []))
      : [],
  );
  const repeats = (call: ToolCallBlock) => isPlainObject(call.arguments) && typeof call.arguments['prompt'] === 'string' && call.arguments['prompt'].trim() === task;
  const spawn = spawns.find((s) => repeats(s.call)) ?? spawns.at(-1);
  if (spawn === undefined) return null;
  const [first] = run;
  const { entry: reply } = spawn.draft;
  const entry = madeResult(`${reply.id}:${spawn.call.id}:result`, `${reply.key}:${spawn.call.id}:result`, reply.id, first?.entry.timestamp ?? reply.timestamp, first?.entry.line ?? reply.line, spawn.call.id, spawn.call.name);
  // The reply that went on from the call goes on from its result.
  for (const draft of ctx.drafts) if (!draft.sidechain && draft.entry.parentId === reply.id && draft.entry.kind !== 'toolResult') draft.entry.parentId = entry.id;
  return { after: spawn.draft, result: { entry, parent: { id: reply.id }, sidechain: false } };
}

/** A tool result bough makes to show a sidechain run in, holding nothing of its own. */
function madeResult(id: string, key: string, parentId: string, timestamp: number | null, line: number, toolCallId: string | null, toolName: string): Entry {
  return { key, id, parentId, timestamp, line, usage: [], recovered: false, kind: 'toolResult', toolCallId, toolName, content: [], isError: false, subagents: [], diff: null, change: null, commits: [], nestedCalls: [] };
}

/**
 * A result made for a sidechain run no call in the file spawned (the call's line was lost), after
 * the main thread's last entry before it, the main conversation going on from it: as a root of
 * its own, the sub-agent's task was taken for the conversation's latest turn, the user's shown as
 * an abandoned branch. Null when the file holds no main-thread entry before it.
 */
function resultWithoutCall(ctx: ClaudeContext, run: readonly Draft[]): { after: Draft; result: Draft } | null {
  const firstLine = run[0]?.entry.line ?? 0;
  const before = ctx.drafts.filter((draft) => !draft.sidechain && draft.entry.line < firstLine).at(-1);
  if (before === undefined) return null;
  const { entry: previous } = before;
  const entry = madeResult(`${previous.id}:sidechain-${firstLine}:result`, `${previous.key}:sidechain-${firstLine}:result`, previous.id, run[0]?.entry.timestamp ?? previous.timestamp, firstLine, null, 'Task');
  // What the main thread wrote after the run from that entry goes on from the result, but the
  // results of that entry's own calls.
  const ownCalls = new Set(previous.kind === 'reply' ? previous.content.flatMap((block) => (block.type === 'toolCall' ? [block.id] : [])) : []);
  for (const draft of ctx.drafts) {
    const { entry: next } = draft;
    if (draft.sidechain || next.parentId !== previous.id || next.line <= firstLine) continue;
    if (next.kind === 'toolResult' && next.toolCallId !== null && ownCalls.has(next.toolCallId)) continue;
    next.parentId = entry.id;
  }
  return { after: before, result: { entry, parent: { id: previous.id }, sidechain: false } };
}

/** The Task result a sidechain run answers: the call whose prompt it repeats, else the next unanswered call before it. */
function taskResultOf(ctx: ClaudeContext, run: readonly Draft[], results: readonly Draft[], taken: ReadonlySet<Draft>): Draft | null {
  const task = firstPromptText(run.map((d) => d.entry)).trim();
  // A result whose call is in no line read (a damaged one) may be the Task's too.
  const open = results.filter((d) => !taken.has(d) && d.entry.kind === 'toolResult' && (['Task', 'Agent'].includes(d.entry.toolName ?? '') || (d.entry.toolName === null && d.entry.toolCallId !== null && !ctx.calls.has(d.entry.toolCallId))));
  const byPrompt = open.find((d) => {
    const call = d.entry.kind === 'toolResult' && d.entry.toolCallId ? ctx.calls.get(d.entry.toolCallId) : undefined;
    return isPlainObject(call?.arguments) && typeof call.arguments['prompt'] === 'string' && call.arguments['prompt'].trim() === task;
  });
  if (byPrompt) return byPrompt;
  const firstLine = run[0]?.entry.line ?? 0;
  return open.find((d) => d.entry.line > firstLine) ?? null;
}

/** Each entry's id, and every link to one, prefixed: the links to entries of other files (none there) stay. */
function withIdPrefix(ctx: ClaudeContext, entries: Entry[], prefix: string): Entry[] {
  const own = new Set(entries.map((entry) => entry.id));
  const linked = (id: string | null) => (id !== null && own.has(id) ? `${prefix}${id}` : id);
  ctx.entryTitles = ctx.entryTitles.map((title) => ({ ...title, entryId: linked(title.entryId) as string }));
  return entries.map((entry) => {
    const moved = { ...entry, id: `${prefix}${entry.id}`, parentId: linked(entry.parentId) } as Entry;
    if (moved.kind === 'label' || moved.kind === 'contextEdit') moved.targetId = linked(moved.targetId);
    return moved;
  });
}

function firstPromptText(entries: readonly Entry[]): string {
  const prompt = entries.find((e) => e.kind === 'prompt');
  return prompt?.kind === 'prompt' ? textOf(prompt.content) : '';
}

function asNotice(entry: Entry & { kind: 'prompt' }, label: string): Entry {
  const { key, id, parentId, timestamp, line, recovered, usage, content } = entry;
  return { key, id, parentId, timestamp, line, recovered, usage, kind: 'notice', label, tone: 'info', summary: noticeSummary(textOf(content)), content };
}

// ---------------------------------------------------------------------------------------------
// Sub-agent files.

/** The tools that start a sub-agent (formats/claude.md §6.3). */
const SPAWNING_TOOLS = new Set(['Task', 'Agent']);
/** The line a spawning call's result ends with, naming the agent: "agentId: a4ca… (use SendMessage …)". */
const AGENT_ID_LINE = /(?:^|\n)agentId: ([A-Za-z0-9_-]{4,64})(?![A-Za-z0-9_-])/;

/** The sub-agent a Task/Agent result's text names, when `toolUseResult` does not (formats/claude.md §6.3 (b)). */
function agentIdInText(text: string): string | null {
  return AGENT_ID_LINE.exec(text)?.[1] ?? null;
}

/** The most a sidecar description file may weigh before it is not read. */
const MAX_META_BYTES = 64 * 1024;
const LABEL_WORDS = 12;

/** What a sub-agent was for: its sidecar's description or type, else what its file and first prompt say. */
function subagentLabel(path: string, entries: readonly Entry[], described: string | null): string {
  if (described) return described;
  const name = basename(path);
  if (/^agent-acompact/i.test(name)) return 'compaction';
  if (/prompt_suggestion/i.test(name)) return 'prompt suggestion';
  if (/aside_question/i.test(name)) return 'side question';
  const task = firstPromptText(entries).trim();
  if (task === 'Warmup') return 'warmup';
  const words = task.split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'sub-agent';
  // Cut as texts cut before --redact are (see `shortened`): a word whole before a glued "…" read as a placeholder.
  return words.length > LABEL_WORDS ? shortened(words.join(' '), words.slice(0, LABEL_WORDS).join(' ').length + 2) : words.join(' ');
}

/** A sub-agent's sidecar: what it was for, and the tool call that started it. */
async function readAgentMeta(path: string): Promise<{ label: string | null; toolUseId: string | null } | null> {
  try {
    const parsed = raw.rawAgentMeta.safeParse(JSON.parse(await readRegularFile(path, MAX_META_BYTES)));
    if (!parsed.success) return null;
    return { label: parsed.data.description?.trim() || parsed.data.agentType?.trim() || null, toolUseId: parsed.data.toolUseId?.trim() || null };
  } catch {
    // No sidecar (most files), or an unreadable one: the label comes from the transcript.
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

