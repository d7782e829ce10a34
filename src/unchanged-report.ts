// A rebuild whose inputs are all as the last build into the folder found them (the same files,
// unchanged; the same options, code, prices and machine configuration) would write the same
// report. So the last build's files are kept as they are (left in place, not read or copied), and
// only what says when the report was built is written anew: the index's "Generated …" line and
// when each file was last seen. Anything that does not read as the last build left it means a full
// build.

import { createHash } from 'node:crypto';
import { sha256Hex } from './sha256.js';
import { z } from 'zod';
import { isLedgerPath, RECORDS_PATH, refreshedSeen, SEEN_PATH } from './archive.js';
import type { ReportFolder } from './output/report-folder.js';
import { escapeHtml } from './report/escape.js';
import type { SessionCount } from './report/format.js';
import { INDEX_PAGE } from './report/pages.js';
import { summarySchema, type Summary } from './report/schema.js';

/** Written by every build that could be reused: what it was made from and what its index says of when. */
export const BUILD_RECORD = 'archive/build.json';
const FORMAT = 1;

const recordSchema = z.object({
  format: z.literal(FORMAT),
  inputs: z.string().regex(/^[0-9a-f]{64}$/),
  /** The index's "Generated …" sentence, as text, and the counts it gives. */
  generated: z.string(),
  sessionFiles: z.number().int().nonnegative(),
  /** Archive names of the sessions kept though their files are gone: their "last seen" stays. */
  gone: z.array(z.string().regex(/^[0-9a-f]{32}$/)),
  /** Archive names of sessions whose archive was kept though it did not read right: their "last seen" stays too. */
  unreadable: z.array(z.string().regex(/^[0-9a-f]{32}$/)).optional(),
  /** How many sessions the archive holds that the report does not show, and those of them whose files it did not read: their "last seen" stays. */
  carried: z.number().int().nonnegative().optional(),
  /** Of them, the starts of Claude Code never given a prompt, said apart (not said by builds before 2026-12-07, which counted them among `carried`). */
  carriedWarmupStarts: z.number().int().nonnegative().optional(),
  carriedUnseen: z.array(z.string().regex(/^[0-9a-f]{32}$/)).optional(),
  /** How many session files the archive keeps more of than they hold now (cut short, no longer read): said again. */
  standing: z.object({ cutShort: z.number().int().nonnegative(), noLongerRead: z.number().int().nonnegative() }).optional(),
  /**
   * sha256 of the files a rebuild takes as they are, by path: summary.json (its numbers are the
   * run's last line), the archive's records and the ledgers of sessions whose files are gone, and
   * (since 2026-12-06) usage.csv and the overview pages. One changed since (edited, saved by a
   * spreadsheet, damaged, put back from a backup) means a full build, which reads or writes it anew.
   */
  trusted: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  /**
   * How many archived ledger files the report holds and their bytes in all (not said by builds
   * before 2026-12-05): one damaged since (cut short) means a full build, which writes it anew
   * while its session's file is there to read. Sizes, not hashes: they cost no reading. `latest`,
   * as for `kept` (not said by builds before 2026-12-07): one damaged in place at its size is later.
   */
  ledgers: z.object({ files: z.number().int().nonnegative(), bytes: z.number().int().nonnegative(), latest: z.number().nonnegative().optional() }).optional(),
  /**
   * The same of every other file a rebuild keeps as it is (pages, the search index, assets; not
   * said by builds before 2026-12-06): one cut short or edited since means a full build, which
   * writes it anew. `latest`: the latest time one was written at, as the file system has it (not
   * said by builds before 2026-12-07): one of them changed since in place, at the same size (a
   * digit edited, a byte damaged), is later.
   */
  kept: z.object({ files: z.number().int().nonnegative(), bytes: z.number().int().nonnegative(), latest: z.number().nonnegative().optional() }).optional(),
});
export type BuildRecord = z.infer<typeof recordSchema>;
export type StandingCounts = NonNullable<BuildRecord['standing']>;

/** What a rebuild with nothing changed writes again: the rest of the report it keeps as it is. */
const REWRITTEN: ReadonlySet<string> = new Set([INDEX_PAGE, SEEN_PATH, BUILD_RECORD]);

/**
 * A file a rebuild with nothing changed keeps as it is, told by its size: ledger files apart, and
 * the records file, vouched for by its hash (its size differs by what it says its pages were made
 * from, which a --no-cache build does not say).
 */
export function isKeptAsIs(path: string): boolean {
  return !REWRITTEN.has(path) && !isLedgerPath(path) && path !== RECORDS_PATH;
}

/** How many files there are (`sizes`: each one's, null for one not there), and their bytes in all. */
export function filesAndBytes(sizes: Iterable<number | null>): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const size of sizes) {
    files++;
    bytes += size ?? 0;
  }
  return { files, bytes };
}

/** Whether any of `times` is later than the latest time the last build wrote a file it keeps at (said, else nothing to tell by). */
export function changedSince(latest: number | undefined, times: Iterable<number | null>): boolean {
  if (latest === undefined) return false;
  for (const time of times) if (time !== null && time > latest) return true;
  return false;
}

/**
 * The latest time the last build wrote a file a rebuild keeps as it is, and an archived ledger
 * file, from its build.json; undefined where it did not say.
 */
export async function lastBuildLatest(folder: ReportFolder): Promise<{ kept: number | undefined; ledgers: number | undefined }> {
  const record = parsed(recordSchema, await folder.previous(BUILD_RECORD));
  return { kept: record?.kept?.latest, ledgers: record?.ledgers?.latest };
}

/** One hash of everything a report is made from; `parts` must be plain data (JSON). */
export function inputsPrint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export function buildRecordFile(record: Omit<BuildRecord, 'format'>): { path: string; content: string } {
  return { path: BUILD_RECORD, content: JSON.stringify({ format: FORMAT, ...record }) };
}

/** The hashes of the files a rebuild would take as they are (see `trusted`), as this build has them. */
export async function trustedHashes(folder: ReportFolder, paths: readonly string[]): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const path of paths) {
    const hash = await folder.currentHash(path);
    if (hash !== null) hashes[path] = hash;
  }
  return hashes;
}

/**
 * Whether the archive's records file is as the last build left it, when that build said (its
 * build.json): one edited since cannot vouch for the search items and pages it names, so no page
 * is kept on its word. Without a build.json there is nothing to tell by, and it is taken as it is.
 */
export async function recordsAsLastBuilt(folder: ReportFolder): Promise<boolean> {
  const said = await folder.previous(BUILD_RECORD);
  if (said === null) return true;
  const hash = parsed(recordSchema, said)?.trusted[RECORDS_PATH];
  if (hash === undefined) return false;
  const content = await folder.previous(RECORDS_PATH);
  return content !== null && sha256Hex(content) === hash;
}

/**
 * Keeps the last build's report when it was made from `inputs`: returns its summary, or null
 * (nothing kept) when the folder's last build was made from anything else or was changed since.
 */
export async function keepUnchangedReport(
  folder: ReportFolder,
  inputs: string,
  generated: (sessionFiles: number, gone: number, carried: SessionCount) => string,
  now: number,
): Promise<{ summary: Summary; carried: SessionCount; standing: StandingCounts } | null> {
  const record = parsed(recordSchema, await folder.previous(BUILD_RECORD));
  if (record === null || record.inputs !== inputs) return null;
  for (const [path, hash] of Object.entries(record.trusted)) {
    const content = await folder.previous(path);
    if (content === null || sha256Hex(content) !== hash) return null;
  }
  if (record.ledgers !== undefined) {
    const now = filesAndBytes(folder.previousFiles.filter(isLedgerPath).map((path) => folder.previousSize(path)));
    if (now.files !== record.ledgers.files || now.bytes !== record.ledgers.bytes) return null;
    if (changedSince(record.ledgers.latest, folder.previousFiles.filter(isLedgerPath).map((path) => folder.previousFile(path)?.time ?? null))) return null;
  }
  if (record.kept !== undefined) {
    const keptFiles = folder.previousFiles.filter(isKeptAsIs).map((path) => folder.previousFile(path));
    const now = filesAndBytes(keptFiles.map((file) => file?.size ?? null));
    if (now.files !== record.kept.files || now.bytes !== record.kept.bytes) return null;
    if (changedSince(record.kept.latest, keptFiles.map((file) => file?.time ?? null))) return null;
  }
  const index = (await folder.previous(INDEX_PAGE))?.toString('utf8') ?? null;
  const lede = (text: string) => `<p class="lede">${escapeHtml(text)}</p>`;
  const at = index?.indexOf(lede(record.generated)) ?? -1;
  if (index === null || at === -1 || index.indexOf(lede(record.generated), at + 1) !== -1) return null;
  const summary = parsed(summarySchema, await folder.previous('summary.json'));
  const seen = await folder.previous(SEEN_PATH);
  const seenNow = seen === null ? null : refreshedSeen(seen, new Set([...record.gone, ...(record.unreadable ?? []), ...(record.carriedUnseen ?? [])]), now);
  if (summary === null || seenNow === null) return null;
  // A page the last build could not write (a gone session's, lost from the folder) may be put back
  // since, or written now: a report that lacks one is built again, never kept as it was.
  // So may a kept page cut short (its session's file gone): said again until it is mended.
  if ((summary.diagnostics.byReason['page-failed'] ?? 0) > 0 || (summary.diagnostics.byReason['page-changed'] ?? 0) > 0) return null;
  // A page the last build could not write (a file of the user's was in its place) is no file of
  // bough's: this build writes it.
  const own = new Set(folder.previousFiles);
  if (summary.sessions.some((session) => !own.has(session.page)) || summary.projects.some((project) => !own.has(project.page))) return null;
  if (!(await folder.keep(folder.previousFiles.filter((path) => !REWRITTEN.has(path))))) return null;
  // Gone files the report shows, as summary.json counts them: `gone` also names those outside its period.
  const carried: SessionCount = { sessions: record.carried ?? 0, warmupStarts: record.carriedWarmupStarts ?? 0 };
  const sentence = generated(record.sessionFiles, summary.diagnostics.goneFiles + summary.diagnostics.unreadFiles, carried);
  const indexNow = `${index.slice(0, at)}${lede(sentence)}${index.slice(at + lede(record.generated).length)}`;
  await folder.write(INDEX_PAGE, indexNow);
  await folder.write(SEEN_PATH, seenNow);
  const file = buildRecordFile({
    inputs,
    generated: sentence,
    sessionFiles: record.sessionFiles,
    gone: record.gone,
    unreadable: record.unreadable ?? [],
    carried: carried.sessions,
    carriedWarmupStarts: carried.warmupStarts,
    carriedUnseen: record.carriedUnseen ?? [],
    ...(record.standing === undefined ? {} : { standing: record.standing }),
    // The index as this build writes it (its lede says when), by a build.json of before 2026-12-06 not vouched for.
    trusted: INDEX_PAGE in record.trusted ? { ...record.trusted, [INDEX_PAGE]: sha256Hex(indexNow) } : record.trusted,
    ...(record.ledgers === undefined ? {} : { ledgers: record.ledgers }),
    ...(record.kept === undefined ? {} : { kept: record.kept }),
  });
  await folder.write(file.path, file.content);
  return { summary, carried, standing: record.standing ?? { cutShort: 0, noLongerRead: 0 } };
}

function parsed<S extends z.ZodType>(schema: S, content: Buffer | null): z.infer<S> | null {
  if (content === null) return null;
  try {
    const result = schema.safeParse(JSON.parse(content.toString('utf8')));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
