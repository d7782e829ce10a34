// The front of every command: candidate files → read (each by its source's reader) → numbers
// checked → made fit to share → a ledger per session. The content (texts, tool output) is kept
// only when pages will be rendered from it; `stats` drops it as soon as the ledger is made.

import { NO_CACHE, type CachedOutcome, type LedgerCache } from './cache/ledger-cache.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { ledgerOf, type SessionKey, type SessionLedger } from './ledger/ledger.js';
import type { Sharer } from './share/share.js';
import { progressLine, PROGRESS_EVERY_MS } from './progress.js';
import { readSessionFile } from './sources/read.js';
import { checkUsageNumbers } from './sources/usage-check.js';
import type { SessionFile } from './types.js';

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
}

/** Files read at once: reading is I/O-bound, and each file in flight holds its entries. */
const READ_CONCURRENCY = 4;

export async function collect(paths: readonly string[], options: CollectOptions): Promise<Collected> {
  const sharer = options.sharer ?? null;
  const ledgers: (SessionLedger | null)[] = new Array(paths.length).fill(null);
  const diagnosticsByFile: Diagnostic[][] = new Array(paths.length).fill([]);
  const content = new Map<SessionKey, SessionFile>();
  const sourceOf = new Map<SessionKey, string>();
  const identityOf = new Map<SessionKey, string>();
  const keys = new Set<SessionKey>();
  // A cached ledger is the plain reading of a file: never one made fit to share, nor one whose content pages need.
  const cache = options.cache && !options.keepContent && (sharer === null || !sharer.changes) ? options.cache : NO_CACHE;
  /** Files a reading under its place in the input order; returns the session's key. */
  const place = (index: number, outcome: CachedOutcome): SessionKey | null => {
    if (outcome.kind === 'skipped') {
      diagnosticsByFile[index] = outcome.diagnostics;
      return null;
    }
    // Two files whose paths read the same once redacted (~/a.jsonl) stay two sessions.
    const ledger = keys.has(outcome.ledger.key) ? { ...outcome.ledger, key: `${outcome.ledger.key}#${index}` } : outcome.ledger;
    keys.add(ledger.key);
    ledgers[index] = ledger;
    diagnosticsByFile[index] = outcome.diagnostics;
    sourceOf.set(ledger.key, paths[index] as string);
    return ledger.key;
  };
  let next = 0;
  let done = 0;
  const started = Date.now();
  let lastProgress = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const path = paths[index] as string;
      try {
        const identity = await cache.identify(path);
        const cached = identity === null ? null : await cache.get(identity);
        if (cached) {
          const key = place(index, cached);
          if (key !== null && identity !== null) identityOf.set(key, identity);
        } else {
          const outcome = await readSessionFile(path);
          let read: CachedOutcome;
          if (outcome.kind === 'session') {
            outcome.file.diagnostics.push(...checkUsageNumbers(outcome.file));
            const file = sharer ? sharer.file(outcome.file) : outcome.file;
            read = { kind: 'session', ledger: ledgerOf(file), diagnostics: file.diagnostics };
            const key = place(index, read);
            if (options.keepContent && key !== null) content.set(key, file);
            if (key !== null && identity !== null) identityOf.set(key, identity);
          } else {
            read = { kind: 'skipped', diagnostics: sharer ? outcome.diagnostics.map((d) => sharer.diagnostic(d)) : outcome.diagnostics };
            place(index, read);
          }
          // An unreadable file is asked again next time: its permissions may change without its contents.
          if (identity !== null && !read.diagnostics.some((d) => d.reason === 'unreadable-file')) await cache.put(path, identity, read);
        }
      } catch (error) {
        // Whatever one file does to a reader costs that file, never the others.
        const failed = diagnostic('session-failed', path, null, `bough could not read this session: ${messageOf(error)}`);
        diagnosticsByFile[index] = [sharer ? sharer.diagnostic(failed) : failed];
      }
      done++;
      const now = Date.now();
      if (options.progress && (now - lastProgress >= PROGRESS_EVERY_MS || done === paths.length)) {
        lastProgress = now;
        options.progress(progressLine('read', done, paths.length, 'files', started, now));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, paths.length) }, worker));
  return {
    ledgers: ledgers.filter((l): l is SessionLedger => l !== null),
    content: options.keepContent ? storeOf(content) : null,
    sourceOf,
    identityOf,
    diagnostics: [...(options.discoveryNotes ?? []).map((d) => (sharer ? sharer.diagnostic(d) : d)), ...diagnosticsByFile.flat()],
    candidates: paths.length,
  };
}

/**
 * A session's content read again, for its pages: the same reading, checks and sharing as when its
 * ledger was made, so that pages hold the content of one session at a time, not of the history.
 */
export async function readContent(path: string, sharer: Sharer | null): Promise<SessionFile> {
  const outcome = await readSessionFile(path);
  if (outcome.kind !== 'session') throw new Error(`it is no longer a session file (${outcome.diagnostics[0]?.detail ?? 'not read'})`);
  outcome.file.diagnostics.push(...checkUsageNumbers(outcome.file));
  return sharer ? sharer.file(outcome.file) : outcome.file;
}

/** An error's message in a line (a stack overflow says which library it came from on later lines). */
export function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 300);
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
