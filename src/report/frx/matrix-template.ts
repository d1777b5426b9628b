// Which template cell of a matrix plays which part (FastReport's MatrixHelper template layout).
// The template is (HW + BW) columns × (HH + BH) rows:
// - HW header columns: one per row dimension, and a caption column when several data cells are
//   stacked; HH header rows: a title row (ShowTitle), one per column dimension, and a caption
//   row when data cells sit side by side.
// - The body: the data cells of the innermost values, then one block per dimension that has a
//   total, the innermost total next to the values and the outermost (the grand total) at the
//   right edge / bottom. Each block is as wide (side by side) or as tall (stacked) as there are
//   data cells.
// A matrix without row (or column) dimensions has one invisible dimension instead: one value
// (null), no total.

import type { MatrixHeaderModel, MatrixObjectModel, TableCellModel } from './model.js';

/** A template cell's place: column, row. */
export interface CellAt {
  col: number;
  row: number;
}

/** One dimension: its header cell and, when it has totals, its total cell. */
export interface MatrixLevel {
  descriptor: MatrixHeaderModel;
  header: CellAt;
  total: CellAt | null;
}

export interface MatrixTemplate {
  /** Header columns (left of the body) and header rows (above it). */
  hw: number;
  hh: number;
  /** 1 with a title row. */
  title: number;
  /** Data cells, and whether they sit side by side or stacked (only with two or more). */
  cellCount: number;
  sideBySide: boolean;
  stacked: boolean;
  columnLevels: MatrixLevel[];
  rowLevels: MatrixLevel[];
  /** The template's size: header columns and rows plus the body. */
  columnCount: number;
  rowCount: number;
}

/** The dimension that stands in for a missing list of rows or columns. */
const INVISIBLE: MatrixHeaderModel = {
  expression: '',
  sort: 'None',
  totals: false,
  totalsFirst: false,
  pageBreak: false,
  suppressTotals: false,
};

export function matrixTemplate(o: MatrixObjectModel): MatrixTemplate {
  const k = o.dataCells.length;
  const sideBySide = o.cellsSideBySide && k > 1;
  const stacked = !o.cellsSideBySide && k > 1;
  const columns = o.columnHeaders.length > 0 ? o.columnHeaders : [INVISIBLE];
  const rows = o.rowHeaders.length > 0 ? o.rowHeaders : [INVISIBLE];
  const title = o.showTitle ? 1 : 0;
  const hw = rows.length + (stacked ? 1 : 0);
  const hh = columns.length + (sideBySide ? 1 : 0) + title;
  const dataWidth = sideBySide ? k : 1;
  const dataHeight = stacked ? k : 1;
  const bodyWidth = (1 + columns.filter((d) => d.totals).length) * dataWidth;
  const bodyHeight = (1 + rows.filter((d) => d.totals).length) * dataHeight;
  let totalsSoFar = 0;
  const columnLevels = columns.map((descriptor, i): MatrixLevel => {
    if (descriptor.totals) totalsSoFar++;
    const total = descriptor.totals ? { col: hw + bodyWidth - dataWidth * totalsSoFar, row: title + i } : null;
    return { descriptor, header: { col: hw, row: title + i }, total };
  });
  totalsSoFar = 0;
  const rowLevels = rows.map((descriptor, j): MatrixLevel => {
    if (descriptor.totals) totalsSoFar++;
    const total = descriptor.totals ? { col: j, row: hh + bodyHeight - dataHeight * totalsSoFar } : null;
    return { descriptor, header: { col: j, row: hh }, total };
  });
  const columnCount = hw + bodyWidth;
  const rowCount = hh + bodyHeight;
  return { hw, hh, title, cellCount: k, sideBySide, stacked, columnLevels, rowLevels, columnCount, rowCount };
}

/** The template cell at a place, if the template has it. */
export function templateCell(o: MatrixObjectModel, at: CellAt): TableCellModel | undefined {
  return o.cells[at.row]?.[at.col];
}
