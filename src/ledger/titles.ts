// Titles that depend on other files. Claude Code writes a summary of an earlier session at the top
// of a later file, naming the entry that session ended at: the session holding that entry (the
// one counting it, not a copy) takes the summary as its title, unless the user named it. A copy of another session is titled by its
// first prompt of its own. Pure: ledgers in, ledgers out.

import type { Claims } from './claims.js';
import type { SessionLedger } from './ledger.js';
import { unpackEntries, type Unpack } from './packed-entries.js';

/** `claims`: a summarised entry titles the session that counts it, not the copies that hold it too. */
export function withEntryTitles(ledgers: readonly SessionLedger[], claims: Claims, unpack: Unpack = unpackEntries): SessionLedger[] {
  /** Per agent, entry id → title; a newer file's summary of the same entry wins. */
  const titles = new Map<string, string>();
  const byAge = [...ledgers].sort((a, b) => a.mtime - b.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const ledger of byAge) for (const t of ledger.entryTitles) titles.set(`${ledger.source}\0${t.entryId}`, t.title);
  if (titles.size === 0) return [...ledgers];
  // Only an agent that writes such summaries (Claude Code) has entries they can name: the others'
  // ledgers are not unpacked for nothing.
  const titled = new Set(byAge.filter((ledger) => ledger.entryTitles.length > 0).map((ledger) => ledger.source));
  return ledgers.map((ledger) => {
    if (ledger.name !== null || !titled.has(ledger.source)) return ledger;
    // The last entry summarised is the session's latest summary.
    const entries = unpack(ledger.entries);
    const counted = claims.counted.get(ledger.key)?.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      if (counted !== undefined && counted[i] !== 1) continue;
      const entry = entries[i];
      for (const id of [entry?.id ?? '', ...(entry?.aliases ?? [])]) {
        const title = titles.get(`${ledger.source}\0${id}`);
        if (title !== undefined) return { ...ledger, title };
      }
    }
    return ledger;
  });
}

/**
 * A copy of a session (a fork, a resumed or imported copy) titled by its first prompt is titled by
 * its first prompt of its own instead: every fork of a thread begins with the thread's first
 * prompt, so all of them and the thread itself had one title. A copy that added no prompt keeps
 * the one it copied.
 */
export function withOwnTitles(ledgers: readonly SessionLedger[], claims: Claims, unpack: Unpack = unpackEntries): SessionLedger[] {
  return ledgers.map((ledger) => {
    const counted = claims.counted.get(ledger.key);
    if (counted === undefined || ledger.title !== ledger.promptTitles[0]?.title) return ledger;
    let own: { title: string } | undefined;
    if (claims.originOf.has(ledger.key)) own = ledger.promptTitles.find((prompt) => counted.entries[prompt.index] === 1);
    else if (claims.missingOrigin.has(ledger.key) && ledger.startedAt !== null) {
      // Its origin not among the inputs: the history it copied is what was recorded before the
      // file was started (a Pi fork's header is the fork's time).
      const startedAt = ledger.startedAt;
      const entries = unpack(ledger.entries);
      // Of those, one it counts: a sibling copy may count what both copied.
      own = ledger.promptTitles.find((prompt) => counted.entries[prompt.index] === 1 && (entries[prompt.index]?.time ?? startedAt) >= startedAt);
    }
    return own === undefined || own.title === ledger.title ? ledger : { ...ledger, title: own.title };
  });
}
