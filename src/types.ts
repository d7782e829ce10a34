// The normalised types every source reader emits. Nothing outside `sources/<agent>/` knows an
// agent's raw field names; the model, pricing and report only see these.

import type { Diagnostic } from './diagnostics.js';

export const SOURCES = ['pi', 'claude', 'codex'] as const;
export type Source = (typeof SOURCES)[number];

/** The agents' names as people know them. */
export const SOURCE_NAMES = { pi: 'Pi', claude: 'Claude Code', codex: 'Codex' } as const satisfies Record<Source, string>;

/** Token counts of one usage record. `cacheWrite1h` is part of `cacheWrite`, `reasoning` part of `output`. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  reasoning: number;
}

/** Every kind of token count. */
export const TOKEN_KINDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'reasoning'] as const satisfies readonly (keyof TokenCounts)[];

/** No tokens, as a new object to add into. */
export function zeroTokens(): TokenCounts {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
}

/** Where a usage record was found: a reply, model work inside a tool, a summariser call, a sub-agent, or a usage entry. */
export type UsageOrigin = 'reply' | 'tool' | 'summary' | 'subagent' | 'usage-entry';

export interface Usage extends TokenCounts {
  origin: UsageOrigin;
  provider: string | null;
  /** The model that is billed, per the source's rule. */
  model: string | null;
  requestedModel: string | null;
  responseModel: string | null;
  /** USD as the agent stored it, or null when it stored none. */
  recordedCost: number | null;
  /** The agent's total came from the provider's bill rather than its own catalog. */
  recordedCostFromProvider: boolean;
  /** A model picked as "the one in use" because the record names none. */
  modelGuessed: boolean;
  timestamp: number | null;
  /**
   * What identifies this record across files, when it is not its entry's key: the same response
   * in several files (Claude: message id and request id) carries the same claim, and counts once.
   */
  claim: string | null;
  /**
   * The turn the record was written in, where its claim alone cannot tell a file's own record from
   * a copy (Codex): then it is a copy where another file holds its claim in the same turn, or,
   * written in no turn (''; a replay that left its turns out), where a file it was copied or
   * spawned from holds it in any turn; not where a file of the same lineage merely holds the same
   * counts in a turn of its own. Absent: the claim alone tells.
   */
  claimTurn?: string;
  /** The agent may not have written the response's final output count: `output` is a lower bound. */
  outputPartial: boolean;
  /** Served in fast mode (Claude Code's `speed: "fast"`): billed at a multiple of the standard rates. */
  fast: boolean;
  /** Server-side web searches the response made: billed per search, on top of its tokens. */
  webSearches: number;
  /**
   * The response this record is of, within its session, when the agent recorded one: a sub-agent's
   * record of a response a main thread also holds is a replay of it (Claude Code's side questions
   * replay the parent's messages under new request ids), and is not counted.
   */
  responseId: string | null;
  /** A count no agent could have meant (negative, fractional, absurd) was left out: its cost is known in part only. */
  countsLeftOut?: true;
  /** The record gives no token counts, only a cost or a total: its cost by the table is unknown (never $0). */
  countsUnknown?: true;
  /** Served by US-only inference (Claude's `inference_geo: "us"`): billed at the model's data-residency multiple. */
  usOnly?: true;
  /** Served in OpenAI's flex service tier (Codex's `service_tier: "flex"`): billed at the table's flex rates. */
  flex?: true;
  /** The record sums several requests (a sub-agent run's aggregate): its largest prompt, which a long-context tier goes by. */
  largestPrompt?: number;
}

/** What a tool call does, told by the source reader that knows the tool's arguments. */
export interface ToolEffect {
  action: 'read' | 'write' | 'edit' | 'shell' | 'search' | 'list' | 'delegate' | 'other';
  /** Paths the call names, resolved as the agent resolves them: relative to the cwd when inside it. */
  paths: string[];
  /** The shell command, for shell calls. */
  command: string | null;
  /** What the call is about, in a line: the command, the path, the pattern. */
  summary: string;
  /** What a search of files looks for (a regex, a glob); absent or null for other calls. */
  pattern?: string | null;
  /** What a web search asks; absent or null for other calls. */
  query?: string | null;
  /** The whole text a write call puts in its file; absent or null when the call carries none. */
  fileContent?: string | null;
}

/** A diff a tool reported: a unified patch, or an agent's own display diff (+/- and line numbers). */
export interface ToolDiff {
  format: 'unified' | 'display';
  text: string;
}

/** A `git commit` seen in a shell tool's result. */
export interface GitCommit {
  branch: string | null;
  hash: string | null;
  message: string | null;
  /** False when the command failed (the tool result was an error). */
  landed: boolean;
  /** The `[branch hash] message` line as git printed it, when it did. */
  line: string | null;
}

export type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string; redacted: boolean }
  | { type: 'toolCall'; id: string; name: string; arguments: unknown; argumentsError: string | null; effect: ToolEffect }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'unknown'; blockType: string; raw: unknown };

/** A skill invocation stored expanded in a prompt: the words typed are `text`, the skill body is folded. */
export interface SkillInvocation {
  /** A command of the user's own (Claude Code's custom or plugin slash command), its text expanded: no skill. Absent: a skill. */
  kind?: 'command';
  name: string;
  /** The command as the user typed it in that agent (Pi: `/skill:review`), without its arguments. */
  command: string;
  location: string | null;
  body: string;
}

/** A sub-agent run whose transcript survives only inside a tool result. */
export interface SubagentRun {
  agent: string;
  task: string;
  status: string | null;
  model: string | null;
  errorMessage: string | null;
  entries: Entry[];
  /** Its entries are the sub-agent's own records in the file (Claude Code's inline sidechain), not read from its tool's output. */
  ownRecords?: true;
  /** What the run's result says it used in all, when its messages say nothing (counted in the result's usage). */
  aggregate?: Usage[];
}

/** How a reply ended, the same words for every agent; the agent's own reason is kept beside it for display. */
export type ReplyOutcome = 'ok' | 'error' | 'aborted' | 'length';

export interface EntryBase {
  /** Dedupe key across files (Pi: id + timestamp). */
  key: string;
  id: string;
  parentId: string | null;
  /** Milliseconds since the epoch, or null when the record had no readable time. */
  timestamp: number | null;
  /** 1-based line in the file. */
  line: number;
  /** Usage records carried by this entry (empty for most kinds). */
  usage: Usage[];
  /** True when the entry was recovered from a damaged line (glued or truncated). */
  recovered: boolean;
  /** Other ids it was recorded under (the lines of one response, merged), which other files may name. */
  aliases?: string[];
  /** Made from a file beside the session's (a Codex thread's name in session_index.jsonl), not from one of its lines. */
  fromBeside?: true;
}

export type EntryPayload =
  /** `queued`: typed while the agent worked, and given to it between two of its steps (Claude Code's steering). */
  | { kind: 'prompt'; content: Block[]; skill: SkillInvocation | null; queued?: true }
  | {
      kind: 'reply';
      content: Block[];
      outcome: ReplyOutcome;
      /** The stop reason as the agent wrote it. */
      stopReason: string | null;
      errorMessage: string | null;
      provider: string | null;
      model: string | null;
      responseModel: string | null;
    }
  | { kind: 'toolCall'; call: Extract<Block, { type: 'toolCall' }> }
  | {
      kind: 'toolResult';
      toolCallId: string | null;
      toolName: string | null;
      content: Block[];
      isError: boolean;
      subagents: SubagentRun[];
      /** The edit's diff, when the tool reported one. */
      diff: ToolDiff | null;
      /** Lines added and removed by an edit, from its diff; of each file, where it changed several (Codex's apply_patch). */
      change: { added: number; removed: number; files?: FileChange[] } | null;
      commits: GitCommit[];
      /** Calls the tool made inside itself (code mode). */
      nestedCalls: { name: string; status: string | null; error: string | null }[];
      /**
       * The name of the file beside the session that holds the whole output, where the result
       * holds only its start (Claude Code's `<persisted-output>`, in `<session>/tool-results/`):
       * read for the pages.
       */
      savedOutput?: string;
    }
  | {
      kind: 'shell';
      command: string;
      output: string;
      /** Null when the agent records one and there is none (the process was killed). */
      exitCode: number | null;
      /** Whether the agent records an exit code at all: Claude Code's bash mode (`!cmd`) does not. */
      exitCodeRecorded: boolean;
      cancelled: boolean;
      truncated: boolean;
      excludedFromContext: boolean;
    }
  | { kind: 'modelChange'; provider: string | null; model: string | null }
  | { kind: 'thinkingChange'; level: string | null }
  | { kind: 'compaction'; summary: string; tokensBefore: number | null; firstKeptEntryId: string | null }
  | { kind: 'branchSummary'; summary: string; fromId: string | null }
  | { kind: 'label'; targetId: string | null; label: string | null }
  | { kind: 'name'; name: string | null }
  | { kind: 'contextEdit'; targetId: string | null; omitted: boolean; replacement: Block[] | null }
  | {
      kind: 'custom';
      customType: string;
      /** Sent to the model as a message (Pi custom_message), or extension state only. */
      isMessage: boolean;
      display: boolean;
      content: Block[];
      data: unknown;
    }
  | { kind: 'system'; content: Block[]; sections: Record<string, string | null>; toolsAdded: string[]; toolsRemoved: string[] }
  | { kind: 'usageOnly'; usageKind: string; note: string | null }
  /**
   * Something written into the conversation that nobody typed as a prompt and no model wrote as a
   * reply: a slash command's echo or output, context the agent injected (instructions, environment,
   * reminders), a hook's note, an interruption, a local notice. Shown small and folded; never a turn.
   */
  | {
      kind: 'notice';
      label: string;
      tone: 'info' | 'warn';
      summary: string;
      content: Block[];
      /** What a command the user ran printed (a slash command's output): left out with tool output. */
      output?: true;
      /** Instructions and context the agent put before the model (a system reminder, AGENTS.md, developer instructions): left out with the system prompt. */
      injected?: true;
    }
  | { kind: 'unknown'; rawType: string; raw: unknown };

export type Entry = EntryBase & EntryPayload;
export type EntryKind = Entry['kind'];
export type EntryOf<K extends EntryKind> = Extract<Entry, { kind: K }>;

/** One session file as a source reader understood it. */
export interface SessionFile {
  source: Source;
  path: string;
  size: number;
  mtime: number;
  sessionId: string;
  /** Working directory from the records, never decoded from folder names; null when absent. */
  cwd: string | null;
  /**
   * The name of the folder the agent filed the session under by project (an encoded working
   * directory), or null when it files sessions otherwise: a grouping key for sessions whose
   * records name no cwd, never decoded into a path.
   */
  projectFolder: string | null;
  /** Header time in ms, or null. */
  startedAt: number | null;
  /** The file this one was copied from, as recorded (a path from the writing machine, or a session id). */
  parentFile: string | null;
  /** The file still has the name the agent gives the files it writes (a copy made by hand usually has not). */
  namedByAgent: boolean;
  /** The session id of the file this one was copied or forked from, as the reader read it from the file's name or records. */
  parentSessionId: string | null;
  /** The session this file is a sub-agent of (its id as recorded): its usage counts in that session. */
  subagentOf: string | null;
  /** What the sub-agent was for, as recorded (its type, its task, "warmup", "compaction"); null for a main session. */
  subagentLabel: string | null;
  /** The id its parent's tool calls name this sub-agent by (Claude Code's agentId, a Codex thread's id); null for a main session. */
  subagentId: string | null;
  /** Sub-agents this file's tool calls started, each by the id above: a page links a call to the sub-agent's transcript. */
  startedSubagents: { callId: string; subagentId: string }[];
  /** Copies of sub-agents' requests the file holds (see SubagentCopies); absent where it holds none. */
  subagentCopies?: SubagentCopies[];
  /** Titles this file gives to entries of other files (a summary of an earlier session names the entry it ends at). */
  entryTitles: { entryId: string; title: string }[];
  /**
   * What the agent's own running totals said its session had spent so far, by model, where it
   * wrote them (Claude Code 2.1.3xx's `cost-state`): requests it wrote nowhere else are the
   * difference to what its files hold. Absent where it wrote none.
   */
  runningTotals?: RunningTotals[];
  formatVersion: number;
  /** The agent's own versions as the file records them, in the order first written (Claude Code's on each line, Codex's in its session_meta); absent where none is recorded. */
  agentVersions?: string[];
  entries: Entry[];
  diagnostics: Diagnostic[];
  /** Lines read, including bad ones. */
  lineCount: number;
}

/**
 * Claude Code's copies, in a session's file, of the requests one of its sub-agents made (2.1's
 * `agent_progress` lines): no usage, as the sub-agent's transcript holds each request (claude.md
 * §8.2), but all that tells of them where that transcript is not among the files read.
 */
export interface SubagentCopies {
  /** The sub-agent they are of, by the id its transcript goes by (SessionFile.subagentId). */
  subagentId: string;
  /** The line of its first copy. */
  line: number;
  /** When its first and last copied requests were written (ms), where the copies say. */
  from: number | null;
  to: number | null;
  /** Its requests copied, each once (the lines of one response, by message and request id). */
  requests: number;
  /** Their counts, each request's fullest copy. */
  counts: TokenCounts;
  /** The models they name (a few at most). */
  models: string[];
}

/** Lines one file gained and lost in an edit of several files. */
export interface FileChange {
  path: string;
  added: number;
  removed: number;
}

/** An agent's running totals of a session at one point, by model (see SessionFile.runningTotals). */
export interface RunningTotals {
  /** The time of the latest record of the file written before them: where what they hold beyond it is placed. */
  time: number;
  /** The time of the first record of the file written after them (a later process's): what they hold was spent before then. Null: none written after. */
  until: number | null;
  /** They hold what the file does not (a copy's, its origin's): a baseline, those after it measured from it. */
  baseline?: true;
  models: { model: string; counts: TokenCounts; webSearches: number }[];
}

/** Parts a usage record's key from the turn it was written in (see Usage.claimTurn); never in a key otherwise. */
export const CLAIM_TURN = '\u0001';
