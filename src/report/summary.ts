// summary.json (design.md §6): the machine-readable totals. Field names are a contract.

import type { Diagnostic, DiagnosticsSummary } from '../diagnostics.js';
import type { Archive, Session } from '../model/archive.js';
import { unpricedModels, type Cost, type Stats, type UsageTotals } from '../model/stats.js';
import type { ToolStats } from '../model/tools.js';
import type { TokenCounts } from '../types.js';
import type { PageMap } from './pages.js';

export interface SummaryContext {
  pages: PageMap;
  generator: { name: string; version: string };
  prices: { source: string; snapshot: string | null; date: string | null; origin: string };
  diagnostics: DiagnosticsSummary;
  diagnosticList: readonly Diagnostic[];
  sharing: { redacted: boolean; redactions: Record<string, number>; omitted: string[] };
}

/** Diagnostics listed one by one; beyond this only counted (a broken multi-GB file could list millions). */
const MAX_LISTED_DIAGNOSTICS = 100_000;

export function buildSummary(archive: Archive, ctx: SummaryContext) {
  return {
    generator: ctx.generator,
    prices: ctx.prices,
    sharing: ctx.sharing,
    totals: {
      sessions: archive.sessions.length,
      projects: archive.projects.length,
      ...counts(archive.totals),
      tokens: tokens(archive.totals.tokens),
      cost: cost(archive.totals.cost),
      unpricedModels: unpricedModels(archive.totals).filter((m) => !m.partial).map((m) => m.name),
      partiallyPricedModels: unpricedModels(archive.totals).filter((m) => m.partial).map((m) => m.name),
      subagents: usageTotals(archive.totals.subagents),
      models: models(archive.totals),
    },
    projects: archive.projects.map((project) => ({
      cwd: project.cwd,
      page: ctx.pages.project.get(project) ?? null,
      sessions: project.sessions.length,
      ...counts(project.stats),
      tokens: tokens(project.stats.tokens),
      cost: cost(project.stats.cost),
      subagents: usageTotals(project.stats.subagents),
    })),
    sessions: archive.sessions.map((session) => sessionSummary(session, ctx)),
    diagnostics: {
      ...ctx.diagnostics,
      listed: Math.min(ctx.diagnosticList.length, MAX_LISTED_DIAGNOSTICS),
      items: ctx.diagnosticList.slice(0, MAX_LISTED_DIAGNOSTICS).map((d) => ({
        file: d.file,
        line: d.line,
        reason: d.reason,
        detail: d.detail,
        skippedLine: d.skippedLine,
      })),
    },
  };
}

function sessionSummary(session: Session, ctx: SummaryContext) {
  const { file, stats } = session;
  return {
    source: file.source,
    id: file.sessionId,
    file: file.path,
    cwd: file.cwd,
    name: session.name,
    title: session.title,
    page: ctx.pages.session.get(session) ?? null,
    startedAt: file.startedAt === null ? null : new Date(file.startedAt).toISOString(),
    parentFile: file.parentFile,
    origin: session.origin ? session.origin.file.path : null,
    originMissing: session.originMissing,
    ...counts(stats),
    branches: session.branches,
    entries: file.entries.length,
    copiedEntries: file.entries.length - session.counted.size,
    tokens: tokens(stats.tokens),
    cost: cost(stats.cost),
    costCheck: session.costCheck && {
      differs: session.costCheck.differs,
      reason: session.costCheck.reason,
      difference: money(session.costCheck.difference),
    },
    unpricedModels: unpricedModels(stats).map((m) => m.name),
    subagents: usageTotals(stats.subagents),
    tools: toolTotals(session.tools),
  };
}

function toolTotals(tools: ToolStats) {
  return {
    calls: tools.calls,
    failures: tools.failures,
    filesTouched: tools.files.length,
    linesAdded: tools.added,
    linesRemoved: tools.removed,
    commits: tools.commits.filter((c) => c.landed).length,
    failedCommits: tools.commits.filter((c) => !c.landed).length,
  };
}

function counts(stats: Stats) {
  return {
    prompts: stats.prompts,
    replies: stats.replies,
    errorReplies: stats.errorReplies,
    abortedReplies: stats.abortedReplies,
    usageRecords: stats.records,
  };
}

function tokens(t: TokenCounts) {
  return {
    input: t.input,
    output: t.output,
    cacheRead: t.cacheRead,
    cacheWrite: t.cacheWrite,
    cacheWrite1h: t.cacheWrite1h,
    reasoning: t.reasoning,
  };
}

function usageTotals(u: UsageTotals) {
  return { tokens: tokens(u.tokens), cost: cost(u.cost), usageRecords: u.records, unpricedRecords: u.unpriced, partiallyPricedRecords: u.partial };
}

function models(stats: Stats) {
  return [...stats.byModel.values()].map((m) => ({
    provider: m.provider,
    model: m.model,
    local: m.local,
    priceKey: m.priceKey,
    priceState: m.partial > 0 ? 'partial' : m.priceState,
    ...usageTotals(m),
  }));
}

/** Float sums carry noise in the 17th digit (0.0257492999…); dollars to 1e-10 are exact enough. */
function money(amount: number | null): number | null {
  return amount === null ? null : Math.round(amount * 1e10) / 1e10;
}

function cost(c: Cost) {
  return { bough: money(c.bough), recorded: money(c.recorded) };
}

export type Summary = ReturnType<typeof buildSummary>;
