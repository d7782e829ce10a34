// The front of every command: candidate files → read (each by its source's reader) → numbers
// checked → made fit to share → a ledger per session. The content (texts, tool output) is kept
// only when pages will be rendered from it; `stats` drops it as soon as the ledger is made.

import { diagnostic, type Diagnostic } from './diagnostics.js';
import { ledgerOf, type SessionKey, type SessionLedger } from './ledger/ledger.js';
import type { Sharer } from './share/share.js';
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
}

/** Files read at once: reading is I/O-bound, and each file in flight holds its entries. */
const READ_CONCURRENCY = 4;

export async function collect(paths: readonly string[], options: CollectOptions): Promise<Collected> {
  const sharer = options.sharer ?? null;
  const ledgers: (SessionLedger | null)[] = new Array(paths.length).fill(null);
  const diagnosticsByFile: Diagnostic[][] = new Array(paths.length).fill([]);
  const content = new Map<SessionKey, SessionFile>();
  const keys = new Set<SessionKey>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const path = paths[index] as string;
      try {
        const outcome = await readSessionFile(path);
        if (outcome.kind === 'session') {
          outcome.file.diagnostics.push(...checkUsageNumbers(outcome.file));
          const file = sharer ? sharer.file(outcome.file) : outcome.file;
          const ledger = ledgerOf(file);
          // Two files whose paths read the same once redacted (~/a.jsonl) stay two sessions.
          if (keys.has(ledger.key)) ledger.key = `${ledger.key}#${index}`;
          keys.add(ledger.key);
          ledgers[index] = ledger;
          diagnosticsByFile[index] = file.diagnostics;
          if (options.keepContent) content.set(ledger.key, file);
        } else {
          diagnosticsByFile[index] = sharer ? outcome.diagnostics.map((d) => sharer.diagnostic(d)) : outcome.diagnostics;
        }
      } catch (error) {
        // Whatever one file does to a reader costs that file, never the others.
        const failed = diagnostic('session-failed', path, null, `bough could not read this session: ${messageOf(error)}`);
        diagnosticsByFile[index] = [sharer ? sharer.diagnostic(failed) : failed];
      }
      if (++done % 25 === 0 || done === paths.length) options.progress?.(`read ${done}/${paths.length} files`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, paths.length) }, worker));
  return {
    ledgers: ledgers.filter((l): l is SessionLedger => l !== null),
    content: options.keepContent ? storeOf(content) : null,
    diagnostics: [...(options.discoveryNotes ?? []).map((d) => (sharer ? sharer.diagnostic(d) : d)), ...diagnosticsByFile.flat()],
    candidates: paths.length,
  };
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
