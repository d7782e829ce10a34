// Where Pi keeps its session files (formats/pi.md §1).

import { join } from 'node:path';

export interface Environment {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/** Pi's session folders on this machine, most specific first: the first one set wins, as in Pi. */
export function piSessionPlaces({ env, home }: Environment): string[] {
  const expand = (path: string) => (path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path);
  const sessionDir = env['PI_CODING_AGENT_SESSION_DIR'];
  if (sessionDir) return [expand(sessionDir)];
  const agentDir = env['PI_CODING_AGENT_DIR'];
  if (agentDir) return [join(expand(agentDir), 'sessions')];
  return [join(home, '.pi', 'agent', 'sessions')];
}
