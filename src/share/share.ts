// Makes session data fit to send: --redact replaces secrets and the home folder in every text
// bough will show or write, --omit drops whole kinds of content. Runs on each file as it is read,
// before its ledger is made, so pages, summary.json and usage.csv are all built from the cleaned
// data. Pure: the counts of what was replaced build up on the sharer.

import { createHmac } from 'node:crypto';
import type { Diagnostic } from '../diagnostics.js';
import type { Block, Entry, EntryPayload, SessionFile, SubagentRun, ToolEffect, Usage } from '../types.js';
import { withoutImageMetadata } from './image-metadata.js';
import { createRedactor, cutsMarker, markersIn, type Redactor } from './redact.js';
import { fileItPrints, isQuotedSecret, printedSecrets, printsSecret, type PrintedSecret } from './printed-secrets.js';
import { isPairValue, pairedSecretName, secretNameOf } from './secrets.js';
import { sha256Hex } from '../sha256.js';
import { cutText } from '../unicode-text.js';

export const OMIT_KINDS = ['thinking', 'tool-output', 'system'] as const;
export type OmitKind = (typeof OMIT_KINDS)[number];

export interface ShareOptions {
  redact: boolean;
  omit: ReadonlySet<OmitKind>;
  /** The home folder of the user running bough, replaced with ~ when redacting. */
  home: string | null;
  /** The same home as the file system resolves it, when that is another path (see resolvedHome). */
  resolvedHome?: string | null;
  /** The secret a redacting sharer hashes entry keys with (hex; see keysOf); none: keys as read. */
  keySecret?: string | null;
}

/**
 * How a redacting sharer names entries. A reader keys an entry by what it holds (a hash of a
 * prompt's text, of a record without an id): written to a report's archive as they are, such
 * hashes let its reader confirm a guess at a redacted password or home folder. Hashed again with a
 * secret kept outside the report (this machine's, key-secret.ts), they tie the same entries
 * together in this build and in later ones into the same folder, and tell nothing. `check` names the secret
 * in the archive, so that a later build knows whether its keys are its own.
 */
export interface EntryKeys {
  check: string;
  key(value: string): string;
}

function keysOf(secret: string): EntryKeys {
  const bytes = Buffer.from(secret, 'hex');
  return {
    check: createHmac('sha256', bytes).update('bough: the secret entry keys are hashed with').digest('hex').slice(0, 16),
    key: (value) => `k${createHmac('sha256', bytes).update(value).digest('hex').slice(0, 32)}`,
  };
}

export interface Sharer {
  file(file: SessionFile): SessionFile;
  diagnostic(d: Diagnostic): Diagnostic;
  /** Applies the same redaction to bough's own text about the inputs (paths of places read). */
  text(value: string): string;
  /** Replacements by kind so far, when redacting. */
  readonly redactions: ReadonlyMap<string, number>;
  /** Counts replacements a sharer made with the same options elsewhere (a reading thread) as its own. */
  addRedactions(counts: Iterable<readonly [string, number]>): void;
  /** False when it changes nothing (no --redact, no --omit): what it passes is the plain reading. */
  readonly changes: boolean;
  /** What it was made with: a reading thread makes the same sharer from them. */
  readonly options: ShareOptions;
  /** How it names entries, when it hashes their keys (redacting with a secret); null when they are kept as read. */
  readonly keys: EntryKeys | null;
}

const MAX_JSON_DEPTH = 100;
const TOO_DEEP = '[nested too deep to show]';

export const OMITTED = {
  thinking: '[thinking omitted from this report]',
  'tool-output': '[tool output omitted from this report]',
  system: '[system prompt omitted from this report]',
} as const satisfies Record<OmitKind, string>;

/** What --omit system leaves of instructions and context the agent put before the model. */
export const INJECTED_OMITTED = '[instructions and context for the model omitted from this report]';

/**
 * A reminder Claude Code appends to a tool's output for the model: on lines of its own, or cut off
 * at the end of the output. A whole one inside a line is the tool's text (a file that holds it).
 */
const SYSTEM_REMINDER = /^<system-reminder>[\s\S]*?(?:<\/system-reminder>|(?![\s\S]))|<system-reminder>(?![\s\S]*<\/system-reminder>)[\s\S]*(?![\s\S])/gm;

/** A tool's output without the reminders the agent appended to it for the model. */
function withoutReminders(blocks: readonly Block[]): Block[] {
  return blocks.map((block) => (block.type === 'text' && block.text.includes('<system-reminder>') ? { ...block, text: block.text.replace(SYSTEM_REMINDER, INJECTED_OMITTED) } : block));
}

export function createSharer(options: ShareOptions): Sharer {
  const redactor: Redactor | null = options.redact ? createRedactor([options.home, options.resolvedHome ?? null]) : null;
  const text = redactor ? (value: string) => redactor.text(value) : (value: string) => value;
  const redactions = redactor?.counts ?? new Map<string, number>();
  const addRedactions = (counts: Iterable<readonly [string, number]>) => {
    // Less where what was counted is not shown after all (a file cut short, its archive shown instead).
    for (const [kind, n] of counts) {
      const now = (redactions.get(kind) ?? 0) + n;
      if (now > 0) redactions.set(kind, now);
      else redactions.delete(kind);
    }
  };
  if (!redactor && options.omit.size === 0) {
    return { file: (file) => file, diagnostic: (d) => d, text, redactions, addRedactions, changes: false, options, keys: null };
  }
  const keys = redactor && options.keySecret ? keysOf(options.keySecret) : null;
  const field = redactor ? (name: string, value: string) => redactor.field(name, value) : (_: string, value: string) => value;
  const image = redactor ? (block: ImageBlock) => withoutMetadata(block, redactions) : (block: ImageBlock) => block;
  const finds = redactor ? (value: string) => redactor.finds(value) : () => false;
  const uncounted = redactor ? (value: string) => redactor.uncounted(value) : (value: string) => value;
  const opaque = (value: string): string | null => {
    if (!redactor || !isEncodedData(value)) return null;
    redactions.set(ENCODED_DATA, (redactions.get(ENCODED_DATA) ?? 0) + 1);
    return `[${encodedDataSize(value)} of encoded data left out: a redacted report cannot look into it]`;
  };
  // A code for what a folder's name was, where redacting took all of it: made with the secret alone.
  const folderCode = keys ? (name: string) => keys.key(`folder\u0000${name}`).slice(1, 9) : null;
  const secretsIn = redactor ? (value: string) => redactor.secretsIn(value) : () => [];
  const counted = (kind: string, n: number) => addRedactions([[kind, n]]);
  const walk = new Walker(text, { secretsIn, counted }, field, image, finds, uncounted, options.omit, redactor ? secretNameOf : () => null, keys ? keys.key : (value) => value, opaque, folderCode, redactor !== null);
  return {
    file: (file) => walk.file(file),
    diagnostic: (d) => walk.diagnostic(d),
    text,
    redactions,
    addRedactions,
    changes: true,
    options,
    keys,
  };
}

/** How much of a notice's text its line is redacted with: what says what the line is, near it. */
const LINE_CONTEXT = 4000;

/** A folded secret shorter than this is a word a folder's name may hold for other reasons. */
const FOLDED_SECRET_MIN = 12;

/** The kind a secret a command printed alone is counted under. */
const PRINTED_SECRET = 'printed-secret';

interface PrintedSecrets {
  /** By the output that printed them (a tool result's content, a shell entry's text), in their spellings. */
  outputs: ReadonlyMap<readonly Block[] | string, readonly string[]>;
  /** Those to take from every text of the file (see isQuotedSecret), in their spellings, longest first. */
  everywhere: readonly string[];
}

const NOTHING_PRINTED: PrintedSecrets = { outputs: new Map(), everywhere: [] };

/**
 * A command going on after its call returned, by what it is later read by: Codex's unified exec's
 * session (a later `write_stdin` to it), Claude Code's shell in the background (a later
 * `BashOutput` of its id, or a Read of the file its output is written to).
 */
const RUNNING_SESSION = /^Process running with session ID (\d+)$|running in background with ID: ([\w-]+)(?:\. Output is being written to: (\S+))?/m;

/** The ids by which a later call reads a command going on: Codex's `write_stdin`, Claude Code's `BashOutput`/`TaskOutput`. */
const POLL_ID_FIELDS = ['session_id', 'bash_id', 'shell_id', 'task_id'] as const;

/** What a call goes on reading of a command going on (see RUNNING_SESSION): its id, or the output file it reads (`cat`, `tail`, a Read). */
function pollsOf(block: Extract<Block, { type: 'toolCall' }>): string[] {
  const args = typeof block.arguments === 'object' && block.arguments !== null ? (block.arguments as Record<string, unknown>) : {};
  const ids = POLL_ID_FIELDS.map((field) => args[field]).filter((id) => typeof id === 'string' || typeof id === 'number').map(String);
  const file = block.effect.command === null ? null : fileItPrints(block.effect.command);
  return [...ids, ...block.effect.paths, ...(file === null ? [] : [file])];
}

/** A command that decodes what it is given: `echo <base64 printed before> | base64 -d`. */
const DECODES = /\|[ \t]*base64[ \t]+(?:-d|--decode|-D)\b/;

/**
 * The secrets a file's commands printed alone: by the output that printed them, and those to take
 * from every text of the file. Read before the file is walked, so that a text before the output
 * loses them too. A call goes on printing where it polls a running command that was printing one
 * (Codex's `write_stdin`), or decodes one printed before (`kubectl … '{.data.password}'`, then
 * `echo <it> | base64 -d`).
 */
function printedIn(entries: readonly Entry[]): PrintedSecrets {
  const calls = new Map<string, PrintedSecret>();
  const sessions = new Map<string, PrintedSecret>();
  const outputs = new Map<readonly Block[] | string, string[]>();
  const quoted = new Set<string>();
  const noteCall = (block: Block) => {
    if (block.type !== 'toolCall') return;
    const command = block.effect.command;
    const session = sessions.size === 0 ? undefined : pollsOf(block).map((id) => sessions.get(id)).find((mode) => mode !== undefined);
    const printed = (command === null ? null : printsSecret(command) ?? decodesPrinted(command, quoted)) ?? session;
    if (printed != null) calls.set(block.id, printed);
  };
  const output = (key: readonly Block[] | string, text: string, printed: PrintedSecret) => {
    const secrets = printedSecrets(text, printed);
    if (secrets.length === 0) return;
    outputs.set(key, spellings(secrets));
    for (const secret of secrets) if (isQuotedSecret(secret)) quoted.add(secret);
  };
  const visit = (entry: Entry) => {
    if (entry.kind === 'reply' || entry.kind === 'prompt') entry.content.forEach(noteCall);
    else if (entry.kind === 'toolCall') noteCall(entry.call);
    else if (entry.kind === 'toolResult') {
      const printed = entry.toolCallId === null ? undefined : calls.get(entry.toolCallId);
      if (printed !== undefined) {
        const text = entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
        const running = RUNNING_SESSION.exec(text.slice(0, 2000));
        for (const id of running?.slice(1) ?? []) if (id !== undefined) sessions.set(id, printed);
        output(entry.content, text, printed);
      }
      for (const run of entry.subagents) run.entries.forEach(visit);
    } else if (entry.kind === 'shell') {
      const printed = printsSecret(entry.command) ?? decodesPrinted(entry.command, quoted);
      if (printed !== null) output(entry.output, entry.output, printed);
    }
  };
  entries.forEach(visit);
  if (outputs.size === 0) return NOTHING_PRINTED;
  return { outputs, everywhere: spellings([...quoted]) };
}

/** A command that decodes a secret printed before it prints one too. */
function decodesPrinted(command: string, printed: ReadonlySet<string>): PrintedSecret | null {
  if (printed.size === 0 || !DECODES.test(command)) return null;
  for (const secret of printed) if (command.includes(secret)) return 'whole';
  return null;
}

/** Secrets as a text may hold them: as printed, and escaped in a JSON string (a Codex output's), longest first. */
function spellings(secrets: readonly string[]): string[] {
  return [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))].sort((a, b) => b.length - a.length);
}

/** What a word a secret stands as goes on with: `rg-shop-a3f9c2d1` holds no word `a3f9c2d1`, a sentence's end does. */
function goesOnBefore(text: string, at: number): boolean {
  const c = text[at - 1];
  // An escaped line's end or tab in a JSON string (`\\nSECRET`) ends the word before.
  if (c === 'n' || c === 't' || c === 'r') return text[at - 2] !== '\\';
  return c !== undefined && (/[A-Za-z0-9_-]/.test(c) || (c === '.' && /[A-Za-z0-9_]/.test(text[at - 2] ?? '')));
}

function goesOnAfter(text: string, end: number): boolean {
  const c = text[end];
  return c !== undefined && (/[A-Za-z0-9_-]/.test(c) || (c === '.' && /[A-Za-z0-9_]/.test(text[end + 1] ?? '')));
}

/** Where the secrets stand in a text, each looked for in turn. */
function secretsOneByOne(text: string, secrets: readonly string[]): (readonly [number, number])[] {
  const spans: (readonly [number, number])[] = [];
  for (const secret of secrets) {
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) spans.push([at, at + secret.length]);
  }
  return spans;
}

/** Secrets looked for by the first characters of a word when there are more than this: each text is then read once, not once for each. */
const SECRETS_LOOKED_FOR_ONE_BY_ONE = 8;
const SECRET_PREFIX = 8;

/** How many ids the walker remembers what it made of. */
const RECENT_IDS = 4096;

class Walker {
  private readonly ids = new Map<string, string>();
  /**
   * Under --omit tool-output, the ids of the file's entries that are no tool output: a context
   * edit's text put in place of any other entry (a tool result, or one not in the file) is left out.
   */
  private notOutput: ReadonlySet<string> | null = null;

  constructor(
    /** The redactor's text: `t` is it with the file's printed secrets taken first. */
    private readonly redacted: (value: string) => string,
    /** The secrets a file's working directory holds, to find as an agent spelled them in folder names made of it (see file). */
    private readonly folding: { secretsIn: (value: string) => { text: string; kind: string }[]; counted: (kind: string, n: number) => void },
    private readonly field: (name: string, value: string) => string,
    private readonly image: (block: ImageBlock) => ImageBlock,
    private readonly finds: (value: string) => boolean,
    /** `t`, counted nowhere. */
    private readonly uncounted: (value: string) => string,
    private readonly omit: ReadonlySet<OmitKind>,
    /** The secret's name a JSON field gives what it holds, or null (always, when nothing is redacted). */
    private readonly secretNameOf: (name: string, value: unknown) => string | null,
    /** An entry's key or a usage record's claim as written (see EntryKeys). */
    private readonly key: (value: string) => string,
    /** What a redacting sharer shows of data it cannot look into (a document's bytes), or null to go on. */
    private readonly opaque: (value: string) => string | null,
    /** A short code for a folder's name, made with the machine's secret; null when there is none. */
    private readonly folderCode: ((name: string) => string) | null = null,
    /** Whether secrets are redacted: then a secret a command printed alone goes too (see printed-secrets.ts). */
    private readonly redacting = false,
  ) {}

  /**
   * The secrets the file's commands printed alone (see printed-secrets.ts), each with its spellings
   * in a JSON string, longest first: the outputs lose them, and so does every other text of the
   * file that quotes one long enough to be no common word (the agent's reply naming the key).
   */
  private printed: PrintedSecrets = NOTHING_PRINTED;

  /** Lists of printed secrets by their first characters, when they are many (see secretsByPrefix): each list's made once. */
  private prefixes = new WeakMap<readonly string[], { index: Map<string, string[]>; shortest: number }>();

  /** A text of the file as the redactor leaves it, without the secrets its commands printed alone. */
  private readonly t = (value: string): string => this.redacted(this.printed.everywhere.length === 0 ? value : this.printedMarked(value, this.printed.everywhere));

  /**
   * A folder's name, redacted as it is inside a path: a folded home folder is told by its place
   * there. Another machine's user's (`-Users-ana-smith-shop`) goes whole, where that user's name
   * ends not being written: a code of what it was tells it from the others (sessions recording no
   * working directory are grouped by it), or all of them were one project `-~`.
   */
  private folderName(name: string): string {
    const inPath = this.p(`/${name}/`);
    const shown = inPath.startsWith('/') && inPath.endsWith('/') ? inPath.slice(1, -1) : this.p(name);
    return shown !== name && this.folderCode !== null && /^(?:-{1,2}(?:mnt|cygdrive|var|usr|export)-)?[A-Za-z]?-{0,2}~-{0,2}$/.test(shown) ? `${shown}-${this.folderCode(name)}` : shown;
  }

  /**
   * The secrets of the file being shared as Claude Code writes them in a project folder's name,
   * which it makes of the working directory with every character but a letter or digit as `-`: a
   * token with `_` in it (`ghp_…`) is there as `ghp-…`, which no rule knows. Told from the working
   * directory the file records, not guessed from a folder's words (`work-live-…` is no key).
   */
  private folded: { text: string; kind: string }[] = [];

  /**
   * A path, or a folder's name: redacted, and the file's secrets as folded into folder names. Not
   * the secrets its commands printed (see `printed`): a file's place and its project are named
   * alike in every file, and a word printed in one must not split a project in two.
   */
  private p(value: string): string {
    let shown = this.redacted(value);
    for (const { text, kind } of this.folded) {
      const parts = shown.split(text);
      if (parts.length < 2) continue;
      this.folding.counted(kind, parts.length - 1);
      shown = parts.join(`[REDACTED:${kind}]`);
    }
    return shown;
  }

  private maybe(value: string | null): string | null {
    return value === null ? null : this.t(value);
  }

  file(file: SessionFile): SessionFile {
    const fold = (text: string) => text.replace(/[^A-Za-z0-9]/g, '-');
    this.folded = (file.cwd === null ? [] : this.folding.secretsIn(file.cwd)).map(({ text, kind }) => ({ text: fold(text), kind })).filter(({ text }) => text.length >= FOLDED_SECRET_MIN);
    this.printed = this.redacting ? printedIn(file.entries) : NOTHING_PRINTED;
    try {
      return this.shared(file);
    } finally {
      this.folded = [];
      this.printed = NOTHING_PRINTED;
    }
  }

  private shared(file: SessionFile): SessionFile {
    const parentFile = file.parentFile === null ? null : this.p(file.parentFile);
    this.notOutput = this.omit.has('tool-output') ? new Set(file.entries.filter((e) => e.kind !== 'toolResult' && e.kind !== 'shell').map((e) => e.id)) : null;
    return {
      ...file,
      path: this.p(file.path),
      sessionId: this.redacted(file.sessionId),
      cwd: file.cwd === null ? null : this.redacted(file.cwd),
      // Encoded home folders (`-home-ana-shop`, another machine's `-Users-bob-shop`) are redacted as a folder of a path is.
      projectFolder: file.projectFolder === null ? null : this.folderName(file.projectFolder),
      parentFile,
      // Ids pass through the same redaction as the session ids they name, so they still match.
      parentSessionId: this.parentSessionId(file.parentSessionId, file.parentFile, parentFile),
      subagentOf: this.maybe(file.subagentOf),
      subagentLabel: this.maybe(file.subagentLabel),
      subagentId: this.maybeId(file.subagentId),
      startedSubagents: file.startedSubagents.map((s) => ({ callId: this.id(s.callId), subagentId: this.id(s.subagentId) })),
      // Named by the id its transcript goes by, passed through the same redaction; models as a reply's are.
      ...(file.subagentCopies === undefined ? {} : { subagentCopies: file.subagentCopies.map((copies) => ({ ...copies, subagentId: this.id(copies.subagentId), models: copies.models.map(this.t) })) }),
      entryTitles: file.entryTitles.map((t) => ({ entryId: this.id(t.entryId), title: this.t(t.title) })),
      // A build's own version string may hold a path or a token (`0.0.0-dev+/home/bob/src/codex`).
      ...(file.agentVersions === undefined ? {} : { agentVersions: file.agentVersions.map(this.t) }),
      // Claude Code's running totals name the models as they were asked for, as a reply does.
      ...(file.runningTotals === undefined ? {} : { runningTotals: file.runningTotals.map((totals) => ({ ...totals, models: totals.models.map((used) => ({ ...used, model: this.t(used.model) })) })) }),
      entries: file.entries.map((entry) => this.entry(entry)),
      diagnostics: file.diagnostics.map((d) => this.diagnostic(d)),
    };
  }

  diagnostic(d: Diagnostic): Diagnostic {
    return { ...d, file: this.p(d.file), detail: this.t(d.detail) };
  }

  /**
   * The session a file goes on from, by its id: one Pi took from the parent's file name (its part
   * after the first `_`) is a piece of that name, which redaction may have taken as part of a
   * secret (`ghp_…`) it no longer knows alone. Such a piece is hashed, as a secret-bearing id is.
   */
  private parentSessionId(id: string | null, parentFile: string | null, parentFileShown: string | null): string | null {
    if (id === null) return null;
    const fromName = id !== '' && parentFile !== null && parentFile.includes(id);
    return fromName && !(parentFileShown ?? '').includes(id) ? this.hashedId(id) : this.t(id);
  }

  private hashedId(value: string): string {
    // Keyed where entry keys are: a plain hash of a secret-bearing id would confirm a guess at it.
    return `redacted-${sha256Hex(this.key(value)).slice(0, 24)}`;
  }

  private entry(entry: Entry): Entry {
    const usage = entry.usage.map((u) => this.usage(u));
    const ids = { key: this.key(this.id(entry.key)), id: this.id(entry.id), parentId: this.maybeId(entry.parentId), ...(entry.aliases ? { aliases: entry.aliases.map((a) => this.id(a)) } : {}) };
    return { ...entry, ...this.payload(entry), ...ids, usage } as Entry;
  }

  /**
   * An id or a key as the pages and the archive may show it. Agents write ids, times and hashes
   * there; a few keys carry a text of the file (a Codex thread's name, a record type no agent
   * wrote), and a hostile file may put anything in an id. One that would be redacted is a hash of
   * itself: it still ties the same entries together, in this file and in others, and tells apart
   * two that redaction would make alike. Not counted as a redaction: the text a key carries is
   * counted where it is shown (a thread's name).
   */
  private id(value: string): string {
    let shown = this.ids.get(value);
    if (shown === undefined) {
      shown = this.finds(value) ? this.hashedId(value) : value;
      // An id comes back soon (as the next entry's parent, as a result's call): a few thousand
      // spare most of the searches, and a long session does not grow the map.
      if (this.ids.size >= RECENT_IDS) this.ids.clear();
      this.ids.set(value, shown);
    }
    return shown;
  }

  private maybeId(value: string | null): string | null {
    return value === null ? null : this.id(value);
  }

  private payload(entry: Entry): EntryPayload {
    switch (entry.kind) {
      case 'prompt':
        return {
          kind: 'prompt',
          content: this.blocks(entry.content),
          skill: entry.skill && { ...(entry.skill.kind ? { kind: entry.skill.kind } : {}), name: this.t(entry.skill.name), command: this.t(entry.skill.command), location: this.maybe(entry.skill.location), body: this.t(entry.skill.body) },
        };
      case 'reply':
        return {
          kind: 'reply',
          content: this.blocks(entry.content),
          outcome: entry.outcome,
          stopReason: entry.stopReason,
          errorMessage: this.maybe(entry.errorMessage),
          provider: this.maybe(entry.provider),
          model: this.maybe(entry.model),
          responseModel: this.maybe(entry.responseModel),
        };
      case 'toolCall':
        return { kind: 'toolCall', call: this.toolCall(entry.call) };
      case 'toolResult': {
        const omitted = this.omit.has('tool-output');
        return {
          kind: 'toolResult',
          toolCallId: this.maybeId(entry.toolCallId),
          toolName: this.maybe(entry.toolName),
          content: omitted ? [{ type: 'text', text: OMITTED['tool-output'] }] : this.blocks(this.withoutPrintedSecret(entry.content, this.omit.has('system') ? withoutReminders(entry.content) : entry.content)),
          isError: entry.isError,
          subagents: entry.subagents.map((run) => this.subagent(run, omitted)),
          diff: omitted || entry.diff === null ? null : { format: entry.diff.format, text: this.t(entry.diff.text) },
          // Each file's path, as the call's own paths are.
          change: entry.change === null ? null : { added: entry.change.added, removed: entry.change.removed, ...(entry.change.files ? { files: entry.change.files.map((f) => ({ ...f, path: this.t(f.path) })) } : {}) },
          // Read from what git printed: with the output left out, a commit keeps only its hash and whether it landed.
          commits: entry.commits.map((c) => (omitted ? { ...c, branch: null, message: null, line: null } : { ...c, branch: this.maybe(c.branch), message: this.maybe(c.message), line: this.maybe(c.line) })),
          // A nested call's error is what the tool it called printed.
          nestedCalls: entry.nestedCalls.map((c) => ({ name: this.t(c.name), status: this.maybe(c.status), error: omitted ? null : this.maybe(c.error) })),
        };
      }
      case 'shell':
        return {
          ...entry,
          command: this.t(entry.command),
          output: this.omit.has('tool-output') ? OMITTED['tool-output'] : this.t(this.printedMarked(entry.output, this.printed.outputs.get(entry.output) ?? [])),
        };
      case 'modelChange':
        return { kind: 'modelChange', provider: this.maybe(entry.provider), model: this.maybe(entry.model) };
      case 'thinkingChange':
        return { kind: 'thinkingChange', level: this.maybe(entry.level) };
      case 'compaction':
        return { kind: 'compaction', summary: this.t(entry.summary), tokensBefore: entry.tokensBefore, firstKeptEntryId: this.maybeId(entry.firstKeptEntryId) };
      case 'branchSummary':
        return { kind: 'branchSummary', summary: this.t(entry.summary), fromId: this.maybeId(entry.fromId) };
      case 'label':
        return { kind: 'label', targetId: this.maybeId(entry.targetId), label: this.maybe(entry.label) };
      case 'name':
        return { kind: 'name', name: this.maybe(entry.name) };
      case 'contextEdit':
        return {
          kind: 'contextEdit',
          targetId: this.maybeId(entry.targetId),
          omitted: entry.omitted,
          replacement:
            entry.replacement && (this.notOutput === null || this.notOutput.has(entry.targetId ?? '') ? this.blocks(entry.replacement) : [{ type: 'text', text: OMITTED['tool-output'] }]),
        };
      case 'notice':
        if (entry.output && this.omit.has('tool-output')) {
          const omitted = OMITTED['tool-output'];
          return { kind: 'notice', label: this.t(entry.label), tone: entry.tone, summary: omitted, content: [{ type: 'text', text: omitted }], output: true };
        }
        if (entry.injected && this.omit.has('system')) {
          return { kind: 'notice', label: this.t(entry.label), tone: entry.tone, summary: INJECTED_OMITTED, content: [{ type: 'text', text: INJECTED_OMITTED }], injected: true };
        }
        return {
          kind: 'notice',
          label: this.t(entry.label),
          tone: entry.tone,
          summary: this.lineOf(entry.summary, entry.content),
          content: this.blocks(entry.content),
          ...(entry.output ? { output: true } : {}),
          ...(entry.injected ? { injected: true } : {}),
        };
      case 'custom':
        return {
          kind: 'custom',
          customType: this.t(entry.customType),
          isMessage: entry.isMessage,
          display: entry.display,
          content: this.blocks(entry.content),
          data: this.json(entry.data),
        };
      case 'system':
        if (this.omit.has('system')) {
          return { kind: 'system', content: [{ type: 'text', text: OMITTED.system }], sections: {}, toolsAdded: entry.toolsAdded.map(this.t), toolsRemoved: entry.toolsRemoved.map(this.t) };
        }
        return {
          kind: 'system',
          content: this.blocks(entry.content),
          sections: Object.fromEntries(Object.entries(entry.sections).map(([k, v]) => [this.t(k), this.maybe(v)])),
          toolsAdded: entry.toolsAdded.map(this.t),
          toolsRemoved: entry.toolsRemoved.map(this.t),
        };
      case 'usageOnly':
        return { kind: 'usageOnly', usageKind: this.t(entry.usageKind), note: this.maybe(entry.note) };
      case 'unknown':
        return { kind: 'unknown', rawType: this.t(entry.rawType), raw: this.json(entry.raw) };
    }
  }

  private usage(u: Usage): Usage {
    const claim = this.maybeId(u.claim);
    return {
      ...u,
      provider: this.maybe(u.provider),
      model: this.maybe(u.model),
      requestedModel: this.maybe(u.requestedModel),
      responseModel: this.maybe(u.responseModel),
      claim: claim === null ? null : this.key(claim),
      ...(u.claimTurn === undefined ? {} : { claimTurn: this.id(u.claimTurn) }),
      responseId: this.maybeId(u.responseId),
    };
  }

  private subagent(run: SubagentRun, omitOutput: boolean): SubagentRun {
    return {
      ...(run.aggregate ? { aggregate: run.aggregate.map((u) => this.usage(u)) } : {}),
      agent: this.t(run.agent),
      task: this.t(run.task),
      status: this.maybe(run.status),
      model: this.maybe(run.model),
      // Read from its tool's output, as its conversation is.
      errorMessage: omitOutput && !run.ownRecords ? null : this.maybe(run.errorMessage),
      // A sub-agent's conversation read from its tool's output is output; its usage stays counted on
      // the tool result. One of its own records in the file is kept as a sub-agent's file is.
      entries: omitOutput && !run.ownRecords ? [] : run.entries.map((entry) => this.entry(entry)),
      ...(run.ownRecords ? { ownRecords: true as const } : {}),
    };
  }

  private blocks(blocks: readonly Block[]): Block[] {
    return blocks.map((block): Block => {
      switch (block.type) {
        case 'text':
          return { type: 'text', text: this.opaque(block.text) ?? this.t(block.text) };
        case 'thinking':
          return { type: 'thinking', text: this.omit.has('thinking') ? OMITTED.thinking : this.t(block.text), redacted: block.redacted };
        case 'toolCall':
          return this.toolCall(block);
        case 'image':
          // The pixels are base64, megabytes with nothing to match: what an image carries beside
          // them goes when redacting. The MIME type is text from the file, shown beside the image.
          return { ...this.image(block), mimeType: this.t(block.mimeType) };
        case 'unknown':
          return { type: 'unknown', blockType: this.t(block.blockType), raw: this.json(block.raw) };
      }
    });
  }

  /**
   * A tool's output without the secrets its command printed alone (`echo $API_KEY`), which nothing
   * in the output names (see `printed`): each copy becomes a marker, counted as `printed-secret`.
   */
  private withoutPrintedSecret(recorded: readonly Block[], blocks: readonly Block[]): readonly Block[] {
    const secrets = this.printed.outputs.get(recorded);
    if (secrets === undefined) return blocks;
    return blocks.map((block) => (block.type === 'text' ? { type: 'text', text: this.printedMarked(block.text, secrets) } : block));
  }

  /**
   * The text with each secret replaced where it stands as a word of its own (not inside a longer
   * one, not inside a marker already there), each replacement counted.
   */
  private printedMarked(text: string, secrets: readonly string[]): string {
    const spans = secrets.length > SECRETS_LOOKED_FOR_ONE_BY_ONE ? this.secretsByPrefix(text, secrets) : secretsOneByOne(text, secrets);
    if (spans.length === 0) return text;
    const markers = markersIn(text);
    let out = '';
    let copied = 0;
    for (const [at, end] of spans.sort((x, y) => x[0] - y[0] || y[1] - x[1])) {
      if (at < copied || goesOnBefore(text, at) || goesOnAfter(text, end) || cutsMarker({ start: at, end }, markers)) continue;
      out += `${text.slice(copied, at)}[REDACTED:${PRINTED_SECRET}]`;
      copied = end;
      this.folding.counted(PRINTED_SECRET, 1);
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  /** Where the secrets stand in a text, found by their first characters at each word's start (see SECRETS_LOOKED_FOR_ONE_BY_ONE). */
  private secretsByPrefix(text: string, secrets: readonly string[]): (readonly [number, number])[] {
    let byPrefix = this.prefixes.get(secrets);
    if (byPrefix === undefined) {
      const index = new Map<string, string[]>();
      for (const secret of secrets) {
        const prefix = secret.slice(0, SECRET_PREFIX);
        const alike = index.get(prefix);
        if (alike) alike.push(secret);
        else index.set(prefix, [secret]);
      }
      byPrefix = { index, shortest: Math.min(...secrets.map((secret) => Math.min(secret.length, SECRET_PREFIX))) };
      this.prefixes.set(secrets, byPrefix);
    }
    const { index, shortest } = byPrefix;
    const spans: (readonly [number, number])[] = [];
    for (let at = 0; at + shortest <= text.length; at++) {
      if (goesOnBefore(text, at)) continue;
      for (let length = shortest; length <= SECRET_PREFIX; length++) {
        for (const secret of index.get(text.slice(at, at + length)) ?? []) if (text.startsWith(secret, at)) spans.push([at, at + secret.length]);
      }
    }
    return spans;
  }

  /**
   * A notice's line, redacted as its text is: with the lines that follow it there (grep's numbered
   * lines, a key's body) a rule knows what it is, which the line alone does not say. Counted with
   * the text, not again.
   */
  private lineOf(line: string, content: readonly Block[]): string {
    // Its first LINE_CONTEXT characters, not a joined copy of megabytes of output.
    let text = '';
    for (const block of content) {
      if (block.type !== 'text') continue;
      text += `${text === '' ? '' : '\n'}${cutText(block.text, LINE_CONTEXT)}`;
      if (text.length >= LINE_CONTEXT) break;
    }
    const inContext = this.uncounted(`${line}\n${cutText(text, LINE_CONTEXT)}`);
    const end = inContext.indexOf('\n');
    return this.uncounted(end === -1 ? inContext : inContext.slice(0, end));
  }

  private toolCall(call: Extract<Block, { type: 'toolCall' }>): Extract<Block, { type: 'toolCall' }> {
    const effect: ToolEffect = {
      action: call.effect.action,
      paths: call.effect.paths.map(this.t),
      command: this.maybe(call.effect.command),
      summary: this.t(call.effect.summary),
      pattern: this.maybe(call.effect.pattern ?? null),
      query: this.maybe(call.effect.query ?? null),
      fileContent: call.effect.fileContent == null ? null : (this.opaque(call.effect.fileContent) ?? this.t(call.effect.fileContent)),
    };
    return { ...call, id: this.id(call.id), name: this.t(call.name), arguments: this.json(call.arguments), argumentsError: this.maybe(call.argumentsError), effect };
  }

  /**
   * Any JSON value: every string, keys included, goes through the redaction; so does a secret
   * field's value. Nesting deeper than any real record is cut rather than walked.
   */
  private json(value: unknown, depth = 0, secretName: string | null = null): unknown {
    if (typeof value === 'string') return this.opaque(value) ?? (secretName === null ? this.t(value) : this.field(secretName, value));
    // A number under a secret's name (a PIN, a numeric password) is as secret as text there.
    if (typeof value === 'number' && secretName !== null) {
      const shown = this.field(secretName, String(value));
      return shown === String(value) ? value : shown;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_JSON_DEPTH) return TOO_DEEP;
    // What a secret's name holds is secret all the way down: a list of keys, `{"password": {"value": …}}`.
    if (Array.isArray(value)) return value.map((item) => this.json(item, depth + 1, secretName));
    // A secret given as a name and its value (`{"name": "STRIPE_SECRET", "value": "…"}`: a CI's
    // secrets, a container's environment): the value is the secret the name names.
    const named = pairedSecretName(value as Record<string, unknown>);
    const paired = named === null ? null : this.secretNameOf(named, '');
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.t(k), this.json(v, depth + 1, secretName ?? (paired !== null && isPairValue(k) ? paired : this.secretNameOf(k, v)))]));
  }
}

type ImageBlock = Extract<Block, { type: 'image' }>;

/** Counted as the redactions are: base64 data in a record (a PDF's bytes), which may hold anything. */
const ENCODED_DATA = 'encoded-data';

/** A data URL's head: `data:application/pdf;base64,`. */
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/i;

/**
 * A long run of base64 (or base64url) alone, as a data URL too, or base64 wrapped in lines of one
 * length, 48 or more (`base64` and PEM write 76 and 64): bytes, not words, whose text no rule can
 * read. Not hex or digits (a hash, a number), nor a list of names or ids (lines of many lengths,
 * shorter ones, or with `-`), nor anything under 1 kB.
 */
export function isEncodedData(value: string): boolean {
  if (value.length < 1024) return false;
  const body = value.replace(DATA_URL, '').trim();
  const head = body.slice(0, 1024);
  if (!/[A-Z]/.test(head) || !/[a-z]/.test(head) || !/[0-9]/.test(head)) return false;
  if (!/\s/.test(body)) return /^[A-Za-z0-9+/]+={0,2}$/.test(body) || /^[A-Za-z0-9_-]+={0,2}$/.test(body);
  const lines = body.split(/\r?\n/);
  const width = (lines[0] as string).length;
  return width >= 48 && lines.every((line, i) => /^[A-Za-z0-9+/]+={0,2}$/.test(line) && (i === lines.length - 1 ? line.length <= width : line.length === width));
}

/** The size of the bytes a run of encoded data holds: "1.9 MB". */
export function encodedDataSize(value: string): string {
  return formatBytes(Math.floor((value.replace(/\s/g, '').length * 3) / 4));
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/** Counted as the redactions are; an image whose bytes are not what it claims is not shown (no data). */
const IMAGE_METADATA = 'image-metadata';

function withoutMetadata(block: ImageBlock, counts: Map<string, number>): ImageBlock {
  const result = withoutImageMetadata(block.mimeType, Buffer.from(block.data, 'base64'));
  if (result !== null && !result.stripped) return block;
  counts.set(IMAGE_METADATA, (counts.get(IMAGE_METADATA) ?? 0) + 1);
  return { ...block, data: result === null ? '' : result.bytes.toString('base64') };
}
