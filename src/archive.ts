// The archive keeps what it has: each build writes, into the report folder, the ledger of every
// session and the pages it wrote for it. The next build into that folder keeps a session whose
// file has gone (Claude Code deletes transcripts after 30 days) when its file was found under
// one of this build's places: its numbers stay in the totals, its pages are carried over with a
// note saying when its file was last seen. What a build does not show (outside its period,
// project, agents or inputs) it keeps as it was, for later builds; a build that shares another
// way than the archive's sessions were written refuses rather than drop them. `--forget-missing`
// drops them. Records name files and folders only by hashes (a redacted report's by hashes of the
// redacted paths); a ledger holds the paths its pages show, redacted as they are.
//
// `sessions.jsonl` holds every archived session's record, a line each: its pages, fingerprint and
// search items, read by every rebuild. One file, not one per session: a history of 30,000
// sessions made every rebuild open, read and keep 30,000 small files (1.3 s of a one-turn
// rebuild). Each session's ledger is a file of its own, `<hash>.ledger.json.gz`, written only when
// its pages change and read only when its file is gone. When each file was last seen changes
// every build, so it lives apart, in `seen.json`, which a rebuild with nothing changed rewrites
// alone. Earlier builds wrote each record as a file of its own (`<hash>.json`, before that
// `<hash>.json.gz`): still read, for the sessions the records file does not name.

import { promisify } from 'node:util';
import { createGzip, gunzip, gunzipSync, gzip, gzipSync } from 'node:zlib';
import { once } from 'node:events';
import { closeSync, fstatSync, readFileSync, readSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { z } from 'zod';
import { entryOutput, isWarmupFile, type LedgerEntry, type SessionKey, type SessionLedger } from './ledger/ledger.js';
import { packEntries, unpackEntries, usageKeyOf } from './ledger/packed-entries.js';
import { inSentence } from './ledger/scope.js';
import { entrySchema, ledgerSchema } from './cache/ledger-cache.js';
import { MANIFEST, parseManifest } from './output/report-folder.js';
import { escapeHtml } from './report/escape.js';
import type { SessionSearchItem } from './report/search-items.js';
import { createSharer, type EntryKeys } from './share/share.js';
import { CLAIM_TURN } from './types.js';
import { openOwnFile, readOwnFile } from './own-file.js';
import { sha256Hex } from './sha256.js';
import { EARLIEST_TIME, TIME_LIMIT } from './sources/record-fields.js';
import { readerOf } from './sources/registry.js';

export const ARCHIVE_DIR = 'archive';
/** Of the ledger files, seen.json and the record files of earlier builds. */
const FORMAT = 2;
const SEEN_FILE = 'seen.json';
/** From the report root. */
export const SEEN_PATH = `${ARCHIVE_DIR}/${SEEN_FILE}`;
const RECORDS_FILE = 'sessions.jsonl';
/** From the report root. */
export const RECORDS_PATH = `${ARCHIVE_DIR}/${RECORDS_FILE}`;
/** Named by the records file's first line. */
const RECORDS_FORMAT = 1;
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * What an archive file may inflate to: a ledger's JSON compresses about tenfold (its entries' ids
 * and hashes do not repeat; 9.4 times at most over the bench's and the shared corpora, about 32
 * times for 50,000 replies of one text), so far more than that is no file bough wrote. A forged
 * one (a gzip bomb: a megabyte that inflates to gigabytes) is refused at this size, as
 * unreadable, before it takes the machine's memory; one under it, of entries that are none, at
 * its first entry (ledgerFileFromJson).
 */
export function inflatedSizeCap(compressedBytes: number): number {
  return Math.max(INFLATED_AT_LEAST, compressedBytes * INFLATED_RATIO);
}
const INFLATED_AT_LEAST = 64 * 1024 * 1024;
const INFLATED_RATIO = 128;

/** An archive file's bytes inflated; a RangeError past inflatedSizeCap. */
export function inflatedArchiveFile(bytes: Buffer): Buffer {
  return gunzipSync(bytes, { maxOutputLength: inflatedSizeCap(bytes.length) });
}

async function inflatedArchiveFileAsync(bytes: Buffer): Promise<Buffer> {
  return gunzipAsync(bytes, { maxOutputLength: inflatedSizeCap(bytes.length) });
}

/** What the last build archived of a session, its ledger aside. */
export interface ArchivedPages {
  /** The hash of its session key: names its archive files. */
  name: string;
  /** Hashes of the file's path and of the place it was found under. */
  source: string;
  place: string;
  /**
   * Every folder that holds the file, its own first, each by the first FOLDER_HASH characters of
   * its hash (not said by records of builds before 2026-12): a later build is of its place when
   * one of its inputs is any of them.
   */
  folders?: string[] | undefined;
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
  /** How many entries its file held when archived (not said by records of builds before 2026-12): a file that holds fewer now was cut short. */
  entries?: number | undefined;
  /** Of them, the file's own: less those made from beside it (a Codex thread's name); not said by records of builds before 2026-12-05. */
  ownEntries?: number | undefined;
  /** Of a redacting build since 2026-12: which secret its ledger's entry keys are hashed with (EntryKeys' check). */
  keys?: string | undefined;
  /**
   * The hash of the file's real path where it was read by another (an input given through a link;
   * not said by records of builds before 2026-12-05): a build that reads the file by its real path
   * writes that session, and carries no second copy of it.
   */
  real?: string | undefined;
  /** The size of its ledger file as written (not said by records of builds before 2026-12-05): one of another size was damaged since, and is written anew. */
  ledgerBytes?: number | undefined;
  /** The size of its session file as read (not said by records of builds before 2026-12-05): one smaller now may be cut short, though as many entries read from it. */
  fileBytes?: number | undefined;
  /**
   * A hash of the session id and start its file gave (not said by records of builds before
   * 2026-12-06): a file of as many entries, no smaller, that gives others holds another session.
   */
  opening?: string | undefined;
  /**
   * When its session file was last changed as read (not said by records of builds before
   * 2026-12-05): a file of as many entries, no smaller, changed since, is looked into.
   */
  fileMtime?: number | undefined;
  /**
   * The bytes of its pages as written (not said by records of builds before 2026-12-06): pages of
   * another size now (cut short, edited) are written anew while its file is there to read.
   */
  pageBytes?: number | undefined;
  /**
   * When a build into this folder first archived its file (not said by records of builds before
   * 2026-12-07): a kept file last seen before then was never read beside it (see ClaimRules.newHere).
   */
  since?: number | undefined;
  /**
   * Its session is a start of Claude Code never given a prompt (its warmups alone; not said by
   * records of builds before 2026-12-07, which counted it a session): a build that keeps it
   * without showing it says so apart from sessions, as the report does.
   */
  warmupStart?: true | undefined;
}

export interface ArchivedSession extends Omit<ArchivedPages, 'name'> {
  ledger: SessionLedger;
  /** Its ledger file is not of the size its record says (another copy, put back from another backup): read as it is, and said. */
  otherCopy?: true;
  /**
   * The pageBytes of the copy of its record its ledger file holds (see archiveFiles), undefined
   * when it holds none or says none: one other than its pages' now is written anew, as a lost
   * records file is read back from that copy.
   */
  pageBytesInLedger?: number | undefined;
}

const recordFields = {
  source: z.string(),
  place: z.string(),
  folders: z.array(z.string()).optional(),
  pages: z.array(z.string().regex(/^sessions\/[a-z0-9-]+\.html$/)),
  sharing: z.string(),
  fingerprint: z.string().nullable(),
  entries: z.number().int().nonnegative().optional(),
  // The file's own entries (less those made from beside it); absent from earlier builds' records.
  ownEntries: z.number().int().nonnegative().optional(),
  keys: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  real: z.string().optional(),
  ledgerBytes: z.number().int().nonnegative().optional(),
  fileBytes: z.number().int().nonnegative().optional(),
  opening: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  fileMtime: z.number().finite().optional(),
  pageBytes: z.number().int().nonnegative().optional(),
  since: z.number().min(EARLIEST_TIME).lt(TIME_LIMIT).optional(),
  warmupStart: z.literal(true).optional(),
  search: z.array(z.object({ kind: z.enum(['prompt', 'reply', 'file', 'subagent']), href: z.string().regex(/^sessions\/[a-z0-9-]+\.html(#[A-Za-z0-9_.:-]+)?$/), text: z.string() })),
};
const ARCHIVE_NAME = /^[0-9a-f]{32}$/;
/** A line of the records file: a session's record, named. */
const recordSchema = z.object({ name: z.string().regex(ARCHIVE_NAME), ...recordFields });
const recordsHeadSchema = z.object({ format: z.literal(RECORDS_FORMAT) });
/** An earlier build's record file of one session (named by its file). */
const olderRecordSchema = z.object({ format: z.literal(FORMAT), ...recordFields });
// Its session's record, since 2026-12-06 (archiveFiles): read apart (recordInLedgerFile), so that
// one damaged costs no ledger.
// Its entries are checked one by one (ledgerFileFromJson): a forged file of millions of entries that
// are not is refused at the first, where a check of them all made an issue of each (5 GB).
const ledgerFileSchema = z.object({ format: z.literal(FORMAT), record: z.unknown().optional(), ledger: ledgerSchema.extend({ entries: z.array(z.unknown()) }) });
// A time a page can show (a forged one beyond a Date's range stopped every build).
const seenSchema = z.object({ format: z.literal(FORMAT), lastSeen: z.record(z.string().regex(ARCHIVE_NAME), z.number().min(EARLIEST_TIME).lt(TIME_LIMIT)) });

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

/**
 * How the archive names a file or place it read: the hash of its path as the report shows it. In a
 * redacted report that is the redacted path: a hash of the real one would let its reader confirm a
 * guess of the user's name (the rest of the path is on the page).
 */
export type PathNamer = (path: string) => string;

/** The PathNamer of a build that redacts with `home` as the user's home folder, or of one that does not (null). */
export function pathNamer(redacting: { home: string | null; resolvedHome?: string | null } | null): PathNamer {
  if (redacting === null) return pathHash;
  // A sharer of its own: naming a path is no redaction the report counts.
  const shown = createSharer({ redact: true, omit: new Set(), home: redacting.home, resolvedHome: redacting.resolvedHome ?? null }).text;
  return (path) => pathHash(shown(path));
}

/** A file a build archives: the path it read it by, its real path where another, and when it was first archived (see archivedNow). */
export interface ArchivedFile {
  source: string | null;
  real: string | null;
  since?: number | null;
}

/** How this build archives: where it searched, how it shares, when it ran; plain data, for the page threads. */
export interface Archiving {
  places: readonly string[];
  sharing: string;
  /** What pathNamer is made from. */
  redacting: { home: string | null; resolvedHome?: string | null } | null;
  now: number;
  /** Which secret this build hashes entry keys with (EntryKeys' check); null when it keeps them as read. */
  keys: string | null;
}

/**
 * What this build archives of a file it read from `source` (whose real path is `real`, where
 * known), with the pages written for it; null for a file found under none of the places (it could
 * not be told gone later). `since`: when it was first archived, as its record said (null: an
 * earlier bough's record said not); absent: new in the archive, now.
 */
export function archivedNow(part: Pick<ArchivedSession, 'ledger' | 'pages' | 'search' | 'fingerprint' | 'pageBytes'>, file: ArchivedFile, archiving: Archiving, nameOf: PathNamer): ArchivedSession | null {
  const { source, real } = file;
  const since = file.since === undefined ? archiving.now : file.since;
  const place = source === null ? null : placeOf(source, archiving.places);
  if (source === null || place === null) return null;
  return {
    ...part,
    source: nameOf(source),
    place: nameOf(place),
    // Its real path's folders too: a build given the folder through a link, or not, finds it.
    folders: [...new Set([...foldersOf(source), ...(real === null || real === source ? [] : foldersOf(real))])].map((folder) => nameOf(folder).slice(0, FOLDER_HASH)),
    lastSeen: archiving.now,
    sharing: archiving.sharing,
    entries: part.ledger.entries.count,
    ownEntries: part.ledger.entries.count - (part.ledger.besideEntries ?? 0),
    fileBytes: part.ledger.size,
    opening: openingOf(part.ledger),
    fileMtime: part.ledger.mtime,
    ...(archiving.keys === null ? {} : { keys: archiving.keys }),
    ...(real === null || real === source ? {} : { real: nameOf(real) }),
    ...(since === null ? {} : { since }),
    // Only the file that has its session's pages: a warmup's file beside a main one has none.
    ...(isWarmupFile(part.ledger) && part.pages.length > 0 ? { warmupStart: true as const } : {}),
  };
}

/** What a file says its session is: its id and when it started, hashed (a record keeps no id). */
function openingOf(ledger: Pick<SessionLedger, 'sessionId' | 'startedAt'>): string {
  return sha256Hex(`${ledger.sessionId}\u0000${ledger.startedAt ?? ''}`).slice(0, 16);
}

/**
 * Characters of a folder's hash a record keeps: 64 bits tell a build's few inputs apart, and a
 * history of 30,000 sessions' records stays 3 MB smaller than with whole hashes.
 */
const FOLDER_HASH = 16;

/** Every folder that holds `file`, its own first, up to the root. */
function foldersOf(file: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(file); !folders.includes(folder); folder = dirname(folder)) folders.push(folder);
  return folders;
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
  /** The hash of its session key (names its ledger file), or null for a record too damaged to say it. */
  name: string | null;
  /** The file that did not read right, from the report root: the records file, its ledger file, seen.json or an earlier build's record file. */
  file: string;
  /** The line of the records file, or null for a file of its own. */
  line: number | null;
  /** Whether its record read right, so that its pages are known (its ledger did not read, or seen.json does not say when its file was last seen). */
  recordRead: boolean;
  /** Its pages, when its record read right. */
  pages: string[];
  /** When its file was last seen, when known. */
  lastSeen: number | null;
  /** Its line for the records file, as it was when it did not read right: carried into the next one. Null for an earlier build's record file that did not read (kept as a file), or for what could not be read as a line. */
  record: string | null;
  /** The records file as a whole: of another format (another version of bough's). */
  wholeFile?: boolean;
}

/**
 * What the report folder's last build archived. Records that do not read as this code wrote them
 * (damaged, or written by another version of bough) are listed apart: the build says so rather
 * than let a session whose file is gone leave the totals without a word.
 */
export async function readArchive(outDir: string): Promise<{ sessions: ArchivedPages[]; unreadable: UnreadableArchive[]; seenFromFileTimes: Set<string>; recovered: Set<string> }> {
  const dir = join(outDir, ARCHIVE_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  const fileNames = new Set(names);
  const seen = seenOf(join(dir, SEEN_FILE));
  const seenFromFileTimes = new Set<string>();
  /**
   * When a session's file was last seen. With seen.json damaged, gone, or not naming it (put back
   * from a backup older than the session), a session whose ledger file is there was seen when that
   * file was written (it is written when the session's pages change): kept, dated no later than it
   * was seen, rather than left out of the totals.
   */
  const lastSeenOf = (name: string): number | undefined => {
    if (seen?.[name] !== undefined) return seen[name];
    const time = fileNames.has(`${name}.ledger.json.gz`) ? fileTime(join(dir, `${name}.ledger.json.gz`)) : undefined;
    if (time !== undefined) seenFromFileTimes.add(name);
    return time;
  };
  const read: ArchiveRead = { sessions: [], unreadable: [], named: new Set() };
  if (names.includes(RECORDS_FILE)) readRecords(join(dir, RECORDS_FILE), lastSeenOf, read);
  // An earlier build's record files, one per session, for the sessions the records file does not
  // name; a compressed one when there is no plain one.
  const plain = new Set(names.filter((file) => OLDER_RECORD_FILE.test(file)));
  for (const file of names) {
    const compressed = OLDEST_RECORD_FILE.exec(file)?.[1];
    const name = OLDER_RECORD_FILE.exec(file)?.[1] ?? (compressed !== undefined && !plain.has(`${compressed}.json`) ? compressed : undefined);
    if (name === undefined || read.named.has(name)) continue;
    let record: Omit<z.infer<typeof olderRecordSchema>, 'format'> | null = null;
    try {
      const bytes = readOwnFile(join(dir, file));
      const parsed = olderRecordSchema.safeParse(JSON.parse((file.endsWith('.gz') ? inflatedArchiveFile(bytes) : bytes).toString('utf8')));
      if (parsed.success) {
        const { format: _format, ...fields } = parsed.data;
        record = fields;
      }
    } catch {
      record = null;
    }
    // Moved into the records file from now on, when it reads right; kept as the file it is when not.
    const named = record === null ? null : { ...record, name };
    add(read, name, named, lastSeenOf(name), { file: `${ARCHIVE_DIR}/${file}`, line: null, text: null });
  }
  const ledgerNames = names.flatMap((file) => LEDGER_FILE.exec(file)?.[1] ?? []);
  // A session whose ledger file is here and whose record is not (the records file put back from an
  // older backup, cut short, or its line damaged): its record as its ledger file holds it, dated,
  // when seen.json does not say, by when that file was written (its file was last seen then or
  // later). Only of a ledger file bough wrote into this folder (its list of its files names it): one
  // copied in from another report folder holds another's spend. Not beside a records file of
  // another format: that archive is another bough's to read.
  const recovered = new Set<string>();
  const otherFormat = read.unreadable.some((u) => u.wholeFile === true);
  const listed = new Set(listedLedgers(outDir));
  for (const name of otherFormat ? [] : ledgerNames) {
    if (read.named.has(name) || !listed.has(name)) continue;
    const record = recordInLedgerFile(join(dir, `${name}.ledger.json.gz`), name);
    if (record === null) continue;
    recovered.add(name);
    add(read, name, record, lastSeenOf(name), { file: ledgerPath(name), line: null, text: null });
  }
  // A session seen.json or a ledger file names is one an earlier build archived: without its
  // record (the records file cut short or replaced, its ledger file of a build before 2026-12-06)
  // it is said, and its files kept, not left out without a word.
  // Ledger files bough's list of its files names that are gone (the archive folder deleted or
  // emptied): their sessions are said, not left out of the totals without a word.
  ledgerNames.push(...[...listed].filter((name) => !fileNames.has(`${name}.ledger.json.gz`)));
  const damaged = new Set(read.unreadable.flatMap((u) => (u.name === null ? [] : [u.name])));
  for (const name of new Set([...Object.keys(seen ?? {}), ...ledgerNames])) {
    if (!read.named.has(name) && !damaged.has(name)) read.unreadable.push({ name, file: RECORDS_PATH, line: null, recordRead: false, pages: [], lastSeen: seen?.[name] ?? null, record: null });
  }
  // A damaged copy of a record that is also there whole is of no more use: the whole one holds the session.
  return { sessions: read.sessions, unreadable: read.unreadable.filter((u) => u.recordRead || u.name === null || !read.named.has(u.name)), seenFromFileTimes, recovered };
}

/** The record a ledger file holds of its session (see archiveFiles), or null: none, damaged, or of another session. */
function recordInLedgerFile(path: string, name: string): z.infer<typeof recordSchema> | null {
  try {
    const file = parsedLedgerJson(inflatedArchiveFile(readOwnFile(path))) as { record?: unknown; ledger?: { key?: unknown } };
    const record = recordSchema.safeParse(file.record);
    return record.success && record.data.name === name && typeof file.ledger?.key === 'string' && pathHash(file.ledger.key) === name ? record.data : null;
  } catch {
    return null;
  }
}

/** The archived ledgers bough's list of the files it wrote into the folder names, by session name. */
function listedLedgers(outDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(outDir, MANIFEST), 'utf8');
  } catch {
    return [];
  }
  const prefix = `${ARCHIVE_DIR}/`;
  return (parseManifest(text)?.files ?? []).flatMap((path) => (path.startsWith(prefix) ? (LEDGER_FILE.exec(path.slice(prefix.length))?.[1] ?? []) : []));
}

interface ArchiveRead {
  sessions: ArchivedPages[];
  unreadable: UnreadableArchive[];
  /** The sessions whose record read right so far: a second record of one is left out (the first holds). */
  named: Set<string>;
}

/** A session's record, as read: counted when it read right and seen.json says when its file was last seen, listed as unreadable when not. */
function add(
  read: ArchiveRead,
  name: string | null,
  record: z.infer<typeof recordSchema> | null,
  lastSeen: number | undefined,
  where: { file: string; line: number | null; text: string | null },
): void {
  if (name !== null && record !== null) {
    if (read.named.has(name)) return;
    read.named.add(name);
  }
  if (record !== null && lastSeen !== undefined) {
    read.sessions.push({ ...record, lastSeen });
    return;
  }
  read.unreadable.push({
    name,
    // Its record reads right but seen.json does not name it: that is the file to say.
    file: record === null ? where.file : SEEN_PATH,
    line: record === null ? where.line : null,
    recordRead: record !== null,
    pages: record?.pages ?? [],
    lastSeen: lastSeen ?? null,
    record: where.text ?? (record === null ? null : recordLine(record)),
  });
}

/** When each archived session's file was last seen, by its name; null when seen.json is gone or does not read right. */
function seenOf(path: string): Record<string, number> | null {
  try {
    const parsed = seenSchema.safeParse(JSON.parse(readOwnFile(path).toString('utf8')));
    return parsed.success ? parsed.data.lastSeen : null;
  } catch {
    return null;
  }
}

/** When an archive file was last written (ms), if it is a regular file. */
function fileTime(path: string): number | undefined {
  try {
    const file = openOwnFile(path);
    try {
      return Math.floor(fstatSync(file).mtimeMs);
    } finally {
      closeSync(file);
    }
  } catch {
    return undefined;
  }
}

/** A record's name, from a line too damaged to read as JSON. */
const NAME_IN_LINE = /"name":"([0-9a-f]{32})"/;

/**
 * The records file, a line at a time. One whose first line names another format (another version
 * of bough's) is said once, as a whole: its lines are not this code's to read. A first line that
 * names none (damaged) is read as a record, as the others are.
 */
function readRecords(path: string, lastSeenOf: (name: string) => number | undefined, read: ArchiveRead): void {
  let number = 0;
  const nameless = (line: number, record: string | null) => read.unreadable.push({ name: null, file: RECORDS_PATH, line, recordRead: false, pages: [], lastSeen: null, record });
  try {
    for (const line of linesOf(path)) {
      number++;
      if (number === 1 && line !== null) {
        if (parsedLine(recordsHeadSchema, line) !== null) continue;
        if (parsedLine(otherHeadSchema, line) !== null) {
          read.unreadable.push({ name: null, file: RECORDS_PATH, line: 1, recordRead: false, pages: [], lastSeen: null, record: null, wholeFile: true });
          return;
        }
      }
      // Too long to be one this code wrote whole: said, and left behind.
      if (line === null) nameless(number, null);
      else if (line !== '') {
        const record = parsedLine(recordSchema, line);
        const name = record?.name ?? NAME_IN_LINE.exec(line)?.[1] ?? null;
        add(read, name, record, name === null ? undefined : lastSeenOf(name), { file: RECORDS_PATH, line: number, text: line });
      }
    }
  } catch {
    // Cut off where it could not be read further: whatever followed is not known.
    nameless(number + 1, null);
  }
}

/** The first line of a records file of another format, as a later bough may write. */
const otherHeadSchema = z.object({ format: z.number() }).strict();

function parsedLine<S extends z.ZodType>(schema: S, line: string): z.infer<S> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The bytes read at a time from the records file: a long history's is tens of MB, more than one string should hold at once. */
const LINES_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * The longest line read: a session's record holds its search items (prompts cut at 2,000
 * characters, replies at 400), so one this long is damage, not a session; and a line past V8's
 * longest string could not be decoded at all.
 */
const MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * A file's lines, split as bytes and each decoded once whole (a character may span two chunks);
 * null for a line longer than MAX_LINE_BYTES, which is skipped, not held. Synchronous: read once
 * per build. The file must be a regular one (see openOwnFile).
 */
function* linesOf(path: string): Generator<string | null> {
  const file = openOwnFile(path);
  try {
    const chunk = Buffer.allocUnsafe(LINES_CHUNK);
    let carried: Buffer[] = [];
    let carriedBytes = 0;
    let tooLong = false;
    for (let size = readSync(file, chunk, 0, chunk.length, null); size > 0; size = readSync(file, chunk, 0, chunk.length, null)) {
      const bytes = chunk.subarray(0, size);
      let from = 0;
      for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, from)) {
        const piece = bytes.subarray(from, at);
        yield tooLong || carriedBytes + piece.length > MAX_LINE_BYTES ? null : (carried.length === 0 ? piece : Buffer.concat([...carried, piece])).toString('utf8');
        carried = [];
        carriedBytes = 0;
        tooLong = false;
        from = at + 1;
      }
      if (from < size && !tooLong) {
        // Copied: the chunk is read into again.
        carried.push(Buffer.from(bytes.subarray(from)));
        carriedBytes += size - from;
        if (carriedBytes > MAX_LINE_BYTES) {
          carried = [];
          carriedBytes = 0;
          tooLong = true;
        }
      }
    }
    if (tooLong) yield null;
    else if (carried.length > 0) yield Buffer.concat(carried).toString('utf8');
  } finally {
    closeSync(file);
  }
}

/**
 * An archived session's ledger, or null when its file does not read as this code wrote it.
 * `keys`: how a build that redacts names entries. A ledger a build before 2026-12 archived holds
 * its keys as read: they are hashed with this build's secret, and then match its own. One whose
 * record names a secret keeps its keys (see cutShortSessions, and build.ts for another secret's).
 */
export async function readArchivedLedger(outDir: string, entry: ArchivedPages, keys: EntryKeys | null): Promise<ArchivedSession | null> {
  try {
    const bytes = readOwnFile(join(outDir, ledgerPath(entry.name)));
    const file = ledgerFileFromJson(await inflatedArchiveFileAsync(bytes), entry.name);
    if (file === null) return null;
    const read = file.ledger;
    // Keys hashed with another secret are left as they are: hashed again they would match nothing
    // still, and be taken for this secret's by the next build.
    const ledger = keys === null || entry.keys !== undefined ? read : rekeyed(read, keys.key);
    const { name: _name, ...pages } = entry;
    // Of another size than its record says: another copy of it (an older one put back from a
    // backup, which may hold less than the session's pages show). The only one there is: counted,
    // said once, and its size recorded.
    const otherCopy = entry.ledgerBytes !== undefined && entry.ledgerBytes !== bytes.length;
    const pageBytesInLedger = z.object({ pageBytes: recordFields.pageBytes }).safeParse(file.record).data?.pageBytes;
    return { ...pages, ledger, pageBytesInLedger, ...(otherCopy ? { ledgerBytes: bytes.length, otherCopy: true as const } : {}) };
  } catch {
    return null;
  }
}

/** A ledger with its entries' keys and usage claims hashed by `key`, as a redacting sharer hashes a file's (share.ts). */
function rekeyed(ledger: SessionLedger, key: (value: string) => string): SessionLedger {
  const entries = unpackEntries(ledger.entries).map((entry) => {
    const rekey = key(entry.key);
    const usage = entry.usage.map((record, index) => {
      // A record's key is its claim or its entry's key and place, then its turn (ledger.ts usageKey).
      const cut = record.key.indexOf(CLAIM_TURN);
      const [claim, turn] = cut === -1 ? [record.key, ''] : [record.key.slice(0, cut), record.key.slice(cut)];
      return { ...record, key: `${claim === usageKeyOf(entry.key, index) ? usageKeyOf(rekey, index) : key(claim)}${turn}` };
    });
    return { ...entry, key: rekey, usage };
  });
  return { ...ledger, entries: packEntries(entries) };
}

/** The ledger an archive's ledger file holds (its compressed bytes), or null when it does not read as this code wrote it for `name`. */
export function archivedLedgerOf(bytes: Buffer, name: string): SessionLedger | null {
  try {
    return ledgerFileFromJson(inflatedArchiveFile(bytes), name)?.ledger ?? null;
  } catch {
    return null;
  }
}

/**
 * A ledger file's JSON, parsed. A long session's is more than one string can hold (V8: about 512
 * million characters): past this many bytes its entries, written last, are parsed one by one.
 */
export const PIECEWISE_FROM_BYTES = 256 * 1024 * 1024;
const ENTRIES_KEY = Buffer.from('"entries":[');

export function parsedLedgerJson(json: Buffer, piecewiseFrom = PIECEWISE_FROM_BYTES, entryOf: (value: unknown) => unknown = (value) => value): unknown {
  if (json.length < piecewiseFrom) return JSON.parse(json.toString('utf8'));
  // The first "entries":[ outside a string is the ledger's (no field before it holds that key,
  // and a string holds its quotes escaped). Its elements are cut where a comma or the closing
  // bracket stands outside strings and nesting.
  const at = json.indexOf(ENTRIES_KEY);
  if (at === -1) throw new Error('no entries in the ledger file');
  const entries: unknown[] = [];
  let start = at + ENTRIES_KEY.length;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let end = -1;
  for (let i = start; i < json.length && end === -1; i++) {
    const byte = json[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === 0x5c) escaped = true;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) depth++;
    else if ((byte === 0x7d || byte === 0x5d) && depth > 0) depth--;
    else if (byte === 0x2c || byte === 0x5d) {
      if (depth > 0) continue;
      const element = json.toString('utf8', start, i).trim();
      if (element !== '') {
        const entry = entryOf(JSON.parse(element));
        if (entry === undefined) throw new Error('an entry that is none');
        entries.push(entry);
      }
      start = i + 1;
      if (byte === 0x5d) end = i;
    }
  }
  if (end === -1) throw new Error('the ledger file ends inside its entries');
  const head = JSON.parse(`${json.toString('utf8', 0, at)}"entries":[]${json.toString('utf8', end + 1)}`) as { ledger?: Record<string, unknown> };
  if (typeof head.ledger === 'object' && head.ledger !== null) head.ledger['entries'] = entries;
  return head;
}

/** Past this much JSON, a ledger file's entries are parsed one by one and checked as they are: one forged of millions of `{}` stops at the first, not parsed whole first. */
const ENTRIES_CHECKED_AS_READ_FROM = 1024 * 1024;

/** A ledger file's ledger, and the copy of its session's record it holds, unchecked (see recordInLedgerFile). */
function ledgerFileFromJson(json: Buffer, name: string): { ledger: SessionLedger; record: unknown } | null {
  type Entry = z.infer<typeof entrySchema>;
  const entryOf = (value: unknown): Entry | undefined => {
    const entry = entrySchema.safeParse(value);
    return entry.success ? entry.data : undefined;
  };
  // Checked as read (past ENTRIES_CHECKED_AS_READ_FROM), or here, one by one: each once.
  const asRead = json.length >= ENTRIES_CHECKED_AS_READ_FROM;
  const parsed = ledgerFileSchema.safeParse(asRead ? parsedLedgerJson(json, 0, entryOf) : parsedLedgerJson(json));
  if (!parsed.success || pathHash(parsed.data.ledger.key) !== name) return null;
  const { entries: read, ...ledger } = parsed.data.ledger;
  const entries: Entry[] = [];
  for (const value of read) {
    const entry = asRead ? (value as Entry) : entryOf(value);
    if (entry === undefined) return null;
    entries.push(entry);
  }
  return { ledger: { ...ledger, entries: packEntries(entries) }, record: parsed.data.record };
}

/**
 * The archived sessions to keep: their file is gone, or no longer reads as a session (`files`: the
 * files read as sessions now), though it was found under a place this build searched, and they
 * were shared as this build shares. A file emptied by a crash or a full disk, or made unreadable,
 * must not take its session's history with it.
 */
export function missingSessions(
  archived: readonly ArchivedPages[],
  found: { files: readonly string[]; places: readonly string[] },
  sharing: string,
  present: ReadonlySet<SessionKey>,
  nameOf: PathNamer,
): ArchivedPages[] {
  const foundFiles = new Set(found.files.map(nameOf));
  const places = new Set(found.places.map(nameOf));
  const presentNames = new Set([...present].map(pathHash));
  // Under a place this build searched: the one it was found under, or any other input that holds
  // it (its folder named instead of their parent, or their parent instead of it).
  const placeFolders = new Set([...places].map((place) => place.slice(0, FOLDER_HASH)));
  const searched = (a: ArchivedPages) => places.has(a.place) || (a.folders?.some((folder) => placeFolders.has(folder)) ?? false);
  return archived.filter((a) => a.sharing === sharing && searched(a) && !foundFiles.has(a.source) && !presentNames.has(a.name));
}

/**
 * The sessions read now whose file holds other entries than when this folder archived it, told
 * by the entries' count and then their keys. `cut`: fewer, the same ones as far as they go (cut
 * short in place, or an older copy put back); what it lost is still in the archive, which keeps
 * it (see missingSessions). `rewritten`: not those it held, in fewer entries or more (the file
 * rewritten, or another session written at its path), shown as they are now. A file that grew
 * by entries after those it held is a session going on. Only a file whose count changed is
 * looked at further: a rebuild reads no archived ledger for the rest.
 */
export async function cutShortSessions(outDir: string, earlier: readonly ArchivedPages[], ledgers: readonly SessionLedger[], keys: EntryKeys | null): Promise<{ cut: SessionKey[]; rewritten: SessionKey[] }> {
  const byName = new Map(earlier.map((a) => [a.name, a]));
  const cut: SessionKey[] = [];
  const rewritten: SessionKey[] = [];
  for (const ledger of ledgers) {
    const record = byName.get(pathHash(ledger.key));
    if (record?.entries === undefined) continue;
    // As many entries of the file's own as archived, from a file no smaller: not cut short. (A
    // record of an earlier build counted a thread's name from beside the file among them; a file
    // cut inside a response written as several lines reads as many entries, the last with less.)
    const own = ledger.entries.count - (ledger.besideEntries ?? 0);
    const asMany = record.ownEntries !== undefined ? record.ownEntries === own : record.entries === ledger.entries.count;
    // Nor one that gives the session and start archived: a file of as many entries that gives
    // others is another session written at its path, looked at entry by entry.
    const sameOpening = record.opening === undefined || record.opening === openingOf(ledger);
    // Nor one changed since (regression: an older copy put back, as many entries and no smaller,
    // its last reply another, lost that reply's spend without a word).
    const unchanged = record.fileMtime === undefined || record.fileMtime === ledger.mtime;
    if (asMany && sameOpening && unchanged && (record.fileBytes === undefined || ledger.size >= record.fileBytes)) continue;
    const archived = await readArchivedLedger(outDir, record, keys);
    if (archived === null) continue;
    // The file's own entries: a name given from beside it (cleared since, or its index gone) is none of them.
    const reader = readerOf(ledger.source);
    const beside = reader.isBesideEntry;
    const fileOwn = (entries: readonly LedgerEntry[]) => (beside === undefined ? entries : entries.filter((entry) => !beside(entry.id)));
    const was = fileOwn(unpackEntries(archived.ledger.entries));
    const now = fileOwn(unpackEntries(ledger.entries));
    // Archived with another secret, its keys cannot be compared with these: its entries' ids and
    // times, which no secret hashes, are (a Codex entry's id is its line: its time tells a line
    // written anew).
    const byIds = keys !== null && record.keys !== undefined && record.keys !== keys.check;
    const mark = byIds ? (entry: LedgerEntry) => `${entry.id}\u0000${entry.time}` : (entry: LedgerEntry) => entry.key;
    const same = (a: LedgerEntry, b: LedgerEntry | undefined) => b !== undefined && mark(a) === mark(b);
    // An entry a file holds: as it was, or read with others as one (a newer bough reads a
    // response written as several lines as one entry, which names the others' ids).
    const tokens = new Map(now.map((entry) => [mark(entry), entryOutput(entry)]));
    const merged = new Set(now.flatMap((entry) => entry.aliases ?? []));
    const holds = (entry: LedgerEntry) => (tokens.get(mark(entry)) ?? -1) >= entryOutput(entry) || merged.has(entry.id);
    // Holding what was archived as far as it goes (its end cut off), or less lines it lost to damage
    // since (some skipped as unreadable), or less entries read from damaged lines (which the agent's
    // rewrite of the file dropped: Pi's of an old file, pi.md §2), it holds less: kept as archived.
    // One holding others, or less some entries with no line lost (turns deleted by hand), is another.
    const droppedDamage = (archived.ledger.recoveredEntries ?? 0) > 0 && was.length - now.length <= (archived.ledger.recoveredEntries ?? 0);
    const holdsPartOf = () => (ledger.damaged > 0 || droppedDamage ? inOrderAmong() : now.every((entry, i) => same(entry, was[i])));
    const inOrderAmong = () => {
      let at = 0;
      for (const entry of now) {
        while (at < was.length && !same(entry, was[at])) at++;
        if (at === was.length) return false;
        at++;
      }
      return true;
    };
    // An entry read now with less output than archived (its response's fuller line cut off): cut short.
    if (was.some((entry) => (tokens.get(mark(entry)) ?? Infinity) < entryOutput(entry))) {
      (holdsPartOf() ? cut : rewritten).push(ledger.key);
      continue;
    }
    if (was.length > now.length) {
      if (was.every(holds)) continue;
      (holdsPartOf() ? cut : rewritten).push(ledger.key);
      continue;
    }
    // The last entries archived may read otherwise once the lines after them are written (Codex
    // writes a prompt twice, as the model's input and then as an event, a moment apart): a file
    // going on holds the others as they were, its first entry always. Each agent's own tail
    // (regression: every agent's four, so a Pi file put back to an older copy and gone on lost up
    // to four archived entries without a word).
    const settled = was.slice(0, Math.max(1, was.length - (reader.growingTail ?? 1)));
    // One of them with usage gone whole, not read otherwise (no entry of its id now), is lost: an
    // older copy put back and gone on (regression: its spend left the totals without a word).
    const ids = new Set(now.map((entry) => entry.id));
    const tailLost = was.slice(settled.length).some((entry) => entry.usage.length > 0 && !holds(entry) && !ids.has(entry.id));
    if (!settled.every(holds) || tailLost) rewritten.push(ledger.key);
  }
  return { cut, rewritten };
}


/**
 * Whether a file read now holds less than, or other than, what a record says it held when
 * archived: fewer entries of its own, fewer bytes, or another session's opening. Told by the
 * record alone, for one archived with other sharing, whose entries' keys are not these.
 */
export function holdsLessThanArchived(record: ArchivedPages, ledger: SessionLedger): boolean {
  if (record.entries === undefined) return false;
  const own = ledger.entries.count - (ledger.besideEntries ?? 0);
  const fewer = record.ownEntries !== undefined ? own < record.ownEntries : ledger.entries.count < record.entries;
  const smaller = record.fileBytes !== undefined && ledger.size < record.fileBytes;
  const other = record.opening !== undefined && record.opening !== openingOf(ledger);
  return fewer || smaller || other;
}

/** Where a session's ledger file goes, from the report root. */
export function archivedLedgerPath(key: SessionKey): string {
  return ledgerPath(pathHash(key));
}

export const ledgerPath = (name: string) => `${ARCHIVE_DIR}/${name}.ledger.json.gz`;
/** A session's record as a file of its own, as earlier builds wrote it, and before that compressed. */
export const olderRecordPath = (name: string) => `${ARCHIVE_DIR}/${name}.json`;
export const oldestRecordPath = (name: string) => `${ARCHIVE_DIR}/${name}.json.gz`;
const OLDER_RECORD_FILE = /^([0-9a-f]{32})\.json$/;
const OLDEST_RECORD_FILE = /^([0-9a-f]{32})\.json\.gz$/;
const LEDGER_FILE = /^([0-9a-f]{32})\.ledger\.json\.gz$/;

/** Whether a path from the report root is an archived ledger file's (ledgerPath). */
export function isLedgerPath(path: string): boolean {
  return path.startsWith(`${ARCHIVE_DIR}/`) && LEDGER_FILE.test(path.slice(ARCHIVE_DIR.length + 1));
}

/** Small ones at once (most sessions' are a few kB, and a trip through zlib's threads cost more), large ones beside the thread's work. */
const GZIP_AT_ONCE_BELOW = 256 * 1024;

async function gzipped(text: string): Promise<Buffer> {
  return text.length < GZIP_AT_ONCE_BELOW ? gzipSync(text, { level: 6 }) : gzipAsync(text, { level: 6 });
}

type RecordFields = Pick<ArchivedPages, 'name' | 'source' | 'place' | 'folders' | 'pages' | 'sharing' | 'fingerprint' | 'search' | 'entries' | 'ownEntries' | 'keys' | 'real' | 'ledgerBytes' | 'fileBytes' | 'opening' | 'fileMtime' | 'pageBytes' | 'since' | 'warmupStart'>;

/** A session's line of the records file (without its line break). */
export function recordLine(record: RecordFields): string {
  return JSON.stringify(recordObject(record));
}

function recordObject(record: RecordFields): object {
  const { name, source, place, folders, pages, sharing, fingerprint, search, entries, ownEntries, keys, real, ledgerBytes, fileBytes, opening, fileMtime, pageBytes, since, warmupStart } = record;
  const optional = { entries, ownEntries, keys, real, ledgerBytes, fileBytes, opening, fileMtime, pageBytes, since, warmupStart };
  const said = Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined));
  return { name, source, place, ...(folders === undefined ? {} : { folders }), pages, sharing, fingerprint, ...said, search };
}

/**
 * What a session's archive is, made off the main thread: its record's line, and its ledger's file
 * compressed (a ledger's JSON is mostly repeated keys), which changes only when its pages do.
 */
export async function archiveFiles(entry: ArchivedSession): Promise<{ record: string; ledger: { path: string; content: Uint8Array } }> {
  // The entries as objects, as every bough before packed ones wrote them: an archive outlives the
  // code that wrote it. Last, so that a long session's can be read back in pieces (parsedLedgerJson).
  const { entries: packed, ...rest } = entry.ledger;
  const entries = unpackEntries(packed);
  const name = pathHash(entry.ledger.key);
  // Its record too (less its ledger file's size, and when its file was last seen, which change
  // without it; and what its pages were made from, which a --no-cache build does not say): with the
  // records file put back from an older backup, or damaged, the ledger file alone still keeps the
  // session (readArchive).
  const record = recordObject({ ...entry, name, ledgerBytes: undefined, fingerprint: null });
  const content =
    entries.length < PIECEWISE_FROM_ENTRIES
      ? await gzipped(JSON.stringify({ format: FORMAT, record, ledger: { ...rest, entries } }))
      : await gzippedPieces(ledgerPieces(JSON.stringify({ format: FORMAT, record, ledger: { ...rest, entries: [] } }), entries));
  return { record: recordLine({ ...entry, name, ledgerBytes: content.length }), ledger: { path: archivedLedgerPath(entry.ledger.key), content } };
}

/** Past this many entries a ledger's JSON is made and compressed in pieces: whole, it may be longer than a string can be. */
const PIECEWISE_FROM_ENTRIES = 50_000;
const ENTRIES_PER_PIECE = 4096;

/** The JSON of `head` (whose entries are `[]`, last) with the entries in it, a few thousand at a time. */
function* ledgerPieces(head: string, entries: readonly unknown[]): Generator<string> {
  const tail = ']}}';
  if (!head.endsWith(`[${tail}`)) throw new Error('a ledger whose entries are not its last field');
  yield head.slice(0, -tail.length);
  for (let from = 0; from < entries.length; from += ENTRIES_PER_PIECE) {
    const json = JSON.stringify(entries.slice(from, from + ENTRIES_PER_PIECE));
    yield `${from === 0 ? '' : ','}${json.slice(1, -1)}`;
  }
  yield tail;
}

async function gzippedPieces(pieces: Iterable<string>): Promise<Buffer> {
  const zip = createGzip({ level: 6 });
  const out: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => out.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
  });
  for (const piece of pieces) if (!zip.write(piece)) await once(zip, 'drain');
  zip.end();
  await finished;
  return Buffer.concat(out);
}

/** The records file's first line, which names its format. */
export const RECORDS_HEAD = JSON.stringify({ format: RECORDS_FORMAT });

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

/**
 * A kept page says so at its top: its file is gone (or is there, but no longer reads as the
 * session: emptied, cut, unreadable), and when it was last seen; and that what it covers (a
 * period, a zone) is the earlier build's, which may not be this report's (`reportCovers`).
 */
export function withGoneNote(html: string, lastSeen: string, reportCovers: string, fileThere = false): string {
  const what = fileThere ? 'no longer reads as this session (emptied, cut short, damaged or unreadable)' : 'is no longer present';
  return withKeptNote(
    html,
    `This session's source file ${what} (last seen ${escapeHtml(lastSeen)}). This page was written by an earlier build: the period, time zone and numbers it shows are that build's, and so is the cost, as that build priced it. This report covers ${escapeHtml(inSentence(reportCovers))}, and counts the session's usage there at its own prices.`,
  );
}

/**
 * A kept page with its links to the sessions before and after it in its project as this report
 * has them (`nav`: the neighbours' markup, empty for none): a neighbour's page may have been
 * renamed since (its file moved), or a session started since.
 */
export function withNeighbours(html: string, nav: string): string {
  const old = /<nav class="neighbours"[^>]*>[\s\S]*?<\/nav>\n?/.exec(html);
  if (old !== null) return `${html.slice(0, old.index)}${nav}${html.slice(old.index + old[0].length)}`;
  // A page that had none: before its heading.
  const heading = html.indexOf('<h1>');
  return heading === -1 || nav === '' ? html : `${html.slice(0, heading)}${nav}${html.slice(heading)}`;
}

/**
 * A kept page's Lineage replaced by this build's (`section`, empty when there is none to show): the
 * one it was written with may link a copy outside this report, or miss one made since. Only the
 * first page of a session has one, after its facts.
 */
export function withLineage(html: string, section: string): string {
  const old = /<section class="lineage">[\s\S]*?<\/section>\n?/.exec(html);
  if (old !== null) return `${html.slice(0, old.index)}${section}${html.slice(old.index + old[0].length)}`;
  const facts = /<dl class="facts">[\s\S]*?<\/dl>\n/.exec(html);
  return facts === null ? html : `${html.slice(0, facts.index + facts[0].length)}${section}${html.slice(facts.index + facts[0].length)}`;
}

/** An entry of a page as an earlier build wrote it: its HTML, and the anchors in it, its own first (a folded run of copies holds several). */
export interface KeptEntry {
  anchors: string[];
  html: string;
}

/**
 * The sub-agent transcripts an earlier build's pages of a session show (`pages`, its parts in
 * order), by their files' paths as the pages show them (HTML), each cut into its entries (a
 * section carried on from part to part joined): kept for a sub-agent whose file is gone when its
 * session's pages are written again, placed in parts entry by entry as written ones are.
 */
export function keptTranscripts(pages: readonly string[]): Map<string, KeptEntry[]> {
  const found = new Map<string, KeptEntry[] | null>();
  // The markup the session template writes around a sub-agent's transcript; the entries inside
  // escape every text of the session, so none of them can close it early. One whose end is lost
  // (the page damaged since) would run on into the next section: it stops there, not kept.
  const transcript = /<summary>transcript · <span class="path">([^<]*)<\/span><\/summary>\n {4}<ol class="conversation">\n((?:(?!<section)[\s\S])*?)\n? {4}<\/ol>\n {2}<\/details>\n<\/section>/g;
  for (const html of pages) {
    for (const [, path, block] of html.matchAll(transcript)) {
      if (path === undefined || block === undefined || block.trim() === '') continue;
      const entries = entriesOf(block);
      const before = found.get(path);
      found.set(path, before === null || entries === null ? null : [...(before ?? []), ...entries]);
    }
  }
  return new Map([...found].flatMap(([path, entries]) => (entries === null || entries.length === 0 ? [] : [[path, entries] as const])));
}

/** A section's entries, as the template writes them one after another: each a list item, lists within it closed. Null for markup cut short. */
function entriesOf(block: string): KeptEntry[] | null {
  const entries: KeptEntry[] = [];
  let depth = 0;
  let start = 0;
  for (const tag of block.matchAll(/<li[\s>]|<\/li>/g)) {
    if (tag[0] !== '</li>') {
      if (depth++ === 0) start = tag.index;
      continue;
    }
    if (--depth < 0) return null;
    if (depth > 0) continue;
    const html = block.slice(start, tag.index + tag[0].length);
    entries.push({ anchors: Array.from(html.matchAll(/ id="([^"]*)"/g), (id) => id[1] as string), html });
  }
  return depth === 0 ? entries : null;
}

/**
 * An earlier build's page, kept because this build could not write it again (its file vanished
 * while it was read): better than a page saying only that.
 */
export function withUnwrittenNote(html: string, reason: string): string {
  return withKeptNote(html, `This build could not write this session's page again (${escapeHtml(reason)}). This page was written by an earlier build, and shows the conversation and the cost as that build saw them; this report's totals count the session as this build read it.`);
}

/** A page with a note at the top of its main part, in place of any such note it had. */
function withKeptNote(html: string, text: string): string {
  const note = `<p class="notice file-gone">${text}</p>`;
  // A page kept by several builds in a row carries one note, the latest.
  const page = html.replace(/\n<p class="notice file-gone">[^<]*<\/p>/, '');
  // <main>, or (pages since skip links) <main id="main">.
  const main = /<main(?: [^>]*)?>/.exec(page);
  if (main === null) return page;
  const at = main.index + main[0].length;
  return `${page.slice(0, at)}\n${note}${page.slice(at)}`;
}
