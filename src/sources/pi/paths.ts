// Where Pi keeps its session files (formats/pi.md §1).

import { join } from 'node:path';
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

/** Whether a folder's name is one Pi files a project's sessions under: `--<encoded cwd>--`. */
export function isPiProjectFolder(name: string): boolean {
  return /^--.+--$/.test(name);
}

/** Pi's session folder on this machine: the first one set wins, as in Pi. */
export function piSessionPlaces(environment: Environment): string[] {
  const sessionDir = environment.env['PI_CODING_AGENT_SESSION_DIR'];
  if (sessionDir) return [expandHome(sessionDir, environment.home)];
  return [join(piAgentDir(environment), 'sessions')];
}
