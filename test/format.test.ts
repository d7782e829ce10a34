import { describe, expect, it } from 'vitest';
import { formatCompact, formatCount, formatDateTime, formatTime, formatUsd } from '../src/report/format.js';

describe('formatting', () => {
  // The fast path works from the zone's offset per hour; Intl is the reference.
  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])('shows times in %s as Intl does, across DST changes', (timeZone) => {
    const reference = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2026, 11, 31); ms += 3_599_917 * 11) {
      const p = Object.fromEntries(reference.formatToParts(ms).map((part) => [part.type, part.value]));
      // Near an offset change the offset follows the time (see below).
      expect(`${formatDateTime(ms, { timeZone })} ${formatTime(ms, { timeZone }).replace(/ [+-]\d\d:\d\d$/, '')}`).toBe(
        `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']} ${p['hour']}:${p['minute']}:${p['second']}`,
      );
    }
  });

  // Regression: in the hour that comes twice when clocks go back, 00:30Z and 01:30Z both read
  // "02:30:00" in Berlin, so a session's times seemed to run backwards.
  it('says the offset of a time within an hour of the zone changing it, and only there', () => {
    const berlin = { timeZone: 'Europe/Berlin' };
    expect([Date.UTC(2026, 9, 25, 0, 30), Date.UTC(2026, 9, 25, 1, 30), Date.UTC(2026, 9, 25, 4, 0), Date.UTC(2026, 9, 24, 12, 0)].map((ms) => formatTime(ms, berlin))).toEqual([
      '02:30:00 +02:00',
      '02:30:00 +01:00',
      '05:00:00',
      '14:00:00',
    ]);
    expect(formatTime(Date.UTC(2026, 9, 25, 0, 30), { timeZone: 'UTC' })).toBe('00:30:00');
  });

  it('groups counts and compacts large ones', () => {
    expect([0, 7, 999, 1000, 12345, 1234567, -1234].map(formatCount)).toEqual(['0', '7', '999', '1,000', '12,345', '1,234,567', '-1,234']);
    expect([950, 1234, 174_508_092, 2_500_000_000].map(formatCompact)).toEqual(['950', '1.2k', '175M', '2.5B']);
  });

  it('shows dollars to the cent, and fractions of a cent to four places', () => {
    expect([null, 0, 0.0257493, 0.00004, 12.345, 1234.5].map(formatUsd)).toEqual(['—', '$0.00', '$0.0257', '<$0.0001', '$12.35', '$1,234.50']);
    // Regression: a tie rounded by its binary value went either way ($0.05975 read $0.0597 in the terminal, $0.0598 on the page).
    expect([11_950 * 5e-6, 0.01 + 0.04975, 30 * 5e-6, 0.08625, 0.01125, 0.06625, 1.005, 2.675, 0.99995].map(formatUsd)).toEqual(['$0.0598', '$0.0598', '$0.0002', '$0.0863', '$0.0113', '$0.0663', '$1.01', '$2.68', '$1.00']);
  });
});
