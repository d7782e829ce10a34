// `bough stats`: the same report data as `build`, without pages. Reads ledgers only (each file's
// content is dropped as soon as its ledger is made), so it needs no page content at all.

import { entriesHold, HOLD_BYTES } from './ledger/packed-entries.js';
import { reportContext, noSessionsSentence, type ReportOptions } from './build.js';
import { NO_CACHE, openLedgerCacheBeside } from './cache/ledger-cache.js';
import { boughCacheDir } from './environment.js';
import { threadPlan } from './threads/pool.js';
import { collect, type Collected } from './reading/collect.js';
import { codeStamp } from './package-files.js';
import { compressedFound, discover, readPlaces, type Discovery, type Place } from './discover.js';
import { BoughError } from './errors.js';
import { scopeLabel } from './ledger/scope.js';
import type { ReportData } from './report/data.js';
import { statsJsonOf } from './report/json.js';
import { emptyScopeSentence } from './report/numbers.js';
import type { StatsGrouping, StatsJson } from './report/schema.js';
import { statsTable } from './report/stats-table.js';

export interface StatsOptions extends ReportOptions {
  by: StatsGrouping;
  /** Read ledgers of unchanged files from the cache (and store new ones); false for `--no-cache`. */
  cache?: boolean;
}

export interface StatsResult {
  data: ReportData;
  json: StatsJson;
  places: Place[];
  /** Said instead of rows when nothing falls in the scope. */
  emptySentence: string;
  /** Things the user should know beside the numbers (a cache that cannot be written, a downloaded price table that is damaged). */
  warnings: string[];
  /** Files found and read that hold no session, as found, and why when it was said (the build's data-quality page lists them too). */
  skippedFiles: { file: string; why: string | null }[];
  /** Folders that could not be listed and links not followed, and why (the build's data-quality page lists them too). */
  notLookedInto: { file: string; why: string }[];
  /** Files whose lines were skipped: how many, and the first one's number and why (the build's data-quality page lists each). */
  skippedLinesIn: { file: string; lines: number; first: { line: number | null; why: string } }[];
}

export async function stats(options: StatsOptions): Promise<StatsResult> {
  const discovery = await discover(options.inputs, options.environment, options.scope.sources);
  options.discovered?.(discovery);
  const cache = options.cache === false ? NO_CACHE : await openLedgerCacheBeside(readPlaces(discovery), boughCacheDir(options.environment), await codeStamp());
  const cacheProblem = await cache.writeProblem();
  const threads = threadPlan(options.environment.env);
  const hold = entriesHold(HOLD_BYTES);
  const collected = await collect(discovery.files, { keepContent: false, progress: options.progress, discoveryNotes: discovery.diagnostics, cache, threads, realPaths: discovery.realPaths, hold });
  // Again once the cache was written to: a disk that filled meanwhile is said too.
  const cacheWarning = cacheProblem ?? (await cache.writeProblem());
  if (collected.ledgers.length === 0) throw new BoughError(noSessionsSentence(discovery, collected.diagnostics));
  const { data, table, diagnostics } = await reportContext(discovery, collected, options, undefined, hold);
  return {
    data,
    json: statsJsonOf(data, options.by, diagnostics),
    places: discovery.places,
    emptySentence: emptyScopeSentence(data, scopeLabel(options.scope)),
    warnings: [cacheWarning, table.snapshot.problem ?? null].filter((w): w is string => w !== null),
    skippedFiles: skippedFilesOf(discovery, collected),
    notLookedInto: collected.diagnostics.filter((d) => d.reason === 'unreadable-folder' || d.reason === 'skipped-link').map((d) => ({ file: d.file, why: d.detail })),
    skippedLinesIn: skippedLinesOf(collected),
  };
}

function skippedLinesOf(collected: Collected): StatsResult['skippedLinesIn'] {
  const byFile = new Map<string, StatsResult['skippedLinesIn'][number]>();
  for (const d of collected.diagnostics) {
    if (!d.skippedLine) continue;
    // Past the problems listed one by one, the rest of a reason are one item with their count.
    const lines = d.count ?? 1;
    const seen = byFile.get(d.file);
    if (!seen) byFile.set(d.file, { file: d.file, lines, first: { line: d.line, why: d.detail } });
    else {
      seen.lines += lines;
      if (d.line !== null && (seen.first.line === null || d.line < seen.first.line)) seen.first = { line: d.line, why: d.detail };
    }
  }
  return [...byFile.values()];
}

/** The terminal view of a stats result. */
export function statsText(result: StatsResult, options: { colour: boolean; width: number }): string {
  return statsTable(result.json, { ...options, emptySentence: result.emptySentence });
}

function skippedFilesOf(discovery: Discovery, collected: Collected): StatsResult['skippedFiles'] {
  const sessions = new Set(collected.sourceOf.values());
  // Each file's first problem of its own (no line): one pass over the problems, not one per file.
  const why = new Map<string, string>();
  for (const d of collected.diagnostics) if (d.line === null && !why.has(d.file)) why.set(d.file, d.detail);
  const read = discovery.files.filter((file) => !sessions.has(file) && !collected.warmupMainFiles.has(file)).map((file) => ({ file, why: why.get(file) ?? null }));
  // Compressed files found are skipped unread, with how to read them.
  return [...read, ...compressedFound(discovery).map((d) => ({ file: d.file, why: d.detail }))];
}
