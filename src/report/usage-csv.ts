// usage.csv: one row per usage record the report counts, so a spreadsheet can redo any total of it.

import { inPeriod } from '../ledger/scope.js';
import type { Pricer } from '../pricing/price.js';
import { walkCounted, type ReportData } from './data.js';
import { unpackEntries, type Unpack } from '../ledger/packed-entries.js';
import { isoTime } from './format.js';
import { dayKey, localDayNumber, localParts } from '../time-zone.js';
import { money } from './json.js';
import { visibleControls } from './escape.js';

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
  // Added after the others, so that columns read by position stay where they were.
  'fast_mode',
  'web_searches',
  // The record's day in the report's zone (`time` is UTC): the day tables count it in this one.
  'day',
  // Served by US-only inference: its tokens cost the model's residency multiple.
  'us_only',
  // Served in OpenAI's flex service tier (Codex): its tokens cost the table's flex rates.
  'flex',
] as const;

/** Characters of rows handed out at a time: a large history's file (97 MB for 1 GB) is never one string. */
const PIECE = 64 * 1024;

/**
 * The file's text in pieces of about PIECE characters, each ending with a row. `time` is the
 * record's own, else its entry's, else its session's: the time that placed it in the period.
 */
export function* usageCsv(data: ReportData, price: Pricer, unpack: Unpack = unpackEntries): Generator<string> {
  let piece = `${COLUMNS.join(',')}\r\n`;
  const { period, timeZone } = data.scope;
  /** Days by local day number: most records share their day with hundreds of others. */
  const days = new Map<number, string>();
  const dayOf = (time: number): string => {
    const number = localDayNumber(time, timeZone);
    let day = days.get(number);
    if (day === undefined) days.set(number, (day = dayKey(localParts(time, timeZone))));
    return day;
  };
  /** Pieces full before the part they are of was walked through: one long session has hundreds of thousands of rows. */
  let full: string[] = [];
  // The project a session is counted in, as the pages count it: a sub-agent that ran in a
  // worktree of its own is its session's project's, not a project of that worktree.
  const projectFolder = new Map(data.projects.map((p) => [p.key, p.cwd ?? p.folder]));
  for (const session of data.sessions) {
    const project = projectFolder.get(session.projectKey) ?? session.ledger.cwd;
    // The spend the agent recorded only in its running totals, in the main file's (where they are).
    const unrecorded = { ledger: session.ledger, entries: session.unrecorded, counted: { entries: new Uint8Array(session.unrecorded.length), usage: new Uint8Array(session.unrecorded.flatMap((e) => e.usage).length).fill(1) } };
    for (const { ledger, entries, counted } of [{ ...session, entries: null }, unrecorded, ...session.subagents.map((sub) => ({ ...sub, entries: null }))]) {
      // The session's own columns are the same on each of its rows: a sub-agent's rows name the
      // session they count in (a Codex child thread's id is no session of the report's), and the
      // file they were read from.
      const file = [ledger.source, project ?? '', session.ledger.sessionId, ledger.path].map(csvCell).join(',');
      walkCounted(entries ?? unpack(ledger.entries), counted, session.untimedAt, {
        entry: () => {},
        usage: (usage, time) => {
          if (!inPeriod(period, time)) return;
          const priced = price(usage, ledger.source, ledger.path);
          const named = `${csvCell(usage.origin)},${csvCell(usage.provider ?? '')},${csvCell(usage.model ?? '')},${csvCell(priced.key ?? '')},${priced.state}`;
          const counts = `${csvCell(usage.input)},${csvCell(usage.output)},${csvCell(usage.cacheRead)},${csvCell(usage.cacheWrite)},${csvCell(usage.cacheWrite1h)},${csvCell(usage.reasoning)}`;
          piece += `${isoTime(time)},${file},${named},${counts},${csvCell(money(priced.cost) ?? '')},${csvCell(money(usage.recordedCost) ?? '')},${usage.fast},${usage.webSearches},${dayOf(time)},${usage.usOnly === true},${usage.flex === true}\r\n`;
          // Cut here, not once the part is done: the 445,000 rows of a 500 MB session made one
          // string of 68 MB joined from as many pieces, 6 s to write, half of it collecting.
          if (piece.length >= PIECE) {
            full.push(piece);
            piece = '';
          }
        },
      });
      yield* full;
      full = [];
    }
  }
  if (piece !== '') yield piece;
}

const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;

/**
 * A number as plain digits: JavaScript writes a cost under a millionth of a dollar with an exponent
 * (2.5e-7), which text tools and some spreadsheets' locales do not read as a number. Costs are
 * rounded to 1e-10 (json.ts money), so ten places hold them.
 */
function plainNumber(value: number): string {
  const text = String(value);
  if (!text.includes('e') || Math.abs(value) >= 1) return text;
  const fixed = value.toFixed(10).replace(/\.?0+$/, '');
  // Under 1e-10 either way rounds to nothing: 0, not "-0".
  return fixed === '-0' ? '0' : fixed;
}

/**
 * RFC 4180 quoting; text that a spreadsheet would run as a formula (= + - @, tab, CR) is
 * prefixed with an apostrophe. Numbers are written as they are.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? plainNumber(value) : '';
  // Control characters as a page shows them (␛ for an escape, U+FFFD for a NUL, which breaks many
  // a CSV reader): `cat usage.csv` would hand them to the terminal.
  const text = visibleControls(value);
  // Most cells (names, models, paths) need nothing more.
  if (!NEEDS_CARE.test(text)) return text;
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
