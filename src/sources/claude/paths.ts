// Where Claude Code keeps its transcripts (formats/claude.md §1).

import { basename, join } from 'node:path';
import type { Environment } from '../../environment.js';

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
