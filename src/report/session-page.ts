// The view model of one session page: facts, lineage, numbers, tree and the conversation by branch.
// Numbers come from the report data (cut to the report's scope); the conversation from the
// session's content, shown whole.

import type { Counted } from '../ledger/claims.js';
import { inPeriod, inSentence, type Period, type Scope } from '../ledger/scope.js';
import { buildTree, type EntryTree } from '../model/tree.js';
import { splitBranches, type Branch } from '../model/branches.js';
import type { Pricer } from '../pricing/price.js';
import { SOURCE_NAMES, type Block, type Entry, type EntryOf, type SessionFile, type Usage } from '../types.js';
import { anchorOf, anchorOfId, blockText, callAnchor, entryView, FILES_ANCHOR, toolCallsOf, type ConversationContext, type EntryView, type ForkLink } from './conversation.js';
import { highlightBudget, type HighlightBudget } from './highlight.js';
import { totalTokens, type SessionData, type SessionLink, type SubagentData, type ToolTotals, type UsageTotals } from './data.js';
import { countedTimeOf, EMPTY_PROMPT, IMAGE_PROMPT, shorten, type SessionKey, type SessionLedger } from '../ledger/ledger.js';
import { isPlainObject } from '../sources/json-line.js';
import { unpackEntries } from '../ledger/packed-entries.js';
import { formatCount, formatDateTime, formatDay, formatDuration, formatTime, formatUsd, plural, type TimeFormat } from './format.js';
import { modelsTable } from './overview-pages.js';
import { hrefFrom, INDEX_PAGE, type PageMap } from './pages.js';
import { boughCost, noUsageOf, statCards, tokenRows, type StatCard, type SubagentTurns, type TokenRow } from './numbers.js';
import type { TableView } from './tables.js';
import { treeSvg, type TreeLegendKey } from './svg/tree.js';
import type { PartRange } from './session-parts.js';

export interface Fact {
  label: string;
  value: string;
  href: string | null;
  /** A path: shown as written, whatever scripts its folders are named in. */
  path?: boolean;
}

/** A part of the conversation: a branch of the tree, or a sub-agent's own transcript. */
export interface SectionView {
  id: string;
  kind: 'branch' | 'subagent';
  heading: string;
  note: string | null;
  from: ForkLink | null;
  /** For a sub-agent: its model(s), tokens and cost in a line, and its file. */
  summary: string | null;
  file: string | null;
  /** Where its copied entries came from and are counted, as a folded run of them says it: "“Fix the tests”, counted there". */
  copiedFrom: string;
  entries: SectionEntry[];
}

/**
 * An entry of a section: its anchor, and its view made only when it is rendered, so that a long
 * session's page holds its entries' HTML but never the views of all of them at once. Each view
 * is made once, in page order: views spend the page's highlighting budget as they are made.
 */
export interface SectionEntry {
  anchor: string;
  /** Copied from another session and counted there: folded with the copies beside it. */
  copied: boolean;
  /** Its time as the page shows it ("14:02:05"), with its date when that is not `day` ("2026-10-05 14:02:05"). */
  time(day: string | null): string;
  /** Its day ("2026-10-05"), or null when it has no time. */
  day(): string | null;
  view(): EntryView;
  /** Its HTML as an earlier build wrote it, made by no view: a gone sub-agent file's transcript, kept. */
  kept?: string;
}

function sectionEntry(entry: Entry, ctx: ConversationContext): SectionEntry {
  return {
    anchor: anchorOf(entry),
    copied: ctx.copied(entry),
    time: (day) => formatTime(entry.timestamp, ctx.time, day),
    day: () => (entry.timestamp === null ? null : formatDay(entry.timestamp, ctx.time)),
    view: () => entryView(entry, ctx),
  };
}

/** A prompt in the outline: its first words, its time, its anchor. */
export interface OutlineItem {
  label: string;
  time: string;
  anchor: string;
  /** Copied from another session (a fork's or a resumed file's history): listed, not counted here. */
  copied: boolean;
}

export interface ToolsView {
  summary: string;
  byTool: { name: string; calls: string }[];
  /** The id of the files' table: search results for a file lead there. */
  filesAnchor: string;
  files: { path: string; actions: string; added: string; removed: string }[];
  /** `href`: null when the page does not show the commit's entry (a gone sub-agent file's). */
  commits: { text: string; landed: boolean; href: string | null }[];
}

export interface LineageLink {
  /**
   * Null when the other session is not in this report (outside its period or filters): its title
   * is text from outside what the report was asked for, which a report sent for one project or
   * month must not carry. A page sent on its own names it (it links to none).
   */
  label: string | null;
  href: string | null;
}

export interface SessionPageView {
  title: string;
  /** Sent on its own: the page links to no other page. */
  standalone: boolean;
  indexHref: string;
  projectHref: string;
  projectName: string;
  /** The sessions before and after this one in its project, by start. */
  neighbours: { previous: LineageLink | null; next: LineageLink | null };
  subtitle: string;
  /** What the outline lists: the user's prompts, or (a sub-agent's transcript read alone) the tasks it was given. */
  outlineHeading: 'Prompts' | 'Tasks';
  facts: Fact[];
  /** `duplicates`: the other files holding this session and nothing more, with a sentence to list them. */
  lineage: {
    origin: LineageLink | null;
    originCopied: boolean;
    originMissing: string | null;
    /** With its origin missing, some of what it copied is counted in another file read (a fork of a fork). */
    someCountedElsewhere: boolean;
    /** With its origin missing, the sessions this report shows that count what it copied. */
    countedIn: LineageLink[];
    /** The copies in this report (or, on a page sent alone, every copy), then how many others it does not show, said. */
    copies: LineageLink[];
    copiesOutside: string | null;
    duplicates: { sentence: string; paths: string[] } | null;
  };
  /** What of the session this report counts, when part of it lies outside the period. */
  scopeNote: string | null;
  /** Of a session of Claude Code's start-up warmups alone: why no list shows it. */
  warmupNote: string | null;
  cards: StatCard[];
  /** Why bough's price and the recorded cost differ, or why they are not compared. */
  costNote: string | null;
  /** How much of the usage the agent recorded only in its running totals, not in its transcript. */
  unrecordedNote: string | null;
  /** Null when the session counts no usage record in this report: "—", as its rows in lists and summary.json say, not zeros. */
  tokens: TokenRow[] | null;
  /** Why, when `tokens` is null. */
  noUsageNote: string;
  models: TableView | null;
  tools: ToolsView | null;
  treeSvg: string;
  /** The marks the tree drew and what each means, set above it. */
  treeLegend: TreeLegendKey[];
  treeNote: string;
  /** The branches, then the sub-agents that ran in files of their own (counted in this session, read apart). */
  sections: SectionView[];
  /** The prompts of the branches, in order. */
  outline: OutlineItem[];
  diagnostics: { line: string; reason: string; detail: string }[];
}

/** Branches linked one by one from the entry they start at; past this many, a link to the next names how many more. */
const MAX_FORK_LINKS = 100;

/** An entry of a transcript an earlier build wrote: its anchors (its own first) and its HTML. */
export interface KeptEntryView {
  anchors: readonly string[];
  html: string;
}

export interface PageContext {
  /** The content of this session's sub-agent files, by key. */
  /** Null when the sub-agent's file is gone (kept from an earlier build): its numbers count. */
  subagentFile: (key: SessionKey) => SessionFile | null;
  /** The transcript's entries an earlier build wrote of a sub-agent whose file is gone, when its pages held it. */
  keptTranscript?: (key: SessionKey) => readonly KeptEntryView[] | null;
  pages: PageMap;
  time: TimeFormat;
  price: Pricer;
  scope: Scope;
  scopeLabel: string;
  projectName: string;
  /** The sessions started before and after this one in its project (in the report), if any. */
  neighbours: { previous: SessionLink | null; next: SessionLink | null };
  /** A page sent on its own (`bough export`): no links to other pages of a report. */
  standalone?: boolean;
  /** What the page may spend on syntax highlighting (by the session's rank in the report); a page's own when absent. */
  highlight?: HighlightBudget;
}

/**
 * A session's Lineage as this report shows it: the sessions it was copied from and into, linked
 * where the report shows them. Made apart from its page: a page kept from an earlier build (its
 * file gone) gets this build's, which names no session outside this report's period.
 */
export function lineageView(session: SessionData, pages: PageMap, standalone = false): SessionPageView['lineage'] {
  const page = pages.session(session.key);
  const { inReport, link } = linker(session, page, pages, standalone);
  const countedIn = session.countedIn.filter((other) => standalone || inReport(other));
  const copiesOutside = standalone ? 0 : session.copies.filter((copy) => !inReport(copy)).length;
  const { ledger } = session;
  return {
    origin: session.origin ? link(session.origin) : null,
    originCopied: session.originCopied,
    originMissing: session.originMissing ? (ledger.parentFile ?? ledger.parentSessionId) : null,
    someCountedElsewhere: session.originMissing && session.counted.entries.includes(0),
    countedIn: countedIn.map(link),
    copies: session.copies.filter((copy) => standalone || inReport(copy)).map(link),
    copiesOutside: copiesOutside === 0 ? null : `${copiesOutside === 1 ? 'A session' : `${copiesOutside} sessions`} outside this report’s period or filters`,
    duplicates:
      session.duplicates.length === 0
        ? null
        : {
            sentence: `The same session, holding nothing more, is also in ${session.duplicates.length === 1 ? 'this file' : 'these files'} (another config folder, an archived copy), not counted again:`,
            paths: session.duplicates.map((d) => d.path),
          },
  };
}

/**
 * The agent, by the versions of it the file records (Claude Code's may change mid-session: the
 * first and the last), else by its file format's version (Pi's, which records no app version).
 */
function agentFact(file: SessionFile): string {
  const versions = file.agentVersions ?? [];
  const name = SOURCE_NAMES[file.source];
  if (versions.length === 0) return file.source === 'claude' ? name : `${name} (format v${file.formatVersion})`;
  return versions.length === 1 ? `${name} ${versions[0]}` : `${name} ${versions[0]} to ${versions.at(-1)}`;
}

/** Whether the report shows another session, and a link to it from `page`. */
function linker(session: SessionData, page: string, pages: PageMap, standalone: boolean) {
  const inReport = (other: SessionLink) => !standalone && pages.hasSession(other.key);
  const link = (other: SessionLink): LineageLink => ({
    // A fork keeps the title of the session it copied: its file tells the two apart.
    label: !standalone && !inReport(other) ? null : other.title === session.ledger.title ? `${other.title} (${other.path.split(/[\\/]/).pop() ?? other.path})` : other.title,
    href: inReport(other) ? hrefFrom(page, pages.session(other.key)) : null,
  });
  return { inReport, link };
}

export function sessionPageView(file: SessionFile, session: SessionData, ctx: PageContext): SessionPageView {
  const page = ctx.pages.session(session.key);
  const { inReport, link } = linker(session, page, ctx.pages, ctx.standalone ?? false);
  const tree = buildTree(file.entries);
  const branches = splitBranches(tree);
  const branchStartingAt = new Map<Entry, Branch>();
  /** The branch each entry is shown in: a fork's child that starts no branch goes on in its parent's. */
  const branchOf = new Map<Entry, Branch>();
  for (const branch of branches) {
    const first = branch.entries[0];
    if (first && !branch.isActive) branchStartingAt.set(first, branch);
    for (const entry of branch.entries) branchOf.set(entry, branch);
  }
  const copied = copiedHere(file.entries, session.counted);
  const { period } = ctx.scope;
  const subagentFiles = session.subagents.map((sub) => ctx.subagentFile(sub.key));
  const spawns = subagentSpawns(file, session.subagents, subagentFiles);
  const conversation: ConversationContext = {
    time: ctx.time,
    // The day the page's "Started" names: an entry of a later (or copied, earlier) day shows its date.
    day: formatDay(session.startedAt, ctx.time),
    agent: SOURCE_NAMES[file.source],
    numberedReads: file.source === 'claude',
    copied,
    ...periodMarks(session, period),
    usageCountedElsewhere: usageCountedElsewhere(file.entries, session.counted),
    labels: latestLabels(file.entries),
    hidden: hiddenByContextEdits(tree),
    entryNamed: (id) => {
      const entry = tree.byId.get(id);
      return entry === undefined ? null : shorten(describeEntry(entry), TARGET_LENGTH);
    },
    priceOf: (usage) => ctx.price(usage, file.source, file.path),
    callOf: toolCallsOf(file.entries),
    subagentOfCall: (callId) => spawns.sectionOfCall.get(callId) ?? null,
    highlight: ctx.highlight ?? highlightBudget(),
    forksAt: (entry) => {
      const children = tree.childrenOf.get(entry) ?? [];
      if (children.length < 2) return [];
      const linkTo = (child: Entry): ForkLink => {
        // A child that starts no branch goes on in the fork point's own: the active path only
        // when that is the active path (regression: inside an abandoned branch, its own
        // continuation was called the active path).
        const branch = branchStartingAt.get(child) ?? branchOf.get(child) ?? branchOf.get(entry);
        return { label: branch && !branch.isActive ? `branch ${branch.number}` : 'active path', href: `#${anchorOf(child)}` };
      };
      const links = children.slice(0, MAX_FORK_LINKS).map(linkTo);
      // Tens of thousands of branches from one entry made its line megabytes long: the rest are one link, to the next.
      const next = children[MAX_FORK_LINKS];
      if (next) links.push({ ...linkTo(next), label: `and ${formatCount(children.length - MAX_FORK_LINKS)} more, from ${linkTo(next).label} on` });
      return links;
    },
  };
  const projectPage = ctx.pages.project(session.projectKey);
  const { ledger, tally } = session;
  // As the lists and summary.json count it: a fork whose every usage record is its origin's counts none.
  const usageRecorded = tally.records > 0;
  const fileHoldsUsage = session.counted.usage.length > 0 || session.subagents.some((sub) => sub.counted.usage.length > 0);
  const subagentTurns = ledger.subagentOf === null ? null : subagentTurnsOf(file);
  // A fork of a fork: what it shares with its origin may be counted in that one's own origin.
  // Named only when the report shows it (see LineageLink).
  const origin = session.origin !== null && (ctx.standalone || inReport(session.origin)) ? session.origin.title : null;
  // Where it is counted: the origin's, or the session counting what the origin does not (its own
  // origin, or a sibling copy of a lost one) when the report shows it.
  const countedIn = session.countedIn.filter((other) => ctx.standalone || inReport(other));
  const others = countedIn.length > 1 ? ` and ${plural(countedIn.length - 1, 'other session')}` : '';
  const where = countedIn[0] ? `counted in “${countedIn[0].title}”${others}` : session.originCopied ? 'counted where first recorded' : 'counted there';
  const copiedFrom = `${origin !== null ? `“${origin}”` : session.origin ? 'a session outside this report’s period or filters' : 'another session'}, ${where}`;
  const drawing = treeSvg(tree, branches, { hrefOf: (e) => '#' + anchorOf(e), copied, describe: describeEntry });
  const facts: Fact[] = [
    { label: 'Project', value: ledger.cwd ?? '(no working directory recorded)', href: ctx.standalone ? null : hrefFrom(page, projectPage), path: ledger.cwd !== null },
    { label: 'Started', value: formatDateTime(session.startedAt, ctx.time), href: null },
    { label: 'Last activity', value: formatDateTime(session.lastAt, ctx.time), href: null },
    { label: 'Duration', value: formatDuration(session.lastAt - session.startedAt), href: null },
    { label: 'Agent', value: agentFact(file), href: null },
    { label: 'Session id', value: file.sessionId, href: null },
    { label: 'File', value: file.path, href: null, path: true },
  ];
  if (ledger.name) facts.unshift({ label: 'Name', value: ledger.name, href: null });
  return {
    title: ledger.title,
    standalone: ctx.standalone ?? false,
    indexHref: hrefFrom(page, INDEX_PAGE),
    projectHref: hrefFrom(page, projectPage),
    projectName: ctx.projectName,
    neighbours: {
      previous: ctx.neighbours.previous && link(ctx.neighbours.previous),
      next: ctx.neighbours.next && link(ctx.neighbours.next),
    },
    subtitle: subtitleOf(session, subagentTurns),
    outlineHeading: ledger.subagentOf === null ? 'Prompts' : 'Tasks',
    facts,
    lineage: lineageView(session, ctx.pages, ctx.standalone),
    scopeNote: session.partly
      ? `This report covers ${inSentence(ctx.scopeLabel)}, and only part of this session falls in it. The numbers below count that part: ${formatCount(tally.prompts)} of its ${plural(session.whole.prompts, 'prompt')}, ${tally.records === 0 && session.whole.records > 0 ? (session.whole.cost.bough === null ? 'none of its usage, whose cost bough does not know' : `none of its usage (${boughCost(session.whole)} by bough's price in all)`) : `${boughCost(tally)} of its ${boughCost(session.whole)} by bough's price`}. The conversation is shown whole; entries outside the period are marked.`
      : null,
    // Of a report's lists and totals: an export has neither.
    warmupNote: session.warmupOnly && !ctx.standalone
      ? 'Claude Code 2.0 sent its sub-agents “Warmup” as it started, and this session was never given a prompt: the report’s lists do not show it as a session. What those requests cost is counted in the totals and its project’s.'
      : null,
    cards: statCards(tally, ledger.branches, noUsageOf(tally, [session.whole]), subagentTurns),
    costNote: costNote(session),
    unrecordedNote: unrecordedNote(session, ctx.price, ctx.scope),
    tokens: usageRecorded ? tokenRows(tally) : null,
    noUsageNote: fileHoldsUsage
      ? 'This session counts no usage record in this report: those its files hold are counted in the session they were copied from, or lie outside the period.'
      : 'No usage recorded: the agent wrote no token counts for this session, so its tokens and cost are unknown, not zero.',
    models: modelsTable(session.byModel, true),
    tools: toolsView(session.tools, commitsShown(session.tools, [file, ...subagentFiles], session.subagents.map((sub, i) => (subagentFiles[i] ? null : (ctx.keptTranscript?.(sub.key) ?? null))))),
    treeSvg: drawing.svg,
    treeLegend: drawing.legend,
    treeNote: treeNote(tree.roots.length, tree.orphans.length, branches.length),
    sections: [
      ...branches.map((branch) => branchView(branch, conversation, copiedFrom)),
      ...session.subagents.map((sub, i) => subagentFileView({ ...sub, label: spawns.labelOfSection.get(i) ?? sub.label }, i + 1, subagentFiles[i] ?? null, spawns.callOfSection.get(i) ?? null, conversation, session, ctx)),
    ],
    outline: branches.flatMap((branch) =>
      branch.entries.flatMap((entry) =>
        entry.kind === 'prompt' ? [{ label: shorten(describeEntry(entry), 80), time: formatDateTime(entry.timestamp ?? session.untimedAt, ctx.time), anchor: anchorOf(entry), copied: copied(entry) }] : [],
      ),
    ),
    diagnostics: file.diagnostics.map((d) => ({ line: d.line === null ? '' : String(d.line), reason: d.reason, detail: d.detail })),
  };
}

/**
 * Which tool call started which sub-agent shown on the page, both ways: a call links to the
 * sub-agent's section, the section to the call, which names it. Calls in the sub-agents' own
 * files count too (a spawned thread may spawn another).
 */
function subagentSpawns(
  file: SessionFile,
  subagents: readonly SubagentData[],
  subagentFiles: readonly (SessionFile | null)[],
): { sectionOfCall: Map<string, ForkLink>; callOfSection: Map<number, ForkLink>; labelOfSection: Map<number, string> } {
  const sectionOf = new Map<string, number>();
  subagentFiles.forEach((sub, i) => {
    if (sub?.subagentId && !sectionOf.has(sub.subagentId)) sectionOf.set(sub.subagentId, i);
  });
  const sectionOfCall = new Map<string, ForkLink>();
  const callOfSection = new Map<number, ForkLink>();
  const labelOfSection = new Map<number, string>();
  if (sectionOf.size === 0) return { sectionOfCall, callOfSection, labelOfSection };
  const files = [file, ...subagentFiles.filter((f): f is SessionFile => f !== null)];
  const started = new Map<string, number>();
  for (const f of files) {
    for (const { callId, subagentId } of f.startedSubagents) {
      const index = sectionOf.get(subagentId);
      if (index !== undefined && !started.has(callId)) started.set(callId, index);
    }
  }
  startedByPrompt(files, subagentFiles, started);
  for (const f of files) {
    for (const entry of f.entries) {
      // An entry other than a call that started one (the output of a command that ran a skill as a sub-agent).
      const byEntry = started.get(entry.id);
      if (byEntry !== undefined && !callOfSection.has(byEntry)) callOfSection.set(byEntry, { label: 'the command', href: `#${anchorOf(entry)}` });
      for (const call of callsIn(entry)) {
        const index = started.get(call.id);
        if (index === undefined || callOfSection.has(index)) continue;
        callOfSection.set(index, { label: `the ${call.name} call`, href: `#${callAnchor(anchorOf(entry), call.id)}` });
        // What the call said it was for (a Task's description), as the agent shows it: a transcript
        // without a sidecar or a first prompt of its own is otherwise just "sub-agent".
        const args = isPlainObject(call.arguments) ? call.arguments : {};
        const description = args['description'];
        if (typeof description === 'string' && description.trim() !== '') labelOfSection.set(index, shorten(description.trim()));
        // Codex's spawn_agent names it by a task name: taken where the child's own file names it by nothing.
        const task = args['task_name'];
        const own = subagents[index]?.label ?? null;
        if (!labelOfSection.has(index) && (own === null || own === 'sub-agent') && typeof task === 'string' && task.trim() !== '') labelOfSection.set(index, shorten(task.trim()));
      }
    }
  }
  for (const [callId, index] of started) sectionOfCall.set(callId, { label: subagentHeading(labelOfSection.get(index) ?? subagents[index]?.label ?? null), href: `#subagent-${index + 1}` });
  return { sectionOfCall, callOfSection, labelOfSection };
}

/** "Sub-agent: Explore the tests", or "Sub-agent" alone for one that records nothing to call it by (not "Sub-agent: sub-agent"). */
function subagentHeading(label: string | null): string {
  return label === null || label === '' || label === 'sub-agent' ? 'Sub-agent' : `Sub-agent: ${label}`;
}

/**
 * The last resort of formats/claude.md §6.3 (d): a Task or Agent call whose result names no agent
 * (it failed, or was interrupted) started the transcript, not yet linked, whose first prompt is
 * the call's prompt word for word and which began after the call and before its result (a call
 * refused before it ran, then made again, is not the one); of several alike, in order.
 */
function startedByPrompt(files: readonly SessionFile[], subagentFiles: readonly (SessionFile | null)[], started: Map<string, number>): void {
  const linked = new Set(started.values());
  const unlinked = new Map<string, { index: number; began: number | null }[]>();
  subagentFiles.forEach((sub, index) => {
    const first = sub?.entries.find((entry) => entry.kind === 'prompt');
    if (linked.has(index) || first?.kind !== 'prompt') return;
    const prompt = blockText(first.content).trim();
    if (prompt === '') return;
    const began = sub?.entries.find((entry) => entry.timestamp !== null)?.timestamp ?? null;
    unlinked.set(prompt, [...(unlinked.get(prompt) ?? []), { index, began }]);
  });
  if (unlinked.size === 0) return;
  const answered = new Map<string, number>();
  for (const f of files) {
    for (const entry of f.entries) if (entry.kind === 'toolResult' && entry.toolCallId !== null && entry.timestamp !== null) answered.set(entry.toolCallId, entry.timestamp);
  }
  for (const f of files) {
    for (const entry of f.entries) {
      for (const call of callsIn(entry)) {
        const prompt = isPlainObject(call.arguments) ? call.arguments['prompt'] : undefined;
        if (!SPAWNING_CALLS.has(call.name) || started.has(call.id) || typeof prompt !== 'string') continue;
        const candidates = unlinked.get(prompt.trim()) ?? [];
        const made = entry.timestamp;
        const answer = answered.get(call.id);
        const at = candidates.findIndex(({ began }) => began === null || ((made === null || began >= made) && (answer === undefined || began <= answer)));
        if (at === -1) continue;
        started.set(call.id, (candidates.splice(at, 1)[0] as { index: number }).index);
      }
    }
  }
}

/** The tools that start a Claude Code sub-agent (claude.md §6.3). */
const SPAWNING_CALLS: ReadonlySet<string> = new Set(['Task', 'Agent']);

/** The tool calls an entry makes: a reply's, or a call recorded as an entry of its own. */
function callsIn(entry: Entry): Extract<Block, { type: 'toolCall' }>[] {
  return entry.kind === 'reply' ? entry.content.flatMap((b) => (b.type === 'toolCall' ? [b] : [])) : entry.kind === 'toolCall' ? [entry.call] : [];
}

/**
 * Entries copied from another session and counted there, shown folded. A copied reply whose usage
 * this file counts is not: a resumed copy may hold a response's fuller record than its origin
 * (Claude Code counts the fullest, claude.md §9.2), and the page says it counts here.
 */
function copiedHere(entries: readonly Entry[], counted: Counted): (entry: Entry) => boolean {
  const copied = new Set<Entry>();
  let place = 0;
  entries.forEach((entry, index) => {
    let usageHere = false;
    for (let i = 0; i < entry.usage.length; i++, place++) if (counted.usage[place] === 1) usageHere = true;
    if (counted.entries[index] !== 1 && !usageHere) copied.add(entry);
  });
  return (entry) => copied.has(entry);
}

/** Entries a session counts some of whose usage records it does not: counted once, in another entry or file. */
function usageCountedElsewhere(entries: readonly Entry[], counted: Counted): (entry: Entry) => boolean {
  const elsewhere = new Set<Entry>();
  let place = 0;
  entries.forEach((entry, index) => {
    for (let i = 0; i < entry.usage.length; i++, place++) if (counted.entries[index] === 1 && counted.usage[place] !== 1) elsewhere.add(entry);
  });
  return (entry) => elsewhere.has(entry);
}

/**
 * The models of a sub-agent's own usage (a spawned thread's replay of its parent's turns ran on the
 * parent's), and its own failed and stopped requests, which the session's counts of replies leave
 * out with its other replies.
 */
function subagentOwn(sub: SubagentData, period: Period): { models: string[]; failed: number; aborted: number } {
  const models = new Set<string>();
  let failed = 0;
  let aborted = 0;
  let place = 0;
  unpackEntries(sub.ledger.entries).forEach((entry, index) => {
    // A sub-agent's replies are no turns of the session's (see LedgerEntry.turn), but keep their
    // outcome: counted as its tokens are, in the report's period (an untimed one goes by its session).
    const counts = sub.counted.entries[index] === 1 && (entry.time === null || inPeriod(period, entry.time));
    if (counts && entry.outcome === 'error') failed++;
    if (counts && entry.outcome === 'aborted') aborted++;
    for (const usage of entry.usage) {
      if (usage.model !== null && sub.counted.usage[place] === 1) models.add(usage.model);
      place++;
    }
  });
  return { models: [...models], failed, aborted };
}

/** A sub-agent's own transcript, in file order (they do not branch), with what it cost. */
function subagentFileView(
  sub: SubagentData,
  number: number,
  file: SessionFile | null,
  startedBy: ForkLink | null,
  parent: ConversationContext,
  session: SessionData,
  ctx: PageContext,
): SectionView {
  const { models, failed, aborted } = subagentOwn(sub, ctx.scope.period);
  // Claude Code deletes a sub-agent's file by its age, which may come before its session's: the
  // archive keeps what it has, the transcript too.
  const kept = file === null ? (ctx.keptTranscript?.(sub.key) ?? null) : null;
  const { tally, whole } = sub;
  // A side question that only replays a reply its session holds has usage, all counted there.
  const replayOnly = models.length === 0 && sub.ledger.entries.usageCount > 0 && whole.records === 0;
  const tokensOf = (usage: UsageTotals) => formatCount(totalTokens(usage.tokens));
  // Spend outside the report's period is counted in that period's report: said, never shown as nothing.
  const outside = whole.records > tally.records;
  const summary = [
    models.join(', ') || (replayOnly ? 'no usage of its own (what it replays is counted where it was first recorded)' : 'no model recorded'),
    replayOnly ? '' : whole.records === 0 ? 'no usage recorded' : tally.records === 0 && outside ? 'none of its usage in this period' : `${tokensOf(tally)} tokens`,
    replayOnly || tally.records === 0 ? '' : `${boughCost(tally)} by bough${outside ? ' in this period' : ''}`,
    outside ? `${tokensOf(whole)} tokens, ${boughCost(whole)} by bough in all` : '',
    tally.outputPartial > 0 ? 'output possibly partial' : '',
    failed > 0 ? plural(failed, 'failed request') : '',
    aborted > 0 ? plural(aborted, 'stopped request') : '',
    file === null ? `its file ${goneWords(sub.ledger)}, ${kept === null ? 'so its transcript is not shown' : 'so its transcript is as an earlier build of this report showed it (its times in that build’s zone, its marks of what lay outside a period that build’s)'}` : '',
  ].filter(Boolean);
  // A spawned thread's replay of the history it was started from: the parent's, shown above.
  const section = { id: `subagent-${number}`, kind: 'subagent' as const, heading: subagentHeading(sub.label), note: null, from: startedBy, summary: summary.join(' · '), copiedFrom: 'the parent session, counted there' };
  if (file === null) return { ...section, file: sub.ledger.path, entries: (kept ?? []).map((entry, i) => keptEntry(entry.anchors[0] ?? `${section.id}-kept-${i}`, entry.html)) };
  const byId = new Map(file.entries.map((e) => [e.id, e]));
  const conversation: ConversationContext = {
    ...parent,
    copied: copiedHere(file.entries, sub.counted),
    ...periodMarks(session, ctx.scope.period),
    usageCountedElsewhere: usageCountedElsewhere(file.entries, sub.counted),
    labels: new Map(),
    hidden: new Set(),
    forksAt: () => [],
    entryNamed: (id) => {
      const entry = byId.get(id);
      return entry === undefined ? null : shorten(describeEntry(entry), TARGET_LENGTH);
    },
    callOf: toolCallsOf(file.entries),
  };
  return { ...section, file: file.path, entries: file.entries.map((entry) => sectionEntry(entry, conversation)) };
}

/** Why a sub-agent's file is not read: gone, or there but no longer the file the archive holds. */
function goneWords(ledger: SessionLedger): string {
  if (ledger.fileHoldsLess) return 'holds less than when it was archived (cut short, or an older copy put back)';
  return ledger.fileThere ? 'no longer reads as it (emptied or damaged)' : 'is no longer present';
}

/** An entry of a transcript an earlier build rendered, as it wrote it. */
function keptEntry(anchor: string, html: string): SectionEntry {
  return {
    anchor,
    copied: false,
    time: () => '',
    day: () => null,
    view: () => {
      throw new Error('a kept transcript has no view: its HTML is kept');
    },
    kept: html,
  };
}

/** The page of a session whose own page could not be written: what failed, and that its numbers still count. */
export interface FailedPageView {
  title: string;
  indexHref: string;
  problem: string;
  file: string;
}

export function failedPageView(session: SessionData, problem: string, indexHref: string): FailedPageView {
  return { title: session.ledger.title, indexHref, problem: `This session's page could not be written: ${problem}.`, file: session.ledger.path };
}

function unrecordedNote(session: SessionData, price: Pricer, scope: Scope): string | null {
  const records = session.unrecorded.flatMap((entry) => entry.usage).filter((usage) => inPeriod(scope.period, usage.time ?? session.untimedAt));
  if (records.length === 0) return null;
  let tokens = 0;
  let cost: number | null = 0;
  for (const usage of records) {
    tokens += totalTokens(usage);
    const priced = price(usage, session.ledger.source, session.ledger.path).cost;
    cost = cost === null || priced === null ? null : cost + priced;
  }
  const spent = cost === null ? 'at a cost bough does not know in full' : `${formatUsd(cost)} by bough's price`;
  return `Of these, ${plural(tokens, 'token')} (${spent}) Claude Code recorded only in its running totals of the session (its cost-state records), not in its transcript: the requests of its compactions, side questions and session titles. They are counted here, in the main thread, at the time those totals were written.`;
}

function costNote(session: SessionData): string | null {
  const check = session.costCheck;
  if (check.incomplete) {
    const why =
      check.incompleteBy === 'model priced in part'
        ? 'the price table lacks some rates of a model it used'
        : check.incompleteBy === 'no token counts'
          ? 'a usage record gives a cost but no token counts'
          : check.incompleteBy === 'token count left out'
            ? 'a token count that could not be read, or could not be true, is left out'
            : check.incompleteBy === 'no model recorded'
              ? 'a usage record names no model'
              : 'a model not in the price table';
    const unknown = `bough cannot price all of this session's usage (${why}), so its own cost is unknown in part and is not compared with the ${formatUsd(session.tally.cost.recorded)} the agent recorded`;
    // The records it did price are still compared: one unpriced reply must not hide the rest's differences.
    if (!check.differs) return check.comparedRecords === 0 ? `${unknown}.` : `${unknown}; the records it priced agree with their recorded cost.`;
    const records = check.differingRecords > 0 ? `${plural(check.differingRecords, 'usage record')} ${check.differingRecords === 1 ? 'differs from its' : 'differ from their'} recorded cost by more than 1%` : 'they differ from their recorded cost by more than a cent and 1% in all';
    return `${unknown}. Of the records it priced, ${records}. Likely reason: ${check.reason}.`;
  }
  // A record with no recorded cost is not a recorded $0: the recorded total covers the others only.
  const none = check.unrecorded > 0 ? `the agent stored no cost for ${plural(check.unrecorded, 'usage record')} of this session` : null;
  if (check.differs && check.difference !== null) {
    const over = none ? ` over the records with one (${none})` : '';
    const records = check.differingRecords > 0 ? `; ${plural(check.differingRecords, 'usage record')} ${check.differingRecords === 1 ? 'differs' : 'differ'} on its own by more than 1%` : '';
    return `bough's price differs from the recorded cost by ${formatUsd(check.difference)}${over}${records}. Likely reason: ${check.reason}.`;
  }
  if (none && check.difference !== null) {
    return `The recorded ${formatUsd(session.tally.cost.recorded)} covers part of this session only: ${none}. Over the rest, bough's price agrees.`;
  }
  return null;
}

function branchView(branch: Branch, ctx: ConversationContext, copiedFrom: string): SectionView {
  const entries = branch.entries.map((entry) => sectionEntry(entry, ctx));
  const first = branch.entries[0];
  const section = { kind: 'branch' as const, summary: null, file: null, copiedFrom };
  if (branch.isActive) {
    return { ...section, id: 'branch-1', heading: 'Conversation (active path)', note: 'From the first entry to the last one written.', from: null, entries };
  }
  return {
    ...section,
    id: `branch-${branch.number}`,
    heading: `Branch ${branch.number}`,
    note: branch.forkPoint ? `Leaves the conversation after this entry:` : 'A separate root in the same file.',
    from: branch.forkPoint ? { label: describeEntry(branch.forkPoint), href: `#${anchorOf(branch.forkPoint)}` } : null,
    entries: first ? entries : [],
  };
}

/**
 * The entries of commits the page shows, by id: not a gone sub-agent file's whose transcript is
 * not shown (a link to it would lead nowhere). Looked for by the few commits, not by every entry.
 */
function commitsShown(tools: ToolTotals, files: readonly (SessionFile | null)[], kept: readonly (readonly KeptEntryView[] | null)[]): Set<string> {
  const wanted = new Set(tools.commits.map((c) => c.entryId));
  const shown = new Set<string>();
  if (wanted.size === 0) return shown;
  for (const file of files) for (const entry of file?.entries ?? []) if (wanted.has(entry.id)) shown.add(entry.id);
  for (const id of wanted) if (kept.some((entries) => entries?.some((entry) => entry.anchors.includes(anchorOfId(id))))) shown.add(id);
  return shown;
}

function toolsView(tools: ToolTotals, shown: ReadonlySet<string>): ToolsView | null {
  // Results whose calls are not in the files read still changed files: said.
  if (tools.calls === 0 && tools.commits.length === 0 && tools.files.length === 0 && tools.added + tools.removed === 0) return null;
  const landed = tools.commits.filter((c) => c.landed).length;
  const summary = [
    plural(tools.calls, 'tool call'),
    tools.failures > 0 ? `${formatCount(tools.failures)} failed` : '',
    tools.files.length > 0 ? `${plural(tools.files.length, 'file')} touched` : '',
    tools.added + tools.removed > 0 ? `+${formatCount(tools.added)} −${formatCount(tools.removed)} lines` : '',
    tools.commits.length > 0 ? `${plural(landed, 'commit')} landed${landed < tools.commits.length ? `, ${formatCount(tools.commits.length - landed)} failed` : ''}` : '',
  ].filter(Boolean);
  return {
    summary: summary.join(' · '),
    byTool: tools.byTool.map((t) => ({ name: t.name, calls: formatCount(t.calls) })),
    filesAnchor: FILES_ANCHOR,
    files: tools.files.map((f) => ({
      path: f.path,
      actions: [f.reads ? `read ${f.reads}` : '', f.writes ? `write ${f.writes}` : '', f.edits ? `edit ${f.edits}` : ''].filter(Boolean).join(' · '),
      added: f.added ? `+${formatCount(f.added)}` : '',
      removed: f.removed ? `−${formatCount(f.removed)}` : '',
    })),
    commits: tools.commits.map((c) => ({
      text: c.line ?? `git commit${c.message ? ` -m ${JSON.stringify(c.message)}` : ''} (git printed no commit line)`,
      landed: c.landed,
      href: shown.has(c.entryId) ? `#${anchorOfId(c.entryId)}` : null,
    })),
  };
}

function treeNote(roots: number, orphans: number, branches: number): string {
  const parts = [plural(branches, 'branch', 'branches'), plural(roots, 'root')];
  if (orphans > 0) parts.push(`${plural(orphans, 'entry', 'entries')} whose parent is missing (shown as roots)`);
  return parts.join(' · ');
}

/** The latest label entry for each target wins; an empty label clears it. */
function latestLabels(entries: readonly Entry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind !== 'label' || entry.targetId === null) continue;
    if (entry.label === null) labels.delete(entry.targetId);
    else labels.set(entry.targetId, entry.label);
  }
  return labels;
}

function hiddenByContextEdits(tree: EntryTree): Set<string> {
  // Edits are branch-relative, and the latest on a path wins (pi.md §5): on the active path, an
  // entry is hidden by the active path's latest edit of it; elsewhere, by the latest edit of it
  // written below it (a rewrite after an omission shows it again; an omission on a branch the
  // conversation left does not hide it on the active path).
  const latest = new Map<string, EntryOf<'contextEdit'>>();
  const onActivePath = new Set(tree.activePath);
  for (const entry of tree.activePath) if (entry.kind === 'contextEdit' && entry.targetId) latest.set(entry.targetId, entry);
  for (const entry of tree.entries) {
    if (entry.kind !== 'contextEdit' || !entry.targetId || onActivePath.has(entry)) continue;
    const target = tree.byId.get(entry.targetId);
    if (target === undefined || onActivePath.has(target)) continue;
    latest.set(entry.targetId, entry);
  }
  return new Set([...latest].flatMap(([target, edit]) => (edit.omitted ? [target] : [])));
}

/** How long a link to another entry of the page (a label's, a context edit's) may name it. */
const TARGET_LENGTH = 60;

/** One line for a tree node or a link: what the user typed, or what the entry was. */
export function describeEntry(entry: Entry): string {
  switch (entry.kind) {
    case 'prompt': {
      const typed = blockText(entry.content, ' ').replace(/\s+/g, ' ').trim();
      if (entry.skill) return `${entry.skill.command}${typed ? ` ${typed}` : ''}`;
      return typed || (entry.content.some((block) => block.type === 'image') ? IMAGE_PROMPT : EMPTY_PROMPT);
    }
    case 'reply':
      return entry.outcome === 'error' ? `error reply: ${entry.errorMessage ?? ''}`.trim() : `reply (${entry.model ?? 'model'})`;
    case 'toolResult':
      return `${entry.toolName ?? 'tool'} result`;
    case 'toolCall':
      return `${entry.call.name} call`;
    case 'shell':
      return `!${entry.command}`;
    case 'modelChange':
      return `model → ${entry.model ?? '?'}`;
    case 'thinkingChange':
      return `thinking → ${entry.level ?? '?'}`;
    case 'compaction':
      return 'compaction';
    case 'branchSummary':
      return 'branch summary';
    case 'label':
      return `label ${entry.label ?? ''}`;
    case 'name':
      return `named ${entry.name ?? ''}`;
    case 'contextEdit':
      return 'context edit';
    case 'custom':
      return entry.customType;
    case 'notice':
      return entry.label;
    case 'system':
      return 'system prompt';
    case 'usageOnly':
      return entry.usageKind;
    case 'unknown':
      return entry.rawType;
  }
}

/** One page of a session: the head (numbers, tree) on the first part, then its share of the sections. */
export interface SessionPartView {
  page: SessionPageView;
  first: boolean;
  /** Null when the session fits one page. */
  parts: PartsNav | null;
  /** The prompts on this page. */
  outline: OutlineItem[];
  /** How many, as the outline's heading says it: "3", or "3, 2 of them copied" (the page's counts leave copies out). */
  outlineCount: string;
  sections: PartSectionView[];
}

export interface PartsNav {
  number: number;
  count: number;
  /** The first part: the session's numbers and tree. */
  first: string;
  previous: string | null;
  next: string | null;
  all: { label: string; href: string; current: boolean }[];
}

export interface PartSectionView extends Omit<SectionView, 'entries'> {
  /** The section began in an earlier part. */
  continued: boolean;
  /** Its id on this page: a section carried on from an earlier part takes another, so ids stay unique across parts. */
  anchor: string;
  /** Its entries here, rendered, each run of copied ones folded into one item. */
  items: PartItem[];
}

/**
 * An entry's HTML, or a run of entries copied from another session (a fork's or a resumed file's
 * history, a spawned Codex thread's replay of its parent): folded, as the session they were copied
 * from shows and counts them. Entries stay bare strings: a long session's page has hundreds of
 * thousands, and wrapping each raised its build's peak (500 MB: ~2.6 GB against ~2.35 GB).
 */
export type PartItem = string | CopiedRun;

export interface CopiedRun {
  summary: string;
  html: string[];
}

/** Bytes a folded run's markup adds around its entries, at most (for planning parts). */
export const COPIED_RUN_BYTES = 300;

/** A section's rendered entries in items: each maximal run of copied entries one folded item. */
export function partItems(entries: readonly SectionEntry[], html: readonly string[], copiedFrom: string): PartItem[] {
  if (!entries.some((entry) => entry.copied)) return [...html];
  const items: PartItem[] = [];
  let run: CopiedRun | null = null;
  entries.forEach((entry, i) => {
    const rendered = html[i] ?? '';
    if (!entry.copied) {
      run = null;
      items.push(rendered);
    } else if (run !== null) {
      run.html.push(rendered);
    } else {
      run = { summary: '', html: [rendered] };
      items.push(run);
    }
  });
  for (const item of items) if (typeof item !== 'string') item.summary = `${plural(item.html.length, 'entry', 'entries')} copied from ${copiedFrom}`;
  return items;
}

/** Part `index` of a session's page, given its plan and its rendered entries (`htmlOf` a run of them). */
export function sessionPartView(
  view: SessionPageView,
  plan: { parts: readonly (readonly PartRange[])[] },
  index: number,
  htmlOf: (range: PartRange) => string[],
  fileOfPart: (index: number) => string,
): SessionPartView {
  const count = plan.parts.length;
  const others = count === 1 ? null : partsIndexOf(view, plan);
  const parts: PartsNav | null =
    others === null
      ? null
      : {
          number: index + 1,
          count,
          first: fileOfPart(0),
          previous: index > 0 ? fileOfPart(index - 1) : null,
          next: index < count - 1 ? fileOfPart(index + 1) : null,
          all: others.labels.map((label, i) => ({ label, href: fileOfPart(i), current: i === index })),
        };
  // A long session's outline lists the prompts of this part; the list of parts leads to the rest.
  const outline = others === null ? view.outline : (others.outlines[index] ?? []);
  const copiedCount = outline.filter((item) => item.copied).length;
  return {
    page: view,
    first: index === 0,
    parts,
    outline,
    outlineCount: copiedCount === 0 ? String(outline.length) : `${outline.length}, ${copiedCount} of them copied`,
    sections: (plan.parts[index] ?? []).map((range) => {
      const { entries, ...section } = view.sections[range.section] as SectionView;
      const continued = range.from > 0;
      const items = partItems(entries.slice(range.from, range.to), htmlOf(range), section.copiedFrom);
      return { ...section, continued, anchor: continued ? `${section.id}-part-${index + 1}` : section.id, items };
    }),
  };
}

/** What each part of a plan shows of all of them: its label in the list of parts, its prompts in the outline. */
interface PartsIndex {
  labels: string[];
  outlines: OutlineItem[][];
}

/** Made once per plan, not once per part: a session of 500 MB has hundreds of parts, and this looks at them all. */
const partsIndexes = new WeakMap<object, PartsIndex>();

function partsIndexOf(view: SessionPageView, plan: { parts: readonly (readonly PartRange[])[] }): PartsIndex {
  const known = partsIndexes.get(plan);
  if (known) return known;
  const firstEntry = (ranges: readonly PartRange[]): { section: SectionView; entry: SectionEntry } | null => {
    for (const range of ranges) {
      const section = view.sections[range.section];
      const entry = section?.entries[range.from];
      if (section && entry && range.to > range.from) return { section, entry };
    }
    return null;
  };
  // Each part by the section it starts in, where that changes (a branch's parts follow the active
  // path's, back in time), and its first entry's time, dated where the day changes: "Part 12 ·
  // Branch 2 · from 2026-10-05 13:02:17" after "Part 11 · from 2026-10-06 16:50:23".
  let lastHeading: string | null = null;
  let lastDay: string | null = null;
  const labels = plan.parts.map((ranges, i) => {
    const first = firstEntry(ranges);
    if (first === null) return `Part ${i + 1}`;
    const heading = first.section.heading === lastHeading ? '' : ` · ${first.section.heading}`;
    lastHeading = first.section.heading;
    const day = first.entry.day();
    const time = first.entry.time(lastDay ?? '');
    if (day !== null) lastDay = day;
    return `Part ${i + 1}${heading}${time ? ` · from ${time}` : ''}`;
  });
  // Each prompt of the outline is listed on the part (or parts) holding its entry.
  const prompts = new Set(view.outline.map((item) => item.anchor));
  const partsOf = new Map<string, Set<number>>();
  plan.parts.forEach((ranges, i) => {
    for (const range of ranges) {
      for (const entry of (view.sections[range.section]?.entries ?? []).slice(range.from, range.to)) {
        if (prompts.has(entry.anchor)) partsOf.set(entry.anchor, (partsOf.get(entry.anchor) ?? new Set()).add(i));
      }
    }
  });
  const outlines = plan.parts.map((): OutlineItem[] => []);
  for (const item of view.outline) for (const part of partsOf.get(item.anchor) ?? []) outlines[part]?.push(item);
  const index = { labels, outlines };
  partsIndexes.set(plan, index);
  return index;
}

/**
 * The line under a session's title. A sub-agent's transcript read without its session's (its own
 * session here) has no prompts of the user's and counts its use as sub-agent use: it says what it
 * holds, its tasks and replies, not "0 prompts · 0 replies" above a tree of replies.
 */
function subtitleOf(session: SessionData, turns: SubagentTurns | null): string {
  const { ledger, tally } = session;
  const branches = plural(ledger.branches, 'branch', 'branches');
  if (turns === null) return `${plural(tally.prompts, 'prompt')} · ${plural(tally.replies, 'reply', 'replies')} · ${branches}`;
  return `a sub-agent's transcript: ${plural(turns.tasks, 'task')} · ${plural(turns.replies, 'reply', 'replies')} · ${branches}`;
}

function subagentTurnsOf(file: SessionFile): SubagentTurns {
  const turns: SubagentTurns = { tasks: 0, replies: 0, errorReplies: 0 };
  for (const entry of file.entries) {
    if (entry.kind === 'prompt') turns.tasks++;
    if (entry.kind !== 'reply') continue;
    turns.replies++;
    if (entry.outcome === 'error') turns.errorReplies++;
  }
  return turns;
}

/**
 * What a page marks outside the period. A usage record goes by its own time, which may not be its
 * entry's (a response streamed across midnight is dated by its last line, formats/claude.md §9.2),
 * and a reply by its usage's (countedTimeOf): an entry is marked outside only when its usage is
 * too, and usage outside under an entry inside is said not to count here.
 */
function periodMarks(session: Pick<SessionData, 'partly' | 'untimedAt'>, period: Period): Pick<ConversationContext, 'outsidePeriod' | 'usageOutsidePeriod'> {
  if (!session.partly) return { outsidePeriod: () => false, usageOutsidePeriod: () => false };
  const usageIn = (usage: Usage, entry: Entry) => inPeriod(period, usage.timestamp ?? entry.timestamp ?? session.untimedAt);
  return {
    outsidePeriod: (entry) => !inPeriod(period, countedTimeOf(entry) ?? session.untimedAt) && !entry.usage.some((usage) => usageIn(usage, entry)),
    usageOutsidePeriod: (usage, entry) => !usageIn(usage, entry),
  };
}
