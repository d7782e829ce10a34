// What a report covers: a period in a time zone, and filters by project and agent. Parsed once
// from the command line; the report data selects records by their own time against it. Pure.

import { SOURCES, type Source } from '../types.js';
import { dayKey, instantOf, isoWeekKey, localInstants, localParts, monthName, offsetAt } from '../time-zone.js';
import type { SessionKey } from './ledger.js';

export interface Period {
  /** First instant included (ms), or null for no lower bound. */
  start: number | null;
  /** First instant no longer included (ms), or null for no upper bound. */
  end: number | null;
  /** As the user gave it, for JSON: "2026-10-01" or an ISO time; null when open. */
  since: string | null;
  until: string | null;
  /** "October 2026", "2026-10-01 – 2026-10-15", "all time". */
  label: string;
}

export interface Scope {
  timeZone: string;
  period: Period;
  /** Text a project's folder or name must contain (any case), or null for every project. */
  project: string | null;
  /** Agents to include, or null for all. */
  sources: readonly Source[] | null;
}

/**
 * A project's folder or name, and `--project`'s text, as they are matched: in any case, composed
 * (macOS writes a folder's é as an e and an accent, typed in a terminal as one letter), and with
 * either slash (`C:/Users/bob/proj` is `C:\Users\bob\proj`, as projects are grouped).
 */
export function projectMatchText(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\\/g, '/');
}

/**
 * A folder as `--project` looks into it: matched as its text is, ending in one slash, so that
 * `shop/` finds `/srv/shop` however a session spelled the folder's end (regression: one spelling
 * with the slash took the project in a plain report; alone, a session without it was not found).
 */
export function folderMatchText(folder: string): string {
  return projectMatchText(folder).replace(/\/*$/, '/');
}

/** What the project of sessions recording no folder at all is called; `--project` takes it whole. */
export const UNKNOWN_FOLDER = '(unknown folder)';
/** Its key in `stats --json`'s and summary.json's rows, which `--project` takes whole too. */
export const UNKNOWN_PROJECT_KEY = '(unknown)';

/** Whether `--project`'s text names the project of no folder (its label or key whole, in any case). */
export function namesUnknownFolder(text: string): boolean {
  const matched = projectMatchText(text.trim());
  return matched === UNKNOWN_FOLDER || matched === UNKNOWN_PROJECT_KEY;
}

export interface PeriodFlags {
  since?: string | undefined;
  until?: string | undefined;
  month?: string | undefined;
}

/** A period or filter flag that cannot be understood: bad usage, said in a sentence. */
export class ScopeError extends Error {
  override name = 'ScopeError';
}

export const ALL_TIME: Period = { start: null, end: null, since: null, until: null, label: 'all time' };

export function parsePeriod(flags: PeriodFlags, timeZone: string): Period {
  if (flags.month !== undefined) {
    if (flags.since !== undefined || flags.until !== undefined) {
      throw new ScopeError('--month cannot be combined with --since or --until: give a month, or a range.');
    }
    const match = /^(\d{4})-(\d{2})$/.exec(flags.month.trim());
    const year = Number(match?.[1]);
    const month = Number(match?.[2]);
    if (!match || month < 1 || month > 12) throw new ScopeError(`--month wants a month as YYYY-MM, such as 2026-10 (got ${JSON.stringify(flags.month)}).`);
    // As --since does: no month before 1970, when no session was written.
    if (!isCalendarDay({ year, month, day: 1 })) throw new ScopeError(`--month ${JSON.stringify(flags.month)} ${notOfTheCalendar({ year, month, day: 1 }, 'month')}.`);
    const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
    return {
      start: instantOf({ year, month, day: 1 }, timeZone),
      end: instantOf({ ...next, day: 1 }, timeZone),
      since: dayKey({ year, month, day: 1 }),
      until: dayKey(lastDayOf(year, month)),
      label: monthName(year, month),
    };
  }
  const since = flags.since === undefined ? null : parseBound(flags.since, '--since', timeZone);
  const until = flags.until === undefined ? null : parseBound(flags.until, '--until', timeZone);
  if (since === null && until === null) return ALL_TIME;
  const start = since?.start ?? null;
  let end = until?.end ?? null;
  if (since !== null && until !== null && wrongWayRound(since, until)) {
    throw new ScopeError(`--since ${flags.since} comes after --until ${flags.until}: the period would be empty.`);
  }
  if (start !== null && end !== null && end < start) end = start;
  return { start, end, since: since?.text ?? null, until: until?.text ?? null, label: rangeLabel(since, until) };
}

interface Bound {
  text: string;
  /** The first instant of what the flag names (a day's midnight, or the time itself). */
  start: number;
  /** The first instant after it (the next midnight, or the next minute, second or millisecond, as written). */
  end: number;
  /** The local calendar day, when the flag named a whole day. */
  day: { year: number; month: number; day: number } | null;
  /** The date and time as written, read as if in UTC (a day: its midnight), and the first after it (the next midnight, …): to compare two bounds as their writer meant them. */
  local: number;
  localEnd: number;
  /** Written with its zone (`Z`, `+02:00`): an instant, whatever the report's zone. */
  zoned: boolean;
  /** `start` and `end` as written, finer than the millisecond they are rounded to: to compare two bounds. */
  exact: [number, number];
}

/**
 * Whether --since names a time after all --until does. Where either is an exact instant, as
 * instants (a time without a zone from the first of its instants to after the last). Two local
 * times as written: a time the clock went through twice (01:30 the night it goes back) is two
 * instants, and "--since 01:30 --until 01:15" the wrong way round all the same; times it skipped
 * (02:00–02:59 the night it goes forward) name no instant at all, and a period of them is empty,
 * not the wrong way round. --until a day takes the whole day: "--since 12:00 --until" that day is
 * its afternoon.
 */
function wrongWayRound(since: Bound, until: Bound): boolean {
  return since.zoned || until.zoned ? since.exact[0] >= until.exact[1] : since.local >= until.localEnd;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})(\d*))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function parseBound(text: string, flag: string, timeZone: string): Bound {
  const value = text.trim();
  const date = DATE.exec(value);
  if (date) {
    const day = { year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) };
    if (!isCalendarDay(day)) throw new ScopeError(`${flag} ${JSON.stringify(text)} ${notOfTheCalendar(day, 'day')}.`);
    const next = new Date(Date.UTC(day.year, day.month - 1, day.day + 1));
    const start = instantOf(day, timeZone);
    const end = instantOf({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() }, timeZone);
    return {
      text: value,
      start,
      end,
      exact: [start, end],
      day,
      local: Date.UTC(day.year, day.month - 1, day.day),
      localEnd: Date.UTC(day.year, day.month - 1, day.day + 1),
      zoned: false,
    };
  }
  const time = DATE_TIME.exec(value);
  if (time) {
    const day = { year: Number(time[1]), month: Number(time[2]), day: Number(time[3]) };
    const clock = { hour: Number(time[4]), minute: Number(time[5]), second: Number(time[6] ?? 0) };
    const millis = Number((time[7] ?? '0').padEnd(3, '0'));
    const zone = time[9];
    const clockRight = clock.hour <= 23 && clock.minute <= 59 && clock.second <= 59 && (zone === undefined || isZoneOffset(zone));
    if (!isCalendarDay(day) || !clockRight) {
      throw new ScopeError(`${flag} ${JSON.stringify(text)} ${notOfTheCalendar(clockRight ? day : null, 'time')}.`);
    }
    // Included whole, to the precision it is written in: --until 23:59 takes 23:59:59.999 too, and
    // 23:59:59.9 the whole tenth. Records are timed to the millisecond: a time finer than that
    // begins at the next millisecond unless it is one (--since 00:30:00.0001 leaves a record of
    // 00:30:00.000 out), and ends at it.
    const precision = time[7] !== undefined ? 10 ** (3 - time[7].length) : time[6] !== undefined ? 1000 : 60_000;
    const finer = time[8] !== undefined && time[8] !== '';
    const written = Date.UTC(day.year, day.month - 1, day.day, clock.hour, clock.minute, clock.second, millis);
    const [from, to] = finer ? [/[1-9]/.test(time[8] as string) ? 1 : 0, 1] : [0, precision];
    // The same, not rounded: `.0001` to `.0005` is the right way round, though both round to `.001`.
    const below = finer ? Number(`0.${time[8] as string}`) : 0;
    const [exactFrom, exactTo] = finer ? [below, below + 10 ** -(time[8] as string).length] : [0, precision];
    if (zone !== undefined) {
      const at = written - zoneOffsetMs(zone);
      // As the report's zone would write it, to compare with a bound written without a zone.
      const local = at + offsetAt(at, timeZone);
      return { text: value, start: at + from, end: at + to, day: null, local: local + exactFrom, localEnd: local + exactTo, zoned: true, exact: [at + exactFrom, at + exactTo] };
    }
    // A time begins at the first instant the clock shows it (a time it skipped, at the change:
    // the earlier times before it, the later ones after), and ends where the next time as written
    // begins, so that a period ending at a time and one starting right after it add up exactly,
    // on the night the clock goes back too (regression: --until 01:30 ended after the second
    // 01:30 and --since 01:31 began at the first, counting the hour between in both).
    const asWritten = { day: null, local: written + exactFrom, localEnd: written + exactTo, zoned: false };
    const [start, end] = [beginning(written + from, timeZone), beginning(written + to, timeZone)];
    return { text: value, start, end, ...asWritten, exact: [start - from + exactFrom, end - to + exactTo] };
  }
  throw new ScopeError(`${flag} wants a day (YYYY-MM-DD) or an ISO time (2026-10-01T09:00, 2026-10-01T09:00Z); got ${JSON.stringify(text)}.`);
}

/** Where a local time (written as if it were UTC, to the millisecond) first begins in the zone; one it skipped, at the change. */
function beginning(written: number, timeZone: string): number {
  const at = new Date(written);
  const parts = { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate(), hour: at.getUTCHours(), minute: at.getUTCMinutes(), second: at.getUTCSeconds() };
  const named = localInstants(parts, timeZone);
  return named.kind === 'skipped' ? named.change : named.first + at.getUTCMilliseconds();
}

/** Z, or an offset a zone has: up to 14 hours (Kiribati), whole minutes below 60. */
function isZoneOffset(zone: string): boolean {
  if (/^z$/i.test(zone)) return true;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || 0);
  return minutes < 60 && hours * 60 + minutes <= 14 * 60;
}

function zoneOffsetMs(zone: string): number {
  if (/^z$/i.test(zone)) return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0)) * 60_000;
}

/**
 * Why a date was refused: a day of the calendar before 1970 (no agent wrote sessions then) or
 * after 2099 (bough reads no record's time past it) is said as such, not as no date at all.
 * `day`: null when the rest of a time was wrong.
 */
function notOfTheCalendar(day: { year: number; month: number; day: number } | null, what: 'day' | 'month' | 'time'): string {
  if (day !== null && isDayOfAnyYear(day)) {
    if (day.year < 1970) return 'is before 1970, where bough counts from';
    if (day.year > LAST_YEAR) return `is after ${LAST_YEAR}: bough reads no record's time past it`;
  }
  return `is not a ${what} of the calendar`;
}

/** The last year a record's time may be in (record-fields.ts): a period past it holds nothing. */
const LAST_YEAR = 2099;

function isCalendarDay(day: { year: number; month: number; day: number }): boolean {
  return isDayOfAnyYear(day) && day.year >= 1970 && day.year <= LAST_YEAR;
}

function isDayOfAnyYear({ year, month, day }: { year: number; month: number; day: number }): boolean {
  // Not Date.UTC: it reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function lastDayOf(year: number, month: number): { year: number; month: number; day: number } {
  return { year, month, day: new Date(Date.UTC(year, month, 0)).getUTCDate() };
}

/** Whole months and years read as such; other ranges as their two ends. */
function rangeLabel(since: Bound | null, until: Bound | null): string {
  const from = since?.day;
  const to = until?.day;
  if (from && to && from.day === 1) {
    const last = lastDayOf(to.year, to.month).day;
    if (to.day === last && from.year === to.year && from.month === to.month) return monthName(from.year, from.month);
    if (to.day === last && from.year === to.year && from.month === 1 && to.month === 12) return String(from.year);
  }
  if (from && to && from.year === to.year && from.month === to.month && from.day === to.day) return since?.text ?? '';
  if (since && until) return `${since.text} – ${until.text}`;
  if (since) return `since ${since.text}`;
  return `until ${until?.text ?? ''}`;
}

export function parseSources(value: string): Source[] {
  const names = value.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((name) => !(SOURCES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new ScopeError(`--source wants one or more of ${SOURCES.join(', ')}, separated by commas (got ${JSON.stringify(value)}).`);
  }
  return [...new Set(names)] as Source[];
}

/**
 * A month's label as the period cuts it: "October 2026", or with the days it covers when the
 * period starts or ends inside it, "October 2026 (15–31)", so that a row of part of a month is
 * not read as the whole month's.
 */
export function monthInPeriod(key: string, period: Period, timeZone: string): string {
  const [year, month] = key.split('-').map(Number) as [number, number];
  const label = monthName(year, month);
  const last = lastDayOf(year, month).day;
  const starts = period.start === null ? null : localParts(period.start, timeZone);
  const ends = period.end === null ? null : localParts(period.end - 1, timeZone);
  const from = starts !== null && starts.year === year && starts.month === month ? starts.day : 1;
  const to = ends !== null && ends.year === year && ends.month === month ? ends.day : last;
  if (from === 1 && to === last) return label;
  return `${label} (${from === to ? from : `${from}–${to}`})`;
}

/**
 * An ISO week's label as the period cuts it: "2026-W44", or with the days it covers when the
 * period starts or ends inside it, "2026-W44 (from 2026-11-01)", as a month's is.
 */
export function weekInPeriod(key: string, period: Period, timeZone: string): string {
  const dayIn = (ms: number | null) => {
    if (ms === null) return null;
    const parts = localParts(ms, timeZone);
    return isoWeekKey(parts) === key ? dayKey(parts) : null;
  };
  const from = dayIn(period.start);
  const to = dayIn(period.end === null ? null : period.end - 1);
  if (from !== null && to !== null) return `${key} (${from === to ? from : `${from} to ${to}`})`;
  if (from !== null) return `${key} (from ${from})`;
  return to === null ? key : `${key} (to ${to})`;
}

/** Whether an instant falls in the period. */
export function inPeriod(period: Period, ms: number): boolean {
  return (period.start === null || ms >= period.start) && (period.end === null || ms < period.end);
}

/**
 * A `--project` filter in a report that redacts: the sessions whose own folder held its text
 * before redaction (a redacted folder, `~/shop`, no longer holds the part in the home folder),
 * and its text as the report may show it.
 */
export interface SharedProjectFilter {
  matches: ReadonlySet<SessionKey>;
  /** Every session read now, matched or not: only those kept from an earlier build go by their redacted folder. */
  read: ReadonlySet<SessionKey>;
  shownAs: string;
}

/** "October 2026 · Europe/Berlin · project shop · agents pi, claude": what a report covers, in a line. */
/** Whether the scope asks for part of the history: a period, a project or agents. */
export function isNarrowed(scope: Scope): boolean {
  return scope.sources !== null || scope.project !== null || scope.period.start !== null || scope.period.end !== null;
}

/** "All time · UTC", "Since 2026-11-01 · UTC · project “shop”": what a report covers, as a heading says it. */
export function scopeLabel(scope: Scope): string {
  return [capitalise(scope.period.label), scope.timeZone, ...filterLabels(scope)].join(' · ');
}

/** A scope's label in the middle of a sentence: "covers all time · UTC", "covers since 2026-11-01 · UTC". */
export function inSentence(label: string): string {
  return label.replace(/^(All time|Since|Until)\b/, (word) => word.toLowerCase());
}

/** The project and agent filters, each in a few words ("project “shop”", "agents pi, claude"); none when there are none. */
export function filterLabels(scope: Scope): string[] {
  return [
    ...(scope.project === null ? [] : [`project “${scope.project}”`]),
    ...(scope.sources === null ? [] : [`${scope.sources.length === 1 ? 'agent' : 'agents'} ${scope.sources.join(', ')}`]),
  ];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The local day an instant falls on, for messages ("2026-10-31"). */
export function localDay(ms: number, timeZone: string): string {
  return dayKey(localParts(ms, timeZone));
}
