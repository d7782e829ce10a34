// Reads one candidate file: finds its first record, tells the source from that record's content
// (never from the file name), and hands the rest of the file to that source's reader.

import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { notAFile, whyNotFound, whyUnreadable } from '../file-problems.js';
import type { SessionFile } from '../types.js';
import { lineRecords } from './line-records.js';
import { readLines, type RawLine } from './lines.js';
import { isPiHeader, isPiRecord, readPiSession, salvagePiHeader } from './pi/read.js';
import { EMPTY_READ_CONTEXT, type PendingLine, type ReadContext } from './source-input.js';

export type ReadOutcome =
  | { kind: 'session'; file: SessionFile }
  | { kind: 'skipped'; path: string; diagnostics: Diagnostic[] };

/** How far into a file to look for its first record before calling it "not a session". */
const MAX_LINES_BEFORE_FIRST_RECORD = 50;

export async function readSessionFile(path: string, context: ReadContext = EMPTY_READ_CONTEXT): Promise<ReadOutcome> {
  let size: number;
  let mtime: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return skipped(path, 'unreadable-file', notAFile(info));
    size = info.size;
    mtime = info.mtimeMs;
  } catch (error) {
    return skipped(path, 'unreadable-file', await whyNotFound(path, error));
  }
  if (size === 0) return skipped(path, 'empty-file', 'the file is empty');

  const diagnostics: Diagnostic[] = [];
  const lines = untilReadError(readLines(path), path, diagnostics)[Symbol.asyncIterator]();
  try {
    /** Damaged lines before the first record: one of them may be a cut-off header. */
    const damaged: RawLine[] = [];
    for (let n = 0; n < MAX_LINES_BEFORE_FIRST_RECORD; n++) {
      const next = await lines.next();
      if (next.done) break;
      const { records, clean } = lineRecords(next.value, path, isPiRecord, diagnostics);
      const [first, ...rest] = records;
      if (!first) {
        if (next.value.text.trim() !== '') damaged.push(next.value);
        continue;
      }
      const line = next.value.number;
      const input = { context, path, size, mtime, lines: { [Symbol.asyncIterator]: () => lines }, diagnostics };
      if (isPiHeader(first)) {
        const pending: PendingLine[] = rest.length > 0 ? [{ line, records: rest, clean: false }] : [];
        return { kind: 'session', file: await readPiSession({ ...input, header: first, headerLine: line, pending }) };
      }
      if (isPiRecord(first)) {
        // Entries with no header before them: the header line was damaged. Keep the entries.
        const header = salvagePiHeader(damaged.map((d) => d.text), basename(path), first);
        diagnostics.push(
          diagnostic('header-damaged', path, damaged[0]?.number ?? null, `no readable session header; rebuilt from ${header.from}`),
        );
        return {
          kind: 'session',
          file: await readPiSession({ ...input, header: header.record, headerLine: damaged[0]?.number ?? 0, pending: [{ line, records, clean }] }),
        };
      }
      return skipped(path, 'not-a-session', `its first record (${describe(first)}) is not a session header`);
    }
    // A file whose reading failed before any record (not opened, a disk error) is unreadable, not "not a session".
    const failure = diagnostics.find((d) => d.reason === 'unreadable-file');
    if (failure) return { kind: 'skipped', path, diagnostics: [failure] };
    return skipped(path, 'not-a-session', 'no session header in its first lines');
  } finally {
    await lines.return?.(undefined);
  }
}

/** A read error part-way (a disk error, a file truncated while read) ends the file, keeping what was read. */
async function* untilReadError(lines: AsyncIterable<RawLine>, path: string, diagnostics: Diagnostic[]): AsyncGenerator<RawLine> {
  let last = 0;
  try {
    for await (const line of lines) {
      last = line.number;
      yield line;
    }
  } catch (error) {
    // Nothing read at all: the file could not be opened; the whole file is the problem, not a line.
    if (last === 0) diagnostics.push(diagnostic('unreadable-file', path, null, whyUnreadable(error)));
    else diagnostics.push(diagnostic('unreadable-file', path, last + 1, `reading stopped: ${whyUnreadable(error)}`, true));
  }
}

/** A file that is not ours gets one note; its lines' problems are not reported. */
function skipped(path: string, reason: 'not-a-session' | 'empty-file' | 'unreadable-file', detail: string): ReadOutcome {
  return { kind: 'skipped', path, diagnostics: [diagnostic(reason, path, null, detail)] };
}

function describe(record: Record<string, unknown>): string {
  const type = record['type'];
  return typeof type === 'string' ? `type ${JSON.stringify(type.slice(0, 40))}` : 'an object without a type';
}
