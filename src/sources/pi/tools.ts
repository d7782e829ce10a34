// What Pi's tool calls did (formats/pi.md §15–§16): which files they named, resolved as Pi
// resolves them, how many lines an edit changed, and which git commits a shell call made.

import type { GitCommit, ToolDiff, ToolEffect } from '../../types.js';

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
    case 'write':
    case 'edit':
      return effect(name, paths([path]), null, path ?? '');
    case 'bash':
    case 'powershell':
      return effect('shell', [], str('command'), str('command') ?? '');
    case 'grep':
    case 'find':
      return effect('search', paths([path ?? '.']), null, [str('pattern'), path].filter(Boolean).join('  in '));
    case 'ls':
      return effect('list', paths([path ?? '.']), null, path ?? '.');
    case 'subagent': {
      const count = Array.isArray(a['tasks']) ? `${a['tasks'].length} parallel tasks` : Array.isArray(a['chain']) ? `a chain of ${a['chain'].length}` : '';
      return effect('delegate', [], null, str('agent') ? `${str('agent')}: ${str('task') ?? ''}` : count);
    }
    default:
      return effect('other', [], null, Object.values(a).find((v): v is string => typeof v === 'string') ?? '');
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
  if (path === '~' || path.startsWith('~/') || path.startsWith('~\\')) return normalise(path, windows);
  const absolute = windows ? WINDOWS_DRIVE.test(path) || path.startsWith('\\\\') : path.startsWith('/');
  if (cwd === null) return normalise(path, windows);
  return relativeTo(normalise(absolute ? path : `${cwd}/${path}`, windows), cwd, windows);
}

function fileUrlPath(url: string): string {
  try {
    const pathname = decodeURIComponent(new URL(url).pathname);
    return /^\/[a-zA-Z]:/.test(pathname) ? pathname.slice(1) : pathname;
  } catch {
    return url.replace(/^file:\/\//i, '');
  }
}

/** Forward slashes, `.` and `..` folded; drive letters upper-case on Windows. */
function normalise(path: string, windows: boolean): string {
  const slashed = windows ? path.replace(/\\/g, '/') : path;
  const absolute = slashed.startsWith('/');
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..' && !/^[a-zA-Z]:$/.test(parts.at(-1) ?? '')) parts.pop();
    else parts.push(part);
  }
  let joined = parts.join('/');
  if (windows) joined = joined.replace(/^([a-z]):/, (_, d: string) => `${d.toUpperCase()}:`);
  return absolute ? `/${joined}` : joined || '.';
}

function relativeTo(path: string, cwd: string, windows: boolean): string {
  const base = normalise(cwd, windows);
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (same(path, base)) return '.';
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return same(path.slice(0, prefix.length), prefix) ? path.slice(prefix.length) : path;
}

/** An edit's diff: `details.patch` (unified, 0.75.5+), else the older display `details.diff`. */
export function editDiff(details: unknown): ToolDiff | null {
  if (typeof details !== 'object' || details === null) return null;
  const d = details as Record<string, unknown>;
  if (typeof d['patch'] === 'string') return { format: 'unified', text: d['patch'] };
  if (typeof d['diff'] === 'string') return { format: 'display', text: d['diff'] };
  return null;
}

/** Lines added and removed by a diff. */
export function diffChange(diff: ToolDiff): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.text.split('\n')) {
    if (diff.format === 'unified' && (line.startsWith('+++') || line.startsWith('---'))) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

// `[main 4c1e9b2] message`, `[main (root-commit) 85fd4d9] message`, `[detached HEAD 1a2b3c4] message`.
const COMMIT_LINE = /^\[([^\]\n]*?) (?:\(root-commit\) )?([0-9a-f]{7,40})\] (.*)$/gm;
const GIT_COMMIT_COMMAND = /\bgit\b(?:\s+-[cC]\s+\S+)*\s+commit\b/;

/**
 * Commits a shell call made: each `[branch hash] message` line in its output, or, for a
 * `git commit` that printed none (`-q`), one commit without a hash. A failed call (isError)
 * landed nothing.
 */
export function commitsOf(toolName: string | null, command: string | null, output: string, isError: boolean): GitCommit[] {
  if (toolName === null || !SHELLS.has(toolName)) return [];
  const commits: GitCommit[] = [];
  for (const match of output.matchAll(COMMIT_LINE)) {
    commits.push({ branch: match[1] ?? null, hash: match[2] ?? null, message: match[3] ?? null, landed: !isError, line: match[0] });
  }
  if (commits.length === 0 && command !== null && GIT_COMMIT_COMMAND.test(command)) {
    commits.push({ branch: null, hash: null, message: commitMessage(command), landed: !isError, line: null });
  }
  return commits;
}

function commitMessage(command: string): string | null {
  const match = /\s-(?:[a-zA-Z]*m)\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+))/.exec(command);
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
}
