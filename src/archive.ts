// The archive keeps what it has: each build writes, into the report folder, the ledger of every
// session and the pages it wrote for it. The next build into that folder keeps a session whose
// file has gone (Claude Code deletes transcripts after 30 days) when its file was found under one
// of this build's places: its numbers stay in the totals, its pages are carried over with a note
// saying when its file was last seen. `--forget-missing` drops them. Paths are stored only as
// hashes, so a redacted report's archive names no file.

import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { z } from 'zod';
import type { SessionKey, SessionLedger } from './ledger/ledger.js';
import { ledgerSchema } from './cache/ledger-cache.js';

export const ARCHIVE_DIR = 'archive';
const FORMAT = 1;

export interface ArchivedSession {
  ledger: SessionLedger;
  /** Hashes of the file's path and of the place it was found under. */
  source: string;
  place: string;
  /** When a build last read the file (ms). */
  lastSeen: number;
  /** The report pages written for it (its parts), from the report root; empty for a sub-agent's file. */
  pages: string[];
  /** How its text was made fit to share: kept only by builds that share the same way. */
  sharing: string;
  /** What the search index held of it (links from the report root), so a kept session stays findable. */
  search: ArchivedSearchItem[];
  /** Everything its pages were made from; a build that would make them from the same keeps them as they are. */
  fingerprint: string | null;
}

export interface ArchivedSearchItem {
  kind: 'prompt' | 'reply' | 'file';
  href: string;
  text: string;
}

const archivedSchema = z.object({
  format: z.literal(FORMAT),
  source: z.string(),
  place: z.string(),
  lastSeen: z.number().finite(),
  pages: z.array(z.string().regex(/^sessions\/[a-z0-9-]+\.html$/)),
  sharing: z.string(),
  fingerprint: z.string().nullable(),
  search: z.array(z.object({ kind: z.enum(['prompt', 'reply', 'file']), href: z.string().regex(/^sessions\/[a-z0-9-]+\.html(#[A-Za-z0-9_.:-]+)?$/), text: z.string() })),
  ledger: ledgerSchema,
});

export function pathHash(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 32);
}

/** The place (an input or default folder) a file was found under: the longest that holds it. */
export function placeOf(file: string, places: readonly string[]): string | null {
  let best: string | null = null;
  for (const place of places) {
    if ((file === place || file.startsWith(place.endsWith(sep) ? place : `${place}${sep}`)) && (best === null || place.length > best.length)) best = place;
  }
  return best;
}

/** What the report folder's last build archived; entries that do not read as this code wrote them are left out. */
export async function readArchive(outDir: string): Promise<{ sessions: ArchivedSession[]; unreadable: number }> {
  const dir = join(outDir, ARCHIVE_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  const sessions: ArchivedSession[] = [];
  let unreadable = 0;
  for (const name of names) {
    if (!name.endsWith('.json.gz')) continue;
    try {
      const parsed = archivedSchema.safeParse(JSON.parse(gunzipSync(await readFile(join(dir, name))).toString('utf8')));
      if (parsed.success) sessions.push({ ...parsed.data, ledger: parsed.data.ledger as SessionLedger });
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { sessions, unreadable };
}

/**
 * The archived sessions to keep: their file is gone (not found now) though it was found under a
 * place this build searched, and they were shared as this build shares.
 */
export function missingSessions(
  archived: readonly ArchivedSession[],
  found: { files: readonly string[]; places: readonly string[] },
  sharing: string,
  present: ReadonlySet<SessionKey>,
): ArchivedSession[] {
  const foundFiles = new Set(found.files.map(pathHash));
  const places = new Set(found.places.map(pathHash));
  return archived.filter((a) => a.sharing === sharing && places.has(a.place) && !foundFiles.has(a.source) && !present.has(a.ledger.key));
}

/** One session's archive entry, as the report folder keeps it: compressed, a ledger's JSON is mostly repeated keys. */
export function archiveFile(entry: ArchivedSession): { path: string; content: Uint8Array } {
  const json = JSON.stringify({ format: FORMAT, source: entry.source, place: entry.place, lastSeen: entry.lastSeen, pages: entry.pages, sharing: entry.sharing, fingerprint: entry.fingerprint, search: entry.search, ledger: entry.ledger });
  return { path: `${ARCHIVE_DIR}/${pathHash(entry.ledger.key)}.json.gz`, content: gzipSync(json, { level: 6 }) };
}

/** A kept page says so at its top: its file is gone, and when it was last seen. */
export function withGoneNote(html: string, lastSeen: string): string {
  const note = `<p class="notice file-gone">This session's source file is no longer present (last seen ${lastSeen}). This page was written by an earlier build; its numbers still count in this report.</p>`;
  // A page kept by several builds in a row carries one note, the latest.
  const page = html.replace(/\n<p class="notice file-gone">[^<]*<\/p>/, '');
  const at = page.indexOf('<main>');
  return at === -1 ? page : `${page.slice(0, at + 6)}\n${note}${page.slice(at + 6)}`;
}
