// A session's ledger: what is counted of it, as small plain data with stable string keys. Totals,
// periods, `stats` and every table are answered from ledgers alone; only a session's own page
// needs its content (texts, tool output). Pure: SessionFile in, ledger out.

import { attachedFilesLength } from '../attached-files.js';
import { problemCount } from '../diagnostics.js';
import { buildTree, type EntryTree } from '../model/tree.js';
import { packEntries, usageKeyOf, type PackedEntries } from './packed-entries.js';
import { CLAIM_TURN, type Block, type Entry, type FileChange, type RunningTotals, type ReplyOutcome, type SessionFile, type SkillInvocation, type Source, type SubagentCopies, type SubagentRun, type TokenCounts, type ToolEffect, type UsageOrigin } from '../types.js';
import { cutText } from '../unicode-text.js';

/** Names a session everywhere (pages, rows, links): its source and file. Never object identity. */
export type SessionKey = string;

export function sessionKeyOf(source: Source, path: string): SessionKey {
  return `${source}:${path}`;
}

/** One usage record: who billed what, when, in which token kinds, at what recorded cost. */
export interface LedgerUsage extends TokenCounts {
  /** The claim key: the reader's (the same response in several files), else the entry's key and the record's place in it. */
  key: string;
  /** Milliseconds since the epoch, or null when neither the record nor its entry has a time. */
  time: number | null;
  origin: UsageOrigin;
  provider: string | null;
  model: string | null;
  /**
   * The model asked for, where the record's model is another (the one that answered, which the
   * reader bills): priced in its place when the table does not know that one (a relay's own id).
   */
  requestedModel?: string;
  /** The model was taken as "the one in use" because the record names none. */
  modelGuessed: boolean;
  /** The recorded cost came from the provider's bill rather than the agent's catalog. */
  recordedCostFromProvider: boolean;
  /** USD as the agent stored it, or null. */
  recordedCost: number | null;
  /** The output count may be short of what was billed (the agent did not write the final count). */
  outputPartial: boolean;
  /** The response it is of, within its session: a sub-agent's replay of a main thread's response is not counted. */
  responseId: string | null;
  /** Billed at fast-mode rates. */
  fast: boolean;
  /** Server-side web searches, billed per search. */
  webSearches: number;
  /** A token count could not be read and was left out: priced in part. */
  countsLeftOut?: true;
  /** No token counts at all, only a cost or a total: its cost by the table is unknown. */
  countsUnknown?: true;
  /** Billed at the US-only inference multiple. */
  usOnly?: true;
  /** Billed at the flex service tier's rates. */
  flex?: true;
  /** The record sums several requests: its largest prompt, which a long-context tier goes by. */
  largestPrompt?: number;
}

export interface LedgerToolCall {
  name: string;
  action: ToolEffect['action'];
  paths: string[];
  /** Its result says it failed (a write denied, an edit whose text was not found): it touched none of its files. Absent: it did not, or no result says. */
  failed?: true;
}

export interface LedgerToolResult {
  failed: boolean;
  /** The first path of the call this result answers, when its call is in the file. */
  path: string | null;
  added: number;
  removed: number;
  commits: { landed: boolean; line: string | null; message: string | null }[];
  /** Of an edit of several files (`path` null), the lines each gained and lost. Absent: one file, or none told. */
  files?: FileChange[];
}

/** One entry of the file, reduced to what is counted. */
export interface LedgerEntry {
  /** The claim key: when several files hold this entry, one of them counts it (Pi: id + timestamp). */
  key: string;
  /** The entry's id in its file, for links into the session's page. */
  id: string;
  /** Other ids it was recorded under, when the reader merged lines into it. */
  aliases?: string[];
  time: number | null;
  turn: 'prompt' | 'reply' | null;
  /** For replies. */
  outcome: ReplyOutcome | null;
  usage: LedgerUsage[];
  calls: LedgerToolCall[];
  result: LedgerToolResult | null;
  /**
   * On a tool result that shows sub-agent runs (Pi's, Claude Code's old inline sidechains): their
   * tool work, the session's as a sub-agent file's is. Their usage is on the result itself.
   */
  inner?: { calls: LedgerToolCall[]; results: LedgerToolResult[] };
}

export interface SessionLedger {
  key: SessionKey;
  source: Source;
  path: string;
  size: number;
  mtime: number;
  sessionId: string;
  cwd: string | null;
  /** The agent's folder for the session's project, as read (never decoded): groups sessions without a cwd. */
  projectFolder: string | null;
  /** The latest name the user gave the session, if any. */
  name: string | null;
  /** The name, else the first words typed: a line for lists and headings. */
  title: string;
  /** Header time, or null. */
  startedAt: number | null;
  parentFile: string | null;
  /** The session id of the file this one was copied from, as the reader read it. */
  parentSessionId: string | null;
  namedByAgent: boolean;
  /** The session id this file is a sub-agent of, as recorded: it is counted in that session. */
  subagentOf: string | null;
  subagentLabel: string | null;
  /** The id its parent's calls name this sub-agent by (SessionFile.subagentId). Absent: a main session's, or none recorded. */
  subagentId?: string;
  /** Copies of its sub-agents' requests the file holds (SessionFile.subagentCopies): said where a transcript is not read. Absent: none. */
  subagentCopies?: SubagentCopies[];
  /** Titles this file gives to entries of other files, by entry id. */
  entryTitles: { entryId: string; title: string }[];
  /**
   * Of a file that names the session it was copied from (a fork, a resumed copy), the title each
   * prompt would give the session, by its place among the entries (the first MAX_PROMPT_TITLES):
   * it is titled by its first prompt of its own, not by the history it copied (see withOwnTitles).
   */
  promptTitles: { index: number; title: string }[];
  /** The agent's running totals where it wrote them (SessionFile.runningTotals). Absent: none. */
  runningTotals?: RunningTotals[];
  formatVersion: number;
  /** Leaves of the entry tree. */
  branches: number;
  /** When its file was last read, for a session kept from an earlier build whose file is gone; null when read now. */
  lastSeen: number | null;
  /** Kept from an earlier build while its file is still there, no longer read as it (emptied, damaged): not gone. Absent: gone, or read now. */
  fileThere?: true;
  /** Kept from an earlier build while its file, still there and read, holds less of it (cut short, a line damaged since). */
  fileHoldsLess?: true;
  /** Of its entries, those made from a file beside its own (see Entry.fromBeside): none of the file's lines. Absent: none. */
  besideEntries?: number;
  /** Lines of the file whose content was lost (its other problems, such as lines recovered, are on the data-quality page only). */
  damaged: number;
  /** Of its entries, those read from a damaged line (two records glued on one): an agent rewriting the file may drop them. Absent: none. */
  recoveredEntries?: number;
  /**
   * Replacements a build that redacts made in its file, by kind: counted again for a report that
   * shows it kept from the archive (its file gone), whose text was redacted when it was archived.
   */
  redactions?: Record<string, number>;
  /** Packed: `unpackEntries` gives them, for one pass at a time. */
  entries: PackedEntries;
}

export function ledgerOf(file: SessionFile): SessionLedger {
  const tree = buildTree(file.entries);
  const callPaths = toolWork(file.entries, tree);
  const name = latestName(file.entries);
  return {
    key: sessionKeyOf(file.source, file.path),
    source: file.source,
    path: file.path,
    size: file.size,
    mtime: file.mtime,
    sessionId: file.sessionId,
    cwd: file.cwd,
    projectFolder: file.projectFolder,
    // A name is repeated in lists, headings and summary.json: cut there; its page keeps the whole text once, folded.
    name: name === null ? null : shorten(name, NAME_LENGTH),
    title: name !== null ? shorten(name) : file.subagentOf !== null ? subagentTitle(file.source, file.subagentLabel) : titleFromPrompts(file.entries),
    startedAt: file.startedAt,
    parentFile: file.parentFile,
    parentSessionId: file.parentSessionId,
    namedByAgent: file.namedByAgent,
    subagentOf: file.subagentOf,
    subagentLabel: file.subagentLabel === null ? null : shorten(file.subagentLabel),
    ...(file.subagentId !== null ? { subagentId: file.subagentId } : {}),
    ...(file.subagentCopies !== undefined && file.subagentCopies.length > 0 ? { subagentCopies: file.subagentCopies } : {}),
    entryTitles: file.entryTitles.map((t) => ({ entryId: t.entryId, title: shorten(t.title) })),
    // Kept only for a file that names the session it was copied from: held for every session,
    // a history of 30,000 small ones carried 50 MB more.
    promptTitles: file.parentFile === null && file.parentSessionId === null ? [] : promptTitles(file.entries, file.startedAt),
    ...(file.runningTotals !== undefined && file.runningTotals.length > 0 ? { runningTotals: file.runningTotals } : {}),
    formatVersion: file.formatVersion,
    branches: tree.leaves.length,
    lastSeen: null,
    damaged: problemCount(file.diagnostics.filter((d) => d.skippedLine)),
    besideEntries: file.entries.filter((entry) => entry.fromBeside).length,
    ...recoveredCount(file.entries),
    entries: packEntries(file.entries.map((entry) => ledgerEntry(entry, callPaths, file.subagentOf !== null))),
  };
}

function recoveredCount(entries: readonly Entry[]): { recoveredEntries?: number } {
  const recovered = entries.filter((entry) => entry.recovered).length;
  return recovered > 0 ? { recoveredEntries: recovered } : {};
}

/** A sub-agent file's usage is all sub-agent spend of the session it belongs to. */
function ledgerEntry(entry: Entry, callPaths: ToolWork, inSubagent: boolean): LedgerEntry {
  return {
    key: entry.key,
    id: entry.id,
    ...(entry.aliases && entry.aliases.length > 0 ? { aliases: entry.aliases } : {}),
    time: countedTimeOf(entry),
    // A sub-agent's prompts are its task, written by the model that ran it, and its replies answer
    // that model: never the session's turns, also when its file stands for a session whose main
    // file is missing or empty (its usage still counts, as sub-agent spend).
    turn: !inSubagent && (entry.kind === 'prompt' || entry.kind === 'reply') ? entry.kind : null,
    outcome: entry.kind === 'reply' ? entry.outcome : null,
    usage: entry.usage.map((usage, index) => ({
      key: usageKey(usage.claim ?? usageKeyOf(entry.key, index), usage.claimTurn),
      time: usage.timestamp ?? entry.timestamp,
      origin: inSubagent ? 'subagent' : usage.origin,
      provider: usage.provider,
      model: usage.model,
      ...(usage.requestedModel !== null && usage.requestedModel !== usage.model ? { requestedModel: usage.requestedModel } : {}),
      modelGuessed: usage.modelGuessed,
      recordedCostFromProvider: usage.recordedCostFromProvider,
      input: usage.input,
      output: usage.output,
      cacheRead: usage.cacheRead,
      cacheWrite: usage.cacheWrite,
      cacheWrite1h: usage.cacheWrite1h,
      reasoning: usage.reasoning,
      recordedCost: usage.recordedCost,
      outputPartial: usage.outputPartial,
      responseId: usage.responseId,
      fast: usage.fast,
      webSearches: usage.webSearches,
      ...(usage.countsLeftOut ? { countsLeftOut: true as const } : {}),
      ...(usage.countsUnknown ? { countsUnknown: true as const } : {}),
      ...(usage.usOnly ? { usOnly: true as const } : {}),
      ...(usage.flex ? { flex: true as const } : {}),
      ...(usage.largestPrompt !== undefined ? { largestPrompt: usage.largestPrompt } : {}),
    })),
    calls: callsOf(entry, callPaths),
    result: entry.kind === 'toolResult' ? resultOf(entry, callPaths) : null,
    ...(entry.kind === 'toolResult' && entry.subagents.length > 0 ? { inner: innerWork(entry.subagents, callPaths) } : {}),
  };
}

/**
 * When an entry counts: a reply when its usage does (Claude Code dates a response streamed across
 * midnight by its last line, formats/claude.md §9.2), so that a reply and its tokens fall in one
 * period; any other entry at its own time.
 */
export function countedTimeOf(entry: Entry): number | null {
  if (entry.kind !== 'reply') return entry.timestamp;
  let last: number | null = null;
  for (const usage of entry.usage) if (usage.timestamp !== null && (last === null || usage.timestamp > last)) last = usage.timestamp;
  return last ?? entry.timestamp;
}

function callsOf(entry: Entry, work: ToolWork): LedgerToolCall[] {
  if (entry.kind !== 'reply') return [];
  return entry.content.flatMap((block) => (block.type === 'toolCall' ? [{ name: block.name, action: block.effect.action, paths: block.effect.paths, ...(callFailed(work, block) ? { failed: true as const } : {}) }] : []));
}

/**
 * A call failed when every result found for it did: a result whose own call is lost (its line
 * damaged) may be taken for another of the same id, which its own result says went well.
 */
function callFailed(work: ToolWork, call: ToolCallBlock): boolean {
  const outcome = work.outcomes.get(call);
  return outcome !== undefined && outcome.failed > 0 && outcome.ok === 0;
}

type ToolCallBlock = Extract<Block, { type: 'toolCall' }>;

/** Of each tool result (its sub-agents' too), the file its changed lines are of; of each call, how the results found for it went. */
interface ToolWork {
  paths: Map<Entry, string | null>;
  outcomes: Map<ToolCallBlock, { ok: number; failed: number }>;
}

/** How far up its branch a result's call is looked for: past the results of the calls beside it. */
const CALL_SEARCH_DEPTH = 256;

/**
 * Each tool result's call (its sub-agents' too): the call of its id in the nearest reply above it
 * on its branch, as ids repeat across replies (Kimi's `functions.edit:0`; pi.md §6 ties a result
 * to the reply before it), else the last call of that id in the file.
 */
function toolWork(entries: readonly Entry[], tree = buildTree(entries), work: ToolWork = { paths: new Map(), outcomes: new Map() }): ToolWork {
  const lastCall = new Map<string, ToolCallBlock>();
  for (const entry of entries) {
    if (entry.kind !== 'reply') continue;
    for (const block of entry.content) if (block.type === 'toolCall' && block.id) lastCall.set(block.id, block);
  }
  for (const entry of entries) {
    if (entry.kind !== 'toolResult') continue;
    for (const run of entry.subagents) toolWork(run.entries, undefined, work);
    if (entry.toolCallId === null) continue;
    const call = callOnBranch(entry, entry.toolCallId, tree) ?? lastCall.get(entry.toolCallId) ?? null;
    work.paths.set(entry, call === null ? null : changedFile(call.effect.paths));
    if (call === null) continue;
    const outcome = work.outcomes.get(call) ?? { ok: 0, failed: 0 };
    if (entry.isError) outcome.failed++;
    else outcome.ok++;
    work.outcomes.set(call, outcome);
  }
  return work;
}

/**
 * The file a result's changed lines are of: its call's one path. A call changing several (Codex's
 * apply_patch) says its lines only in all: they count in the totals, and are no one file's.
 */
function changedFile(paths: readonly string[]): string | null {
  return paths.length === 1 ? (paths[0] as string) : null;
}

/** The call of this id in the nearest reply above the result holding one; undefined when none does. */
function callOnBranch(result: Entry, callId: string, tree: EntryTree): ToolCallBlock | undefined {
  let at = tree.parentOf.get(result) ?? null;
  for (let steps = 0; at !== null && steps < CALL_SEARCH_DEPTH; steps++, at = tree.parentOf.get(at) ?? null) {
    if (at.kind !== 'reply') continue;
    for (const block of at.content) if (block.type === 'toolCall' && block.id === callId) return block;
  }
  return undefined;
}

function resultOf(entry: Entry & { kind: 'toolResult' }, work: ToolWork): LedgerToolResult {
  return {
    failed: entry.isError,
    path: work.paths.get(entry) ?? null,
    added: entry.change?.added ?? 0,
    removed: entry.change?.removed ?? 0,
    commits: entry.commits.map((c) => ({ landed: c.landed, line: c.line, message: c.message })),
    ...(entry.change?.files && entry.change.files.length > 0 ? { files: entry.change.files } : {}),
  };
}

/** The tool calls and results of sub-agent runs, and of the runs shown inside theirs. */
function innerWork(runs: readonly SubagentRun[], callPaths: ToolWork): NonNullable<LedgerEntry['inner']> {
  const work: NonNullable<LedgerEntry['inner']> = { calls: [], results: [] };
  const walk = (entries: readonly Entry[]) => {
    for (const entry of entries) {
      work.calls.push(...callsOf(entry, callPaths));
      if (entry.kind !== 'toolResult') continue;
      work.results.push(resultOf(entry, callPaths));
      for (const run of entry.subagents) walk(run.entries);
    }
  };
  for (const run of runs) walk(run.entries);
  return work;
}

/** The latest /name in file order; an empty one clears it. */
function latestName(entries: readonly Entry[]): string | null {
  let name: string | null = null;
  for (const entry of entries) if (entry.kind === 'name') name = entry.name;
  return name;
}

const TITLE_LENGTH = 90;
/** The title of a session of nothing but Claude Code's start-up warmups. */
export const WARMUP_ONLY = 'Warmup only (Claude Code started, never given a prompt)';
/** A warmup's file exported on its own, whose session may have been given prompts in other files. */
export const WARMUP_EXPORTED = 'Warmup (Claude Code 2.0 warmed this sub-agent up as it started)';

/**
 * A file of Claude Code 2.0's start-up warmups (claude.md §8.4): its sub-agents were sent
 * "Warmup" as Claude Code started, a real spend and no conversation.
 */
export function isWarmupFile(ledger: Pick<SessionLedger, 'source' | 'subagentLabel'>): boolean {
  return ledger.source === 'claude' && ledger.subagentLabel === 'warmup';
}
export const NAME_LENGTH = 300;

/**
 * A sub-agent file's title shows only when it stands for its session (no main file among the
 * inputs, or an empty one): named as what it is, never by its task, which the user did not type.
 */
function subagentTitle(source: Source, label: string | null): string {
  // Claude Code 2.0 warmed its sub-agents up at start-up (claude.md §8.4): a session whose only
  // files are those was never given a prompt, and is named as what it is.
  if (isWarmupFile({ source, subagentLabel: label })) return WARMUP_ONLY;
  const what = label === null || label === 'sub-agent' ? 'Sub-agent' : `Sub-agent: ${shorten(label, TITLE_LENGTH - 40)}`;
  return `${what} (no main transcript)`;
}

/** The first words the user typed; a skill prompt is named by its skill, never by its body. */
function titleFromPrompts(entries: readonly Entry[]): string {
  let images = false;
  let empty = false;
  for (const entry of entries) {
    const title = promptTitle(entry);
    // Words typed later name the session better than a screenshot sent first.
    if (title === IMAGE_PROMPT) images = true;
    else if (title !== null) return title;
    else if (entry.kind === 'prompt') empty = true;
  }
  // A prompt sent with no words is one all the same: not "(no prompts)" beside a count of 1.
  return images ? IMAGE_PROMPT : empty ? EMPTY_PROMPT : NO_PROMPTS;
}

const NO_PROMPTS = '(no prompts)';
/** How a prompt of no words and no images is named, in titles and on its page. */
export const EMPTY_PROMPT = '(empty prompt)';
/** Characters that show nothing: a prompt of them alone titled a session with a blank. */
const INVISIBLE = /^[\s\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\u{e0000}-\u{e007f}]*$/u;
/** A session that copied more prompts than this is titled by its first, if it has none of its own among them. */
const MAX_PROMPT_TITLES = 1000;

/**
 * `startedAt`: when the file was started; a prompt recorded before it was copied into the file
 * (a Pi fork's header is the fork's time, pi.md §12) and never titles it, so past the first
 * (which says what the file's title came from) it is not kept.
 */
function promptTitles(entries: readonly Entry[], startedAt: number | null): { index: number; title: string }[] {
  const titles: { index: number; title: string }[] = [];
  for (const [index, entry] of entries.entries()) {
    if (titles.length > 0 && startedAt !== null && entry.timestamp !== null && entry.timestamp < startedAt) continue;
    const title = promptTitle(entry);
    if (title !== null) titles.push({ index, title });
    if (titles.length === MAX_PROMPT_TITLES) break;
  }
  return titles;
}

function promptTitle(entry: Entry): string | null {
  if (entry.kind !== 'prompt') return null;
  const typed = entry.content
    .flatMap((block) => (block.type === 'text' && !attachedFilesOnly(block.text) ? [cutText(block.text.trimStart(), TITLE_LENGTH * 4)] : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const title = skillTitle(entry.skill, INVISIBLE.test(typed) ? '' : typed);
  if (title) return shorten(title);
  // A pasted screenshot with no words: a prompt all the same, named as the page's outline names it.
  return entry.content.some((block) => block.type === 'image') ? IMAGE_PROMPT : null;
}

/** A block of files attached to a prompt and nothing else (Pi's `<file name="…">…</file>`): it names nothing. */
function attachedFilesOnly(text: string): boolean {
  const length = attachedFilesLength(text);
  return length > 0 && length === text.length;
}

/** How a prompt of images alone is named, in titles and on its page. */
export const IMAGE_PROMPT = '(image prompt)';

/**
 * Titles name a session in lists and headings; the full name stays on its page. Cut as they are
 * shown, not as the file is read: a report that redacts makes them of its redacted text.
 */
export function shorten(text: string, length = TITLE_LENGTH): string {
  const oneLine = cutText(text.trimStart(), length * 4).replace(/\s+/g, ' ').trim();
  return oneLine.length > length ? `${cutText(oneLine, length - 1)}…` : oneLine;
}

function skillTitle(skill: SkillInvocation | null, typed: string): string {
  if (!skill) return typed;
  return typed ? `${skill.command} ${typed}` : skill.command;
}

/** A usage record's key: its claim, then its turn where it has one (a claim's own U+0001, from a hostile id, changed so that it names no turn). */
function usageKey(claim: string, turn: string | undefined): string {
  const key = claim.includes(CLAIM_TURN) ? claim.replaceAll(CLAIM_TURN, '\uFFFD') : claim;
  return turn === undefined ? key : `${key}${CLAIM_TURN}${turn}`;
}

/**
 * Entries at the end of an archived file that the same file, grown, may hold otherwise (Codex
 * writes the words sent twice, a moment apart: read between the two, a file ends on the first).
 */
export const GROWING_TAIL = 4;

/**
 * The output tokens an entry's usage records count, for telling a fuller reading of it from a
 * shorter: a response written as several lines counts its fullest (claude.md §9.2), whose prompt's
 * counts a model fallback may make smaller than the first line's, never its output.
 */
export function entryOutput(entry: LedgerEntry): number {
  let total = 0;
  for (const usage of entry.usage) total += usage.output;
  return total;
}
