// The cost chart's axis: each year it spans is named, whatever labels were left out for room.

import { describe, expect, it } from 'vitest';
import { axisMoney, dailyChart, monthlyChart } from '../src/report/charts.js';
import { costChartSvg } from '../src/report/svg/cost-chart.js';
import { emptyTally, emptyUsageTotals, type Bucket, type ModelTotals } from '../src/report/data.js';

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
  // Regression: on a phone the chart opens scrolled to its newest days, and its dollar axis, on the
  // left only, was out of view: bars with no scale.
  // Regression: a tick of $0.015 read "$0.02", and the right-hand labels had less room than the left ones.
  it('labels each tick as the amount it is, with the same room on both sides', () => {
    const svg = costChartSvg({ title: 't', series: [{ label: 'm', colour: '#000' }], slices: [{ label: 'd', tick: '', major: null, values: [0.0123] }], formatMoney: (n) => `$${n}`, formatAxis: axisMoney });
    const left = [...svg.matchAll(/<text x="58" [^>]*text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(left).toEqual(['$0', '$0.005', '$0.01', '$0.015']);
    expect(svg).toContain('<text x="902" ');
  });

  // Regression (a review of the pages as a user reads them): a cost a thousand times smaller than
  // the chart's largest was drawn half a pixel high; on a phone, scrolled to that newest slice,
  // the chart looked empty.
  it('draws a bar of any cost at least two pixels high, standing on the axis', () => {
    const svg = costChartSvg({ title: 't', series: [{ label: 'm', colour: '#000' }], slices: [{ label: 'a', tick: '', major: null, values: [3.05] }, { label: 'b', tick: '', major: null, values: [0.0005] }], formatMoney: (n) => `$${n}`, formatAxis: axisMoney });
    const bars = [...svg.matchAll(/<rect x="[^"]*" y="([^"]*)" width="[^"]*" height="([^"]*)"/g)].map((m) => ({ bottom: Number(m[1]) + Number(m[2]), height: Number(m[2]) }));
    expect(bars).toHaveLength(2);
    expect(bars[1]?.height).toBeGreaterThanOrEqual(2);
    expect(bars[1]?.bottom).toBeCloseTo(bars[0]?.bottom ?? 0, 5);
    // Regression (a hostile look): a bar tall enough, of one large and one tiny part, drew the tiny
    // one two pixels over its total, above the chart's top line.
    const stacked = costChartSvg({ title: 't', series: [{ label: 'a', colour: '#000' }, { label: 'b', colour: '#111' }], slices: [{ label: 'd', tick: '', major: null, values: [15, 0.0001] }], formatMoney: (n) => `$${n}`, formatAxis: axisMoney });
    const tops = [...stacked.matchAll(/<rect x="[^"]*" y="([^"]*)"/g)].map((m) => Number(m[1]));
    const grid = Math.min(...[...stacked.matchAll(/<line [^>]*y1="([^"]*)"/g)].map((m) => Number(m[1])));
    expect(Math.min(...tops)).toBeGreaterThanOrEqual(grid);
  });

  it('gives the dollar axis on both sides', () => {
    const chart = dailyChart([], [], daysFrom('2026-10-01', '2026-11-30'), 'Cost per day');
    const svg = chart?.svg ?? '';
    const left = [...svg.matchAll(/<text x="58" [^>]*text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    const right = [...svg.matchAll(/<text x="902" [^>]*text-anchor="start"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(left.length).toBeGreaterThan(1);
    expect(right).toEqual(left);
  });

  it('names the year of the first label drawn in each year (regression: only a January said it, and Januaries were left out)', () => {
    const chart = dailyChart([], [], daysFrom('2024-11-15', '2027-05-15'), 'Cost per day');
    const labels = majorLabels(chart?.svg ?? '');
    expect(labels[0]).toBe('Nov 2024');
    for (const year of ['2025', '2026', '2027']) expect(labels.filter((l) => l.endsWith(` ${year}`))).toHaveLength(1);
    // The others name the month alone.
    expect(labels.filter((l) => !/ \d{4}$/.test(l)).every((l) => /^[A-Z][a-z]{2}$/.test(l))).toBe(true);
  });

  /** Every month from `first` on, `count` of them. */
  const monthsFrom = (first: string, count: number) => {
    const [year, month] = first.split('-').map(Number) as [number, number];
    return Array.from({ length: count }, (_, i) => `${year + Math.floor((month - 1 + i) / 12)}-${String(((month - 1 + i) % 12) + 1).padStart(2, '0')}`);
  };
  /** The bold labels under the axis with the slice each stands under (by its x). */
  const placed = (svg: string) => [...svg.matchAll(/<text x="([\d.]+)"[^>]*font-weight="600"[^>]*>([^<]*)<\/text>/g)].map((m) => [Number(m[1]), m[2] as string] as const);

  // Regression: a month chart opening in December named its first year under December and left
  // out the next January's for room, so the whole of 2025 went unnamed; then, drawn where there
  // was room, "2025" stood under May, after the labels of February and April.
  it('names each year of a month chart where it begins, one that opens in December too', () => {
    for (const count of [14, 60]) {
      const months = monthsFrom('2024-12', count);
      const labels = placed(monthlyChart([], [], months, 'Cost per month')?.svg ?? '');
      const years = [...new Set(months.slice(1).map((m) => m.slice(0, 4)))];
      expect(labels.map(([, text]) => text)).toEqual(years);
      // Each stands under its January (the plot is 832 units wide from x = 64).
      const step = 832 / count;
      for (const [x, year] of labels) expect(x).toBeCloseTo(64 + (months.indexOf(`${year}-01`) + 0.5) * step, 0);
    }
  });

  // Regression: a day chart over five years from February left its last year (a January alone)
  // unnamed: the label had no room after the October before it.
  it('names every year of a day chart, its last month too', () => {
    for (const first of ['2024-02-01', '2024-03-01', '2024-05-01']) {
      const last = '2029-01-31';
      const labels = majorLabels(dailyChart([], [], daysFrom(first, last), 'Cost per day')?.svg ?? '');
      for (const year of ['2024', '2025', '2026', '2027', '2028', '2029']) expect(labels.filter((l) => l.endsWith(` ${year}`)), `${first}: ${year} in ${labels.join(', ')}`).toHaveLength(1);
    }
  });

  it('names the year once on a chart of one month', () => {
    const labels = majorLabels(dailyChart([], [], daysFrom('2026-10-01', '2026-10-31'), 'Cost per day')?.svg ?? '');
    expect(labels).toEqual(['Oct 2026']);
  });
});

// Regression: over a year and a half (June to November), months were left out one at a time for
// room wherever the one before ran close: "Aug, Oct, Nov, Jan 2026, …, Apr, Jun", no two gaps alike.
describe('the cost chart’s months on a long day chart', () => {
  const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const monthOf = (label: string) => SHORT.indexOf(label.slice(0, 3));

  it('names months at a regular stride, each January among them', () => {
    for (const [first, last, stride] of [
      ['2025-06-14', '2026-11-30', 2],
      ['2024-11-15', '2027-05-15', 3],
      ['2024-02-01', '2029-01-31', 6],
      ['2026-01-01', '2026-12-31', 1],
    ] as const) {
      const labels = majorLabels(dailyChart([], [], daysFrom(first, last), 'Cost per day')?.svg ?? '');
      // The first names the chart's first day, whatever its month.
      const months = labels.slice(1).map(monthOf);
      expect(months.every((m) => m % stride === 0), `${first}: ${labels.join(', ')}`).toBe(true);
      const gaps = months.slice(1).map((m, i) => (m - (months[i] as number) + 12) % 12 || 12);
      expect(new Set(gaps), `${first}: ${labels.join(', ')}`).toEqual(new Set([stride]));
    }
  });
});

// Regression from a second look: a label waiting for room was no longer ended by the next
// month's start when the stride left that month out, so "Mar" stood under 14 April, and a
// January under September.
describe('the cost chart’s month labels, wherever the chart starts', () => {
  const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  it('stand each under a day of the month they name', () => {
    for (const [first, days] of [['2025-02-20', 730], ['2016-12-20', 3650], ['2016-06-15', 3650], ['2025-06-14', 535], ['2026-01-28', 400], ['2024-10-31', 1200]] as const) {
      const last = new Date(Date.parse(`${first}T00:00:00Z`) + (days - 1) * 86_400_000).toISOString().slice(0, 10);
      const keys = daysFrom(first, last);
      const svg = dailyChart([], [], keys, 'Cost per day')?.svg ?? '';
      const step = 832 / keys.length;
      const labels = [...svg.matchAll(/<text x="([\d.]+)"[^>]*font-weight="600"[^>]*>([^<]*)<\/text>/g)].map((m) => [Number(m[1]), m[2] as string] as const);
      expect(labels.length).toBeGreaterThan(1);
      for (const [x, label] of labels) {
        const key = keys[Math.round((x - 64) / step - 0.5)] as string;
        const [year, month] = key.split('-').map(Number) as [number, number];
        expect(label.slice(0, 3), `${first}: ${label} under ${key}`).toBe(SHORT[month - 1]);
        if (/\d{4}$/.test(label)) expect(label.slice(-4), `${first}: ${label} under ${key}`).toBe(String(year));
      }
    }
  });
});

// Regression (an outputs review): a day with priced usage and a reply of a model without a price
// read "$0.0300" in the table's "All models", where every other table said "+ unknown"; a day of
// unpriced usage alone was not in the table at all.
describe('the cost chart’s table', () => {
  it('says a slice’s cost is partly or wholly unknown', () => {
    const priced: ModelTotals = { ...emptyUsageTotals(), cost: { bough: 0.03, recorded: null }, records: 1, key: 'anthropic/claude-haiku-4-5', provider: 'anthropic', model: 'claude-haiku-4-5', fast: false, flex: false, local: false, priceKey: 'claude-haiku-4-5', priceState: 'priced', priceNote: null, apiEquivalent: false, sessions: 1 };
    const unpriced: ModelTotals = { ...priced, cost: { bough: null, recorded: null }, unpriced: 1, key: 'anthropic/claude-mystery-9', model: 'claude-mystery-9', priceKey: null, priceState: 'unpriced' };
    const day = (key: string, models: ModelTotals[]): Bucket => {
      const tally = emptyTally();
      tally.cost.bough = models.reduce<number | null>((sum, m) => (m.cost.bough === null ? sum : (sum ?? 0) + m.cost.bough), null);
      tally.unpriced = models.reduce((n, m) => n + m.unpriced, 0);
      return { key, sessions: 1, tally, byModel: new Map(models.map((m) => [m.key, m])) };
    };
    const days = [day('2026-10-01', [priced, unpriced]), day('2026-10-02', [priced]), day('2026-10-03', [unpriced])];
    const chart = dailyChart(days, [priced, unpriced], ['2026-10-01', '2026-10-02', '2026-10-03'], 'Cost per day');
    expect(chart?.table.rows.map((row) => [row[0]?.text, row.at(-1)?.text])).toEqual([
      ['2026-10-01', '$0.0300 + unknown'],
      ['2026-10-02', '$0.0300'],
      ['2026-10-03', 'unknown'],
    ]);
    expect(chart?.tableSummary).toBe('The same numbers as a table (2 of 3 with a cost, 1 with an unknown one)');
  });
});

// Regression (an outside review in a browser): a segment of the grey "other models" on a day of
// one of them was titled by the group ("2 other models: $0.0100"), not by the model it was.
describe('the cost chart’s tooltips', () => {
  it('name the one model of a group a day used, or how many of the group it used', () => {
    const model = (n: number, cost: number): ModelTotals => ({ ...emptyUsageTotals(), cost: { bough: cost, recorded: null }, records: 1, key: `openai/model-${n}`, provider: 'openai', model: `model-${n}`, fast: false, flex: false, local: false, priceKey: `model-${n}`, priceState: 'priced', priceNote: null, apiEquivalent: false, sessions: 1 });
    // Ten models, the two cheapest in the group.
    const models = Array.from({ length: 10 }, (_, n) => model(n, 10 - n));
    const day = (key: string, used: ModelTotals[]): Bucket => {
      const tally = emptyTally();
      tally.cost.bough = used.reduce((sum, m) => sum + (m.cost.bough ?? 0), 0);
      return { key, sessions: 1, tally, byModel: new Map(used.map((m) => [m.key, m])) };
    };
    const [first, eighth, ninth] = [models[0], models[8], models[9]] as [ModelTotals, ModelTotals, ModelTotals];
    const chart = dailyChart([day('2026-10-01', [first, ninth]), day('2026-10-02', [eighth, ninth])], models, ['2026-10-01', '2026-10-02'], 'Cost per day');
    const tips = [...(chart?.svg ?? '').matchAll(/<rect [^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(tips).toEqual([
      '2026-10-01 · openai/model-0: $10.00 (all models: $11.00)',
      '2026-10-01 · openai/model-9: $1.00 (all models: $11.00)',
      '2026-10-02 · 2 of the 3 other models: $3.00 (all models: $3.00)',
    ]);
  });
});
