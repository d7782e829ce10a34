// What of each session goes into the search index, gathered as its pages are written (the
// entries' pages are known only then): its prompts, replies and the files it touched.

import { anchorOf, blockText } from './conversation.js';
import type { SessionData } from './data.js';
import { indexedText, type SearchItem } from './search-index.js';
import type { EntryPages } from './session-pages.js';
import type { SessionFile } from '../types.js';

/** What the index holds of one session, from its content: its prompts, replies and the files it touched. */
export function sessionSearchItems(session: SessionData, file: SessionFile, entryPages: EntryPages, page: string): SessionSearchItem[] {
  const items: SessionSearchItem[] = [];
  for (const entry of file.entries) {
    if (entry.kind !== 'prompt' && entry.kind !== 'reply') continue;
    const anchor = anchorOf(entry);
    const at = entryPages.get(anchor);
    if (at === undefined) continue;
    const typed = blockText(entry.content, ' ');
    const text = entry.kind === 'prompt' && entry.skill ? `${entry.skill.command} ${typed}` : typed;
    if (text.trim() === '') continue;
    items.push({ kind: entry.kind, href: `${at}#${anchor}`, text: indexedText(entry.kind, text) });
  }
  for (const touched of session.tools.files) items.push({ kind: 'file', href: page, text: indexedText('file', touched.path) });
  return items;
}

/** A search item of one session (the index numbers the sessions). */
export type SessionSearchItem = Omit<SearchItem, 'session'>;
