// The orchestrator: discover → read → ledgers → claims → price → report data, once, into a
// context; then a sink: the HTML folder (`build`), or terminal tables or JSON (`stats`, in
// stats.ts). Warnings are collected on the way and shown on the data-quality page.

import { existsSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { cacheGenerationIn, fileIdentity, NO_CACHE, openLedgerCacheBeside } from './cache/ledger-cache.js';
import { BIG_FILE_BYTES, eachAtMost, eachOnLanes, openPool, TASKS_PER_THREAD, threadPlan, threadsFor, type Pool, type ThreadPlan } from './threads/pool.js';
import { buildRecordFile, changedSince, inputsPrint, isKeptAsIs, keepUnchangedReport, filesAndBytes, lastBuildLatest, recordsAsLastBuilt, trustedHashes, type StandingCounts } from './unchanged-report.js';
import { FILE_CHANGED, pagesJob, removeStagedSession, type KeptTranscript, type PagesJob, type PagesSetup, type PagesTask, type PagesWritten } from './session-pages/job.js';
import { PAGES_WORKER } from './session-pages/worker.js';
import { collect, type Collected } from './reading/collect.js';
import { diagnostic, DIAGNOSTIC_REASONS, inFileOrder, summariseDiagnostics, type Diagnostic, type DiagnosticReason, type DiagnosticsSummary } from './diagnostics.js';
import { compressedFound, discover, filesFound, readPlaces, type Discovery, type Place } from './discover.js';
import { howToRead } from './sources/compressed.js';
import { boughCacheDir, boughConfigDir, resolvedHome, type Environment } from './environment.js';
import { BoughError, messageOf, systemCode, systemTrouble } from './errors.js';
import { claimEntries, type Claims } from './ledger/claims.js';
import { entriesHold, HOLD_BYTES, type EntriesHold } from './ledger/packed-entries.js';
import { inPeriod, isNarrowed, scopeLabel, type Scope } from './ledger/scope.js';
import { subagentsNotRead } from './ledger/subagent-copies.js';
import { refuseUnsafeOut } from './output/out-path.js';
import { MANIFEST, openReportFolder, type LinesFile, type ReportFolder } from './output/report-folder.js';
import { codeStamp, loadAssets, loadTemplates, packageVersion, SAMPLES_DIR } from './package-files.js';
import { loadPriceTable } from './price-files.js';
import { createPricer, type Pricer } from './pricing/price.js';
import type { PriceTable } from './pricing/table.js';
import { buildReportData, filesOfSession, type ReportData, type SessionData, type SessionLink } from './report/data.js';
import { escapeHtml } from './report/escape.js';
import { formatDateTime, formatDay, plural, sessionsSaid, type SessionCount, type TimeFormat } from './report/format.js';
import { sessionJson, summaryOf } from './report/json.js';
import { prettyJsonPieces } from './report/json-pieces.js';
import { byCount, dataQualityView, indexPageView, projectPageView, sessionPagesOfFiles, sharingLine, type OverviewContext } from './report/overview-pages.js';
import { assignPages, DATA_QUALITY_PAGE, hrefFrom, INDEX_PAGE, pageLayout, sessionPageStem, type PageMap } from './report/pages.js';
import { createRenderer } from './report/render.js';
import type { Summary } from './report/schema.js';
import { sessionKeyOf, type SessionKey, type SessionLedger } from './ledger/ledger.js';
import { failedPageView, lineageView } from './report/session-page.js';
import { sessionNeighbours } from './report/session-pages.js';
import { sessionHighlightBudget } from './report/highlight.js';
import { openSearchSpool } from './output/search-spool.js';
import { openLineSpool } from './output/line-spool.js';
import { sessionRows } from './report/search-index.js';
import type { SessionSearchItem } from './report/search-items.js';
import { usageCsv } from './report/usage-csv.js';
import { createSharer, type OmitKind, type Sharer } from './share/share.js';
import { entryKeySecret } from './share/key-secret.js';
import { CLAIM_RULES, localProviders, localProvidersNamed, priceHintsFrom, type LocalProviders } from './sources/registry.js';
import type { Source, SubagentCopies } from './types.js';
import { withEntryTitles, withOwnTitles } from './ledger/titles.js';
import {
  ARCHIVE_DIR,
  archivedLedgerOf,
  archivedLedgerPath,
  archivedNow,
  isLedgerPath,
  archiveFiles,
  cutShortSessions,
  holdsLessThanArchived,
  keptTranscripts,
  ledgerPath,
  missingSessions,
  oldestRecordPath,
  olderRecordPath,
  pathHash,
  pathNamer,
  placeOf,
  readArchive,
  readArchivedLedger,
  recordLine,
  RECORDS_HEAD,
  RECORDS_PATH,
  SEEN_PATH,
  seenFile,
  withGoneNote,
  withLineage,
  withNeighbours,
  withUnwrittenNote,
  type ArchivedFile,
  type ArchivedPages,
  type ArchivedSession,
  type Archiving,
  type UnreadableArchive,
} from './archive.js';
import { progressCounter } from './progress.js';
import { sha256Hex } from './sha256.js';

/** What every command reads and how it prices and cuts: the part `build` and `stats` share. */
export interface ReportOptions {
  inputs: readonly string[];
  scope: Scope;
  /** A LiteLLM-format price table to use instead of the bundled or downloaded one. */
  pricesFile?: string | null;
  /** Price subscription providers at API rates instead of $0. */
  priceSubscriptions?: boolean;
  environment: Environment;
  /** Called with short progress notes (the CLI shows them on a terminal). */
  progress?: ((message: string) => void) | undefined;
  /** Called once discovery knows where it looked: the run's first line says which agents' folders were found. */
  discovered?: ((discovery: Discovery) => void) | undefined;
}

export interface BuildOptions extends ReportOptions {
  out: string;
  /** Replace secrets and the home folder in everything written. */
  redact?: boolean;
  /** Whole kinds of content to leave out of the report. */
  omit?: readonly OmitKind[];
  now: Date;
  /** Drop the sessions an earlier build into this folder kept whose files are gone. */
  forgetMissing?: boolean;
  /** Reuse what earlier runs read from unchanged files, and the pages they wrote from them; false for `--no-cache`. */
  cache?: boolean;
}

export interface BuildResult {
  outDir: string;
  summary: Summary;
  /** No sessions were found in the default places, so the bundled samples were used. */
  usedSamples: boolean;
  /** When the samples were used though the default places hold files: why none of them is a session bough reads. */
  samplesBecause: string | null;
  places: Place[];
  /** Things the user should know that the report could not say (a cache that cannot be written). */
  warnings: string[];
  /** Files of the user's where pages go, left in place: those pages were not written (said even with --quiet). */
  inTheWay: string[];
  /** Sessions whose pages the last build into this folder wrote from the same inputs, kept as they were. */
  sessionsKept: number;
  /** Sessions the folder's archive holds that this report does not show (outside its inputs, period, project or agents), kept for later builds. */
  sessionsCarried: SessionCount;
  /** Sessions the folder's archive held that --forget-missing dropped (files gone, or outside this report): said, the archive being their only copy. */
  sessionsForgotten: SessionCount;
  /** Sub-agents' files the folder's archive held that --forget-missing dropped: a gone one's spend leaves its session's totals, said. */
  subagentFilesForgotten: number;
}

/** Everything a sink needs, built once. */
export interface ReportContext {
  discovery: Discovery;
  collected: Collected;
  claims: Claims;
  table: PriceTable;
  /** What each agent's configuration here runs locally (priced $0), by agent. */
  local: [Source, LocalProviders][];
  price: Pricer;
  data: ReportData;
  diagnostics: DiagnosticsSummary;
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const outDir = resolve(options.out);
  // The home by its real path: for this build's redaction, and for telling an archive's redacted paths.
  const realHome = resolvedHome(options.environment.home);
  const homeResolved = options.redact ? realHome : null;
  let discovery = await discover(options.inputs, options.environment, options.scope.sources);
  options.discovered?.(discovery);
  await refuseUnsafeOut(outDir, readPlaces(discovery), options.environment.home);
  // What a redacting build hashes entry keys with, so that its archive tells nothing of what they were made from.
  const keySecret = options.redact ? await entryKeySecret(options.environment, [outDir, ...readPlaces(discovery).map((place) => place.path)]) : null;
  const sharerFor = () => createSharer({ redact: options.redact ?? false, omit: new Set(options.omit ?? []), home: options.environment.home, resolvedHome: homeResolved, keySecret: keySecret?.secret ?? null });
  let sharer = sharerFor();
  const version = await packageVersion();
  const generator = `bough ${version}`;
  const stamp = await codeStamp();
  // Taken before reading: a second build into the same folder waits or refuses now, not after its work.
  const folder = await openReportFolder(outDir, generator);
  try {
    const searched = discovery.places;
    // Ledgers for the whole history now; each session's content is read again when its pages are written.
    const cache = options.cache === false ? NO_CACHE : await openLedgerCacheBeside(readPlaces(discovery), boughCacheDir(options.environment), stamp, outDir);
    const cacheWarnings = [await cache.writeProblem()].filter((w): w is string => w !== null);
    const secretWarnings = keySecret?.problem ? [sharer.text(keySecret.problem)] : [];
    const threads = threadPlan(options.environment.env);
    // Taken even with --no-cache: the record of what this report was made from lets a later build keep it.
    const identities = new Map<string, string | null>();
    await eachAtMost(16, discovery.files, async (path) => void identities.set(path, await fileIdentity(path, stamp, discovery.realPaths.get(path))));
    // Every file as the last build into the folder found it, and everything else the same: that report is this one.
    const pricing = await pricingInputs(options, discovery);
    // A newer price table that could not be used is said on every run, as a cache that cannot be written is.
    if (pricing.table.snapshot.problem !== undefined) cacheWarnings.push(pricing.table.snapshot.problem);
    // With --no-cache, the cache folder's id as it is: a report read without a cache is as fresh as any, and a later run with the cache may keep it.
    const generation = options.cache === false ? await cacheGenerationIn(boughCacheDir(options.environment)) : await cache.generation();
    const inputs = inputsOf(discovery, identities, options, stamp, pricing, generation, sharer.keys?.check ?? null);
    if (inputs !== null && options.cache !== false) {
      const unchanged = await keepUnchangedReport(folder, inputs, (files, gone, carried) => generatedSentence(options, generator, files, gone, carried), options.now.getTime());
      if (unchanged) {
        // The last build's warnings about its archive still hold: its report is this one.
        const { summary, carried } = unchanged;
        const unreadable = unreadableWarning(summary.diagnostics.byReason['archive-unreadable'] ?? 0, join(outDir, ARCHIVE_DIR), sharer.text);
        const otherSecret = otherSecretWarning(summary.diagnostics.byReason['archive-other-secret'] ?? 0, outDir, boughConfigDir(options.environment), sharer.text);
        const warnings = [...cacheWarnings, ...secretWarnings, ...otherSecret, ...standingWarnings(unchanged.standing, sharer.text(outDir)), ...unreadable];
        const inTheWay = await folder.commit();
        return { outDir, summary, usedSamples: false, samplesBecause: null, places: discovery.places, warnings, inTheWay, sessionsKept: summary.sessions.length, sessionsCarried: carried, sessionsForgotten: NO_SESSIONS, subagentFilesForgotten: 0 };
      }
    }
    // Entries unpacked once for the counting passes (the cache's check, claims, titles, the
    // totals, usage.csv), let go before pages are rendered.
    const hold = entriesHold(HOLD_BYTES);
    const read = () =>
      collect(discovery.files, {
        hold,
        sharer,
        keepContent: false,
        progress: options.progress,
        discoveryNotes: discovery.diagnostics,
        cache,
        threads,
        identities,
        realPaths: discovery.realPaths,
        projectFilter: options.scope.project,
      });
    let collected = await read();
    // Again once the cache was written to: a disk that filled meanwhile is said too.
    if (cacheWarnings.length === 0) cacheWarnings.push(...[await cache.writeProblem()].filter((w): w is string => w !== null));
    // What an earlier build into this folder archived: read before choosing the samples, so that
    // a history whose files are all gone (the archive's very purpose) is not replaced by them.
    const sharing = sharingOf(options.redact ?? false, options.omit ?? []);
    const redacting = options.redact ? { home: options.environment.home, resolvedHome: homeResolved } : null;
    const nameOfPath = pathNamer(redacting);
    const archived = await readArchive(outDir);
    const earlier = archived.sessions.filter((a) => a.sharing === sharing);
    // A file cut short since it was archived: its archive keeps what it lost, as for a file gone.
    const { cut, rewritten } = options.forgetMissing ? { cut: [], rewritten: [] } : await cutShortSessions(outDir, earlier, collected.ledgers, sharer.keys);
    // What the sharer counted of a file cut short: its archive is shown instead, and counted so.
    const readOfCut = collected.ledgers.filter((ledger) => cut.includes(ledger.key));
    if (cut.length > 0) collected = withoutSessions(collected, new Set(cut));
    // Sessions an earlier build into this folder wrote whose files are gone now: kept, marked.
    // With $HOME a link, a build that redacted before bough knew the home's real path named these
    // sessions by their paths redacted without it: they are these sessions, not gone ones.
    const formerKey = options.redact && homeResolved !== null ? formerKeys(collected, options.environment.home) : new Map<SessionKey, SessionKey>();
    let missing = options.forgetMissing
      ? []
      : missingSessions(earlier, { files: [...collected.sourceOf.values()], places: await searchedPlaces(discovery, options.redact ?? false) }, sharing, new Set([...collected.ledgers.map((l) => l.key), ...formerKey.values()]), nameOfPath);
    let usedSamples = false;
    let samplesBecause: string | null = null;
    if (collected.ledgers.length === 0 && missing.length === 0) {
      // An agent's folder bough may not list may hold sessions: never passed over for the samples.
      // Nor is a report asked for by agent, project or period made of them: `--source pi` on a
      // machine with Claude Code sessions only, or a month, has none, which is what is said.
      if (!discovery.usedDefaults || isNarrowed(options.scope) || unlistedFolders(discovery).length > 0) throw new BoughError(noSessionsSentence(discovery, collected.diagnostics));
      const archivedCount = archived.sessions.length + archived.unreadable.length;
      if (archivedCount > 0) {
        throw new BoughError(
          `${noSessionsSentence(discovery, collected.diagnostics)} ${sharer.text(outDir)} holds the archive of an earlier build (${plural(archivedCount, 'session file')}), which a report of bough's bundled samples would replace: it is left as it is. To see the samples, pass another --out.`,
        );
      }
      // A first run on a machine without sessions still shows what a report looks like; files
      // found there that are no sessions bough reads are said (their problems are not the samples').
      if (discovery.files.length > 0) samplesBecause = noSessionsSentence(discovery, collected.diagnostics);
      usedSamples = true;
      sharer = sharerFor();
      discovery = await discover([SAMPLES_DIR], options.environment);
      await refuseUnsafeOut(outDir, readPlaces(discovery), options.environment.home);
      collected = await read();
      missing = [];
    }
    const places = await searchedPlaces(discovery, options.redact ?? false);
    // With --no-cache, or an archive edited since the last build, every page is written anew;
    // sessions whose files are gone are still kept.
    const previous = options.cache === false || !(await recordsAsLastBuilt(folder)) ? [] : earlier;
    const readBack = await Promise.all(missing.map(async (entry) => ({ entry, kept: await readArchivedLedger(outDir, entry, sharer.keys) })));
    let kept = readBack.flatMap(({ kept }) => (kept === null ? [] : [kept]));
    // What an earlier build archived and does not read right now may be a session whose file is
    // gone: said on the data-quality page, never left out without a word. A session read now
    // writes its archive anew.
    const present = new Set(collected.ledgers.map((l) => pathHash(l.key)));
    const unreadable: UnreadableArchive[] = options.forgetMissing
      ? []
      : [
          ...readBack.flatMap(({ entry, kept }) =>
            kept === null ? [{ name: entry.name, file: ledgerPath(entry.name), line: null, recordRead: true, pages: entry.pages, lastSeen: entry.lastSeen, record: recordLine(entry) }] : [],
          ),
          ...archived.unreadable.filter((u) => u.name === null || !present.has(u.name)),
        ];
    const readNow = collected;
    const cutKeys = new Set(cut);
    // Kept while its file is still there (emptied, damaged, unreadable): no file gone, and said.
    const pathsHere = new Map(discovery.files.map((path) => [nameOfPath(path), path]));
    // A link whose file is gone is no file there: its session is gone, as that file.
    const stillThere = (k: ArchivedSession) => {
      const path = pathsHere.get(k.source);
      return path !== undefined && !cutKeys.has(k.ledger.key) && existsSync(path);
    };
    // Files read now that an earlier build read, or that are a kept file moved (found so below):
    // not new in the archive (see ClaimRules.newHere).
    const archivedBefore = new Map(earlier.map((a) => [a.name, a.since ?? null]));
    const withKept = (): Collected => {
      // A file cut short was read, and is the session's file still: counted so, not as gone.
      const cutShort = new Set(kept.flatMap((k) => (cutKeys.has(k.ledger.key) ? [k.ledger.key] : [])));
      const keptLedgers = kept.map((k) => ({ ...k.ledger, lastSeen: k.lastSeen, ...(stillThere(k) ? { fileThere: true as const } : cutKeys.has(k.ledger.key) ? { fileHoldsLess: true as const } : {}) }));
      return { ...readNow, candidates: readNow.candidates + cutShort.size, cutShort, ledgers: [...readNow.ledgers, ...keptLedgers], archivedBefore };
    };
    if (kept.length > 0) collected = withKept();
    let report = await reportContext(discovery, collected, options, pricing, hold);
    // A gone session whose every entry a file read now holds (the same session in another config
    // folder, or moved) is kept no longer: that file is the session now.
    const held = kept.filter((k) => report.claims.duplicateOf.has(k.ledger.key));
    const holderOf = new Map(held.map((k) => [pathHash(k.ledger.key), report.claims.duplicateOf.get(k.ledger.key) as SessionKey]));
    if (held.length > 0) {
      for (const holder of holderOf.values()) if (!archivedBefore.has(pathHash(holder))) archivedBefore.set(pathHash(holder), null);
      kept = kept.filter((k) => !held.includes(k));
      collected = withKept();
      report = await reportContext(discovery, collected, options, pricing, hold);
    }
    // What the archive holds that this build does not write again: kept as it was when archived
    // the way this build shares (see carryOver); one archived another way can neither be put in
    // this folder (a plain page in a redacted report) nor be dropped without being asked.
    const parts = report.data.sessions.flatMap((s) => [s, ...s.subagents]);
    const writes = new Set(parts.flatMap((part) => [part.key, formerKey.get(part.key) ?? part.key].map(pathHash)));
    // By its file: a build that redacts names a session, and its file, by its redacted path; one
    // that does not, by the real one.
    const otherSharing = archived.sessions.filter((a) => a.sharing !== sharing);
    const redactedName = otherSharing.length === 0 ? pathHash : pathNamer({ home: options.environment.home, resolvedHome: realHome });
    if (!options.forgetMissing) {
      const other = otherSharing.filter((a) => !writes.has(a.name));
      const files = other.length === 0 ? [] : parts.flatMap((part) => collected.sourceOf.get(part.key) ?? []);
      // Each by the path it is read by and by its real one: archived when read through a link, it is the same file.
      const named = [...files, ...files.map((file) => discovery.realPaths.get(file) ?? file)];
      const writesFiles = new Set([...named.map(pathHash), ...named.map(redactedName)]);
      const stranded = other.filter((a) => !writesFiles.has(a.source) && !(a.real !== undefined && writesFiles.has(a.real)));
      if (stranded.length > 0) throw new BoughError(strandedSentence(sharer.text(outDir), stranded, sharing));
      // A file read now that holds less than it did when archived otherwise (cut short, or another
      // session written at its path): its archived pages cannot stay beside this build's, and what
      // it lost would go without a word.
      const ledgerOfFile = new Map<string, SessionLedger>();
      for (const part of otherSharing.length === 0 ? [] : parts) {
        const file = collected.sourceOf.get(part.key);
        if (file === undefined) continue;
        for (const named of [file, discovery.realPaths.get(file) ?? file]) for (const hash of [pathHash(named), redactedName(named)]) ledgerOfFile.set(hash, part.ledger);
      }
      const lessNow = otherSharing.filter((a) => {
        const ledger = ledgerOfFile.get(a.source) ?? (a.real === undefined ? undefined : ledgerOfFile.get(a.real));
        return ledger !== undefined && holdsLessThanArchived(a, ledger);
      });
      if (lessNow.length > 0) throw new BoughError(lessNowSentence(sharer.text(outDir), lessNow, sharing));
    }
    // Not a session kept as a copy of one this build writes (that one is archived now), nor one
    // keepUnreadable says and keeps. One held by a file this report does not show (outside its
    // period, project or agents: a file moved during a build for one month) is kept as it was,
    // or nothing would keep it once that file is gone too.
    const writtenHolder = [...holderOf].filter(([, holder]) => writes.has(pathHash(holder))).map(([name]) => name);
    // Nor one archived under a key a file read now had before the home's real path was known: its
    // pages show that path, in a folder that redacts (its file is read; a later build archives it).
    const formerNames = [...formerKey.values()].map(pathHash);
    // Nor a file read now that holds nothing more than one this report shows (the session's
    // counted copy went on in another file): listed with that session, which is archived.
    const duplicateNames = report.data.sessions.flatMap((s) => s.duplicates.map((d) => pathHash(d.key)));
    const notCarried = new Set([...writtenHolder, ...unreadable.flatMap((u) => (u.name === null ? [] : [u.name])), ...formerNames, ...duplicateNames]);
    // Nor one of a file this build writes, archived when read by another path (through a link to
    // it, or it a link): by its real path, as the earlier build recorded it, or by the path it read;
    // named as the build that archived it named files (--forget-missing after a --share build).
    const realFiles = parts.flatMap((part) => {
      const file = collected.sourceOf.get(part.key);
      return file === undefined ? [] : [discovery.realPaths.get(file) ?? file];
    });
    const writtenFiles = new Set(realFiles.map(nameOfPath));
    const writtenOtherwise = otherSharing.length === 0 ? null : { redacted: new Set(realFiles.map(redactedName)), plain: new Set(realFiles.map(pathHash)) };
    const namedAs = (a: ArchivedPages) => (a.sharing === sharing || writtenOtherwise === null ? writtenFiles : a.sharing.startsWith(REDACTING_SHARING) ? writtenOtherwise.redacted : writtenOtherwise.plain);
    const sameFile = (a: ArchivedPages) => namedAs(a).has(a.real ?? a.source);
    const carried = options.forgetMissing || usedSamples ? [] : earlier.filter((a) => !writes.has(a.name) && !notCarried.has(a.name) && !sameFile(a));
    // What --forget-missing drops of the sessions the archive kept (their pages, whatever their sharing): said, not done without a word.
    const dropped = options.forgetMissing && !usedSamples ? archived.sessions.filter((a) => !writes.has(a.name) && !notCarried.has(a.name) && !sameFile(a)) : [];
    const forgotten = sessionsOf(dropped);
    // A sub-agent's file has no pages of its own: its spend left its session's totals, unsaid.
    const subagentFilesForgotten = dropped.length - forgotten.sessions - forgotten.warmupStarts;
    const notice = usedSamples
      ? `No sessions were found in ${searched.map((p) => sharer.text(p.path)).join(', ')}, so this report shows bough's bundled sample sessions.${samplesBecause === null ? '' : ` ${sharer.text(samplesBecause)}`}`
      : null;
    // One archived with another secret (another machine's, or a secret replaced) cannot be
    // matched entry by entry: kept whole, under its own keys, and said, of those this report
    // shows (a month's report says nothing of a session kept from another).
    const keyCheck = sharer.keys?.check ?? null;
    const foreignKeys = (k: ArchivedSession) => keyCheck !== null && k.keys !== undefined && k.keys !== keyCheck;
    const shownKeys = new Set(report.data.sessions.flatMap((s) => [s.key, ...s.subagents.map((sub) => sub.key), ...s.duplicates.map((d) => d.key)]));
    const otherSecretKept = kept.filter((k) => foreignKeys(k) && shownKeys.has(k.ledger.key));
    const otherSecret = otherSecretKept.map((k) => diagnostic('archive-other-secret', k.ledger.path, null, 'archived with another entry-key secret: a copy of its entries read now cannot be told from it'));
    const unmatchedWarning = otherSecretWarning(otherSecretKept.length, outDir, boughConfigDir(options.environment), sharer.text);
    // Of the sessions this report shows (a narrower one keeps others unsaid). These hold as long as
    // the files do: a rebuild that keeps this report says them again (kept as counts in build.json,
    // said of the folder where it is then).
    const shown = new Set(report.data.sessions.flatMap((session) => [session.key, ...session.subagents.map((sub) => sub.key)]));
    const standing: StandingCounts = { cutShort: cut.filter((key) => kept.some((k) => k.ledger.key === key)).length, noLongerRead: kept.filter((k) => stillThere(k) && shown.has(k.ledger.key)).length };
    // The report says how much it redacted of all it shows: what it shows from the archive was
    // redacted when it was archived, by the counts kept with it (none said by builds before
    // 2026-12-06); not what was read of a file it does not show (outside its period or project, a
    // duplicate) or of a file cut short, whose archive it shows instead.
    const counted = (ledger: SessionLedger, sign: 1 | -1) => Object.entries(ledger.redactions ?? {}).map(([kind, n]): [string, number] => [kind, sign * n]);
    const readNotShown = [...readOfCut, ...readNow.ledgers.filter((ledger) => !shown.has(ledger.key))];
    sharer.addRedactions([...kept.filter((k) => shown.has(k.ledger.key)).flatMap((k) => counted(k.ledger, 1)), ...readNotShown.flatMap((ledger) => counted(ledger, -1))]);
    // Content read again is shared by a sharer of its own: the report counts each redaction once, as its ledgers were made.
    const archive = usedSamples ? null : { kept, previous, written: earlier, sharing, redacting, places, inputs, unreadable, carried, otherSecret, standing };
    const { summary, sessionsKept, sessionsCarried } = await writeHtmlReport(report, folder, { sharer, contentSharer: sharerFor(), notice, options, archive, version, stamp, cacheGeneration: generation, threads, hold });
    // A folder kept to be sent, built once with --share and now without: said, as its pages now show what it hid.
    const wasRedacted = !options.redact && archived.sessions.some((a) => a.sharing.startsWith(REDACTING_SHARING));
    const unredacted = wasRedacted
      ? [`${outDir} held a report that redacted secrets and home folders; this build does not redact, so its pages now show them. Build with --share (or --redact) to keep it fit to send.`]
      : [];
    const datedByFileTime = readBack.filter(({ entry, kept }) => kept !== null && archived.seenFromFileTimes.has(entry.name)).length;
    const undated =
      datedByFileTime === 0
        ? []
        : [
            `${sharer.text(join(outDir, SEEN_PATH))} did not read right or does not name ${datedByFileTime === 1 ? 'it' : 'them'}: ${plural(datedByFileTime, 'session')} whose file is gone ${datedByFileTime === 1 ? 'is' : 'are'} kept, dated by when ${datedByFileTime === 1 ? 'its' : 'their'} archive was last written (each file was last seen then or later).`,
          ];
    // Kept though the records file did not name them (an older one put back from a backup, or damaged).
    // Once each: a gone session outside this report's period is both kept and carried.
    const recoveredCount = new Set([...kept.map((k) => pathHash(k.ledger.key)), ...carried.map((a) => a.name)].filter((name) => archived.recovered.has(name))).size;
    const recovered =
      recoveredCount === 0
        ? []
        : [
            `${sharer.text(join(outDir, RECORDS_PATH))} did not name ${plural(recoveredCount, 'archived session file')} (an older copy put back from a backup, cut short or damaged): kept, read back from ${recoveredCount === 1 ? 'its ledger file, which keeps its record' : 'their ledger files, which keep their records'} too.`,
          ];
    // Not kept: the archive holds one session a path, and the file holds another now.
    const replaced =
      rewritten.length === 0
        ? []
        : [`${plural(rewritten.length, 'session file')} no longer ${rewritten.length === 1 ? 'holds' : 'hold'} what ${sharer.text(outDir)} archived of ${rewritten.length === 1 ? 'it' : 'them'} (rewritten, or another session written at ${rewritten.length === 1 ? 'its' : 'their'} path): shown as ${rewritten.length === 1 ? 'it is' : 'they are'} now, what the archive held of ${rewritten.length === 1 ? 'it is' : 'them is'} gone from this report: ${filesNamed(rewritten.map((key) => collected.sourceOf.get(key) ?? key), sharer.text)}.`];
    const otherCopies = kept.filter((k) => k.otherCopy === true).length;
    const otherCopyWarning =
      otherCopies === 0
        ? []
        : [
            `${plural(otherCopies, 'archived ledger file')} of ${otherCopies === 1 ? 'a session whose file is' : 'sessions whose files are'} gone ${otherCopies === 1 ? 'is' : 'are'} not the size ${sharer.text(join(outDir, RECORDS_PATH))} says (another copy, put back from another backup?): counted as ${otherCopies === 1 ? 'it holds' : 'they hold'}, which may be less than ${otherCopies === 1 ? 'its page shows' : 'their pages show'}.`,
          ];
    const warnings = [...cacheWarnings, ...secretWarnings, ...unmatchedWarning, ...standingWarnings(standing, sharer.text(outDir)), ...replaced, ...unredacted, ...undated, ...recovered, ...otherCopyWarning, ...unreadableWarning(unreadable.length, join(outDir, ARCHIVE_DIR), sharer.text)];
    const inTheWay = await folder.commit();
    return { outDir, summary, usedSamples, samplesBecause, places: usedSamples ? searched : discovery.places, warnings, inTheWay, sessionsKept, sessionsCarried, sessionsForgotten: forgotten, subagentFilesForgotten };
  } catch (error) {
    await folder.abort();
    // A full disk met writing the report (a page, an archived ledger, summary.json) is said with its folder.
    const code = systemCode(error);
    if (code !== null && WRITE_TROUBLE.has(code) && typeof (error as { path?: unknown }).path !== 'string') Object.assign(error as Error, { path: resolve(options.out) });
    throw error;
  }
}

/** What marks the page bough writes in place of a session page it could not write (templates/failed-session.eta). */
const NOT_WRITTEN_MARK = 'data-bough-page="not-written"';

/** The report folder's own problems (its archive, its pages): this report's, listed whatever it shows. */
const REPORT_FOLDER_PROBLEMS: ReadonlySet<DiagnosticReason> = new Set<DiagnosticReason>(['archive-unreadable', 'archive-other-secret', 'page-failed', 'page-changed']);

/** A system's trouble that met a write of the report's (its inputs' reads say their own). */
const WRITE_TROUBLE = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS']);

/**
 * What was collected, less some sessions' files: their ledgers, where they were read from and what
 * they were; counted as files kept from an earlier build, not as files read (nor skipped).
 */
function withoutSessions(collected: Collected, keys: ReadonlySet<SessionKey>): Collected {
  const keep = <T>(map: ReadonlyMap<SessionKey, T>) => new Map([...map].filter(([key]) => !keys.has(key)));
  const ledgers = collected.ledgers.filter((l) => !keys.has(l.key));
  return { ...collected, ledgers, sourceOf: keep(collected.sourceOf), identityOf: keep(collected.identityOf), candidates: collected.candidates - (collected.ledgers.length - ledgers.length) };
}

/** Claims, prices and the report data over what was collected. */
/** The price table and what runs locally: read once per run. */
interface PricingInputs {
  table: PriceTable;
  local: [Source, LocalProviders][];
}

async function pricingInputs(options: ReportOptions & { redact?: boolean }, discovery: Pick<Discovery, 'places' | 'linked' | 'files' | 'realPaths'>): Promise<PricingInputs> {
  const inputs = readPlaces(discovery).map((place) => place.path);
  const local = await localProviders(options.environment, { inputs, files: discovery.files, realPaths: discovery.realPaths });
  // A build that redacts holds its ledgers' paths redacted: their folders are found so. (A sharer
  // of its own: naming a path is no redaction the report counts.)
  const { home } = options.environment;
  const named = options.redact ? localProvidersNamed(local, createSharer({ redact: true, omit: new Set(), home, resolvedHome: resolvedHome(home) }).text, discovery.files) : local;
  return { table: await loadPriceTable(options.pricesFile ?? null, options.environment), local: named };
}

/** `hold`: where the passes get each ledger's entries, unpacked once within its budget (see EntriesHold). */
export async function reportContext(discovery: Discovery, collected: Collected, options: ReportOptions, loaded?: PricingInputs, hold?: EntriesHold): Promise<ReportContext> {
  // Files, not sessions: copies and sub-agents' files are counted into the sessions they belong to.
  options.progress?.(`counting ${plural(collected.ledgers.length, 'session file')}`);
  const { table, local } = loaded ?? (await pricingInputs(options, discovery));
  const price = createPricer(table, { subscriptionsAtApiPrices: options.priceSubscriptions ?? false, hints: priceHintsFrom(local) });
  const unpack = hold?.unpack;
  const archivedBefore = collected.archivedBefore;
  // New beside a kept file also when first archived after that file was last read: a narrower
  // build read it first, never beside it (regression: a Pi session moved and gone on, read so, was two).
  const newHere = (ledger: SessionLedger, kept: SessionLedger) => {
    const since = archivedBefore?.get(pathHash(ledger.key));
    return since === undefined || (since !== null && kept.lastSeen !== null && since > kept.lastSeen);
  };
  const claims = claimEntries(collected.ledgers, archivedBefore ? { ...CLAIM_RULES, newHere } : CLAIM_RULES, unpack);
  const ledgers = withEntryTitles(collected.ledgers, claims, unpack);
  const data = buildReportData(withOwnTitles(ledgers, claims, unpack), claims, price, options.scope, collected.sharedProject, unpack);
  // Said beside each file's own problems: which transcripts are read is known only of them all.
  // Of the sessions the report shows, in its period: spend missing from its totals, not another's.
  const shownFiles = new Set(data.sessions.flatMap(filesOfSession));
  const { period } = options.scope;
  const madeInPeriod = ({ from, to }: SubagentCopies) => from === null || to === null || ((period.end === null || from < period.end) && (period.start === null || to >= period.start));
  const notRead = subagentsNotRead(collected.ledgers, (ledger, copies) => shownFiles.has(ledger.path) && madeInPeriod(copies));
  // A count taken as written that may be damaged bears on the totals of a report that shows its
  // session, in its period, only: one outside it was said as "can add thousands of dollars" to a
  // report of another month, or of none.
  const counted = (d: Diagnostic) => d.reason !== 'unlikely-count' || (shownFiles.has(d.file) && (d.time === undefined || inPeriod(period, d.time)));
  const unlikelyElsewhere = !collected.diagnostics.every(counted);
  const own = unlikelyElsewhere ? collected.diagnostics.filter(counted) : collected.diagnostics;
  const noted = notRead.length === 0 && !unlikelyElsewhere ? collected : { ...collected, diagnostics: [...own, ...notRead] };
  const diagnostics = summariseDiagnostics(noted.diagnostics, collected.candidates + compressedFound(discovery).length, countedLedgers(collected.ledgers, data), collected.cutShort, collected.warmupMainFiles.size);
  return { discovery, collected: noted, claims, table, local, price, data, diagnostics };
}

/**
 * Each session's key as a build that redacts named it before it knew the real path of a home that
 * is a link (only $HOME's spelling replaced), where that differs from its key now.
 */
function formerKeys(collected: Collected, home: string): Map<SessionKey, SessionKey> {
  const redacted = createSharer({ redact: true, omit: new Set(), home }).text;
  const former = new Map<SessionKey, SessionKey>();
  for (const ledger of collected.ledgers) {
    const source = collected.sourceOf.get(ledger.key);
    const key = source === undefined ? null : sessionKeyOf(ledger.source, redacted(source));
    if (key !== null && key !== ledger.key) former.set(ledger.key, key);
  }
  return former;
}

/**
 * The files this report counts: those read now, and those kept from an earlier build that it
 * shows. One kept that it does not show (outside its period, project or agents) is the archive's,
 * said apart, not a file of this report.
 */
function countedLedgers(ledgers: readonly SessionLedger[], data: ReportData): SessionLedger[] {
  const shown = new Set(data.sessions.flatMap((s) => [s.key, ...s.subagents.map((sub) => sub.key), ...s.duplicates.map((d) => d.key)]));
  return ledgers.filter((ledger) => ledger.lastSeen === null || shown.has(ledger.key));
}

interface HtmlSink {
  /** What to keep from the folder's earlier build and how to archive this one; null for the bundled samples. */
  archive: {
    kept: readonly ArchivedSession[];
    /** The pages the earlier build wrote that this one may keep as they are; none with --no-cache. */
    previous: readonly ArchivedPages[];
    /** The pages the earlier build wrote, sharing as this one: kept where this one cannot write a session's again. */
    written: readonly ArchivedPages[];
    sharing: string;
    redacting: Archiving['redacting'];
    places: readonly string[];
    inputs: string | null;
    /** What the earlier build archived that does not read right, and may be of a session whose file is gone. */
    unreadable: readonly UnreadableArchive[];
    /** Sessions kept from it whose entries were named with another secret: said on the data-quality page. */
    otherSecret: readonly Diagnostic[];
    /** What the earlier build archived, sharing as this one, that this report does not show: kept as it was. */
    carried: readonly ArchivedPages[];
    /** What of the archive's state holds while the files are as they are: said again by a rebuild that keeps the report. */
    standing: StandingCounts;
  } | null;
  sharer: Sharer;
  /** Shares content read again for pages, the same way as `sharer` did for the ledgers. */
  contentSharer: Sharer;
  notice: string | null;
  options: BuildOptions;
  /** bough's version and code stamp, and how many threads may write pages: taken once per build. */
  version: string;
  stamp: string;
  /**
   * The cache folder's id: a page is kept only as written against the same cache, so that a
   * deleted cache rebuilds every page, as README says (a file edited in its middle, its size and
   * time put back, kept its page's old text: only its head and tail are in the page's fingerprint).
   */
  cacheGeneration: string | null;
  threads: ThreadPlan;
  /** The entries the counting held: usage.csv is their last pass, before the pages need the memory. */
  hold: EntriesHold;
}

/** The HTML folder: index, data quality, a page per project and session, assets, summary.json, usage.csv. */
async function writeHtmlReport(report: ReportContext, folder: ReportFolder, sink: HtmlSink): Promise<{ summary: Summary; sessionsKept: number; sessionsCarried: SessionCount }> {
  const { data, collected, table, price } = report;
  const { options, sharer } = sink;
  await folder.write('usage.csv', usageCsv(data, price, sink.hold.unpack));
  sink.hold.release();
  // Part of every page's fingerprint: a page shows the price of entries it does not count too (a fork's copied history).
  const pricing = pricingPrint(table, report.local, options);
  const keptByKey = new Map((sink.archive?.kept ?? []).map((k) => [k.ledger.key, k]));
  const fileOf = (key: SessionKey): ArchivedFile => {
    const source = collected.sourceOf.get(key) ?? null;
    // When its file was first archived: kept from its record, now for a file new in the archive.
    const before = writtenByName.get(pathHash(key));
    return { source, real: source === null ? null : (report.discovery.realPaths.get(source) ?? null), ...(before ? { since: before.since ?? null } : {}) };
  };
  const { version } = sink;
  const generator = `bough ${version}`;
  const time = { timeZone: options.scope.timeZone };
  // The report's scope as it may show it: a --project text redacted as the folders are.
  const scope = scopeLabel(data.scope);
  const writtenByName = new Map((sink.archive?.written ?? []).map((a) => [a.name, a]));
  // A session the archive has a page for keeps that page's name, though pages are named by their
  // day in the report's zone: a page a narrower build of another --tz carries as it was links to it
  // by that name (regression: renamed, the old file removed, that link led nowhere). Not a page of
  // another session once written at its path (its id is in the name).
  const archivedPage = (session: SessionData): string | undefined => {
    const page = writtenByName.get(pathHash(session.key))?.pages[0];
    return page?.includes(`-${sessionPageStem(session.ledger)}`) ? page : undefined;
  };
  const keptPages = [...keptByKey].flatMap(([key, k]) => (k.pages[0] ? [[key, k.pages[0]] as const] : []));
  const archivedPages = data.sessions.flatMap((session) => {
    const page = keptByKey.has(session.key) ? undefined : archivedPage(session);
    return page === undefined ? [] : [[session.key, page] as const];
  });
  const pages = assignPages(data, time, new Map([...keptPages, ...archivedPages]));
  /** When each archived session's file was last seen: now, or when an earlier build saw it (its file is gone). */
  const seen: { name: string; lastSeen: number }[] = [];
  const archiving: Archiving | null = sink.archive && { places: sink.archive.places, sharing: sink.archive.sharing, redacting: sink.archive.redacting, now: options.now.getTime(), keys: sharer.keys?.check ?? null };
  const nameOfPath = pathNamer(archiving?.redacting ?? null);
  /**
   * The records of sessions archived on threads, in a spool until the records file is written in
   * the report's order: they hold search items, too many for a history to hold in memory.
   */
  const recordSpool = archiving && openLineSpool(folder.staging, '.archive-spool');
  /**
   * Archives a session's file with the pages written for it. `unchanged`: the last build archived
   * exactly this (same pages from the same file, found in the same place), so its record is
   * written as it was and its ledger file kept.
   */
  /** Sessions whose archive could not be written: each costs its own keeping, never the report. */
  const archiveFailures: Diagnostic[] = [];
  const archiveEntry = async (records: LinesFile, ledger: SessionLedger, pageList: string[], searchItems: readonly SessionSearchItem[] = [], fingerprint: string | null = null, unchanged = false, pageBytes?: number): Promise<void> => {
    if (!archiving) return;
    const name = pathHash(ledger.key);
    const kept = keptByKey.get(ledger.key);
    // The common case of a rebuild, made without the ledger's JSON it would write: its file kept,
    // unless it is not as large as written (damaged since), when it is written anew from the file
    // read now, while there is one to read.
    // Nor kept when written since the last build wrote its files (damaged in place at its size: a
    // byte flipped made it unreadable, and its session lost once its file was gone).
    const before = unchanged && !kept ? previousByName.get(name) : undefined;
    const file = before ? folder.previousFile(ledgerPath(name)) : null;
    const size = file?.size ?? null;
    if (before && size !== null && (before.ledgerBytes ?? size) === size && !changedSince(lastLatest.ledgers, [file?.time ?? null]) && (await folder.keep([ledgerPath(name)]))) {
      records.add(recordLine({ ...before, ledgerBytes: size, ...(pageBytes === undefined ? {} : { pageBytes }) }));
      seen.push({ name, lastSeen: archiving.now });
      return;
    }
    // A kept session's fingerprint is dropped: its page says its file is gone, so a file put back
    // as it was (its time kept, as `mv` and backups do) must not find that page unchanged.
    // A kept ledger's keys are this build's once rehashed (an earlier bough wrote them as read);
    // another secret's stay that secret's (readArchivedLedger).
    const keys = kept?.keys ?? archiving.keys ?? undefined;
    // A gone session's pages are written again, each build, with the note: never kept as they are
    // by their size, which tells the next build whether they were changed since.
    const entry = kept ? { ...kept, pages: pageList, fingerprint: null, pageBytes, ...(keys === undefined ? {} : { keys }) } : archivedNow({ ledger, pages: pageList, search: [...searchItems], fingerprint, pageBytes }, fileOf(ledger.key), archiving, nameOfPath);
    if (entry === null) return;
    // Its ledger file as it was, unless its keys were hashed anew (readArchivedLedger), or the copy
    // of its record it holds gives its pages another size (a gone session's page grows by its
    // note): a records file lost is read back from that copy, which would take the pages for edited.
    if (kept && kept.keys === entry.keys && kept.pageBytesInLedger === entry.pageBytes && (await folder.keep([ledgerPath(name)]))) {
      seen.push({ name, lastSeen: entry.lastSeen });
      records.add(recordLine({ ...entry, name }));
      return;
    }
    let files: Awaited<ReturnType<typeof archiveFiles>>;
    try {
      files = await archiveFiles(entry);
    } catch (error) {
      archiveFailures.push(diagnostic('page-failed', ledger.path, null, `its archive could not be written (${sharer.text(messageOf(error))}): should its file go, a later build into this folder cannot keep it`));
      return;
    }
    seen.push({ name, lastSeen: entry.lastSeen });
    records.add(files.record);
    await folder.write(files.ledger.path, files.ledger.content);
  };
  const templates = await loadTemplates();
  const renderer = createRenderer(templates);
  const carriedSessions = sessionsOf(sink.archive?.carried ?? []);
  // Redacted before the count of what was redacted is said (pages and summary.json say one count).
  const inputs = report.discovery.places.map((place) => ({
    path: sharer.text(place.path),
    note: place.exists ? filesFound(place, 'candidate file') : 'not found',
    found: place.exists,
  }));
  const overview: OverviewContext = {
    // A --prices file's path is bough's own text about the inputs: redacted like them.
    pricesLabel: sharer.text(table.snapshot.label),
    pages,
    time,
    scopeLabel: scope,
    // As summary.json counts them: a gone session outside this report's period is one the archive keeps, not one it shows.
    generated: generatedSentence(options, generator, report.diagnostics.sessionFiles, report.diagnostics.goneFiles + report.diagnostics.unreadFiles, carriedSessions),
    notice: sink.notice,
    sharing: sharingLine(options.redact ?? false, sharer.redactions, [...new Set(options.omit ?? [])]),
    inputs,
    diagnostics: report.diagnostics,
  };
  const layout = pageLayout(scope, generator);

  const projectNames = new Map(data.projects.map((p) => [p.key, p.name]));
  const neighbours = sessionNeighbours(data);
  const previousByName = new Map((sink.archive?.previous ?? []).map((a) => [a.name, a]));
  // A kept page written later than the last build wrote any is one changed since.
  const lastLatest = await lastBuildLatest(folder);
  // A session whose file is there and one of its sub-agents' gone (Claude Code deletes each file by
  // its own age): the transcript the last build's pages showed of it is shown again, not lost.
  const transcriptsKeptFor = async (session: SessionData): Promise<KeptTranscript[] | undefined> => {
    const gone = session.subagents.filter((sub) => keptByKey.has(sub.key));
    const before = gone.length === 0 ? undefined : writtenByName.get(pathHash(session.key));
    if (before === undefined) return undefined;
    const html = await Promise.all(before.pages.map((p) => folder.previous(p)));
    const shown = keptTranscripts(html.flatMap((page) => (page === null ? [] : [page.toString('utf8')])));
    return gone.flatMap((sub): KeptTranscript[] => {
      const entries = shown.get(escapeHtml(sub.ledger.path));
      if (entries === undefined) return [];
      // What the index found in it then: the items whose anchors it holds.
      const anchors = new Set(entries.flatMap((entry) => entry.anchors));
      const search = before.search.filter((item) => item.kind === 'subagent' && anchors.has(item.href.slice(item.href.indexOf('#') + 1)));
      return [{ key: sub.key, entries, search }];
    });
  };
  const { stamp } = sink;
  /** Each session's row of summary.json, by rank, as its fingerprint took it: made once. */
  const sessionSummaries: (Summary['sessions'][number] | undefined)[] = new Array(data.sessions.length);
  /** Everything a session's pages are made from, or null when a file was not identified (pages are then written). */
  const fingerprintOf = (session: SessionData, page: string, rank: number): string | null => {
    const files = [session, ...session.subagents].map((part) => collected.identityOf.get(part.key) ?? null);
    if (files.includes(null)) return null;
    const counted = [session, ...session.subagents].map((part) => [Buffer.from(part.counted.entries).toString('base64'), Buffer.from(part.counted.usage).toString('base64')]);
    const summary = sessionJson(session, pages);
    sessionSummaries[rank] = summary;
    return sha256Hex(
      JSON.stringify({
        stamp,
        cache: sink.cacheGeneration,
        files,
        counted,
        page,
        summary,
        // Links to other sessions: their titles and pages, as the page shows them.
        links: [session.origin, ...session.countedIn, ...session.copies, neighbours.get(session.key)?.previous ?? null, neighbours.get(session.key)?.next ?? null].map((link) =>
          link === null ? null : [link.key, link.title, pages.hasSession(link.key) ? pages.session(link.key) : null],
        ),
        subagents: session.subagents.map((s) => [s.key, s.label]),
        project: [projectNames.get(session.projectKey), pages.project(session.projectKey)],
        scope,
        zone: options.scope.timeZone,
        pricing,
        generator,
        highlight: sessionHighlightBudget(rank).left,
      }),
    );
  };
  let sessionsKept = 0;
  // Each session's search items go to disk as it is done; the index is written from there at the end.
  const spool = await openSearchSpool(folder.staging);
  const progress = progressCounter('wrote the pages of', data.sessions.length, 'sessions', options.progress);
  let pageBytes = 0;

  // Each session's pages: kept as the last build wrote them, carried over (its file is gone), or
  // written from its content, across threads when there is enough of it. What each gives the
  // search index goes to its spool as each is done; what the archive needs is added in the report's
  // order once all are done, whichever finished first.
  type Done =
    | { kind: 'kept'; pages: string[]; search: readonly SessionSearchItem[]; fingerprint: string; samePlace: boolean; bytes: number }
    // `missing`: why some of its pages could not be carried over, or null when all were; `changed`:
    // what of them was cut short or edited since written, carried over as it is, or null.
    | { kind: 'gone'; pages: string[]; search: readonly SessionSearchItem[]; missing: string | null; changed: string | null; bytes: number }
    // Its search items only while the archive still needs them: when a thread did not archive it.
    | { kind: 'written'; pages: string[]; search: readonly SessionSearchItem[]; fingerprint: string | null; archived: readonly SessionKey[] | null; bytes: number }
    // `pages`: the stub saying so, or the pages an earlier build wrote for it, kept.
    | { kind: 'failed'; pages: string[]; search: readonly SessionSearchItem[]; reason: string; fileChanged: boolean };
  const done: Done[] = new Array(data.sessions.length);
  const toWrite: { rank: number; fingerprint: string | null }[] = [];
  // Decided side by side: keeping a page is a few calls to the file system, each waited on.
  await eachAtMost(16, data.sessions, async (session, rank) => {
    const page = pages.session(session.key);
    // Unchanged file, unchanged numbers and links, same code: the pages the last build wrote are these pages.
    const fingerprint = fingerprintOf(session, page, rank);
    const before = fingerprint === null ? undefined : previousByName.get(pathHash(session.key));
    // Pages of another size than written (cut short, edited since), or changed in place since
    // the last build wrote them (a digit edited), are written anew.
    const now = before && before.fingerprint === fingerprint ? await pagesNow(resolve(options.out), before.pages) : null;
    const bytes = now?.bytes ?? null;
    const asWritten = (before?.pageBytes === undefined || before.pageBytes === bytes) && !changedSince(lastLatest.kept, [now?.latest ?? null]);
    if (fingerprint !== null && before && before.fingerprint === fingerprint && bytes !== null && asWritten && sink.archive && (await folder.keep(before.pages))) {
      const source = collected.sourceOf.get(session.key);
      const place = source === undefined ? null : placeOf(source, sink.archive.places);
      const samePlace = source !== undefined && place !== null && before.source === nameOfPath(source) && before.place === nameOfPath(place);
      done[rank] = { kind: 'kept', pages: before.pages, search: before.search, fingerprint, samePlace, bytes };
      // Counted as written ones are: the search index is sized by the whole report, not by what this
      // build wrote of it.
      pageBytes += bytes;
      await spool.add(rank, sessionRows(rank, before.search));
      sessionsKept++;
      progress(0);
      return;
    }
    const kept = keptByKey.get(session.key);
    if (kept && sink.archive) {
      // Its file is gone: the pages an earlier build wrote are carried over, saying so. One that
      // is no longer there cannot be written again: a page in its place says so, so that no link
      // of the report leads nowhere.
      const lastSeen = formatDateTime(kept.lastSeen, time);
      // Kept also while its file is there but holds less than the archive, or no longer reads as
      // it (regression: such a page, lost, was said to be of a file gone).
      const fileGone = session.ledger.fileHoldsLess !== true && session.ledger.fileThere !== true;
      const fileSaid = session.ledger.fileHoldsLess === true ? 'its file holds less than the archive keeps of it' : fileGone ? 'its file is gone' : 'its file no longer reads as this session';
      const keptPages = kept.pages.length > 0 ? kept.pages : [page];
      // Pages of another size than the last build wrote were edited or cut short since: said
      // once, as they cannot be written again; one cut short (its end gone) on every build.
      const sizeNow = kept.pageBytes === undefined || kept.pages.length === 0 ? null : (await pagesNow(resolve(options.out), kept.pages)).bytes;
      let lost = 0;
      let cutShort = 0;
      let bytes = 0;
      for (const keptPage of keptPages) {
        const old = await folder.previous(keptPage);
        // bough's own page in place of one it could not write is no page kept: still lost.
        if (old !== null && !old.includes(NOT_WRITTEN_MARK)) {
          const text = old.toString('utf8');
          if (!/<\/html>\s*$/.test(text)) cutShort++;
          const lineage = renderer.partial('partials/lineage', { lineage: lineageView(session, pages) });
          const noted = withLineage(withNeighbours(withGoneNote(text, lastSeen, scope, session.ledger.fileThere === true || session.ledger.fileHoldsLess === true), neighboursNav(keptPage, neighbours.get(session.key), pages)), lineage);
          bytes += Buffer.byteLength(noted);
          await folder.write(keptPage, noted);
          continue;
        }
        lost++;
        const view = failedPageView(session, `the page an earlier build wrote for it is missing from the report folder, and ${fileSaid}${fileGone ? ` (last seen ${lastSeen})` : ''}, so it cannot be written again`, hrefFrom(keptPage, INDEX_PAGE));
        const failed = renderer.render('failed-session', layout(view.title, keptPage), view);
        bytes += Buffer.byteLength(failed);
        await folder.write(keptPage, failed);
      }
      pageBytes += bytes;
      const which = lost < keptPages.length ? `${lost} of its ${keptPages.length} pages` : keptPages.length === 1 ? 'its page' : `its ${keptPages.length} pages`;
      const missing = lost === 0 ? null : `${which}, written by an earlier build, ${lost === 1 ? 'is' : 'are'} missing from the report folder, and ${fileSaid}, so ${lost === 1 ? 'it' : 'they'} cannot be written again`;
      const pagesSaid = keptPages.length === 1 ? 'its page' : `its ${keptPages.length} pages`;
      // The pages' sizes are known only together: an edit is said of the session's pages, not of one.
      const edited = keptPages.length === 1 ? 'its page was edited since an earlier build wrote it' : `one or more of its ${keptPages.length} pages were edited since an earlier build wrote them`;
      const changed =
        cutShort > 0 ? `${cutShort < keptPages.length ? `${cutShort} of its ${keptPages.length} pages` : pagesSaid}, written by an earlier build, ${cutShort === 1 ? 'is' : 'are'} cut short in the report folder, and ${fileSaid}, so ${cutShort === 1 ? 'it' : 'they'} cannot be written again: kept as ${cutShort === 1 ? 'it is' : 'they are'}`
        : lost === 0 && sizeNow !== null && sizeNow !== kept.pageBytes ? `${edited} (${sizeNow.toLocaleString('en-US')} bytes, written as ${(kept.pageBytes as number).toLocaleString('en-US')}), and ${fileSaid}, so ${keptPages.length === 1 ? 'it' : 'they'} cannot be written again: kept as ${keptPages.length === 1 ? 'it is' : 'they are'}`
        : null;
      done[rank] = { kind: 'gone', pages: keptPages, search: kept.search, missing, changed, bytes };
      await spool.add(rank, sessionRows(rank, kept.search));
      progress(0);
      return;
    }
    toWrite.push({ rank, fingerprint });
  });
  toWrite.sort((a, b) => a.rank - b.rank);

  const sizeOf = (session: SessionData) => [session, ...session.subagents].reduce((sum, part) => sum + part.ledger.size, 0);
  const bytesToWrite = toWrite.reduce((sum, { rank }) => sum + sizeOf(data.sessions[rank] as SessionData), 0);
  progress.expect(bytesToWrite);
  const setup: PagesSetup = {
    templates,
    table,
    pricing: { subscriptionsAtApiPrices: options.priceSubscriptions ?? false, local: report.local },
    pages: pages.lists,
    time,
    scope: data.scope,
    scopeLabel: scope,
    generator,
    share: sink.contentSharer.options,
    staging: folder.staging,
    archive: archiving,
  };
  const big = toWrite.filter(({ rank }) => sizeOf(data.sessions[rank] as SessionData) >= BIG_FILE_BYTES).length;
  const threads = threadsFor(sink.threads, bytesToWrite, toWrite.length, big);
  const here = pagesJob(setup);
  const pool: Pool<PagesTask, PagesWritten> | null = threads > 0 ? openPool(PAGES_WORKER, threads, { kind: 'pages', setup }, here, { big: big > 0 }) : null;
  const threadLanes = Array.from({ length: threads * TASKS_PER_THREAD }, (): PagesJob => (task) => (pool as Pool<PagesTask, PagesWritten>).run(task));
  const lanes: PagesJob[] = pool ? [here, ...threadLanes] : [here];
  try {
    // Biggest first on threads, so that no big session starts last while the others idle.
    const order = pool ? [...toWrite].sort((a, b) => sizeOf(data.sessions[b.rank] as SessionData) - sizeOf(data.sessions[a.rank] as SessionData) || a.rank - b.rank) : toWrite;
    // With threads, a big session is written on one of them, whose heap can hold it, never here.
    const accepts = (job: PagesJob, { rank }: { rank: number }) => !pool || job !== here || sizeOf(data.sessions[rank] as SessionData) < BIG_FILE_BYTES;
    await eachOnLanes(lanes, order, async (job, { rank, fingerprint }) => {
      const session = data.sessions[rank] as SessionData;
      const page = pages.session(session.key);
      const parts = [session, ...session.subagents];
      let searchRows = sessionRows(rank, []);
      try {
        const written = await job({
          session,
          files: parts.map((part) => [part.key, keptByKey.has(part.key) ? { source: null, real: null } : fileOf(part.key)]),
          projectName: projectNames.get(session.projectKey) ?? '',
          neighbours: neighbours.get(session.key) ?? { previous: null, next: null },
          rank,
          fingerprint,
          // A part kept from an earlier build is archived by the build, from what it kept.
          archive: parts.every((part) => !keptByKey.has(part.key)),
          keptTranscripts: await transcriptsKeptFor(session),
        });
        folder.adopt([...written.pages, ...(written.archived ?? []).map(({ key }) => archivedLedgerPath(key))]);
        if (written.archived) recordSpool?.add(rank, written.archived.map(({ record }) => record));
        pageBytes += written.bytes;
        done[rank] = { kind: 'written', pages: written.pages, search: written.search ?? [], fingerprint, archived: written.archived?.map(({ key }) => key) ?? null, bytes: written.bytes };
        searchRows = written.rows;
      } catch (error) {
        // A full disk (or one failing) is the build's: it fails (said with the report's folder, see
        // build), and leaves the last report as it was, rather than publish this page as failed
        // and keep it so at every later build.
        if (systemTrouble(error) !== null) throw error;
        // One session's page failing costs that page only: it says what failed, the data-quality page lists it.
        // A thread that died part-way (out of memory) could not take back what it wrote.
        removeStagedSession(folder.staging, page, parts.map((part) => part.key));
        const reason = sharer.text(messageOf(error));
        const fileChanged = messageOf(error) === FILE_CHANGED;
        // The pages an earlier build wrote for it say more than a page saying it failed (its file
        // vanished while read, as Claude Code's clean-up does): kept, with a note, where all are there.
        const before = writtenByName.get(pathHash(session.key));
        const earlier = before?.pages.includes(page) ? await Promise.all(before.pages.map(async (p) => [p, await folder.previous(p)] as const)) : [];
        if (before && earlier.length > 0 && earlier.every(([, html]) => html !== null)) {
          for (const [p, html] of earlier) await folder.write(p, withUnwrittenNote((html as Buffer).toString('utf8'), reason));
          searchRows = sessionRows(rank, before.search);
          done[rank] = { kind: 'failed', pages: before.pages, search: before.search, reason, fileChanged };
        } else {
          const view = failedPageView(session, reason, hrefFrom(page, INDEX_PAGE));
          await folder.write(page, renderer.render('failed-session', layout(view.title, page), view));
          done[rank] = { kind: 'failed', pages: [page], search: [], reason, fileChanged };
        }
      }
      // Outside the page's own failure: a spool that cannot be written is the build's (a full disk), not this page's.
      await spool.add(rank, searchRows);
      progress(sizeOf(session));
    }, accepts);
  } finally {
    await pool?.close();
  }

  const pageFailures: Diagnostic[] = [];
  for (const [rank, session] of data.sessions.entries()) {
    const outcome = done[rank] as Done;
    if (outcome.kind === 'failed') pageFailures.push(diagnostic('page-failed', session.ledger.path, null, `its page could not be written: ${outcome.reason}`));
    if (outcome.kind === 'gone' && outcome.missing !== null) pageFailures.push(diagnostic('page-failed', session.ledger.path, null, outcome.missing));
    if (outcome.kind === 'gone' && outcome.changed !== null) pageFailures.push(diagnostic('page-changed', session.ledger.path, null, outcome.changed));
  }
  // Each session's archive, in the report's order (the same file from the same sessions, however
  // the threads went): its line of the records file (see archive.ts), its ledger file kept or written.
  const records = archiving && folder.openLines(RECORDS_PATH);
  try {
    records?.add(RECORDS_HEAD);
    for (const [rank, session] of data.sessions.entries()) {
      if (!records) break;
      const outcome = done[rank] as Done;
      if (outcome.kind === 'written' && outcome.archived !== null) {
        // Archived beside its pages.
        for (const line of recordSpool?.take(rank) ?? []) records.add(line);
        for (const key of outcome.archived) seen.push({ name: pathHash(key), lastSeen: options.now.getTime() });
        continue;
      }
      // A file rewritten while its page was made: what this build read of it is archived with no
      // page to show it, and a next build finding the file holding less would keep it so for good
      // (regression: "its file is gone, so it cannot be written again", the file there). The
      // archive keeps what an earlier build had of it, if any; a next build reads the file anew.
      if (outcome.kind === 'failed' && outcome.fileChanged) {
        if (!previousByName.has(pathHash(session.key))) continue;
        for (const sub of session.subagents) await archiveEntry(records, sub.ledger, [], [], null, true);
        await archiveEntry(records, session.ledger, outcome.pages, outcome.search, null, true);
        continue;
      }
      const unchanged = outcome.kind === 'kept' && outcome.samePlace;
      for (const sub of session.subagents) await archiveEntry(records, sub.ledger, [], [], null, unchanged);
      if (outcome.kind === 'kept') await archiveEntry(records, session.ledger, outcome.pages, outcome.search, outcome.fingerprint, outcome.samePlace, outcome.bytes);
      else if (outcome.kind === 'gone') await archiveEntry(records, session.ledger, outcome.pages, [], null, false, outcome.bytes);
      else if (outcome.kind === 'written') await archiveEntry(records, session.ledger, outcome.pages, outcome.search, outcome.fingerprint, false, outcome.bytes);
      else await archiveEntry(records, session.ledger, outcome.pages, outcome.search);
    }
  } finally {
    recordSpool?.close();
  }
  // The pages this report's sessions have: an earlier build's page kept for a record that did not read is none of these.
  const usedPages = new Set(done.flatMap((outcome) => outcome.pages));
  const archiveProblems = sink.archive && records ? await keepUnreadable(sink.archive.unreadable, sink.archive.sharing, folder, records, seen, time, usedPages) : [];
  const readNow = new Set(collected.ledgers.flatMap((ledger) => (keptByKey.has(ledger.key) ? [] : [pathHash(ledger.key)])));
  const carriedUnseen = sink.archive && records && archiving ? await carryOver(sink.archive.carried, { folder, records, seen, usedPages, readNow, now: archiving.now }) : [];
  records?.close();
  // The index stays under about a tenth of the report: prompts and files always, replies while they fit.
  if (sink.archive) {
    const file = seenFile(seen);
    await folder.write(file.path, file.content);
  }
  const searchSessions = data.sessions.map((session) => ({
    title: session.ledger.title,
    project: projectNames.get(session.projectKey) ?? '',
    day: formatDay(session.startedAt, time),
    page: pages.session(session.key),
    listed: !session.warmupOnly,
  }));
  await spool.writeIndex(searchSessions, Math.max(200_000, Math.round(pageBytes * 0.08)), (file) => folder.write(file.path, file.content));
  const allDiagnostics = [...collected.diagnostics, ...pageFailures, ...archiveFailures, ...archiveProblems, ...(sink.archive?.otherSecret ?? [])];
  const diagnosticsSummary = summariseDiagnostics(allDiagnostics, collected.candidates + compressedFound(report.discovery).length, countedLedgers(collected.ledgers, data), collected.cutShort, collected.warmupMainFiles.size);
  // A report made to share and asked for one period, project or agent lists the problems of the
  // files it shows only: another's path, and the start of its damaged line, are from outside it.
  const shownFiles = options.redact && isNarrowed(options.scope) ? sessionPagesOfFiles(data, pages) : null;
  const diagnosticList = inFileOrder(shownFiles === null ? allDiagnostics : allDiagnostics.filter((d) => shownFiles.has(d.file) || REPORT_FOLDER_PROBLEMS.has(d.reason)));
  const withheld = allDiagnostics.reduce((sum, d) => sum + (d.count ?? 1), 0) - diagnosticList.reduce((sum, d) => sum + (d.count ?? 1), 0);
  overview.diagnostics = diagnosticsSummary;
  for (const project of data.projects) {
    const page = pages.project(project.key);
    const view = projectPageView(project, data, overview);
    await folder.write(page, renderer.render('project', layout(view.title, page), view));
  }
  await folder.write(INDEX_PAGE, renderer.render('index', layout('Overview', INDEX_PAGE), indexPageView(data, overview)));
  await folder.write(
    DATA_QUALITY_PAGE,
    renderer.render('data-quality', layout('Data quality', DATA_QUALITY_PAGE), dataQualityView(diagnosticList, overview, data, withheld)),
  );
  for (const [path, asset] of await loadAssets()) await folder.write(`assets/${path}`, asset);
  const summary = summaryOf(data, {
    pages,
    sessions: sessionSummaries,
    generator: { name: 'bough', version },
    // The bundled samples, not this machine's sessions: a script reading the totals can tell.
    samples: sink.archive === null,
    // Redacted once, for the pages: the count of what was redacted counts it once.
    prices: { source: 'litellm', snapshot: overview.pricesLabel, date: table.snapshot.date, origin: table.snapshot.origin },
    diagnostics: diagnosticsSummary,
    diagnosticList,
    sharing: { redacted: options.redact ?? false, redactions: Object.fromEntries(byCount(sharer.redactions)), omitted: [...new Set(options.omit ?? [])] },
  });
  await folder.write('summary.json', summaryText(summary));
  // What a later build needs to tell that nothing changed, and to say when it was built: last, so
  // that it can vouch for the files written before it.
  if (sink.archive && sink.archive.inputs !== null) {
    const gone = [...keptByKey.keys()].map(pathHash).sort();
    const seenNames = new Set(seen.map((s) => s.name));
    const unreadable = sink.archive.unreadable.flatMap((u) => (u.name !== null && u.lastSeen !== null && seenNames.has(u.name) ? [u.name] : [])).sort();
    const record = buildRecordFile({
      inputs: sink.archive.inputs,
      generated: overview.generated,
      sessionFiles: collected.ledgers.length - keptByKey.size,
      gone,
      unreadable,
      carried: carriedSessions.sessions,
      carriedWarmupStarts: carriedSessions.warmupStarts,
      carriedUnseen,
      standing: sink.archive.standing,
      // The overview files too: a usage.csv saved by a spreadsheet, or a page edited, is not kept as the report.
      trusted: await trustedHashes(folder, ['summary.json', RECORDS_PATH, 'usage.csv', INDEX_PAGE, DATA_QUALITY_PAGE, ...summary.projects.map((project) => project.page), ...[...gone, ...unreadable].map(ledgerPath)]),
      ledgers: { ...filesAndBytes(folder.currentSizes(isLedgerPath).values()), ...latestOf(folder.currentLatest(isLedgerPath)) },
      kept: { ...filesAndBytes(folder.currentSizes(isKeptAsIs).values()), ...latestOf(folder.currentLatest(isKeptAsIs)) },
    });
    await folder.write(record.path, record.content);
  }
  return { summary, sessionsKept, sessionsCarried: carriedSessions };
}

/** summary.json's text, in pieces (tens of MB for a long history), ending with a newline. */
function* summaryText(summary: Summary): Generator<string> {
  yield* prettyJsonPieces(summary);
  yield '\n';
}

const NO_SESSIONS: SessionCount = { sessions: 0, warmupStarts: 0 };

/**
 * The sessions among archived files: those with pages (a sub-agent's file, archived apart, has
 * none of its own), a start of Claude Code never given a prompt (its warmups alone) apart.
 */
function sessionsOf(archived: readonly ArchivedPages[]): SessionCount {
  const hosts = archived.filter((a) => a.pages.length > 0);
  const warmupStarts = hosts.filter((a) => a.warmupStart === true).length;
  return { sessions: hosts.length - warmupStarts, warmupStarts };
}

/**
 * The places searched: an archived session's file is told gone only under one of them. Each also
 * by its real path, where it is a link or under one: a folder given through a link and then as
 * itself (or the other way) holds the files it held. An agent's default folder that is gone (the
 * agent uninstalled, `rm -rf ~/.claude`) is searched too while another's is there: its sessions'
 * files are gone with it, the very history the archive keeps (they left every total, said only as
 * "also keeps"). With none of them there (a home the archive was not built from), none is; nor
 * in a report that redacts, which names places as redacted: another home's `~/.claude/projects`
 * is named alike, and its archived sessions were shown as this user's gone ones.
 */
async function searchedPlaces(discovery: Discovery, redact: boolean): Promise<string[]> {
  const someThere = discovery.places.some((p) => p.exists);
  const given = discovery.places.filter((p) => p.exists || (discovery.usedDefaults && someThere && !redact)).map((p) => p.path);
  const real = await Promise.all(given.map((path) => realpath(path).catch(() => path)));
  return [...new Set([...given, ...real])];
}

/** How a report shares, as its archive records it: a session archived one way is not kept by a build that shares another. */
function sharingOf(redact: boolean, omit: readonly OmitKind[]): string {
  return `redact:${redact};omit:${[...new Set(omit)].sort().join(',')}`;
}

/** Sharing as a build that neither redacts nor omits anything: the only one that keeps files it cannot read. */
const PLAIN_SHARING = sharingOf(false, []);
/** How the sharing of a build that redacts begins. */
const REDACTING_SHARING = 'redact:true;';

/**
 * Archive records and files an earlier build wrote that do not read right now, each said on the
 * data-quality page. They are kept as they were (a record's line carried into the records file,
 * with the files and pages they name, and when their file was last seen), so that a backup can
 * still be put back and every build says so again until --forget-missing; but not in a report
 * that redacts or omits, which keeps nothing it cannot vouch for.
 */
async function keepUnreadable(
  unreadable: readonly UnreadableArchive[],
  sharing: string,
  folder: ReportFolder,
  records: LinesFile,
  seen: { name: string; lastSeen: number }[],
  time: TimeFormat,
  usedPages: ReadonlySet<string>,
): Promise<Diagnostic[]> {
  const problems: Diagnostic[] = [];
  const seenNames = new Set(seen.map((s) => s.name));
  // The earlier build's session pages by the hash their names end with: looked up once per entry, not searched.
  let pagesBefore: Map<string, string[]> | null = null;
  const earlierPages = () => (pagesBefore ??= sessionPagesByHash(folder.previousFiles));
  let othersKept = false;
  let anyPageKept = false;
  for (const entry of unreadable) {
    const { name } = entry;
    let keptFiles = false;
    /** The session, when its record did not read but its ledger file does. */
    let ledger: SessionLedger | null = null;
    let pagesKept = 0;
    if (sharing === PLAIN_SHARING) {
      if (entry.record !== null) {
        records.add(entry.record);
        keptFiles = true;
      }
      // An earlier build's record file that did not read is kept as the file it is.
      const files = name === null ? [] : [...(entry.record === null ? [olderRecordPath(name), oldestRecordPath(name)] : []), ledgerPath(name)];
      // One by one: a page this build wrote itself is not overwritten by an old one.
      // A ledger file lost is still the archive's: one put back from a backup is read again.
      for (const path of files) {
        if (await folder.keep([path])) keptFiles = true;
        else if (path === ledgerPath(name as string)) folder.expect(path);
      }
      for (const path of entry.pages) {
        if (!(await folder.keep([path]))) continue;
        keptFiles = true;
        anyPageKept = true;
      }
      if (!entry.recordRead && name !== null) {
        // Which pages were its is in the record that did not read: the earlier build's session
        // pages no session of this report has are kept, those named as its own when its ledger
        // reads. (A record too damaged to name its session is said alone: a session whose file is
        // gone is named by seen.json or its ledger file too, and said by that name.)
        const bytes = await folder.previous(ledgerPath(name));
        ledger = bytes === null ? null : archivedLedgerOf(bytes, name);
        const stem = ledger === null ? null : `-${sessionPageStem(ledger)}`;
        const candidates = stem === null ? (othersKept ? [] : [...earlierPages().values()].flat()) : (earlierPages().get(stem.slice(-6)) ?? []).filter((path) => path.includes(stem));
        if (stem === null) othersKept = true;
        for (const path of candidates) if (!usedPages.has(path) && (await folder.keep([path]))) pagesKept++;
        if (pagesKept > 0) keptFiles = anyPageKept = true;
      }
      if (keptFiles && name !== null && entry.lastSeen !== null && !seenNames.has(name)) {
        seen.push({ name, lastSeen: entry.lastSeen });
        seenNames.add(name);
      }
    }
    const page = entry.pages[0];
    const named = ledger === null ? '' : ` of the session “${ledger.title}” (${ledger.path})`;
    const what = entry.wholeFile
      ? 'the archive\'s records file is of another format (written by another version of bough), so what it held of sessions whose files are gone is not known here; those that seen.json or their ledger files name are said apart'
      : page === undefined
        ? `an archive record${named} could not be read, damaged or written by another version of bough: if it held a session whose file is gone, that session is left out of this report`
        : entry.lastSeen === null
          ? `when the file of the session of ${page} was last seen is not in this file (damaged, or written by another version of bough): if that file is gone, the session is left out of this report`
          : `the archive of a session whose file is gone (last seen ${formatDateTime(entry.lastSeen, time)}, its page ${page}) could not be read, damaged or written by another version of bough: its numbers are left out of this report`;
    const keptWhat = ledger !== null && pagesKept > 0 ? `its files and ${plural(pagesKept, 'page')} of it are` : 'its files are';
    const others = ledger === null && pagesKept > 0 ? ` (with the earlier build's ${plural(pagesKept, 'session page')} that no session of this report uses, in case one of them is its)` : '';
    const files = entry.wholeFile
      ? '; this build writes a records file of its own in its place'
      : keptFiles
      ? `; ${keptWhat} kept as they were${others}, for a backup to be put back (--forget-missing drops them)`
      : sharing === PLAIN_SHARING
        ? ''
        : '; a report that redacts or omits keeps no file it cannot read, so its files are not kept';
    problems.push(diagnostic('archive-unreadable', entry.file, entry.line, `${what}${files}`));
  }
  if (anyPageKept) await keepProjectPages(folder);
  return problems;
}

/**
 * What the archive held, archived the way this build shares, that this report does not show (a
 * session outside its period, project, agents or inputs, whose file may be gone by the next
 * build): kept as it was, its record, ledger file and pages, so that a report made for one month
 * does not cost the archive the others. A page this build wrote for a session of its own is this
 * build's. Returns the names of those whose files this build did not read: when they were last
 * seen stays.
 */
async function carryOver(
  carried: readonly ArchivedPages[],
  into: { folder: ReportFolder; records: LinesFile; seen: { name: string; lastSeen: number }[]; usedPages: ReadonlySet<string>; readNow: ReadonlySet<string>; now: number },
): Promise<string[]> {
  const { folder, records, seen, usedPages, readNow, now } = into;
  const unseen: string[] = [];
  for (const entry of carried) {
    const pages = entry.pages.filter((page) => !usedPages.has(page));
    // One by one: one file missing from the folder costs that file, not the others.
    for (const path of [ledgerPath(entry.name), ...pages]) await folder.keep([path]);
    records.add(recordLine({ ...entry, pages }));
    const seenNow = readNow.has(entry.name);
    seen.push({ name: entry.name, lastSeen: seenNow ? now : entry.lastSeen });
    if (!seenNow) unseen.push(entry.name);
  }
  if (carried.some((entry) => entry.pages.length > 0)) await keepProjectPages(folder);
  return unseen.sort();
}

/**
 * A page kept from the last build links to its project's page, which this report may not write
 * (a narrower one, or one whose archive of that session did not read): the last build's project
 * pages are kept (one this build writes replaces it), so that no link of a kept page leads nowhere.
 */
async function keepProjectPages(folder: ReportFolder): Promise<void> {
  for (const path of folder.previousFiles) if (PROJECT_PAGE.test(path)) await folder.keep([path]);
}

const PROJECT_PAGE = /^projects\/[^/]+\.html$/;

/** What a build's sharing (see sharingOf) does, in words: "redacts and omits thinking". */
function sharingWords(sharing: string): string {
  const redacts = /^redact:true;/.test(sharing);
  const omits = /;omit:(.*)$/.exec(sharing)?.[1]?.split(',').filter(Boolean) ?? [];
  if (!redacts && omits.length === 0) return 'neither redacts nor omits';
  return [...(redacts ? ['redacts'] : []), ...(omits.length > 0 ? [`omits ${omits.join(', ')}`] : [])].join(' and ');
}

/**
 * Said while the report holds sessions kept under another entry-key secret (see build). Paths
 * made fit to share by `shown` only when said: a redaction counted is one the report shows.
 */
function otherSecretWarning(files: number, outPath: string, configPath: string, shown: (text: string) => string): string[] {
  if (files === 0) return [];
  const [outDir, configDir] = [shown(outPath), shown(configPath)];
  const [were, its, it] = files === 1 ? ['was', 'its', 'it'] : ['were', 'their', 'them'];
  return [
    `${plural(files, 'session file')} kept from ${outDir}'s archive (gone, or cut short) ${were} archived with another entry-key secret (on another machine, or before the secret in ${configDir} was replaced): a copy of ${its} entries in a file read now (a resumed session, a fork, the file moved) cannot be told from ${it}, and counts them again.`,
  ];
}

/** Why a build that shares one way will not write into a folder whose archive holds sessions shared another, and what to do. */
function strandedSentence(outDir: string, stranded: readonly ArchivedPages[], sharing: string): string {
  const ways = [...new Set(stranded.map((a) => sharingWords(a.sharing)))].join(', or ');
  const them = stranded.length === 1 ? 'it' : 'them';
  return (
    `${outDir} holds the archive of an earlier build that ${ways}, with ${plural(stranded.length, 'session file')} this build would not write again ` +
    `(gone, or outside this build's inputs, period, project or agents). This build ${sharingWords(sharing)}: ` +
    `it can neither keep ${them} in the same folder nor drop ${them} unasked. Write this report to another folder (--out), or pass --forget-missing to drop ${them} ` +
    `(for a session whose file is gone, the archive holds the only copy: build as before to keep ${them}).`
  );
}

function lessNowSentence(outDir: string, lessNow: readonly ArchivedPages[], sharing: string): string {
  const ways = [...new Set(lessNow.map((a) => sharingWords(a.sharing)))].join(', or ');
  const [hold, them, they] = lessNow.length === 1 ? ['holds', 'it', 'it is'] : ['hold', 'them', 'they are'];
  return (
    `${outDir} holds the archive of an earlier build that ${ways}, and ${plural(lessNow.length, 'session file')} ${hold} less than, or other than, when it archived ${them} ` +
    `(cut short, an older copy put back, or another session written at ${lessNow.length === 1 ? 'its' : 'their'} path). This build ${sharingWords(sharing)}: it cannot keep what the archive holds of ${them} ` +
    `beside its own pages, nor drop it unasked. Build as before to keep it, write this report to another folder (--out), or pass --forget-missing to show ${them} as ${they} now.`
  );
}

/** Session pages (`sessions/<day>-<id>-<hash>[-n][-part-n].html`) by the hash of their file's path their names end with. */
function sessionPagesByHash(paths: readonly string[]): Map<string, string[]> {
  const byHash = new Map<string, string[]>();
  for (const path of paths) {
    const hash = /^sessions\/[^/]+-([0-9a-f]{6})(?:-\d+)?(?:-part-\d+)?\.html$/.exec(path)?.[1];
    if (hash === undefined) continue;
    const list = byHash.get(hash);
    if (list) list.push(path);
    else byHash.set(hash, [path]);
  }
  return byHash;
}

/**
 * The run's warning about `count` archive records and files that did not read right, or none. A
 * damaged line may or may not have held a session: they are counted as what they are, records.
 */
/**
 * Session files the archive keeps more of than they hold now: cut short (or an older copy put
 * back), or no longer read as their session (emptied, damaged); said of the report folder `out`.
 */
function standingWarnings({ cutShort, noLongerRead }: StandingCounts, out: string): string[] {
  const [holds, it, its, is] = cutShort === 1 ? ['holds', 'it', 'its', 'it is'] : ['hold', 'them', 'their', 'they are'];
  return [
    cutShort === 0 ? '' : `${plural(cutShort, 'session file')} ${holds} less than when ${out} archived ${it} (cut short, a line damaged since, or an older copy put back): ${its} pages are kept as archived, and say so, and the lists mark ${it} "file holds less". Build with --forget-missing to show ${it} as ${is} now.`,
    noLongerRead === 0
      ? ''
      : `${plural(noLongerRead, 'session file')} ${noLongerRead === 1 ? 'is' : 'are'} still there but no longer ${noLongerRead === 1 ? 'reads' : 'read'} as the session ${out} archived (emptied, damaged or unreadable: the data-quality page says why): ${noLongerRead === 1 ? 'its pages are' : 'their pages are'} kept as archived, and say so. Build with --forget-missing to drop ${noLongerRead === 1 ? 'it' : 'them'}.`,
  ].filter((warning) => warning !== '');
}

/** Files a warning is about, by their paths as the report shows them: the first few, and how many more. */
function filesNamed(paths: readonly string[], shown: (text: string) => string): string {
  const named = paths.slice(0, FILES_NAMED).map(shown).join(', ');
  return paths.length > FILES_NAMED ? `${named} and ${paths.length - FILES_NAMED} more` : named;
}
const FILES_NAMED = 3;

function unreadableWarning(count: number, archivePath: string, shown: (text: string) => string): string[] {
  if (count === 0) return [];
  const archiveDir = shown(archivePath);
  const them = count === 1 ? 'it' : 'them';
  return [
    `${plural(count, 'record')} of the archive in ${archiveDir} could not be read (damaged, or written by another version of bough): what ${count === 1 ? 'it holds' : 'they hold'} of sessions whose files are gone is left out of this report's totals, and the data-quality page lists ${them}. Put ${them} back from a backup of the report folder (a record another version of bough wrote is read by that version only: build with it), or pass --forget-missing to drop ${them}.`,
  ];
}

/** The session template's links to a session's neighbours, from `page`, as this report has them: for a kept page. */
function neighboursNav(page: string, neighbours: { previous: SessionLink | null; next: SessionLink | null } | undefined, pages: PageMap): string {
  const link = (other: SessionLink | null, rel: string, text: string) =>
    other !== null && pages.hasSession(other.key) ? `<a rel="${rel}" href="${escapeHtml(hrefFrom(page, pages.session(other.key)))}" title="${escapeHtml(other.title)}">${text}</a>` : '';
  const links = [link(neighbours?.previous ?? null, 'prev', '← earlier session'), link(neighbours?.next ?? null, 'next', 'later session →')].filter(Boolean);
  return links.length === 0 ? '' : `<nav class="neighbours" aria-label="Sessions of this project">\n${links.join('\n')}\n</nav>\n`;
}

/**
 * The index's first line: when, by what, from how many files; and what else the folder keeps
 * (pages not linked from this report, which whoever is sent the folder gets too).
 */
function generatedSentence(options: BuildOptions, generator: string, files: number, gone: number, carried: SessionCount): string {
  const when = formatDateTime(options.now.getTime(), { timeZone: options.scope.timeZone });
  const kept = gone > 0 ? `, with ${plural(gone, 'session file')} gone or no longer read since an earlier build kept from it` : '';
  const many = carried.sessions + carried.warmupStarts;
  const archive = many > 0 ? ` This folder's archive also keeps ${sessionsSaid(carried)} this report does not show (with ${many === 1 ? 'its pages' : 'their pages'}), for later builds into it.` : '';
  return `Generated ${when} (${options.scope.timeZone}) by ${generator} from ${plural(files, 'session file')}${kept}.${archive}`;
}

/**
 * Everything the report is made from, as one hash: every file found (as the cache identifies it:
 * path, size, time, both ends), where bough looked and what it could not search, the options,
 * bough's code, the prices and what runs locally. Null when a file could not be identified. With
 * the cache folder's id: an identity misses an edit in the middle of a file that kept its size and
 * time, and deleting the cache, to read every file anew, must then rebuild the report too.
 */
function inputsOf(discovery: Discovery, identities: ReadonlyMap<string, string | null>, options: BuildOptions, codeStamp: string, { table, local }: PricingInputs, cacheGeneration: string | null, keyCheck: string | null): string | null {
  if (discovery.files.length === 0) return null;
  const files = discovery.files.map((path) => [path, identities.get(path) ?? null]);
  if (files.some(([, identity]) => identity === null)) return null;
  return inputsPrint({
    // bough's version is part of it.
    code: codeStamp,
    cache: cacheGeneration,
    files,
    places: discovery.places,
    notes: discovery.diagnostics,
    scope: options.scope,
    redact: options.redact ?? false,
    home: options.redact ? options.environment.home : null,
    resolvedHome: options.redact ? resolvedHome(options.environment.home) : null,
    omit: [...new Set(options.omit ?? [])].sort(),
    forgetMissing: options.forgetMissing ?? false,
    pricing: pricingPrint(table, local, options),
    // Another secret matches what the archive holds otherwise (regression: after the secret
    // changed, the report of the last build was kept, its totals and archive those of the other).
    keys: keyCheck,
  });
}

/** Everything a price on a page comes from: the table, what runs locally, and how subscriptions are priced. */
function pricingPrint(table: PriceTable, local: PricingInputs['local'], options: BuildOptions): unknown {
  // Each home's configuration, not which folders lie in which home: a page's file says that, and a
  // day's new folder of rollouts must not make every page's print another.
  const configured = local.map(([source, { machine, homes }]) => [source, { machine, homes }]);
  return { snapshot: table.snapshot, entries: sha256Hex(JSON.stringify([...table.entries])), local: configured, priceSubscriptions: options.priceSubscriptions ?? false };
}

/** Why a run read no session; `read`: what reading the files found (an unreadable file says why). */
export function noSessionsSentence(discovery: Discovery, read: readonly Diagnostic[] = []): string {
  // Where it looked and found something: an agent's folder that is not here holds no file; nor
  // does a compressed file named, said apart.
  const compressedNamed = new Set(discovery.diagnostics.flatMap((d) => (d.reason === 'compressed-file' && discovery.places.some((place) => place.path === d.file) ? [d.file] : [])));
  const found = discovery.places.filter((p) => p.exists && !compressedNamed.has(p.path));
  const where = (found.length > 0 ? found : discovery.places).map((p) => p.path).join(', ');
  const unlisted = unlistedFolders(discovery);
  if (discovery.files.length === 0 && unlisted.length > 0) {
    const [first] = unlisted;
    const others = unlisted.length > 1 ? `, nor ${plural(unlisted.length - 1, 'other folder')}` : '';
    return `No session files (*.jsonl) found in ${where}: ${first?.file} could not be listed (${first?.detail})${others}. Let bough read it, or point it at another folder.`;
  }
  const compressed = discovery.diagnostics.filter((d) => d.reason === 'compressed-file');
  if (discovery.files.length === 0 && compressed.length > 0) {
    const [first] = compressed;
    // One named itself: said of it, not of a folder.
    if (compressed.length === 1 && discovery.places.some((place) => place.path === first?.file)) return `${first?.file} is ${first?.detail}.`;
    return `No session files (*.jsonl) found in ${where}, only ${compressed.length === 1 ? 'one' : compressed.length} compressed (${first?.file}${compressed.length > 1 ? ', …' : ''}), which bough does not read: ${howToRead(first?.file ?? '')}.`;
  }
  if (discovery.files.length === 0) return `No session files (*.jsonl) found in ${where}. Point bough at a folder of agent sessions.`;
  const unreadable = read.filter((d) => d.reason === 'unreadable-file');
  if (unreadable.length === discovery.files.length) {
    const [first] = unreadable;
    const which = unreadable.length === 1 && first ? `${first.file} could not be read (${first.detail})` : `None of the ${plural(unreadable.length, 'file')} found in ${where} could be read (${first?.detail ?? 'unreadable'}${unreadable.length > 1 ? ', and others' : ''})`;
    return `${which}: nothing to report. Point bough at session files it may read.`;
  }
  // Named with why, as the data-quality page would: "the file is empty", "no agent writes lines like its first".
  const [file] = discovery.files;
  const why = (path: string | undefined) => {
    const said = read.find((d) => d.file === path && d.line === null) ?? read.find((d) => d.file === path);
    return said === undefined ? null : said.detail || DIAGNOSTIC_REASONS[said.reason];
  };
  // A report folder given as an input: what it holds is bough's own, not an agent's.
  const report = discovery.places.some((place) => existsSync(join(place.path, 'summary.json')) && existsSync(join(place.path, MANIFEST)));
  const empty = read.some((d) => d.file === file && d.reason === 'empty-file');
  const hint = report
    ? ' That is a bough report folder: point bough at the agents\' session files, or give it none to read their own folders.'
    : empty
      ? ' Point bough at a folder of agent sessions.'
      : ' See its first lines, or point bough at a folder of agent sessions.';
  if (discovery.files.length === 1 && file !== undefined) {
    const named = discovery.places.filter((place) => !compressedNamed.has(place.path));
    const found = named.length === 1 && named[0]?.path === file ? '' : ` (the one file found in ${where})`;
    const reason = why(file);
    // Compressed under a name that does not say so: said as such, with how to read it.
    const compressedNow = read.find((d) => d.file === file && d.reason === 'compressed-file');
    // Compressed files named beside it are said too, or the run would seem to have passed them by.
    const alsoNamed = compressedNamed.size === 0 ? '' : ` Not read either, being compressed: ${[...compressedNamed].join(', ')}.`;
    if (compressedNow) return `${file}${found} is ${compressedNow.detail}.${alsoNamed}`;
    return `${file}${found} is not a session file bough can read${reason === null ? '' : ` (${reason})`}.${hint}${alsoNamed}`;
  }
  const reason = why(file);
  return `None of the ${plural(discovery.files.length, 'file')} found in ${where} is a session file bough can read (the first, ${file}${reason === null ? '' : `: ${reason}`}).${hint.replace('See its', 'See their')}`;
}

/** Folders discovery could not list: sessions may be in them. */
function unlistedFolders(discovery: Discovery): Diagnostic[] {
  return discovery.diagnostics.filter((d) => d.reason === 'unreadable-folder');
}

/** build.json's `latest`, said where the report keeps any file. */
function latestOf(latest: number | null): { latest?: number } {
  return latest === null ? {} : { latest };
}

/**
 * The size of pages the last build wrote and this one keeps, as they are in the report folder,
 * and the latest time one was written at (null when none is there).
 */
async function pagesNow(outDir: string, pages: readonly string[]): Promise<{ bytes: number; latest: number | null }> {
  let bytes = 0;
  let latest: number | null = null;
  for (const page of pages) {
    const info = await lstat(join(outDir, ...page.split('/'))).catch(() => null);
    if (info === null) continue;
    bytes += info.size;
    if (latest === null || info.mtimeMs > latest) latest = info.mtimeMs;
  }
  return { bytes, latest };
}
