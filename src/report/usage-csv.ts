// usage.csv: one row per counted usage record, so a spreadsheet can redo any total of the report.

import type { Archive } from '../model/archive.js';
import { isoTime } from './format.js';

const COLUMNS = [
  'time',
  'source',
  'project',
  'session',
  'session_file',
  'origin',
  'provider',
  'model',
  'price_key',
  'price_state',
  'input',
  'output',
  'cache_read',
  'cache_write',
  'cache_write_1h',
  'reasoning',
  'cost_bough',
  'cost_recorded',
] as const;

export function usageCsv(archive: Archive): string {
  const rows: string[] = [COLUMNS.join(',')];
  for (const session of archive.sessions) {
    const { file } = session;
    for (const entry of session.counted) {
      for (const usage of entry.usage) {
        const priced = archive.prices.get(usage);
        rows.push(
          [
            isoTime(usage.timestamp ?? entry.timestamp),
            file.source,
            file.cwd ?? '',
            file.sessionId,
            file.path,
            usage.origin,
            usage.provider ?? '',
            usage.model ?? '',
            priced?.key ?? '',
            priced?.state ?? '',
            usage.input,
            usage.output,
            usage.cacheRead,
            usage.cacheWrite,
            usage.cacheWrite1h,
            usage.reasoning,
            priced?.cost ?? '',
            usage.recordedCost ?? '',
          ]
            .map(csvCell)
            .join(','),
        );
      }
    }
  }
  return `${rows.join('\r\n')}\r\n`;
}

/**
 * RFC 4180 quoting; text that a spreadsheet would run as a formula (= + - @, tab, CR) is
 * prefixed with an apostrophe. Numbers are written as they are.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
