// Which files copy which (forks, clones, full copies, imports), and which file each entry is
// counted in: entries present in several files count once, in the oldest file holding them.

import type { SessionFile } from '../types.js';

export interface Lineage {
  /** The file each copy was taken from, when that file is among the inputs. */
  originOf: ReadonlyMap<SessionFile, SessionFile>;
  /** Copies whose recorded origin is not among the inputs (their copied entries count in them). */
  missingOrigin: ReadonlySet<SessionFile>;
  /** For each file, the indexes of the entries counted in it. */
  counted: ReadonlyMap<SessionFile, ReadonlySet<number>>;
}

export function resolveLineage(files: readonly SessionFile[]): Lineage {
  const originOf = new Map<SessionFile, SessionFile>();
  const missingOrigin = new Set<SessionFile>();
  const index = indexFiles(files);

  for (const file of files) {
    if (file.parentFile === null) continue;
    const origin = findOrigin(file, file.parentFile, index);
    if (origin && !isAncestor(file, origin, originOf)) originOf.set(file, origin);
    else missingOrigin.add(file);
  }
  // Imports and exports keep the session id and name no origin: the oldest file of an id is the origin.
  for (const sameId of index.bySessionId.values()) {
    if (sameId.length < 2) continue;
    const [first, ...copies] = [...sameId].sort(byAge);
    for (const copy of copies) {
      if (first && !originOf.has(copy) && !isAncestor(copy, first, originOf)) {
        originOf.set(copy, first);
        missingOrigin.delete(copy);
      }
    }
  }
  return { originOf, missingOrigin, counted: countedEntries(files, originOf) };
}

interface FileIndex {
  byPath: Map<string, SessionFile>;
  byBaseName: Map<string, SessionFile[]>;
  bySessionId: Map<string, SessionFile[]>;
}

function indexFiles(files: readonly SessionFile[]): FileIndex {
  const byPath = new Map<string, SessionFile>();
  const byBaseName = new Map<string, SessionFile[]>();
  const bySessionId = new Map<string, SessionFile[]>();
  const push = (map: Map<string, SessionFile[]>, key: string, file: SessionFile) => {
    const list = map.get(key);
    if (list) list.push(file);
    else map.set(key, [file]);
  };
  for (const file of files) {
    byPath.set(normalisePath(file.path), file);
    push(byBaseName, baseName(file.path), file);
    push(bySessionId, file.sessionId, file);
  }
  return { byPath, byBaseName, bySessionId };
}

/**
 * Recorded origin paths come from the machine that wrote them: match by path, else by file
 * name, else by the session id (in the file name, or the value itself when it is an id).
 */
function findOrigin(file: SessionFile, recorded: string, index: FileIndex): SessionFile | null {
  const others = (list: SessionFile[] | undefined) => (list ?? []).filter((f) => f !== file);
  const exact = index.byPath.get(normalisePath(recorded));
  if (exact && exact !== file) return exact;
  const byName = others(index.byBaseName.get(baseName(recorded)));
  if (byName.length > 0) return oldest(byName);
  const id = sessionIdFromName(recorded);
  const byId = others(index.bySessionId.get(id));
  return byId.length > 0 ? oldest(byId) : null;
}

function isAncestor(candidate: SessionFile, of: SessionFile, originOf: ReadonlyMap<SessionFile, SessionFile>): boolean {
  const seen = new Set<SessionFile>();
  for (let at: SessionFile | undefined = of; at && !seen.has(at); at = originOf.get(at)) {
    if (at === candidate) return true;
    seen.add(at);
  }
  return false;
}

/**
 * The first file to hold an entry key counts it. Files are taken oldest first, each origin
 * before its copies, across all inputs: two copies of one lost origin, or a copy of a copy
 * whose middle file is lost, still share their history, and it counts once.
 */
function countedEntries(
  files: readonly SessionFile[],
  originOf: ReadonlyMap<SessionFile, SessionFile>,
): Map<SessionFile, Set<number>> {
  const ordered: SessionFile[] = [];
  const placed = new Set<SessionFile>();
  const place = (file: SessionFile) => {
    // Origins first; the chain is acyclic (links that would close a loop were refused).
    const chain: SessionFile[] = [];
    for (let at: SessionFile | undefined = file; at && !placed.has(at); at = originOf.get(at)) chain.push(at);
    for (const link of chain.reverse()) {
      placed.add(link);
      ordered.push(link);
    }
  };
  [...files].sort(byAge).forEach(place);

  const claimed = new Set<string>();
  const counted = new Map<SessionFile, Set<number>>();
  for (const file of ordered) {
    const mine = new Set<number>();
    file.entries.forEach((entry, i) => {
      const key = `${file.source}\0${entry.key}`;
      if (claimed.has(key)) return;
      claimed.add(key);
      mine.add(i);
    });
    counted.set(file, mine);
  }
  return counted;
}

/** Oldest first: header time, then a file named as the agent names it, then mtime, then path. */
function byAge(a: SessionFile, b: SessionFile): number {
  return (
    (a.startedAt ?? Infinity) - (b.startedAt ?? Infinity) ||
    Number(!hasOwnName(a)) - Number(!hasOwnName(b)) ||
    a.mtime - b.mtime ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
}

function oldest(files: SessionFile[]): SessionFile | null {
  return [...files].sort(byAge)[0] ?? null;
}

/** `<timestamp>_<session id>.jsonl`, the name the agent gives a session it writes. */
function hasOwnName(file: SessionFile): boolean {
  return baseName(file.path).endsWith(`_${file.sessionId}.jsonl`);
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function normalisePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/+$/, '');
}

/** `…/2026-11-30T11-32-37-825Z_<id>.jsonl` → `<id>`; a bare id stays as it is. */
function sessionIdFromName(recorded: string): string {
  const name = baseName(recorded).replace(/\.jsonl$/i, '');
  const underscore = name.indexOf('_');
  return underscore === -1 ? name : name.slice(underscore + 1);
}
