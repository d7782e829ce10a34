// Session files → the archive model: sessions with their trees and lineage, projects by working
// directory, and totals in which every piece of work counts once. Pure: no I/O, clock or environment.

import type { Entry, SessionFile, SkillInvocation } from '../types.js';
import { resolveLineage } from './lineage.js';
import { checkCost, type CostCheck } from '../pricing/reconcile.js';
import type { PricedUsage, Pricer } from '../pricing/price.js';
import type { Usage } from '../types.js';
import { addEntry, addStats, emptyStats, type Stats } from './stats.js';
import { toolStats, type ToolStats } from './tools.js';
import { buildTree, type EntryTree } from './tree.js';

export interface Session {
  file: SessionFile;
  tree: EntryTree;
  /** Entries first recorded in this file (copies from a present origin are counted there). */
  counted: ReadonlySet<Entry>;
  stats: Stats;
  /** bough's price against the agent's recorded cost; null until priced. */
  costCheck: CostCheck | null;
  /** Tool work first recorded in this file. */
  tools: ToolStats;
  /** Leaves of the tree: each one a branch that was typed, answered and paid for. */
  branches: number;
  title: string;
  /** The latest name given with /name, if any. */
  name: string | null;
  origin: Session | null;
  /** The recorded origin is not among the inputs. */
  originMissing: boolean;
  copies: Session[];
  project: Project;
}

export interface Project {
  /** The working directory as recorded; null when the sessions recorded none. */
  cwd: string | null;
  sessions: Session[];
  stats: Stats;
}

export interface Archive {
  sessions: Session[];
  projects: Project[];
  totals: Stats;
  /** The price of every counted usage record, when priced. */
  prices: ReadonlyMap<Usage, PricedUsage>;
}

export interface ArchiveOptions {
  /** Prices usage records; without it cost.bough stays null. */
  price?: Pricer;
}

export function buildArchive(files: readonly SessionFile[], options: ArchiveOptions = {}): Archive {
  const lineage = resolveLineage(files);
  const prices = new Map<Usage, PricedUsage>();
  const projects = new Map<string, Project>();
  const sessions = new Map<SessionFile, Session>();

  for (const file of files) {
    const projectKey = projectKeyOf(file.cwd);
    let project = projects.get(projectKey);
    if (!project) {
      project = { cwd: file.cwd, sessions: [], stats: emptyStats() };
      projects.set(projectKey, project);
    }
    const countedIndexes = lineage.counted.get(file) ?? new Set<number>();
    const counted = new Set(file.entries.filter((_, i) => countedIndexes.has(i)));
    const stats = emptyStats();
    const { price } = options;
    const priceOf = price
      ? (usage: Usage): PricedUsage => {
          const priced = price(usage, file.source);
          prices.set(usage, priced);
          return priced;
        }
      : null;
    for (const entry of counted) addEntry(stats, entry, priceOf);
    const costCheck = price
      ? checkCost([...counted].flatMap((e) => e.usage.map((usage) => ({ usage, priced: prices.get(usage) as PricedUsage }))))
      : null;
    const tree = buildTree(file.entries);
    const name = latestName(file.entries);
    const session: Session = {
      file,
      tree,
      counted,
      stats,
      costCheck,
      tools: toolStats(counted, file.entries),
      branches: tree.leaves.length,
      title: name === null ? titleFromPrompts(file.entries) : shorten(name),
      name,
      origin: null,
      originMissing: lineage.missingOrigin.has(file),
      copies: [],
      project,
    };
    sessions.set(file, session);
    project.sessions.push(session);
    addStats(project.stats, stats);
  }

  for (const [copy, origin] of lineage.originOf) {
    const copySession = sessions.get(copy);
    const originSession = sessions.get(origin);
    if (!copySession || !originSession) continue;
    copySession.origin = originSession;
    originSession.copies.push(copySession);
  }

  const totals = emptyStats();
  const projectList = [...projects.values()];
  for (const project of projectList) {
    project.sessions.sort(byStart);
    project.cwd = commonSpelling(project.sessions);
    addStats(totals, project.stats);
  }
  projectList.sort((a, b) => (b.stats.lastAt ?? 0) - (a.stats.lastAt ?? 0) || compareText(a.cwd ?? '', b.cwd ?? ''));
  const sessionList = [...sessions.values()].sort(byStart);
  return { sessions: sessionList, projects: projectList, totals, prices };
}

/** Newest first. */
function byStart(a: Session, b: Session): number {
  return startOf(b) - startOf(a) || compareText(a.file.path, b.file.path);
}

export function startOf(session: Session): number {
  return session.file.startedAt ?? session.stats.firstAt ?? session.file.mtime;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sessions of one folder belong together whatever spelling the path had: trailing separators
 * are dropped, and Windows paths (drive letter or backslashes) compare case-insensitively.
 */
function projectKeyOf(cwd: string | null): string {
  if (cwd === null) return '\0unknown';
  const trimmed = cwd.length > 1 ? cwd.replace(/[\\/]+$/, '') : cwd;
  return /^[A-Za-z]:[\\/]|\\/.test(trimmed) ? trimmed.replace(/\\/g, '/').toLowerCase() : trimmed;
}

/** One folder can be spelled several ways (`C:\\App`, `c:\\app\\`): show the spelling most sessions used. */
function commonSpelling(sessions: readonly Session[]): string | null {
  const counts = new Map<string | null, number>();
  for (const session of sessions) counts.set(session.file.cwd, (counts.get(session.file.cwd) ?? 0) + 1);
  let best: string | null = sessions[0]?.file.cwd ?? null;
  for (const [cwd, count] of counts) if (count > (counts.get(best) ?? 0)) best = cwd;
  return best;
}

/** The latest non-empty /name in file order; an empty one clears it. */
function latestName(entries: readonly Entry[]): string | null {
  let name: string | null = null;
  for (const entry of entries) if (entry.kind === 'name') name = entry.name;
  return name;
}

const TITLE_LENGTH = 90;

/** The first words the user typed; a skill prompt is named by its skill, never by its body. */
function titleFromPrompts(entries: readonly Entry[]): string {
  for (const entry of entries) {
    if (entry.kind !== 'prompt') continue;
    const typed = entry.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    const title = skillTitle(entry.skill, typed);
    if (title) return shorten(title);
  }
  return '(no prompts)';
}

/** Titles name a session in lists and headings; the full name stays on its page. */
function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > TITLE_LENGTH ? `${oneLine.slice(0, TITLE_LENGTH - 1)}…` : oneLine;
}

function skillTitle(skill: SkillInvocation | null, typed: string): string {
  if (!skill) return typed;
  return typed ? `/skill:${skill.name} ${typed}` : `/skill:${skill.name}`;
}
