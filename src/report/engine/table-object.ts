// TableObject (FastReport.Base/Table): a grid of cells, each a TextObject that may hold objects.
// GetData fills every cell (and its objects) for the current row; the layout then sizes the
// AutoSize columns to their widest cell and the AutoSize rows to their tallest (TableBase's
// CalcWidth and CalcHeight: cells without a span first, then a spanned cell widens the last
// column or row of its span when the span is too small); MinWidth/MaxWidth and
// MinHeight/MaxHeight bound them. The table prints as its cells, each a text item at its place
// with its own fill and border, and the cells' objects inside them.
//
// A table built by a ManualBuild script handler is the result of its prints (table-build.ts);
// one whose handler cannot run prints its design once, with a warning.

import { defaultBorder, defaultFill } from '../frx/defaults.js';
import type {
  BorderModel,
  ReportObjectModel,
  TableCellModel,
  TableColumnModel,
  TableObjectModel,
  TableRowModel,
} from '../frx/model.js';
import type { EngineContext } from './context.js';
import { itemHeader, type ObjectType } from './object-type.js';
import { newRtObject, type LaidItem, type RtObject, type RtTable, type RtTableCell } from './runtime.js';
import { hasBorder, isTransparentFill } from './styles.js';
import { ManualTable } from './table-build.js';
import { textCalcHeight, textCalcWidth } from './text-object.js';

/** Cells hidden under another cell's ColSpan/RowSpan, as "column,row". */
function coveredCells(o: TableObjectModel): Set<string> {
  const covered = new Set<string>();
  o.cells.forEach((row, y) => {
    row.forEach((cell, x) => {
      if (covered.has(`${x},${y}`)) return;
      for (let dy = 0; dy < cell.rowSpan; dy++)
        for (let dx = 0; dx < cell.colSpan; dx++) if (dx > 0 || dy > 0) covered.add(`${x + dx},${y + dy}`);
    });
  });
  return covered;
}

/** A cell or an object of a table built by a script: as designed, no data (its expressions are
 *  the script's to fill in). */
function designed(o: ReportObjectModel): RtObject {
  const rt = newRtObject(o);
  if (o.type === 'TextObject') rt.text = o.text;
  return rt;
}

function tableData(e: EngineContext, o: TableObjectModel, rt: RtObject): void {
  if (o.manualBuildEvent !== '') {
    const build = new ManualTable(e, o);
    if (e.script.manualBuild(o, build)) {
      const table = build.result();
      rt.table = table;
      // Copies: an AfterCalcBounds handler may change a column's AutoSize or a row's.
      const grid = build.grid();
      const laid = {
        table,
        columns: grid.columns.map((c) => ({ ...c })),
        rows: grid.rows.map((r) => ({ ...r })),
        relayout: () => layoutTable(e, laid, table, rt),
      };
      laid.relayout();
      e.script.afterCalcBounds(o, build, laid);
      return;
    }
    e.warnings.add(
      `${o.name}: the table is built by its ManualBuild script handler (${o.manualBuildEvent}), which cannot run; ` +
        'it prints its design once',
    );
  }
  const manual = o.manualBuildEvent !== '';
  const data = (inner: ReportObjectModel): RtObject =>
    manual ? designed(inner) : e.flow.objectData(e, inner, false, false);
  const covered = coveredCells(o);
  const cells: RtTableCell[] = [];
  o.cells.forEach((row, y) => {
    row.forEach((cell, x) => {
      if (covered.has(`${x},${y}`)) return;
      cells.push({
        rt: data(cell),
        column: x,
        row: y,
        colSpan: cell.colSpan,
        rowSpan: cell.rowSpan,
        objects: cell.objects.map(data),
      });
    });
  });
  const table: RtTable = {
    columnWidths: o.columns.map((c) => c.width),
    rowHeights: o.rows.map((r) => r.height),
    cells,
    canBreakRows: o.rows.map((r) => r.canBreak),
  };
  rt.table = table;
  layoutTable(e, o, table, rt);
}

/** The columns and rows a table's cells are laid out on (a matrix's printed table borrows its
 *  template's). */
export interface TableGrid {
  readonly columns: readonly TableColumnModel[];
  readonly rows: readonly TableRowModel[];
}

/** Sizes the AutoSize columns and rows, places the cells, and sizes the table's object. */
export function layoutTable(e: EngineContext, grid: TableGrid, table: RtTable, rt: RtObject): void {
  sizeColumns(e, grid, table);
  sizeRows(e, grid, table);
  rt.width = sum(table.columnWidths);
  rt.height = sum(table.rowHeights);
}

/** TableBase.CalcWidth: AutoSize columns as wide as their widest cell. */
function sizeColumns(e: EngineContext, o: TableGrid, t: RtTable): void {
  const widest = new Map<number, number>();
  for (const c of t.cells) {
    if (c.colSpan !== 1 || !o.columns[c.column]?.autoSize) continue;
    widest.set(c.column, Math.max(widest.get(c.column) ?? -1, cellWidth(e, c)));
  }
  for (const [x, w] of widest) t.columnWidths[x] = clampColumn(o, x, w);
  for (const c of t.cells) {
    if (c.colSpan === 1) continue;
    const last = c.column + c.colSpan - 1;
    const have = sum(t.columnWidths.slice(c.column, last + 1));
    const need = cellWidth(e, c);
    if (have < need && o.columns[last]?.autoSize)
      t.columnWidths[last] = clampColumn(o, last, (t.columnWidths[last] ?? 0) + need - have);
  }
  // Every cell takes the width of its columns (the text is measured again for it).
  for (const c of t.cells) setCellWidth(c, sum(t.columnWidths.slice(c.column, c.column + c.colSpan)));
}

/** TableBase.CalcHeight: AutoSize rows as tall as their tallest cell. */
function sizeRows(e: EngineContext, o: TableGrid, t: RtTable): void {
  const tallest = new Map<number, number>();
  for (const c of t.cells) {
    if (c.rowSpan !== 1 || !o.rows[c.row]?.autoSize) continue;
    tallest.set(c.row, Math.max(tallest.get(c.row) ?? -1, cellHeight(e, c)));
  }
  for (const [y, h] of tallest) t.rowHeights[y] = clampRow(o, y, h);
  for (const c of t.cells) {
    if (c.rowSpan === 1) continue;
    const last = c.row + c.rowSpan - 1;
    const have = sum(t.rowHeights.slice(c.row, last + 1));
    const need = cellHeight(e, c);
    if (have < need && o.rows[last]?.autoSize)
      t.rowHeights[last] = clampRow(o, last, (t.rowHeights[last] ?? 0) + need - have);
  }
  const tops = startsOf(t.rowHeights);
  const lefts = startsOf(t.columnWidths);
  for (const c of t.cells) {
    c.rt.top = tops[c.row] ?? 0;
    c.rt.left = lefts[c.column] ?? 0;
    c.rt.height = sum(t.rowHeights.slice(c.row, c.row + c.rowSpan));
    for (const inner of c.objects) if (inner.model.growToBottom) inner.height = c.rt.height - inner.top;
    dockObjects(c.objects, c.rt.width, c.rt.height);
  }
}

/** Dock (ComponentBase.UpdateLayout): docked objects, in order, take the cell's sides (Top,
 *  Bottom, Left, Right: their own height or width) and the rest of it (Fill), as in a
 *  container; an AdvMatrix cell's gauge or sparkline is docked Fill. */
export function dockObjects(objects: readonly RtObject[], width: number, height: number): void {
  let left = 0;
  let top = 0;
  let right = width;
  let bottom = height;
  for (const o of objects) {
    switch (o.model.dock) {
      case 'Top':
        Object.assign(o, { left, top, width: right - left });
        top += o.height;
        break;
      case 'Bottom':
        Object.assign(o, { left, top: bottom - o.height, width: right - left });
        bottom -= o.height;
        break;
      case 'Left':
        Object.assign(o, { left, top, height: bottom - top });
        left += o.width;
        break;
      case 'Right':
        Object.assign(o, { left: right - o.width, top, height: bottom - top });
        right -= o.width;
        break;
      case 'Fill':
        Object.assign(o, { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) });
        break;
      default:
    }
  }
}

/** Where each column (or row) starts: the sizes before it, summed. */
export function startsOf(sizes: readonly number[]): number[] {
  let at = 0;
  return sizes.map((size) => {
    const here = at;
    at += size;
    return here;
  });
}

function setCellWidth(c: RtTableCell, width: number): void {
  if (c.rt.width === width) return;
  c.rt.width = width;
  c.rt.measure = undefined;
}

/** TableCellData.CalcWidth: the cell's text on one line. */
function cellWidth(e: EngineContext, c: RtTableCell): number {
  return textCalcWidth(e, c.rt.model as TableCellModel, c.rt);
}

/** TableCellData.CalcHeight: the cell's text at its width, or its objects (grown and shifted as
 *  a band's) when they reach lower. */
function cellHeight(e: EngineContext, c: RtTableCell): number {
  const text = textCalcHeight(e, c.rt.model as TableCellModel, c.rt);
  const objects = c.objects.length > 0 ? e.flow.growObjects(e, c.objects) : 0;
  return Math.max(text, objects);
}

function clampColumn(o: TableGrid, x: number, w: number): number {
  const col = o.columns[x];
  return col ? Math.min(col.maxWidth, Math.max(col.minWidth, w)) : w;
}

function clampRow(o: TableGrid, y: number, h: number): number {
  const row = o.rows[y];
  return row ? Math.min(row.maxHeight, Math.max(row.minHeight, h)) : h;
}

/** The cells at their places (and the objects inside them), over the table's fill and under its
 *  border. */
export function tableItems(e: EngineContext, o: ReportObjectModel, rt: RtObject): LaidItem[] {
  const t = rt.table;
  if (!t) return [];
  const out: LaidItem[] = [];
  const header = itemHeader(o, rt);
  if (!isTransparentFill(rt.fill)) out.push({ item: { kind: 'box', ...header, border: NO_BORDER }, canBreak: false });
  const shared = sharedEdges(t);
  for (const c of t.cells) {
    if (!c.rt.visible) continue;
    const cellLeft = rt.left + c.rt.left;
    const cellTop = rt.top + c.rt.top;
    const cell = { ...c.rt, left: cellLeft, top: cellTop, border: drawnOnce(c, shared) };
    // A cell's text splits across pages only in a row that may break (and not spanning rows).
    const rowBreaks = c.rowSpan === 1 && t.canBreakRows?.[c.row] === true;
    for (const laid of e.flow.objectItems(e, cell)) out.push({ ...laid, canBreak: rowBreaks && laid.canBreak });
    for (const inner of c.objects) {
      if (!inner.visible) continue;
      const placed = { ...inner, left: cellLeft + inner.left, top: cellTop + inner.top };
      for (const laid of e.flow.objectItems(e, placed)) out.push({ ...laid, canBreak: false });
    }
  }
  if (hasBorder(rt.border)) out.push({ item: { kind: 'box', ...header, fill: NO_FILL }, canBreak: false });
  return out;
}

/** Which visible cell covers each place of the grid (rows × columns). */
function sharedEdges(t: RtTable): (RtTableCell | undefined)[][] {
  const grid: (RtTableCell | undefined)[][] = t.rowHeights.map(() => new Array(t.columnWidths.length));
  for (const c of t.cells) {
    if (!c.rt.visible) continue;
    for (let y = c.row; y < c.row + c.rowSpan; y++) {
      const row = grid[y];
      if (row) for (let x = c.column; x < c.column + c.colSpan; x++) row[x] = c;
    }
  }
  return grid;
}

/**
 * A cell's border without the left and top lines its neighbours already draw (their right and
 * bottom lines on the same edge), so that a shared edge is drawn once, in the left or upper
 * cell's style.
 */
function drawnOnce(c: RtTableCell, grid: (RtTableCell | undefined)[][]): BorderModel {
  const b = c.rt.border;
  if (!b.lines.left && !b.lines.top) return b;
  const rows = Array.from({ length: c.rowSpan }, (_, i) => c.row + i);
  const columns = Array.from({ length: c.colSpan }, (_, i) => c.column + i);
  const left =
    b.lines.left && c.column > 0 && rows.every((y) => grid[y]?.[c.column - 1]?.rt.border.lines.right === true);
  const top = b.lines.top && c.row > 0 && columns.every((x) => grid[c.row - 1]?.[x]?.rt.border.lines.bottom === true);
  if (!left && !top) return b;
  return withoutEdges(b, left, top);
}

/** The border without its left and/or top line, made once per border and kind of cut (a large
 *  table shares a few borders among all its cells). */
const cuts = new WeakMap<BorderModel, (BorderModel | undefined)[]>();
function withoutEdges(b: BorderModel, left: boolean, top: boolean): BorderModel {
  let made = cuts.get(b);
  if (!made) cuts.set(b, (made = []));
  const k = (left ? 1 : 0) | (top ? 2 : 0);
  let cut = made[k];
  if (!cut) made[k] = cut = { ...b, lines: { ...b.lines, left: b.lines.left && !left, top: b.lines.top && !top } };
  return cut;
}

const NO_FILL = defaultFill();
const NO_BORDER = defaultBorder();

const sum = (xs: readonly number[]): number => xs.reduce((s, v) => s + v, 0);

export const tableObject: ObjectType<TableObjectModel> = {
  getData: tableData,
  calcHeight: (_e, _o, rt) => (rt.table ? sum(rt.table.rowHeights) : rt.height),
  item: tableItems,
};
