// One session's pages, written from its content read again: the reading, checks and sharing of
// when its ledger was made, its view, its parts rendered and written one by one into the report's
// staging folder, what the search index holds of it, and its archive. The same function
// runs on a page-writing thread and, as the fallback, in the main thread; it gets everything as
// plain data, so either way the pages are the same.

import type { SessionKey, SessionLedger } from '../ledger/ledger.js';
import { unpackEntries } from '../ledger/packed-entries.js';
import type { Scope } from '../ledger/scope.js';
import { createPricer, type Pricer } from '../pricing/price.js';
import type { PriceTable } from '../pricing/table.js';
import { readContent } from '../reading/collect.js';
import type { SessionData, SessionLink } from '../report/data.js';
import type { TimeFormat } from '../report/format.js';
import { sessionHighlightBudget } from '../report/highlight.js';
import { pageLayout, pageMapOf, type PageLists, type PageMap } from '../report/pages.js';
import { createRenderer, type PageRenderer, type TemplateSources } from '../report/render.js';
import { sessionRows, type SessionRows } from '../report/search-index.js';
import { sessionSearchItems, type SessionSearchItem } from '../report/search-items.js';
import { sessionPageView } from '../report/session-page.js';
import { sessionPages, type EntryPages } from '../report/session-pages.js';
import { partPage } from '../report/session-parts.js';
import { removeStagedFile, stagedPath, writeStagedFile } from '../output/report-folder.js';
import { openEntrySpool } from '../output/entry-spool.js';
import { createSharer, type ShareOptions, type Sharer } from '../share/share.js';
import { priceHintsFrom, type LocalProviders } from '../sources/registry.js';
import type { SessionFile, Source } from '../types.js';
import { archivedLedgerPath, archivedNow, archiveFiles, pathNamer, type ArchivedFile, type Archiving, type KeptEntry, type PathNamer } from '../archive.js';

/** What every session's pages are made with: given to each thread once. */
export interface PagesSetup {
  templates: TemplateSources;
  table: PriceTable;
  pricing: { subscriptionsAtApiPrices: boolean; local: [Source, LocalProviders][] };
  pages: PageLists;
  time: TimeFormat;
  scope: Scope;
  scopeLabel: string;
  generator: string;
  share: ShareOptions;
  /** The report's staging folder: pages are written there as they are rendered, then adopted by the build. */
  staging: string;
  /** How a session is archived beside its pages; null when the report keeps no archive (the bundled samples). */
  archive: Archiving | null;
}

export interface PagesTask {
  session: SessionData;
  /** The file of the session and of each of its sub-agents, and its real path where known; null for a sub-agent whose file is gone. */
  files: [SessionKey, ArchivedFile][];
  projectName: string;
  neighbours: { previous: SessionLink | null; next: SessionLink | null };
  /** Its place among the report's sessions, newest first (which pages are coloured). */
  rank: number;
  /** Everything its pages are made from (see the build), stored in its archive record. */
  fingerprint: string | null;
  /** Archive it here, beside its pages: false when the build does (a part of it was kept from an earlier build). */
  archive: boolean;
  /** The transcripts of its sub-agents whose files are gone, as its pages of the last build showed them (see keptTranscripts), with what the search index held of them. */
  keptTranscripts?: KeptTranscript[];
}

export interface KeptTranscript {
  key: SessionKey;
  entries: KeptEntry[];
  /** Their href's anchors are in `entries`; their pages, the last build's. */
  search: SessionSearchItem[];
}

export interface PagesWritten {
  /** The parts written into the staging folder, from the report root. */
  pages: string[];
  /** Their size in all. */
  bytes: number;
  /** What the search index holds of it. */
  rows: SessionRows;
  /** Its search items, for its archive record, when the build archives it (not asked to here); else null. */
  search: SessionSearchItem[] | null;
  /** The files archived beside the pages (their ledger files written), with their records for the build to add; null when not asked to. */
  archived: ArchivedHere[] | null;
}

/** A file archived beside its session's pages: its ledger file is written, its record is the build's to add. */
export interface ArchivedHere {
  key: SessionKey;
  record: string;
}

export type PagesJob = (task: PagesTask) => Promise<PagesWritten>;

export function pagesJob(setup: PagesSetup): PagesJob {
  const renderer: PageRenderer = createRenderer(setup.templates);
  const price: Pricer = createPricer(setup.table, { subscriptionsAtApiPrices: setup.pricing.subscriptionsAtApiPrices, hints: priceHintsFrom(setup.pricing.local) });
  const pages: PageMap = pageMapOf(setup.pages);
  // Content read again is shared by a sharer of its own: the report counts each redaction once, as its ledgers were made.
  const sharer: Sharer = createSharer(setup.share);
  const layout = pageLayout(setup.scopeLabel, setup.generator);
  const nameOf = pathNamer(setup.archive?.redacting ?? null);
  return async (task) => {
    const { session } = task;
    const paths = new Map(task.files);
    const ledgers = new Map<SessionKey, SessionLedger>([[session.key, session.ledger], ...session.subagents.map((s) => [s.key, s.ledger] as const)]);
    const contentOf = async (key: SessionKey): Promise<SessionFile | null> => {
      const path = paths.get(key)?.source;
      const ledger = ledgers.get(key);
      if (path === undefined || ledger === undefined) throw new Error(`no file for session ${JSON.stringify(key)}`);
      return path === null ? null : sameAsCounted(await readContent(path, sharer), ledger);
    };
    const file = await contentOf(session.key);
    if (file === null) throw new Error('its file is gone');
    const subagentFiles = new Map<SessionKey, SessionFile | null>();
    for (const sub of session.subagents) subagentFiles.set(sub.key, await contentOf(sub.key));
    const keptTranscripts = new Map((task.keptTranscripts ?? []).map((kept) => [kept.key, kept.entries]));
    const page = pages.session(session.key);
    const view = sessionPageView(file, session, {
      subagentFile: (key) => subagentFiles.get(key) ?? null,
      keptTranscript: (key) => keptTranscripts.get(key) ?? null,
      pages,
      time: setup.time,
      price,
      scope: setup.scope,
      scopeLabel: setup.scopeLabel,
      projectName: task.projectName,
      neighbours: task.neighbours,
      highlight: sessionHighlightBudget(task.rank),
    });
    // Each part is written as soon as it is rendered: the parts are not held together, and a long
    // session's entries wait for theirs in a spool beside them. A failure part-way, a write cut
    // short included, takes back the parts written, leaving no half a session.
    const parts = sessionPages(view, page, renderer, layout, { spool: () => openEntrySpool(stagedPath(setup.staging, spoolOf(page))) });
    const written: string[] = [];
    let bytes = 0;
    try {
      let next = parts.next();
      for (; !next.done; next = parts.next()) {
        await writeStagedFile(setup.staging, next.value.page, next.value.bytes);
        written.push(next.value.page);
        bytes += next.value.bytes.length;
      }
      // What this session copied is counted by its origin (or, the origin gone, by the sessions
      // listed as counting it): where each has a page here, the copy is found there, not again
      // here (regression: a Pi fork's 915 copied prompts and replies were each found twice).
      const holders = session.origin !== null ? [session.origin] : session.countedIn;
      const copiesFoundElsewhere = holders.length > 0 && holders.every((holder) => pages.hasSession(holder.key));
      const search = [
        ...sessionSearchItems(session, file, next.value, page, session.subagents.map((sub) => subagentFiles.get(sub.key) ?? null), copiesFoundElsewhere),
        ...keptSearchItems(next.value, task.keptTranscripts ?? []),
      ];
      // Archived here rather than by the build after every page: the ledgers' JSON and its
      // compression are the largest part of the archive's cost, and this runs on the threads.
      const archived = task.archive && setup.archive ? await archiveSession(task, setup.staging, setup.archive, nameOf, written, bytes, search) : null;
      return { pages: written, bytes, rows: sessionRows(task.rank, search), search: archived === null ? search : null, archived };
    } catch (error) {
      parts.return(new Map());
      removeStagedSession(setup.staging, page, task.files.map(([key]) => key));
      throw error;
    }
  };
}

/** What the index held of kept transcripts, each item pointed at the part its entry is on now. */
function keptSearchItems(entryPages: EntryPages, kept: readonly KeptTranscript[]): SessionSearchItem[] {
  // Every anchor in a kept entry is on the part of the entry's own, its first.
  const pageOf = new Map<string, string>();
  for (const { entries } of kept) {
    for (const { anchors } of entries) {
      const at = anchors[0] === undefined ? undefined : entryPages.get(anchors[0]);
      if (at !== undefined) for (const anchor of anchors) pageOf.set(anchor, at);
    }
  }
  return kept.flatMap(({ search }) =>
    search.flatMap((item) => {
      const anchor = item.href.slice(item.href.indexOf('#') + 1);
      const at = pageOf.get(anchor);
      return at === undefined ? [] : [{ ...item, href: `${at}#${anchor}` }];
    }),
  );
}

/**
 * A session's archive and its sub-agents': their ledger files written into the staging folder,
 * their records returned, as the build archives a session itself. A file found under none of the
 * places is not archived (it could not be told gone later).
 */
async function archiveSession(task: PagesTask, staging: string, archiving: Archiving, nameOf: PathNamer, pages: readonly string[], pageBytes: number, search: readonly SessionSearchItem[]): Promise<ArchivedHere[] | null> {
  const { session } = task;
  const paths = new Map(task.files);
  const archived: ArchivedHere[] = [];
  const parts = [...session.subagents.map((sub) => ({ ledger: sub.ledger, pages: [] as string[], search: [] as SessionSearchItem[], fingerprint: null })), { ledger: session.ledger, pages: [...pages], search: [...search], fingerprint: task.fingerprint, pageBytes }];
  try {
    for (const part of parts) {
      const entry = archivedNow(part, paths.get(part.ledger.key) ?? { source: null, real: null }, archiving, nameOf);
      if (entry === null) continue;
      const { record, ledger } = await archiveFiles(entry);
      await writeStagedFile(staging, ledger.path, ledger.content);
      archived.push({ key: part.ledger.key, record });
    }
  } catch {
    // Its pages stand: the build archives it itself, and says what failed if that fails too. The
    // ledger file whose write failed goes too (a full disk leaves part of it), or that write would
    // find it there.
    for (const part of parts) removeStagedFile(staging, archivedLedgerPath(part.ledger.key));
    return null;
  }
  return archived;
}

/**
 * Removes what was written of a session before a failure, or before its thread died (out of
 * memory on a huge session): its pages' parts (written in order, so the first missing part is
 * past the last), the spool of its rendered entries, and the ledger files of its own file and
 * its sub-agents'.
 */
export function removeStagedSession(staging: string, page: string, keys: readonly SessionKey[]): void {
  for (let index = 0; removeStagedFile(staging, partPage(page, index)); index++);
  removeStagedFile(staging, spoolOf(page));
  for (const key of keys) removeStagedFile(staging, archivedLedgerPath(key));
}

/** The spool of a session's rendered entries, beside its first part; never a file of the report. */
function spoolOf(page: string): string {
  return `${page}.entries`;
}

/** Why a page fails when its file was rewritten while the build ran: build.ts tells it by this. */
export const FILE_CHANGED = 'the file changed while the report was being written; build again';

/**
 * The content read again is the content that was counted: an agent still writing the file (the
 * session bough runs in) has only appended to it, and the page shows what was counted. A file
 * rewritten in between is a failure of that page, said on it.
 */
function sameAsCounted(file: SessionFile, ledger: SessionLedger): SessionFile {
  const entries = unpackEntries(ledger.entries);
  const counted = entries.length;
  const same = (i: number) => file.entries[i]?.key === entries[i]?.key;
  if (file.entries.length < counted || (counted > 0 && (!same(0) || !same(counted - 1)))) {
    throw new Error(FILE_CHANGED);
  }
  return file.entries.length === counted ? file : { ...file, entries: file.entries.slice(0, counted) };
}
