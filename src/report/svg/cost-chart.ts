// A stacked bar chart of cost over time as inline SVG: one bar per day or month, one colour per
// model, a y axis in dollars on both sides, exact values in each segment's <title>. The same
// numbers go into a table beside it (for screen readers and for reading without a mouse). Drawing
// attributes are on the elements themselves, so the chart reads with or without the stylesheet.

import { escapeHtml } from '../escape.js';

export interface ChartSeries {
  label: string;
  colour: string;
}

export interface ChartSlice {
  /** For tooltips: "2026-10-14", "October 2026". */
  label: string;
  /** Under the axis, when there is room: "14", "Oct". */
  tick: string;
  /** A heavier tick and a second line of label: the first day of a month, the first month of a year. */
  major: string | null;
  /** The year of a major label that names no year ("Feb"): written after the first one drawn in each year. */
  year?: string;
  /** A day chart's month (1–12): on a long axis its labels go every few months, January among them. */
  month?: number;
  /** USD per series, in the order of the series. */
  values: number[];
  /** What each segment's tooltip names, where not its series (a group's one model of the day). */
  segmentLabels?: (string | null)[];
}

export interface CostChart {
  /** Says what is drawn, for assistive technology. */
  title: string;
  series: ChartSeries[];
  slices: ChartSlice[];
  /** Exact amounts, for tooltips. */
  formatMoney: (usd: number) => string;
  /** Round amounts, for the axis. */
  formatAxis: (usd: number) => string;
}

/** The least height a bar of some cost is drawn at (px). */
const MIN_BAR_HEIGHT = 2;
const WIDTH = 960;
const HEIGHT = 260;
const LEFT = 64;
/** Room for the axis's labels again on the right, as on the left: a chart wider than a phone opens on its newest days. */
const RIGHT = LEFT;
const TOP = 10;
const BOTTOM = 40;
/** Room a major label needs (in drawing units) before the next one may be drawn. */
const MAJOR_ROOM = 64;
const DAYS_PER_MONTH = 30.44;
const AXIS_COLOUR = '#8a8f98';
const GRID_COLOUR = '#d5d8dd';
const TEXT_COLOUR = '#5b616b';

/** Colours that tell models apart in light and dark pages; the last is for "other models". */
export const SERIES_COLOURS = ['#2f6fd0', '#e07b28', '#2e9d5b', '#c0392b', '#8e5cc7', '#b58b00', '#1f9fb0', '#d45a9c'];
export const OTHER_COLOUR = '#9aa0a8';

export function costChartSvg(chart: CostChart): string {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const totals = chart.slices.map((s) => s.values.reduce((a, b) => a + b, 0));
  const max = Math.max(0, ...totals);
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1] ?? 1;
  const step = plotWidth / Math.max(chart.slices.length, 1);
  const barWidth = Math.max(1, Math.min(step * 0.8, 48));
  const y = (usd: number) => TOP + plotHeight - (usd / top) * plotHeight;
  const parts: string[] = [];

  for (const tick of ticks) {
    const at = round(y(tick));
    parts.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${at}" y2="${at}" stroke="${GRID_COLOUR}" stroke-width="1"/>`);
    const label = escapeHtml(chart.formatAxis(tick));
    parts.push(
      `<text x="${LEFT - 6}" y="${at + 4}" text-anchor="end" font-size="12" fill="${TEXT_COLOUR}">${label}</text>`,
      `<text x="${WIDTH - RIGHT + 6}" y="${at + 4}" text-anchor="start" font-size="12" fill="${TEXT_COLOUR}">${label}</text>`,
    );
  }

  const labelEvery = Math.max(1, Math.ceil(28 / step));
  // Months left out one by one for room read as gaps (Aug, Oct, Nov, Jan): a regular stride instead.
  const monthStride = [1, 2, 3, 6].find((months) => months * DAYS_PER_MONTH * step >= MAJOR_ROOM) ?? 12;
  const withTicks = chart.slices.some((slice) => slice.tick !== '');
  const majorY = TOP + plotHeight + (withTicks ? 32 : 18);
  /** The major labels drawn so far: where, the year each belongs to, and whether it says it. */
  const drawn: { centre: number; year: string | null; saysYear: boolean; index: number; part: number }[] = [];
  let pendingMajor: { slice: ChartSlice; index: number } | null = null;
  // A month chart's majors are years; a day chart's are months, with their year beside them.
  const yearOf = (slice: ChartSlice) => slice.year ?? slice.major;
  const drawMajor = (slice: ChartSlice, index: number, centre: number) => {
    const lastYear = drawn.at(-1)?.year ?? null;
    // Labels left out for room may take a January with them: the first drawn of a year says it.
    const saysYear = slice.year === undefined || slice.year !== lastYear;
    const major = slice.year !== undefined && saysYear ? `${slice.major} ${slice.year}` : (slice.major as string);
    drawn.push({ centre, year: yearOf(slice), saysYear, index, part: parts.length });
    parts.push(`<line x1="${centre}" x2="${centre}" y1="${TOP + plotHeight}" y2="${TOP + plotHeight + 6}" stroke="${AXIS_COLOUR}" stroke-width="1"/>`);
    parts.push(`<text x="${centre}" y="${majorY}" text-anchor="middle" font-size="12" font-weight="600" fill="${TEXT_COLOUR}">${escapeHtml(major)}</text>`);
  };
  chart.slices.forEach((slice, index) => {
    const x = LEFT + index * step + (step - barWidth) / 2;
    const total = totals[index] ?? 0;
    let base = 0;
    const segments: string[] = [];
    // A bar of a cost too small for the scale is drawn a little higher, never as nothing (a chart
    // scrolled to its newest slice, a cent among dollars, looked empty); a bar tall enough, as it is.
    const height = y(0) - y(total);
    const stretch = total > 0 && height < MIN_BAR_HEIGHT ? MIN_BAR_HEIGHT / height : 1;
    const at = (amount: number) => y(0) - (y(0) - y(amount)) * stretch;
    slice.values.forEach((value, s) => {
      if (value <= 0) return;
      const series = chart.series[s] as ChartSeries;
      const y0 = at(base);
      const y1 = at(base + value);
      base += value;
      const tip = `${slice.label} · ${slice.segmentLabels?.[s] ?? series.label}: ${chart.formatMoney(value)} (all models: ${chart.formatMoney(total)})`;
      segments.push(`<rect x="${round(x)}" y="${round(y1)}" width="${round(barWidth)}" height="${round(Math.max(y0 - y1, 0.5))}" fill="${series.colour}"><title>${escapeHtml(tip)}</title></rect>`);
    });
    if (segments.length > 0) parts.push(`<g class="bar">${segments.join('')}</g>`);
    const centre = round(LEFT + index * step + step / 2);
    // A major label too close to the one before (a range opening on the 25th, then the 1st) waits
    // for the first slice of its period with room. One that opens a year takes the place of the
    // label before it when that one names no year, or is the chart's first and its period one
    // slice (a lone December), so that every year is named where it begins, the last one too.
    // A label waiting for room waits within its month: the next month's start, drawn or left out
    // by the stride, ends the wait (else "Mar" stood under 14 April). One that would be the first
    // to name its year gives its place to that month's label, so that the year is still named.
    if (slice.major !== null) {
      const onStride = index === 0 || slice.month === undefined || (slice.month - 1) % monthStride === 0;
      const namesNewYear = pendingMajor !== null && yearOf(pendingMajor.slice) !== (drawn.at(-1)?.year ?? null);
      pendingMajor = onStride || namesNewYear ? { slice, index } : null;
    }
    if (pendingMajor !== null) {
      const last = drawn.at(-1);
      const before = drawn.at(-2);
      if (last === undefined || centre - last.centre >= MAJOR_ROOM) {
        drawMajor(pendingMajor.slice, index, centre);
        pendingMajor = null;
      } else if (yearOf(pendingMajor.slice) !== last.year && (!last.saysYear || (last.index === 0 && pendingMajor.index === 1)) && (before === undefined || centre - before.centre >= MAJOR_ROOM)) {
        parts.splice(last.part, 2, '', '');
        drawn.pop();
        drawMajor(pendingMajor.slice, index, centre);
        pendingMajor = null;
      }
    }
    if (slice.tick !== '' && index % labelEvery === 0) {
      parts.push(`<text x="${centre}" y="${TOP + plotHeight + 16}" text-anchor="middle" font-size="11" fill="${TEXT_COLOUR}">${escapeHtml(slice.tick)}</text>`);
    }
  });
  parts.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${TOP + plotHeight}" y2="${TOP + plotHeight}" stroke="${AXIS_COLOUR}" stroke-width="1"/>`);

  return [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(chart.title)}" font-family="system-ui, sans-serif">`,
    `<title>${escapeHtml(chart.title)}</title>`,
    ...parts,
    '</svg>',
  ].join('');
}

/** A small swatch for a legend entry, drawn like the bars. */
export function swatchSvg(colour: string): string {
  return `<svg class="swatch" xmlns="http://www.w3.org/2000/svg" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true"><rect width="12" height="12" rx="2" fill="${colour}"/></svg>`;
}

/** Round steps (1, 2, 2.5 or 5 times a power of ten) from 0 to at least `max`: four or five lines. */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  for (let value = 0; value < max + step * 0.999 && ticks.length < 12; value += step) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
