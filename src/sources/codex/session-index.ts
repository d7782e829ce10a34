// Thread names from `session_index.jsonl` beside the rollout folders (`{id, thread_name,
// updated_at}`, appended on each rename: the newest line wins). Codex's own titles, read once per
// Codex home; a missing or damaged index just means no names.

import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { isPlainObject, parseJsonLine } from '../json-line.js';
import { readLines } from '../lines.js';
import { codexHomeOf } from './paths.js';
import { rawIndexLine } from './schema.js';

/** Each home's index as last read, by its size and time then: a rename appends to it. */
const indexes = new Map<string, { version: string; names: Promise<ReadonlyMap<string, IndexName>> }>();

/** A thread's name as the index gives it, and when it was given (0 when the line does not say). */
export interface IndexName {
  name: string;
  updatedAt: number;
}

/** The name the user gave a thread, from the index of the Codex home its rollout sits in. */
export async function threadNameOf(rolloutPath: string, threadId: string): Promise<IndexName | null> {
  const home = codexHomeOf(rolloutPath);
  if (home === null) return null;
  const path = join(home, 'session_index.jsonl');
  const { version, readable } = indexState(path);
  let index = indexes.get(home);
  if (index?.version !== version) {
    index = { version, names: readable ? readIndex(path) : Promise.resolve(new Map()) };
    indexes.set(home, index);
  }
  return (await index.names).get(threadId) ?? null;
}

/** The index of the Codex home a rollout sits in, as its size and time ('none' when there is none); null outside a Codex home. */
export function sessionIndexVersion(rolloutPath: string): string | null {
  const home = codexHomeOf(rolloutPath);
  return home === null ? null : indexState(join(home, 'session_index.jsonl')).version;
}

/**
 * Looked at for every rollout (a rename must be seen): at once, not through the file-system
 * threads, whose round trip made a warm run over 30,000 rollouts half as slow again. A plain file
 * only: a pipe or a device would never end.
 */
function indexState(path: string): { version: string; readable: boolean } {
  let info: Stats | null = null;
  try {
    info = statSync(path);
  } catch {
    // No index: no names.
  }
  const readable = info !== null && info.isFile();
  return { version: readable ? `${info?.size}:${info?.mtimeMs}` : 'none', readable };
}

async function readIndex(path: string): Promise<ReadonlyMap<string, IndexName>> {
  const names = new Map<string, IndexName>();
  try {
    for await (const line of readLines(path)) {
      const parsed = parseJsonLine(line.text, () => false);
      if (parsed.kind !== 'ok') continue;
      const record = rawIndexLine.safeParse(parsed.values[0]);
      if (!record.success || !isPlainObject(parsed.values[0])) continue;
      const name = (record.data.thread_name ?? '').replace(/[\r\n]+/g, ' ').trim();
      const updatedAt = Date.parse(record.data.updated_at ?? '') || 0;
      const known = names.get(record.data.id);
      // Newest wins; among equal times, the later line.
      if (!known || updatedAt >= known.updatedAt) names.set(record.data.id, { name, updatedAt });
    }
  } catch {
    // No index (most homes before 2026), or unreadable: no names.
  }
  // An empty name clears the thread's name.
  return new Map([...names].filter(([, { name }]) => name !== ''));
}
