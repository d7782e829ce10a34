// Turns one raw line into the records it holds, reporting every repair or loss as a diagnostic.
// Shared by all source readers.

import { diagnostic, type FileDiagnostics } from '../diagnostics.js';
import type { RawLine } from './lines.js';
import { cutDeepNesting, isPlainObject, MAX_NESTING, parseJsonLine, type RecordTest } from './json-line.js';
import { shortened } from '../unicode-text.js';

export interface LineRecords {
  records: Record<string, unknown>[];
  /** The line parsed as one whole JSON value, as the agent itself would read it. */
  clean: boolean;
  /** A line of which a record was lost: its text, what a reader may still tell of that record by (see lostField). */
  damaged?: string;
}

/**
 * A string field of a record lost on a damaged line, as its text still gives it: the first
 * `"name": "value"` in it (a record's fields come before the point where its line was cut); null
 * when the text names none, or names it null.
 */
export function lostField(text: string, name: string): string | null {
  const at = new RegExp(`"${name}"\\s*:\\s*"([^"\\\\]{1,200})"`).exec(text.slice(0, LOST_FIELD_WITHIN));
  return at?.[1] ?? null;
}

/** Whether a record lost on a damaged line says `"name": true`, as far as its text still tells. */
export function lostFlag(text: string, name: string): boolean {
  return new RegExp(`"${name}"\\s*:\\s*true\\b`).test(text.slice(0, LOST_FIELD_WITHIN));
}

/** How far into a damaged line its lost record's fields are looked for: a record's ids come first. */
const LOST_FIELD_WITHIN = 4096;

const PREVIEW = 80;

export function lineRecords(
  raw: RawLine,
  file: string,
  isRecord: RecordTest,
  diagnostics: FileDiagnostics,
): LineRecords {
  if (raw.oversized > 0) {
    diagnostics.push(diagnostic('oversized-line', file, raw.number, `${raw.oversized} bytes in one line`, true));
    return { records: [], clean: false };
  }
  const parsed = parseJsonLine(raw.text, isRecord);
  if (raw.invalidUtf8) {
    diagnostics.push(diagnostic('invalid-utf8', file, raw.number, 'invalid UTF-8 bytes replaced with U+FFFD'));
  }
  if (raw.nulBytes > 0) {
    const lost = parsed.kind === 'blank';
    diagnostics.push(diagnostic('nul-bytes', file, raw.number, `${raw.nulBytes} NUL ${raw.nulBytes === 1 ? 'byte' : 'bytes'} removed`, lost));
  }
  // The parsed values' containers are walked, not the line's characters: a record has tens of
  // containers in thousands of characters (50 ms against 220 ms for 100 MB of sessions).
  if (parsed.kind === 'ok' || parsed.kind === 'glued' || parsed.kind === 'partial') {
    const cut = parsed.values.reduce<number>((sum, value) => sum + cutDeepNesting(value, MAX_NESTING), 0);
    if (cut > 0) diagnostics.push(diagnostic('deep-nesting', file, raw.number, `${cut} value(s) nested more than ${MAX_NESTING} levels deep, cut (the rest of the record kept)`));
  }
  switch (parsed.kind) {
    case 'blank':
      return { records: [], clean: false };
    case 'ok': {
      const [value] = parsed.values;
      if (isPlainObject(value)) return { records: [value], clean: true };
      diagnostics.push(diagnostic('not-a-record', file, raw.number, `a JSON ${jsonKind(value)}, not an object`, true));
      return { records: [], clean: false };
    }
    case 'glued': {
      const records = parsed.values.filter(isPlainObject);
      diagnostics.push(
        diagnostic('glued-objects', file, raw.number, `${parsed.values.length} records on one line, all recovered`),
      );
      return { records, clean: false };
    }
    case 'partial': {
      const records = parsed.values.filter(isPlainObject);
      diagnostics.push(
        diagnostic(
          'partial-line',
          file,
          raw.number,
          `${records.length} record(s) recovered, ${parsed.lostChars} damaged characters lost`,
          true,
        ),
      );
      return { records, clean: false, damaged: raw.text };
    }
    case 'invalid': {
      const reason = parsed.truncated ? 'truncated-line' : 'invalid-json';
      // An agent at work writes its last line as bough reads it: said so, not left to look like damage.
      const unended = parsed.truncated && raw.unended ? 'the file’s last line, not yet ended: a session still being written (a later run reads it whole) or a file cut short; ' : '';
      diagnostics.push(diagnostic(reason, file, raw.number, `${unended}${parsed.message}; starts ${preview(raw.text)}`, true));
      return { records: [], clean: false, damaged: raw.text };
    }
  }
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A damaged line's start, to say which line it is: cut where a word ends (see `shortened`). */
function preview(text: string): string {
  return JSON.stringify(shortened(text.replace(/\s+/g, ' '), PREVIEW + 2, true));
}
