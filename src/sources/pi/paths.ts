// Where Pi keeps its session files (formats/pi.md §1).

import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Environment } from '../../environment.js';

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/** Pi's agent folder: PI_CODING_AGENT_DIR replaces ~/.pi/agent wholesale. */
export function piAgentDir({ env, home }: Environment): string {
  const agentDir = env['PI_CODING_AGENT_DIR'];
  return agentDir ? expandHome(agentDir, home) : join(home, '.pi', 'agent');
}

/** The `--<encoded cwd>--` folder Pi filed a session under; null in a flat custom session folder. */
export function piProjectFolder(path: string): string | null {
  const folder = path.split(/[\\/]/).at(-2) ?? '';
  return isPiProjectFolder(folder) ? folder : null;
}

/**
 * Whether a folder is one Pi files a project's sessions under, `--<encoded cwd>--` in a
 * `sessions` folder, whose subfolders are its extensions' (pi.md §18). By its name alone another
 * agent's may be one (Claude Code's of a Windows share's `c++` folder: `--wsl-localhost-…--`).
 */
export function isPiSessionsProjectFolder(name: string, parent: string): boolean {
  return parent === 'sessions' && isPiProjectFolder(name);
}

/** Whether a folder's name is one Pi files a project's sessions under: `--<encoded cwd>--`. */
export function isPiProjectFolder(name: string): boolean {
  return /^--.+--$/.test(name);
}

/**
 * Pi's session folders on this machine: the environment's when set, as in Pi; else the
 * `sessionDir` its settings set (pi.md §1), where Pi writes now, and its agent folder's
 * `sessions` beside it, where it wrote before the setting (a report of history reads both); else
 * that folder alone.
 */
export function piSessionPlaces(environment: Environment): string[] {
  const sessionDir = environment.env['PI_CODING_AGENT_SESSION_DIR'];
  if (sessionDir) return [expandHome(sessionDir, environment.home)];
  const usual = join(piAgentDir(environment), 'sessions');
  const setting = settingsSessionDir(environment);
  return setting !== null && setting !== usual ? [setting, usual] : [usual];
}

/** A settings file larger than this is no settings file of Pi's: not read. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * The `sessionDir` Pi's global settings (`<agent folder>/settings.json`) set, where it names a
 * folder of its own: absolute, or under the home (`~/…`). One relative to the folder Pi runs in
 * names a folder per project, which a report cannot know: not taken. Null when none is set.
 */
function settingsSessionDir(environment: Environment): string | null {
  const path = join(piAgentDir(environment), 'settings.json');
  try {
    // A named pipe or a device there would block the read for good, Ctrl-C with it.
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_SETTINGS_BYTES) return null;
    const settings: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const dir = typeof settings === 'object' && settings !== null && !Array.isArray(settings) ? (settings as Record<string, unknown>)['sessionDir'] : undefined;
    if (typeof dir !== 'string' || dir.trim() === '') return null;
    const expanded = expandHome(dir.trim(), environment.home);
    return isAbsolute(expanded) ? expanded : null;
  } catch {
    // No settings, or settings Pi could not read either: its default folder.
    return null;
  }
}
