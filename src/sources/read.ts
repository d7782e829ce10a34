// Reads one candidate file: finds its first record, tells the source from that record's content
// (never from the file name), and hands the rest of the file to that source's reader.

import { stat } from 'node:fs/promises';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import type { SessionFile } from '../types.js';
import { lineRecords } from './line-records.js';
import { readLines } from './lines.js';
import { isPiHeader, isPiRecord, readPiSession } from './pi/read.js';
import { EMPTY_READ_CONTEXT, type ReadContext } from './source-input.js';

export type ReadOutcome =
  | { kind: 'session'; file: SessionFile }
  | { kind: 'skipped'; path: string; diagnostics: Diagnostic[] };

/** A header worth looking for when the first lines of a file are damaged. */
const isAnyHeader = (value: Record<string, unknown>): boolean => isPiRecord(value);

/** How far into a file to look for its first record before calling it "not a session". */
const MAX_LINES_BEFORE_FIRST_RECORD = 50;

export async function readSessionFile(path: string, context: ReadContext = EMPTY_READ_CONTEXT): Promise<ReadOutcome> {
  const diagnostics: Diagnostic[] = [];
  let size: number;
  let mtime: number;
  try {
    const info = await stat(path);
    size = info.size;
    mtime = info.mtimeMs;
  } catch (error) {
    return skipped(path, diagnostics, 'unreadable-file', (error as Error).message);
  }
  if (size === 0) return skipped(path, diagnostics, 'empty-file', 'the file is empty');

  const lines = readLines(path)[Symbol.asyncIterator]();
  try {
    for (let n = 0; n < MAX_LINES_BEFORE_FIRST_RECORD; n++) {
      const next = await lines.next();
      if (next.done) break;
      const before = diagnostics.length;
      const { records } = lineRecords(next.value, path, isAnyHeader, diagnostics);
      const [first, ...rest] = records;
      if (!first) continue;
      if (isPiHeader(first)) {
        const file = await readPiSession({
          context,
          path,
          size,
          mtime,
          firstRecord: first,
          firstRecordLine: next.value.number,
          restOfFirstLine: rest,
          lines: { [Symbol.asyncIterator]: () => lines },
          diagnostics,
        });
        return { kind: 'session', file };
      }
      // The first record is not a header bough knows: not a session. Drop line diagnostics
      // about a file that is not ours; one file-level note says why it was skipped.
      diagnostics.length = before;
      return skipped(path, [], 'not-a-session', `its first record (${describe(first)}) is not a session header`);
    }
    return skipped(path, [], 'not-a-session', 'no session header in its first lines');
  } catch (error) {
    return skipped(path, diagnostics, 'unreadable-file', (error as Error).message);
  } finally {
    await lines.return?.(undefined);
  }
}

function skipped(path: string, diagnostics: Diagnostic[], reason: 'not-a-session' | 'empty-file' | 'unreadable-file', detail: string): ReadOutcome {
  return { kind: 'skipped', path, diagnostics: [...diagnostics, diagnostic(reason, path, null, detail)] };
}

function describe(record: Record<string, unknown>): string {
  const type = record['type'];
  return typeof type === 'string' ? `type ${JSON.stringify(type.slice(0, 40))}` : 'an object without a type';
}
