import { describe, expect, it } from 'vitest';
import { parsePeriod, parseSources, scopeLabel, ScopeError } from '../src/ledger/scope.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const period = (flags: Parameters<typeof parsePeriod>[0], tz = 'Europe/Berlin') => {
  const p = parsePeriod(flags, tz);
  return { start: iso(p.start), end: iso(p.end), label: p.label, since: p.since, until: p.until };
};

describe('periods from the command line', () => {
  it('takes --month as the calendar month in the zone', () => {
    expect(period({ month: '2026-10' })).toEqual({
      start: '2026-09-30T22:00:00.000Z',
      end: '2026-10-31T23:00:00.000Z',
      label: 'October 2026',
      since: '2026-10-01',
      until: '2026-10-31',
    });
    expect(period({ month: '2026-12' }, 'UTC')).toMatchObject({ start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
  });

  it('includes the whole day --until names, and reads whole months and years as such', () => {
    expect(period({ since: '2026-10-01', until: '2026-10-31' })).toMatchObject({ label: 'October 2026', end: '2026-10-31T23:00:00.000Z' });
    expect(period({ since: '2026-01-01', until: '2026-12-31' }, 'UTC')).toMatchObject({ label: '2026' });
    expect(period({ since: '2026-10-01', until: '2026-10-15' }, 'UTC')).toMatchObject({ label: '2026-10-01 – 2026-10-15', end: '2026-10-16T00:00:00.000Z' });
    expect(period({ since: '2026-10-05' }, 'UTC')).toEqual({ start: '2026-10-05T00:00:00.000Z', end: null, label: 'since 2026-10-05', since: '2026-10-05', until: null });
    expect(period({ until: '2026-10-05' }, 'UTC')).toMatchObject({ start: null, label: 'until 2026-10-05' });
    expect(period({})).toEqual({ start: null, end: null, label: 'all time', since: null, until: null });
  });

  it('reads ISO times in the zone, or in their own offset when they carry one', () => {
    expect(period({ since: '2026-10-01T09:30' })).toMatchObject({ start: '2026-10-01T07:30:00.000Z' });
    expect(period({ since: '2026-10-01T09:30:00Z' })).toMatchObject({ start: '2026-10-01T09:30:00.000Z' });
    expect(period({ since: '2026-10-01T09:30:00.250+05:30' })).toMatchObject({ start: '2026-10-01T04:00:00.250Z' });
    // An --until time is included whole, to the precision it is written in (regression: 23:59 ended at 23:59:00.001).
    expect(period({ until: '2026-10-01T09:30:00Z' })).toMatchObject({ end: '2026-10-01T09:30:01.000Z' });
    expect(period({ until: '2026-10-01T09:30Z' })).toMatchObject({ end: '2026-10-01T09:31:00.000Z' });
    expect(period({ until: '2026-10-01T09:30:00.250Z' })).toMatchObject({ end: '2026-10-01T09:30:00.251Z' });
    // Fractions too (regression: .9 ended at .901, before what 09:30:00 alone took in).
    expect(period({ until: '2026-10-01T09:30:00.9Z' })).toMatchObject({ end: '2026-10-01T09:30:01.000Z' });
    expect(period({ until: '2026-10-01T09:30:00.99Z' })).toMatchObject({ end: '2026-10-01T09:30:01.000Z' });
    expect(period({ until: '2026-10-01T09:30:00.2500Z' })).toMatchObject({ end: '2026-10-01T09:30:00.251Z' });
    // Finer than a millisecond, as records are timed (a contract review: --since .0001 took in the
    // record of .000 before it).
    expect(period({ since: '2026-10-01T09:30:00.0001Z', until: '2026-10-01T09:30:00.2501Z' })).toMatchObject({ start: '2026-10-01T09:30:00.001Z', end: '2026-10-01T09:30:00.251Z' });
    expect(period({ since: '2026-10-01T09:30:00.0000', until: '2026-10-01T09:30:00.0009' }, 'UTC')).toMatchObject({ start: '2026-10-01T09:30:00.000Z', end: '2026-10-01T09:30:00.001Z' });
    // The right way round though both round to one millisecond (a hostile look: refused as "comes after").
    expect(period({ since: '2026-10-01T09:30:00.0001Z', until: '2026-10-01T09:30:00.0005Z' })).toMatchObject({ start: '2026-10-01T09:30:00.001Z', end: '2026-10-01T09:30:00.001Z' });
    expect(period({ since: '2026-10-01T09:30:00.0001', until: '2026-10-01T09:30:00.0001' }, 'UTC')).toMatchObject({ start: '2026-10-01T09:30:00.001Z' });
    expect(() => period({ since: '2026-10-01T09:30:00.0006Z', until: '2026-10-01T09:30:00.0005Z' })).toThrow(/comes after/);
    expect(period({ since: '2026-10-01T09:30+14:00' })).toMatchObject({ start: '2026-09-30T19:30:00.000Z' });
    expect(period({ since: '2026-10-01T09:30-0930' })).toMatchObject({ start: '2026-10-01T19:00:00.000Z' });
  });

  it.each([
    [{ month: '2026-13' }, /--month wants a month as YYYY-MM/],
    [{ month: 'October' }, /--month wants a month as YYYY-MM/],
    [{ month: '2026-10', since: '2026-10-01' }, /cannot be combined/],
    [{ since: '2026-02-30' }, /not a day of the calendar/],
    [{ since: 'yesterday' }, /wants a day \(YYYY-MM-DD\) or an ISO time/],
    [{ since: '2026-10-31', until: '2026-10-01' }, /comes after --until/],
    [{ since: '2026-10-01T25:00' }, /not a time of the calendar/],
    // Regression: offsets no zone has were taken (+25:00 as a day and an hour, +05:99 as 6 h 39 min), and year 0 as a month.
    [{ since: '2026-11-01T10:00+25:00' }, /not a time of the calendar/],
    [{ since: '2026-11-01T10:00+05:99' }, /not a time of the calendar/],
    [{ until: '2026-11-01T10:00-23:59' }, /not a time of the calendar/],
    [{ month: '0000-01' }, /is before 1970/],
    // Regression: a day before 1970 was said to be "not a day of the calendar".
    [{ since: '1969-12-31' }, /--since "1969-12-31" is before 1970, where bough counts from/],
    [{ until: '1900-01-01T10:00Z' }, /--until "1900-01-01T10:00Z" is before 1970, where bough counts from/],
    // Regression: the years 0 to 99 were read as 1900 to 1999, so not a day of the calendar.
    [{ since: '0001-01-01' }, /--since "0001-01-01" is before 1970, where bough counts from/],
    // Regression: a month past every record's time was taken, and `--month 9999-12` ended in year 10000.
    [{ month: '9999-12' }, /--month "9999-12" is after 2099: bough reads no record's time past it/],
    [{ until: '2100-01-01' }, /--until "2100-01-01" is after 2099/],
    [{ since: '1969-02-30' }, /not a day of the calendar/],
  ])('refuses %j with a sentence', (flags, message) => {
    expect(() => parsePeriod(flags, 'UTC')).toThrow(ScopeError);
    expect(() => parsePeriod(flags, 'UTC')).toThrow(message);
  });

  // Regression: a day's --until was compared as its midnight, so its afternoon was "empty".
  it('takes --since a time and --until that day as the rest of the day', () => {
    expect(period({ since: '2026-10-31T12:00', until: '2026-10-31' }, 'UTC')).toMatchObject({ start: '2026-10-31T12:00:00.000Z', end: '2026-11-01T00:00:00.000Z' });
    expect(period({ since: '2026-10-31T12:00Z', until: '2026-10-31' }, 'UTC')).toMatchObject({ start: '2026-10-31T12:00:00.000Z', end: '2026-11-01T00:00:00.000Z' });
    expect(() => parsePeriod({ since: '2026-11-01T00:00', until: '2026-10-31' }, 'UTC')).toThrow(/comes after --until/);
  });

  // Regression: times given with their zone were compared as the report's zone writes them, which
  // in the hour the clocks go back turned their order round.
  it('orders times given with their zone as the instants they are, whatever the report’s zone', () => {
    const zoned = { since: '2026-11-01T08:30Z', until: '2026-11-01T09:10Z' };
    expect(period(zoned, 'America/Los_Angeles')).toMatchObject({ start: '2026-11-01T08:30:00.000Z', end: '2026-11-01T09:11:00.000Z' });
    expect(period({ since: '2026-10-25T00:30Z', until: '2026-10-25T01:15Z' })).toMatchObject({ start: '2026-10-25T00:30:00.000Z' });
    expect(() => parsePeriod({ since: zoned.until, until: zoned.since }, 'America/Los_Angeles')).toThrow(/comes after --until/);
    // One with its zone, one without, in the repeated hour: a repeated time is its first (03:50
    // in Vilnius is 00:50Z, after 00:45Z; 03:15 is 00:15Z, before it).
    expect(period({ since: '2026-10-25T00:45Z', until: '2026-10-25T03:50' }, 'Europe/Vilnius')).toMatchObject({ start: '2026-10-25T00:45:00.000Z', end: '2026-10-25T00:51:00.000Z' });
    expect(() => parsePeriod({ since: '2026-10-25T00:45Z', until: '2026-10-25T03:15' }, 'Europe/Vilnius')).toThrow(/comes after --until/);
  });

  it('takes --source as a list of known agents', () => {
    expect(parseSources('pi, Claude,pi')).toEqual(['pi', 'claude']);
    expect(() => parseSources('pi,cursor')).toThrow(/--source wants one or more of pi, claude, codex/);
  });

  it('says in one line what a report covers', () => {
    expect(scopeLabel({ timeZone: 'Europe/Berlin', period: parsePeriod({ month: '2026-10' }, 'Europe/Berlin'), project: null, sources: null })).toBe('October 2026 · Europe/Berlin');
    expect(scopeLabel({ timeZone: 'UTC', period: parsePeriod({}, 'UTC'), project: 'shop', sources: ['pi'] })).toBe('All time · UTC · project “shop” · agent pi');
  });
});
