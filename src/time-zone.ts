// Calendar arithmetic in an IANA time zone: an instant's local date and time, and the instant a
// local date starts. Pure: the zone is always a parameter. Offsets come from Intl once per hour
// of history, since zones change offset at most a few times a year.

export interface LocalParts {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetsByZone = new Map<string, Map<number, number>>();

/** The zone's offset from UTC at `ms`, in ms (Europe/Berlin in summer: +7,200,000). */
export function offsetAt(ms: number, timeZone: string): number {
  let byHour = offsetsByZone.get(timeZone);
  if (!byHour) {
    byHour = new Map();
    offsetsByZone.set(timeZone, byHour);
  }
  const hour = Math.floor(ms / HOUR);
  const cached = byHour.get(hour);
  if (cached !== undefined) return cached;
  const atStart = exactOffset(hour * HOUR, timeZone);
  // A few zones change offset off the hour (Australia/Lord_Howe at :30 UTC): such an hour is not cached.
  if (exactOffset(hour * HOUR + HOUR - 1000, timeZone) !== atStart) return exactOffset(ms, timeZone);
  byHour.set(hour, atStart);
  return atStart;
}

function exactOffset(ms: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
      era: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  const p: Record<string, string> = {};
  for (const part of formatter.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = part.value;
  const yearOfEra = Number(p['year'] ?? 1970);
  const year = p['era'] === 'BC' || p['era'] === 'B' ? 1 - yearOfEra : yearOfEra;
  const asUtc = utc(year, Number(p['month'] ?? 1), Number(p['day'] ?? 1), Number(p['hour'] ?? 0), Number(p['minute'] ?? 0), Number(p['second'] ?? 0));
  return asUtc - (ms - mod(ms, 1000));
}

/** Date.UTC without its two-digit-year quirk (years 0–99 are not moved to 1900–1999). */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

/** The local calendar day an instant falls on in the zone, as a whole number (days since 1970-01-01 there). */
export function localDayNumber(ms: number, timeZone: string): number {
  return Math.floor((ms + offsetAt(ms, timeZone)) / DAY);
}

/** The local calendar date and clock time of an instant in the zone. */
export function localParts(ms: number, timeZone: string): LocalParts {
  const local = new Date(ms + offsetAt(ms, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/**
 * The instant a local date and time names in the zone. A time skipped by a clock change is
 * read with the offset before the change; a repeated one as its first occurrence.
 */
export function instantOf(parts: Pick<LocalParts, 'year' | 'month' | 'day'> & Partial<LocalParts>, timeZone: string): number {
  const named = localInstants(parts, timeZone);
  return named.kind === 'skipped' ? named.readBefore : named.first;
}

/**
 * The instants a local date and time names in the zone: one, or two where the clock goes back
 * (first and last); none where it skipped the time, which then lies at the change (and reads,
 * with the offset before it, `readBefore`).
 */
export type LocalInstants = { kind: 'named'; first: number; last: number } | { kind: 'skipped'; change: number; readBefore: number };

export function localInstants(parts: Pick<LocalParts, 'year' | 'month' | 'day'> & Partial<LocalParts>, timeZone: string): LocalInstants {
  const local = utc(parts.year, parts.month, parts.day, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  // No zone changes offset twice within two days, so the offsets a day either side are the candidates.
  const before = local - offsetAt(local - DAY, timeZone);
  const after = local - offsetAt(local + DAY, timeZone);
  const names = (t: number) => t + offsetAt(t, timeZone) === local;
  if (names(before) && names(after)) return { kind: 'named', first: Math.min(before, after), last: Math.max(before, after) };
  if (names(after)) return { kind: 'named', first: after, last: after };
  if (names(before)) return { kind: 'named', first: before, last: before };
  // Skipped: the change lies between the two readings; found to the second (zones change on one).
  let early = Math.floor(Math.min(before, after) / 1000);
  let late = Math.ceil(Math.max(before, after) / 1000);
  const earlyOffset = exactOffset(early * 1000, timeZone);
  while (late - early > 1) {
    const middle = Math.floor((early + late) / 2);
    if (exactOffset(middle * 1000, timeZone) === earlyOffset) early = middle;
    else late = middle;
  }
  return { kind: 'skipped', change: late * 1000, readBefore: before };
}


const two = (n: number) => (n < 10 ? `0${n}` : String(n));
const four = (n: number) => String(n).padStart(4, '0');

/** "2026-10-31" */
export function dayKey(parts: Pick<LocalParts, 'year' | 'month' | 'day'>): string {
  return `${four(parts.year)}-${two(parts.month)}-${two(parts.day)}`;
}

/** "2026-10" */
export function monthKey(parts: Pick<LocalParts, 'year' | 'month'>): string {
  return `${four(parts.year)}-${two(parts.month)}`;
}

/** The ISO week of a local date: "2026-W44" (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeekKey(parts: Pick<LocalParts, 'year' | 'month' | 'day'>): string {
  const date = new Date(utc(parts.year, parts.month, parts.day));
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  date.setUTCDate(date.getUTCDate() - weekday + 3); // the Thursday of this week decides its year
  const weekYear = date.getUTCFullYear();
  const firstThursday = new Date(utc(weekYear, 1, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  const week = 1 + Math.round((date.getTime() - firstThursday.getTime()) / (7 * DAY));
  return `${four(weekYear)}-W${two(week)}`;
}

/** Days of the calendar from one "YYYY-MM-DD" to another, both included. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  const [y, m, d] = first.split('-').map(Number) as [number, number, number];
  const date = new Date(utc(y, m, d));
  for (let key = first; key <= last; ) {
    days.push(key);
    date.setUTCDate(date.getUTCDate() + 1);
    key = dayKey({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
    if (days.length > 100_000) break; // a guard against absurd ranges; no real report spans 270 years
  }
  return days;
}

/** Months from one "YYYY-MM" to another, both included. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, month] = first.split('-').map(Number) as [number, number];
  for (let key = first; key <= last; key = monthKey({ year, month })) {
    months.push(key);
    month++;
    if (month > 12) {
      month = 1;
      year++;
    }
    if (months.length > 12_000) break;
  }
  return months;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "October 2026" */
export function monthName(year: number, month: number): string {
  return `${MONTH_NAMES[month - 1] ?? '?'} ${year}`;
}

/** "2026-10" → "October 2026" */
export function monthLabel(key: string): string {
  const [year, month] = key.split('-').map(Number) as [number, number];
  return monthName(year, month);
}

/** The zone as Intl names it (`utc` → UTC, Asia/Kolkata → Asia/Calcutta), or null when Intl knows no such zone. */
export function canonicalZone(value: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
