// What a session's tool calls did: calls per tool, files touched with lines added and removed,
// and git commits, landed or failed.

import type { Block, Entry, EntryOf, GitCommit } from '../types.js';

type ToolCall = Extract<Block, { type: 'toolCall' }>;

export interface FileTouch {
  path: string;
  reads: number;
  writes: number;
  edits: number;
  /** Lines added and removed by its edits. */
  added: number;
  removed: number;
}

export interface CommitSeen extends GitCommit {
  /** The tool result that reported it. */
  entry: EntryOf<'toolResult'>;
}

export interface ToolStats {
  calls: number;
  /** Tool results that were errors. */
  failures: number;
  byTool: { name: string; calls: number }[];
  files: FileTouch[];
  added: number;
  removed: number;
  commits: CommitSeen[];
}

/**
 * Sums the tool work of `entries`; `all` holds every entry of the file, so a result can find
 * its call even when only one of the two is counted here.
 */
export function toolStats(entries: Iterable<Entry>, all: readonly Entry[]): ToolStats {
  const callsById = new Map<string, ToolCall>();
  for (const entry of all) {
    if (entry.kind === 'reply') for (const block of entry.content) if (block.type === 'toolCall' && block.id) callsById.set(block.id, block);
  }
  const byTool = new Map<string, number>();
  const files = new Map<string, FileTouch>();
  const touch = (path: string): FileTouch => {
    let file = files.get(path);
    if (!file) {
      file = { path, reads: 0, writes: 0, edits: 0, added: 0, removed: 0 };
      files.set(path, file);
    }
    return file;
  };
  const stats: ToolStats = { calls: 0, failures: 0, byTool: [], files: [], added: 0, removed: 0, commits: [] };
  for (const entry of entries) {
    if (entry.kind === 'reply') {
      for (const block of entry.content) {
        if (block.type !== 'toolCall') continue;
        stats.calls++;
        byTool.set(block.name, (byTool.get(block.name) ?? 0) + 1);
        const action = block.effect.action;
        // Searches and listings name folders, not files the work touched.
        if (action !== 'read' && action !== 'write' && action !== 'edit') continue;
        for (const path of block.effect.paths) {
          const file = touch(path);
          if (action === 'read') file.reads++;
          if (action === 'write') file.writes++;
          if (action === 'edit') file.edits++;
        }
      }
    }
    if (entry.kind !== 'toolResult') continue;
    if (entry.isError) stats.failures++;
    for (const commit of entry.commits) stats.commits.push({ ...commit, entry });
    if (entry.change) {
      stats.added += entry.change.added;
      stats.removed += entry.change.removed;
      const call = entry.toolCallId ? callsById.get(entry.toolCallId) : undefined;
      const path = call?.effect.paths[0];
      if (path !== undefined) {
        const file = touch(path);
        file.added += entry.change.added;
        file.removed += entry.change.removed;
      }
    }
  }
  stats.byTool = [...byTool].map(([name, calls]) => ({ name, calls })).sort((a, b) => b.calls - a.calls || (a.name < b.name ? -1 : 1));
  stats.files = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return stats;
}
