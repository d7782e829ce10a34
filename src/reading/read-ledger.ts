// One file read into its ledger: the reading, the checks of its numbers and the sharing, then the
// ledger; stored in the cache when the file was identified. The same function runs in a reading
// thread and, as the fallback, in the main one.

import type { CachedOutcome, LedgerCache } from '../cache/ledger-cache.js';
import { ledgerOf } from '../ledger/ledger.js';
import { folderMatchText, namesUnknownFolder, projectMatchText } from '../ledger/scope.js';
import type { Sharer } from '../share/share.js';
import { readSessionFile } from '../sources/read.js';
import { checkTreeLoops } from '../sources/tree-check.js';
import { checkUsageNumbers } from '../sources/usage-check.js';
import type { SessionFile } from '../types.js';
import { withSavedOutputs } from './saved-outputs.js';

export interface LedgerReading {
  outcome: CachedOutcome;
  /** The content the ledger was made from, when asked for (`export`); null otherwise. */
  file: SessionFile | null;
  /** Whether the file's own folder, before sharing, holds the `--project` text asked about; null when none was. */
  projectMatch: boolean | null;
}

export async function readLedger(
  path: string,
  identity: string | null,
  sharer: Sharer | null,
  cache: LedgerCache,
  keepContent: boolean,
  real?: string,
  projectFilter: string | null = null,
): Promise<LedgerReading> {
  const read = await readSessionFile(path);
  let outcome: CachedOutcome;
  let kept: SessionFile | null = null;
  let projectMatch: boolean | null = null;
  if (read.kind === 'session') {
    if (projectFilter !== null) projectMatch = folderHolds(read.file, projectFilter);
    // What its pages show holds the outputs kept beside it; what it counts does not need them.
    const shown = keepContent ? await withSavedOutputs(read.file) : read.file;
    // Made fit to share at once, no other file's replacements in between: its own, kept with its ledger.
    const before = sharer === null ? null : new Map(sharer.redactions);
    const file = checkedAndShared(shown, sharer);
    const ledger = ledgerOf(file);
    if (sharer !== null && before !== null) {
      const redactions = [...sharer.redactions].filter(([kind, n]) => n > (before.get(kind) ?? 0)).map(([kind, n]) => [kind, n - (before.get(kind) ?? 0)]);
      if (redactions.length > 0) ledger.redactions = Object.fromEntries(redactions);
    }
    outcome = { kind: 'session', ledger, diagnostics: file.diagnostics };
    if (keepContent) kept = file;
  } else {
    outcome = { kind: 'skipped', diagnostics: sharer ? read.diagnostics.map((d) => sharer.diagnostic(d)) : read.diagnostics };
  }
  // An unreadable file is asked again next time: its permissions may change without its contents.
  if (identity !== null && !outcome.diagnostics.some((d) => d.reason === 'unreadable-file')) await cache.put(path, identity, outcome, real);
  return { outcome, file: kept, projectMatch };
}

/**
 * As a project's folder or name is matched (report/data.ts), in any case: its working directory,
 * else (it recorded none) its agent's project folder. Not both: `-home-ana-shop`, the folder of
 * `/home/ana/shop`, would match `ana-shop` in a report that redacts and in no other.
 */
function folderHolds(file: SessionFile, text: string): boolean {
  const folder = file.cwd ?? file.projectFolder;
  return folder == null ? namesUnknownFolder(text) : folderMatchText(folder).includes(projectMatchText(text));
}

/** A file as read, with its numbers checked and made fit to share: what its ledger and its pages are made from alike. */
export function checkedAndShared(file: SessionFile, sharer: Sharer | null): SessionFile {
  file.diagnostics.push(...checkUsageNumbers(file), ...checkTreeLoops(file));
  return sharer ? sharer.file(file) : file;
}
