// Where Claude Code keeps its transcripts (formats/claude.md §1).

import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Environment } from '../../environment.js';
import type { FileHeads } from '../file-head.js';

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/**
 * `CLAUDE_CONFIG_DIR` (a comma-separated list, as ccusage reads it) names config folders whose
 * `projects/` holds the transcripts, or the `projects/` folder itself; without it, both default
 * roots, since installs have used either.
 */
export function claudeSessionPlaces({ env, home }: Environment): string[] {
  const configured = (env['CLAUDE_CONFIG_DIR'] ?? '')
    .split(',')
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '');
  const roots = configured.length > 0 ? configured.map((dir) => expandHome(dir, home)) : [join(home, '.claude'), join(home, '.config', 'claude')];
  return [...new Set(roots.map((root) => (basename(root.replace(/[\\/]+$/, '')) === 'projects' ? root.replace(/[\\/]+$/, '') : join(root, 'projects'))))];
}

/**
 * The project folder a transcript sits in: the one under `projects/` (files nest 1–4 levels below
 * it); outside a `projects/` folder, the folder holding it, or, for a 2.1.x sub-agent
 * (`<session id>/subagents/[workflows/<run>/]agent-….jsonl`), the one holding its session's folder.
 */
export function claudeProjectFolder(path: string): string | null {
  const folders = path.split(/[\\/]/).slice(0, -1);
  const projects = folders.lastIndexOf('projects');
  if (projects >= 0 && projects < folders.length - 1) return folders[projects + 1] || null;
  const subagents = folders.lastIndexOf('subagents');
  return (subagents >= 1 ? folders.slice(0, subagents - 1) : folders).at(-1) || null;
}

/**
 * A session's own sub-agents: `<session id>/subagents/` beside its file (2.1.x), and the flat
 * `agent-*.jsonl` files of its folder whose first line names it (2.0.x; the folder holds other
 * sessions' too).
 */
export async function claudeCompanions(path: string, heads: FileHeads): Promise<string[]> {
  const folder = dirname(path);
  // Claude Code names a session's file by its id, a UUID; a file renamed (a copy kept by hand) is
  // told by the id its first lines carry. A file of neither has no sub-agents.
  const named = basename(path).replace(/\.jsonl$/i, '');
  // A sub-agent's own file carries its session's id too: given alone, it is that sub-agent, not
  // its session's other sub-agents with it. Told by its lines, a sidechain from the first, under
  // any name but a session's: a session's file may begin with a warmup's sidechain.
  if (!SESSION_ID.test(named) && (await heads.firstFlag(path, 'isSidechain', HEAD_BYTES)) === true) return [];
  const stem = SESSION_ID.test(named) ? named : await heads.firstValue(path, 'sessionId', HEAD_BYTES);
  if (stem === null || !SESSION_ID.test(stem)) return [];
  const found: string[] = [];
  const nested = join(folder, stem, 'subagents');
  if (await stat(nested).then((s) => s.isDirectory(), () => false)) found.push(nested);
  // The first line naming a session names its own (a summary line before it names none).
  found.push(...((await heads.byFirstValue(folder, SUBAGENT_FILE, 'sessionId', HEAD_BYTES)).get(stem) ?? []));
  return found;
}

/** How Claude Code names a sub-agent's file, in `<session>/subagents/` or (before 2.1) beside its session's. */
export const SUBAGENT_FILE = /^agent-.+\.jsonl$/i;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A session's file as Claude Code names it: `<its id>.jsonl`. */
export function isSessionFileName(name: string): boolean {
  return /\.jsonl$/i.test(name) && SESSION_ID.test(name.slice(0, -'.jsonl'.length));
}

/** How much of a flat sub-agent file is read to tell its session: its first lines, which name it. */
const HEAD_BYTES = 16 * 1024;

/**
 * The folders whose `tool-results` hold the outputs a session file's results were too large for:
 * `<dir>/<id>.jsonl` keeps its side files in `<dir>/<id>/`; a sub-agent's
 * (`<dir>/<id>/subagents/agent-x.jsonl`, a workflow's `…/subagents/workflows/<run>/agent-x.jsonl`)
 * in its session's.
 */
export function sessionSideFolders(path: string): string[] {
  const own = join(dirname(path), basename(path).replace(/\.jsonl$/i, ''));
  let folder = dirname(path);
  for (let depth = 0; depth < 4 && dirname(folder) !== folder; depth++, folder = dirname(folder)) {
    if (basename(folder) === 'subagents') return [dirname(folder), own];
  }
  return [own];
}
