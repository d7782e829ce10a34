// Sub-agents whose transcripts are not among the files read, told by the copies of their requests
// their sessions' files hold (Claude Code 2.1's agent_progress lines, claude.md §8.2). Copies are
// never usage, so such a sub-agent's spend is in no total: said, with what the copies show of it.

import { basename } from 'node:path';
import { diagnostic, FileDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { SessionLedger } from './ledger.js';
import { unpackEntries } from './packed-entries.js';
import { TOKEN_KINDS, zeroTokens, type SubagentCopies, type TokenCounts } from '../types.js';

/** The id a sub-agent's file goes by: as its reader read it, else (an archive of an earlier build) by its name. */
function subagentIdOf(ledger: SessionLedger): string | null {
  if (ledger.subagentOf === null) return null;
  return ledger.subagentId ?? /^agent-(.+)\.jsonl$/i.exec(basename(ledger.path))?.[1] ?? null;
}

/**
 * One note per sub-agent whose copies some file holds and whose transcript no file read (or kept)
 * is, or holds fewer of its requests (cut short): on the first file holding them of a session the
 * report shows, where they were made in its period (`shown`): spend missing from its totals, not
 * another's. By its id alone, not with its session's: a resumed copy of a session holds its
 * origin's copies under its own session id, its sub-agents' files the origin's.
 */
export function subagentsNotRead(ledgers: readonly SessionLedger[], shown: (ledger: SessionLedger, copies: SubagentCopies) => boolean = () => true): Diagnostic[] {
  if (!ledgers.some((ledger) => ledger.subagentCopies !== undefined)) return [];
  const transcripts = new Map<string, SessionLedger[]>();
  for (const ledger of ledgers) {
    const id = subagentIdOf(ledger);
    if (id === null) continue;
    const key = `${ledger.source}\u0000${id}`;
    const known = transcripts.get(key);
    if (known) known.push(ledger);
    else transcripts.set(key, [ledger]);
  }
  const said = new Set<string>();
  // Per file, as a file's own problems are: past a thousand, the rest are counted, not listed.
  const notesOf = new Map<string, FileDiagnostics>();
  for (const ledger of ledgers) {
    for (const copies of ledger.subagentCopies ?? []) {
      const key = `${ledger.source}\u0000${copies.subagentId}`;
      if (said.has(key) || !shown(ledger, copies)) continue;
      const read = transcripts.get(key);
      const held = read === undefined ? null : heldAcross(read);
      if (held !== null && held.requests >= copies.requests) continue;
      said.add(key);
      const models = copies.models.length > 0 ? ` of ${copies.models.join(', ')}` : '';
      const detail =
        held === null
          ? `sub-agent ${copies.subagentId}: its transcript (agent-${copies.subagentId}.jsonl) is not among the files read; this file holds Claude Code's copies of its ${requestsSaid(copies.requests)}${models} (${tokensSaid(copies.counts)}), which are not counted, as copies never are: read its transcript to count them`
          : `sub-agent ${copies.subagentId}: its transcript holds ${count(held.requests)} of the ${requestsSaid(copies.requests)}${models} of which this file holds Claude Code's copies (cut short?); ${otherSaid(copies.requests - held.requests, less(copies.counts, held.counts))}, as copies never are`;
      let notes = notesOf.get(ledger.path);
      if (notes === undefined) notesOf.set(ledger.path, (notes = new FileDiagnostics()));
      notes.push(diagnostic('subagent-not-read', ledger.path, copies.line, detail));
    }
  }
  return [...notesOf.values()].flatMap((notes) => notes.list());
}

/**
 * What the files read as one sub-agent's transcript hold of its requests, each once by its claim
 * (mirrors in two config folders hold the same; parts of it in two files, each theirs): how many,
 * and their counts.
 */
function heldAcross(read: readonly SessionLedger[]): { requests: number; counts: TokenCounts } {
  const seen = new Set<string>();
  const counts = zeroTokens();
  for (const ledger of read) {
    for (const entry of unpackEntries(ledger.entries)) {
      for (const usage of entry.usage) {
        if (seen.has(usage.key)) continue;
        seen.add(usage.key);
        for (const kind of TOKEN_KINDS) counts[kind] += usage[kind];
      }
    }
  }
  return { requests: seen.size, counts };
}

/** What the copies hold beyond the transcript: the requests it lacks (each kind at least 0). */
function less(copied: TokenCounts, held: TokenCounts): TokenCounts {
  const left = zeroTokens();
  for (const kind of TOKEN_KINDS) left[kind] = Math.max(0, copied[kind] - held[kind]);
  return left;
}

function otherSaid(n: number, counts: TokenCounts): string {
  return n === 1 ? `the other one (${tokensSaid(counts)}) is not counted` : `the other ${count(n)} (${tokensSaid(counts)}) are not counted`;
}

function requestsSaid(n: number): string {
  return n === 1 ? '1 request' : `${count(n)} requests`;
}

function tokensSaid({ input, output, cacheRead, cacheWrite }: TokenCounts): string {
  return `${count(input)} input, ${count(output)} output, ${count(cacheRead)} cache read, ${count(cacheWrite)} cache write tokens`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
