// Warnings about the input, collected as values, counted by reason and shown in the report.

/** Why a line or file was skipped, repaired or flagged. Stable strings: they appear in summary.json. */
export const DIAGNOSTIC_REASONS = {
  'invalid-json': 'a line that is not JSON (skipped)',
  'truncated-line': 'a line cut off mid-record (skipped)',
  'glued-objects': 'several records glued on one line (recovered)',
  'partial-line': 'a damaged line of which only some records could be recovered',
  'invalid-utf8': 'bytes that are not UTF-8 (replaced with \uFFFD)',
  'nul-bytes': 'NUL bytes (removed, or the line skipped when nothing else was left)',
  'invalid-record': 'a record whose fields do not have the documented shape (kept without what does not read, or skipped: each line says which)',
  'not-a-record': 'a JSON value that is not a record object (skipped)',
  'unknown-entry-type': 'a record type bough does not know (shown plainly, or skipped where its format says to: each line says which)',
  'unknown-role': 'a message role bough does not know (kept, shown plainly)',
  'duplicate-id': 'an entry id used twice in one file (the later one renamed)',
  'tree-loop': 'an entry whose parent is itself, or a loop of entries naming each other as parents (cut at its first entry, shown as a root)',
  'header-missing-cwd': 'a session header without a working directory',
  'newer-format': 'a session written in a format version newer than bough knows (read as the newest it knows)',
  'header-damaged': 'a session whose header line is damaged (rebuilt from what remained, or from the file name)',
  'oversized-line': 'a line too long to read (skipped)',
  'deep-nesting': 'a record with values nested absurdly deep (those values cut, the rest kept)',
  'invalid-time': 'a timestamp that is not a real date and time (the record goes by another time, as each says)',
  'no-time': 'a session with no readable time anywhere: dated by its file’s last change, which copying or touching it moves',
  'absurd-number': 'a token count or cost no agent could mean (negative, fractional, infinite or absurdly large), left out of the sums',
  'unlikely-count': 'a token count larger than any model’s context in one request (more than 10 million): counted as written, to be checked',
  'inconsistent-usage': 'a usage record whose parts do not add up to its total (the total kept, no part larger than it)',
  'session-failed': 'a session bough could not read at all (the rest of the report is complete)',
  'page-failed': 'a session whose page could not be written (its numbers are counted; its page says what failed)',
  'page-changed': 'a session kept from the archive (its file gone) whose page was cut short or edited since an earlier build wrote it: kept as it is, as it cannot be written again',
  'archive-unreadable': 'an archived session (its file gone) whose archive could not be read: left out of the totals',
  'archive-other-secret': 'a session kept from the archive (its file gone or cut short) whose entries were named with another secret (another machine’s): a copy of them read now counts them again',
  'not-a-session': 'a file that is not a session of a known agent (skipped)',
  'empty-file': 'an empty file (skipped)',
  'unreadable-file': 'a file that could not be read (skipped)',
  'compressed-file': 'a session file compressed (.jsonl.zst, .jsonl.gz): not read',
  'unreadable-folder': 'a folder that could not be listed (any sessions in it were not read)',
  'skipped-link': 'a symbolic link not followed: it leads nowhere, or back into a folder it is in',
  'missing-origin': 'a copied session whose origin file is not among the inputs (its copies counted here)',
  'subagent-not-read': 'a sub-agent whose transcript is not among the files read, or holds fewer of its requests than its session’s file holds copies of: those requests are in no total (copies never count)',
} as const;

export type DiagnosticReason = keyof typeof DIAGNOSTIC_REASONS;

export interface Diagnostic {
  reason: DiagnosticReason;
  file: string;
  /** 1-based line, when the problem is on one line. */
  line: number | null;
  detail: string;
  /** True when the line's content was lost (counted in skippedLines). */
  skippedLine: boolean;
  /**
   * Present on a problem that stands for several: past a file's first MAX_LISTED_PER_FILE, the
   * rest of each reason are one, with their count.
   */
  count?: number;
  /** The time of the record it is of, where that bears on it (a count a report takes only in its period). */
  time?: number;
}

/** A file's problems listed one by one; past this many, the rest are counted by reason. */
export const MAX_LISTED_PER_FILE = 1000;

/**
 * A file's problems as they are found: each counted, the first MAX_LISTED_PER_FILE kept whole,
 * the rest one per reason (and whether the line was lost) with their count. A file of millions of
 * bad lines is then a thousand objects, not millions, and a list that can be spread.
 */
export class FileDiagnostics {
  private readonly listed: Diagnostic[] = [];
  private readonly folded = new Map<string, { first: Diagnostic; count: number }>();

  push(d: Diagnostic): void {
    if (this.listed.length < MAX_LISTED_PER_FILE) {
      this.listed.push(d);
      return;
    }
    const key = `${d.reason}\0${d.skippedLine}`;
    const known = this.folded.get(key);
    if (known) known.count++;
    else this.folded.set(key, { first: d, count: 1 });
  }

  /** The problems listed, then one for each reason's rest. */
  list(): Diagnostic[] {
    // Of many records: no one time is theirs.
    const rest = [...this.folded.values()].map(({ first: { time: _time, ...first }, count }) => ({
      ...first,
      detail: `${count.toLocaleString('en-US')} more of this kind${first.line === null ? '' : ` from line ${first.line} on`}, not listed one by one; the first: ${first.detail}`,
      count,
    }));
    return [...this.listed, ...rest];
  }
}

/**
 * Problems file by file, each file's in the order of its lines (its own, of no line, first): a
 * file's are found in several passes (reading, then its numbers), and a list is read down.
 */
export function inFileOrder(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const own = byFile.get(d.file);
    if (own) own.push(d);
    else byFile.set(d.file, [d]);
  }
  // Stable: problems of one line keep the order they were found in.
  return [...byFile.values()].flatMap((own) => own.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
}

/** How many problems a list of them stands for. */
export function problemCount(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.reduce((n, d) => n + (d.count ?? 1), 0);
}

export function diagnostic(
  reason: DiagnosticReason,
  file: string,
  line: number | null,
  detail: string,
  skippedLine = false,
): Diagnostic {
  return { reason, file, line, detail, skippedLine };
}

export interface DiagnosticsSummary {
  /** Files found: read, or skipped unread (compressed). */
  files: number;
  /** Of them, the files read as sessions. */
  sessionFiles: number;
  /** Session files gone since an earlier build into the report folder, whose sessions it kept. */
  goneFiles: number;
  /** Session files still there that no longer read as the session an earlier build archived (emptied, damaged, unreadable), whose sessions it kept. */
  unreadFiles: number;
  /** Files read that hold no session. */
  skippedFiles: number;
  skippedLines: number;
  byReason: Partial<Record<DiagnosticReason, number>>;
}

/**
 * `ledgers`: one per session file, those kept from an earlier build included (their `lastSeen`
 * set); of those, `cutShort` are of files there still, read now (a file cut short), not gone, and
 * those `fileThere` of files there still that did not read as sessions, not gone either.
 * `warmupMainFiles`: empty files that are part of a session read (Collected.warmupMainFiles).
 */
export function summariseDiagnostics(
  all: readonly Diagnostic[],
  files: number,
  ledgers: readonly { key: string; lastSeen: number | null; fileThere?: true }[],
  cutShort: ReadonlySet<string> = new Set(),
  warmupMainFiles = 0,
): DiagnosticsSummary {
  const kept = ledgers.filter((ledger) => ledger.lastSeen !== null && !cutShort.has(ledger.key));
  const unreadFiles = kept.filter((ledger) => ledger.fileThere === true).length;
  const goneFiles = kept.length - unreadFiles;
  const sessionFiles = ledgers.length - kept.length + warmupMainFiles;
  const byReason: Partial<Record<DiagnosticReason, number>> = {};
  let skippedLines = 0;
  for (const d of all) {
    const count = d.count ?? 1;
    byReason[d.reason] = (byReason[d.reason] ?? 0) + count;
    if (d.skippedLine) skippedLines += count;
  }
  return { files, sessionFiles, goneFiles, unreadFiles, skippedFiles: files - sessionFiles, skippedLines, byReason };
}

/** Why a line was skipped when a record on it is lost (not a record that was never one). */
const LOST_RECORD: ReadonlySet<DiagnosticReason> = new Set<DiagnosticReason>(['invalid-json', 'truncated-line', 'partial-line', 'oversized-line', 'nul-bytes', 'invalid-record']);

/**
 * Whether a record was lost on a line from `from` to `to` (both counted: a damaged line may hold a
 * record that was recovered beside the one lost): the record an entry after it names as its
 * parent may have been on it. Null when no record was lost: nothing to look for.
 */
export function lostLinesBetween(diagnostics: readonly Diagnostic[]): ((from: number, to: number) => boolean) | null {
  const lost = diagnostics.flatMap((d) => (d.line !== null && LOST_RECORD.has(d.reason) ? [d.line] : []));
  return lost.length === 0 ? null : (from, to) => lost.some((line) => line >= from && line <= to);
}
