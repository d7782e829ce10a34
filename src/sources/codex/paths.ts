// Where Codex keeps its rollouts (formats/codex.md §1), and the Codex home a rollout sits in.

import { stat } from 'node:fs/promises';
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

const MS_PER_DAY = 24 * 60 * 60 * 1000;

/**
 * The threads a rollout spawned (its sub-agents), and the threads they spawned, where Codex writes
 * them: rollouts whose session_meta names their parent as `parent_thread_id`, in the day folder
 * each was started in (local time). A thread that runs past midnight, or is resumed on a later
 * day, spawns into later days' folders: those up to the day the rollout was last written to (and
 * the next, for the zones' difference) are looked in too.
 */
export async function codexCompanions(path: string, heads: FileHeads): Promise<string[]> {
  const id = threadIdOf(path);
  if (id === null) return [];
  const byParent = new Map<string, string[]>();
  for (const folder of await spawnFolders(path)) {
    for (const [parent, files] of await heads.byFirstValue(folder, /^rollout-.+\.jsonl$/i, 'parent_thread_id', HEAD_BYTES)) {
      byParent.set(parent, [...(byParent.get(parent) ?? []), ...files]);
    }
  }
  const found: string[] = [];
  const seen = new Set([id]);
  for (const parents = [id]; parents.length > 0; ) {
    for (const file of byParent.get(parents.shift() as string) ?? []) {
      found.push(file);
      const child = threadIdOf(file);
      if (child === null || seen.has(child)) continue;
      seen.add(child);
      parents.push(child);
    }
  }
  return found;
}

/** The thread id a rollout's name ends with, or null for a file not named as Codex names its rollouts. */
export function rolloutThreadId(path: string): string | null {
  return /^rollout-.+\.jsonl$/i.test(basename(path)) ? threadIdOf(path) : null;
}

function threadIdOf(path: string): string | null {
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(basename(path))?.[1] ?? null;
}

/**
 * The rollout's own folder and the day folders (`sessions/YYYY/MM/DD`) the thread may have spawned
 * into: from the day it started to the day after it was last written, however long it went on. A
 * rollout the user archived (`archived_sessions`, flat) started on the day its name says, and its
 * threads' files are in its home's `sessions`.
 */
async function spawnFolders(path: string): Promise<string[]> {
  const own = dirname(path);
  const day = /^(.*)[\\/](\d{4})[\\/](\d{2})[\\/](\d{2})$/.exec(own);
  const named = /^rollout-(\d{4})-(\d{2})-(\d{2})T/i.exec(basename(path));
  const home = codexHomeOf(path);
  const lastWritten = await stat(path).then((info) => info.mtimeMs, () => null);
  const start = day !== null ? { root: day[1] as string, ymd: day.slice(2, 5) } : named !== null && home !== null && isArchivedRollout(path) ? { root: join(home, 'sessions'), ymd: named.slice(1, 4) } : null;
  if (start === null || lastWritten === null) return [own];
  const [year, month, date] = start.ymd.map(Number) as [number, number, number];
  const first = Date.UTC(year, month - 1, date);
  const folders = [own];
  // A time in the future (a clock set wrong) is no later than now.
  const until = Math.min(lastWritten, Date.now()) + MS_PER_DAY;
  for (let at = day !== null ? first + MS_PER_DAY : first; at <= until; at += MS_PER_DAY) {
    const [y, m, d] = new Date(at).toISOString().slice(0, 10).split('-') as [string, string, string];
    folders.push(join(start.root, y, m, d));
  }
  return folders;
}

/** The Codex home a rollout belongs to: the folder above the nearest `sessions`/`archived_sessions` on its path. */
export function codexHomeOf(rolloutPath: string): string | null {
  const parts = rolloutPath.split(/[\\/]/);
  for (let i = parts.length - 2; i > 0; i--) {
    if ((ROLLOUT_FOLDERS as readonly string[]).includes(parts[i] ?? '')) return parts.slice(0, i).join(sep) || sep;
  }
  return null;
}
