// View models of the overview pages: the index (the monthly report), one page per project, and
// the data-quality page. Every number comes from the report data, cut to the report's scope.

import { basename, dirname, join } from 'node:path';
import { DIAGNOSTIC_REASONS, type Diagnostic, type DiagnosticsSummary } from '../diagnostics.js';
import { monthLabel } from '../time-zone.js';
import { localDay, monthInPeriod } from '../ledger/scope.js';
import { SOURCE_NAMES, type Source } from '../types.js';
import { dailyChart, daysToShow, DAILY_ONLY_UP_TO, monthlyChart, monthsToShow, type ChartView } from './charts.js';
import { byCost, costSortValue, filesOfSession, listedSessions, totalTokens, usageSum, type Bucket, type ModelTotals, type ProjectData, type ReportData, type SessionData, type Tally, type UsageTotals } from './data.js';
import { formatCount, formatDateTime, formatMonth, plural, type TimeFormat } from './format.js';
import { modelName } from './json.js';
import { pathHtml } from './escape.js';
import { NO_FAST_RATE, NO_FLEX_RATE } from '../pricing/price.js';
import { boughCost, emptyScopeSentence, NO_USAGE, noUsageOf, outputPartialWords, priceBadge, recordedCost, recordedPart, roundingNote, statCards, type StatCard } from './numbers.js';
import { DATA_QUALITY_PAGE, hrefFrom, INDEX_PAGE, type PageMap } from './pages.js';
import { cell, column, numberCell, tableView, type CellView, type TableView } from './tables.js';

export interface RowBadge {
  label: string;
  tone: 'plain' | 'warn' | 'error';
  title: string;
  /** What every badge of its kind says, for the legend under its table (a title shows on hover only: not on a phone or on paper). */
  legend?: { label: string; meaning: string };
}

/** The badges a table's rows carry, each kind once, in the order first met: what each says. */
export type BadgeLegend = { label: string; tone: RowBadge['tone']; meaning: string }[];

export function badgeLegend(tables: readonly (TableView | null)[]): BadgeLegend {
  const seen = new Map<string, BadgeLegend[number]>();
  for (const table of tables) {
    for (const row of table?.rows ?? []) {
      for (const c of row) for (const b of c.badges) if (b.legend && !seen.has(b.legend.label)) seen.set(b.legend.label, { label: b.legend.label, tone: b.tone, meaning: b.legend.meaning });
    }
  }
  return [...seen.values()];
}

export interface InputPlace {
  path: string;
  note: string;
  /** Whether it is there: an agent's default folder looked in may not be. */
  found: boolean;
}

export interface SessionGroup {
  heading: string;
  table: TableView;
}

export interface IndexPageView {
  title: string;
  generated: string;
  /** Of a report of all time, how far back its data goes; null otherwise. */
  span: string | null;
  prices: string;
  unpriced: string | null;
  sharing: string | null;
  notice: string | null;
  inputs: InputPlace[];
  inputsSummary: string;
  /** A sentence when nothing falls in the scope; the rest is then empty. */
  empty: string | null;
  cards: StatCard[];
  quality: { summary: string; href: string; hasProblems: boolean };
  charts: ChartView[];
  months: TableView | null;
  models: TableView | null;
  projects: TableView | null;
  agents: TableView | null;
  top: TableView | null;
  topLegend: BadgeLegend;
  countingNote: string;
  sessionGroups: SessionGroup[];
  sessionsLegend: BadgeLegend;
  warmups: WarmupsView | null;
}

/** The sessions of Claude Code's start-up warmups alone, which no list shows as sessions (claude.md §8.4). */
export interface WarmupsView {
  sentence: string;
  /** Their pages, by when each started (on a project's page; the overview leaves them to those). */
  links: { href: string; label: string }[];
}

export interface ProjectPageView {
  title: string;
  cwd: string;
  indexHref: string;
  cards: StatCard[];
  charts: ChartView[];
  models: TableView | null;
  /** Null when the project lists no session (it holds warmups alone). */
  sessions: TableView | null;
  sessionsLegend: BadgeLegend;
  warmups: WarmupsView | null;
  files: TableView | null;
  filesNote: string | null;
}

export interface DataQualityView {
  title: string;
  indexHref: string;
  summary: string;
  sharing: string | null;
  reasons: { reason: string; meaning: string; count: string }[];
  /** `href`: the page of the session the file is part of, when it is one this report shows. */
  rows: { file: string; href: string | null; line: string; reason: string; detail: string }[];
  omitted: string | null;
  withheld: string | null;
}

export interface OverviewContext {
  pricesLabel: string;
  /** What was redacted or left out for sharing, or null. */
  sharing: string | null;
  pages: PageMap;
  time: TimeFormat;
  /** "October 2026 · Europe/Berlin": what the report covers. */
  scopeLabel: string;
  generated: string;
  notice: string | null;
  inputs: InputPlace[];
  diagnostics: DiagnosticsSummary;
}

/**
 * Of a report of all time, how far back its data goes: as far as the files read (an agent deletes
 * old ones, Claude Code after 30 days), said rather than implied (claude.md §1). Null otherwise.
 */
function dataSpan(data: ReportData): string | null {
  const { period, timeZone } = data.scope;
  const { firstAt, lastAt } = data.available;
  // Of all time only: a period's end (--until) cuts the data, which the files may hold past it.
  if (period.start !== null || period.end !== null || firstAt === null) return null;
  const [first, last] = [localDay(firstAt, timeZone), lastAt === null ? null : localDay(lastAt, timeZone)];
  const runs = `Its data runs from ${first}${last === null || last === first ? '' : ` to ${last}`}`;
  // Narrowed to a project or agents, the span is theirs, not the files': those may go further back.
  const narrowed = data.scope.project !== null || data.scope.sources !== null;
  return narrowed ? `${runs}: that of the sessions it shows, as far back as the files read hold them.` : `${runs}, as far back as the files read go.`;
}

const TOP_SESSIONS = 10;
const TOP_FILES = 25;

export function indexPageView(data: ReportData, ctx: OverviewContext): IndexPageView {
  const cards = statCards(data.totals, null, noUsageOf(data.totals, data.sessions.map((s) => s.whole)));
  const listed = listedSessions(data.sessions);
  cards.unshift({ label: 'Sessions', value: formatCount(listed.length), detail: `in ${plural(data.projects.length, 'project')}`, tone: 'plain' });
  const empty = data.sessions.length === 0 ? emptyScopeSentence(data, ctx.scopeLabel) : null;
  const projectNames = new Map(data.projects.map((p) => [p.key, p.name]));
  const top = empty ? null : sessionsTable(topSessions(listed), INDEX_PAGE, ctx, { projects: projectNames, sortedByCost: true });
  const groups = empty ? [] : sessionGroups(listed, INDEX_PAGE, ctx, projectNames);
  return {
    title: ctx.scopeLabel,
    generated: ctx.generated,
    span: dataSpan(data),
    prices: `Prices: ${ctx.pricesLabel}. bough prices every usage record itself and shows the cost the agent recorded beside it.`,
    unpriced: unpricedLine(data.models),
    sharing: ctx.sharing,
    notice: ctx.notice,
    inputs: ctx.inputs,
    inputsSummary: inputsSummary(ctx.inputs),
    empty,
    cards,
    quality: qualityLine(ctx.diagnostics),
    charts: empty ? [] : costCharts(data.days, data.months, data.models, data, ''),
    months: empty ? null : monthsTable(data),
    models: empty ? null : modelsTable(data.models),
    projects: empty ? null : projectsTable(data.projects, INDEX_PAGE, ctx),
    agents: empty ? null : agentsTable(data.sources),
    top,
    topLegend: badgeLegend([top]),
    countingNote:
      'Sessions are counted in each month they were active in, so a month’s sessions do not add up to the total. Tokens: input is not cached; output includes reasoning; cache write includes one-hour writes. Prompts, replies and usage count by their own time, so the months add up to the total.' +
      recordedPartNote(data.totals),
    sessionGroups: groups,
    sessionsLegend: badgeLegend(groups.map((group) => group.table)),
    warmups: warmupsView(data.sessions.filter((s) => s.warmupOnly), INDEX_PAGE, ctx, false),
  };
}

/**
 * Claude Code 2.0 sent its sub-agents "Warmup" as it started; a session given no prompt after
 * holds those alone (claude.md §8.4). Its spend is real and counted; it is said once here, not
 * listed as a session among the user's.
 */
function warmupsView(warmups: readonly SessionData[], page: string, ctx: OverviewContext, withLinks: boolean): WarmupsView | null {
  if (warmups.length === 0) return null;
  const one = warmups.length === 1;
  const cost = boughCost(usageSum(warmups.map((s) => s.tally)));
  const where = withLinks ? `${one ? 'Its page' : 'Their pages'}, by when Claude Code started:` : `${one ? 'Its project’s page links it' : 'Their projects’ pages link them'}.`;
  return {
    sentence:
      `Not listed as ${one ? 'a session' : 'sessions'}: ${plural(warmups.length, 'start')} of Claude Code ${one ? 'that was' : 'that were'} never given a prompt. ` +
      `Claude Code 2.0 sent its sub-agents “Warmup” as it started; those requests (${cost} by bough’s price) are counted in the totals above. ${where}`,
    links: withLinks ? warmups.map((s) => ({ href: hrefFrom(page, ctx.pages.session(s.key)), label: formatDateTime(s.startedAt, ctx.time) })) : [],
  };
}

/** The report's sessions by key, made once per report: made per project page, 100 projects of 30,000 sessions took 2.7 s. */
const sessionIndexes = new WeakMap<ReportData, ReadonlyMap<string, SessionData>>();
function sessionsByKey(data: ReportData): ReadonlyMap<string, SessionData> {
  let index = sessionIndexes.get(data);
  if (!index) {
    index = new Map(data.sessions.map((s) => [s.key, s]));
    sessionIndexes.set(data, index);
  }
  return index;
}

export function projectPageView(project: ProjectData, data: ReportData, ctx: OverviewContext): ProjectPageView {
  const page = ctx.pages.project(project.key);
  const sessions = sessionsByKey(data);
  const mine = project.sessions.map((key) => sessions.get(key) as SessionData);
  const warmups = project.warmups.map((key) => sessions.get(key) as SessionData);
  const cards = statCards(project.tally, null, noUsageOf(project.tally, [...mine, ...warmups].map((s) => s.whole)));
  cards.unshift({ label: 'Sessions', value: formatCount(mine.length), detail: 'in this project', tone: 'plain' });
  const files = project.files.slice(0, TOP_FILES);
  const sessionsTableView = sessionsTable(mine, page, ctx, { projects: null, sortedByCost: false });
  return {
    title: project.name,
    cwd: project.cwd ?? '(no working directory recorded)',
    indexHref: hrefFrom(page, INDEX_PAGE),
    cards,
    // A project with no usage recorded draws no empty $0 axes.
    charts: project.tally.records === 0 ? [] : costCharts(project.byDay, project.byMonth, project.byModel, data, ' in this project'),
    models: modelsTable(project.byModel),
    sessions: mine.length === 0 ? null : sessionsTableView,
    sessionsLegend: badgeLegend([sessionsTableView]),
    warmups: warmupsView(warmups, page, ctx, true),
    files: files.length === 0 ? null : filesTable(files),
    filesNote: project.files.length > TOP_FILES ? `The ${TOP_FILES} most touched of ${formatCount(project.files.length)} files.` : null,
  };
}

const MAX_QUALITY_ROWS = 5000;

/**
 * `withheld`: problems of files this report does not show, left out of a report made to share
 * that was asked for one period, project or agent (their paths and lines are from outside it).
 */
export function dataQualityView(diagnostics: readonly Diagnostic[], ctx: OverviewContext, data: ReportData, withheld = 0): DataQualityView {
  const pageOf = sessionPagesOfFiles(data, ctx.pages);
  const reasons = Object.entries(ctx.diagnostics.byReason).map(([reason, count]) => ({
    reason,
    meaning: DIAGNOSTIC_REASONS[reason as keyof typeof DIAGNOSTIC_REASONS],
    count: formatCount(count ?? 0),
  }));
  return {
    title: 'Data quality',
    indexHref: hrefFrom(DATA_QUALITY_PAGE, INDEX_PAGE),
    summary: qualityLine(ctx.diagnostics).summary,
    sharing: ctx.sharing,
    reasons,
    rows: diagnostics.slice(0, MAX_QUALITY_ROWS).map((d) => ({
      file: d.file,
      href: pageOf.has(d.file) ? hrefFrom(DATA_QUALITY_PAGE, pageOf.get(d.file) as string) : null,
      line: d.line === null ? '' : String(d.line),
      reason: d.reason,
      detail: d.detail,
    })),
    omitted: diagnostics.length > MAX_QUALITY_ROWS ? `${formatCount(diagnostics.length - MAX_QUALITY_ROWS)} more not listed here; summary.json counts them all` : null,
    withheld:
      withheld === 0
        ? null
        : `${plural(withheld, 'problem')} of files this report does not show (outside its period, project or agents, or no session) ${withheld === 1 ? 'is' : 'are'} counted above but not listed: a report made to share names nothing from outside what it was asked for. A report that does not redact, in a folder of its own, lists them.`,
  };
}

/** The page of the session each file read is part of, for the files of sessions this report shows. */
export function sessionPagesOfFiles(data: ReportData, pages: PageMap): Map<string, string> {
  // Each session's files (its own, its sub-agents', its duplicates) lead to its page.
  const pageOf = new Map<string, string>();
  for (const session of data.sessions) {
    const page = pages.session(session.key);
    for (const path of filesOfSession(session)) if (!pageOf.has(path)) pageOf.set(path, page);
  }
  // A Claude Code session shown from its sub-agents' files has a main transcript that was not read
  // (empty, damaged): `<id>.jsonl` beside them (before 2.x) or beside their `<id>/subagents/`.
  // After every file read as a session has its own page: a file named by another session's id is
  // that file's session (regression: a later file of the same id took the other's damaged line).
  for (const session of data.sessions) {
    if (session.ledger.source !== 'claude') continue;
    const page = pages.session(session.key);
    const main = `${session.ledger.sessionId}.jsonl`;
    for (const path of filesOfSession(session)) {
      const folder = dirname(path);
      for (const file of [join(folder, main), ...(basename(folder) === 'subagents' ? [join(dirname(dirname(folder)), main)] : [])]) if (!pageOf.has(file)) pageOf.set(file, page);
    }
  }
  return pageOf;
}

/** What --redact removed and --omit left out, for the index and the data-quality page. */
export function sharingLine(redacted: boolean, redactions: ReadonlyMap<string, number>, omitted: readonly string[]): string | null {
  const parts: string[] = [];
  if (redacted) {
    const counts = byCount(redactions).map(([kind, n]) => `${formatCount(n)} ${kind}`);
    parts.push(counts.length > 0 ? `Redacted: ${counts.join(', ')}.` : 'Redacted: nothing matched a secret or the home folder.');
  }
  if (omitted.length > 0) parts.push(`Left out: ${omitted.join(', ')}.`);
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * Redaction counts, most first, ties by name: files are read several at a time, so the order in
 * which kinds were first met differs between runs, and the report must not.
 */
export function byCount(redactions: ReadonlyMap<string, number>): [string, number][] {
  return [...redactions].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function unpricedLine(models: readonly ModelTotals[]): string | null {
  const unknown = models.filter((m) => m.unpriced > 0 || m.partial > 0);
  if (unknown.length === 0) return null;
  const names = unknown.map((m) => `${modelName(m)}${m.unpriced === 0 ? ' (in part)' : ''}`).join(', ');
  return `Not priced: ${names}. Their tokens are counted; their cost is unknown and left out of bough's total, never counted as $0.`;
}

function qualityLine(d: DiagnosticsSummary): IndexPageView['quality'] {
  const warnings = Object.values(d.byReason).reduce((a, b) => a + (b ?? 0), 0);
  const summary = [
    `${plural(d.files, 'file')} found`,
    `${plural(d.sessionFiles, 'session file')}`,
    ...(d.goneFiles + d.unreadFiles > 0 ? [`${plural(d.goneFiles + d.unreadFiles, 'session file')} gone or no longer read, kept from an earlier build`] : []),
    `${plural(d.skippedFiles, 'file')} skipped`,
    `${plural(d.skippedLines, 'line')} skipped`,
    `${plural(warnings, 'note')} in all`,
  ].join(' · ');
  return { summary, href: DATA_QUALITY_PAGE, hasProblems: warnings > 0 };
}

/** "Read from 3 places", and how many more were looked in and not found (an agent's default folder this machine has not). */
function inputsSummary(inputs: readonly InputPlace[]): string {
  const found = inputs.filter((place) => place.found).length;
  const missing = inputs.length - found;
  return `Read from ${plural(found, 'place')}${missing > 0 ? `; ${missing} more looked in, not found` : ''}`;
}

/** Cost per day, and per month too when the range is longer than about two months. */
function costCharts(days: readonly Bucket[], months: readonly Bucket[], models: readonly ModelTotals[], data: ReportData, where: string): ChartView[] {
  const { period, timeZone } = data.scope;
  const dayKeys = daysToShow(days, period, timeZone);
  const charts = [dailyChart(days, models, dayKeys, `Cost per day${where}`)];
  if (dayKeys.length > DAILY_ONLY_UP_TO) charts.push(monthlyChart(months, models, monthsToShow(months, period, timeZone).keys, `Cost per month${where}`));
  return charts.filter((c): c is ChartView => c !== null);
}

const TOKEN_COLUMNS = [
  column('Input', true, 'input tokens not read from or written to cache'),
  column('Output', true, 'output tokens, reasoning included'),
  column('Cache read', true),
  column('Cache write', true, 'one-hour writes included'),
];

/** Tokens by kind; "—" in each where the sessions counted recorded no usage, which is no count of zero tokens. */
function tokenCells(tally: Pick<Tally, 'tokens' | 'records' | 'outputPartial'>): CellView[] {
  const t = tally.tokens;
  if (tally.records === 0) return Array.from({ length: 4 }, noUsageCell);
  return [numberCell(formatCount(t.input), t.input), outputCell(t.output, tally.outputPartial), numberCell(formatCount(t.cacheRead), t.cacheRead), numberCell(formatCount(t.cacheWrite), t.cacheWrite)];
}

/** Output tokens; "≥" before them where some responses' final count was never written (their output is a lower bound). */
function outputCell(output: number, partial: number): CellView {
  if (partial === 0) return numberCell(formatCount(output), output);
  return cell(`≥ ${formatCount(output)}`, { sort: String(output), title: outputPartialWords(partial) });
}

/** A month without a session: no usage, nothing to say "—" of. */
const QUIET_MONTH_TOKENS = [0, 0, 0, 0].map((n) => numberCell(formatCount(n), n));

const COST_COLUMNS = [column('Cost (bough)', true, "bough's price from LiteLLM's table"), column('Recorded', true, 'what the agent recorded')];

/** Tokens in all; "—" where no usage was recorded at all, which is no count of zero tokens. */
function tokensCell(tally: Tally): CellView {
  return tally.records === 0 ? noUsageCell() : numberCell(formatCount(totalTokens(tally.tokens)), totalTokens(tally.tokens));
}

/** "—" for tokens none of which was recorded: no count of zero, sorted below every count. */
function noUsageCell(): CellView {
  return cell('—', { sort: '-1', title: NO_USAGE });
}

function costCells(usage: Tally | ModelTotals): CellView[] {
  return [numberCell(boughCost(usage), costSortValue(usage)), numberCell(recordedCost(usage), usage.cost.recorded ?? -1)];
}

/** Every month of the range, quiet ones included (but over more than five years), with a total row. */
function monthsTable(data: ReportData): TableView {
  const byKey = new Map(data.months.map((m) => [m.key, m]));
  const { keys, quietLeftOut } = monthsToShow(data.months, data.scope.period, data.scope.timeZone);
  const rows = keys.map((key) => {
    const bucket = byKey.get(key);
    const tally = bucket?.tally;
    return [
      cell(monthInPeriod(key, data.scope.period, data.scope.timeZone), { sort: key }),
      numberCell(formatCount(bucket?.sessions ?? 0), bucket?.sessions ?? 0),
      numberCell(formatCount(tally?.prompts ?? 0), tally?.prompts ?? 0),
      ...(tally ? tokenCells(tally) : QUIET_MONTH_TOKENS),
      ...(tally ? costCells(tally) : [numberCell('—', -1), numberCell('—', -1)]),
    ];
  });
  const { totals } = data;
  const listed = listedSessions(data.sessions).length;
  return tableView({
    className: 'months',
    // What its rounded rows add up to, where that is not the total (a review of pricing: "may miss it
    // by a cent" was said of four months that missed it by two).
    caption: [quietLeftOut ? 'Months without activity are left out: the sessions span more than five years.' : null, roundingNote(data.months.map((m) => m.tally.cost.bough))].filter((s) => s !== null).join(' ') || null,
    columns: [column('Month'), column('Sessions', true, 'sessions active in the month'), column('Prompts', true), ...TOKEN_COLUMNS, ...COST_COLUMNS],
    rows,
    total: [cell('Total'), numberCell(formatCount(listed), listed), numberCell(formatCount(totals.prompts), totals.prompts), ...tokenCells(totals), ...costCells(totals)],
    sortable: true,
    sortedBy: null,
  });
}

function modelBadges(m: ModelTotals): { label: string; tone: 'plain'; title: string }[] {
  return [
    ...(m.local ? [{ label: 'local', tone: 'plain' as const, title: 'runs on this machine' }] : []),
    // Billed at a multiple where the table gives one; else priced at standard rates, as its price badge says.
    ...(m.fast ? [{ label: 'fast mode', tone: 'plain' as const, title: m.priceNote?.includes(NO_FAST_RATE) ? 'served in fast mode, which the price table has no rate for' : 'served in fast mode: billed at a multiple of the standard rates' }] : []),
    ...(m.flex ? [{ label: 'flex tier', tone: 'plain' as const, title: m.priceNote?.includes(NO_FLEX_RATE) ? 'served in the flex tier, which the price table has no rates for: priced at standard rates' : 'served in the flex tier: billed at its rates' }] : []),
  ];
}

/** `ofOneSession`: on a session's own page, where a count of sessions would say 1 on every row. */
export function modelsTable(models: readonly ModelTotals[], ofOneSession = false): TableView | null {
  if (models.length === 0) return null;
  const sessions = ofOneSession ? [] : [column('Sessions', true)];
  return tableView({
    className: 'models',
    caption: roundingNote(models.map((m) => m.cost.bough)),
    columns: [column('Model'), column('Priced as'), ...sessions, column('Records', true, 'usage records'), ...TOKEN_COLUMNS, ...COST_COLUMNS],
    rows: models.map((m) => {
      const badge = priceBadge(m);
      return [
        cell(m.model ?? 'model not recorded', { code: true, sub: m.provider ?? (m.model === null ? '' : '(unknown provider)'), badges: modelBadges(m) }),
        cell(m.priceKey ?? '', { code: m.priceKey !== null, badges: badge ? [badge] : [] }),
        ...(ofOneSession ? [] : [numberCell(formatCount(m.sessions), m.sessions)]),
        numberCell(formatCount(m.records), m.records),
        ...tokenCells(m),
        ...costCells(m),
      ];
    }),
    total: null,
    sortable: true,
    // By cost, bough's: the first column after the tokens.
    sortedBy: { column: 3 + sessions.length + TOKEN_COLUMNS.length, descending: true },
  });
}

function projectsTable(projects: readonly ProjectData[], fromPage: string, ctx: OverviewContext): TableView | null {
  if (projects.length === 0) return null;
  return tableView({
    className: 'projects',
    caption: roundingNote(projects.map((p) => p.tally.cost.bough)),
    columns: [column('Project'), column('Sessions', true), column('Prompts', true), column('Tokens', true, 'input + output + cache read + cache write'), ...COST_COLUMNS, column('Last active', false, 'its last prompt, reply or usage in this report (a session page’s last activity counts any entry, a command too)')],
    rows: projects.map((p) => [
      cell(p.name, { href: hrefFrom(fromPage, ctx.pages.project(p.key)), ...(p.cwd === null ? { sub: '(no working directory recorded)' } : { subPathHtml: pathHtml(p.cwd) }) }),
      numberCell(formatCount(p.sessions.length), p.sessions.length),
      numberCell(formatCount(p.tally.prompts), p.tally.prompts),
      tokensCell(p.tally),
      ...costCells(p.tally),
      cell(formatDateTime(p.tally.lastAt, ctx.time), { sort: String(p.tally.lastAt ?? 0) }),
    ]),
    total: null,
    sortable: true,
    sortedBy: { column: 4, descending: true },
  });
}

function agentsTable(sources: readonly Bucket[]): TableView | null {
  if (sources.length === 0) return null;
  return tableView({
    className: 'agents',
    caption: roundingNote(sources.map((b) => b.tally.cost.bough)),
    columns: [column('Agent'), column('Sessions', true), column('Prompts', true), column('Replies', true), column('Tokens', true), ...COST_COLUMNS],
    rows: sources.map((b) => [
      cell(SOURCE_NAMES[b.key as Source] ?? b.key),
      numberCell(formatCount(b.sessions), b.sessions),
      numberCell(formatCount(b.tally.prompts), b.tally.prompts),
      numberCell(formatCount(b.tally.replies), b.tally.replies),
      tokensCell(b.tally),
      ...costCells(b.tally),
    ]),
    total: null,
    sortable: true,
    sortedBy: { column: 5, descending: true },
  });
}

function topSessions(sessions: readonly SessionData[]): SessionData[] {
  return [...sessions]
    .filter((s) => s.tally.records > 0)
    .sort((a, b) => byCost(a.tally, b.tally) || b.startedAt - a.startedAt)
    .slice(0, TOP_SESSIONS);
}

interface SessionsTableOptions {
  /** Project names by key, for a Project column; null for none. */
  projects: ReadonlyMap<string, string> | null;
  sortedByCost: boolean;
}

function sessionsTable(sessions: readonly SessionData[], fromPage: string, ctx: OverviewContext, options: SessionsTableOptions): TableView {
  const { projects } = options;
  return tableView({
    className: 'sessions',
    caption: null,
    columns: [
      column('Started'),
      column('Session', false, null, true),
      ...(projects ? [column('Project')] : []),
      column('Prompts', true),
      column('Replies', true),
      column('Errors', true, 'error replies'),
      column('Tokens', true),
      ...COST_COLUMNS,
    ],
    rows: sessions.map((s) => [
      cell(formatDateTime(s.startedAt, ctx.time), { sort: String(s.startedAt) }),
      cell(s.ledger.title, { href: hrefFrom(fromPage, ctx.pages.session(s.key)), badges: sessionBadges(s) }),
      ...(projects ? [cell(projects.get(s.projectKey) ?? '', { href: hrefFrom(fromPage, ctx.pages.project(s.projectKey)) })] : []),
      numberCell(formatCount(s.tally.prompts), s.tally.prompts),
      numberCell(formatCount(s.tally.replies), s.tally.replies),
      numberCell(formatCount(s.tally.errorReplies), s.tally.errorReplies),
      tokensCell(s.tally),
      ...costCells(s.tally),
    ]),
    total: null,
    sortable: true,
    sortedBy: options.sortedByCost ? { column: projects ? 7 : 6, descending: true } : { column: 0, descending: true },
  });
}

function sessionBadges(session: SessionData): RowBadge[] {
  const badges: RowBadge[] = [];
  const badge = (label: string, tone: RowBadge['tone'], title: string, legend: { label?: string; meaning: string }) => badges.push({ label, tone, title, legend: { label: legend.label ?? label, meaning: legend.meaning } });
  if (session.origin || session.originMissing) badge('fork', 'plain', 'copied from another session', { meaning: 'copied from another session: what it copied counts there, or here when that session is not among the files read' });
  if (session.ledger.branches > 1) badge(`${session.ledger.branches} branches`, 'plain', 'leaves of the tree', { label: 'branches', meaning: 'the conversation went on from an earlier point: its tree has that many leaves' });
  if (session.partly) badge('partly in period', 'plain', 'some of this session falls outside the period; its numbers here count the part inside', { meaning: 'some of the session falls outside the period: its numbers count the part inside' });
  if (session.ledger.lastSeen !== null && session.ledger.fileThere) {
    badge('file unread', 'warn', 'its source file no longer reads as this session (emptied, damaged or unreadable); kept from an earlier build', { meaning: 'its file no longer reads as it: kept from an earlier build' });
  } else if (session.ledger.lastSeen !== null && session.ledger.fileHoldsLess) {
    badge('file holds less', 'warn', 'its source file holds less of it than an earlier build read (cut short, a line damaged since, or an older copy put back); kept as that build read it', { meaning: 'its file holds less of it than an earlier build read: kept as that build read it' });
  } else if (session.ledger.lastSeen !== null) badge('file gone', 'warn', 'its source file is no longer present; kept from an earlier build', { meaning: 'its file is no longer there: kept from an earlier build' });
  // Only for content lost: a session whose damaged lines were all recovered reads whole.
  if (session.ledger.damaged > 0) badge('damaged lines', 'warn', `${plural(session.ledger.damaged, 'line')} skipped: see the data-quality page`, { meaning: 'lines of its file could not be read: see the data-quality page' });
  if (session.tally.unpriced > 0) badge('unpriced', 'error', "usage bough has no price for (a model not in LiteLLM's price table, or none recorded): its cost is unknown", { meaning: 'usage bough has no price for (a model not in the price table, a router that does not say which model answered, or usage that names no model): that part of its cost is unknown' });
  if (session.costCheck.differs) {
    badge('cost differs', 'warn', `bough and the agent differ; likely: ${session.costCheck.reason}`, { meaning: 'bough’s cost and the one the agent recorded differ by more than 1%: the session’s page says where and why' });
  }
  return badges;
}

/** Newest month first, newest session first within it. */
function sessionGroups(sessions: readonly SessionData[], fromPage: string, ctx: OverviewContext, projects: ReadonlyMap<string, string>): SessionGroup[] {
  const groups = new Map<string, SessionData[]>();
  for (const session of sessions) {
    const month = formatMonth(session.startedAt, ctx.time);
    const list = groups.get(month);
    if (list) list.push(session);
    else groups.set(month, [session]);
  }
  return [...groups].map(([month, list]) => ({
    heading: month === 'undated' ? 'Undated' : monthLabel(month),
    table: sessionsTable(list, fromPage, ctx, { projects, sortedByCost: false }),
  }));
}

function filesTable(files: ProjectData['files']): TableView {
  return tableView({
    className: 'files',
    caption: null,
    columns: [column('File'), column('Reads', true), column('Writes', true), column('Edits', true), column('Added', true, 'lines added by edits'), column('Removed', true, 'lines removed by edits')],
    rows: files.map((f) => [
      cell(f.path, { code: true }),
      numberCell(formatCount(f.reads), f.reads),
      numberCell(formatCount(f.writes), f.writes),
      numberCell(formatCount(f.edits), f.edits),
      numberCell(f.added > 0 ? `+${formatCount(f.added)}` : '', f.added),
      numberCell(f.removed > 0 ? `−${formatCount(f.removed)}` : '', f.removed),
    ]),
    total: null,
    sortable: true,
    sortedBy: null,
  });
}

/**
 * The recorded cost beside bough's is of the records whose agent stored one (Pi; Claude Code before
 * 1.0.9): where that is not all of them, the tables' Recorded column says less, not a discount.
 */
function recordedPartNote(totals: UsageTotals): string {
  const part = recordedPart(totals);
  return part === null ? '' : ` Recorded: what the agents stored, ${part} (Pi stores a cost, Claude Code only before 1.0.9, Codex none), so it is no total to compare with bough’s.`;
}
