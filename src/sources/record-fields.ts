// Small readings every source reader makes of raw records: a time, a content hash for keys, a
// zod failure as a diagnostic, and a string field salvaged from a cut-off line.

import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { diagnostic, type Diagnostic } from '../diagnostics.js';

/** The range a JavaScript Date can hold; anything beyond is not a time. */
export const MAX_TIME = 8.64e15;

/** An ISO time or epoch milliseconds → milliseconds, or null when it is not a time. */
export function parseTime(value: unknown): number | null {
  const ms = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME ? ms : null;
}

/** A short, stable hash of a record's JSON: a key for records that carry no id of their own. */
export function contentHash(record: unknown): string {
  return createHash('sha1').update(JSON.stringify(record) ?? '').digest('hex').slice(0, 16);
}

/** A record that did not have the shape its type promises, said in a line. */
export function invalidRecord(file: string, line: number, what: string, error: z.ZodError, skipped = true): Diagnostic {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return diagnostic('invalid-record', file, line, `${what}: ${issue?.message ?? 'unexpected shape'}${where}`, skipped);
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
