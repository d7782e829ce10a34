// What the generic reader hands a source reader once it has recognised the file's first record.

import type { Diagnostic } from '../diagnostics.js';
import type { RawLine } from './lines.js';

/** What readers may know beyond the file itself, from the agents' configuration on this machine. */
export interface ReadContext {
  /** Pi providers that run locally (Pi's models.json). */
  piLocalProviders: ReadonlySet<string>;
}

export const EMPTY_READ_CONTEXT: ReadContext = { piLocalProviders: new Set() };

export interface SourceInput {
  context: ReadContext;
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
