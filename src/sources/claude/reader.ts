// Claude Code as a SourceReader: where its transcripts live, how its files are told apart, how its
// usage is counted once and priced.

import { lstat, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SourceReader } from '../registry.js';
import { claudeCompanions, claudeSessionPlaces, isSessionFileName, sessionSideFolders, SUBAGENT_FILE } from './paths.js';
import { isClaudeRecord, readClaudeFile } from './read.js';

/**
 * Claude Code's model ids are Anthropic's: LiteLLM lists them bare, some also under `anthropic/`;
 * on Vertex they are written `claude-…@date`, which LiteLLM lists under `vertex_ai/` alone (last:
 * an undated id is Anthropic's newest dated entry, not a Vertex entry of another price). Only an
 * id written so (`@20241022`, `@default`) is Vertex's: `claude-3-5-haiku-20241022`, which the
 * table lists under no provider of Anthropic's own, is unpriced, not Vertex's price (25% above
 * Anthropic's).
 */
const CLAUDE_PRICE_HINT = { prefixes: ['', 'anthropic/'], lastPrefixes: ['vertex_ai/'], lastPrefixesFor: /@\w+$/, subscription: false, local: false } as const;

/** `<session id>/subagents/workflows/<run id>`: where a workflow run keeps its agents' transcripts and its journal. */
const WORKFLOW_RUN = /[\\/]subagents[\\/]workflows[\\/][^\\/]+[\\/]?$/;

export const claudeReader: SourceReader = {
  source: 'claude',
  defaultPlaces: claudeSessionPlaces,
  isRecord: isClaudeRecord,
  // No header: the first record is already part of the conversation (or its bookkeeping).
  recognise: (first) => (isClaudeRecord(first) ? 'record' : null),
  read: readClaudeFile,
  // One response is written as several lines, and copied into resumed sessions: the fullest copy counts.
  usageClaim: 'most-output',
  // The same session in ~/.claude and ~/.config/claude (claude.md §1): the fullest is the session.
  mirrorsSessions: true,
  priceHint: () => CLAUDE_PRICE_HINT,
  localProviders: async () => ({ machine: [], homes: [], folders: [] }),
  companions: claudeCompanions,
  // A workflow run's journal (claude.md §2: no transcript), told by its run's folder, or by its
  // agents' transcripts beside it in a folder given by another path.
  ownFiles: (names, folder) => (names.has('journal.jsonl') && (WORKFLOW_RUN.test(folder) || [...names].some((name) => SUBAGENT_FILE.test(name))) ? ['journal.jsonl'] : []),
  // A sub-agent's label and starting call come from its sidecar, which may be written after it.
  // Claude Code writes sub-agents' files in a session's subagents/ folder, named agent-*.jsonl;
  // one renamed there is still read as one. The outputs too large for a file's lines are in its
  // session's tool-results folder, which its pages show: a file put there (or gone) since is told
  // by the folder's time.
  besideFile: async (path) => {
    const subagent = SUBAGENT_FILE.test(basename(path)) || basename(dirname(path)) === 'subagents';
    // Asked of every file bough reads: only one named as Claude Code names its sessions is looked beside.
    if (!subagent && !isSessionFileName(basename(path))) return null;
    const results = await Promise.all(sessionSideFolders(path).map(async (folder) => (await lstat(join(folder, 'tool-results')).catch(() => null))?.mtimeMs ?? 'none'));
    const saved = results.every((r) => r === 'none') ? '' : `results:${results.join(',')}`;
    if (!subagent) return saved === '' ? null : saved;
    const sidecar = await stat(path.replace(/\.jsonl$/i, '.meta.json')).catch(() => null);
    return `${sidecar === null ? 'none' : `${sidecar.size}:${sidecar.mtimeMs}`}${saved === '' ? '' : ` ${saved}`}`;
  },
};
