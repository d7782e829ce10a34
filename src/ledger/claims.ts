// Which sessions copy which (forks, clones, full copies, imports), and which session counts each
// entry: an entry present in several files counts once, in the oldest file holding it, every
// origin before its copies. Pure: ledgers in, claims out.

import type { SessionKey, SessionLedger } from './ledger.js';

export interface Claims {
  /** The session each copy was taken from, when that session is among the inputs. */
  originOf: ReadonlyMap<SessionKey, SessionKey>;
  /** Copies by origin, oldest first. */
  copiesOf: ReadonlyMap<SessionKey, readonly SessionKey[]>;
  /** Copies whose recorded origin is not among the inputs (their copied entries count in them). */
  missingOrigin: ReadonlySet<SessionKey>;
  /** For each session, one flag per entry: 1 when this session counts it. */
  counted: ReadonlyMap<SessionKey, Uint8Array>;
}

export function claimEntries(ledgers: readonly SessionLedger[]): Claims {
  const originOf = new Map<SessionLedger, SessionLedger>();
  const missingOrigin = new Set<SessionLedger>();
  const index = indexLedgers(ledgers);

  for (const ledger of ledgers) {
    if (ledger.parentFile === null) continue;
    const origin = findOrigin(ledger, ledger.parentFile, index);
    if (origin && !isAncestor(ledger, origin, originOf)) originOf.set(ledger, origin);
    else missingOrigin.add(ledger);
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

  const copiesOf = new Map<SessionKey, SessionKey[]>();
  for (const ledger of [...originOf.keys()].sort(byAge)) {
    const origin = originOf.get(ledger) as SessionLedger;
    const list = copiesOf.get(origin.key);
    if (list) list.push(ledger.key);
    else copiesOf.set(origin.key, [ledger.key]);
  }
  return {
    originOf: new Map([...originOf].map(([copy, origin]) => [copy.key, origin.key])),
    copiesOf,
    missingOrigin: new Set([...missingOrigin].map((l) => l.key)),
    counted: countedEntries(ledgers, originOf),
  };
}

interface LedgerIndex {
  byPath: Map<string, SessionLedger>;
  byBaseName: Map<string, SessionLedger[]>;
  bySessionId: Map<string, SessionLedger[]>;
}

function indexLedgers(ledgers: readonly SessionLedger[]): LedgerIndex {
  const byPath = new Map<string, SessionLedger>();
  const byBaseName = new Map<string, SessionLedger[]>();
  const bySessionId = new Map<string, SessionLedger[]>();
  const push = (map: Map<string, SessionLedger[]>, key: string, ledger: SessionLedger) => {
    const list = map.get(key);
    if (list) list.push(ledger);
    else map.set(key, [ledger]);
  };
  for (const ledger of ledgers) {
    byPath.set(normalisePath(ledger.path), ledger);
    push(byBaseName, baseName(ledger.path), ledger);
    push(bySessionId, ledger.sessionId, ledger);
  }
  return { byPath, byBaseName, bySessionId };
}

/**
 * Recorded origin paths come from the machine that wrote them: match by path, else by file
 * name, else by the session id (in the file name, or the value itself when it is an id).
 */
function findOrigin(ledger: SessionLedger, recorded: string, index: LedgerIndex): SessionLedger | null {
  const others = (list: SessionLedger[] | undefined) => (list ?? []).filter((l) => l !== ledger);
  const exact = index.byPath.get(normalisePath(recorded));
  if (exact && exact !== ledger) return exact;
  const byName = others(index.byBaseName.get(baseName(recorded)));
  if (byName.length > 0) return oldest(byName);
  const id = sessionIdFromName(recorded);
  const byId = others(index.bySessionId.get(id));
  return byId.length > 0 ? oldest(byId) : null;
}

function isAncestor(candidate: SessionLedger, of: SessionLedger, originOf: ReadonlyMap<SessionLedger, SessionLedger>): boolean {
  const seen = new Set<SessionLedger>();
  for (let at: SessionLedger | undefined = of; at && !seen.has(at); at = originOf.get(at)) {
    if (at === candidate) return true;
    seen.add(at);
  }
  return false;
}

/**
 * The first session to hold an entry key counts it. Sessions are taken oldest first, each origin
 * before its copies, across all inputs: two copies of one lost origin, or a copy of a copy whose
 * middle file is lost, still share their history, and it counts once.
 */
function countedEntries(ledgers: readonly SessionLedger[], originOf: ReadonlyMap<SessionLedger, SessionLedger>): Map<SessionKey, Uint8Array> {
  const ordered: SessionLedger[] = [];
  const placed = new Set<SessionLedger>();
  const place = (ledger: SessionLedger) => {
    // Origins first; the chain is acyclic (links that would close a loop were refused).
    const chain: SessionLedger[] = [];
    for (let at: SessionLedger | undefined = ledger; at && !placed.has(at); at = originOf.get(at)) chain.push(at);
    for (const link of chain.reverse()) {
      placed.add(link);
      ordered.push(link);
    }
  };
  [...ledgers].sort(byAge).forEach(place);

  const claimed = new Set<string>();
  const counted = new Map<SessionKey, Uint8Array>();
  for (const ledger of ordered) {
    const mine = new Uint8Array(ledger.entries.length);
    ledger.entries.forEach((entry, i) => {
      const key = `${ledger.source}\0${entry.key}`;
      if (claimed.has(key)) return;
      claimed.add(key);
      mine[i] = 1;
    });
    counted.set(ledger.key, mine);
  }
  return counted;
}

/** Oldest first: header time, then a file named as the agent names it, then mtime, then path. */
function byAge(a: SessionLedger, b: SessionLedger): number {
  return (
    (a.startedAt ?? Infinity) - (b.startedAt ?? Infinity) ||
    Number(!a.namedByAgent) - Number(!b.namedByAgent) ||
    a.mtime - b.mtime ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
}

function oldest(ledgers: SessionLedger[]): SessionLedger | null {
  return [...ledgers].sort(byAge)[0] ?? null;
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
