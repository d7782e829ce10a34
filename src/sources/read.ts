// Reads one candidate file: finds its first record some source reader of the registry claims
// as theirs (by content, never by the file name), and hands the file to that reader.

import { stat } from 'node:fs/promises';
import { diagnostic, FileDiagnostics, type Diagnostic } from '../diagnostics.js';
import { notAFile, whyNotFound, whyUnreadable } from '../file-problems.js';
import { SOURCE_NAMES, type SessionFile } from '../types.js';
import { isPlainObject } from './json-line.js';
import { compressedNote, compressionOfBytes } from './compressed.js';
import { lineRecords } from './line-records.js';
import { readLines, type RawLine } from './lines.js';
import { NotASession } from './not-a-session.js';
import { isAnyRecord, READERS, type SourceReader } from './registry.js';
import type { Recognised } from './source-input.js';

export type ReadOutcome =
  | { kind: 'session'; file: SessionFile }
  | { kind: 'skipped'; path: string; diagnostics: Diagnostic[] };

/**
 * How far into a file to look for a record some agent claims before calling it "not a session":
 * records of types newer than bough may come first, and a file of another kind is still put
 * aside after a few lines.
 */
const MAX_LINES_BEFORE_FIRST_RECORD = 50;
/**
 * Damaged lines (not JSON) are looked past further: a crash or a bad copy can leave hundreds at a
 * file's start, and the session after them is still the user's. A file of another kind is put
 * aside within this much of them.
 */
const MAX_DAMAGED_BYTES_BEFORE_FIRST_RECORD = 16 * 1024 * 1024;
/** Damaged lines kept to rebuild a header from (a cut-off header is among the first). */
const DAMAGED_LINES_KEPT = 50;

export async function readSessionFile(path: string): Promise<ReadOutcome> {
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

  const diagnostics = new FileDiagnostics();
  const lines = untilReadError(readLines(path), path, diagnostics)[Symbol.asyncIterator]();
  try {
    /** Damaged lines before the first record: one of them may be a cut-off header. */
    const damaged: RawLine[] = [];
    /** Records before the first one an agent claims (a type newer than bough): skipped and counted once the file is known. */
    const unclaimed: { line: number; record: Record<string, unknown> }[] = [];
    /** Lines looked at, damaged ones aside (they are counted by their size). */
    let looked = 0;
    let damagedBytes = 0;
    while (looked < MAX_LINES_BEFORE_FIRST_RECORD && damagedBytes < MAX_DAMAGED_BYTES_BEFORE_FIRST_RECORD) {
      const next = await lines.next();
      if (next.done) break;
      const { records, clean } = lineRecords(next.value, path, isAnyRecord, diagnostics);
      if (records.length === 0 && next.value.text.trim() !== '') {
        if (damaged.length < DAMAGED_LINES_KEPT) damaged.push(next.value);
        damagedBytes += next.value.text.length + next.value.oversized + 1;
        continue;
      }
      looked++;
      for (const [index, record] of records.entries()) {
        const claim = recogniser(record);
        if (claim === null) {
          unclaimed.push({ line: next.value.number, record });
          // A record no agent claims before the first one may be a header out of shape (an id that
          // is a number): what remains of it helps rebuild the header, as a damaged line's text does.
          damaged.push({ ...next.value, text: JSON.stringify(record) });
          continue;
        }
        for (const { line, record: skippedRecord } of unclaimed) {
          diagnostics.push(diagnostic('unknown-entry-type', path, line, `${describe(skippedRecord)}, before the session's first known record (skipped)`));
        }
        let file: SessionFile;
        try {
          file = await claim.reader.read({
            path,
            size,
            mtime,
            first: { line: next.value.number, records: records.slice(index), clean, as: claim.as },
            damaged,
            lines: { [Symbol.asyncIterator]: () => lines },
            diagnostics,
          });
        } catch (error) {
          if (error instanceof NotASession) return skipped(path, 'not-a-session', error.why);
          throw error;
        }
        if (untimed(file)) file.diagnostics.push(diagnostic('no-time', path, null, `no record holds a readable time: dated by the file's last change (${new Date(mtime).toISOString()})`));
        return { kind: 'session', file };
      }
    }
    // A file whose reading failed before any record (not opened, a disk error) is unreadable, not "not a session".
    const failure = diagnostics.list().find((d) => d.reason === 'unreadable-file');
    if (failure) return { kind: 'skipped', path, diagnostics: [failure] };
    const [first] = unclaimed;
    if (first) {
      const agents = READERS.map((r) => SOURCE_NAMES[r.source]);
      const kinds = `${agents.slice(0, -1).join(', ')} or ${agents.at(-1)}`;
      // Token counts on lines no agent's format has (other tools' fixtures write them): said, as they are not counted.
      const message = first.record['message'];
      const usage = 'usage' in first.record || (isPlainObject(message) && 'usage' in message) ? ', and its token counts are not counted' : '';
      return skipped(path, 'not-a-session', `no record in its first ${MAX_LINES_BEFORE_FIRST_RECORD} lines is one of ${kinds}: the first is ${describe(first.record)}${usage}`);
    }
    // A session file compressed under a name that does not say so (gzipped in place, renamed).
    const compression = await compressionOfBytes(path);
    if (compression !== null) return skipped(path, 'compressed-file', compressedNote(path, compression));
    return skipped(path, 'not-a-session', 'no session record in its first lines');
  } finally {
    await lines.return?.(undefined);
  }
}

/** A session with something to date and no time to date it by: its header's nor any entry's. */
function untimed(file: SessionFile): boolean {
  return file.startedAt === null && file.entries.length > 0 && file.entries.every((entry) => entry.timestamp === null);
}

/** The agent that claims a record as the start of its file, and as what; null when none does. */
function recogniser(record: Record<string, unknown>): { reader: SourceReader; as: Recognised } | null {
  for (const reader of READERS) {
    const as = reader.recognise(record);
    if (as !== null) return { reader, as };
  }
  return null;
}

/** A read error part-way (a disk error, a file truncated while read) ends the file, keeping what was read. */
async function* untilReadError(lines: AsyncIterable<RawLine>, path: string, diagnostics: FileDiagnostics): AsyncGenerator<RawLine> {
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
function skipped(path: string, reason: 'not-a-session' | 'empty-file' | 'unreadable-file' | 'compressed-file', detail: string): ReadOutcome {
  return { kind: 'skipped', path, diagnostics: [diagnostic(reason, path, null, detail)] };
}

function describe(record: Record<string, unknown>): string {
  const type = record['type'];
  return typeof type === 'string' ? `type ${JSON.stringify(type.slice(0, 40))}` : 'an object without a type';
}
