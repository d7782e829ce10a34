// One shape for every table of numbers in the report, so one template renders them all and the
// page script can sort any of them by a header. Rows arrive in their reading order (by cost, or
// by time for tables of days and months), which is also how they read without JavaScript.

import type { RowBadge } from './overview-pages.js';

export interface ColumnView {
  label: string;
  numeric: boolean;
  /** Explains the column, as a tooltip. */
  title: string | null;
  /** The order the rows are in by this column, for aria-sort; set by `tableView`. */
  sorted: 'descending' | 'ascending' | null;
  /** Its texts may run unbroken (a session titled by a path): they wrap anywhere rather than widen the table. */
  wraps: boolean;
}

export interface CellView {
  text: string;
  /** The value to sort by when it differs from the text (amounts, times). */
  sort: string | null;
  href: string | null;
  /** A second, smaller line. */
  sub: string | null;
  /** Or one that is a path (a project's folder), as `pathHtml` makes it: in the order it is written, whatever its scripts. */
  subPathHtml: string | null;
  badges: RowBadge[];
  title: string | null;
  /** Shown as code (model ids, paths). */
  code: boolean;
  /** Right-aligned, as its column's numbers are; set from the column by `tableView`. */
  numeric: boolean;
  /** Wrapped anywhere, as its column's texts are; set from the column by `tableView`. */
  wraps: boolean;
}

export interface TableView {
  className: string;
  caption: string | null;
  columns: ColumnView[];
  rows: CellView[][];
  /** The total row, or null. */
  total: CellView[] | null;
  sortable: boolean;
  /** The column the rows are in the order of, for aria-sort; null when in the order of time. */
  sortedBy: { column: number; descending: boolean } | null;
}

export function column(label: string, numeric = false, title: string | null = null, wraps = false): ColumnView {
  return { label, numeric, title, sorted: null, wraps };
}

export function cell(text: string, more: Partial<Omit<CellView, 'text' | 'numeric' | 'wraps'>> = {}): CellView {
  return { text, sort: null, href: null, sub: null, subPathHtml: null, badges: [], title: null, code: false, numeric: false, wraps: false, ...more };
}

/** A table whose cells know their column's alignment and whose columns their order, so the template only places them. */
export function tableView(table: TableView): TableView {
  const align = (row: CellView[]) => row.map((c, i) => ({ ...c, numeric: table.columns[i]?.numeric ?? false, wraps: table.columns[i]?.wraps ?? false }));
  const columns = table.columns.map((c, i) => ({
    ...c,
    sorted: table.sortedBy?.column === i ? (table.sortedBy.descending ? ('descending' as const) : ('ascending' as const)) : null,
  }));
  return { ...table, columns, rows: table.rows.map(align), total: table.total && align(table.total) };
}

/** A number cell that sorts by its value. */
export function numberCell(text: string, value: number): CellView {
  return cell(text, { sort: String(value) });
}
