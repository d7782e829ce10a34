// The cost chart's axis: each year it spans is named, whatever labels were left out for room.

import { describe, expect, it } from 'vitest';
import { dailyChart, monthlyChart } from '../src/report/charts.js';

/** Every day from `first` to `last`, as the chart's keys. */
function daysFrom(first: string, last: string): string[] {
  const keys: string[] = [];
  for (let at = Date.parse(`${first}T00:00:00Z`); at <= Date.parse(`${last}T00:00:00Z`); at += 86_400_000) keys.push(new Date(at).toISOString().slice(0, 10));
  return keys;
}

/** The bold labels under the axis, in order. */
function majorLabels(svg: string): string[] {
  return [...svg.matchAll(/<text [^>]*font-weight="600"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] as string);
}

describe('the cost chart’s axis', () => {
  it('names the year of the first label drawn in each year (regression: only a January said it, and Januaries were left out)', () => {
    const chart = dailyChart([], [], daysFrom('2024-11-15', '2027-05-15'), 'Cost per day');
    const labels = majorLabels(chart?.svg ?? '');
    expect(labels[0]).toBe('Nov 2024');
    for (const year of ['2025', '2026', '2027']) expect(labels.filter((l) => l.endsWith(` ${year}`))).toHaveLength(1);
    // The others name the month alone.
    expect(labels.filter((l) => !/ \d{4}$/.test(l)).every((l) => /^[A-Z][a-z]{2}$/.test(l))).toBe(true);
  });

  // Regression: a month chart opening in December named its first year under December and left
  // out the next January's for room, so the whole of 2025 went unnamed.
  it('names every year of a month chart that opens in December', () => {
    const months = ['2024-12', ...Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`), '2026-01'];
    expect(majorLabels(monthlyChart([], [], months, 'Cost per month')?.svg ?? '')).toEqual(['2024', '2025', '2026']);
  });

  it('names the year once on a chart of one month', () => {
    const labels = majorLabels(dailyChart([], [], daysFrom('2026-10-01', '2026-10-31'), 'Cost per day')?.svg ?? '');
    expect(labels).toEqual(['Oct 2026']);
  });
});
