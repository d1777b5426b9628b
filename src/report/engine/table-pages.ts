// A printed table larger than the space left (FastReport's TableResult.GeneratePages): a
// matrix's table is not part of its band; it prints below the band's part above it, in parts
// that fit the page. Each part takes the rows that fit the free space and the columns that fit
// the page width; the fixed rows (column headers) and fixed columns (row headers) repeat on every
// part after the first (RepeatHeaders, or RepeatColumnHeaders / RepeatRowHeaders for one kind).
// - AcrossThenDown (the default): the column parts of the first rows, each on a new page, then
//   the next rows.
// - DownThenAcross: all rows of the first columns down the pages, then the next columns.
// - Wrapped: the column parts one below the other, WrappedGap apart.
// A part's first column starts at the table's Left, later column parts at the left edge. Cells
// cut by a part's edge print in each part with the span that falls inside it. The report goes on
// below the last part (FastReport goes back to the first page of the last rows instead; the
// engine only adds pages).

import type {
  AdvMatrixObjectModel,
  BandModel,
  MatrixObjectModel,
  TableLayout,
  TableObjectModel,
} from '../frx/model.js';
import { freeSpace, place } from './bands.js';
import type { EngineContext } from './context.js';
import type { RtObject, RtTable, RtTableCell } from './runtime.js';
import { startsOf, tableItems } from './table-object.js';

type PagedModel = TableObjectModel | MatrixObjectModel | AdvMatrixObjectModel;

interface Paging {
  rt: RtObject;
  table: RtTable;
  cells: CellIndex;
  /** Where the table's first columns print (later column parts start at the left edge). */
  left: number;
  fixedRows: number;
  fixedColumns: number;
  repeatRows: boolean;
  repeatColumns: boolean;
}

/** Prints the tables of a band just shown. Several tables of one band print side by side, each
 *  down the pages before the next (FastReport's layout for them), the design gap between them
 *  kept; the report goes on below the longest. */
export function printTables(e: EngineContext, band: BandModel, tables: readonly RtObject[]): void {
  const sorted = [...tables].sort((a, b) => a.left - b.left);
  const c = e.cursor;
  const start = { page: c.curPage, y: c.curY };
  let end = { page: c.curPage, y: c.curY };
  let right = 0;
  let designRight = 0;
  sorted.forEach((rt, i) => {
    const o = rt.model as PagedModel;
    const table = rt.table;
    if (!table || e.limits.aborted) return;
    const p: Paging = {
      rt,
      table,
      cells: takeCells(table),
      left: i === 0 ? rt.left : right + rt.left - designRight,
      fixedRows: Math.min(table.fixed?.rows ?? o.fixedRows, table.rowHeights.length),
      fixedColumns: Math.min(table.fixed?.columns ?? o.fixedColumns, table.columnWidths.length),
      repeatRows: o.repeatHeaders || o.repeatColumnHeaders,
      repeatColumns: o.repeatHeaders || o.repeatRowHeaders,
    };
    if (c.curPage === start.page) c.curY = start.y;
    else {
      e.warnings.add(`${o.name}: the table beside it went on to another page, so this one prints after it`);
      p.left = rt.left;
    }
    designRight = rt.left + o.width;
    const layout = layoutOn(e, o.layout);
    if (sorted.length > 1) right = downThenAcross(e, band, p, undefined);
    else if (layout === 'AcrossThenDown') acrossThenDown(e, band, p);
    else downThenAcross(e, band, p, layout === 'Wrapped' ? o.wrappedGap : undefined);
    if (c.curPage > end.page || (c.curPage === end.page && c.curY > end.y)) end = { page: c.curPage, y: c.curY };
  });
  if (c.curPage === end.page) c.curY = end.y;
}

/** An unlimited page decides the layout: on a page only unlimited in height the column parts
 *  wrap down the page. */
function layoutOn(e: EngineContext, layout: TableLayout): TableLayout {
  const { unlimitedHeight, unlimitedWidth } = e.cursor.page;
  if (!unlimitedHeight && !unlimitedWidth) return layout;
  if (!unlimitedWidth) return 'Wrapped';
  return unlimitedHeight ? 'AcrossThenDown' : 'DownThenAcross';
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/** The rows of a part starting at `start` with `count` rows (the fixed ones first when they repeat). */
function partRows(p: Paging, start: number, count: number): number[] {
  if (start === 0 || !p.repeatRows) return range(start, start + count);
  return [...range(0, p.fixedRows), ...range(Math.max(start, p.fixedRows), start + count)];
}

function partColumns(p: Paging, start: number, count: number): number[] {
  if (start === 0 || !p.repeatColumns) return range(start, start + count);
  return [...range(0, p.fixedColumns), ...range(Math.max(start, p.fixedColumns), start + count)];
}

const sumOf = (sizes: readonly number[], indexes: readonly number[]): number =>
  indexes.reduce((s, i) => s + (sizes[i] ?? 0), 0);

/** How many rows (or columns) from `start` fit in `space`: counted from `first`, after the
 *  repeated fixed ones (a part that starts inside them has `offset` of them as its own rows); a
 *  page break ends the run. */
function fitting(
  sizes: readonly number[],
  start: number,
  space: number,
  fixed: number,
  repeat: boolean,
  breaks: ReadonlySet<number> | undefined,
): { n: number; first: number; offset: number } {
  const repeated = start > 0 && repeat ? fixed : 0;
  const first = Math.max(start, repeated);
  let used = sumOf(sizes, range(0, repeated));
  let n = 0;
  for (let i = first; i < sizes.length; i++, n++) {
    if (n > 0 && breaks?.has(i)) break;
    used += sizes[i] ?? 0;
    if (used > space + 0.1) break;
  }
  return { n, first, offset: Math.max(0, repeated - start) };
}

/** How many rows from `start` fit in `space` (at the table's start, the header rows and one
 *  data row at least, else none). */
function rowsFit(p: Paging, start: number, space: number): number {
  const heights = p.table.rowHeights;
  const { n, offset } = fitting(heights, start, space, p.fixedRows, p.repeatRows, p.table.pageBreaks?.rows);
  if (start === 0 && n <= p.fixedRows && n < heights.length) return 0;
  return n + offset;
}

function columnsFit(p: Paging, start: number, space: number): number {
  const widths = p.table.columnWidths;
  const fit = fitting(widths, start, space, p.fixedColumns, p.repeatColumns, p.table.pageBreaks?.columns);
  let n = fit.n;
  // Kept columns: the part ends where a run of them does (unless a single run is too wide).
  const keep = p.table.keepColumns ?? 1;
  if (keep > 1 && fit.first + n < widths.length) {
    let kept = n;
    while (kept > 0 && (fit.first + kept - p.fixedColumns) % keep !== 0) kept--;
    if (kept > 0) n = kept;
  }
  return n + fit.offset;
}

/** The rows of the next part down the page: when none fit, a new page (or column) first; on a
 *  fresh page that still holds none, as many as the table needs to go on (the part overflows). */
function nextRows(e: EngineContext, p: Paging, start: number): number {
  let n = rowsFit(p, start, freeSpace(e));
  if (n === 0) {
    e.flow.endColumn(e);
    n = rowsFit(p, start, freeSpace(e));
  }
  return n > 0 ? n : Math.min(p.table.rowHeights.length - start, start === 0 ? p.fixedRows + 1 : 1);
}

function acrossThenDown(e: EngineContext, band: BandModel, p: Paging): void {
  const nRows = p.table.rowHeights.length;
  const nColumns = p.table.columnWidths.length;
  for (let startRow = 0; startRow < nRows && !e.limits.aborted; ) {
    if (startRow > 0) e.flow.endColumn(e);
    const rows = nextRows(e, p, startRow);
    const top = e.cursor.curY;
    let left = p.left;
    for (let startColumn = 0; startColumn < nColumns && !e.limits.aborted; ) {
      if (startColumn > 0) {
        e.flow.endColumn(e);
        e.cursor.curY = top;
      }
      const columns = Math.max(1, columnsFit(p, startColumn, e.cursor.pageWidth - left));
      printPart(e, band, p, partRows(p, startRow, rows), partColumns(p, startColumn, columns), left);
      startColumn += columns;
      left = 0;
    }
    release(p, startRow, startRow + rows);
    startRow += rows;
  }
}

/** Returns the right edge of the first columns' part. */
function downThenAcross(e: EngineContext, band: BandModel, p: Paging, wrappedGap: number | undefined): number {
  const nRows = p.table.rowHeights.length;
  const nColumns = p.table.columnWidths.length;
  const top = e.cursor.curY;
  let left = p.left;
  let firstRight = left;
  for (let startColumn = 0; startColumn < nColumns && !e.limits.aborted; ) {
    if (startColumn > 0) {
      if (wrappedGap === undefined) {
        e.flow.endColumn(e);
        e.cursor.curY = top;
      } else e.cursor.curY += wrappedGap;
    }
    const columns = Math.max(1, columnsFit(p, startColumn, e.cursor.pageWidth - left));
    for (let startRow = 0; startRow < nRows && !e.limits.aborted; ) {
      if (startRow > 0) e.flow.endColumn(e);
      const rows = nextRows(e, p, startRow);
      printPart(e, band, p, partRows(p, startRow, rows), partColumns(p, startColumn, columns), left);
      startRow += rows;
    }
    if (startColumn === 0) firstRight = left + sumOf(p.table.columnWidths, partColumns(p, 0, columns));
    startColumn += columns;
    if (startColumn >= nColumns) release(p, 0, nRows);
    left = 0;
  }
  return firstRight;
}

/** The table's cells by the row they start on, and those spanning several rows. */
interface CellIndex {
  byRow: (RtTableCell[] | undefined)[];
  spanning: RtTableCell[];
}

/** The paging takes the table's cells over (the table keeps none): a row's cells are released
 *  once every part showing them has printed, so a large matrix's cells give way to the items
 *  they print as (a million cells would otherwise be held twice over). */
function takeCells(table: RtTable): CellIndex {
  const byRow: RtTableCell[][] = table.rowHeights.map(() => []);
  const spanning: RtTableCell[] = [];
  for (const c of table.cells) {
    if (c.rowSpan > 1) spanning.push(c);
    else byRow[c.row]?.push(c);
  }
  table.cells = [];
  return { byRow, spanning };
}

/** Drops the cells of rows that no later part shows (fixed rows repeat, so they stay). */
function release(p: Paging, from: number, to: number): void {
  const keep = p.repeatRows ? p.fixedRows : 0;
  for (let r = Math.max(from, keep); r < to; r++) p.cells.byRow[r] = undefined;
}

/** The cells that may show in a part of these rows: those starting on them, and every cell
 *  spanning rows (few: headers), which may reach into them from above. */
function candidates(p: Paging, rows: readonly number[]): RtTableCell[] {
  const out = [...p.cells.spanning];
  for (const r of rows) for (const c of p.cells.byRow[r] ?? []) out.push(c);
  return out;
}

/** Each row (or column) of the table → its place in the part, -1 when not in it. */
function places(count: number, indexes: readonly number[]): Int32Array {
  const at = new Int32Array(count).fill(-1);
  indexes.forEach((x, i) => {
    if (x < count) at[x] = i;
  });
  return at;
}

/** The part of a cell's rows (or columns) the part shows: its first place in the part, how many
 *  and their size; null when none. */
function within(at: Int32Array, from: number, span: number, sizes: readonly number[]) {
  let first = -1;
  let count = 0;
  let size = 0;
  for (let x = from; x < from + span; x++) {
    const place = at[x] ?? -1;
    if (place < 0) continue;
    if (first < 0) first = place;
    count++;
    size += sizes[x] ?? 0;
  }
  return first < 0 ? null : { first, count, size };
}

/** One part: the given rows and columns of the table at `left`, at the current position. */
function printPart(
  e: EngineContext,
  band: BandModel,
  p: Paging,
  rows: readonly number[],
  columns: readonly number[],
  left: number,
): void {
  const t = p.table;
  const rowAt = places(t.rowHeights.length, rows);
  const columnAt = places(t.columnWidths.length, columns);
  const columnWidths = columns.map((c) => t.columnWidths[c] ?? 0);
  const rowHeights = rows.map((r) => t.rowHeights[r] ?? 0);
  const lefts = startsOf(columnWidths);
  const tops = startsOf(rowHeights);
  const cells: RtTableCell[] = [];
  for (const c of candidates(p, rows)) {
    const inRows = within(rowAt, c.row, c.rowSpan, t.rowHeights);
    if (!inRows) continue;
    const inColumns = within(columnAt, c.column, c.colSpan, t.columnWidths);
    if (!inColumns) continue;
    const cut = inColumns.size !== c.rt.width || inRows.size !== c.rt.height;
    cells.push({
      ...c,
      rt: {
        ...c.rt,
        left: lefts[inColumns.first] ?? 0,
        top: tops[inRows.first] ?? 0,
        width: inColumns.size,
        height: inRows.size,
        measure: cut ? undefined : c.rt.measure,
      },
      row: inRows.first,
      column: inColumns.first,
      rowSpan: inRows.count,
      colSpan: inColumns.count,
    });
  }
  const width = columnWidths.reduce((s, w) => s + w, 0);
  const height = rowHeights.reduce((s, h) => s + h, 0);
  const part: RtObject = { ...p.rt, left, top: 0, width, height, table: { columnWidths, rowHeights, cells } };
  const items = tableItems(e, p.rt.model, part);
  const inst = { band, left: band.left, width: e.cursor.pageWidth, height, items, canBreak: false };
  place(e, inst, band.left + e.cursor.originX + e.cursor.curX, e.cursor.curY, inst.width);
  e.cursor.curY = Math.round((e.cursor.curY + height) * 100) / 100;
}
