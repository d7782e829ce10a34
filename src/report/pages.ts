// Where each page of the report lives: sanitised, unique slugs for projects and sessions.

import { createHash } from 'node:crypto';
import type { Archive, Project, Session } from '../model/archive.js';
import { formatDay, type TimeFormat } from './format.js';

export interface PageMap {
  session: ReadonlyMap<Session, string>;
  project: ReadonlyMap<Project, string>;
}

export const INDEX_PAGE = 'index.html';
export const DATA_QUALITY_PAGE = 'data-quality.html';

export function assignPages(archive: Archive, time: TimeFormat): PageMap {
  const project = new Map<Project, string>();
  const taken = new Set<string>();
  for (const p of archive.projects) {
    const name = p.cwd === null ? 'unknown-folder' : slugPart(lastSegment(p.cwd), 40) || 'root';
    project.set(p, unique(`projects/${name}-${shortHash(p.cwd ?? '\0')}`, taken));
  }
  const session = new Map<Session, string>();
  for (const s of archive.sessions) {
    const day = formatDay(s.file.startedAt ?? s.stats.firstAt, time);
    const id = slugPart(s.file.sessionId, 13) || 'session';
    session.set(s, unique(`sessions/${day}-${id}-${shortHash(s.file.path).slice(0, 6)}`, taken));
  }
  return { session, project };
}

/** Lower-case ASCII letters, digits and single dashes only: safe on every file system and in URLs. */
export function slugPart(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

function lastSegment(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? '';
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

/** The relative link from one page of the report to another (both relative to the report root). */
export function hrefFrom(fromPage: string, toPage: string): string {
  const depth = fromPage.split('/').length - 1;
  return `${'../'.repeat(depth)}${toPage}`;
}
