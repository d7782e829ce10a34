// Files that copy other files (formats/pi.md §12): /fork and /clone path copies, `pi --fork` full
// copies into another project, /import byte copies, and v1 /branch prefix copies. Copied entries
// keep their lines, so their dedupe keys (id + timestamp) are the origin's.

import type { DraftEntry, SessionDraft } from './session.js';
import { emptyTally } from './truth.js';

/**
 * /fork and /clone: root → `endId` without label entries (children of a dropped label are
 * re-chained to its parent), then the labels on copied entries re-created with new ids at the end.
 */
export function copyPath(source: SessionDraft, endId: string, copy: SessionDraft): void {
  const path = source.pathTo(endId);
  for (const entry of path) {
    if (entry.type === 'label') continue;
    const parentId = nearestNonLabel(source, entry.parentId);
    if (parentId === entry.parentId) copy.adopt(entry);
    else {
      copy.adopt(withParent(entry, parentId));
      copy.note('copy-parent-rechained');
    }
  }
  const copied = new Set(path.map((e) => e.id));
  for (const [targetId, label] of currentLabels(source)) {
    if (!copied.has(targetId) || label.text === '') continue;
    copy.append('label', { targetId, label: label.text }, emptyTally(), { time: Date.parse(label.timestamp), label: { targetId, text: label.text } });
    copy.note('label-recreated');
  }
}

/** `pi --fork`: every entry of every branch, verbatim. */
export function copyAll(source: SessionDraft, copy: SessionDraft): void {
  for (const entry of source.entries) copy.adopt(entry);
}

/** v1 /branch: the file's first `count` entries, verbatim (v1 files are one linear path). */
export function copyPrefix(source: SessionDraft, count: number, copy: SessionDraft): void {
  for (const entry of source.entries.slice(0, count)) copy.adopt(entry);
}

/** The user messages a /fork can start from: on the active path, with a parent in the file. */
export function forkPoints(source: SessionDraft): DraftEntry[] {
  return source.activePath().filter((e) => e.isUserMessage && e.parentId !== null && source.byId.has(e.parentId));
}

function nearestNonLabel(source: SessionDraft, parentId: string | null): string | null {
  let id = parentId;
  for (;;) {
    if (id === null) return null;
    const at = source.byId.get(id);
    if (!at || at.type !== 'label') return id; // a missing parent stays as recorded
    id = at.parentId;
  }
}

/** The same entry under another parent: the line changes, the dedupe key does not. */
function withParent(entry: DraftEntry, parentId: string | null): DraftEntry {
  const record = JSON.parse(entry.line) as Record<string, unknown>;
  record['parentId'] = parentId;
  return { ...entry, parentId, line: JSON.stringify(record) };
}

/** Latest label per target in file order; an empty text means cleared. */
function currentLabels(source: SessionDraft): Map<string, { text: string; timestamp: string }> {
  const labels = new Map<string, { text: string; timestamp: string }>();
  for (const entry of source.entries) {
    if (entry.label) labels.set(entry.label.targetId, { text: entry.label.text, timestamp: entry.timestamp });
  }
  return labels;
}
