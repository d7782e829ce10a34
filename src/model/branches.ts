// Splits a session tree into branches for reading: the active path first, then each other leaf's
// path from where it leaves what is already shown. Every entry lands in exactly one branch.

import type { Entry } from '../types.js';
import type { EntryTree } from './tree.js';

export interface Branch {
  /** 1 for the active path, then 2, 3… in file order of their leaves. */
  number: number;
  /** The entries this branch adds, root-most first. */
  entries: readonly Entry[];
  /** The already-shown entry this branch continues from; null for the active path and extra roots. */
  forkPoint: Entry | null;
  isActive: boolean;
}

export function splitBranches(tree: EntryTree): Branch[] {
  const shown = new Set<Entry>(tree.activePath);
  const branches: Branch[] = [];
  if (tree.activePath.length > 0) {
    branches.push({ number: 1, entries: tree.activePath, forkPoint: null, isActive: true });
  }
  for (const leaf of tree.leaves) {
    if (shown.has(leaf)) continue;
    const entries: Entry[] = [];
    let at: Entry | null = leaf;
    while (at !== null && !shown.has(at)) {
      entries.push(at);
      shown.add(at);
      at = tree.parentOf.get(at) ?? null;
    }
    entries.reverse();
    branches.push({ number: branches.length + 1, entries, forkPoint: at, isActive: false });
  }
  if (tree.looseLabels.size > 0) placeLooseLabels(tree, branches, shown);
  // Entries not below any leaf cannot exist once cycles are cut; this keeps "every entry shown" true regardless.
  const rest = tree.entries.filter((entry) => !shown.has(entry));
  if (rest.length > 0) branches.push({ number: branches.length + 1, entries: rest, forkPoint: null, isActive: false });
  return branches;
}

/**
 * A loose label (EntryTree.looseLabels) is shown in its entry's branch, right after the entry (and
 * a label on it, after that one): it is a bookmark on the way, no branch. Each branch it joins is
 * rebuilt once, in order.
 */
function placeLooseLabels(tree: EntryTree, branches: Branch[], shown: Set<Entry>): void {
  const after = new Map<Entry, Entry[]>();
  for (const label of tree.entries) {
    if (!tree.looseLabels.has(label)) continue;
    const parent = tree.parentOf.get(label) ?? null;
    if (parent === null) continue;
    const labels = after.get(parent);
    if (labels) labels.push(label);
    else after.set(parent, [label]);
  }
  const placedBelow = (entry: Entry, into: Entry[]) => {
    const stack = [entry];
    while (stack.length > 0) {
      const at = stack.pop() as Entry;
      into.push(at);
      shown.add(at);
      const labels = after.get(at);
      if (labels) for (let k = labels.length - 1; k >= 0; k--) stack.push(labels[k] as Entry);
    }
  };
  branches.forEach((branch, index) => {
    if (!branch.entries.some((entry) => after.has(entry))) return;
    const entries: Entry[] = [];
    for (const entry of branch.entries) placedBelow(entry, entries);
    branches[index] = { ...branch, entries };
  });
}
