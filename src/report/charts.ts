// Charts of cost over time as view models: which days or months to draw, which models get their
// own colour, the SVG, its legend, and the same numbers as a table.

import type { Period } from '../ledger/scope.js';
import { dayKey, daysBetween, localParts, monthLabel, monthsBetween } from '../time-zone.js';
import type { Bucket, ModelTotals } from './data.js';
import { formatUsd } from './format.js';
import { roundingNote } from './numbers.js';
import { costChartSvg, OTHER_COLOUR, SERIES_COLOURS, swatchSvg, type ChartSlice } from './svg/cost-chart.js';
import { cell, column, numberCell, tableView, type TableView } from './tables.js';
import { modelName } from './json.js';

export interface ChartView {
  heading: string;
  /** SVG built by bough; every text in it escaped. */
  svg: string;
  /** Swatch (SVG built by bough) and label per series. */
  legend: { swatch: string; label: string }[];
  note: string | null;
  /** The same numbers as the chart, for screen readers and reading without a mouse. */
  table: TableView;
  tableSummary: string;
}

/** Models with a colour of their own; the rest share "other models". */
const NAMED_SERIES = SERIES_COLOURS.length - 1;
/** Longer ranges than this many days are also drawn by month. */
export const DAILY_ONLY_UP_TO = 62;
const MAX_PERIOD_DAYS = 400;
const MAX_PERIOD_MONTHS = 60;

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The days to draw: the whole period when it is bounded on both sides (so a quiet week shows as
 * quiet), else from the first day with activity to the last.
 */
export function daysToShow(days: readonly Bucket[], period: Period, timeZone: string): string[] {
  const bounded = boundedDays(period, timeZone);
  if (bounded !== null) {
    const all = daysBetween(bounded[0], bounded[1]);
    if (all.length <= MAX_PERIOD_DAYS) return all;
  }
  const first = days[0]?.key;
  const last = days.at(-1)?.key;
  return first && last ? daysBetween(first, last) : [];
}

/**
 * The months to list and draw: as the days, but only those with activity when the range is longer
 * than five years (`quietLeftOut`), so that one session years before the rest adds a row, not sixty.
 */
export function monthsToShow(months: readonly Bucket[], period: Period, timeZone: string): { keys: string[]; quietLeftOut: boolean } {
  const bounded = boundedDays(period, timeZone);
  if (bounded !== null) {
    const all = monthsBetween(bounded[0].slice(0, 7), bounded[1].slice(0, 7));
    if (all.length <= MAX_PERIOD_MONTHS) return { keys: all, quietLeftOut: false };
  }
  const first = months[0]?.key;
  const last = months.at(-1)?.key;
  const all = first && last ? monthsBetween(first, last) : [];
  if (all.length <= MAX_PERIOD_MONTHS) return { keys: all, quietLeftOut: false };
  const active = months.map((m) => m.key);
  return { keys: active, quietLeftOut: active.length < all.length };
}

function boundedDays(period: Period, timeZone: string): [string, string] | null {
  if (period.start === null || period.end === null) return null;
  return [dayKey(localParts(period.start, timeZone)), dayKey(localParts(period.end - 1, timeZone))];
}

interface Series {
  label: string;
  colour: string;
  /** Model key → name, of each model the series draws. */
  names: ReadonlyMap<string, string>;
}

/** The most expensive models get a colour each; the rest are "other models". Unpriced ones have no cost to draw. */
function seriesOf(models: readonly ModelTotals[]): { series: Series[]; unpriced: number; modelless: boolean } {
  const drawn = models.filter((m) => (m.cost.bough ?? 0) > 0);
  const named = drawn.length <= NAMED_SERIES + 1 ? drawn : drawn.slice(0, NAMED_SERIES);
  const series: Series[] = named.map((m, i) => ({ label: modelName(m), colour: SERIES_COLOURS[i] as string, names: new Map([[m.key, modelName(m)]]) }));
  const rest = drawn.slice(named.length);
  if (rest.length > 0) series.push({ label: `${rest.length} other models`, colour: OTHER_COLOUR, names: new Map(rest.map((m) => [m.key, modelName(m)])) });
  return { series, unpriced: models.filter((m) => m.unpriced > 0 && m.model !== null).length, modelless: models.some((m) => m.unpriced > 0 && m.model === null) };
}

export function dailyChart(days: readonly Bucket[], models: readonly ModelTotals[], keys: readonly string[], heading: string): ChartView | null {
  const byKey = new Map(days.map((d) => [d.key, d]));
  // Past two months, day numbers would crowd the axis: months alone mark it.
  const dayTicks = keys.length <= DAILY_ONLY_UP_TO;
  return chartView(heading, 'Day', models, keys, byKey, (key, index) => {
    const [year, month, day] = key.split('-').map(Number) as [number, number, number];
    const opensMonth = day === 1 || index === 0;
    return {
      label: key,
      tick: dayTicks ? String(day) : '',
      major: opensMonth ? (SHORT_MONTHS[month - 1] as string) : null,
      year: String(year),
      month,
    };
  });
}

export function monthlyChart(months: readonly Bucket[], models: readonly ModelTotals[], keys: readonly string[], heading: string): ChartView | null {
  const byKey = new Map(months.map((m) => [m.key, m]));
  return chartView(heading, 'Month', models, keys, byKey, (key, index) => {
    const [year, month] = key.split('-').map(Number) as [number, number];
    return { label: monthLabel(key), tick: SHORT_MONTHS[month - 1] as string, major: month === 1 || index === 0 ? String(year) : null };
  });
}

function chartView(
  heading: string,
  sliceName: 'Day' | 'Month',
  models: readonly ModelTotals[],
  keys: readonly string[],
  buckets: ReadonlyMap<string, Bucket>,
  labels: (key: string, index: number) => Pick<ChartSlice, 'label' | 'tick' | 'major' | 'year' | 'month'>,
): ChartView | null {
  if (keys.length === 0) return null;
  const { series, unpriced, modelless } = seriesOf(models);
  const slices: ChartSlice[] = keys.map((key, index) => {
    const bucket = buckets.get(key);
    const costs = series.map((s) => [...s.names.keys()].map((modelKey) => bucket?.byModel.get(modelKey)?.cost.bough ?? 0));
    const values = costs.map((each) => each.reduce((sum, cost) => sum + cost, 0));
    // A group's segment names the one model of it that cost something that day, or how many did.
    const segmentLabels = series.map((s, n) => {
      if (s.names.size === 1) return null;
      const used = [...s.names.values()].filter((_, m) => (costs[n]?.[m] ?? 0) > 0);
      return used.length === 1 ? (used[0] as string) : `${used.length} of the ${s.label}`;
    });
    return { ...labels(key, index), values, segmentLabels };
  });
  const svg = costChartSvg({
    title: `${heading}, stacked by model, by bough's price`,
    series: series.map((s) => ({ label: s.label, colour: s.colour })),
    slices,
    formatMoney: formatUsd,
    formatAxis: axisMoney,
  });
  const notes: string[] = [];
  if (series.length === 0) notes.push('Nothing in this period has a known cost to draw.');
  if (unpriced > 0) notes.push(`${unpriced === 1 ? 'One model has' : `${unpriced} models have`} no price in the table: their cost is unknown and not drawn.`);
  if (modelless) notes.push('Some usage names no model: its cost is unknown and not drawn.');
  // Some of a slice's usage has no price: its total says so, as every other table's does.
  const unknown = keys.map((key) => {
    const tally = buckets.get(key)?.tally;
    return tally !== undefined && tally.unpriced + tally.partial > 0;
  });
  // Each row sorts by its day's or month's key ("2026-04"), not its name ("April 2026").
  const shown = slices.flatMap((slice, i) => (slice.values.some((v) => v > 0) || unknown[i] ? [{ slice, key: keys[i] as string, unknown: unknown[i] === true }] : []));
  const unknownOnly = shown.filter(({ slice, unknown }) => unknown && !slice.values.some((v) => v > 0)).length;
  return {
    heading,
    svg,
    legend: series.map((s) => ({ swatch: swatchSvg(s.colour), label: s.label })),
    note: notes.length > 0 ? notes.join(' ') : null,
    tableSummary: `The same numbers as a table (${shown.length - unknownOnly} of ${slices.length} with a cost${unknownOnly > 0 ? `, ${unknownOnly} with an unknown one` : ''})`,
    table: tableView({
      className: 'chart-table',
      // A row of a cost known in part shows that part ("$3.05 + unknown"): added up as shown, as the By month table's is.
      caption: roundingNote(
        shown.map(({ slice, unknown }) => {
          const total = slice.values.reduce((a, b) => a + b, 0);
          return unknown && total === 0 ? null : total;
        }),
      ),
      columns: [column(sliceName), ...series.map((s) => column(s.label, true)), column('All models', true)],
      rows: shown.map(({ slice, key, unknown }) => {
        const total = slice.values.reduce((a, b) => a + b, 0);
        const all = unknown ? (total > 0 ? `${formatUsd(total)} + unknown` : 'unknown') : formatUsd(total);
        return [cell(slice.label, { sort: key }), ...slice.values.map((v) => numberCell(v > 0 ? formatUsd(v) : '', v)), numberCell(all, total)];
      }),
      total: null,
      sortable: true,
      sortedBy: null,
    }),
  };
}

/** "$0", "$2.50", "$15", "$1.2k": amounts for an axis. */
export function axisMoney(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 1000) return `$${Number((usd / 1000).toPrecision(3))}k`;
  if (usd >= 10) return `$${Math.round(usd)}`;
  if (usd >= 0.01) {
    // A tick of $0.015 is not $0.02: as many decimals as the tick has (steps are round), two at least.
    const tick = Number(usd.toPrecision(3));
    return `$${tick.toFixed(Math.max(2, (String(tick).split('.')[1] ?? '').length))}`;
  }
  return `$${Number(usd.toPrecision(2))}`;
}

