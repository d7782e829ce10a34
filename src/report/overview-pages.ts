// View models of the overview pages: the index, one page per project, and the data-quality page.

import { DIAGNOSTIC_REASONS, type Diagnostic, type DiagnosticsSummary } from '../diagnostics.js';
import { startOf, type Archive, type Project, type Session } from '../model/archive.js';
import { totalTokens, unpricedModels } from '../model/stats.js';
import { formatCount, formatDateTime, formatMonth, formatUsd, plural, type TimeFormat } from './format.js';
import { DATA_QUALITY_PAGE, hrefFrom, INDEX_PAGE, type PageMap } from './pages.js';
import { modelRows, statCards, tokenRows, type ModelRow, type StatCard, type TokenRow } from './numbers.js';

export interface SessionRow {
  when: string;
  title: string;
  href: string;
  project: string;
  projectHref: string;
  prompts: string;
  replies: string;
  errors: string;
  tokens: string;
  recorded: string;
  bough: string;
  badges: RowBadge[];
}

export interface RowBadge {
  label: string;
  tone: 'plain' | 'warn' | 'error';
  title: string;
}

export interface SessionGroup {
  heading: string;
  rows: SessionRow[];
}

export interface ProjectRow {
  name: string;
  cwd: string;
  href: string;
  sessions: string;
  prompts: string;
  tokens: string;
  recorded: string;
  bough: string;
  lastActive: string;
}

export interface InputPlace {
  path: string;
  note: string;
}

export interface IndexPageView {
  title: string;
  generated: string;
  prices: string;
  unpriced: string | null;
  sharing: string | null;
  notice: string | null;
  inputs: InputPlace[];
  inputsSummary: string;
  cards: StatCard[];
  tokens: TokenRow[];
  models: ModelRow[];
  projects: ProjectRow[];
  sessionGroups: SessionGroup[];
  quality: { summary: string; href: string; hasProblems: boolean };
}

export interface ProjectPageView {
  title: string;
  cwd: string;
  indexHref: string;
  cards: StatCard[];
  tokens: TokenRow[];
  models: ModelRow[];
  sessionGroups: SessionGroup[];
}

export interface DataQualityView {
  title: string;
  indexHref: string;
  summary: string;
  sharing: string | null;
  reasons: { reason: string; meaning: string; count: string }[];
  rows: { file: string; line: string; reason: string; detail: string }[];
  omitted: string | null;
}

export interface OverviewContext {
  pricesLabel: string;
  /** What was redacted or left out for sharing, or null. */
  sharing: string | null;
  pages: PageMap;
  time: TimeFormat;
  generated: string;
  notice: string | null;
  inputs: InputPlace[];
  diagnostics: DiagnosticsSummary;
}

export function indexPageView(archive: Archive, ctx: OverviewContext): IndexPageView {
  const cards = statCards(archive.totals, null);
  cards.unshift(
    { label: 'Sessions', value: formatCount(archive.sessions.length), detail: `in ${plural(archive.projects.length, 'project')}`, tone: 'plain' },
  );
  return {
    title: 'bough report',
    generated: ctx.generated,
    prices: `Prices: ${ctx.pricesLabel}. bough prices every usage record itself and shows the cost the agent recorded beside it.`,
    unpriced: unpricedLine(archive),
    sharing: ctx.sharing,
    notice: ctx.notice,
    inputs: ctx.inputs,
    inputsSummary: `Read from ${plural(ctx.inputs.length, 'place')}`,
    cards,
    tokens: tokenRows(archive.totals),
    models: modelRows(archive.totals),
    projects: archive.projects.map((project) => projectRow(project, INDEX_PAGE, ctx)),
    sessionGroups: sessionGroups(archive.sessions, INDEX_PAGE, ctx),
    quality: qualityLine(ctx.diagnostics),
  };
}

export function projectPageView(project: Project, ctx: OverviewContext): ProjectPageView {
  const page = ctx.pages.project.get(project) as string;
  return {
    title: projectName(project),
    cwd: project.cwd ?? '(no working directory recorded)',
    indexHref: hrefFrom(page, INDEX_PAGE),
    cards: statCards(project.stats, null),
    tokens: tokenRows(project.stats),
    models: modelRows(project.stats),
    sessionGroups: sessionGroups(project.sessions, page, ctx),
  };
}

const MAX_QUALITY_ROWS = 5000;

export function dataQualityView(diagnostics: readonly Diagnostic[], ctx: OverviewContext): DataQualityView {
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
      line: d.line === null ? '' : String(d.line),
      reason: d.reason,
      detail: d.detail,
    })),
    omitted: diagnostics.length > MAX_QUALITY_ROWS ? `${formatCount(diagnostics.length - MAX_QUALITY_ROWS)} more not listed here; summary.json counts them all` : null,
  };
}

/** What --redact removed and --omit left out, for the index and the data-quality page. */
export function sharingLine(redacted: boolean, redactions: ReadonlyMap<string, number>, omitted: readonly string[]): string | null {
  const parts: string[] = [];
  if (redacted) {
    const counts = [...redactions].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${formatCount(n)} ${kind}`);
    parts.push(counts.length > 0 ? `Redacted: ${counts.join(', ')}.` : 'Redacted: nothing matched a secret or the home folder.');
  }
  if (omitted.length > 0) parts.push(`Left out: ${omitted.join(', ')}.`);
  return parts.length > 0 ? parts.join(' ') : null;
}

function unpricedLine(archive: Archive): string | null {
  const models = unpricedModels(archive.totals);
  if (models.length === 0) return null;
  const names = models.map((m) => `${m.name}${m.partial ? ' (in part)' : ''}`).join(', ');
  return `Not priced: ${names}. Their tokens are counted; their cost is unknown and left out of bough's total, never counted as $0.`;
}

function qualityLine(d: DiagnosticsSummary): IndexPageView['quality'] {
  const warnings = Object.values(d.byReason).reduce((a, b) => a + (b ?? 0), 0);
  const summary = [
    `${plural(d.files, 'file')} read`,
    `${plural(d.sessionFiles, 'session file')}`,
    `${plural(d.skippedFiles, 'file')} skipped`,
    `${plural(d.skippedLines, 'line')} skipped`,
    `${plural(warnings, 'note')} in all`,
  ].join(' · ');
  return { summary, href: DATA_QUALITY_PAGE, hasProblems: warnings > 0 };
}

export function projectName(project: Project): string {
  if (project.cwd === null) return '(unknown folder)';
  return project.cwd.split(/[\\/]/).filter(Boolean).pop() ?? project.cwd;
}

function projectRow(project: Project, fromPage: string, ctx: OverviewContext): ProjectRow {
  return {
    name: projectName(project),
    cwd: project.cwd ?? '(no working directory recorded)',
    href: hrefFrom(fromPage, ctx.pages.project.get(project) as string),
    sessions: formatCount(project.sessions.length),
    prompts: formatCount(project.stats.prompts),
    tokens: formatCount(totalTokens(project.stats.tokens)),
    recorded: formatUsd(project.stats.cost.recorded),
    bough: formatUsd(project.stats.cost.bough),
    lastActive: formatDateTime(project.stats.lastAt, ctx.time),
  };
}

/** Newest month first, newest session first within it. */
function sessionGroups(sessions: readonly Session[], fromPage: string, ctx: OverviewContext): SessionGroup[] {
  const groups = new Map<string, SessionRow[]>();
  for (const session of sessions) {
    const month = formatMonth(startOf(session), ctx.time);
    const rows = groups.get(month) ?? [];
    rows.push(sessionRow(session, fromPage, ctx));
    groups.set(month, rows);
  }
  return [...groups.entries()].map(([heading, rows]) => ({ heading, rows }));
}

function sessionRow(session: Session, fromPage: string, ctx: OverviewContext): SessionRow {
  const badges: RowBadge[] = [];
  if (session.origin || session.originMissing) badges.push({ label: 'fork', tone: 'plain', title: 'copied from another session' });
  if (session.branches > 1) badges.push({ label: `${session.branches} branches`, tone: 'plain', title: 'leaves of the tree' });
  if (session.file.diagnostics.length > 0) badges.push({ label: 'damaged lines', tone: 'warn', title: 'see the data-quality page' });
  if (session.stats.unpriced > 0) badges.push({ label: 'unpriced', tone: 'error', title: "a model not in LiteLLM's price table: its cost is unknown" });
  if (session.costCheck?.differs) {
    badges.push({ label: 'cost differs', tone: 'warn', title: `bough and the agent differ by ${formatUsd(session.costCheck.difference)}; likely: ${session.costCheck.reason}` });
  }
  return {
    when: formatDateTime(startOf(session), ctx.time),
    title: session.title,
    href: hrefFrom(fromPage, ctx.pages.session.get(session) as string),
    project: projectName(session.project),
    projectHref: hrefFrom(fromPage, ctx.pages.project.get(session.project) as string),
    prompts: formatCount(session.stats.prompts),
    replies: formatCount(session.stats.replies),
    errors: formatCount(session.stats.errorReplies),
    tokens: formatCount(totalTokens(session.stats.tokens)),
    recorded: formatUsd(session.stats.cost.recorded),
    bough: formatUsd(session.stats.cost.bough),
    badges,
  };
}
