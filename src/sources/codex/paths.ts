// Where Codex keeps its rollouts (formats/codex.md §1), and the Codex home a rollout sits in.

import { basename, dirname, join, sep } from 'node:path';
import type { Environment } from '../../environment.js';
import type { FileHeads } from '../file-head.js';

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/** The folders of a Codex home that hold rollouts: active threads, and threads the user archived. */
export const ROLLOUT_FOLDERS = ['sessions', 'archived_sessions'] as const;

/** `CODEX_HOME` (a comma-separated list, as ccusage reads it), else `~/.codex`; in each, both rollout folders. */
export function codexSessionPlaces({ env, home }: Environment): string[] {
  const configured = (env['CODEX_HOME'] ?? '')
    .split(',')
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '');
  const roots = configured.length > 0 ? configured.map((dir) => expandHome(dir, home)) : [join(home, '.codex')];
  return [...new Set(roots.flatMap((root) => ROLLOUT_FOLDERS.map((folder) => join(root, folder))))];
}

/**
 * A rollout in `archived_sessions`: the same thread can also be in `sessions` (§1), and then that
 * copy, the live one, is the thread.
 */
export function isArchivedRollout(rolloutPath: string): boolean {
  const parts = rolloutPath.split(/[\\/]/);
  for (let i = parts.length - 2; i >= 0; i--) {
    if ((ROLLOUT_FOLDERS as readonly string[]).includes(parts[i] ?? '')) return parts[i] === 'archived_sessions';
  }
  return false;
}

/** How much of a rollout is read to tell its parent: its session_meta, instructions and all. */
const HEAD_BYTES = 64 * 1024;

/**
 * The threads a rollout spawned (its sub-agents), where Codex writes them: rollouts of the same
 * day's folder whose session_meta names it as `parent_thread_id`.
 */
export async function codexCompanions(path: string, heads: FileHeads): Promise<string[]> {
  const name = basename(path);
  const id = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name)?.[1];
  if (id === undefined) return [];
  return (await heads.byFirstValue(dirname(path), /^rollout-.+\.jsonl$/i, 'parent_thread_id', HEAD_BYTES)).get(id) ?? [];
}

/** The Codex home a rollout belongs to: the folder above the nearest `sessions`/`archived_sessions` on its path. */
export function codexHomeOf(rolloutPath: string): string | null {
  const parts = rolloutPath.split(/[\\/]/);
  for (let i = parts.length - 2; i > 0; i--) {
    if ((ROLLOUT_FOLDERS as readonly string[]).includes(parts[i] ?? '')) return parts.slice(0, i).join(sep) || sep;
  }
  return null;
}
