// Tool outputs an agent kept beside a session rather than in it (Claude Code's `<persisted-output>`:
// the transcript holds the first 2 kB, `<session>/tool-results/<name>` the whole): read into the
// session's content for its pages, so that the report (and its archive, once the agent deletes
// the session) holds the output, not its start.

import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { join } from 'node:path';
import { sessionSideFolders } from '../sources/claude/paths.js';
import type { SessionFile } from '../types.js';

/**
 * Ten times what a page shows of one text (its first 100,000 characters): an output is read to
 * here, and said to be cut, so that a session of many such outputs is not held whole.
 */
export const SAVED_OUTPUT_BYTES = 1024 * 1024;

/**
 * The file with the whole outputs of its tool results that hold only their start, where the
 * session's own folder has them: only a regular file (not a link) named as recorded, in the
 * `tool-results` folder of the session the file is (or of whose sub-agent it is), neither folder
 * a link; never the path recorded, which may name anything. One not there keeps its start.
 */
export async function withSavedOutputs(file: SessionFile): Promise<SessionFile> {
  if (!file.entries.some((entry) => entry.kind === 'toolResult' && entry.savedOutput !== undefined)) return file;
  const folders = sessionSideFolders(file.path);
  const entries = [];
  for (const entry of file.entries) {
    if (entry.kind !== 'toolResult' || entry.savedOutput === undefined) {
      entries.push(entry);
      continue;
    }
    const whole = await readSaved(folders, entry.savedOutput);
    // In place of the start the result holds (its first text): what else it carries (an image) stays.
    const at = entry.content.findIndex((block) => block.type === 'text');
    entries.push(whole === null || at === -1 ? entry : { ...entry, content: entry.content.map((block, i) => (i === at ? { type: 'text' as const, text: whole } : block)) });
  }
  return { ...file, entries };
}

async function readSaved(folders: readonly string[], name: string): Promise<string | null> {
  if (name === '' || name === '.' || name === '..' || /[\\/\u0000]/.test(name)) return null;
  for (const folder of folders) {
    // The session's folder and its tool-results folder as Claude Code makes them: never a link
    // (one to a folder of the user's would put its files in a report made to be sent).
    if (!(await isRealFolder(folder)) || !(await isRealFolder(join(folder, 'tool-results')))) continue;
    const text = await readStart(join(folder, 'tool-results', name)).catch(() => null);
    if (text !== null) return text;
  }
  return null;
}

async function isRealFolder(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null))?.isDirectory() === true;
}

/**
 * A regular file's text to SAVED_OUTPUT_BYTES, saying where it was cut; null for anything else (a
 * link, a pipe). A file linked twice is read: backups made with hard links hold every file so, and
 * a hard link can only be made by someone who can read the file already.
 */
async function readStart(path: string): Promise<string | null> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    const buffer = Buffer.alloc(Math.min(info.size, SAVED_OUTPUT_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A character cut at the end is dropped, not shown as a replacement mark.
    const text = buffer.subarray(0, bytesRead).toString('utf8').replace(/\uFFFD{1,3}$/, '');
    // Said first: a page shows the start of a long output, and counts what it leaves out of what was read.
    return info.size > bytesRead ? `[the first ${megabytes(bytesRead)} of this output's ${megabytes(info.size)}, which Claude Code kept beside the session]\n${text}` : text;
  } finally {
    await handle.close();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
