// What Claude Code's tool calls did (formats/claude.md §5): which files they named, the diff an
// edit reported, and which git commits a Bash call made.

import type { GitCommit, ToolDiff, ToolEffect } from '../../types.js';
import { isPlainObject } from '../json-line.js';
import { firstTextArgument, pathBesideCwd, shellCommits } from '../tool-output.js';
import { rawPatchResult } from './schema.js';

const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);

export function toolEffect(name: string, input: unknown, cwd: string | null): ToolEffect {
  const args = isPlainObject(input) ? input : {};
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : null);
  const paths = (list: (string | null)[]) => list.filter((p): p is string => p !== null && p !== '').map((p) => pathBesideCwd(p, cwd));
  const effect = (action: ToolEffect['action'], named: string[], command: string | null, summary: string): ToolEffect => ({
    action,
    paths: named,
    command,
    summary,
  });
  const filePath = text('file_path') ?? text('notebook_path') ?? text('path');
  switch (name) {
    case 'Bash':
    case 'PowerShell':
      return effect('shell', [], text('command'), text('command') ?? '');
    case 'Read':
      return effect('read', paths([filePath]), null, filePath ?? '');
    case 'Write':
      return { ...effect('write', paths([filePath]), null, filePath ?? ''), fileContent: text('content') };
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return effect('edit', paths([filePath]), null, filePath ?? '');
    case 'Grep':
    case 'Glob':
      return { ...effect('search', paths([text('path') ?? '.']), null, [text('pattern'), text('path')].filter(Boolean).join('  in ')), pattern: text('pattern') };
    case 'LS':
      return effect('list', paths([text('path') ?? '.']), null, text('path') ?? '.');
    case 'Task':
    case 'Agent': {
      const who = text('subagent_type') ?? text('name');
      return effect('delegate', [], null, [who, text('description')].filter(Boolean).join(': '));
    }
    case 'WebSearch':
    // The API's own server tools (a server_tool_use block), which Claude Code lets the model call.
    case 'web_search':
      return { ...effect('search', [], null, text('query') ?? ''), query: text('query') };
    case 'WebFetch':
    case 'web_fetch':
      return effect('other', [], null, text('url') ?? '');
    case 'TodoWrite':
      return effect('other', [], null, Array.isArray(args['todos']) ? `${args['todos'].length} to-dos` : '');
    case 'Skill':
      return effect('other', [], null, text('skill') ?? text('command') ?? '');
    default:
      return effect('other', [], null, firstTextArgument(args));
  }
}

/**
 * The diff an edit made: Claude Code's own hunks (`toolUseResult.structuredPatch`), a created
 * file's lines, or else the old and new strings the call asked to swap (no line numbers).
 */
export function toolDiff(toolName: string | null, input: unknown, toolUseResult: unknown): ToolDiff | null {
  const patch = rawPatchResult.safeParse(toolUseResult);
  if (patch.success && patch.data.structuredPatch.length > 0) {
    const hunks = patch.data.structuredPatch.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines]);
    return { format: 'unified', text: hunks.join('\n') };
  }
  if (toolName === 'Write' && isPlainObject(toolUseResult) && toolUseResult['type'] === 'create' && typeof toolUseResult['content'] === 'string') {
    const lines = toolUseResult['content'].replace(/\n$/, '').split('\n');
    return { format: 'unified', text: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n') };
  }
  if (toolName !== 'Edit' && toolName !== 'MultiEdit') return null;
  const args = isPlainObject(input) ? input : {};
  const edits = toolName === 'MultiEdit' && Array.isArray(args['edits']) ? args['edits'] : [args];
  const parts = edits.flatMap((edit) => {
    if (!isPlainObject(edit) || typeof edit['old_string'] !== 'string' || typeof edit['new_string'] !== 'string') return [];
    return [[...lineList(edit['old_string']).map((l) => `-${l}`), ...lineList(edit['new_string']).map((l) => `+${l}`)].join('\n')];
  });
  return parts.length > 0 ? { format: 'display', text: parts.join('\n⋯\n') } : null;
}

function lineList(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

/**
 * The file an edit's result says it changed (`toolUseResult.filePath`), for a result whose call is
 * not in the file (an excerpt, a damaged line): its lines are then still some file's.
 */
export function resultFile(toolUseResult: unknown, cwd: string | null): string | null {
  const patch = rawPatchResult.safeParse(toolUseResult);
  const path = patch.success ? patch.data.filePath : isPlainObject(toolUseResult) && typeof toolUseResult['filePath'] === 'string' ? toolUseResult['filePath'] : null;
  return typeof path === 'string' && path !== '' ? pathBesideCwd(path, cwd) : null;
}

/** Lines added and removed, counted on the hunk lines (a removed line may itself start with `--`). */
export function diffLines(diff: ToolDiff): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.text.split('\n')) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/** Commits a Bash call made. */
export function toolCommits(toolName: string | null, command: string | null, output: string, isError: boolean): GitCommit[] {
  return toolName !== null && SHELL_TOOLS.has(toolName) ? shellCommits(command, output, isError) : [];
}
