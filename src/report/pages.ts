// Where each page of the report lives: sanitised, unique slugs for projects and sessions, found by
// their stable keys. Asking for the page of something the report does not hold is a bug, so it throws.

import { createHash } from 'node:crypto';
import type { SessionKey } from '../ledger/ledger.js';
import { inSentence } from '../ledger/scope.js';
import { UNKNOWN_PROJECT, type ReportData } from './data.js';
import { formatDay, type TimeFormat } from './format.js';
import { CONTENT_SECURITY_POLICY, type LayoutView } from './render.js';

export interface PageMap {
  /** The page of a session in the report; throws when it has none. */
  session(key: SessionKey): string;
  /** The page of a project in the report; throws when it has none. */
  project(key: string): string;
  hasSession(key: SessionKey): boolean;
  /** Every page by key, as plain data (for a thread that writes pages). */
  readonly lists: PageLists;
}

export interface PageLists {
  sessions: [SessionKey, string][];
  projects: [string, string][];
}

export const INDEX_PAGE = 'index.html';
export const DATA_QUALITY_PAGE = 'data-quality.html';

/** `kept`: the pages of sessions kept from an earlier build, which keep the names they were written under. */
export function assignPages(data: ReportData, time: TimeFormat, kept: ReadonlyMap<SessionKey, string> = new Map()): PageMap {
  const taken = new Set<string>(kept.values());
  const projects = new Map<string, string>();
  for (const p of data.projects) {
    const name = p.cwd !== null ? folderSlug(p.cwd) : p.key === UNKNOWN_PROJECT ? 'unknown-folder' : slugPart(p.key, 40) || 'folder';
    projects.set(p.key, unique(`projects/${name}-${shortHash(p.cwd ?? (p.key === UNKNOWN_PROJECT ? '\0' : p.key))}`, taken));
  }
  const sessions = new Map<SessionKey, string>();
  for (const s of data.sessions) {
    const keptPage = kept.get(s.key);
    if (keptPage !== undefined) {
      sessions.set(s.key, keptPage);
      continue;
    }
    const day = formatDay(s.startedAt, time);
    sessions.set(s.key, unique(`sessions/${day}-${sessionPageStem(s.ledger)}`, taken));
  }
  return pageMapOf({ sessions: [...sessions], projects: [...projects] });
}

/** What names a session's pages after their day: its id and a hash of its file's path (a part or a clash adds to it). */
export function sessionPageStem(ledger: { sessionId: string; path: string }): string {
  return `${slugPart(ledger.sessionId, 13) || 'session'}-${shortHash(ledger.path).slice(0, 6)}`;
}

export function pageMapOf(lists: PageLists): PageMap {
  const sessions = new Map(lists.sessions);
  const projects = new Map(lists.projects);
  return {
    session: (key) => pageOf(sessions, key, 'session'),
    project: (key) => pageOf(projects, key, 'project'),
    hasSession: (key) => sessions.has(key),
    lists,
  };
}

function pageOf(pages: ReadonlyMap<string, string>, key: string, what: string): string {
  const page = pages.get(key);
  if (page === undefined) throw new Error(`no page for ${what} ${JSON.stringify(key)}: a link to something outside the report`);
  return page;
}

/** Lower-case ASCII letters, digits and single dashes only: safe on every file system and in URLs. */
export function slugPart(text: string, max: number): string {
  return text
    .slice(0, max * 4)
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

/** A folder's page name: its last segment's letters, `root` for `/` or `C:\\`, `folder` for a name in a script with no Latin letters. */
function folderSlug(path: string): string {
  const last = path.split(/[\\/]/).filter((segment) => segment !== '' && !/^[A-Za-z]:$/.test(segment)).pop();
  return last === undefined ? 'root' : slugPart(last, 40) || 'folder';
}

function shortHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 8);
}

function unique(base: string, taken: Set<string>): string {
  let candidate = `${base}.html`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}.html`;
  taken.add(candidate);
  return candidate;
}

/** The frame of every page of one report: its title and scope, its way back to the root, the header link it is. */
export function pageLayout(scopeLabel: string, generator: string): (title: string, page: string) => LayoutView {
  return (title, page) => ({
    title: `${title} · ${scopeLabel}`,
    scope: scopeLabel,
    covers: inSentence(scopeLabel),
    root: hrefFrom(page, ''),
    generator,
    csp: CONTENT_SECURITY_POLICY,
    current: page === INDEX_PAGE ? 'overview' : page === DATA_QUALITY_PAGE ? 'quality' : page.startsWith('projects/') ? 'projects' : null,
  });
}

/** The relative link from one page of the report to another (both relative to the report root). */
export function hrefFrom(fromPage: string, toPage: string): string {
  const depth = fromPage.split('/').length - 1;
  return `${'../'.repeat(depth)}${toPage}`;
}
