// The front of every command: candidate files → read (each by its source's reader) → numbers
// checked → made fit to share → a ledger per session. Files the cache knows are not read; the
// rest are read across threads when there is enough of them. The content (texts, tool output) is
// kept only when asked (`export`); `build` reads each session's content again for its pages.

import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { NO_CACHE, type CachedOutcome, type LedgerCache } from '../cache/ledger-cache.js';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { messageOf } from '../errors.js';
import { isWarmupFile, type SessionKey, type SessionLedger } from '../ledger/ledger.js';
import type { EntriesHold } from '../ledger/packed-entries.js';
import type { SharedProjectFilter } from '../ledger/scope.js';
import type { Sharer } from '../share/share.js';
import { progressCounter } from '../progress.js';
import { readSessionFile } from '../sources/read.js';
import type { SessionFile } from '../types.js';
import { BIG_FILE_BYTES, eachAtMost, eachOnLanes, openPool, TASKS_PER_THREAD, threadsFor, type Pool, type ThreadPlan } from '../threads/pool.js';
import { READ_WORKER, type ReadSetup, type ReadTask, type ThreadReading } from './worker.js';
import { checkedAndShared, readLedger } from './read-ledger.js';
import { withSavedOutputs } from './saved-outputs.js';

/** The content of the sessions read, by key; asking for one that was not read is a bug. */
export interface ContentStore {
  get(key: SessionKey): SessionFile;
}

export interface Collected {
  /** In the order of the candidate files. */
  ledgers: SessionLedger[];
  /** Null when content was not kept. */
  content: ContentStore | null;
  /** The file each session was read from (its ledger's path may be redacted). */
  sourceOf: ReadonlyMap<SessionKey, string>;
  /** What each file was when read (path, size, time, both ends, bough's code), when the cache took it: unchanged files' pages can be kept. */
  identityOf: ReadonlyMap<SessionKey, string>;
  /** Files skipped and every problem found in the files read, made fit to share. */
  diagnostics: Diagnostic[];
  candidates: number;
  /**
   * The empty main files of Claude Code 2.0's starts never given a prompt, beside the warmups read
   * of their session (claude.md §2, §8.4): a normal shape, part of that session, not files skipped.
   */
  warmupMainFiles: ReadonlySet<string>;
  /**
   * Sessions shown as an earlier build archived them because their files, read now, hold less
   * (cut short): files read and session files, not gone ones. Set by the build; none otherwise.
   */
  cutShort?: ReadonlySet<SessionKey>;
  /** The `--project` filter as sharing changed it; null when it changed none, or none was asked for. */
  sharedProject: SharedProjectFilter | null;
  /**
   * The session files an earlier build into the report's folder archived (by the hash of each
   * one's key, as the archive names them), where it keeps sessions whose files are gone, each with
   * when it was first archived (null: not known): a file read now that is none of them is new
   * there. Set by the build.
   */
  archivedBefore?: ReadonlyMap<string, number | null>;
}

export interface CollectOptions {
  /** Redaction and omission for sharing; none for `stats`. */
  sharer?: Sharer | null;
  keepContent: boolean;
  progress?: ((message: string) => void) | undefined;
  /** What discovery could not search (folders it could not list, links it did not follow), listed first. */
  discoveryNotes?: readonly Diagnostic[];
  /** Ledgers of files read before; used only for ledgers made without content or sharing. */
  cache?: LedgerCache;
  /** The files' identities, when the caller has already taken them (by the same cache). */
  identities?: ReadonlyMap<string, string | null>;
  /** The files' real paths that discovery resolved, so that identifying them need not. */
  realPaths?: ReadonlyMap<string, string>;
  /** Reading threads to use when there is enough to read (see readThreads); none reads in this thread. */
  threads?: ThreadPlan;
  /** The `--project` text, matched against each file's folder as read, before it is redacted. */
  projectFilter?: string | null;
  /** Where entries the cache unpacked to check them are kept for the passes after. */
  hold?: EntriesHold;
}

/** Files read at once in this thread: reading waits on the disk, and each file in flight holds its entries. */
const READ_CONCURRENCY = 4;
/** Files the cache is asked about at once: a stat, both ends of the file and a small JSON each. */
const LOOKUP_CONCURRENCY = 16;

type Reading = { outcome: CachedOutcome; identity: string | null; projectMatch?: boolean | null } | { failed: Diagnostic };

export async function collect(paths: readonly string[], options: CollectOptions): Promise<Collected> {
  const sharer = options.sharer ?? null;
  // A cached ledger is the plain reading of a file: never one made fit to share, nor one whose content pages need.
  const cache = options.cache && !options.keepContent && (sharer === null || !sharer.changes) ? options.cache : NO_CACHE;
  // Only a sharer that changes texts changes folders; files are then always read, never cached.
  const projectFilter = sharer?.changes ? (options.projectFilter ?? null) : null;
  const readings: (Reading | null)[] = new Array(paths.length).fill(null);
  const content = new Map<number, SessionFile>();
  const tick = progressCounter('read', paths.length, 'files', options.progress);
  // Whatever one file does to a reader costs that file, never the others.
  const failed = (path: string, error: unknown): Reading => {
    const note = diagnostic('session-failed', path, null, `bough could not read this session: ${messageOf(error)}`);
    return { failed: sharer ? sharer.diagnostic(note) : note };
  };

  // What the cache has is taken first; only the other files are read.
  const toRead: { index: number; identity: string | null; bytes: number }[] = [];
  await eachAtMost(LOOKUP_CONCURRENCY, paths, async (path, index) => {
    try {
      const identity = cache === NO_CACHE ? null : (options.identities?.get(path) ?? (await cache.identify(path, options.realPaths?.get(path))));
      const cached = identity === null ? null : await cache.get(identity, options.hold);
      if (cached) {
        readings[index] = { outcome: cached, identity };
        tick(0);
        return;
      }
      const bytes = await stat(path).then((s) => s.size, () => 0);
      toRead.push({ index, identity, bytes });
    } catch (error) {
      readings[index] = failed(path, error);
      tick(0);
    }
  });
  toRead.sort((a, b) => a.index - b.index);

  const bytesToRead = toRead.reduce((sum, file) => sum + file.bytes, 0);
  tick.expect(bytesToRead);
  const big = toRead.filter((file) => file.bytes >= BIG_FILE_BYTES).length;
  const threads = options.keepContent ? 0 : threadsFor(options.threads, bytesToRead, toRead.length, big);
  const setup: ReadSetup = { share: sharer?.options ?? null, cache: cache.where, projectFilter };
  const pool: Pool<ReadTask, ThreadReading> | null =
    threads > 0
      ? openPool(READ_WORKER, threads, { kind: 'read', setup }, async ({ path, identity, real }) => {
            const { outcome, projectMatch } = await readLedger(path, identity, sharer, cache, false, real, projectFilter);
            return { outcome, redactions: [], projectMatch };
          }, { big: big > 0 })
      : null;
  // The main thread reads beside the threads; each thread (and each lane of this one, whose reads wait on the disk) takes the next file.
  type Lane = { thread: true } | { thread: false };
  const threadLanes = Array.from({ length: threads * TASKS_PER_THREAD }, (): Lane => ({ thread: true }));
  const lanes: Lane[] = pool ? [{ thread: false }, ...threadLanes] : Array.from({ length: READ_CONCURRENCY }, (): Lane => ({ thread: false }));
  try {
    // Largest first, so that no big file starts last and leaves the other threads idle.
    const order = pool ? [...toRead].sort((a, b) => b.bytes - a.bytes || a.index - b.index) : toRead;
    // With threads, a big file is read on one of them, whose heap can hold it, never here.
    const accepts = (lane: Lane, file: { bytes: number }) => !pool || lane.thread || file.bytes < BIG_FILE_BYTES;
    await eachOnLanes(lanes, order, async (lane, { index, identity, bytes }) => {
      const path = paths[index] as string;
      const real = options.realPaths?.get(path);
      try {
        if (pool && lane.thread) {
          const read = await pool.run({ path, identity, real });
          sharer?.addRedactions(read.redactions);
          readings[index] = { outcome: read.outcome, identity, projectMatch: read.projectMatch };
        } else {
          const read = await readLedger(path, identity, sharer, cache, options.keepContent, real, projectFilter);
          readings[index] = { outcome: read.outcome, identity, projectMatch: read.projectMatch };
          if (read.file) content.set(index, read.file);
        }
      } catch (error) {
        readings[index] = failed(path, error);
      }
      tick(bytes);
    }, accepts);
  } finally {
    await pool?.close();
  }

  // The cache's entries of files that are gone go now and then; those of the files here stay.
  // Then the entries written as files of their own are gathered into the pack, once there are
  // enough of them, so that the next run need not open a file per session.
  const used = readings.map((reading) => (reading !== null && 'identity' in reading ? reading.identity : null));
  await cache.prune(used);
  await cache.compact(used);

  // Placed in the input order, whichever finished first: the same keys on every run.
  const ledgers: SessionLedger[] = [];
  const diagnostics: Diagnostic[] = [];
  const sourceOf = new Map<SessionKey, string>();
  const identityOf = new Map<SessionKey, string>();
  const contentOf = new Map<SessionKey, SessionFile>();
  const keys = new Set<SessionKey>();
  const projectMatches = new Set<SessionKey>();
  const emptyFiles = new Map<string, Diagnostic[]>();
  for (const [index, reading] of readings.entries()) {
    if (reading === null) continue;
    if ('failed' in reading) {
      diagnostics.push(reading.failed);
      continue;
    }
    for (const d of reading.outcome.diagnostics) diagnostics.push(d);
    if (reading.outcome.kind === 'skipped') {
      if (reading.outcome.diagnostics.some((d) => d.reason === 'empty-file')) emptyFiles.set(paths[index] as string, reading.outcome.diagnostics);
      continue;
    }
    // Two files whose paths read the same once redacted (~/a.jsonl) stay two sessions.
    const found = reading.outcome.ledger;
    const ledger = keys.has(found.key) ? { ...found, key: `${found.key}#${index}` } : found;
    keys.add(ledger.key);
    ledgers.push(ledger);
    sourceOf.set(ledger.key, paths[index] as string);
    if (reading.identity !== null) identityOf.set(ledger.key, reading.identity);
    if (reading.projectMatch) projectMatches.add(ledger.key);
    const file = content.get(index);
    if (file) contentOf.set(ledger.key, file);
  }
  const warmupMainFiles = emptyFiles.size === 0 ? new Set<string>() : warmupMainFilesAmong(emptyFiles.keys(), ledgers, sourceOf);
  const notSkipped = new Set([...warmupMainFiles].flatMap((file) => emptyFiles.get(file) ?? []));
  return {
    ledgers,
    content: options.keepContent ? storeOf(contentOf) : null,
    sourceOf,
    identityOf,
    diagnostics: [...(options.discoveryNotes ?? []).map((d) => (sharer ? sharer.diagnostic(d) : d)), ...(notSkipped.size === 0 ? diagnostics : diagnostics.filter((d) => !notSkipped.has(d)))],
    candidates: paths.length,
    warmupMainFiles,
    sharedProject: projectFilter === null || sharer === null ? null : { matches: projectMatches, read: keys, shownAs: sharer.text(projectFilter) },
  };
}

/** Claude Code's main files are named by their session's id alone. */
const CLAUDE_MAIN_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/**
 * Of the empty files, those that are the main file of a session read as Claude Code 2.0's warmups
 * alone, in the same folder: Claude Code wrote the file as it started, and no prompt into it.
 */
function warmupMainFilesAmong(emptyFiles: Iterable<string>, ledgers: readonly SessionLedger[], sourceOf: ReadonlyMap<SessionKey, string>): Set<string> {
  const warmedUp = new Set<string>();
  for (const ledger of ledgers) {
    const source = sourceOf.get(ledger.key);
    if (source !== undefined && ledger.subagentOf !== null && isWarmupFile(ledger)) warmedUp.add(`${dirname(source)}\0${ledger.subagentOf.toLowerCase()}`);
  }
  const found = new Set<string>();
  for (const file of emptyFiles) {
    const id = CLAUDE_MAIN_FILE.exec(basename(file))?.[1];
    if (id !== undefined && warmedUp.has(`${dirname(file)}\0${id.toLowerCase()}`)) found.add(file);
  }
  return found;
}

/**
 * A session's content read again, for its pages: the same reading, checks and sharing as when its
 * ledger was made, so that pages hold the content of one session at a time, not of the history.
 */
export async function readContent(path: string, sharer: Sharer | null): Promise<SessionFile> {
  const outcome = await readSessionFile(path);
  if (outcome.kind !== 'session') throw new Error(`its file no longer reads as a session since it was counted: ${outcome.diagnostics[0]?.detail ?? 'not read'}`);
  return checkedAndShared(await withSavedOutputs(outcome.file), sharer);
}

function storeOf(content: ReadonlyMap<SessionKey, SessionFile>): ContentStore {
  return {
    get(key) {
      const file = content.get(key);
      if (!file) throw new Error(`no content read for session ${JSON.stringify(key)}`);
      return file;
    },
  };
}
