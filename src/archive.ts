// The archive keeps what it has: each build writes, into the report folder, the ledger of every
// session and the pages it wrote for it. The next build into that folder keeps a session whose
// file has gone (Claude Code deletes transcripts after 30 days) when its file was found under one
// of this build's places: its numbers stay in the totals, its pages are carried over with a note
// saying when its file was last seen. `--forget-missing` drops them. Paths are stored only as
// hashes, so a redacted report's archive names no file.
//
// Per session, two files that change only when its pages do (so a rebuild links them unchanged):
// `<hash>.json` (its pages, fingerprint and search items: read by every rebuild) and
// `<hash>.ledger.json.gz` (its ledger: read only when its file is gone). When each file was last
// seen changes every build, so it lives apart, in `seen.json`. The pages file is not compressed:
// most are under a disk block either way, and inflating 30,000 small files one call each cost
// 0.6 s of every rebuild. Earlier builds wrote it compressed, as `<hash>.json.gz`: still read.

import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzip, gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { z } from 'zod';
import type { SessionKey, SessionLedger } from './ledger/ledger.js';
import { packEntries, unpackEntries } from './ledger/packed-entries.js';
import { ledgerSchema } from './cache/ledger-cache.js';
import type { SessionSearchItem } from './report/search-items.js';
import { sha256Hex } from './sha256.js';

export const ARCHIVE_DIR = 'archive';
const FORMAT = 2;
const SEEN_FILE = 'seen.json';
/** From the report root. */
export const SEEN_PATH = `${ARCHIVE_DIR}/${SEEN_FILE}`;
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** What the last build archived of a session, its ledger aside. */
export interface ArchivedPages {
  /** The hash of its session key: names its archive files. */
  name: string;
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
  search: SessionSearchItem[];
  /** Everything its pages were made from; a build that would make them from the same keeps them as they are. */
  fingerprint: string | null;
}

export interface ArchivedSession extends Omit<ArchivedPages, 'name'> {
  ledger: SessionLedger;
}

const pagesSchema = z.object({
  format: z.literal(FORMAT),
  source: z.string(),
  place: z.string(),
  pages: z.array(z.string().regex(/^sessions\/[a-z0-9-]+\.html$/)),
  sharing: z.string(),
  fingerprint: z.string().nullable(),
  search: z.array(z.object({ kind: z.enum(['prompt', 'reply', 'file']), href: z.string().regex(/^sessions\/[a-z0-9-]+\.html(#[A-Za-z0-9_.:-]+)?$/), text: z.string() })),
});
const ledgerFileSchema = z.object({ format: z.literal(FORMAT), ledger: ledgerSchema });
const seenSchema = z.object({ format: z.literal(FORMAT), lastSeen: z.record(z.string().regex(/^[0-9a-f]{32}$/), z.number().finite()) });

/**
 * Hashes already made, by path: a rebuild asks for each session's several times (its archive
 * files, what the last build archived, where its file is) and for its place's once per session,
 * and each hash made costs more than the lookup (0.4 s over 30,000 sessions). One entry per path
 * this process names, as the ledgers are.
 */
const hashes = new Map<string, string>();

export function pathHash(path: string): string {
  let hash = hashes.get(path);
  if (hash === undefined) {
    hash = sha256Hex(path).slice(0, 32);
    hashes.set(path, hash);
  }
  return hash;
}

/** How this build archives: where it searched, how it shares, when it ran. */
export interface Archiving {
  places: readonly string[];
  sharing: string;
  now: number;
}

/**
 * What this build archives of a file it read from `source`, with the pages written for it; null
 * for a file found under none of the places (it could not be told gone later).
 */
export function archivedNow(part: Pick<ArchivedSession, 'ledger' | 'pages' | 'search' | 'fingerprint'>, source: string | null, archiving: Archiving): ArchivedSession | null {
  const place = source === null ? null : placeOf(source, archiving.places);
  if (source === null || place === null) return null;
  return { ...part, source: pathHash(source), place: pathHash(place), lastSeen: archiving.now, sharing: archiving.sharing };
}

/** The place (an input or default folder) a file was found under: the longest that holds it. */
export function placeOf(file: string, places: readonly string[]): string | null {
  let best: string | null = null;
  for (const place of places) {
    if ((file === place || file.startsWith(place.endsWith(sep) ? place : `${place}${sep}`)) && (best === null || place.length > best.length)) best = place;
  }
  return best;
}

/** An archived session that does not read as this code wrote it: what is known of it. */
export interface UnreadableArchive {
  /** The hash of its session key: names its archive files. */
  name: string;
  /** The file that did not read right, from the report root: its pages file, its ledger file, or seen.json. */
  file: string;
  /** Its pages, when its pages file read right (its ledger did not, or seen.json does not say when its file was last seen). */
  pages: string[];
  /** When its file was last seen, when known. */
  lastSeen: number | null;
}

/**
 * What the report folder's last build archived. Entries that do not read as this code wrote them
 * (damaged, or written by another version of bough) are listed apart, by name: the build says so
 * rather than let a session whose file is gone leave the totals without a word.
 */
export async function readArchive(outDir: string): Promise<{ sessions: ArchivedPages[]; unreadable: UnreadableArchive[] }> {
  const dir = join(outDir, ARCHIVE_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  const seen = await readFile(join(dir, SEEN_FILE), 'utf8')
    .then((text) => seenSchema.safeParse(JSON.parse(text)))
    .then((parsed) => (parsed.success ? parsed.data.lastSeen : {}), () => ({}) as Record<string, number>);
  const sessions: ArchivedPages[] = [];
  const unreadable: UnreadableArchive[] = [];
  // An earlier build's compressed pages file is read when there is no plain one for its session.
  const plain = new Set(names.filter((file) => PAGES_FILE.test(file)));
  for (const file of names) {
    const older = OLDER_PAGES_FILE.exec(file)?.[1];
    const name = PAGES_FILE.exec(file)?.[1] ?? (older !== undefined && !plain.has(`${older}.json`) ? older : undefined);
    if (name === undefined) continue;
    const lastSeen = seen[name];
    let pages: z.infer<typeof pagesSchema> | null = null;
    try {
      // Synchronous: one small file per session, read by every rebuild.
      const bytes = readFileSync(join(dir, file));
      const parsed = pagesSchema.safeParse(JSON.parse((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')));
      if (parsed.success) pages = parsed.data;
    } catch {
      pages = null;
    }
    if (pages !== null && lastSeen !== undefined) sessions.push({ ...pages, name, lastSeen });
    // Its pages file reads right but seen.json does not name it: that is the file to say.
    else unreadable.push({ name, file: pages === null ? `${ARCHIVE_DIR}/${file}` : SEEN_PATH, pages: pages?.pages ?? [], lastSeen: lastSeen ?? null });
  }
  return { sessions, unreadable };
}

/** An archived session's ledger, or null when its file does not read as this code wrote it. */
export async function readArchivedLedger(outDir: string, entry: ArchivedPages): Promise<ArchivedSession | null> {
  try {
    const ledger = ledgerFromJson((await gunzipAsync(await readFile(join(outDir, ledgerPath(entry.name))))).toString('utf8'), entry.name);
    if (ledger === null) return null;
    const { name: _name, ...pages } = entry;
    return { ...pages, ledger };
  } catch {
    return null;
  }
}

/** The ledger an archive's ledger file holds (its compressed bytes), or null when it does not read as this code wrote it for `name`. */
export function archivedLedgerOf(bytes: Buffer, name: string): SessionLedger | null {
  try {
    return ledgerFromJson(gunzipSync(bytes).toString('utf8'), name);
  } catch {
    return null;
  }
}

function ledgerFromJson(text: string, name: string): SessionLedger | null {
  const parsed = ledgerFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success || pathHash(parsed.data.ledger.key) !== name) return null;
  const { entries, ...ledger } = parsed.data.ledger;
  return { ...ledger, entries: packEntries(entries) };
}

/**
 * The archived sessions to keep: their file is gone (not found now) though it was found under a
 * place this build searched, and they were shared as this build shares.
 */
export function missingSessions(
  archived: readonly ArchivedPages[],
  found: { files: readonly string[]; places: readonly string[] },
  sharing: string,
  present: ReadonlySet<SessionKey>,
): ArchivedPages[] {
  const foundFiles = new Set(found.files.map(pathHash));
  const places = new Set(found.places.map(pathHash));
  const presentNames = new Set([...present].map(pathHash));
  return archived.filter((a) => a.sharing === sharing && places.has(a.place) && !foundFiles.has(a.source) && !presentNames.has(a.name));
}

/** Where a session's archive files go, from the report root. */
export function archivePaths(key: SessionKey): { pages: string; ledger: string } {
  const name = pathHash(key);
  return { pages: pagesPath(name), ledger: ledgerPath(name) };
}

export const pagesPath = (name: string) => `${ARCHIVE_DIR}/${name}.json`;
/** The pages file as earlier builds wrote it, compressed. */
export const olderPagesPath = (name: string) => `${ARCHIVE_DIR}/${name}.json.gz`;
const PAGES_FILE = /^([0-9a-f]{32})\.json$/;
const OLDER_PAGES_FILE = /^([0-9a-f]{32})\.json\.gz$/;
export const ledgerPath = (name: string) => `${ARCHIVE_DIR}/${name}.ledger.json.gz`;

/** Small ones at once (most sessions' are a few kB, and a trip through zlib's threads cost more), large ones beside the thread's work. */
const GZIP_AT_ONCE_BELOW = 256 * 1024;

async function gzipped(text: string): Promise<Buffer> {
  return text.length < GZIP_AT_ONCE_BELOW ? gzipSync(text, { level: 6 }) : gzipAsync(text, { level: 6 });
}

/**
 * One session's archive files, off the main thread: its pages record as it is, its ledger
 * compressed (a ledger's JSON is mostly repeated keys). Nothing in them changes from build to
 * build unless the session's pages do.
 */
export async function archiveFiles(entry: ArchivedSession): Promise<{ path: string; content: Uint8Array | string }[]> {
  const paths = archivePaths(entry.ledger.key);
  const pages = JSON.stringify({ format: FORMAT, source: entry.source, place: entry.place, pages: entry.pages, sharing: entry.sharing, fingerprint: entry.fingerprint, search: entry.search });
  // The entries as objects, as every bough before packed ones wrote them: an archive outlives the code that wrote it.
  const ledger = JSON.stringify({ format: FORMAT, ledger: { ...entry.ledger, entries: unpackEntries(entry.ledger.entries) } });
  return [
    { path: paths.pages, content: pages },
    { path: paths.ledger, content: await gzipped(ledger) },
  ];
}

/** When each archived session's file was last seen, by its name. */
export function seenFile(entries: readonly { name: string; lastSeen: number }[]): { path: string; content: string } {
  const lastSeen = Object.fromEntries(entries.map((e) => [e.name, e.lastSeen]).sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)));
  return { path: SEEN_PATH, content: JSON.stringify({ format: FORMAT, lastSeen }) };
}

/** The last build's seen.json with every file seen now but the gone ones; null when it does not read right. */
export function refreshedSeen(previous: Buffer, gone: ReadonlySet<string>, now: number): string | null {
  try {
    const parsed = seenSchema.safeParse(JSON.parse(previous.toString('utf8')));
    if (!parsed.success) return null;
    const lastSeen = Object.fromEntries(Object.entries(parsed.data.lastSeen).map(([name, at]) => [name, gone.has(name) ? at : now]));
    return JSON.stringify({ format: FORMAT, lastSeen });
  } catch {
    return null;
  }
}

/** A kept page says so at its top: its file is gone, and when it was last seen. */
export function withGoneNote(html: string, lastSeen: string): string {
  const note = `<p class="notice file-gone">This session's source file is no longer present (last seen ${lastSeen}). This page was written by an earlier build; its numbers still count in this report.</p>`;
  // A page kept by several builds in a row carries one note, the latest.
  const page = html.replace(/\n<p class="notice file-gone">[^<]*<\/p>/, '');
  const at = page.indexOf('<main>');
  return at === -1 ? page : `${page.slice(0, at + 6)}\n${note}${page.slice(at + 6)}`;
}
