import { describe, expect, it } from 'vitest';
import { dayKey, daysBetween, instantOf, isoWeekKey, localParts, monthsBetween, offsetAt } from '../src/time-zone.js';
import { machineTimeZone, machineTimeZoneProblem } from '../src/environment.js';

const at = (iso: string) => Date.parse(iso);

describe('calendar arithmetic in a time zone', () => {
  it('finds the local day of an instant on both sides of a clock change', () => {
    // Los Angeles leaves summer time at 02:00 on 1 November 2026 (09:00 UTC).
    expect(dayKey(localParts(at('2026-11-01T06:59:59Z'), 'America/Los_Angeles'))).toBe('2026-10-31');
    expect(dayKey(localParts(at('2026-11-01T07:00:00Z'), 'America/Los_Angeles'))).toBe('2026-11-01');
    expect(dayKey(localParts(at('2026-11-02T07:59:59Z'), 'America/Los_Angeles'))).toBe('2026-11-01');
    expect(dayKey(localParts(at('2026-11-02T08:00:00Z'), 'America/Los_Angeles'))).toBe('2026-11-02');
  });

  it('starts a local day at the right instant, summer time or not', () => {
    expect(new Date(instantOf({ year: 2026, month: 11, day: 1 }, 'America/Los_Angeles')).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(new Date(instantOf({ year: 2026, month: 11, day: 2 }, 'America/Los_Angeles')).toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(new Date(instantOf({ year: 2026, month: 3, day: 29 }, 'Europe/Berlin')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(instantOf({ year: 2026, month: 10, day: 1 }, 'Asia/Kathmandu')).toISOString()).toBe('2026-09-30T18:15:00.000Z');
  });

  it('reads a local time the clock skipped with the offset before the change', () => {
    // Berlin jumps from 02:00 to 03:00 on 29 March 2026: 02:30 does not exist there.
    expect(new Date(instantOf({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // A day that starts at 01:00 because midnight was skipped (Santiago, 6 September 2026).
    const start = instantOf({ year: 2026, month: 9, day: 6 }, 'America/Santiago');
    expect(dayKey(localParts(start, 'America/Santiago'))).toBe('2026-09-06');
    expect(dayKey(localParts(start - 1, 'America/Santiago'))).toBe('2026-09-05');
  });

  it('knows offsets that change off the hour (Lord Howe Island moves by 30 minutes at 02:00 local)', () => {
    // 5 October 2025, 02:00 +10:30 = 4 October 15:30 UTC; then +11:00.
    expect(offsetAt(at('2025-10-04T15:29:00Z'), 'Australia/Lord_Howe')).toBe(10.5 * 3_600_000);
    expect(offsetAt(at('2025-10-04T15:31:00Z'), 'Australia/Lord_Howe')).toBe(11 * 3_600_000);
  });

  it('numbers ISO weeks across the turn of a year', () => {
    expect(isoWeekKey({ year: 2026, month: 12, day: 31 })).toBe('2026-W53');
    expect(isoWeekKey({ year: 2027, month: 1, day: 3 })).toBe('2026-W53');
    expect(isoWeekKey({ year: 2027, month: 1, day: 4 })).toBe('2027-W01');
    expect(isoWeekKey({ year: 2025, month: 12, day: 29 })).toBe('2026-W01');
    expect(isoWeekKey({ year: 2026, month: 10, day: 28 })).toBe('2026-W44');
  });

  it('lists the days and months of a range, both ends included', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe("the machine's time zone", () => {
  // Regression: TZ=Asia/Kolkata was labelled "Asia/Calcutta" everywhere, the name Intl keeps.
  it('keeps the name the machine gives a zone when Intl knows it by an older one', () => {
    const noLink = () => null;
    expect(machineTimeZone({ TZ: 'Asia/Kolkata' }, 'Asia/Calcutta', noLink)).toBe('Asia/Kolkata');
    expect(machineTimeZone({ TZ: ':Asia/Kolkata' }, 'Asia/Calcutta', noLink)).toBe('Asia/Kolkata');
    expect(machineTimeZone({}, 'Asia/Calcutta', () => 'Asia/Kolkata')).toBe('Asia/Kolkata');
  });

  it('keeps Intl’s name when the machine names another zone, none, or UTC as Etc/UTC', () => {
    expect(machineTimeZone({ TZ: 'Europe/Paris' }, 'Asia/Calcutta', () => null)).toBe('Asia/Calcutta');
    expect(machineTimeZone({ TZ: 'Mars/Base' }, 'UTC', () => null)).toBe('UTC');
    expect(machineTimeZone({}, 'UTC', () => 'Etc/UTC')).toBe('UTC');
  });

  // Regression: TZ= (as containers and cron set it) stopped every command with "Invalid time zone
  // specified: Etc/Unknown … a bug in bough"; a TZ naming a zone file counted days in UTC.
  it('reads an empty TZ as UTC, and a TZ naming a zone file as that zone, where Intl knows neither', () => {
    expect(machineTimeZone({ TZ: '' }, 'Etc/Unknown', () => 'Europe/Berlin')).toBe('UTC');
    expect(machineTimeZone({ TZ: '/usr/share/zoneinfo/Asia/Tokyo' }, null, () => 'Europe/Berlin')).toBe('Asia/Tokyo');
    expect(machineTimeZone({ TZ: ':/usr/share/zoneinfo/Asia/Tokyo' }, null, () => null)).toBe('Asia/Tokyo');
  });

  // Regression: TZ=posix/Europe/Berlin counted days in Berlin's zone and warned they were UTC's;
  // TZ=asia/tokyo labelled every table "asia/tokyo", where --tz asia/tokyo says Asia/Tokyo.
  it('takes the zoneinfo posix/ and right/ copies of a zone as that zone, and a name in its own letter case', () => {
    expect(machineTimeZone({ TZ: 'posix/Europe/Berlin' }, 'Europe/Berlin', () => null)).toBe('Europe/Berlin');
    expect(machineTimeZone({ TZ: '/usr/share/zoneinfo/right/Asia/Tokyo' }, null, () => null)).toBe('Asia/Tokyo');
    expect(machineTimeZone({}, null, () => 'posix/Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(machineTimeZoneProblem({ TZ: 'posix/Europe/Berlin' })).toBeNull();
    expect(machineTimeZoneProblem({ TZ: 'right/Asia/Tokyo' })).toBeNull();
    expect(machineTimeZone({ TZ: 'asia/tokyo' }, 'Asia/Tokyo', () => null)).toBe('Asia/Tokyo');
  });

  // Regression: TZ=JST-9, where the machine's clock runs nine hours east, counted days in UTC
  // without a word; a rule bough cannot follow is now said.
  it('reads a POSIX TZ of a fixed offset as that offset, and warns of one it cannot follow', () => {
    expect(machineTimeZone({ TZ: 'JST-9' }, null, () => 'Europe/Berlin')).toBe('Etc/GMT-9');
    expect(machineTimeZone({ TZ: '<-03>3' }, null, () => null)).toBe('Etc/GMT+3');
    expect(machineTimeZone({ TZ: 'UTC0' }, null, () => null)).toBe('UTC');
    for (const tz of ['JST-9', 'UTC0', '', 'Asia/Tokyo', ':/usr/share/zoneinfo/Asia/Tokyo']) expect(machineTimeZoneProblem({ TZ: tz })).toBeNull();
    expect(machineTimeZoneProblem({})).toBeNull();
    for (const tz of ['CET-1CEST,M3.5.0,M10.5.0/3', '<+0530>-5:30', 'Mars/Base', 'XYZ-15']) {
      expect(machineTimeZone({ TZ: tz }, null, () => null)).toBe('UTC');
      expect(machineTimeZoneProblem({ TZ: tz })).toBe(`$TZ is ${JSON.stringify(tz)}, which names no time zone bough can count days in, so it counts them in UTC: pass --tz with an IANA name (such as Europe/Berlin), or set TZ to one.`);
    }
  });
});
