// The report data: every number a report shows, built once from ledgers, claims and prices and
// cut to a scope (period, project, agent). The HTML folder, `stats` tables and `stats --json`
// are views of it. Pure: the pricer and the time zone are parameters.
//
// A period selects each prompt, reply and usage record by its own time in the zone, so a session
// running across midnight counts each part on its own day; a record without a time goes by its
// session's. A session belongs to a period when anything it counts falls there.

import type { Claims, Counted } from '../ledger/claims.js';
import { isWarmupFile, type LedgerEntry, type LedgerToolCall, type LedgerToolResult, type LedgerUsage, type SessionKey, type SessionLedger } from '../ledger/ledger.js';
import { unpackEntries, type Unpack } from '../ledger/packed-entries.js';
import { unrecordedSpend } from '../ledger/running-totals.js';
import { folderMatchText, inPeriod, namesUnknownFolder, projectMatchText, UNKNOWN_FOLDER, type Scope, type SharedProjectFilter } from '../ledger/scope.js';
import { NOTHING_BILLED, type PricedUsage, type PriceState, type Pricer } from '../pricing/price.js';
import { costCheck, type CostCheck } from '../pricing/reconcile.js';
import { withoutLongPathPrefix } from '../sources/tool-output.js';
import { dayKey, isoWeekKey, localDayNumber, localParts, monthKey } from '../time-zone.js';
import { TOKEN_KINDS, zeroTokens, type Source, type TokenCounts } from '../types.js';

export interface Cost {
  /** bough's own price of the records it could price; null when it priced none. */
  bough: number | null;
  /** What the agent recorded; null when it recorded none. */
  recorded: number | null;
}

export interface UsageTotals {
  tokens: TokenCounts;
  cost: Cost;
  records: number;
  /** Records the table could not price: their cost is unknown, not zero. */
  unpriced: number;
  /** Records priced only in part (the table lacks a rate for some token kind). */
  partial: number;
  /** Records whose output count the agent may not have written in full (a lower bound). */
  outputPartial: number;
  /** Records with a cost the agent recorded: `cost.recorded` covers these only. */
  withRecordedCost: number;
  /** Web searches the provider ran and bills apart from tokens (in `cost.bough` where priced). */
  webSearches: number;
}

export interface Tally extends UsageTotals {
  prompts: number;
  replies: number;
  errorReplies: number;
  abortedReplies: number;
  lengthReplies: number;
  /** Sub-agent spend, also included in `tokens` and `cost`. */
  subagents: UsageTotals;
  firstAt: number | null;
  lastAt: number | null;
}

/** Usage of one billed model (provider and model as the source reported them), at one speed. */
export interface ModelTotals extends UsageTotals {
  /** The provider and the model apart by NULs, and a mark for fast mode: the same for their usage only. */
  key: string;
  provider: string | null;
  model: string | null;
  /** Served in fast mode, billed at a multiple of the model's rates: a row of its own. */
  fast: boolean;
  /** Served in the flex tier (OpenAI's, Codex's setting), billed at its rates: a row of its own. */
  flex: boolean;
  local: boolean;
  /** The table entry or rule that priced it, and how. */
  priceKey: string | null;
  priceState: PriceState | null;
  /** How its records were priced, each thing said once (fast mode, searches, tiers, missing rates). */
  priceNote: string | null;
  /** A subscription provider's usage priced at API rates (--price-subscriptions): what it would have cost, not what was paid. */
  apiEquivalent: boolean;
  sessions: number;
}

/** A slice of the scope: a day, week or month, or an agent. */
export interface Bucket {
  key: string;
  sessions: number;
  tally: Tally;
  /** Usage by model key within the slice, for charts. */
  byModel: Map<string, UsageTotals>;
}

export interface FileTouch {
  path: string;
  reads: number;
  writes: number;
  edits: number;
  added: number;
  removed: number;
}

export interface ToolTotals {
  calls: number;
  failures: number;
  byTool: { name: string; calls: number }[];
  files: FileTouch[];
  added: number;
  removed: number;
  commits: { landed: boolean; line: string | null; message: string | null; entryId: string }[];
}

export interface SessionLink {
  key: SessionKey;
  path: string;
  title: string;
}

export interface SessionData {
  key: SessionKey;
  ledger: SessionLedger;
  projectKey: string;
  /** What the session counts within the scope. */
  tally: Tally;
  /** What it counts in all, the period aside: shown when only part of it falls in the period. */
  whole: Tally;
  /** Some of what it counts lies outside the period. */
  partly: boolean;
  /** First and last entry the session counts, in or out of the period (its header time, else its file's, when it counts none). */
  startedAt: number;
  lastAt: number;
  /** The time a record without one of its own goes by: the session's, as its header says, else its first entry's. */
  untimedAt: number;
  byModel: ModelTotals[];
  tools: ToolTotals;
  costCheck: CostCheck;
  /** The session this one was copied from, when it is among the inputs (in this report's scope or not). */
  origin: SessionLink | null;
  /** It was copied from a file that is not among the inputs. */
  originMissing: boolean;
  /** Its origin is itself a copy (a fork of a fork): some entries they share are counted further back. */
  originCopied: boolean;
  /** With its origin missing: the sessions that count what it copied (another copy of that origin, the origin's own origin), in the order they count. */
  countedIn: SessionLink[];
  copies: SessionLink[];
  /** Other files holding this session or one of its sub-agents and nothing more (another config root, an archived copy): they count nothing. */
  duplicates: SessionLink[];
  countedEntries: number;
  /** What this session counts of its file (entries and usage records another file holds count there). */
  counted: Counted;
  /** Sub-agent files counted in this session (their usage in its totals), shown apart. */
  subagents: SubagentData[];
  /** The usage of the session's own file when that is a sub-agent's (no main transcript was written): as a sub-agent's `tally`. */
  hostTally: Tally | null;
  /** Spend the agent recorded only in its running totals, as usage entries of their own (running-totals.ts): counted with the main file's. */
  unrecorded: LedgerEntry[];
  /**
   * Nothing but Claude Code's start-up warmups (claude.md §8.4: no visible session): its spend is
   * in every total, its page kept, but no list shows it as a session or counts it as one.
   */
  warmupOnly: boolean;
}

/** A sub-agent's own file, counted in the session that ran it. */
export interface SubagentData {
  key: SessionKey;
  ledger: SessionLedger;
  counted: Counted;
  /** What it was for, as recorded, else its first words. */
  label: string;
  /** Its usage within the scope (also in its session's tally). */
  tally: Tally;
  /** Its usage in all, the period aside: said where little or none of it falls in the period. */
  whole: UsageTotals;
}

export interface ProjectData {
  key: string;
  /** The working directory as most of its sessions spelled it; null when none recorded one. */
  cwd: string | null;
  /** Without a working directory, the agent's project folder (a Codex rollout's git repository) its sessions were filed in; else null. */
  folder: string | null;
  name: string;
  /** In scope, newest first; sessions of warmups alone apart, in `warmups`. */
  sessions: SessionKey[];
  /** Its sessions of Claude Code's start-up warmups alone (see SessionData.warmupOnly), newest first. */
  warmups: SessionKey[];
  tally: Tally;
  byModel: ModelTotals[];
  byDay: Bucket[];
  byMonth: Bucket[];
  /** Files its sessions' tools touched, most touched first. */
  files: FileTouch[];
}

export interface ReportData {
  scope: Scope;
  totals: Tally;
  /** In scope, newest first: every session with a page, those of warmups alone among them (see listedSessions). */
  sessions: SessionData[];
  /** In scope, most expensive first. */
  projects: ProjectData[];
  /** Most expensive first. */
  models: ModelTotals[];
  /** Chronological; only slices with activity. */
  days: Bucket[];
  weeks: Bucket[];
  months: Bucket[];
  /** Most expensive first. */
  sources: Bucket[];
  /**
   * For saying why a scope is empty: how many sessions were read, and how many of them (and over
   * which days) the project and agent filters let through, with no period.
   */
  available: { read: number; sessions: number; firstAt: number | null; lastAt: number | null };
}

/** The sessions a report lists and counts: all but those of Claude Code's start-up warmups alone. */
export function listedSessions(sessions: readonly SessionData[]): SessionData[] {
  return sessions.filter((session) => !session.warmupOnly);
}

/** The files a session is read from: its own, its sub-agents', and its duplicates (another config root, an archived copy). */
export function filesOfSession(session: SessionData): string[] {
  return [session.ledger.path, ...session.subagents.map((s) => s.ledger.path), ...session.duplicates.map((d) => d.path)];
}

export function emptyUsageTotals(): UsageTotals {
  return { tokens: zeroTokens(), cost: { bough: null, recorded: null }, records: 0, unpriced: 0, partial: 0, outputPartial: 0, withRecordedCost: 0, webSearches: 0 };
}

export function emptyTally(): Tally {
  // Written out, not spread from emptyUsageTotals(): a report makes several per session and day,
  // and a spread into a literal is V8's slow path (0.5 s of a rebuild over 30,000 sessions).
  return {
    tokens: zeroTokens(),
    cost: { bough: null, recorded: null },
    records: 0,
    unpriced: 0,
    partial: 0,
    outputPartial: 0,
    withRecordedCost: 0,
    webSearches: 0,
    prompts: 0,
    replies: 0,
    errorReplies: 0,
    abortedReplies: 0,
    lengthReplies: 0,
    subagents: emptyUsageTotals(),
    firstAt: null,
    lastAt: null,
  };
}

/** input + output + cache read + cache write (reasoning is inside output). */
export function totalTokens(tokens: TokenCounts): number {
  return tokens.input + tokens.cacheRead + tokens.cacheWrite + tokens.output;
}

/**
 * `sharedProject`: in a report that redacts, the sessions whose folder held the `--project` text
 * before it was redacted, whose projects are in the report as they would be in one that does not
 * redact; and the text as the report shows it. `unpack`: how a session's entries are had (see EntriesHold).
 */
export function buildReportData(
  ledgers: readonly SessionLedger[],
  claims: Claims,
  price: Pricer,
  scope: Scope,
  sharedProject: SharedProjectFilter | null = null,
  unpack: Unpack = unpackEntries,
): ReportData {
  const projects = groupProjects(ledgers);
  // In a report that redacts, a project of sessions read now is matched by their folders as
  // read; one of sessions kept from an earlier build, by its folder as redacted then.
  const projectsMatched = new Set<string>();
  const projectsRead = new Set<string>();
  /** Projects some of whose sessions are kept from an earlier build, with a folder that may match. */
  const projectsKept = new Set<string>();
  /** Of sessions read now whose working folder held the text: their agent's project folder and project, together. */
  const foldersMatched = new Set<string>();
  /** Of sessions read now that name their working folder: their agent's project folder and project. */
  const foldersRead = new Set<string>();
  const inFolder = (ledger: SessionLedger, group: ProjectGroup) => `${folderKeyOf(ledger) ?? ''}\u0000${group.key}`;
  if (sharedProject) {
    for (const [ledger, group] of projects.byLedger) {
      if (ledger.cwd !== null && sharedProject.read.has(ledger.key)) foldersRead.add(inFolder(ledger, group));
      if (ledger.cwd !== null && sharedProject.matches.has(ledger.key)) foldersMatched.add(inFolder(ledger, group));
      // A project of working directories goes by those, as in a report that does not redact: a
      // member without one (grouped by its folder) does not make it match by that folder.
      const speaks = group.cwd === null || ledger.cwd !== null;
      if (!sharedProject.read.has(ledger.key)) {
        if (speaks) projectsKept.add(group.key);
        continue;
      }
      projectsRead.add(group.key);
      if (sharedProject.matches.has(ledger.key) && speaks) projectsMatched.add(group.key);
    }
  }
  // A session read now that names its folder goes by that folder as read, not by its project's
  // (regression: folders that redact alike, another user's home, `/Users/erin/shop` and
  // `C:\\Users\\dave\\shop` both `~/shop`, are one project there, and `--project dave` took erin's).
  // One that names none goes as a report that does not redact takes it: with the sessions of its
  // agent's project folder it is grouped with (their folders matched), else by that folder's name
  // (regression, a hostile look: by its merged project, it came along with another user's; by any
  // of its folder's sessions, with those of another folder; by its folder's name, where a plain
  // report looks only at the folders its project's sessions name).
  const projectMatches = (group: ProjectGroup, ledger: SessionLedger): boolean => {
    if (sharedProject !== null && sharedProject.read.has(ledger.key)) {
      if (ledger.cwd !== null || group.cwd === null) return sharedProject.matches.has(ledger.key);
      const place = inFolder(ledger, group);
      // Those sessions all kept from an earlier build (their files gone): by the project as it is.
      return foldersMatched.has(place) || (!foldersRead.has(place) && group.matches(scope.project));
    }
    if (projectsRead.has(group.key)) return projectsMatched.has(group.key) || (projectsKept.has(group.key) && group.matches(scope.project));
    return group.matches(scope.project);
  };
  const report = new Aggregator(scope);
  const available = { read: 0, sessions: 0, firstAt: null as number | null, lastAt: null as number | null };
  const sessions: SessionData[] = [];
  const byKey = new Map(ledgers.map((l) => [l.key, l]));
  const link = (key: SessionKey): SessionLink => {
    const other = byKey.get(key) as SessionLedger;
    return { key, path: other.path, title: other.title };
  };
  /**
   * A session as a page shows it: a file listed with another (an archived copy of a thread) or a
   * sub-agent's file is shown by the session that holds it, so a link to it goes there.
   */
  const shownAs = (key: SessionKey): SessionKey => {
    const held = claims.duplicateOf.get(key) ?? key;
    return claims.hostOf.get(held) ?? held;
  };
  // A copy whose origin is missing (a fork of a fork whose middle file is gone) links to the
  // sessions counting what it copied: each lists it among its copies in turn, but a sibling (a
  // copy of the same missing origin, which holds the entries first), copied from no such thing.
  const missingOriginOf = (key: SessionKey) => {
    const ledger = claims.missingOrigin.has(key) ? byKey.get(key) : undefined;
    return ledger === undefined ? null : (ledger.parentFile ?? ledger.parentSessionId);
  };
  const copiesCountedIn = new Map<SessionKey, SessionKey[]>();
  for (const [copy, holders] of claims.countedIn) {
    const copiedFrom = missingOriginOf(copy);
    for (const holder of holders) {
      const sibling = copiedFrom !== null && missingOriginOf(holder) === copiedFrom;
      if (!sibling) copiesCountedIn.set(holder, [...(copiesCountedIn.get(holder) ?? []), copy]);
    }
  }
  /** The copies taken from any file this session shows, each once, as the sessions that show them. */
  const copiesShownBy = (parts: readonly CountedPart[], own: SessionKey): SessionKey[] => {
    const files = parts.flatMap((part) => [part.ledger.key, ...(claims.duplicatesOf.get(part.ledger.key) ?? [])]);
    const copies = new Set(files.flatMap((key) => [...(claims.copiesOf.get(key) ?? []), ...(copiesCountedIn.get(key) ?? [])]).map(shownAs));
    copies.delete(own);
    return [...copies];
  };

  const countedOf = (ledger: SessionLedger): Counted => claims.counted.get(ledger.key) ?? nothingCounted(ledger);
  for (const ledger of ledgers) {
    // A sub-agent's file is read as part of the session that ran it; a file holding only what
    // another file of its session holds is listed with that session.
    if (claims.hostOf.has(ledger.key) || claims.duplicateOf.has(ledger.key)) continue;
    // A file of summaries alone (Claude Code's of sessions in other files) titles those sessions
    // and holds no conversation: no session of its own, dated by nothing but its file; unless
    // sub-agents of its session ran, whose spend it shows.
    if (ledger.entries.count === 0 && ledger.entryTitles.length > 0 && !claims.subagentsOf.has(ledger.key)) continue;
    // A start of Claude Code's warmups alone is no session (claude.md §8.4): not one said to lie
    // outside the period, nor to match no filter (a review: "none of the 2 sessions read matches").
    const listed = !isWarmupFile(ledger);
    if (listed) available.read++;
    const project = projects.byLedger.get(ledger) as ProjectGroup;
    if (scope.sources !== null && !scope.sources.includes(ledger.source)) continue;
    if (!projectMatches(project, ledger)) continue;
    if (listed) available.sessions++;
    // Unpacked for this session only (or held, within the hold's budget): the history's entries are never all unpacked at once.
    const parts: CountedPart[] = [ledger, ...(claims.subagentsOf.get(ledger.key) ?? []).map((key) => byKey.get(key) as SessionLedger)].map(
      (part) => ({ ledger: part, entries: unpack(part.entries), counted: countedOf(part), ...(part === ledger && claims.originOf.has(ledger.key) ? { copy: true } : {}) }),
    );
    const { span, counting } = countedSpans(parts);
    // Said of a period it is not in: where it counts something, else (as it is placed) its start.
    const placed = counting.first === null ? (span.first ?? ledger.startedAt ?? ledger.mtime) : null;
    if (listed) {
      available.firstAt = earliest(available.firstAt, counting.first ?? placed);
      available.lastAt = latest(available.lastAt, counting.last ?? placed);
    }
    const session = report.session(parts, span, project, price);
    if (session === null) continue;
    const origin = claims.originOf.get(ledger.key);
    session.origin = origin === undefined ? null : link(shownAs(origin));
    session.originMissing = claims.missingOrigin.has(ledger.key);
    session.originCopied = origin !== undefined && (claims.originOf.has(origin) || claims.missingOrigin.has(origin));
    session.countedIn = (claims.countedIn.get(ledger.key) ?? []).map((key) => link(shownAs(key)));
    session.copies = copiesShownBy(parts, ledger.key).map(link);
    session.duplicates = parts.flatMap((part) => claims.duplicatesOf.get(part.ledger.key) ?? []).map(link);
    sessions.push(session);
  }

  sessions.sort((a, b) => b.startedAt - a.startedAt || compareText(a.ledger.path, b.ledger.path));
  return {
    scope: sharedProject ? { ...scope, project: sharedProject.shownAs } : scope,
    totals: report.totals,
    sessions,
    projects: report.projectList(sessions),
    models: sortedModels(report.models),
    days: chronological(report.days),
    weeks: chronological(report.weeks),
    months: chronological(report.months),
    sources: [...report.sources.values()].sort((a, b) => byCost(a.tally, b.tally) || compareText(a.key, b.key)),
    available,
  };
}

// ─────────────────────────── aggregation ───────────────────────────

interface ProjectGroup {
  key: string;
  cwd: string | null;
  folder: string | null;
  name: string;
  matches(text: string | null): boolean;
}

interface ProjectAcc {
  group: ProjectGroup;
  tally: Tally;
  models: Map<string, ModelTotals>;
  days: Map<string, Bucket>;
  months: Map<string, Bucket>;
  files: Map<string, FileTouch>;
  sessions: Set<SessionKey>;
  warmups: Set<SessionKey>;
}

/** Where each counted thing lands: the session, its project, the totals, its day, week and month, its agent, its model. */
class Aggregator {
  readonly totals = emptyTally();
  readonly models = new Map<string, ModelTotals>();
  readonly days = new Map<string, Bucket>();
  readonly weeks = new Map<string, Bucket>();
  readonly months = new Map<string, Bucket>();
  readonly sources = new Map<string, Bucket>();
  private readonly projects = new Map<string, ProjectAcc>();
  /** Buckets and models the session being added already counts (each counts a session once). */
  private readonly seen = new Set<object>();
  /** The session being added is one the lists count (not of warmups alone). */
  private listing = true;
  /** The buckets of the session being added, by local day number. */
  private readonly sessionSlices = new Map<number, Bucket[]>();
  /** Day, week and month keys by local day number. */
  private readonly calendar = new Map<number, { day: string; week: string; month: string }>();

  constructor(private readonly scope: Scope) {}

  /** A session: its own file first, then the sub-agent files counted in it (their usage, never their turns). */
  session(parts: readonly CountedPart[], span: Span, group: ProjectGroup, price: Pricer): SessionData | null {
    const [main, ...subagentParts] = parts as [CountedPart, ...CountedPart[]];
    const { ledger, entries, counted } = main;
    // A warmup's file stands for its session only when the session has nothing else (claims.ts).
    const warmupOnly = isWarmupFile(ledger);
    this.listing = !warmupOnly;
    const { period } = this.scope;
    const sessionTime = span.first ?? ledger.startedAt ?? ledger.mtime;
    // The session's time as its file records it (Pi's header, Codex's session_meta), not its first
    // readable entry's, which may come days later.
    const untimedAt = ledger.startedAt ?? sessionTime;
    const whole = emptyTally();
    const tally = emptyTally();
    const sessionModels = new Map<string, ModelTotals>();
    const windows = isWindowsCwd(ledger.cwd);
    const tools = new ToolAcc(windows);
    const checks = costCheck();
    let any = false;
    let outside = false;
    let countedEntries = 0;
    /** Of those, the entries that count something. */
    let countingEntries = 0;
    this.seen.clear();
    this.sessionSlices.clear();
    const project = this.projectOf(group);

    // Turns and usage are summed per local day (usage also per model) first, then placed once in
    // each of the ~20 totals they land in (session, project, report, day, week, month, agent, their
    // models): a session holds hundreds of records on a few days, and a rebuild places them all again.
    const pending = new Map<number, PendingDay>();
    /** Each model's first record in the session, in file order, and its price: they describe the model where it is new. */
    const firstOfModel = new Map<string, FirstOfModel>();
    const pendingDay = (time: number): PendingDay => {
      const dayNumber = localDayNumber(time, this.scope.timeZone);
      let day = pending.get(dayNumber);
      if (!day) {
        day = { time, turns: null, models: new Map() };
        pending.set(dayNumber, day);
      }
      return day;
    };
    // A session with no main transcript is shown from a sub-agent file of its own: that file's usage, as the other sub-agents'.
    const hostTally = ledger.subagentOf !== null ? emptyTally() : null;
    const countUsage = (usage: LedgerUsage, usageTime: number, into: Tally | null, intoWhole: Tally | null = null) => {
      const priced = price(usage, ledger.source, ledger.path);
      addUsage(whole, usage, priced);
      if (intoWhole) addUsage(intoWhole, usage, priced);
      if (!inPeriod(period, usageTime)) {
        outside = true;
        return;
      }
      any = true;
      checks.add(usage, priced);
      // Apart by NULs: a provider or model may hold a "/" (openrouter's anthropic/claude-…). A
      // provider's name run locally by one Codex home's configuration and billed by another's: two rows.
      const modelKey = `${usage.provider ?? '\0none'}\0${usage.model ?? ''}${usage.fast ? '\0fast' : usage.flex ? '\0flex' : ''}${priced.state === 'local' ? '\0local' : ''}`;
      const first = firstOfModel.get(modelKey);
      // A record of nothing (no tokens) tells nothing of how its model is priced: the first that bills any does.
      if (!first || (first.priced === NOTHING_BILLED && priced !== NOTHING_BILLED)) firstOfModel.set(modelKey, { usage, priced, notes: withNote(first?.notes ?? null, priced.note), seen: new Set([...(first?.seen ?? []), ...(priced.note === null ? [] : [priced.note])]) });
      else if (priced.note !== null && !first.seen.has(priced.note)) {
        // Records of a model say a handful of different things: each is merged in once, not per record.
        first.seen.add(priced.note);
        first.notes = withNote(first.notes, priced.note);
      }
      const day = pendingDay(usageTime);
      let sum = day.models.get(modelKey);
      if (!sum) {
        sum = { modelKey, into, tally: emptyTally() };
        day.models.set(modelKey, sum);
      }
      addUsage(sum.tally, usage, priced);
      sum.tally.firstAt = earliest(sum.tally.firstAt, usageTime);
      sum.tally.lastAt = latest(sum.tally.lastAt, usageTime);
    };
    const placePending = () => {
      for (const day of pending.values()) {
        const slices = this.slicesOf(day.time, ledger.source, project);
        if (day.turns) {
          for (const slice of [tally, this.totals, project.tally]) mergeTurns(slice, day.turns);
          for (const bucket of slices) mergeTurns(bucket.tally, day.turns);
        }
        for (const { modelKey, into, tally: sum } of day.models.values()) {
          const { usage, priced, notes } = firstOfModel.get(modelKey) as FirstOfModel;
          mergeTally(tally, sum);
          mergeTally(this.totals, sum);
          mergeTally(project.tally, sum);
          for (const bucket of slices) mergeTally(bucket.tally, sum);
          if (into) mergeTally(into, sum);
          for (const bucket of slices) mergeUsage(modelSlice(bucket.byModel, modelKey), sum);
          for (const models of [sessionModels, this.models, project.models]) {
            const model = modelTotals(models, modelKey, usage, priced);
            model.priceNote = withNote(model.priceNote, notes);
            mergeUsage(model, sum);
            if (!this.seen.has(model)) {
              this.seen.add(model);
              if (this.listing) model.sessions++;
            }
          }
        }
      }
      pending.clear();
    };

    walkCounted(entries, counted, untimedAt, {
      entry: (entry, entryTime) => {
        countedEntries++;
        // A model or thinking-level change, a label, a shell line: nothing the report counts, so
        // no reason to place the session in a period (opened before midnight, first used after).
        if (countsNothing(entry)) return;
        countingEntries++;
        addTurn(whole, entry, entryTime);
        if (!inPeriod(period, entryTime)) {
          outside = true;
          return;
        }
        any = true;
        const day = pendingDay(entryTime);
        addTurn((day.turns ??= emptyTally()), entry, entryTime);
        tools.add(entry);
      },
      usage: (usage, usageTime) => countUsage(usage, usageTime, hostTally),
    });
    // What the agent's running totals hold beyond what its files do: the main thread's spend.
    const unrecorded = unrecordedSpend(parts, untimedAt);
    for (const entry of unrecorded) for (const usage of entry.usage) countUsage(usage, usage.time ?? untimedAt, hostTally);
    placePending();
    const subagents: SubagentData[] = subagentParts.map((part) => {
      const own = emptyTally();
      const ownWhole = emptyTally();
      // A sub-agent's prompts are its task, written by the model: not the user's turns. Its tool work is the session's.
      walkCounted(part.entries, part.counted, untimedAt, {
        entry: (entry, entryTime) => {
          if (inPeriod(period, entryTime)) tools.add(entry);
        },
        usage: (usage, usageTime) => countUsage(usage, usageTime, own, ownWhole),
      });
      // Before the next file: a sub-agent's own tally takes only its own records.
      placePending();
      return { key: part.ledger.key, ledger: part.ledger, counted: part.counted, label: part.ledger.subagentLabel ?? part.ledger.title, tally: own, whole: ownWhole };
    });
    // A session that counts nothing (a copy whose every entry is counted in its origin) is placed by its own time.
    if (countingEntries === 0 && !any && inPeriod(period, sessionTime)) {
      any = true;
      this.slicesOf(sessionTime, ledger.source, project);
    }
    if (!any) return null;
    (warmupOnly ? project.warmups : project.sessions).add(ledger.key);
    for (const file of tools.files.values()) mergeTouch(project.files, file, windows);
    return {
      key: ledger.key,
      ledger,
      projectKey: group.key,
      tally,
      whole,
      partly: outside,
      startedAt: sessionTime,
      lastAt: span.last ?? sessionTime,
      untimedAt,
      byModel: sortedModels(sessionModels),
      tools: tools.totals(),
      costCheck: checks.result(),
      origin: null,
      originMissing: false,
      originCopied: false,
      countedIn: [],
      copies: [],
      duplicates: [],
      countedEntries,
      counted,
      subagents,
      hostTally,
      unrecorded,
      warmupOnly,
    };
  }

  /** The day, week and month an instant falls in, the session's agent, and its project's day and month; each counts the session once. */
  private slicesOf(time: number, source: Source, project: ProjectAcc): Bucket[] {
    // Every usage record and entry is placed: a session's buckets of a local day are found once
    // (its agent and project are the same throughout), a day's keys once in all.
    const dayNumber = localDayNumber(time, this.scope.timeZone);
    const known = this.sessionSlices.get(dayNumber);
    if (known) return known;
    let keys = this.calendar.get(dayNumber);
    if (!keys) {
      const parts = localParts(time, this.scope.timeZone);
      keys = { day: dayKey(parts), week: isoWeekKey(parts), month: monthKey(parts) };
      this.calendar.set(dayNumber, keys);
    }
    const { day, month } = keys;
    const slices = [
      this.bucket(this.days, day),
      this.bucket(this.weeks, keys.week),
      this.bucket(this.months, month),
      this.bucket(this.sources, source),
      this.bucket(project.days, day),
      this.bucket(project.months, month),
    ];
    this.sessionSlices.set(dayNumber, slices);
    return slices;
  }

  private bucket(map: Map<string, Bucket>, key: string): Bucket {
    let bucket = map.get(key);
    if (!bucket) {
      bucket = { key, sessions: 0, tally: emptyTally(), byModel: new Map() };
      map.set(key, bucket);
    }
    if (!this.seen.has(bucket)) {
      this.seen.add(bucket);
      if (this.listing) bucket.sessions++;
    }
    return bucket;
  }

  private projectOf(group: ProjectGroup): ProjectAcc {
    let project = this.projects.get(group.key);
    if (!project) {
      project = { group, tally: emptyTally(), models: new Map(), days: new Map(), months: new Map(), files: new Map(), sessions: new Set(), warmups: new Set() };
      this.projects.set(group.key, project);
    }
    return project;
  }

  projectList(sessions: readonly SessionData[]): ProjectData[] {
    const order = new Map<string, SessionKey[]>();
    const warmups = new Map<string, SessionKey[]>();
    for (const session of sessions) {
      const lists = session.warmupOnly ? warmups : order;
      const list = lists.get(session.projectKey);
      if (list) list.push(session.key);
      else lists.set(session.projectKey, [session.key]);
    }
    // A project of warmups alone stays: its spend is in the totals, which its row adds up to.
    const projects = [...this.projects.values()]
      .filter((p) => p.sessions.size > 0 || p.warmups.size > 0)
      .map((p) => ({
        key: p.group.key,
        cwd: p.group.cwd,
        folder: p.group.folder,
        name: p.group.name,
        sessions: order.get(p.group.key) ?? [],
        warmups: warmups.get(p.group.key) ?? [],
        tally: p.tally,
        byModel: sortedModels(p.models),
        byDay: chronological(p.days),
        byMonth: chronological(p.months),
        files: [...p.files.values()].sort(byTouches),
      }))
      .sort((a, b) => byCost(a.tally, b.tally) || (b.tally.lastAt ?? 0) - (a.tally.lastAt ?? 0) || compareText(a.cwd ?? '', b.cwd ?? ''));
    const namesakes = namesakesOf(projects);
    return projects.map((project) => ({ ...project, name: distinctName(project, namesakes.get(project.name) ?? []) }));
  }
}

/** Projects by name, those with a folder: a name held by one only is its own. */
function namesakesOf(projects: readonly { cwd: string | null; name: string }[]): Map<string, { cwd: string | null; name: string }[]> {
  const byName = new Map<string, { cwd: string | null; name: string }[]>();
  for (const project of projects) {
    if (project.cwd === null) continue;
    const list = byName.get(project.name);
    if (list) list.push(project);
    else byName.set(project.name, [project]);
  }
  return byName;
}

/**
 * A project's name, told apart from others of the same name (/a/app, /b/app) by as many of its
 * folder's last parts as it takes: "a/app" and "b/app", never two rows that read alike.
 */
function distinctName(project: { cwd: string | null; name: string }, same: readonly { cwd: string | null; name: string }[]): string {
  if (project.cwd === null || same.length < 2) return project.name;
  const parts = (cwd: string) => cwd.split(/[\\/]/).filter(Boolean);
  const own = parts(project.cwd);
  for (let n = 2; n <= own.length; n++) {
    const tail = own.slice(-n).join('/');
    if (same.every((other) => other === project || parts(other.cwd as string).slice(-n).join('/') !== tail)) return tail;
  }
  return project.cwd;
}

/** One file a session counts, its entries unpacked, with what it counts of them. */
interface CountedPart {
  ledger: SessionLedger;
  entries: readonly LedgerEntry[];
  counted: Counted;
  copy?: boolean;
}

function nothingCounted(ledger: SessionLedger): Counted {
  return { entries: new Uint8Array(ledger.entries.count), usage: new Uint8Array(ledger.entries.usageCount) };
}

/**
 * Walks what a session counts of one file, each entry and usage record with the time that places
 * it: its own, else its entry's, else the session's. The one rule for periods, shared by every
 * view. An entry and its usage are claimed apart: a copy may hold a response another file counts.
 */
export function walkCounted(
  entries: readonly LedgerEntry[],
  counted: Counted,
  sessionTime: number,
  visit: { entry(entry: LedgerEntry, time: number): void; usage(usage: LedgerUsage, time: number, entry: LedgerEntry): void },
): void {
  let u = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as LedgerEntry;
    const entryTime = entry.time ?? sessionTime;
    if (counted.entries[i]) visit.entry(entry, entryTime);
    for (const usage of entry.usage) if (counted.usage[u++]) visit.usage(usage, usage.time ?? entryTime, entry);
  }
}

interface Span {
  first: number | null;
  last: number | null;
}

/**
 * The first and last time among the entries (and their usage) a session counts, in all its files
 * (`span`), and among those that count something, model changes and the like aside (`counting`).
 */
function countedSpans(parts: readonly CountedPart[]): { span: Span; counting: Span } {
  const span: Span = { first: null, last: null };
  const counting: Span = { first: null, last: null };
  // An entry or a record of no time counts at the session's time as its file records it (its
  // header's), as SessionAcc places it: where it is counted, it is part of when the session ran.
  const untimedAt = parts[0]?.ledger.startedAt ?? null;
  const add = (into: Span, time: number | null) => {
    into.first = earliest(into.first, time ?? untimedAt);
    into.last = latest(into.last, time ?? untimedAt);
  };
  for (const { ledger, entries, counted } of parts) {
    let u = 0;
    // A fork writes the labels it copies again, under new ids but at their first times (pi.md §12):
    // in a copy, bookkeeping timed before its file began says nothing of when the session ran.
    const copiedBefore = ledger.parentFile !== null || ledger.parentSessionId !== null ? ledger.startedAt : null;
    // Nor does a copy's own bookkeeping before its first work (a Codex fork's mark of the history
    // it copied, one a sibling copied first being no longer its own): it starts with its work,
    // whatever else copied its origin. Taken only when it has no work at all.
    const leading: (number | null)[] = [];
    let working = copiedBefore === null;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as LedgerEntry;
      if (counted.entries[i]) {
        const bookkeeping = countsNothing(entry);
        if (!bookkeeping) working = true;
        if (bookkeeping && !working) leading.push(entry.time);
        else if (!bookkeeping || copiedBefore === null || entry.time === null || entry.time >= copiedBefore) add(span, entry.time);
        if (!bookkeeping) add(counting, entry.time);
      }
      for (const usage of entry.usage) {
        if (!counted.usage[u++]) continue;
        working = true;
        add(span, usage.time ?? entry.time);
        add(counting, usage.time ?? entry.time);
      }
    }
    if (!working) for (const time of leading) if (copiedBefore === null || time === null || time >= copiedBefore) add(span, time);
  }
  return { span, counting };
}

/** An entry that is no turn, holds no usage and does no tool work. */
function countsNothing(entry: LedgerEntry): boolean {
  return entry.turn === null && entry.usage.length === 0 && entry.calls.length === 0 && entry.result === null && entry.inner === undefined;
}

function addTurn(into: Tally, entry: LedgerEntry, time: number): void {
  if (entry.turn === 'prompt') into.prompts++;
  if (entry.turn === 'reply') {
    into.replies++;
    if (entry.outcome === 'error') into.errorReplies++;
    if (entry.outcome === 'aborted') into.abortedReplies++;
    if (entry.outcome === 'length') into.lengthReplies++;
  }
  into.firstAt = earliest(into.firstAt, time);
  into.lastAt = latest(into.lastAt, time);
}

/** Null stays null only while every part is null: a known amount plus an unknown one is the known amount. */
function addMoney(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

function addUsage(into: UsageTotals | Tally, usage: LedgerUsage, priced: PricedUsage): void {
  addRecord(into, usage, priced);
  if (usage.origin === 'subagent' && 'subagents' in into) addRecord(into.subagents, usage, priced);
}

function addRecord(into: UsageTotals, usage: LedgerUsage, priced: PricedUsage): void {
  for (const kind of TOKEN_KINDS) into.tokens[kind] += usage[kind];
  into.cost.recorded = addMoney(into.cost.recorded, usage.recordedCost);
  into.cost.bough = addMoney(into.cost.bough, priced.cost);
  if (priced.state === 'unpriced') into.unpriced++;
  if (priced.state === 'partial') into.partial++;
  if (usage.outputPartial) into.outputPartial++;
  if (usage.recordedCost !== null) into.withRecordedCost++;
  into.webSearches += usage.webSearches;
  into.records++;
}

/** What a session counts on one local day, waiting to be placed in every total it lands in. */
interface PendingDay {
  /** Any of its entries' or records' times: they share a local day. */
  time: number;
  /** Its turns (prompts, replies and their times), or null when it has none. */
  turns: Tally | null;
  models: Map<string, PendingUsage>;
}

/** What a session counts on one local day of one model. */
interface PendingUsage {
  modelKey: string;
  /** A sub-agent's own tally it also lands in, or null. */
  into: Tally | null;
  tally: Tally;
}

/** The usage of several sessions or slices together. */
export function usageSum(parts: readonly UsageTotals[]): UsageTotals {
  const sum = emptyUsageTotals();
  for (const part of parts) mergeUsage(sum, part);
  return sum;
}

/** Adds a sum of records as `addUsage` adds them one by one. */
function mergeUsage(into: UsageTotals, sum: UsageTotals): void {
  for (const kind of TOKEN_KINDS) into.tokens[kind] += sum.tokens[kind];
  into.cost.recorded = addMoney(into.cost.recorded, sum.cost.recorded);
  into.cost.bough = addMoney(into.cost.bough, sum.cost.bough);
  into.unpriced += sum.unpriced;
  into.partial += sum.partial;
  into.outputPartial += sum.outputPartial;
  into.withRecordedCost += sum.withRecordedCost;
  into.webSearches += sum.webSearches;
  into.records += sum.records;
}

function mergeTurns(into: Tally, sum: Tally): void {
  into.prompts += sum.prompts;
  into.replies += sum.replies;
  into.errorReplies += sum.errorReplies;
  into.abortedReplies += sum.abortedReplies;
  into.lengthReplies += sum.lengthReplies;
  into.firstAt = earliest(into.firstAt, sum.firstAt);
  into.lastAt = latest(into.lastAt, sum.lastAt);
}

function mergeTally(into: Tally, sum: Tally): void {
  mergeUsage(into, sum);
  if (sum.subagents.records > 0) mergeUsage(into.subagents, sum.subagents);
  into.firstAt = earliest(into.firstAt, sum.firstAt);
  into.lastAt = latest(into.lastAt, sum.lastAt);
}

function modelSlice(map: Map<string, UsageTotals>, key: string): UsageTotals {
  let totals = map.get(key);
  if (!totals) {
    totals = emptyUsageTotals();
    map.set(key, totals);
  }
  return totals;
}

/** A model's first record in a session and its price, and what all its records' prices say. */
interface FirstOfModel {
  usage: LedgerUsage;
  priced: PricedUsage;
  notes: string | null;
  /** The notes merged into `notes` so far, as each record said them. */
  seen: Set<string>;
}

/** `notes` with what `note` says that it does not say yet ("; "-separated parts). */
function withNote(notes: string | null, note: string | null): string | null {
  if (note === null || note === notes) return notes;
  if (notes === null) return note;
  const parts = notes.split('; ');
  for (const part of note.split('; ')) if (!parts.includes(part)) parts.push(part);
  return parts.join('; ');
}

function modelTotals(map: Map<string, ModelTotals>, key: string, usage: LedgerUsage, priced: PricedUsage): ModelTotals {
  let found = map.get(key);
  // Described so far by a session's records of nothing (no tokens): the first that bills any describes it.
  if (found && found.priceState === 'priced' && found.priceKey === null && priced !== NOTHING_BILLED) {
    found.local = priced.state === 'local';
    found.priceKey = priced.key;
    found.priceState = priced.state;
    found.apiEquivalent = priced.subscription && (priced.state === 'priced' || priced.state === 'partial');
  }
  if (!found) {
    // Written out, not spread from emptyUsageTotals(), as in emptyTally: a spread into a literal
    // is V8's slow path, and each session, project and day makes its own (0.3 s over 30,000 sessions).
    found = {
      tokens: zeroTokens(),
      cost: { bough: null, recorded: null },
      records: 0,
      unpriced: 0,
      partial: 0,
      outputPartial: 0,
      withRecordedCost: 0,
      webSearches: 0,
      key,
      provider: usage.provider,
      model: usage.model,
      fast: usage.fast,
      flex: usage.flex === true && !usage.fast,
      local: priced.state === 'local',
      priceKey: priced.key,
      priceState: priced.state,
      priceNote: priced.note,
      apiEquivalent: priced.subscription && (priced.state === 'priced' || priced.state === 'partial'),
      sessions: 0,
    };
    map.set(key, found);
  }
  return found;
}

/** Tool work: calls per tool, files touched with lines added and removed, commits. */
class ToolAcc {
  calls = 0;
  failures = 0;
  added = 0;
  removed = 0;
  readonly byTool = new Map<string, number>();
  readonly files = new Map<string, FileTouch>();
  readonly commits: ToolTotals['commits'] = [];

  /** `windows`: the session ran on Windows, whose paths are one file however their letters are cased (pi.md §16). */
  constructor(private readonly windows: boolean) {}

  add(entry: LedgerEntry): void {
    this.addWork(entry.calls, entry.result, entry.id);
    // The tool work of sub-agent runs shown in this result: the session's, as a sub-agent file's is.
    this.addWork(entry.inner?.calls ?? [], null, entry.id);
    for (const result of entry.inner?.results ?? []) this.addWork([], result, entry.id);
  }

  private addWork(calls: readonly LedgerToolCall[], result: LedgerToolResult | null, entryId: string): void {
    for (const call of calls) {
      this.calls++;
      this.byTool.set(call.name, (this.byTool.get(call.name) ?? 0) + 1);
      // Searches and listings name folders, not files the work touched; a call that failed (a
      // write denied, an edit whose text was not there) touched none.
      if (call.failed || (call.action !== 'read' && call.action !== 'write' && call.action !== 'edit')) continue;
      for (const path of call.paths) {
        const file = this.touch(path);
        if (call.action === 'read') file.reads++;
        if (call.action === 'write') file.writes++;
        if (call.action === 'edit') file.edits++;
      }
    }
    if (!result) return;
    if (result.failed) this.failures++;
    for (const commit of result.commits) this.commits.push({ ...commit, entryId });
    this.added += result.added;
    this.removed += result.removed;
    // An edit of several files (Codex's apply_patch) tells each file's lines.
    for (const { path, added, removed } of result.files ?? (result.path === null ? [] : [{ path: result.path, added: result.added, removed: result.removed }])) {
      if (added + removed === 0) continue;
      const file = this.touch(path);
      file.added += added;
      file.removed += removed;
    }
  }

  private touch(path: string): FileTouch {
    const key = touchKey(path, this.windows);
    let file = this.files.get(key);
    if (!file) {
      file = { path, reads: 0, writes: 0, edits: 0, added: 0, removed: 0 };
      this.files.set(key, file);
    }
    return file;
  }

  totals(): ToolTotals {
    return {
      calls: this.calls,
      failures: this.failures,
      byTool: [...this.byTool].map(([name, calls]) => ({ name, calls })).sort((a, b) => b.calls - a.calls || compareText(a.name, b.name)),
      files: [...this.files.values()].sort((a, b) => compareText(a.path, b.path)),
      added: this.added,
      removed: this.removed,
      commits: this.commits,
    };
  }
}

/** A file touched, as one file: on Windows, by its path in any case (as first written, it is shown). */
function touchKey(path: string, windows: boolean): string {
  return windows ? path.toLowerCase() : path;
}

function isWindowsCwd(cwd: string | null): boolean {
  return cwd !== null && /^[a-zA-Z]:[\\/]/.test(withoutLongPathPrefix(cwd));
}

function mergeTouch(into: Map<string, FileTouch>, file: FileTouch, windows: boolean): void {
  const key = touchKey(file.path, windows);
  const found = into.get(key);
  if (!found) {
    into.set(key, { ...file });
    return;
  }
  found.reads += file.reads;
  found.writes += file.writes;
  found.edits += file.edits;
  found.added += file.added;
  found.removed += file.removed;
}

function byTouches(a: FileTouch, b: FileTouch): number {
  const touches = (f: FileTouch) => f.reads + f.writes + f.edits;
  return touches(b) - touches(a) || b.added + b.removed - (a.added + a.removed) || compareText(a.path, b.path);
}

// ─────────────────────────── projects ───────────────────────────

/**
 * Projects, whatever the inputs' scope: a project is the same whichever period is shown.
 * Sessions are grouped by the working directory their records name. One that names none goes with
 * the sessions of its agent's project folder that do (the most common of their directories), else
 * with the others of that folder alone, labelled by the folder's name (never decoded: the encoding
 * is lossy, formats/claude.md §1); only a session with neither is of the unknown folder.
 */
function groupProjects(ledgers: readonly SessionLedger[]): { byLedger: Map<SessionLedger, ProjectGroup> } {
  const cwdKeysOfFolder = new Map<string, Map<string, number>>();
  for (const ledger of ledgers) {
    const folder = folderKeyOf(ledger);
    if (ledger.cwd === null || folder === null) continue;
    let keys = cwdKeysOfFolder.get(folder);
    if (!keys) cwdKeysOfFolder.set(folder, (keys = new Map()));
    const key = projectKeyOf(ledger.cwd);
    keys.set(key, (keys.get(key) ?? 0) + 1);
  }
  const members = new Map<string, SessionLedger[]>();
  for (const ledger of ledgers) {
    const folder = folderKeyOf(ledger);
    const key =
      ledger.cwd !== null || folder === null ? projectKeyOf(ledger.cwd) : (mostCommon(cwdKeysOfFolder.get(folder)) ?? folder);
    const list = members.get(key);
    if (list) list.push(ledger);
    else members.set(key, [ledger]);
  }
  const byLedger = new Map<SessionLedger, ProjectGroup>();
  for (const [key, list] of members) {
    const cwd = commonSpelling(list);
    const folder = cwd === null ? (list[0]?.projectFolder ?? null) : null;
    // A Codex rollout's "folder" is the git repository its meta names (it has no folder of its project).
    const name = folder === null ? projectNameOf(cwd) : `${folder} (${list[0]?.source === 'codex' ? 'repository' : 'folder name'})`;
    // The folder, not its label: "(folder name)", "(unknown folder)" are no part of any project's folder or name.
    const haystacks = [...new Set([folder, ...list.map((l) => l.cwd)])].filter((text): text is string => text !== null && text !== '').map(folderMatchText);
    const group: ProjectGroup = {
      key,
      cwd,
      folder,
      name,
      matches: (text) => text === null || haystacks.some((h) => h.includes(projectMatchText(text))) || (haystacks.length === 0 && namesUnknownFolder(text)),
    };
    for (const ledger of list) byLedger.set(ledger, group);
  }
  return { byLedger };
}

/** The project of sessions with neither a working directory nor a project folder. */
export const UNKNOWN_PROJECT = 'unknown';

/**
 * Sessions of one folder belong together whatever spelling the path had: trailing separators
 * are dropped, accents composed, and Windows paths (drive letter or backslashes) compare
 * case-insensitively.
 */
export function projectKeyOf(cwd: string | null): string {
  if (cwd === null) return UNKNOWN_PROJECT;
  // Composed: macOS may write one folder's é as an e and an accent, and another tool as one letter.
  // A Windows long path (`\\?\C:\…`) is the folder it names.
  const composed = withoutLongPathPrefix(cwd).normalize('NFC');
  const trimmed = composed.length > 1 ? composed.replace(/[\\/]+$/, '') : composed;
  // Marked as a folder's, so that no text a file gives as its folder is taken for another key.
  return `cwd:${/^[A-Za-z]:[\\/]|\\/.test(trimmed) ? trimmed.replace(/\\/g, '/').toLowerCase() : trimmed}`;
}

/** The project folder a session's agent filed it in, as a key that never equals a cwd's (those are marked `cwd:`). */
function folderKeyOf(ledger: SessionLedger): string | null {
  return ledger.projectFolder === null ? null : `folder:${ledger.source}:${ledger.projectFolder}`;
}

function mostCommon(counts: ReadonlyMap<string, number> | undefined): string | null {
  let best: string | null = null;
  for (const [key, count] of counts ?? []) if (best === null || count > (counts?.get(best) ?? 0)) best = key;
  return best;
}

/** One folder can be spelled several ways (`C:\\App`, `c:\\app\\`): show the spelling most sessions used. */
function commonSpelling(ledgers: readonly SessionLedger[]): string | null {
  const counts = new Map<string, number>();
  // Sessions without one that joined a folder's directory do not outvote it.
  // A Windows long path (`\\?\C:\…`) is spelled as the folder it names.
  for (const ledger of ledgers) {
    if (ledger.cwd === null) continue;
    const spelling = withoutLongPathPrefix(ledger.cwd);
    counts.set(spelling, (counts.get(spelling) ?? 0) + 1);
  }
  return mostCommon(counts);
}

export function projectNameOf(cwd: string | null): string {
  if (cwd === null) return UNKNOWN_FOLDER;
  return withoutLongPathPrefix(cwd).split(/[\\/]/).filter(Boolean).pop() ?? cwd;
}

// ─────────────────────────── order ───────────────────────────

function sortedModels(map: ReadonlyMap<string, ModelTotals>): ModelTotals[] {
  return [...map.values()].sort((a, b) => byCost(a, b) || totalTokens(b.tokens) - totalTokens(a.tokens) || compareText(a.key, b.key));
}

/** Most expensive first by costSortValue, then by the recorded cost; unknown costs after known ones. */
export function byCost(a: UsageTotals, b: UsageTotals): number {
  return costSortValue(b) - costSortValue(a) || (b.cost.recorded ?? -1) - (a.cost.recorded ?? -1);
}

/**
 * What a row sorts by, most expensive first: bough's price; of one holding records it could not
 * price, the cost the agent recorded where that is more (a model newer than the price table, most
 * of a month's spend, sorted below rows of $0.00 before). Unknown sorts below every known amount.
 */
export function costSortValue(usage: Pick<UsageTotals, 'cost' | 'unpriced'>): number {
  const priced = usage.cost.bough ?? -1;
  return usage.unpriced === 0 ? priced : Math.max(priced, usage.cost.recorded ?? -1);
}

function chronological(map: ReadonlyMap<string, Bucket>): Bucket[] {
  return [...map.values()].sort((a, b) => compareText(a.key, b.key));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function earliest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

function latest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}
