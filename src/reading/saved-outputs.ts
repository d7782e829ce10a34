// Tool outputs an agent kept beside a session rather than in it (Claude Code's `<persisted-output>`:
// the transcript holds the first 2 kB, `<session>/tool-results/<name>` the whole): read into the
// session's content for its pages, so that the report (and its archive, once the agent deletes
// the session) holds the output, not its start.

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SessionFile } from '../types.js';

/**
 * Ten times what a page shows of one text (its first 100,000 characters): an output is read to
 * here, its end said to be cut, so that a session of many such outputs is not held whole.
 */
export const SAVED_OUTPUT_BYTES = 1024 * 1024;

/**
 * The file with the whole outputs of its tool results that hold only their start, where the
 * session's own folder has them: only a regular file (not a link) named as recorded, in the
 * `tool-results` folder of the session the file is (or of whose sub-agent it is); never the path
 * recorded, which may name anything. One not there keeps its start.
 */
export async function withSavedOutputs(file: SessionFile): Promise<SessionFile> {
  if (!file.entries.some((entry) => entry.kind === 'toolResult' && entry.savedOutput !== undefined)) return file;
  const folders = sessionFolders(file.path);
  const entries = [];
  for (const entry of file.entries) {
    if (entry.kind !== 'toolResult' || entry.savedOutput === undefined) {
      entries.push(entry);
      continue;
    }
    const whole = await readSaved(folders, entry.savedOutput);
    entries.push(whole === null ? entry : { ...entry, content: [{ type: 'text' as const, text: whole }] });
  }
  return { ...file, entries };
}

/** `<dir>/<id>.jsonl` keeps its side files in `<dir>/<id>/`; a sub-agent's `<dir>/<id>/subagents/agent-x.jsonl` in its session's. */
function sessionFolders(path: string): string[] {
  const own = join(dirname(path), basename(path).replace(/\.jsonl$/i, ''));
  return basename(dirname(path)) === 'subagents' ? [dirname(dirname(path)), own] : [own];
}

async function readSaved(folders: readonly string[], name: string): Promise<string | null> {
  if (name === '' || name === '.' || name === '..' || /[\\/\u0000]/.test(name)) return null;
  for (const folder of folders) {
    const text = await readStart(join(folder, 'tool-results', name)).catch(() => null);
    if (text !== null) return text;
  }
  return null;
}

/** A regular file's text to SAVED_OUTPUT_BYTES, saying where it was cut; null for anything else. */
async function readStart(path: string): Promise<string | null> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    const buffer = Buffer.alloc(Math.min(info.size, SAVED_OUTPUT_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A character cut at the end is dropped, not shown as a replacement mark.
    const text = buffer.subarray(0, bytesRead).toString('utf8').replace(/\uFFFD{1,3}$/, '');
    return info.size > bytesRead ? `${text}\n… (read to ${megabytes(bytesRead)} of its ${megabytes(info.size)})` : text;
  } finally {
    await handle.close();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
