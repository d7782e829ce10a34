// Report data → summary.json and `stats --json` (shapes in schema.ts). Both take their totals
// and rows from the same functions, so a `stats` of a scope equals the summary of a build of it.

import type { Diagnostic, DiagnosticsSummary } from '../diagnostics.js';
import { monthInPeriod, UNKNOWN_PROJECT_KEY, weekInPeriod, type Scope } from '../ledger/scope.js';
import { SOURCE_NAMES, type Source, type TokenCounts } from '../types.js';
import { byCost, listedSessions, type Bucket, type Cost, type ModelTotals, type ProjectData, type ReportData, type SessionData, type Tally, type UsageTotals } from './data.js';
import type { PageMap } from './pages.js';
import type { FiltersJson, PeriodJson, RowJson, StatsGrouping, StatsJson, Summary, TotalsJson } from './schema.js';

export interface SummaryContext {
  pages: PageMap;
  generator: { name: 'bough'; version: string };
  /** The report is of bough's bundled sample sessions, found no others. */
  samples: boolean;
  prices: { source: 'litellm'; snapshot: string | null; date: string | null; origin: string };
  diagnostics: DiagnosticsSummary;
  diagnosticList: readonly Diagnostic[];
  sharing: { redacted: boolean; redactions: Record<string, number>; omitted: string[] };
  /** Sessions' rows already made, by the session's index (a build makes them for its pages' fingerprints); the rest are made here. */
  sessions?: readonly (Summary['sessions'][number] | undefined)[];
}

/** Diagnostics listed one by one; beyond this only counted (a broken multi-GB file could list millions). */
const MAX_LISTED_DIAGNOSTICS = 100_000;

export function summaryOf(data: ReportData, ctx: SummaryContext): Summary {
  return {
    generator: ctx.generator,
    samples: ctx.samples,
    prices: ctx.prices,
    sharing: ctx.sharing,
    period: periodJson(data.scope),
    filters: filtersJson(data.scope),
    totals: totalsJson(data),
    months: rowsOf(data, 'month'),
    days: rowsOf(data, 'day'),
    projects: data.projects.map((project) => projectJson(project, ctx.pages)),
    sessions: data.sessions.map((session, index) => ctx.sessions?.[index] ?? sessionJson(session, ctx.pages)),
    diagnostics: {
      ...ctx.diagnostics,
      byReason: { ...ctx.diagnostics.byReason } as Record<string, number>,
      listed: Math.min(ctx.diagnosticList.length, MAX_LISTED_DIAGNOSTICS),
      items: ctx.diagnosticList.slice(0, MAX_LISTED_DIAGNOSTICS).map((d) => ({
        file: d.file,
        line: d.line,
        reason: d.reason,
        detail: d.detail,
        skippedLine: d.skippedLine,
        count: d.count ?? 1,
      })),
    },
  };
}

export function statsJsonOf(data: ReportData, by: StatsGrouping, diagnostics: DiagnosticsSummary): StatsJson {
  return {
    period: periodJson(data.scope),
    filters: filtersJson(data.scope),
    by,
    totals: totalsJson(data),
    rows: rowsOf(data, by),
    diagnostics: { ...diagnostics, byReason: { ...diagnostics.byReason } as Record<string, number> },
  };
}

export function periodJson(scope: Scope): PeriodJson {
  const { period } = scope;
  return {
    since: period.since,
    until: period.until,
    tz: scope.timeZone,
    label: period.label,
    start: period.start === null ? null : new Date(period.start).toISOString(),
    end: period.end === null ? null : new Date(period.end).toISOString(),
  };
}

export function filtersJson(scope: Scope): FiltersJson {
  return { project: scope.project, sources: scope.sources === null ? null : [...scope.sources] };
}

export function totalsJson(data: ReportData): TotalsJson {
  const { totals } = data;
  const unknown = data.models.filter((m) => m.unpriced > 0 || m.partial > 0);
  const listed = listedSessions(data.sessions).length;
  return {
    sessions: listed,
    warmupOnlySessions: data.sessions.length - listed,
    projects: data.projects.length,
    ...counts(totals),
    tokens: tokens(totals.tokens),
    cost: cost(totals.cost),
    unpricedRecords: totals.unpriced + totals.partial,
    unpricedModels: unknown.filter((m) => m.unpriced > 0).map(modelName).sort(),
    partiallyPricedModels: unknown.filter((m) => m.unpriced === 0).map(modelName).sort(),
    subagents: usageTotals(totals.subagents),
    models: data.models.map((m) => ({
      provider: m.provider,
      model: m.model,
      fast: m.fast,
      flex: m.flex,
      local: m.local,
      priceKey: m.priceKey,
      priceState: m.partial > 0 ? 'partial' : m.unpriced > 0 ? 'unpriced' : m.priceState,
      sessions: m.sessions,
      ...usageTotals(m),
    })),
  };
}

/** The rows of `stats --by`: one per day, week, month, project, model, agent or session in the scope. */
export function rowsOf(data: ReportData, by: StatsGrouping): RowJson[] {
  const projectKeys = new Map(data.projects.map((p) => [p.key, projectRowKey(p)]));
  switch (by) {
    case 'day':
      return data.days.map((b) => bucketRow(b, b.key));
    case 'week':
      return data.weeks.map((b) => bucketRow(b, weekInPeriod(b.key, data.scope.period, data.scope.timeZone)));
    case 'month':
      return data.months.map((b) => bucketRow(b, monthInPeriod(b.key, data.scope.period, data.scope.timeZone)));
    case 'agent':
      return data.sources.map((b) => bucketRow(b, SOURCE_NAMES[b.key as Source] ?? b.key));
    case 'project':
      return data.projects.map((p) => row(projectRowKey(p), p.name, p.sessions.length, p.tally));
    case 'model': {
      // `provider/model`; served in fast mode or the flex tier (billed apart): `provider/model+fast`,
      // `+flex`. As the table names it: a provider not recorded as "?". A provider's name run locally
      // by one Codex home and billed by another's is two rows: the local one `+local`.
      const keyOf = (m: ModelTotals) => `${m.provider ?? '?'}/${m.model ?? ''}${m.fast ? '+fast' : m.flex ? '+flex' : ''}`;
      const billedKeys = new Set(data.models.filter((m) => !m.local).map(keyOf));
      return data.models.map((m) => {
        const apart = m.local && billedKeys.has(keyOf(m));
        return {
          key: `${keyOf(m)}${apart ? '+local' : ''}`,
          label: `${modelName(m)}${apart ? ' (run locally)' : ''}`,
          sessions: m.sessions,
          // Not counted by model (a prompt is no model's): null, never a zero a script would believe.
          prompts: null,
          replies: null,
          errorReplies: null,
          tokens: tokens(m.tokens),
          cost: cost(m.cost),
          usageRecords: m.records,
          recordedCostRecords: m.withRecordedCost,
          webSearches: m.webSearches,
          unpricedRecords: m.unpriced + m.partial,
        };
      });
    }
    case 'session':
      return [...data.sessions]
        .sort((a, b) => byCostThenTime(a, b))
        .map((s) => ({
          ...row(s.key, s.ledger.title, s.warmupOnly ? 0 : 1, s.tally),
          startedAt: new Date(s.startedAt).toISOString(),
          project: projectKeys.get(s.projectKey) ?? s.projectKey,
          partlyOutsidePeriod: s.partly,
          usageOutsidePeriod: s.tally.records === 0 && s.whole.records > 0,
          warmupOnly: s.warmupOnly,
        }));
  }
}

/** A project row's key, which a session row names: its working directory, else its agent's project folder, else "(unknown)". */
function projectRowKey(project: ProjectData): string {
  return project.cwd ?? project.folder ?? UNKNOWN_PROJECT_KEY;
}

function byCostThenTime(a: SessionData, b: SessionData): number {
  return byCost(a.tally, b.tally) || b.startedAt - a.startedAt;
}

function bucketRow(bucket: Bucket, label: string): RowJson {
  return row(bucket.key, label, bucket.sessions, bucket.tally);
}

function row(key: string, label: string, sessions: number, tally: Tally): RowJson {
  return {
    key,
    label,
    sessions,
    prompts: tally.prompts,
    replies: tally.replies,
    errorReplies: tally.errorReplies,
    tokens: tokens(tally.tokens),
    cost: cost(tally.cost),
    usageRecords: tally.records,
    recordedCostRecords: tally.withRecordedCost,
    webSearches: tally.webSearches,
    unpricedRecords: tally.unpriced + tally.partial,
  };
}

function projectJson(project: ProjectData, pages: PageMap): Summary['projects'][number] {
  return {
    cwd: project.cwd,
    folder: project.folder,
    name: project.name,
    page: pages.project(project.key),
    sessions: project.sessions.length,
    ...counts(project.tally),
    tokens: tokens(project.tally.tokens),
    cost: cost(project.tally.cost),
    subagents: usageTotals(project.tally.subagents),
  };
}

/** A session's file as the lists mark it (see sessionBadges): kept from an earlier build while its file is there too. */
function sourceState(ledger: SessionData['ledger']): Summary['sessions'][number]['sourceState'] {
  if (ledger.lastSeen === null) return 'read';
  return ledger.fileThere ? 'unread' : ledger.fileHoldsLess ? 'holds-less' : 'gone';
}

export function sessionJson(session: SessionData, pages: PageMap): Summary['sessions'][number] {
  const { ledger, tally, tools } = session;
  const check = session.costCheck;
  return {
    key: session.key,
    source: ledger.source,
    id: ledger.sessionId,
    file: ledger.path,
    cwd: ledger.cwd,
    name: ledger.name,
    title: ledger.title,
    page: pages.session(session.key),
    startedAt: new Date(session.startedAt).toISOString(),
    lastAt: new Date(session.lastAt).toISOString(),
    partlyOutsidePeriod: session.partly,
    // The file its header names, unless that is a session read and left outside this report's
    // period or filters, which the report names nowhere (its page says only that there is one).
    parentFile: session.origin !== null && !pages.hasSession(session.origin.key) ? null : ledger.parentFile,
    sourceLastSeen: sourceState(ledger) === 'gone' ? new Date(ledger.lastSeen as number).toISOString() : null,
    sourceState: sourceState(ledger),
    // As its page names it: only a session this report shows (one outside its period or filters is no part of it).
    origin: session.origin !== null && pages.hasSession(session.origin.key) ? session.origin.path : null,
    originMissing: session.originMissing,
    warmupOnly: session.warmupOnly,
    duplicateFiles: session.duplicates.map((d) => d.path),
    ...counts(tally),
    branches: ledger.branches,
    entries: ledger.entries.count,
    copiedEntries: ledger.entries.count - session.countedEntries,
    tokens: tokens(tally.tokens),
    cost: cost(tally.cost),
    costCheck:
      check.difference === null && !check.incomplete
        ? null
        : { differs: check.differs, incomplete: check.incomplete, reason: check.reason, difference: money(check.difference), unrecordedRecords: check.unrecorded, differingRecords: check.differingRecords },
    unpricedModels: session.byModel.filter((m) => m.unpriced > 0 || m.partial > 0).map(modelName),
    subagents: usageTotals(tally.subagents),
    // Every sub-agent file whose usage the split counts, the session's own among them when it is one.
    subagentFiles: [
      ...(session.hostTally === null ? [] : [{ file: ledger.path, label: ledger.subagentLabel ?? ledger.title, usage: usageTotals(session.hostTally) }]),
      ...session.subagents.map((s) => ({ file: s.ledger.path, label: s.label, usage: usageTotals(s.tally) })),
    ],
    tools: {
      calls: tools.calls,
      failures: tools.failures,
      filesTouched: tools.files.length,
      linesAdded: tools.added,
      linesRemoved: tools.removed,
      commits: tools.commits.filter((c) => c.landed).length,
      failedCommits: tools.commits.filter((c) => !c.landed).length,
    },
  };
}

/** `provider/model`; a record that names neither (a Pi tool's own model use) reads "model not recorded", not "?/?". */
export function modelName(m: Pick<ModelTotals, 'provider' | 'model' | 'fast' | 'flex'>): string {
  const model = m.model ?? 'model not recorded';
  return `${m.provider === null ? (m.model === null ? '' : '?/') : `${m.provider}/`}${model}${m.fast ? ' (fast mode)' : m.flex ? ' (flex tier)' : ''}`;
}

function counts(tally: Tally) {
  return {
    prompts: tally.prompts,
    replies: tally.replies,
    errorReplies: tally.errorReplies,
    abortedReplies: tally.abortedReplies,
    usageRecords: tally.records,
    recordedCostRecords: tally.withRecordedCost,
    webSearches: tally.webSearches,
    outputPossiblyPartialRecords: tally.outputPartial,
  };
}

function tokens(t: TokenCounts): TokenCounts {
  return { input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, cacheWrite1h: t.cacheWrite1h, reasoning: t.reasoning };
}

/** `unpricedRecords` as everywhere (cost unknown in whole or in part); of them, those priced in part. */
function usageTotals(u: UsageTotals) {
  return { tokens: tokens(u.tokens), cost: cost(u.cost), usageRecords: u.records, recordedCostRecords: u.withRecordedCost, webSearches: u.webSearches, unpricedRecords: u.unpriced + u.partial, partiallyPricedRecords: u.partial };
}

/** Float sums carry noise in the 17th digit (0.0257492999…); dollars to 1e-10 are exact enough. */
export function money(amount: number | null): number | null {
  return amount === null ? null : Math.round(amount * 1e10) / 1e10;
}

function cost(c: Cost): Cost {
  return { bough: money(c.bough), recorded: money(c.recorded) };
}
