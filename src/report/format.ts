// Numbers, money and times as the pages show them. The time zone is a parameter, never read here.

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

/** Dollars: cents from $1 up, four decimals below (a reply often costs a fraction of a cent). */
export function formatUsd(amount: number | null): string {
  if (amount === null) return '—';
  if (amount === 0) return '$0.00';
  const abs = Math.abs(amount);
  const sign = amount < 0 ? '-' : '';
  if (abs >= 1) return `${sign}$${abs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (abs >= 0.0001) return `${sign}$${abs.toFixed(4)}`;
  return `${sign}<$0.0001`;
}

export interface TimeFormat {
  timeZone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();
const HOUR = 3_600_000;

/** The zone's offset from UTC at `ms`, in ms. Offsets change at most on the hour, so one Intl call per hour of history. */
function offsetAt(ms: number, timeZone: string): number {
  let byHour = offsets.get(timeZone);
  if (!byHour) {
    byHour = new Map();
    offsets.set(timeZone, byHour);
  }
  const hour = Math.floor(ms / HOUR);
  let offset = byHour.get(hour);
  if (offset === undefined) {
    offset = zoneOffset(hour * HOUR, timeZone);
    byHour.set(hour, offset);
  }
  return offset;
}

function zoneOffset(ms: number, timeZone: string): number {
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
    });
    formatters.set(timeZone, formatter);
  }
  const p: Record<string, number> = {};
  for (const part of formatter.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p['year'] ?? 1970, (p['month'] ?? 1) - 1, p['day'] ?? 1, p['hour'] ?? 0, p['minute'] ?? 0, p['second'] ?? 0);
  return asUtc - (ms - (ms % 1000));
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

function partsOf(ms: number, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const local = new Date(ms + offsetAt(ms, timeZone));
  return {
    year: String(local.getUTCFullYear()).padStart(4, '0'),
    month: two(local.getUTCMonth() + 1),
    day: two(local.getUTCDate()),
    hour: two(local.getUTCHours()),
    minute: two(local.getUTCMinutes()),
    second: two(local.getUTCSeconds()),
  };
}

/** "2026-11-30 11:32" in the report's time zone. */
export function formatDateTime(ms: number | null, { timeZone }: TimeFormat): string {
  if (ms === null) return '—';
  const p = partsOf(ms, timeZone);
  return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}`;
}

/** "11:32:05" in the report's time zone. */
export function formatTime(ms: number | null, { timeZone }: TimeFormat): string {
  if (ms === null) return '';
  const p = partsOf(ms, timeZone);
  return `${p['hour']}:${p['minute']}:${p['second']}`;
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
