// Sub-agents whose transcripts are not among the files read, told by the copies of their requests
// their sessions' files hold (Claude Code 2.1's agent_progress lines, claude.md §8.2). Copies are
// never usage, so such a sub-agent's spend is in no total: said, with what the copies show of it.

import { basename } from 'node:path';
import { diagnostic, FileDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { SessionLedger } from './ledger.js';

/** The id a sub-agent's file goes by: as its reader read it, else (an archive of an earlier build) by its name. */
function subagentIdOf(ledger: SessionLedger): string | null {
  if (ledger.subagentOf === null) return null;
  return ledger.subagentId ?? /^agent-(.+)\.jsonl$/i.exec(basename(ledger.path))?.[1] ?? null;
}

/**
 * One note per sub-agent whose copies some file holds and whose transcript no file read (or kept)
 * is: on the first file holding them. By its id alone, not with its session's: a resumed copy of a
 * session holds its origin's copies under its own session id, its sub-agents' files the origin's.
 */
export function subagentsNotRead(ledgers: readonly SessionLedger[]): Diagnostic[] {
  if (!ledgers.some((ledger) => ledger.subagentCopies !== undefined)) return [];
  const read = new Set<string>();
  for (const ledger of ledgers) {
    const id = subagentIdOf(ledger);
    if (id !== null) read.add(`${ledger.source}\u0000${id}`);
  }
  const said = new Set<string>();
  // Per file, as a file's own problems are: past a thousand, the rest are counted, not listed.
  const notesOf = new Map<string, FileDiagnostics>();
  for (const ledger of ledgers) {
    for (const copies of ledger.subagentCopies ?? []) {
      const key = `${ledger.source}\u0000${copies.subagentId}`;
      if (read.has(key) || said.has(key)) continue;
      said.add(key);
      const { input, output, cacheRead, cacheWrite } = copies.counts;
      const tokens = `${count(input)} input, ${count(output)} output, ${count(cacheRead)} cache read, ${count(cacheWrite)} cache write tokens`;
      const models = copies.models.length > 0 ? ` of ${copies.models.join(', ')}` : '';
      const requests = copies.requests === 1 ? '1 request' : `${count(copies.requests)} requests`;
      let notes = notesOf.get(ledger.path);
      if (notes === undefined) notesOf.set(ledger.path, (notes = new FileDiagnostics()));
      notes.push(
        diagnostic(
          'subagent-not-read',
          ledger.path,
          copies.line,
          `sub-agent ${copies.subagentId}: its transcript (agent-${copies.subagentId}.jsonl) is not among the files read; this file holds Claude Code's copies of its ${requests}${models} (${tokens}), which are not counted, as copies never are: read its transcript to count them`,
        ),
      );
    }
  }
  return [...notesOf.values()].flatMap((notes) => notes.list());
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
