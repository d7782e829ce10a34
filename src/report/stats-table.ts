// `bough stats` as terminal tables: one row per day, week, month, project, model, agent or
// session, a total row, numbers right-aligned with separators, at most 100 columns wide. Colour
// only when asked for (a terminal without NO_COLOR). Pure: the JSON view in, text out.

import { localDay } from '../ledger/scope.js';
import { totalTokens } from './data.js';
import { formatCompact, formatCount, formatUsd } from './format.js';
import { roundingNote } from './numbers.js';
import type { RowJson, StatsJson, StatsGrouping } from './schema.js';
import { displayWidth, fitColumns, printable } from '../terminal-text.js';

export interface TableOptions {
  colour: boolean;
  /** Columns the table may use. */
  width: number;
  /** Said in place of the table when the scope holds nothing. */
  emptySentence: string;
}

interface Column {
  heading: string;
  numeric: boolean;
  cell: (row: StatsRow) => string;
  /** Dropped first when the table is too wide (lower first). */
  priority: number;
  compact?: (row: StatsRow) => string;
}

/** A row as the table shows it; the total is one too. */
type StatsRow = Pick<RowJson, 'label' | 'sessions' | 'prompts' | 'replies' | 'tokens' | 'cost' | 'usageRecords' | 'unpricedRecords' | 'startedAt' | 'partlyOutsidePeriod' | 'usageOutsidePeriod'>;

const HEADINGS: Record<StatsGrouping, string> = {
  day: 'Day',
  week: 'Week',
  month: 'Month',
  project: 'Project',
  model: 'Model',
  agent: 'Agent',
  session: 'Session',
};

const GAP = 2;
const MIN_LABEL = 14;
/** Room a label is given while columns are fitted; what is left over goes to it too. */
const LABEL_TARGET = 36;
/** Columns of lower priority are dropped before token counts are shortened. */
const SHORTEN_BEFORE = 3;

export function statsTable(stats: StatsJson, options: TableOptions): string {
  const paint = painter(options.colour);
  const title = `bough · ${stats.period.label === 'all time' ? 'All time' : stats.period.label} · ${stats.period.tz}${filtersText(stats)} · by ${stats.by}`;
  if (stats.rows.length === 0) {
    // Sessions that fall in the period with no usage have no model to be a row of: not "outside it".
    const { sessions } = stats.totals;
    const said = sessions === 0 ? options.emptySentence : `${sessions === 1 ? 'The one session' : `The ${formatCount(sessions)} sessions`} in it recorded no usage: nothing to show by ${stats.by}.`;
    return `${paint.bold(title)}\n${said}\n`;
  }

  const totals: StatsRow = {
    label: 'Total',
    sessions: stats.totals.sessions,
    prompts: stats.totals.prompts,
    replies: stats.totals.replies,
    tokens: stats.totals.tokens,
    cost: stats.totals.cost,
    usageRecords: stats.totals.usageRecords,
    unpricedRecords: stats.totals.unpricedRecords,
  };
  const allColumns = columnsFor(stats.by, stats.period.tz);
  let columns = allColumns;
  const rows: StatsRow[] = [...stats.rows, totals];
  let compact = false;
  const widths = () => columns.map((c) => Math.max(c.heading.length, ...rows.map((r) => displayWidth(cellText(c, r, compact)))));
  const tableWidth = (w: number[]) => w.reduce((a, b) => a + b, 0) + GAP * (w.length - 1);
  const fits = () => tableWidth(widths().map((w, i) => (i === 0 ? Math.min(w, LABEL_TARGET) : w))) <= options.width;
  const dropLowest = (below: number) => {
    const droppable = columns.filter((c) => c.priority > 0 && c.priority < below);
    if (droppable.length === 0) return false;
    const lowest = droppable.reduce((a, b) => (b.priority < a.priority ? b : a));
    columns = columns.filter((c) => c !== lowest);
    return true;
  };
  // Too wide: the least needed counts go first, then token counts are shortened (12.3M), then
  // more columns go; long labels are cut last.
  while (!fits()) {
    if (dropLowest(SHORTEN_BEFORE)) continue;
    if (!compact) {
      compact = true;
      continue;
    }
    if (!dropLowest(Infinity)) break;
  }
  const w = widths();
  const labelRoom = options.width - tableWidth(w.slice(1)) - GAP;
  // A label is cut to the room left, never below MIN_LABEL; one shorter than that keeps its width
  // (regression: "2026-11-01" padded to MIN_LABEL made the day table 103 columns).
  w[0] = Math.min(w[0] ?? 0, Math.max(MIN_LABEL, labelRoom));

  const line = (cells: string[], style: (text: string) => string = (t) => t) =>
    cells
      .map((text, i) => {
        const column = columns[i] as Column;
        const width = w[i] ?? 0;
        // By the columns a terminal draws: a CJK character or an emoji takes two.
        const fitted = displayWidth(text) > width ? cutToFit(text, width) : text;
        const pad = ' '.repeat(Math.max(0, width - displayWidth(fitted)));
        return style(column.numeric ? pad + fitted : fitted + pad);
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  const out = [paint.bold(title), line(columns.map((c) => c.heading), paint.dim)];
  for (const row of stats.rows) out.push(line(columns.map((c) => cellText(c, row, compact))));
  out.push(paint.dim('─'.repeat(tableWidth(w))));
  out.push(line(columns.map((c) => cellText(c, totals, compact)), paint.bold));
  const notes: string[] = [];
  // A record priced in part (a count that did not read, a fast-mode rate the table lacks) is one of a priced model.
  const unpriced = stats.totals.unpricedModels.length > 0;
  const inPart = stats.totals.partiallyPricedModels.length > 0;
  // A row of no priced usage reads "unknown", with no star: the note then says what "unknown" is
  // (regression: a table all "unknown" footnoted a star it did not show).
  const starred = rows.some((r) => r.cost.bough !== null && r.unpricedRecords > 0);
  if (starred) {
    if (inPart && !unpriced) notes.push('* plus what bough could not price of some usage (a count that did not read, a rate the table lacks): unknown, never $0.');
    else if (inPart) notes.push('* plus usage of models without a price, and what bough could not price of some other usage: unknown, never $0.');
    else notes.push('* plus usage of models without a price: its cost is unknown, never $0.');
  } else if (rows.some((r) => r.unpricedRecords > 0)) {
    if (inPart && !unpriced) notes.push('unknown: what bough could not price (a count that did not read, a rate the table lacks), never $0.');
    else if (inPart) notes.push('unknown: usage of models without a price, and what bough could not price of other usage; never $0.');
    else notes.push('unknown: usage of models without a price; its cost is never taken for $0.');
  }
  const { recordedCostRecords, usageRecords } = stats.totals;
  // Pi stores a cost, Claude Code only before 1.0.9, Codex none: a Recorded total of part of the usage is no discount.
  if (recordedCostRecords > 0 && recordedCostRecords < usageRecords) {
    notes.push(`Recorded: the agents' own cost, for ${recordedCostRecords.toLocaleString('en-US')} of ${usageRecords.toLocaleString('en-US')} usage records only.`);
  }
  // Sub-agents' spend is in every row (the session that ran them counts it): how much of it there is.
  const { subagents } = stats.totals;
  if (subagents.usageRecords > 0) {
    const tokens = totalTokens(subagents.tokens);
    const cost = subagents.cost.bough === null ? 'cost unknown' : `${formatUsd(subagents.cost.bough)} by bough${subagents.unpricedRecords > 0 ? ' and some unknown' : ''}`;
    notes.push(`Sub-agents: ${formatCount(tokens)} tokens, ${cost}, of the totals above.`);
  }
  // A user adds the rows up: where the figures rounded each on its own miss the total, say why.
  const rounding = roundingNote(stats.rows.map((r) => r.cost.bough));
  if (rounding !== null) notes.push(rounding);
  const partial = stats.totals.outputPossiblyPartialRecords;
  if (partial > 0) notes.push(`Output is at least what is shown: the agent did not write the final count of ${partial === 1 ? '1 response' : `${partial} responses`}.`);
  // A session whose usage all lies outside the period wrote some: its "—" is none in the period.
  // The total's "—" is its rows': said by them, where there are any.
  const said = stats.rows.length > 0 ? stats.rows : rows;
  // Of a session it is known whether it wrote any; a day's, a month's or a project's row may hold
  // a prompt whose usage was written on another day, or outside the period.
  if (said.some((r) => r.usageRecords === 0 && r.usageOutsidePeriod === false)) notes.push('— no usage recorded (not zero tokens: the agent wrote none).');
  if (said.some((r) => r.usageRecords === 0 && r.usageOutsidePeriod === undefined)) notes.push('— no usage recorded in the row (not zero tokens: none of it falls there).');
  if (said.some((r) => r.usageRecords === 0 && r.usageOutsidePeriod === true)) notes.push('— of a session whose usage all lies outside the period: none in it, not none written.');
  // The mark is in the Started column: said only where that column is shown.
  if (rows.some((r) => r.partlyOutsidePeriod) && columns.some((c) => c.heading === 'Started')) {
    notes.push(`${PARTLY_MARK.trim()} part of the session lies outside the period: only its part in it is counted.`);
  }
  // Said only when a count was shortened: 34 is 34 either way.
  const shortened = compact && rows.some((r) => columns.some((c) => c.compact !== undefined && c.compact(r) !== c.cell(r)));
  if (shortened) notes.push('Tokens shortened to fit: k thousand, M million, B billion. --json gives every digit.');
  const dropped = allColumns.filter((c) => !columns.includes(c)).map((c) => c.heading);
  if (dropped.length > 0) notes.push(`Left out to fit ${options.width} columns: ${dropped.join(', ')} (--json has them).`);
  if (stats.by !== 'session' && stats.by !== 'project' && stats.by !== 'model' && stats.by !== 'agent' && columns.some((c) => c.heading === 'Sessions')) {
    notes.push('Sessions active in several rows count in each; the total counts each once.');
  }
  return `${[...out, ...notes.flatMap((n) => wrapped(n, options.width)).map((n) => paint.dim(n))].join('\n')}\n`;
}

/** After the day a session started, when part of it lies outside the period. */
const PARTLY_MARK = ' †';

/** A note in lines of at most `width` columns, broken between words. */
function wrapped(note: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of note.split(' ')) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** Session titles and model names go to a terminal: printable. */
function cellText(column: Column, row: StatsRow, compact: boolean): string {
  return printable(compact && column.compact ? column.compact(row) : column.cell(row));
}

function columnsFor(by: StatsGrouping, timeZone: string): Column[] {
  const tokens = (heading: string, kind: keyof RowJson['tokens'], priority: number): Column => ({
    heading,
    numeric: true,
    priority,
    // A row with no usage record says so, "—", rather than count zero tokens.
    cell: (r) => (r.usageRecords === 0 ? '—' : formatCount(r.tokens[kind])),
    compact: (r) => (r.usageRecords === 0 ? '—' : formatCompact(r.tokens[kind])),
  });
  const turns: Column[] =
    by === 'model'
      ? [{ heading: 'Records', numeric: true, priority: 1, cell: (r) => formatCount(r.usageRecords) }]
      : [
          { heading: 'Prompts', numeric: true, priority: 4.5, cell: (r) => (r.prompts === null ? '—' : formatCount(r.prompts)) },
          { heading: 'Replies', numeric: true, priority: 1, cell: (r) => (r.replies === null ? '—' : formatCount(r.replies)) },
        ];
  return [
    { heading: HEADINGS[by], numeric: false, priority: 0, cell: (r) => r.label },
    // A session is told apart by its day as much as by its first prompt ("/mode", "continue").
    ...(by === 'session'
      ? [{ heading: 'Started', numeric: false, priority: 5, cell: (r: StatsRow) => (r.startedAt === undefined ? '' : `${localDay(Date.parse(r.startedAt), timeZone)}${r.partlyOutsidePeriod ? PARTLY_MARK : ''}`) }]
      : [{ heading: 'Sessions', numeric: true, priority: 2, cell: (r: StatsRow) => formatCount(r.sessions) }]),
    ...turns,
    tokens('Input', 'input', 4),
    tokens('Output', 'output', 5),
    tokens('Cache read', 'cacheRead', 4),
    tokens('Cache write', 'cacheWrite', 4),
    { heading: 'Cost (bough)', numeric: true, priority: 0, cell: boughText },
    { heading: 'Recorded', numeric: true, priority: 6, cell: (r) => formatUsd(r.cost.recorded) },
  ];
}

/** "$1.23", "$1.23*" when some usage is unpriced, "unknown" when none is priced. */
function boughText(row: StatsRow): string {
  if (row.cost.bough === null) return row.unpricedRecords > 0 ? 'unknown' : '—';
  return `${formatUsd(row.cost.bough)}${row.unpricedRecords > 0 ? '*' : ''}`;
}

function filtersText(stats: StatsJson): string {
  const parts: string[] = [];
  if (stats.filters.project !== null) parts.push(`project “${stats.filters.project}”`);
  if (stats.filters.sources !== null) parts.push(`${stats.filters.sources.length === 1 ? 'agent' : 'agents'} ${stats.filters.sources.join(', ')}`);
  return parts.map((p) => ` · ${p}`).join('');
}

function painter(colour: boolean) {
  const wrap = (open: string, close: string) => (text: string) => (colour ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { bold: wrap('1', '22'), dim: wrap('2', '22') };
}

/**
 * A label cut to `width` columns with an ellipsis; a mark in brackets at its end (a model's "(fast
 * mode)") is kept, the name before it cut instead: without it, two rows read alike.
 */
function cutToFit(text: string, width: number): string {
  const mark = / \([^()]*\)$/.exec(text)?.[0];
  if (mark !== undefined && displayWidth(mark) + MIN_NAME < width) {
    return `${fitColumns(text.slice(0, -mark.length), width - 1 - displayWidth(mark))}…${mark}`;
  }
  return `${fitColumns(text, width - 1)}…`;
}

/** The fewest columns of a name kept before its mark. */
const MIN_NAME = 8;
