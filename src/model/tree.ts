// The entry tree of one file, from id/parentId: several roots, orphans and cycles allowed.

import type { Entry } from '../types.js';

export interface EntryTree {
  /** Entries in file order. */
  entries: readonly Entry[];
  byId: ReadonlyMap<string, Entry>;
  /** The parent actually used (null for roots, including orphans and broken cycles). */
  parentOf: ReadonlyMap<Entry, Entry | null>;
  /** Children oldest first (by time, then file order); loose labels are no one's. */
  childrenOf: ReadonlyMap<Entry, readonly Entry[]>;
  roots: readonly Entry[];
  /** Roots whose recorded parent is not in the file. */
  orphans: readonly Entry[];
  /** Entries with no children but loose labels, but for loose labels themselves. */
  leaves: readonly Entry[];
  /**
   * Labels (Pi's bookmarks) off the active path with nothing but labels below them: set while
   * the leaf was moved back (`/tree`), which Pi writes as a child of where it was, and left at
   * once. They are no branch of the conversation: `childrenOf` leaves them out.
   */
  looseLabels: ReadonlySet<Entry>;
  /** Root → the last entry in file order: the conversation as the agent last left it. */
  activePath: readonly Entry[];
  /** Entries with two or more children. */
  branchPoints: readonly Entry[];
}

export function buildTree(entries: readonly Entry[]): EntryTree {
  const byId = new Map<string, Entry>();
  for (const entry of entries) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  const order = new Map<Entry, number>(entries.map((entry, index) => [entry, index]));

  const parentOf = new Map<Entry, Entry | null>();
  const orphans: Entry[] = [];
  for (const entry of entries) {
    const parent = entry.parentId === null ? undefined : byId.get(entry.parentId);
    if (entry.parentId !== null && parent === undefined) orphans.push(entry);
    parentOf.set(entry, parent === undefined || parent === entry ? null : parent);
  }
  // A parentId chain that loops never reaches a root: each loop is cut at its entry that comes
  // first in the file, which becomes a root; the rest of the loop then hangs below it.
  for (const cut of loopCuts(entries)) parentOf.set(cut, null);

  const childrenOf = new Map<Entry, Entry[]>();
  const roots: Entry[] = [];
  for (const entry of entries) {
    const parent = parentOf.get(entry) ?? null;
    if (parent === null) roots.push(entry);
    else {
      const siblings = childrenOf.get(parent);
      if (siblings) siblings.push(entry);
      else childrenOf.set(parent, [entry]);
    }
  }
  const byTime = (a: Entry, b: Entry) =>
    (a.timestamp ?? Infinity) - (b.timestamp ?? Infinity) || (order.get(a) ?? 0) - (order.get(b) ?? 0);
  for (const children of childrenOf.values()) if (children.length > 1) children.sort(byTime);

  // The last entry written, and on to a leaf: an entry written earlier may hang below it (Claude
  // Code's titles carry no place of their own and hang from the file's last entry).
  let last = entries.at(-1);
  for (let below = last && childrenOf.get(last); below !== undefined; below = childrenOf.get(last)) last = below.at(-1) as Entry;
  const activePath = last ? pathTo(last, parentOf) : [];
  const looseLabels = labelsOffTheConversation(entries, parentOf, last);
  if (looseLabels.size > 0) {
    for (const [parent, children] of childrenOf) {
      const kept = children.filter((child) => !looseLabels.has(child));
      if (kept.length === 0) childrenOf.delete(parent);
      else if (kept.length < children.length) childrenOf.set(parent, kept);
    }
  }
  const leaves = entries.filter((entry) => !childrenOf.has(entry) && !looseLabels.has(entry));
  const branchPoints = entries.filter((entry) => (childrenOf.get(entry)?.length ?? 0) > 1);
  return { entries, byId, parentOf, childrenOf, roots, orphans, leaves, looseLabels, activePath, branchPoints };
}

/** See EntryTree.looseLabels: each entry is marked once, walking up from each entry not a label. */
function labelsOffTheConversation(entries: readonly Entry[], parentOf: ReadonlyMap<Entry, Entry | null>, last: Entry | undefined): Set<Entry> {
  if (!entries.some((entry) => entry.kind === 'label')) return new Set();
  const holdsMore = new Set<Entry>();
  const markUp = (from: Entry) => {
    for (let at: Entry | null = from; at !== null && !holdsMore.has(at); at = parentOf.get(at) ?? null) holdsMore.add(at);
  };
  for (const entry of entries) if (entry.kind !== 'label') markUp(entry);
  if (last) markUp(last);
  // A label with no parent here (its line lost) stays a root of its own, as before: the tree says
  // so (regression, a hostile look: taken for loose, it was placed nowhere and counted apart).
  for (const entry of entries) if ((parentOf.get(entry) ?? null) === null) holdsMore.add(entry);
  return new Set(entries.filter((entry) => !holdsMore.has(entry)));
}

/** Root → entry. */
export function pathTo(entry: Entry, parentOf: ReadonlyMap<Entry, Entry | null>): Entry[] {
  const path: Entry[] = [];
  for (let at: Entry | null = entry; at !== null; at = parentOf.get(at) ?? null) path.push(at);
  return path.reverse();
}

/**
 * The entries at which a file's parentId chains loop, in file order: each names itself as its
 * parent, or comes first in the file of a loop of entries naming each other: buildTree makes
 * each a root. Kept to typed arrays and one map: it runs on every file read, millions of
 * entries long too.
 */
export function loopCuts(entries: readonly Entry[]): Entry[] {
  const indexOf = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (!indexOf.has(entry.id)) indexOf.set(entry.id, index);
  });
  const parent = new Int32Array(entries.length);
  const cuts: number[] = [];
  entries.forEach((entry, index) => {
    const at = entry.parentId === null ? -1 : (indexOf.get(entry.parentId) ?? -1);
    if (at === index) cuts.push(index);
    parent[index] = at === index ? -1 : at;
  });
  const VISITING = 1;
  const DONE = 2;
  const state = new Uint8Array(entries.length);
  const trail: number[] = [];
  for (let start = 0; start < entries.length; start++) {
    if (state[start] !== 0) continue;
    trail.length = 0;
    let at = start;
    while (at !== -1 && state[at] === 0) {
      state[at] = VISITING;
      trail.push(at);
      at = parent[at] as number;
    }
    if (at !== -1 && state[at] === VISITING) {
      let earliest = at;
      for (let k = trail.lastIndexOf(at); k < trail.length; k++) earliest = Math.min(earliest, trail[k] as number);
      cuts.push(earliest);
    }
    for (const index of trail) state[index] = DONE;
  }
  return cuts.sort((a, b) => a - b).map((index) => entries[index] as Entry);
}
