// What each line of a tool's diff is: a file header, a hunk header, an added, removed or
// unchanged line. The readers count added and removed lines with it, and the pages colour them.

import type { ToolDiff } from './types.js';

export type DiffLineKind = 'header' | 'hunk' | 'added' | 'removed' | 'context';

const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Calls `each` with every line of `diff` and its kind, until it returns false. In a unified diff
 * a hunk's header says how many old and new lines it holds: within them a line is what its first
 * character says, so a removed `--` comment reads `---` and an added `++i` reads `+++` without
 * being taken for a file's header. A hunk header without counts (hand-made diffs) runs to the
 * next header, and there `---` is a file header only when a `+++` line follows it.
 */
export function eachDiffLine(diff: ToolDiff, each: (kind: DiffLineKind, line: string) => boolean | void): void {
  const lines = diff.text.split('\n');
  const unified = diff.format === 'unified';
  let oldLeft = 0;
  let newLeft = 0;
  let uncounted = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const first = line.charCodeAt(0);
    let kind: DiffLineKind;
    if (unified && (oldLeft > 0 || newLeft > 0) && (line === '' || first === SPACE || first === PLUS || first === MINUS || first === BACKSLASH)) {
      if (first === PLUS) {
        kind = 'added';
        newLeft--;
      } else if (first === MINUS) {
        kind = 'removed';
        oldLeft--;
      } else {
        kind = 'context';
        // "\ No newline at end of file" stands for no line of either side.
        if (first !== BACKSLASH) {
          oldLeft--;
          newLeft--;
        }
      }
    } else if (line.startsWith('@@')) {
      kind = 'hunk';
      const counts = unified ? HUNK_HEADER.exec(line) : null;
      oldLeft = counts === null ? 0 : Number(counts[1] ?? 1);
      newLeft = counts === null ? 0 : Number(counts[2] ?? 1);
      uncounted = unified && counts === null;
    } else if (unified && isFileHeader(line, lines[i + 1], uncounted)) {
      kind = 'header';
      oldLeft = newLeft = 0;
      uncounted = false;
    } else {
      oldLeft = newLeft = 0;
      kind = first === PLUS ? 'added' : first === MINUS ? 'removed' : 'context';
    }
    if (each(kind, line) === false) return;
  }
}

/** Lines added and removed by a diff. */
export function diffChange(diff: ToolDiff): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  eachDiffLine(diff, (kind) => {
    if (kind === 'added') added++;
    else if (kind === 'removed') removed++;
  });
  return { added, removed };
}

/** A file's header in Codex's own patch form (`*** Update File: src/a.ts`), and where it moves one to. */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+?)\r?$/;
const PATCH_MOVE = /^\*\*\* Move to: (.+?)\r?$/;

/**
 * Lines added and removed by a diff, by the file they are of (as its headers name it: `b/` and
 * `a/` prefixes of a unified diff taken off; a file moved, by where it went), in the order first
 * named; lines before any header are of no file and left out.
 */
export function diffChangeByFile(diff: ToolDiff): { path: string; added: number; removed: number }[] {
  const files = new Map<string, { path: string; added: number; removed: number }>();
  let current: { path: string; added: number; removed: number } | null = null;
  let removedFrom: string | null = null;
  const open = (path: string) => {
    let file = files.get(path);
    if (file === undefined) files.set(path, (file = { path, added: 0, removed: 0 }));
    current = file;
  };
  eachDiffLine(diff, (kind, line) => {
    if (kind === 'header') {
      const named = line.slice(4).replace(/\r$/, '').trim();
      if (line.startsWith('--- ')) removedFrom = named === '/dev/null' ? null : named.replace(/^a\//, '');
      else if (line.startsWith('+++ ')) {
        const path = named === '/dev/null' ? removedFrom : named.replace(/^b\//, '');
        if (path !== null) open(path);
      }
      return;
    }
    if (diff.format !== 'unified' && kind === 'context') {
      const path = PATCH_FILE.exec(line)?.[1]?.trim();
      if (path) open(path);
      const moved = PATCH_MOVE.exec(line)?.[1]?.trim();
      const file = current as { path: string; added: number; removed: number } | null;
      if (moved && file !== null && !files.has(moved)) {
        files.delete(file.path);
        file.path = moved;
        files.set(moved, file);
      }
      return;
    }
    const file = current as { added: number; removed: number } | null;
    if (file === null) return;
    if (kind === 'added') file.added++;
    else if (kind === 'removed') file.removed++;
  });
  return [...files.values()];
}

function isFileHeader(line: string, next: string | undefined, inUncountedHunk: boolean): boolean {
  if (line.startsWith('+++')) return !inUncountedHunk;
  if (line.startsWith('---')) return !inUncountedHunk || (next?.startsWith('+++') ?? false);
  return !inUncountedHunk && (line.startsWith('diff --git ') || line.startsWith('index '));
}

const SPACE = 0x20;
const PLUS = 0x2b;
const MINUS = 0x2d;
const BACKSLASH = 0x5c;
