// What Codex's tool calls did (formats/codex.md §5): the command a shell call ran, the files an
// apply_patch touched and the lines it changed, whether a call failed, the commits it made.

import type { GitCommit, ToolDiff, ToolEffect } from '../../types.js';
import { isPlainObject } from '../json-line.js';
import { firstTextArgument, isRootedOnWindows, pathBesideCwd, shellCommits } from '../tool-output.js';

/** Tools that run a shell command; their output may report git commits. */
const SHELL_TOOLS = new Set(['exec_command', 'shell', 'local_shell', 'container.exec', 'shell_command']);

export function toolEffect(name: string, args: unknown, cwd: string | null): ToolEffect {
  const a = isPlainObject(args) ? args : {};
  const str = (key: string): string | null => (typeof a[key] === 'string' ? a[key] : null);
  const effect = (action: ToolEffect['action'], paths: string[], command: string | null, summary: string): ToolEffect => ({ action, paths, command, summary });
  const here = (path: string | null) => (path === null || path === '' ? [] : [pathBesideCwd(path, cwd)]);
  switch (name) {
    case 'exec_command':
    case 'shell_command':
    case 'shell':
    case 'local_shell':
    case 'container.exec': {
      const command = shellScript(name, a);
      const inline = inlinePatch(a['command']);
      const run = inline === null ? (command === null ? null : heredocPatch(command)) : { dir: null, patch: inline };
      if (run === null) return effect('shell', [], command, command ?? '');
      // Its paths are of the folder the command ran in: its workdir, and the one it changed to.
      const folder = [str('workdir'), run.dir].reduce<string | null>((dir, next) => (next === null ? dir : dir === null || isRootedOnWindows(next) ? next : `${dir}/${next}`), null);
      const paths = patchPaths(run.patch);
      return effect('edit', paths.map((p) => pathBesideCwd(folder === null || isRootedOnWindows(p) ? p : `${folder}/${p}`, cwd)), null, paths.join(', '));
    }
    case 'apply_patch': {
      const patch = typeof args === 'string' ? args : (str('input') ?? str('patch') ?? '');
      const paths = patchPaths(patch);
      return effect('edit', paths.map((p) => pathBesideCwd(p, cwd)), null, paths.join(', '));
    }
    case 'view_image':
      return effect('read', here(str('path')), null, str('path') ?? '');
    case 'read_file':
      return effect('read', here(str('file_path') ?? str('path')), null, str('file_path') ?? str('path') ?? '');
    case 'list_dir':
      return effect('list', here(str('dir_path') ?? str('path') ?? '.'), null, str('dir_path') ?? str('path') ?? '.');
    case 'grep_files':
      return { ...effect('search', here(str('path') ?? '.'), null, [str('pattern'), str('path')].filter(Boolean).join('  in ')), pattern: str('pattern') };
    case 'web_search': {
      // A search of several queries (`action.queries`) is said by all of them.
      const queries = Array.isArray(a['queries']) ? a['queries'].filter((query): query is string => typeof query === 'string') : [];
      const query = queries.length > 0 ? queries.join(' · ') : str('query');
      return { ...effect('search', [], null, query ?? ''), query };
    }
    case 'update_plan': {
      const steps = Array.isArray(a['plan']) ? `${a['plan'].length} steps` : '';
      return effect('other', [], null, str('explanation') ?? steps);
    }
    case 'spawn_agent':
      return effect('delegate', [], null, [str('agent_type') ?? str('task_name'), str('message')].filter(Boolean).join(': '));
    default: {
      const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
      const firstText = firstTextArgument(a);
      return effect('other', [], null, mcp ? `${mcp[1]}: ${mcp[2]}${firstText ? ` ${firstText}` : ''}` : firstText);
    }
  }
}

/** `["bash", "-lc", "cmd"]` → `cmd`; any other list joined with spaces; a string as it is. */
function commandText(command: unknown): string | null {
  if (typeof command === 'string') return command;
  if (!Array.isArray(command) || !command.every((part): part is string => typeof part === 'string')) return null;
  const [shell, flag, script] = command;
  if (command.length === 3 && shell !== undefined && /(^|\/)(ba|z|fi)?sh$/.test(shell) && (flag === '-lc' || flag === '-c')) return script ?? null;
  return command.join(' ');
}

/**
 * The patch a call applies: apply_patch's text (its raw input, or a function call's `input` or
 * `patch`), or apply_patch run through a shell tool (an older build's argument list, or a
 * heredoc); null for any other call.
 */
export function patchTextOf(name: string, args: unknown): string | null {
  if (name === 'apply_patch') {
    if (typeof args === 'string') return args;
    const a = isPlainObject(args) ? args : {};
    return typeof a['input'] === 'string' ? a['input'] : typeof a['patch'] === 'string' ? a['patch'] : null;
  }
  if (!SHELL_TOOLS.has(name) || !isPlainObject(args)) return null;
  const script = shellScript(name, args);
  return inlinePatch(args['command']) ?? (script === null ? null : (heredocPatch(script)?.patch ?? null));
}

/** The script a shell tool ran: exec_command's `cmd`, shell_command's `command`, the shell tool's command list as commandText reads it. */
function shellScript(name: string, args: Readonly<Record<string, unknown>>): string | null {
  if (name === 'exec_command' || name === 'shell_command') {
    const command = args['cmd'] ?? args['command'];
    return typeof command === 'string' ? command : null;
  }
  return commandText(args['command']);
}

/** Older builds ran apply_patch through the shell tool: `["apply_patch", "*** Begin Patch…"]`. */
function inlinePatch(command: unknown): string | null {
  if (!Array.isArray(command) || command[0] !== 'apply_patch' || typeof command[1] !== 'string') return null;
  return command[1];
}

/**
 * `apply_patch <<'EOF'` … `EOF`, alone or after `cd <folder> &&`: the scripts codex-rs takes for a
 * patch and applies itself (apply-patch's heredoc parsing), when the model runs one through
 * exec_command or the shell tool. Its patch, and the folder it changed to.
 */
const HEREDOC_PATCH = /^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s'"&;|]+)\s*&&\s*)?(?:apply_patch|applypatch)\s+<<\s*(['"]?)([A-Za-z_][\w-]*)\2[ \t]*\r?\n([\s\S]*?)\r?\n\3\s*$/;

function heredocPatch(script: string): { dir: string | null; patch: string } | null {
  const match = HEREDOC_PATCH.exec(script);
  if (!match) return null;
  const dir = match[1] === undefined ? null : match[1].replace(/^(['"])(.*)\1$/s, '$2');
  return { dir, patch: match[4] ?? '' };
}


/** The files a Codex patch names: `*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`. */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)) {
    const path = match[1]?.trim();
    if (path && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** A patch as a diff: unified when it is one (`---`/`+++` headers), else Codex's own `*** Begin Patch` form, counted by its +/- lines. */
export function patchDiff(patch: string): ToolDiff | null {
  if (patch.trim() === '') return null;
  if (/^(diff --git |--- )/m.test(patch) && /^\+\+\+ /m.test(patch)) return { format: 'unified', text: patch };
  return { format: 'display', text: patch };
}

/** The unified diffs Codex reported after applying a patch (`patch_apply_end.changes`), with file headers. */
export function appliedDiff(
  changes: Record<string, { type?: string | null; unified_diff?: string | null; content?: string | null; move_path?: string | null }>,
  cwd: string | null,
): ToolDiff | null {
  const parts: string[] = [];
  for (const [recorded, change] of Object.entries(changes)) {
    // Codex records absolute paths; git's a/ b/ prefixes only go before paths relative to the
    // project. A file moved is named where it went after its changes.
    const prefixed = (path: string, prefix: string) => (path.startsWith('/') ? path : `${prefix}${path}`);
    const path = pathBesideCwd(recorded, cwd);
    const before = prefixed(path, 'a/');
    const after = prefixed(typeof change.move_path === 'string' && change.move_path !== '' ? pathBesideCwd(change.move_path, cwd) : path, 'b/');
    if (typeof change.unified_diff === 'string') parts.push(`--- ${before}\n+++ ${after}\n${change.unified_diff}`);
    else if (change.type === 'add' && typeof change.content === 'string') {
      const lines = change.content.replace(/\n$/, '').split('\n');
      parts.push(`--- /dev/null\n+++ ${after}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}`);
    } else return null; // a change it did not spell out: the patch itself tells more
  }
  return parts.length > 0 ? { format: 'unified', text: parts.join('\n') } : null;
}

/**
 * A tool's exit code as its output reports it: the shell tool's JSON `{output, metadata:{exit_code}}`,
 * its freeform text (`Exit code: N`, then `Wall time: …`, first: codex-rs's
 * format_exec_output_for_model_freeform, for shell_command and the freeform shell), or unified
 * exec's "Process exited with code N" line.
 */
export function exitCodeOf(output: string): number | null {
  const freeform = /^Exit code: (-?\d+)\r?\nWall time: /.exec(output);
  if (freeform) return Number(freeform[1]);
  const head = output.trimStart();
  if (head.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(head);
      if (isPlainObject(parsed) && isPlainObject(parsed['metadata']) && typeof parsed['metadata']['exit_code'] === 'number') {
        return parsed['metadata']['exit_code'];
      }
    } catch {
      // not JSON after all: plain output
    }
  }
  const match = /^Process exited with code (-?\d+)$/m.exec(output.slice(0, 2000));
  return match ? Number(match[1]) : null;
}

/**
 * The outputs codex-rs gives the model, in place of a tool's own, when the call did not run or
 * failed before it did (FunctionCallError::RespondToModel in tools/events.rs and
 * handlers/apply_patch.rs, and an MCP call's error): the whole output is one of them, or begins
 * with one of their fixed words. A patch whose lines were not found, a command or patch the user
 * declined. Words further in (a command's own output that says "failed") are no such output.
 */
const FAILED_OUTPUTS: ReadonlySet<string> = new Set([
  'patch rejected by user',
  'exec command rejected by user',
  'apply_patch handler received invalid patch input',
  'apply_patch handler received non-apply_patch input',
]);
const FAILED_OUTPUT_START = /^(?:apply_patch verification failed: |execution error: |failed to parse function arguments: |tool call error: )/;

/** Whether a tool's output is codex-rs's own word that the call failed or was declined (see FAILED_OUTPUTS). */
export function saysCallFailed(output: string): boolean {
  return FAILED_OUTPUTS.has(output.trim()) || FAILED_OUTPUT_START.test(output);
}

export function isShellTool(name: string | null): boolean {
  return name !== null && SHELL_TOOLS.has(name);
}

export function commitsOf(toolName: string | null, command: string | null, output: string, isError: boolean): GitCommit[] {
  return isShellTool(toolName) ? shellCommits(command, output, isError) : [];
}
