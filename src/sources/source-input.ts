// What the generic reader hands a source reader once that reader has recognised the file's
// first record: the record, what came before it, and the lines still to read.

import type { FileDiagnostics } from '../diagnostics.js';
import type { RawLine } from './lines.js';

/** Records already read from a line, to be handled before the remaining lines. */
export interface PendingLine {
  line: number;
  records: Record<string, unknown>[];
  /** The line parsed whole (not recovered from damage). */
  clean: boolean;
}

/** How a reader took the first record of a file: its session header, or one of its records with no header before it. */
export type Recognised = 'header' | 'record';

export interface SourceInput {
  path: string;
  size: number;
  mtime: number;
  /** The first record, as the reader recognised it, with any records glued after it on its line. */
  first: PendingLine & { as: Recognised };
  /** Non-blank lines before the first record that held none: a cut-off header may be among them. */
  damaged: readonly RawLine[];
  /** The remaining lines. */
  lines: AsyncIterable<RawLine>;
  /** Diagnostics so far (lines before the first record); the source reader appends to it. */
  diagnostics: FileDiagnostics;
}
