// What of each session goes into the search index, gathered as its pages are written (the
// entries' pages are known only then): its prompts, replies and the files it touched, then what
// its sub-agents were asked and answered.

import { anchorOf, blockText, FILES_ANCHOR } from './conversation.js';
import type { SessionData } from './data.js';
import { indexedChars, indexedText, type SearchItem, type SearchKind } from './search-index.js';
import { markdownText } from './markdown.js';
import type { EntryPages } from './session-pages.js';
import type { Entry, SessionFile, SubagentRun } from '../types.js';

/**
 * What the index holds of one session, from its content and its sub-agents' files (in the order
 * of `session.subagents`, null for one not read).
 */
export function sessionSearchItems(
  session: SessionData,
  file: SessionFile,
  entryPages: EntryPages,
  page: string,
  subagentFiles: readonly (SessionFile | null)[] = [],
  copiesFoundElsewhere = false,
): SessionSearchItem[] {
  const items: (SessionSearchItem & { copied: boolean })[] = [];
  const add = (kind: SearchKind, href: string, written: string, copied = false) => {
    // A message as its page shows it: its Markdown rendered (a path is shown as it is).
    const text = kind === 'file' ? written : markdownText(written, indexedChars(kind));
    if (text.trim() !== '') items.push({ kind, href, text: indexedText(kind, text), copied });
  };
  /** Where the page shows an entry, from the report root; null for one it does not show. */
  const hrefOf = (entry: Entry): string | null => {
    const anchor = anchorOf(entry);
    const at = entryPages.get(anchor);
    return at === undefined ? null : `${at}#${anchor}`;
  };
  // A session shown from a sub-agent's file (no main transcript was written): its prompts are the
  // sub-agent's tasks, not the user's, as its numbers count them.
  const ownKind = (entry: Entry & { kind: 'prompt' | 'reply' }): SearchKind => (session.ledger.subagentOf !== null ? 'subagent' : entry.kind);
  for (const [index, entry] of file.entries.entries()) {
    const copied = session.counted.entries[index] !== 1;
    if (copied && copiesFoundElsewhere) continue;
    if (entry.kind === 'prompt' || entry.kind === 'reply') {
      const href = hrefOf(entry);
      if (href !== null) add(ownKind(entry), href, turnText(entry), copied);
    } else if (entry.kind === 'toolResult' && entry.subagents.length > 0) {
      // Sub-agent runs inside a tool's result (Pi's, Claude Code's sidechains of 1.0): shown folded
      // in that result, so found there, every task, prompt and reply of them and of the runs inside
      // them, each at its own entry (which the page unfolds the way to), a task at its run's first.
      const href = hrefOf(entry);
      if (href !== null) {
        const at = href.slice(0, href.indexOf('#'));
        addRuns(entry.subagents, (text, inner) => add('subagent', inner === null ? href : `${at}#${anchorOf(inner)}`, text, copied));
      }
    }
  }
  // At the session's table of the files it touched, on its first page.
  for (const touched of session.tools.files) add('file', `${page}#${FILES_ANCHOR}`, touched.path);
  // A sub-agent's own transcript: its task (its first prompt) and its replies, each at its place.
  for (const [n, sub] of subagentFiles.entries()) {
    const counted = session.subagents[n]?.counted.entries;
    for (const [index, entry] of (sub?.entries ?? []).entries()) {
      if (entry.kind !== 'prompt' && entry.kind !== 'reply') continue;
      const href = hrefOf(entry);
      if (href !== null) add('subagent', href, turnText(entry), counted?.[index] !== 1);
    }
  }
  // What a file copied from another session (a spawned thread's replay of its parent, a fork's
  // history) is folded on the page. Where the page also holds it as counted (the parent, above
  // the thread), it is found there only; so it is where the session counting it has a page of
  // this report (`copiesFoundElsewhere`); elsewhere (its origin outside this report, or the same
  // entry written with other words) it is found here too.
  const counted = new Set(items.filter((item) => !item.copied).map((item) => item.text));
  return items.filter((item) => !item.copied || !counted.has(item.text)).map(({ copied: _, ...item }) => item);
}

function addRuns(runs: readonly SubagentRun[], add: (text: string, at: Entry | null) => void): void {
  for (const run of runs) {
    add(run.task, run.entries[0] ?? null);
    for (const entry of run.entries) {
      if (entry.kind === 'reply' || (entry.kind === 'prompt' && blockText(entry.content, ' ').trim() !== run.task.trim())) add(turnText(entry), entry);
      else if (entry.kind === 'toolResult') addRuns(entry.subagents, add);
    }
  }
}

/** A prompt's or reply's text as searched: a skill prompt by what was typed, the command first. */
function turnText(entry: Extract<Entry, { kind: 'prompt' }> | Reply): string {
  const typed = blockText(entry.content, ' ');
  return entry.kind === 'prompt' && entry.skill ? `${entry.skill.command} ${typed}` : typed;
}

type Reply = Extract<Entry, { kind: 'reply' }>;

/** A search item of one session (the index numbers the sessions). */
export type SessionSearchItem = Omit<SearchItem, 'session'>;
