// Entries → what the session page shows for each: Markdown already made safe, tool calls
// shown per tool (a command, a file written, a search) and paired with their results (output by
// its first lines, a file read as code, a diff), code highlighted, images as data URLs bough builds.

import type { PricedUsage } from '../pricing/price.js';
import type { Block, Entry, ReplyOutcome, SubagentRun, ToolDiff, ToolEffect, Usage } from '../types.js';
import { withoutTerminalCodes } from '../terminal-text.js';
import { eachDiffLine, type DiffLineKind } from '../diff-lines.js';
import { formatCount, formatDay, formatTime, formatUsd, isoTime, plural, type TimeFormat } from './format.js';
import { highlightBudget, highlightCode, languageOfPath, type HighlightBudget } from './highlight.js';
import { renderMarkdown } from './markdown.js';
import { encodedDataSize, INJECTED_OMITTED, isEncodedData } from '../share/share.js';
import { countedTimeOf, NAME_LENGTH, shorten } from '../ledger/ledger.js';
import { cutText } from '../unicode-text.js';

/** Labels are shown on their targets and in the tree: a line, not a text. */
const LABEL_LENGTH = 120;
/** A tag a harness wraps what it recorded in (`<local-command-stdout>`, `<tool_use_error>`): not a text's own `<Button>` or `Promise<void>`. */
const HARNESS_TAG = /<\/?[a-z]+(?:[-_][a-z]+)+>/g;
/** A notice's one line as its page shows it. */
const NOTICE_SUMMARY_LENGTH = 120;

export interface Badge {
  label: string;
  tone: 'copied' | 'recovered' | 'hidden' | 'error' | 'label' | 'warn';
  title: string;
}

export interface ForkLink {
  label: string;
  href: string;
}

export interface TextView {
  text: string;
  /** How many characters were left out of the page ("12,345"), or null when none. */
  omitted: string | null;
  /** Short enough to show unfolded. */
  short: boolean;
}

/** Code shown as a block: escaped, coloured by `hljs-` classes when its language is known. */
export interface CodeView {
  /** Built by highlight.ts: the code escaped, with highlight.js's own `hljs-` spans only. */
  html: string;
  language: string | null;
  /** Why it is shown without colours (too long for the caps), or null. */
  note: string | null;
  /** Characters left out of the page, or null. */
  omitted: string | null;
  /** "42 lines" */
  lines: string;
  /** Short enough to show unfolded. */
  short: boolean;
}

/** Output shown by its first lines; the rest folded behind "N more lines". */
export interface LinesView {
  head: string;
  more: { label: string; text: string } | null;
  /** Characters left out of the page, or null. */
  omitted: string | null;
}

/** What a tool call shows beyond its one-line summary, by what the tool does. */
export type ToolCallBody =
  /** A shell command too long for the summary line, whole. */
  | { kind: 'command'; code: CodeView }
  /** The file a write call writes, as code in its language. */
  | { kind: 'file'; path: string; code: CodeView }
  /** What a search looks for. */
  | { kind: 'search'; label: 'pattern' | 'query'; pattern: string };

export type PartView =
  | { type: 'text'; html: string }
  | { type: 'thinking'; html: string; label: string }
  | {
      type: 'toolCall';
      name: string;
      action: ToolEffect['action'];
      /** One line, cut; the whole text is in the folded arguments. */
      summary: string;
      body: ToolCallBody | null;
      args: TextView;
      error: string | null;
      /** The transcript of the sub-agent it started, a section of the page; null when there is none. */
      subagent: ForkLink | null;
      /** Its own anchor, when a sub-agent's section links back to it; else null. */
      anchor: string | null;
    }
  /** `why`: when `src` is null, why the image is not shown. */
  | { type: 'image'; src: string | null; mimeType: string; why: string | null }
  | { type: 'unknown'; label: string; json: TextView }
  /** Where an entry's blocks stop being shown: "… 299,000 more blocks not shown …". */
  | { type: 'omitted'; label: string };

export interface DiffLine {
  tone: 'add' | 'del' | 'ctx' | 'hunk' | 'meta';
  text: string;
}

export interface SubagentView {
  agent: string;
  task: TextView;
  status: string | null;
  model: string | null;
  errorMessage: string | null;
  usage: string | null;
  entries: EntryView[];
}

interface ViewBase {
  anchor: string;
  time: string;
  iso: string;
  badges: Badge[];
  /** At a branch point: the branches that continue from here. */
  forks: ForkLink[];
}

export type EntryView = ViewBase &
  (
    | { kind: 'prompt'; parts: PartView[]; skill: { label: 'skill' | 'command'; name: string; location: string | null; bodyHtml: string } | null }
    | {
        kind: 'reply';
        model: string;
        parts: PartView[];
        /** Holds tool calls and nothing else: hidden with them ("Hide tool calls"), not left as an empty card. */
        toolsOnly: boolean;
        status: { label: string; tone: 'error' | 'warn' } | null;
        errorMessage: string | null;
        usage: string | null;
      }
    | {
        kind: 'toolResult';
        toolName: string;
        /** What its call was about, in a line (the command, the path): results of parallel calls told apart. Null when no call of this file is known. */
        about: string | null;
        isError: boolean;
        /** The output by its first lines; null when it is shown as a file (`file`) or is empty. */
        lines: LinesView | null;
        /** A file a read call returned, as code in the file's language. */
        file: { label: string; code: CodeView } | null;
        parts: PartView[];
        /** The diff's lines, and how many more it has than are shown ("1,204"), or null. */
        diff: { lines: DiffLine[]; omitted: string | null } | null;
        subagents: SubagentView[];
        nestedCalls: { summary: string; calls: string[] } | null;
        usage: string | null;
      }
    | { kind: 'shell'; command: string; lines: LinesView | null; status: string; isError: boolean; note: string | null }
    | {
        kind: 'event';
        tone: 'info' | 'summary' | 'custom' | 'system' | 'unknown' | 'warn';
        label: string;
        text: string;
        detailHtml: string | null;
        detailText: TextView | null;
        /** Images the entry carries (an extension message's), shown with its detail. */
        images: PartView[];
        /** The entry this one is about (a label's target). */
        target: ForkLink | null;
      }
  );

export interface ConversationContext {
  time: TimeFormat;
  /** The day the session started (formatDay): an entry on another day shows its date with its time. */
  day?: string | null;
  /** The agent's name, as people know it ("Pi"). */
  agent: string;
  /**
   * The agent's read tool numbers the lines it returns (Claude Code's `     1→code`): the numbers
   * are dropped. Pi's returns the file as it is, where a line may start with digits and a tab (a
   * TSV's years).
   */
  numberedReads: boolean;
  /** Entries counted in another file (copied from an origin that is present). */
  copied: (entry: Entry) => boolean;
  /** Entries outside the report's period (marked, still shown). */
  outsidePeriod: (entry: Entry) => boolean;
  /** Usage records outside the report's period (said so under their entry when it is inside). */
  usageOutsidePeriod?: (usage: Usage, entry: Entry) => boolean;
  /** Entries counted here whose usage is counted once elsewhere (a sub-agent's replay of a response its session holds). */
  usageCountedElsewhere?: (entry: Entry) => boolean;
  /** Labels by target id, latest first wins. */
  labels: ReadonlyMap<string, string>;
  /** Entries hidden from the model by a later context edit on their path (failed attempts retried, context cut to fit). */
  hidden: ReadonlySet<string>;
  forksAt: (entry: Entry) => ForkLink[];
  /** What the entry with this id is, in a few words, where the page shows it; null elsewhere (links must not dangle). */
  entryNamed: (id: string) => string | null;
  /** bough's price of a usage record. */
  priceOf: (usage: Usage) => PricedUsage;
  /** A result's tool call (see `toolCallsOf`), so that it is shown as its tool's kind of output. */
  callOf?: ToolCallLookup;
  /** The section holding the transcript of the sub-agent a tool call (by id) started, when the page has it. */
  subagentOfCall?: (callId: string) => ForkLink | null;
  /** What the page may still spend on syntax highlighting; one per page, shared by its entries. */
  highlight?: HighlightBudget;
}

type ToolCallBlock = Extract<Block, { type: 'toolCall' }>;

/** The tool call a result answers, by its call id, or undefined. */
export type ToolCallLookup = (result: Entry & { kind: 'toolResult' }) => ToolCallBlock | undefined;

/**
 * Each result's call: the last call of its id before it. Ids need not be unique in a session (some
 * models number their calls `call_0`, `call_1` in every reply): the latest call of an id named
 * the file of another reply's call to every result of it.
 */
export function toolCallsOf(entries: readonly Entry[]): ToolCallLookup {
  const calls = new Map<string, { at: number; block: ToolCallBlock }[]>();
  const placeOf = new Map<Entry, number>();
  const add = (block: Block, at: number) => {
    if (block.type !== 'toolCall' || !block.id) return;
    const same = calls.get(block.id);
    if (same) same.push({ at, block });
    else calls.set(block.id, [{ at, block }]);
  };
  entries.forEach((entry, at) => {
    placeOf.set(entry, at);
    if (entry.kind === 'reply' || entry.kind === 'prompt') for (const block of entry.content) add(block, at);
    else if (entry.kind === 'toolCall') add(entry.call, at);
  });
  return (result) => {
    const same = result.toolCallId === null ? undefined : calls.get(result.toolCallId);
    if (same === undefined) return undefined;
    const at = placeOf.get(result) ?? Infinity;
    return same.findLast((call) => call.at < at)?.block ?? same[0]?.block;
  };
}

/** Tool output shown on the page; the rest is counted, not silently dropped. */
const MAX_TEXT = 100_000;
/**
 * A tool call's arguments shown on the page (README: their first 20,000 characters): a reply of
 * twenty parallel calls of 100,000 each filled its entry's budget (MAX_ENTRY_CHARS) with fifteen,
 * and the other calls were not shown.
 */
const MAX_JSON = 20_000;
const IMAGE_MIME = /^image\/(png|jpeg|jpg|gif|webp|bmp|avif)$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The text blocks of some content, joined: what a search or a one-line summary reads of it. */
export function blockText(blocks: readonly Block[], separator = '\n'): string {
  return blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(separator);
}

/** The anchor of a session's table of the files it touched (templates/session.eta). */
export const FILES_ANCHOR = 'files';

export function anchorOf(entry: Entry): string {
  return anchorOfId(entry.id);
}

export function anchorOfId(id: string): string {
  return `e-${anchorSafe(id)}`;
}

/** A tool call's anchor inside its entry's: `~` is in no entry's anchor, so the entry's is what comes before it (see linkAcrossParts). */
export function callAnchor(entryAnchor: string, callId: string): string {
  return `${entryAnchor}${CALL_ANCHOR_MARK}${anchorSafe(callId)}`;
}

/**
 * An id as an anchor may hold it: what a fragment carries as it is, each other character as its
 * code between underscores ("a/b" → "a_2f_b") and an underscore doubled, so that two ids never
 * share an anchor (regression: "a/b" and "a_b" were both "a_b", and links went to the first).
 */
function anchorSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9.:-]/gu, (char) => (char === '_' ? '__' : `_${(char.codePointAt(0) ?? 0).toString(16)}_`));
}

export const CALL_ANCHOR_MARK = '~';

export function entryView(entry: Entry, ctx: ConversationContext): EntryView {
  const base: ViewBase = {
    anchor: anchorOf(entry),
    time: formatTime(entry.timestamp, ctx.time, ctx.day ?? null),
    iso: isoTime(entry.timestamp),
    badges: badgesOf(entry, ctx),
    forks: ctx.forksAt(entry),
  };
  const budget = ctx.highlight ?? highlightBudget();
  const markdown = (text: string) => renderMarkdown(text, budget);
  const subagentOfCall = ctx.subagentOfCall ?? (() => null);
  const parts = (blocks: readonly Block[]) => partViews(blocks, budget, subagentOfCall, base.anchor);
  // Usage another entry counts (a copy's origin, the main thread a side question replays) is shown, and said not to count here.
  const countedElsewhere = base.badges.some((badge) => badge.tone === 'copied');
  const outside = ctx.usageOutsidePeriod ?? (() => false);
  const usageOf = (usage: readonly Usage[]) => {
    const shown = usageLine(usage, ctx.priceOf);
    if (shown === null) return null;
    // A reply counts by the line its counts are kept from: one streamed across midnight (a Claude
    // Code response's lines) says on which day, where its period mark goes by it.
    const counted = countedTimeOf(entry);
    const day = entry.timestamp === null ? null : formatDay(entry.timestamp, ctx.time);
    const line = counted !== null && day !== null && formatDay(counted, ctx.time) !== day ? `${shown} · counted at ${formatTime(counted, ctx.time, day)}` : shown;
    if (countedElsewhere) return notCountedHere(line);
    if (!ctx.outsidePeriod(entry) && usage.every((record) => outside(record, entry))) return `${line} · outside period, not counted here`;
    return line;
  };
  switch (entry.kind) {
    case 'prompt':
      return {
        ...base,
        kind: 'prompt',
        parts: parts(entry.content),
        skill: entry.skill && {
          label: entry.skill.kind ?? 'skill',
          // A command by what was typed; a skill by its name.
          name: entry.skill.kind === 'command' ? entry.skill.command : entry.skill.name,
          location: entry.skill.location,
          bodyHtml: markdown(entry.skill.body),
        },
      };
    case 'reply':
      return {
        ...base,
        kind: 'reply',
        // An error or an abort no model answered (Claude Code writes it itself, as "<synthetic>") is no unknown model's.
        model: entry.responseModel ? `${entry.model ?? '?'} → ${entry.responseModel}` : (entry.model ?? (entry.outcome === 'error' || entry.outcome === 'aborted' ? `no model: written by ${ctx.agent}` : 'unknown model')),
        parts: parts(entry.content),
        toolsOnly: entry.content.length > 0 && entry.content.every((block) => block.type === 'toolCall') && entry.outcome === 'ok',
        status: replyStatus(entry.outcome),
        // An API error reply's text is often its error message: said once, in the reply.
        errorMessage: entry.errorMessage !== null && entry.errorMessage.trim() === blockText(entry.content).trim() ? null : entry.errorMessage,
        usage: usageOf(entry.usage),
      };
    case 'toolCall':
      return { ...event(base, 'info', 'tool call', entry.call.name), detailText: json(entry.call.arguments) };
    case 'toolResult': {
      const text = blockText(entry.content);
      const call = ctx.callOf?.(entry);
      // A read of an image gives the image and the agent's note of it ("Read image file
      // [image/png]"): that note is no file's text.
      const readImage = entry.content.some((b) => b.type === 'image');
      const file = call?.effect.action === 'read' && !entry.isError && !readImage ? fileRead(text, call.effect.paths[0] ?? call.effect.summary, ctx.numberedReads, budget) : null;
      return {
        ...base,
        kind: 'toolResult',
        toolName: entry.toolName ?? 'tool',
        about: call === undefined || call.effect.summary.trim() === '' ? null : oneLine(call.effect.summary),
        isError: entry.isError,
        lines: file === null ? linesView(text) : file.after === '' ? null : linesView(file.after),
        file,
        parts: parts(entry.content.filter((b) => b.type !== 'text')),
        diff: entry.diff && !(call?.effect.fileContent && createdOnly(entry.diff)) ? diffLines(entry.diff) : null,
        subagents: entry.subagents.map((run) => subagentView(run, entry, ctx)),
        nestedCalls:
          entry.nestedCalls.length === 0
            ? null
            : {
                summary: `${plural(entry.nestedCalls.length, 'call')} made inside the tool`,
                calls: entry.nestedCalls.map((c) => [c.name, c.status, c.error].filter(Boolean).join(' · ')),
              },
        usage: usageOf(entry.usage.filter((u) => u.origin !== 'subagent')),
      };
    }
    case 'shell':
      return {
        ...base,
        kind: 'shell',
        command: entry.command,
        lines: linesView(entry.output),
        status: entry.cancelled ? 'cancelled' : !entry.exitCodeRecorded ? 'no exit code recorded' : entry.exitCode === null ? 'killed (no exit code)' : `exit ${entry.exitCode}`,
        isError: entry.cancelled || (entry.exitCodeRecorded && entry.exitCode !== 0),
        note: entry.excludedFromContext ? 'not sent to the model (!!)' : entry.truncated ? 'output truncated by the agent' : null,
      };
    case 'modelChange':
      return event(base, 'info', 'model', [entry.provider, entry.model].filter(Boolean).join(' / ') || 'unknown model');
    case 'thinkingChange':
      return event(base, 'info', 'thinking', entry.level ?? 'unknown level');
    case 'compaction': {
      // The summariser's own call, when the agent recorded it (Pi 0.81+): counted, so shown where it was made.
      const summariser = usageOf(entry.usage);
      const summarised = entry.tokensBefore === null ? 'context summarised' : `${formatCount(entry.tokensBefore)} tokens summarised`;
      return {
        ...event(base, 'summary', 'compaction', summariser === null ? summarised : `${summarised} · summariser: ${summariser}`),
        detailHtml: markdown(entry.summary),
      };
    }
    case 'branchSummary': {
      const summariser = usageOf(entry.usage);
      return {
        ...event(base, 'summary', 'branch summary', `the user came back from another branch; what happened there${summariser === null ? '' : ` (summariser: ${summariser})`}:`),
        detailHtml: markdown(entry.summary),
      };
    }
    case 'label': {
      // The label itself is shown on its target; this line keeps the entry reachable from the tree.
      const target = entry.targetId === null ? null : ctx.entryNamed(entry.targetId);
      const what = entry.label === null ? 'label cleared on' : `label “${shorten(entry.label, LABEL_LENGTH)}” set on`;
      return {
        ...event(base, 'info', 'label', target !== null ? what : `${what} an entry not in this file`),
        detailText: entry.label !== null && entry.label.length > LABEL_LENGTH ? cut(entry.label, MAX_TEXT) : null,
        // Named as what it is: the entry the label is on, not the one this line is.
        target: target !== null ? { label: target, href: `#${anchorOfId(entry.targetId as string)}` } : null,
      };
    }
    case 'name': {
      if (entry.name === null) return event(base, 'info', 'name', 'name cleared');
      const shown = shorten(entry.name, NAME_LENGTH);
      // The whole of a long name once, folded; everywhere else it is cut.
      return { ...event(base, 'info', 'name', `named “${shown}”`), detailText: shown === entry.name ? null : cut(entry.name, MAX_TEXT) };
    }
    case 'contextEdit': {
      const target = entry.targetId === null ? null : ctx.entryNamed(entry.targetId);
      const what = entry.omitted ? 'hidden from the model:' : 'rewritten for the model:';
      // What the model sees in its place from then on (pi.md §5), folded as an event's detail.
      const text = entry.replacement === null ? '' : blockText(entry.replacement);
      const replacement = { detailHtml: text ? markdown(text) : null, images: parts((entry.replacement ?? []).filter((b) => b.type === 'image')) };
      if (target === null) return { ...event(base, 'info', 'context edit', entry.omitted ? 'an earlier entry hidden from the model' : 'an earlier entry rewritten for the model'), ...replacement };
      return { ...event(base, 'info', 'context edit', what), target: { label: target, href: `#${anchorOfId(entry.targetId as string)}` }, ...replacement };
    }
    case 'custom': {
      const text = blockText(entry.content);
      const images = parts(entry.content.filter((b) => b.type === 'image'));
      return {
        ...event(base, 'custom', entry.isMessage ? `extension message` : `extension state`, shorten(entry.customType, LABEL_LENGTH)),
        detailHtml: text ? markdown(text) : null,
        // An extension message of images alone shows them, not its data.
        detailText: text || images.length > 0 ? null : json(entry.data),
        images,
      };
    }
    case 'system': {
      const sections = Object.entries(entry.sections)
        .map(([name, value]) => `## ${name}\n${value ?? '(removed)'}`)
        .join('\n\n');
      const tools = [
        entry.toolsAdded.length ? `tools added: ${entry.toolsAdded.join(', ')}` : '',
        entry.toolsRemoved.length ? `tools removed: ${entry.toolsRemoved.join(', ')}` : '',
      ].filter(Boolean);
      const text = blockText(entry.content);
      // What the message changes, in a line: "3 sections", "cwd changed", "rules removed", "instructions".
      const names = Object.entries(entry.sections);
      const changed = names.length === 1 && names[0] !== undefined ? `${names[0][0]} ${names[0][1] === null ? 'removed' : 'changed'}` : names.length > 1 ? `${names.length} sections` : '';
      const what = [changed, ...tools, ...(text.trim() !== '' ? ['instructions'] : [])].filter(Boolean).join(' · ');
      return {
        ...event(base, 'system', 'system prompt', what || 'no change'),
        detailText: cut([text, sections].filter(Boolean).join('\n\n'), MAX_TEXT),
      };
    }
    case 'notice': {
      const text = withoutTerminalCodes(blockText(entry.content));
      // Read long and cut here, after --redact has seen it whole (see SUMMARY_KEPT): a plain cut,
      // as nothing here is redacted later.
      const line = entry.summary.replace(/\s+/g, ' ').trim();
      const shown = shorten(line, NOTICE_SUMMARY_LENGTH);
      // The whole text where the line does not say it all (a harness's tags and spacing aside).
      const more = shown !== line || text.replace(HARNESS_TAG, ' ').replace(/\s+/g, ' ').trim() !== line;
      return {
        ...event(base, entry.tone, shorten(entry.label, LABEL_LENGTH), shown),
        detailText: text && more ? cut(text, MAX_TEXT) : null,
        // The sub-agent it started (a command that ran a skill as one).
        target: ctx.subagentOfCall?.(entry.id) ?? null,
      };
    }
    case 'usageOnly':
      return event(base, 'info', entry.usageKind, [entry.note, usageOf(entry.usage)].filter(Boolean).join(' · '));
    case 'unknown':
      return { ...event(base, 'unknown', 'unknown entry', entry.rawType), detailText: json(entry.raw) };
  }
}

function event(base: ViewBase, tone: Extract<EntryView, { kind: 'event' }>['tone'], label: string, text: string): Extract<EntryView, { kind: 'event' }> {
  return { ...base, kind: 'event', tone, label, text, detailHtml: null, detailText: null, images: [], target: null };
}

function badgesOf(entry: Entry, ctx: ConversationContext): Badge[] {
  const badges: Badge[] = [];
  const label = ctx.labels.get(entry.id);
  if (label) badges.push({ label: shorten(label, LABEL_LENGTH), tone: 'label', title: 'label' });
  if (ctx.copied(entry)) badges.push({ label: 'copied', tone: 'copied', title: 'copied from the session this one continues (a fork or a resumed copy of it); counted where it was first recorded' });
  else if (ctx.usageCountedElsewhere?.(entry)) badges.push({ label: 'usage counted elsewhere', tone: 'copied', title: 'the same response is recorded in another entry, where its usage is counted once' });
  if (ctx.outsidePeriod(entry)) badges.push({ label: 'outside period', tone: 'hidden', title: "outside this report's period: shown, not counted here" });
  if (ctx.hidden.has(entry.id)) {
    // Pi hides a failed request when it retries it, and other entries to fit the context (pi.md §5).
    const failed = entry.kind === 'reply' && (entry.outcome === 'error' || entry.outcome === 'aborted');
    badges.push(failed ? { label: 'failed attempt', tone: 'hidden', title: 'hidden from the model by a later context edit (retried)' } : { label: 'hidden from the model', tone: 'hidden', title: 'hidden from the model by a later context edit' });
  }
  if (entry.kind === 'prompt' && entry.queued) badges.push({ label: 'sent while it worked', tone: 'label', title: 'typed while the agent worked, and given to it between two of its steps' });
  if (entry.recovered) badges.push({ label: 'recovered', tone: 'recovered', title: 'recovered from a damaged line' });
  if (entry.kind === 'custom' && entry.isMessage && !entry.display) {
    badges.push({ label: `hidden in ${ctx.agent}`, tone: 'hidden', title: 'sent to the model but not shown in the agent' });
  }
  return badges;
}

function replyStatus(outcome: ReplyOutcome): { label: string; tone: 'error' | 'warn' } | null {
  switch (outcome) {
    case 'error':
      return { label: 'error', tone: 'error' };
    case 'aborted':
      return { label: 'aborted', tone: 'warn' };
    case 'length':
      return { label: 'cut off (length)', tone: 'warn' };
    case 'ok':
      return null;
  }
}

/**
 * What one entry shows of its blocks at most: a reply of 300,000 blocks rendered to one 40 MB
 * entry, which no part of a page can hold. Each block is cut on its own (MAX_TEXT, MAX_JSON);
 * past these, the rest are counted.
 */
const MAX_BLOCKS_SHOWN = 1000;
const MAX_ENTRY_CHARS = 1_500_000;
/**
 * Images an entry shows, in characters of their data: apart from its other markup, so that a
 * prompt of a few screenshots, each under the size one may have (MAX_IMAGE_BASE64), shows them
 * all (four of 850 kB showed two); about seven of the largest.
 */
const MAX_ENTRY_IMAGE_CHARS = 8_000_000;

/** An entry's blocks as shown, up to MAX_BLOCKS_SHOWN, about MAX_ENTRY_CHARS of markup and MAX_ENTRY_IMAGE_CHARS of images, then how many more there are. */
function partViews(blocks: readonly Block[], budget: HighlightBudget, subagentOfCall: (callId: string) => ForkLink | null, entryAnchor: string): PartView[] {
  const views: PartView[] = [];
  let chars = 0;
  let imageChars = 0;
  for (const block of blocks) {
    if (views.length >= MAX_BLOCKS_SHOWN || chars > MAX_ENTRY_CHARS || imageChars > MAX_ENTRY_IMAGE_CHARS) {
      const more = blocks.length - views.length;
      const why = views.length >= MAX_BLOCKS_SHOWN ? 'too many for one page' : 'the entry is too large for one page';
      views.push({ type: 'omitted', label: `… ${plural(more, 'more block')} of this entry not shown: ${why} (the session file holds them).` });
      break;
    }
    const view = partView(block, budget, subagentOfCall, entryAnchor);
    if (view.type === 'image') imageChars += partChars(view);
    else chars += partChars(view);
    views.push(view);
  }
  return views;
}

/** About how much markup a block's view makes: its texts, which are most of it. */
function partChars(view: PartView): number {
  switch (view.type) {
    case 'text':
    case 'thinking':
      return view.html.length;
    case 'toolCall':
      return view.summary.length + view.args.text.length + (view.body?.kind === 'command' || view.body?.kind === 'file' ? view.body.code.html.length : 0) + 200;
    case 'image':
      return (view.src?.length ?? 0) + 100;
    case 'unknown':
      return view.json.text.length + 100;
    case 'omitted':
      return view.label.length;
  }
}

function partView(block: Block, budget: HighlightBudget, subagentOfCall: (callId: string) => ForkLink | null, entryAnchor: string): PartView {
  switch (block.type) {
    case 'text':
      return { type: 'text', html: renderMarkdown(block.text, budget) };
    case 'thinking': {
      const empty = block.text.trim() === '';
      const label = block.redacted ? 'Thinking (redacted by the provider)' : empty ? 'Thinking (no text recorded)' : 'Thinking';
      return { type: 'thinking', html: empty ? '' : renderMarkdown(block.text, budget), label };
    }
    case 'toolCall': {
      const { effect } = block;
      const fileContent = effect.action === 'write' ? (effect.fileContent ?? null) : null;
      const subagent = block.id ? subagentOfCall(block.id) : null;
      return {
        type: 'toolCall',
        name: block.name,
        action: effect.action,
        summary: oneLine(effect.summary),
        body: toolCallBody(effect, fileContent, budget),
        // The written file is shown as code above: its copy in the arguments would double the page.
        args: json(block.arguments, fileContent),
        error: block.argumentsError,
        subagent,
        // The target of its sub-agent's "Started by": a reply may make several calls.
        anchor: subagent && block.id ? callAnchor(entryAnchor, block.id) : null,
      };
    }
    case 'image':
      return { type: 'image', mimeType: block.mimeType, ...imageSource(block.mimeType, block.data) };
    case 'unknown':
      return { type: 'unknown', label: block.blockType, json: json(block.raw, null, true) };
  }
}

/** A summary line longer than this is cut; the whole text stays in the folded arguments. */
const SUMMARY_LENGTH = 160;
/** Output lines shown before "N more lines"; a file read or written is unfolded up to OPEN_LINES. */
const HEAD_LINES = 12;
const HEAD_CHARS = 2_000;
const OPEN_LINES = 40;

/** The first line of a text, cut to SUMMARY_LENGTH, with "…" when anything was left out. */
export function oneLine(text: string): string {
  const trimmed = cutText(text.trimStart(), SUMMARY_LENGTH * 4);
  const end = trimmed.indexOf('\n');
  const first = (end === -1 ? trimmed : trimmed.slice(0, end)).trimEnd();
  if (first.length > SUMMARY_LENGTH) return `${cutText(first, SUMMARY_LENGTH - 1).trimEnd()}…`;
  return end === -1 || trimmed.slice(end).trim() === '' ? first : `${first} …`;
}

function toolCallBody(effect: ToolEffect, fileContent: string | null, budget: HighlightBudget): ToolCallBody | null {
  switch (effect.action) {
    case 'shell':
      return effect.command !== null && oneLine(effect.command) !== effect.command.trim() ? { kind: 'command', code: codeView(effect.command, 'bash', budget) } : null;
    case 'write': {
      const path = effect.paths[0] ?? effect.summary;
      return fileContent === null ? null : { kind: 'file', path, code: codeView(fileContent, languageOfPath(path), budget) };
    }
    case 'search':
      if (effect.pattern) return { kind: 'search', label: 'pattern', pattern: oneLine(effect.pattern) };
      return effect.query ? { kind: 'search', label: 'query', pattern: oneLine(effect.query) } : null;
    case 'read':
    case 'edit':
    case 'list':
    case 'delegate':
    case 'other':
      return null;
  }
}

function codeView(text: string, language: string | null, budget: HighlightBudget): CodeView {
  const shown = cut(text, MAX_TEXT);
  const code = highlightCode(shown.text, language, budget);
  const lines = lineCount(text);
  return { html: code.html, language: code.language, note: code.note, omitted: shown.omitted, lines: plural(lines, 'line'), short: lines <= OPEN_LINES && text.length < OPEN_LINES * 200 };
}

function lineCount(text: string): number {
  let count = text === '' || text.endsWith('\n') ? 0 : 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The first HEAD_LINES lines (at most HEAD_CHARS), then the rest to fold; cut at MAX_TEXT in all. */
function linesView(output: string): LinesView | null {
  const text = withoutTerminalCodes(output);
  if (text.trim() === '') return null;
  const shown = cut(text.replace(/\n+$/, ''), MAX_TEXT);
  let end = -1;
  for (let i = 0; i < HEAD_LINES; i++) {
    end = shown.text.indexOf('\n', end + 1);
    if (end === -1) break;
  }
  if (end === -1 && shown.text.length <= HEAD_CHARS) return { head: shown.text, more: null, omitted: shown.omitted };
  const at = end === -1 || end > HEAD_CHARS ? HEAD_CHARS : end;
  const rest = shown.text.slice(at).replace(/^\n/, '');
  // A line cut at HEAD_CHARS goes on in the fold: said as its rest, not as another line.
  const midLine = at === HEAD_CHARS && shown.text[at] !== '\n';
  const more = lineCount(rest) - (midLine ? 1 : 0);
  const label = !midLine ? plural(more, 'more line') : more === 0 ? `the rest of the line (${plural(rest.length, 'more character')})` : `the rest of the line and ${plural(more, 'more line')}`;
  return { head: shown.text.slice(0, at), more: { label, text: rest }, omitted: shown.omitted };
}

/** `cat -n` style numbers before each line (`     1→code`, `1\tcode`), as agents' read tools return files. */
const LINE_NUMBER = /^ *(\d+)(?:→|\t)/;

/** A file a read call returned, as code; lines an agent numbered lose their numbers (the label says where it starts). */
function fileRead(read: string, path: string, numbered: boolean, budget: HighlightBudget): { label: string; code: CodeView; after: string } | null {
  // What the agent put among the file's lines for the model (Claude Code's <system-reminder>, on
  // lines of its own, or what --omit system left of it): no line of the file, shown after it.
  const appended: string[] = [];
  const text = read.includes('<system-reminder>') || read.includes(INJECTED_OMITTED) ? read.replace(APPENDED_FOR_MODEL, (block) => (appended.push(block.trim()), '')) : read;
  if (text.trim() === '') return null;
  const lines = numbered ? text.slice(0, MAX_TEXT).replace(/\n+$/, '').split('\n') : [];
  // Cut at MAX_TEXT inside a line (its number, even): that line is not shown but counted as cut.
  if (numbered && text.length > MAX_TEXT && text[MAX_TEXT] !== '\n' && lines.length > 1) lines.pop();
  const first = numbered ? LINE_NUMBER.exec(lines[0] ?? '') : null;
  let numberedLines = 0;
  while (first !== null && numberedLines < lines.length && LINE_NUMBER.test(lines[numberedLines] ?? '')) numberedLines++;
  // Numbers on every line but a trailing note or two: strip them. Otherwise the text is shown as it came.
  const strip = first !== null && numberedLines >= lines.length - 3;
  if (!strip) {
    const view = codeView(text, languageOfPath(path), budget);
    return { label: `${path} · ${view.lines}`, code: view, after: appended.join('\n\n') };
  }
  const code = lines.slice(0, numberedLines).map((l) => l.replace(LINE_NUMBER, '')).join('\n');
  const tail = lines.slice(numberedLines).join('\n').trim();
  const view = codeView(tail ? `${code}\n\n${tail}` : code, languageOfPath(path), budget);
  // Cut at MAX_TEXT before its numbers went: what was cut (a line cut inside, whole) is said, and
  // the lines counted, as of any text.
  const cutOff = text.length - lines.join('\n').length;
  const shown = text.length > MAX_TEXT ? { ...view, omitted: formatCount(cutOff), lines: plural(lineCount(text), 'line') } : view;
  const from = first[1] !== '1' ? ` · from line ${first[1]}` : '';
  return { label: `${path} · ${shown.lines}${from}`, code: shown, after: appended.join('\n\n') };
}

/** A <system-reminder> block on lines of its own, or what --omit system left of one, with its line break. */
const APPENDED_FOR_MODEL = new RegExp(String.raw`^(?:<system-reminder>[\s\S]*?</system-reminder>|${INJECTED_OMITTED.replace(/[[\]]/g, '\\$&')})[ \t]*(?:\n|(?![\s\S]))`, 'gm');

/** A diff that only adds lines to a new file: the file itself, already shown with the call. */
function createdOnly(diff: ToolDiff): boolean {
  return /^@@ -0,0 /.test(diff.text) && !/^[- ]/m.test(diff.text);
}

/** Only image types a browser shows as pictures, from base64 bough checked: never markup, never a remote URL. */
/** An image larger than this is not inlined: one screenshot must not make a page of tens of MB. */
const MAX_IMAGE_BASE64 = 1_500_000;

function imageSource(mimeType: string, data: string): { src: string | null; why: string | null } {
  // Its bytes, as its base64 without the line breaks it may be wrapped in holds them.
  const tooLarge = (base64: number) => ({ src: null, why: `${kilobytes(base64)}, larger than the ${kilobytes(MAX_IMAGE_BASE64)} a page shows` });
  // Long: measured before it is copied whitespace-free (wrapped base64 may still fit).
  if (data.length > MAX_IMAGE_BASE64) {
    const characters = data.length - whitespaceIn(data);
    if (characters > MAX_IMAGE_BASE64) return tooLarge(characters);
  }
  const compact = data.replace(/\s+/g, '');
  // No data: an image --redact could not read as what it claims to be (its bytes are dropped).
  if (compact === '') return { src: null, why: 'its bytes were left out' };
  if (!IMAGE_MIME.test(mimeType) || !BASE64.test(compact)) return { src: null, why: 'not an image a page shows safely' };
  if (compact.length > MAX_IMAGE_BASE64) return tooLarge(compact.length);
  return { src: `data:${mimeType.toLowerCase()};base64,${compact}`, why: null };
}

function whitespaceIn(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) count++;
  }
  return count;
}

/** The bytes `base64` characters hold, in kB rounded up: "1,126 kB" is told from the limit's "1,125 kB". */
function kilobytes(base64: number): string {
  return `${formatCount(Math.ceil((base64 * 3) / 4 / 1000))} kB`;
}

const MAX_DIFF_LINES = 2000;

const DIFF_TONES = { header: 'meta', hunk: 'hunk', added: 'add', removed: 'del', context: 'ctx' } as const satisfies Record<DiffLineKind, DiffLine['tone']>;

/**
 * At most MAX_DIFF_LINES of a diff and MAX_TEXT of its characters (one minified line of 4 MB made
 * a page of 8 MB), and what more it has, said under it: "1,003 more lines", "2 more lines (3,950,004
 * characters of them)".
 */
function diffLines(diff: ToolDiff): { lines: DiffLine[]; omitted: string | null } {
  const lines: DiffLine[] = [];
  let more = 0;
  let chars = 0;
  let cutChars = 0;
  let cutInside = false;
  eachDiffLine(diff, (kind, text) => {
    const room = MAX_TEXT - chars;
    if (lines.length >= MAX_DIFF_LINES || room <= 0) {
      more++;
      cutChars += text.length;
    } else if (text.length > room) {
      // The line's start is shown; the rest of it counts among what is not.
      lines.push({ tone: DIFF_TONES[kind], text: text.slice(0, room) });
      chars = MAX_TEXT;
      cutInside = true;
      more++;
      cutChars += text.length - room;
    } else {
      lines.push({ tone: DIFF_TONES[kind], text });
      chars += text.length;
    }
    return true;
  });
  // The empty string after a diff's last line break is no line of it.
  if (more > 0 && diff.text.endsWith('\n')) more--;
  if (more === 0) return { lines, omitted: null };
  // Cut inside a line: by characters too, which lines alone would understate.
  const ofIt = cutInside ? ` (${formatCount(cutChars)} characters of ${more === 1 ? 'it' : 'them'})` : '';
  return { lines, omitted: `${plural(more, 'more line')}${ofIt}` };
}

/** A sub-agent run inside a tool result (`result`); its entries are marked by the report's period as the session's are. */
function subagentView(run: SubagentRun, result: Entry, ctx: ConversationContext): SubagentView {
  // A run inside a copied result is copied too: its replies say so, and that they count elsewhere.
  const copied = ctx.copied(result);
  const inner: ConversationContext = {
    ...ctx,
    copied: () => copied,
    labels: new Map(),
    hidden: new Set(),
    forksAt: () => [],
    entryNamed: () => null,
    callOf: toolCallsOf(run.entries),
  };
  return {
    agent: run.agent,
    task: cut(run.task, 4000),
    status: run.status,
    model: run.model,
    errorMessage: run.errorMessage,
    usage: copied ? notCountedHere(runUsageLine(run, result, ctx)) : runUsageLine(run, result, ctx),
    entries: run.entries.map((e) => entryView(e, inner)),
  };
}

function notCountedHere(line: string | null): string | null {
  return line === null ? null : `${line} · not counted here`;
}

/** What a sub-agent run used, and what of it counts in the report's period when not all of it does. */
function runUsageLine(run: SubagentRun, result: Entry, ctx: ConversationContext): string | null {
  const records = [...run.entries.flatMap((entry) => entry.usage.map((usage) => ({ usage, entry }))), ...(run.aggregate ?? []).map((usage) => ({ usage, entry: result }))];
  const all = usageLine(records.map((record) => record.usage), ctx.priceOf);
  const outside = ctx.usageOutsidePeriod ?? (() => false);
  const inPeriod = records.filter((record) => !outside(record.usage, record.entry)).map((record) => record.usage);
  if (all === null || inPeriod.length === records.length) return all;
  return `${inPeriod.length === 0 ? 'none of its usage in this period' : `in this period: ${usageLine(inPeriod, ctx.priceOf)}`}; in all: ${all}`;
}

/** "in 5 · out 24 · cache read 0 · cache write 1,416 · $0.0057 recorded · $0.0057 bough" */
export function usageLine(usage: readonly Usage[], priceOf: (usage: Usage) => PricedUsage): string | null {
  if (usage.length === 0) return null;
  const sum = (key: 'input' | 'output' | 'cacheRead' | 'cacheWrite') => usage.reduce((a, u) => a + u[key], 0);
  const costs = usage.map((u) => u.recordedCost).filter((c): c is number => c !== null);
  const parts = [
    `in ${formatCount(sum('input'))}`,
    `out ${formatCount(sum('output'))}`,
    `cache read ${formatCount(sum('cacheRead'))}`,
    `cache write ${formatCount(sum('cacheWrite'))}`,
  ];
  // Billed per search, beside the tokens: said, or a reply's cost would not add up from its line.
  const searches = usage.reduce((a, u) => a + u.webSearches, 0);
  if (searches > 0) parts.push(`${formatCount(searches)} web search${searches === 1 ? '' : 'es'}`);
  if (costs.length > 0) parts.push(`${formatUsd(costs.reduce((a, b) => a + b, 0))} recorded`);
  const priced = usage.map(priceOf);
  const unknown = priced.some((p) => p.state === 'unpriced' || p.state === 'partial');
  const known = priced.filter((p) => p.cost !== null);
  if (known.length === 0) parts.push(`bough: unknown (${usage.every((u) => u.countsUnknown) ? 'no token counts recorded' : usage.every((u) => u.model === null) ? 'no model recorded' : 'unpriced model'})`);
  else parts.push(`${formatUsd(known.reduce((a, p) => a + (p.cost ?? 0), 0))} bough${unknown ? ' + unknown' : ''}`);
  // A summary names no model: what it was priced as is said where its cost is.
  const guessed = [...new Set(usage.filter((u, i) => u.modelGuessed && u.model !== null && priced[i]?.cost !== null).map((u) => u.model))];
  if (guessed.length > 0) parts.push(`priced as ${guessed.join(', ')}, the model in use`);
  // The agent wrote no final count for it (claude.md §9.5): its output is at least this much.
  if (usage.some((u) => u.outputPartial)) parts.push('output possibly partial');
  if (usage.some((u) => u.recordedCostFromProvider)) parts.push('total billed by the provider');
  if (priced.some((p) => p.state === 'local')) parts.push('local model');
  return parts.join(' · ');
}

const SHORT_TEXT = 600;

export function cut(text: string, max: number): TextView {
  if (text.length <= max) return { text, omitted: null, short: text.length < SHORT_TEXT };
  return { text: text.slice(0, max), omitted: formatCount(text.length - max), short: false };
}

/**
 * A value as indented JSON; a string equal to `shownAbove` (a file already shown as code) is named,
 * not repeated; with `dataNamed`, so is encoded data (a block bough does not know, such as a PDF
 * document's: its base64 was shown, 40,000 characters of it, regression).
 */
function json(value: unknown, shownAbove: string | null = null, dataNamed = false): TextView {
  let text: string;
  try {
    const named = (v: unknown) => (typeof v === 'string' && dataNamed && isEncodedData(v) ? `[${encodedDataSize(v)} of encoded data, not shown]` : v);
    const replacer = shownAbove === null && !dataNamed ? undefined : (_key: string, v: unknown) => (shownAbove !== null && v === shownAbove ? '[the file, shown above]' : named(v));
    text = JSON.stringify(value, replacer, 2) ?? String(value);
  } catch {
    // Readers cut deep nesting, so this is a bug's safety net: String() of a deep array overflows too.
    text = '[not shown: could not be written as JSON]';
  }
  return cut(text, MAX_JSON);
}
