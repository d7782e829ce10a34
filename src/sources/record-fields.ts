// Small readings every source reader makes of raw records: a time, a content hash for keys, a
// zod failure as a diagnostic, and a string field salvaged from a cut-off line.

import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { shortened } from '../unicode-text.js';

/** The range a JavaScript Date can hold. */
export const MAX_TIME = 8.64e15;

/**
 * The times a record may have: no coding agent wrote a session before 2000, and one stamped in
 * 2100 or later is damaged. Beyond them a report would list a thousand empty years month by
 * month, and near a Date's limits a time zone's arithmetic fails (the end of the year 275760).
 */
export const EARLIEST_TIME = Date.UTC(2000, 0, 1);
/** The first instant not accepted (2100-01-01). */
export const TIME_LIMIT = Date.UTC(2100, 0, 1);

/** Whether `ms` is a time a record may have (EARLIEST_TIME to TIME_LIMIT). */
export function isRecordTime(ms: unknown): ms is number {
  return typeof ms === 'number' && ms >= EARLIEST_TIME && ms < TIME_LIMIT;
}

/**
 * An ISO 8601 time (`2026-03-02T10:00:00.123Z`, an offset, or none) or epoch milliseconds →
 * milliseconds, or null when it is not a time. Stricter than Date.parse, which moves 30 February
 * to 2 March and reads a time without a zone, or a format of its own choosing, in the machine's
 * zone: a record's day would then depend on where bough runs. The agents write UTC, so a time
 * without a zone is read as UTC (codex.md §1).
 */
export function parseTime(value: unknown): number | null {
  const ms = anyTime(value);
  return isRecordTime(ms) ? ms : null;
}

function anyTime(value: unknown): number {
  return typeof value === 'number' ? value : typeof value === 'string' ? isoTime(value) : NaN;
}

const ISO_TIME = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?\s*$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isoTime(text: string): number {
  // What the agents write, `2026-03-02T10:00:00.123Z`: Date.parse reads it right (and five times
  // faster than the pattern below) but for days past the month's end and the hour 24.
  if ((text.length === 24 || text.length === 20) && text.charCodeAt(text.length - 1) === Z && text.charCodeAt(10) === T) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms) && dayExists(digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2)) && digits(text, 11, 2) <= 23) return ms;
    return NaN;
  }
  const m = ISO_TIME.exec(text);
  if (m === null) return NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (!dayExists(year, month, day) || hour > 23 || minute > 59 || second > 59) return NaN;
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  let offset = 0;
  if (m[9] !== undefined) {
    const offsetHours = Number(m[10]);
    const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return NaN;
    offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  // (Date.UTC reads the years 0–99 as 1900–1999: either way outside the years a record may have.)
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset;
}
const Z = 0x5a;
const T = 0x54;

/** The number written in `length` digits from `at` (NaN when any is not a digit). */
function digits(text: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

function dayExists(year: number, month: number, day: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day >= 1 && day <= monthDays;
}

/** Where a reader reports what it met: its file and its list of problems. */
interface Reporting {
  file: string;
  diagnostics: { push(d: Diagnostic): void };
}

/**
 * A record's time (parseTime). One that is there but is no time (30 February, "yesterday") is
 * reported: the record then goes by its session's time, and the report says why.
 */
export function recordTime(value: unknown, at: Reporting, line: number, goesBy = "the record goes by its session's time"): number | null {
  const time = parseTime(value);
  if (time === null && value !== undefined && value !== null && value !== '') {
    const shown = typeof value === 'string' ? JSON.stringify(shortened(value, 42)) : typeof value === 'number' ? String(value) : typeof value;
    const what = Number.isFinite(anyTime(value)) ? 'is not in the years 2000 to 2099' : 'is not a date and time';
    at.diagnostics.push(diagnostic('invalid-time', at.file, line, `timestamp ${shown} ${what} (${goesBy})`, false));
  }
  return time;
}

/** A short, stable hash of a record's JSON: a key for records that carry no id of their own. */
export function contentHash(record: unknown): string {
  return createHash('sha1').update(JSON.stringify(record) ?? '').digest('hex').slice(0, 16);
}

/** A record that did not have the shape its type promises, said in a line. */
export function invalidRecord(file: string, line: number, what: string, error: z.ZodError, skipped = true): Diagnostic {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  // Each says whether its record was skipped: the reason's own words cannot, as most are kept.
  return diagnostic('invalid-record', file, line, `${what}: ${issue?.message ?? 'unexpected shape'}${where}${skipped ? ' (skipped)' : ''}`, skipped);
}

/**
 * A record checked against its schema. One that fails only in fields it can do without (an exit
 * code written as "NaN") is kept without them, and said; one that fails in a field it needs is
 * left out, and said. `report` takes what is said. `nested`: a record inside another on its line
 * (a sub-agent's message in a tool result), whose line is kept when it is left out.
 */
export function parseRecord<S extends z.ZodType>(schema: S, value: unknown, report: (d: Diagnostic) => void, file: string, line: number, what: string, nested = false): z.infer<S> | null {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = new Set(result.error.issues.map((issue) => issue.path[0]));
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && ![...fields].some((field) => typeof field !== 'string')) {
    const without: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const field of fields) delete without[field as string];
    const kept = schema.safeParse(without);
    if (kept.success) {
      report(diagnostic('invalid-record', file, line, `${what}: ${[...fields].join(', ')} not as the format has ${fields.size === 1 ? 'it' : 'them'} (kept without ${fields.size === 1 ? 'it' : 'them'})`, false));
      return kept.data;
    }
  }
  report(nested ? invalidRecord(file, line, `${what} (left out, the rest of its line kept)`, result.error, false) : invalidRecord(file, line, what, result.error));
  return null;
}

/** A string field read out of a damaged line's text (`"name": "value"`), or null. */
export function salvagedStringField(text: string, name: string): string | null {
  const match = new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text);
  if (!match) return null;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return null;
  }
}
