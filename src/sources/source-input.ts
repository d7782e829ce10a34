// What the generic reader hands a source reader once it has recognised the file's first record.

import type { Diagnostic } from '../diagnostics.js';
import type { RawLine } from './lines.js';

/** What readers may know beyond the file itself, from the agents' configuration on this machine. */
export interface ReadContext {
  /** Pi providers that run locally (Pi's models.json). */
  piLocalProviders: ReadonlySet<string>;
}

export const EMPTY_READ_CONTEXT: ReadContext = { piLocalProviders: new Set() };

/** Records already read from a line, to be handled before the remaining lines. */
export interface PendingLine {
  line: number;
  records: Record<string, unknown>[];
  /** The line parsed whole (not recovered from damage). */
  clean: boolean;
}

export interface SourceInput {
  context: ReadContext;
  path: string;
  size: number;
  mtime: number;
  /** The session header: as read, or rebuilt when the file's own was damaged. */
  header: Record<string, unknown>;
  headerLine: number;
  /** Records read together with or instead of the header (glued to it, or the first entries after a damaged one). */
  pending: PendingLine[];
  /** The remaining lines. */
  lines: AsyncIterable<RawLine>;
  /** Diagnostics so far (lines before the first record); the source reader appends to it. */
  diagnostics: Diagnostic[];
}
