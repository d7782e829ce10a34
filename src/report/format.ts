// Numbers, money and times as the pages show them. The time zone is a parameter, never read here.

import { localParts, offsetAt } from '../time-zone.js';

/** 1234567 → "1,234,567" (rounded to a whole number). */
export function formatCount(n: number): string {
  const whole = Math.round(n);
  const digits = String(Math.abs(whole));
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) grouped = grouped ? `${digits.slice(Math.max(0, end - 3), end)},${grouped}` : digits.slice(Math.max(0, end - 3), end);
  return whole < 0 ? `-${grouped}` : grouped;
}

/** 1,234 → "1.2k", 12,345,678 → "12.3M": for cards; tables show full numbers. */
export function formatCompact(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return formatCount(n);
  const [divisor, suffix] = abs >= 1e9 ? [1e9, 'B'] : abs >= 1e6 ? [1e6, 'M'] : [1e3, 'k'];
  const value = n / divisor;
  return `${value.toFixed(Math.abs(value) >= 100 ? 0 : 1)}${suffix}`;
}

/** Made once: `toLocaleString` with options builds a formatter at every call (60 ms a rebuild). */
const CENTS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Dollars: cents from $1 up, four decimals below (a reply often costs a fraction of a cent). */
export function formatUsd(amount: number | null): string {
  if (amount === null) return '—';
  if (amount === 0) return '$0.00';
  const abs = Math.abs(amount);
  const sign = amount < 0 ? '-' : '';
  const toTenThousandths = roundHalfUp(abs, 4);
  if (toTenThousandths >= 1) return `${sign}$${CENTS.format(roundHalfUp(abs, 2))}`;
  if (toTenThousandths >= 0.0001) return `${sign}$${toTenThousandths.toFixed(4)}`;
  return `${sign}<$0.0001`;
}

/** An amount as formatUsd shows it, or null where it shows none to add up ("<$0.0001", "—"). */
export function shownUsd(amount: number | null): number | null {
  if (amount === null) return null;
  const abs = Math.abs(amount);
  const tenThousandths = roundHalfUp(abs, 4);
  if (amount !== 0 && tenThousandths < 0.0001) return null;
  return Math.sign(amount) * (tenThousandths >= 1 ? roundHalfUp(abs, 2) : tenThousandths);
}

/**
 * `value` rounded to `digits` decimals, half up, as the decimal it stands for: 0.05975 is stored
 * as 0.0597499…, and a sum of the same amounts in another order as 0.0597500…1, so rounding the
 * binary value showed $0.0597 in one place and $0.0598 in another. Twelve significant digits are
 * far more than any amount here holds, and far fewer than a double's float noise reaches.
 */
export function roundHalfUp(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(Number((value * scale).toPrecision(12))) / scale;
}

export interface TimeFormat {
  timeZone: string;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

function partsOf(ms: number, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const p = localParts(ms, timeZone);
  return {
    year: String(p.year).padStart(4, '0'),
    month: two(p.month),
    day: two(p.day),
    hour: two(p.hour),
    minute: two(p.minute),
    second: two(p.second),
  };
}

/** "2026-11-30 11:32" in the report's time zone. */
export function formatDateTime(ms: number | null, { timeZone }: TimeFormat): string {
  if (ms === null) return '—';
  const p = partsOf(ms, timeZone);
  return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}`;
}

/**
 * "11:32:05" in the report's time zone; "2026-11-02 00:00:05" when that is not on `day` (the day
 * the session started, as formatDay gives it): a session that runs past midnight says on which.
 */
export function formatTime(ms: number | null, { timeZone }: TimeFormat, day: string | null = null): string {
  if (ms === null) return '';
  const p = partsOf(ms, timeZone);
  const clock = `${p['hour']}:${p['minute']}:${p['second']}`;
  const own = `${p['year']}-${p['month']}-${p['day']}`;
  const time = day === null || own === day ? clock : `${own} ${clock}`;
  return nearOffsetChange(ms, timeZone) ? `${time} ${offsetText(offsetAt(ms, timeZone))}` : time;
}

const HOUR = 3_600_000;

/**
 * Within an hour of the zone changing its offset: where clocks go back, the hour after 02:00 comes
 * twice, and times in it read as if they went backwards unless their offset is said.
 */
function nearOffsetChange(ms: number, timeZone: string): boolean {
  const offset = offsetAt(ms, timeZone);
  return offsetAt(ms - HOUR, timeZone) !== offset || offsetAt(ms + HOUR, timeZone) !== offset;
}

/** "+02:00", "-09:30". */
function offsetText(offset: number): string {
  const minutes = Math.round(Math.abs(offset) / 60_000);
  return `${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/** "2026-11-30" in the report's time zone. */
export function formatDay(ms: number | null, { timeZone }: TimeFormat): string {
  if (ms === null) return 'undated';
  const p = partsOf(ms, timeZone);
  return `${p['year']}-${p['month']}-${p['day']}`;
}

/** "2026-11" in the report's time zone. */
export function formatMonth(ms: number | null, { timeZone }: TimeFormat): string {
  if (ms === null) return 'undated';
  const p = partsOf(ms, timeZone);
  return `${p['year']}-${p['month']}`;
}

/** An ISO instant for machine-readable attributes. */
export function isoTime(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.round(hours / 24)} days`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Sessions, and apart from them the starts of Claude Code never given a prompt (sessions of its warmups alone, listed as none). */
export interface SessionCount {
  sessions: number;
  warmupStarts: number;
}

/** "3 sessions (and 1 start of Claude Code never given a prompt)", as every count of sessions bough says is worded. */
export function sessionsSaid({ sessions, warmupStarts }: SessionCount): string {
  return `${plural(sessions, 'session')}${warmupStarts > 0 ? ` (and ${plural(warmupStarts, 'start')} of Claude Code never given a prompt)` : ''}`;
}
