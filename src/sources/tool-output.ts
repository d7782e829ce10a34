// What any agent's tool results say about the work done, read the same way for every source:
// lines an edit's diff added and removed, and the git commits a shell call made.

import { isPairValue, isSecretName, pairedSecretName } from '../share/secrets.js';
import type { GitCommit } from '../types.js';

export { diffChange } from '../diff-lines.js';

// `[main 4c1e9b2] message`, `[main (root-commit) 85fd4d9] message`, `[detached HEAD 1a2b3c4] message`.
const COMMIT_LINE = /^\[([^\]\n]*?) (?:\(root-commit\) )?([0-9a-f]{7,40})\] (.*)$/gm;
/** A line of `git log --oneline`: a short hash, then the subject. */
const ONELINE_LOG = /^([0-9a-f]{7,40}) (.*)$/gm;
const GIT_COMMIT_COMMAND = /\bgit\b(?:\s+-[cC]\s+\S+)*\s+commit\b/;

/**
 * Commits a shell command made: each `[branch hash] message` line in its output, or, for a
 * `git commit` that printed none (`-q`), one commit without a hash. A failed call (isError)
 * landed nothing. The caller decides whether the tool was a shell.
 */
/**
 * A tool bough does not know, said by its first text argument: never one a secret's name names
 * (`{"password": "…"}` of an MCP tool's connect), which --share redacts by its name in the
 * arguments but could not know as a bare line (a pass phrase of words).
 */
export function firstTextArgument(args: Readonly<Record<string, unknown>>): string {
  const paired = pairedSecretName(args) !== null;
  for (const [name, value] of Object.entries(args)) if (typeof value === 'string' && !isSecretName(name) && !(paired && isPairValue(name))) return value;
  return '';
}

export function shellCommits(command: string | null, output: string, isError: boolean): GitCommit[] {
  const commits: GitCommit[] = [];
  for (const match of output.matchAll(COMMIT_LINE)) {
    commits.push({ branch: match[1] ?? null, hash: match[2] ?? null, message: match[3] ?? null, landed: !isError, line: match[0] });
  }
  if (commits.length === 0 && command !== null && GIT_COMMIT_COMMAND.test(command)) {
    const message = commitMessage(command);
    // `git commit -q -m 'x' && git log --oneline`: the log's line of that message names the commit.
    const logged = message === null ? null : ([...output.matchAll(ONELINE_LOG)].find((m) => m[2] === message) ?? null);
    commits.push({ branch: null, hash: logged?.[1] ?? null, message, landed: !isError, line: logged?.[0] ?? null });
  }
  return commits;
}

function commitMessage(command: string): string | null {
  const match = /\s-(?:[a-zA-Z]*m)\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+))/.exec(command);
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
}

const WINDOWS_DRIVE = /^([a-zA-Z]):[\\/]/;

/**
 * A tool's path as it reads beside the session's cwd: forward slashes, `.` and `..` folded,
 * relative to the cwd when inside it, else absolute. `windows` follows the cwd's form.
 */
/** A path from a root as Windows reads one: `C:\…`, `\…` (the drive's root, a share's `\\server\…`), and `/…`. */
export function isRootedOnWindows(path: string): boolean {
  return WINDOWS_DRIVE.test(path) || path.startsWith('\\') || path.startsWith('/');
}

export function pathBesideCwd(path: string, cwd: string | null): string {
  // A network share's working folder (`\\server\share\…`, WSL's `\\wsl.localhost\…`) is Windows' too.
  const windows = cwd !== null && (WINDOWS_DRIVE.test(cwd) || cwd.startsWith('\\\\'));
  if (path === '~' || path.startsWith('~/') || path.startsWith('~\\')) return normalisePath(path, windows);
  // On Windows a path from the root of the drive (`\temp`), or a POSIX one a tool wrote there
  // (WSL, Git Bash: `/home/ana/.env`), is no path below the cwd either.
  const absolute = windows ? isRootedOnWindows(path) : path.startsWith('/');
  if (cwd === null) return normalisePath(path, windows);
  return relativeTo(normalisePath(absolute ? path : `${cwd}/${path}`, windows), cwd, windows);
}

/**
 * Forward slashes, `.` and `..` folded; drive letters upper-case on Windows; composed, as macOS
 * may write a name's é as an e and an accent, and a tool as one letter (regression: one file
 * listed twice among those touched, once outside the working folder).
 */
export function normalisePath(path: string, windows: boolean): string {
  const composed = /[^\x00-\x7f]/.test(path) ? path.normalize('NFC') : path;
  const slashed = windows ? withoutLongPathPrefix(composed).replace(/\\/g, '/') : composed;
  const absolute = slashed.startsWith('/');
  // A network path keeps its two leading slashes: one alone names another file (regression:
  // `\\fileserver\team\spec.md` was shown as `/fileserver/team/spec.md`); `..` stops at its
  // share, as Windows stops it.
  const share = windows && /^\/\/[^/]/.test(slashed);
  const root = share ? 2 : 0;
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && share && parts.length <= root) continue;
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..' && !/^[a-zA-Z]:$/.test(parts.at(-1) ?? '')) parts.pop();
    else parts.push(part);
  }
  let joined = parts.join('/');
  if (windows) joined = joined.replace(/^([a-z]):/, (_, d: string) => `${d.toUpperCase()}:`);
  return share ? `//${joined}` : absolute ? `/${joined}` : joined || '.';
}

/**
 * Windows' long-path forms name the same file or folder as the plain one: `\\?\C:\…` (and
 * `\\.\C:\…`) is `C:\…`, `\\?\UNC\server\…` is `\\server\…`. Any other path as it is.
 */
export function withoutLongPathPrefix(path: string): string {
  return path.replace(/^([\\/])[\\/][?.][\\/](?:UNC[\\/])?/i, (prefix, separator: string) => (/UNC[\\/]$/i.test(prefix) ? separator.repeat(2) : ''));
}

function relativeTo(path: string, cwd: string, windows: boolean): string {
  const base = normalisePath(cwd, windows);
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (same(path, base)) return '.';
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return same(path.slice(0, prefix.length), prefix) ? path.slice(prefix.length) : path;
}
