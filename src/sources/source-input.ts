// What the generic reader hands a source reader once it has recognised the file's first record.

import type { Diagnostic } from '../diagnostics.js';
import type { RawLine } from './lines.js';

export interface SourceInput {
  path: string;
  size: number;
  mtime: number;
  /** The first record of the file, which told its source. */
  firstRecord: Record<string, unknown>;
  firstRecordLine: number;
  /** Further records glued onto the first record's line. */
  restOfFirstLine: Record<string, unknown>[];
  /** The remaining lines, already advanced past the first record's line. */
  lines: AsyncIterable<RawLine>;
  /** Diagnostics so far (lines before the first record); the source reader appends to it. */
  diagnostics: Diagnostic[];
}
