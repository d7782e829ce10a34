// What Pi's tool calls did (formats/pi.md §15–§16): which files they named, resolved as Pi
// resolves them, how many lines an edit changed, and which git commits a shell call made.

import type { GitCommit, ToolDiff, ToolEffect } from '../../types.js';
import { diffChange, firstTextArgument, pathBesideCwd, shellCommits } from '../tool-output.js';

export { diffChange };

const SHELLS = new Set(['bash', 'powershell']);

export function toolEffect(name: string, args: unknown, cwd: string | null): ToolEffect {
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const str = (key: string) => (typeof a[key] === 'string' ? (a[key] as string) : null);
  // Pi's renderers accept file_path as an alias of path.
  const path = str('path') ?? str('file_path');
  const paths = (list: (string | null)[]) => list.filter((p): p is string => p !== null && p !== '').map((p) => resolvePiPath(p, cwd));
  const effect = (action: ToolEffect['action'], named: string[], command: string | null, summary: string): ToolEffect => ({
    action,
    paths: named,
    command,
    summary,
  });
  switch (name) {
    case 'read':
    case 'edit':
      return effect(name, paths([path]), null, path ?? '');
    case 'write':
      return { ...effect('write', paths([path]), null, path ?? ''), fileContent: str('content') };
    case 'bash':
    case 'powershell':
      return effect('shell', [], str('command'), str('command') ?? '');
    case 'grep':
    case 'find':
      return { ...effect('search', paths([path ?? '.']), null, [str('pattern'), path].filter(Boolean).join('  in ')), pattern: str('pattern') };
    case 'ls':
      return effect('list', paths([path ?? '.']), null, path ?? '.');
    case 'subagent': {
      const count = Array.isArray(a['tasks']) ? `${a['tasks'].length} parallel tasks` : Array.isArray(a['chain']) ? `a chain of ${a['chain'].length}` : '';
      return effect('delegate', [], null, str('agent') ? `${str('agent')}: ${str('task') ?? ''}` : count);
    }
    default:
      return effect('other', [], null, firstTextArgument(a));
  }
}

const UNICODE_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
const WINDOWS_DRIVE = /^([a-zA-Z]):[\\/]/;
/** Git-Bash/MSYS `/c/…`, Cygwin `/cygdrive/c/…`, WSL `/mnt/c/…`: Pi turns them into `C:\…`. */
const POSIX_DRIVE = /^\/(?:cygdrive\/|mnt\/)?([a-zA-Z])(?=\/|$)/;

/**
 * A tool's path as Pi resolves it: `@` mention prefix dropped, Unicode spaces made plain,
 * `file://` URLs and Windows drive forms read, then taken relative to the session's cwd.
 * Returned relative to the cwd when inside it, else absolute (`~` stays `~`: the writing
 * machine's home is unknown here).
 */
export function resolvePiPath(raw: string, cwd: string | null): string {
  let path = raw.trim().replace(UNICODE_SPACES, ' ');
  if (path.startsWith('@')) path = path.slice(1);
  if (/^file:\/\//i.test(path)) path = fileUrlPath(path);
  const windows = cwd !== null && WINDOWS_DRIVE.test(cwd);
  if (windows) {
    const drive = POSIX_DRIVE.exec(path);
    if (drive) path = `${drive[1]?.toUpperCase()}:${path.slice(drive[0].length) || '/'}`;
  }
  return pathBesideCwd(path, cwd);
}

function fileUrlPath(url: string): string {
  try {
    const pathname = decodeURIComponent(new URL(url).pathname);
    return /^\/[a-zA-Z]:/.test(pathname) ? pathname.slice(1) : pathname;
  } catch {
    return url.replace(/^file:\/\//i, '');
  }
}

/** An edit's diff: `details.patch` (unified, 0.75.5+), else the older display `details.diff`. */
export function editDiff(details: unknown): ToolDiff | null {
  if (typeof details !== 'object' || details === null) return null;
  const d = details as Record<string, unknown>;
  if (typeof d['patch'] === 'string') return { format: 'unified', text: d['patch'] };
  if (typeof d['diff'] === 'string') return { format: 'display', text: d['diff'] };
  return null;
}

/**
 * Commits a shell call made (see `shellCommits`); only Pi's shell tools run commands.
 */
export function commitsOf(toolName: string | null, command: string | null, output: string, isError: boolean): GitCommit[] {
  if (toolName === null || !SHELLS.has(toolName)) return [];
  return shellCommits(command, output, isError);
}
