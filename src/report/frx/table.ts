// TableObject: its columns, rows and cells (FastReport.Base/Table). A cell is a TextObject with
// ColSpan/RowSpan that may hold objects of its own; the cells of a row follow its columns, and
// a cell covered by another's span is kept (it prints nothing). The design layout (each cell's
// box from the column widths and row heights) is filled in here; the engine lays the table out
// again for each print (AutoSize).

import { padding } from './defaults.js';
import type {
  ReportObjectModel,
  TableCellModel,
  TableColumnModel,
  TableObjectModel,
  TableRowModel,
  TextObjectModel,
  PaddingModel,
} from './model.js';
import { readComponent } from './component.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

/** TableColumn.DefaultWidth and TableRow.DefaultHeight: 64 and 18 px rounded to 0.25 cm. */
export const DEFAULT_COLUMN_WIDTH = 66.15;
export const DEFAULT_ROW_HEIGHT = 18.9;
/** TableColumn.MaxWidth and TableRow.MaxHeight when the file does not say. */
const MAX_COLUMN_WIDTH = 5000;
const MAX_ROW_HEIGHT = 1000;

/** A column as TableColumn's constructor makes it. */
export function defaultColumn(name: string, line: number, autoSize: boolean): TableColumnModel {
  return { name, line, width: DEFAULT_COLUMN_WIDTH, minWidth: 0, maxWidth: MAX_COLUMN_WIDTH, autoSize };
}

/** A row as TableRow's constructor makes it. */
export function defaultRow(name: string, line: number, autoSize: boolean): TableRowModel {
  return {
    name,
    line,
    height: DEFAULT_ROW_HEIGHT,
    minHeight: 0,
    maxHeight: MAX_ROW_HEIGHT,
    autoSize,
    canBreak: false,
  };
}

/** The parsers of the objects a table holds (passed in: they live in objects.ts, which calls this). */
export interface TableParsers {
  parseObject(el: XmlElement, ctx: LoadContext): ReportObjectModel | null;
  parseText(el: XmlElement, ctx: LoadContext, defaultPadding: PaddingModel): TextObjectModel;
}

export function parseTableObject(el: XmlElement, ctx: LoadContext, parsers: TableParsers): TableObjectModel {
  const a = new Attrs(el, ctx);
  const table = readTable(el, a, ctx, parsers);
  table.raw = a.rest();
  return table;
}

/** The table part of a TableObject or MatrixObject element (the caller fills in `raw` once it
 *  has read its own attributes); `ownChildren` are the caller's to read. */
export function readTable(
  el: XmlElement,
  a: Attrs,
  ctx: LoadContext,
  parsers: TableParsers,
  ownChildren: ReadonlySet<string> = new Set(),
): TableObjectModel {
  const base = readComponent(a);
  const table: TableObjectModel = {
    type: 'TableObject',
    ...base,
    // TableBase's constructor: a table grows and shrinks with its rows.
    canGrow: el.attrs.CanGrow === undefined ? true : base.canGrow,
    canShrink: el.attrs.CanShrink === undefined ? true : base.canShrink,
    columns: [],
    rows: [],
    cells: [],
    fixedRows: Math.max(0, a.int('FixedRows', 0)),
    fixedColumns: Math.max(0, a.int('FixedColumns', 0)),
    repeatHeaders: a.bool('RepeatHeaders', true),
    repeatRowHeaders: a.bool('RepeatRowHeaders', false),
    repeatColumnHeaders: a.bool('RepeatColumnHeaders', false),
    layout: a.enumOf('Layout', ['AcrossThenDown', 'DownThenAcross', 'Wrapped'] as const, 'AcrossThenDown'),
    wrappedGap: Math.max(0, a.float('WrappedGap', 0)),
    printOnParent: a.bool('PrintOnParent', false),
    manualBuildEvent: base.events.ManualBuildEvent ?? '',
  };
  for (const child of el.children) {
    if (child.name === 'TableColumn') table.columns.push(parseColumn(child, ctx));
    else if (child.name === 'TableRow') {
      const { row, cells } = parseRow(child, ctx, parsers);
      table.rows.push(row);
      table.cells.push(cells);
    } else if (!ownChildren.has(child.name)) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  }
  normaliseCells(table, el, ctx, parsers);
  return table;
}

/** A column's width or a row's height with its Min/Max bounds (the size clamped to them, as
 *  TableColumn's and TableRow's setters do): [size, min, max]. */
function boundedSize(a: Attrs, key: 'Width' | 'Height', def: number, maxDef: number): [number, number, number] {
  const min = Math.max(0, a.float(`Min${key}`, 0));
  const max = Math.max(min, a.float(`Max${key}`, maxDef));
  return [clamp(a.float(key, def), min, max), min, max];
}

function parseColumn(el: XmlElement, ctx: LoadContext): TableColumnModel {
  const a = new Attrs(el, ctx);
  const [width, minWidth, maxWidth] = boundedSize(a, 'Width', DEFAULT_COLUMN_WIDTH, MAX_COLUMN_WIDTH);
  const col: TableColumnModel = {
    name: a.str('Name'),
    line: el.line,
    width,
    minWidth,
    maxWidth,
    autoSize: a.bool('AutoSize', false),
  };
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  return col;
}

function parseRow(
  el: XmlElement,
  ctx: LoadContext,
  parsers: TableParsers,
): { row: TableRowModel; cells: TableCellModel[] } {
  const a = new Attrs(el, ctx);
  const [height, minHeight, maxHeight] = boundedSize(a, 'Height', DEFAULT_ROW_HEIGHT, MAX_ROW_HEIGHT);
  const row: TableRowModel = {
    name: a.str('Name'),
    line: el.line,
    height,
    minHeight,
    maxHeight,
    autoSize: a.bool('AutoSize', false),
    canBreak: a.bool('CanBreak', false),
  };
  const cells: TableCellModel[] = [];
  for (const child of el.children) {
    if (child.name === 'TableCell') cells.push(parseCell(child, ctx, parsers));
    else ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  }
  return { row, cells };
}

function parseCell(el: XmlElement, ctx: LoadContext, parsers: TableParsers): TableCellModel {
  const colSpan = intAttr(el, 'ColSpan');
  const rowSpan = intAttr(el, 'RowSpan');
  // TableCell's constructor: padding 2, 1, 2, 1 (a TextObject's is 2, 0, 2, 0).
  const text = parsers.parseText(el, ctx, padding(2, 1, 2, 1));
  delete text.raw.ColSpan;
  delete text.raw.RowSpan;
  const objects: ReportObjectModel[] = [];
  for (const child of el.children) {
    if (child.name === 'Formats' || child.name === 'Highlight') continue;
    const o = parsers.parseObject(child, ctx);
    if (o) objects.push(o);
  }
  return { ...text, colSpan, rowSpan, objects };
}

function intAttr(el: XmlElement, key: string): number {
  const v = Number.parseInt(el.attrs[key] ?? '1', 10);
  return Number.isFinite(v) && v >= 1 ? Math.min(v, 10_000) : 1;
}

/**
 * One cell per column in every row (missing cells are added empty, extra ones dropped with a
 * warning), spans cut to the table's edge, and each cell's design box filled in.
 */
function normaliseCells(table: TableObjectModel, el: XmlElement, ctx: LoadContext, parsers: TableParsers): void {
  const n = table.columns.length;
  table.cells.forEach((cells, y) => {
    if (cells.length > n) {
      ctx.warn(
        `${describe(el)}: row ${table.rows[y]?.name ?? y + 1} has more cells than columns; the rest are ignored`,
      );
      cells.length = n;
    }
    while (cells.length < n) cells.push(emptyCell(table, cells.length, y, ctx, parsers));
  });
  layOutCells(table);
}

/** Each cell's design box from the column widths and row heights (spans cut to the edge). */
export function layOutCells(table: Pick<TableObjectModel, 'columns' | 'rows' | 'cells'>): void {
  const n = table.columns.length;
  let top = 0;
  table.cells.forEach((cells, y) => {
    let left = 0;
    cells.forEach((cell, x) => {
      cell.colSpan = Math.min(cell.colSpan, n - x);
      cell.rowSpan = Math.min(cell.rowSpan, table.rows.length - y);
      cell.left = left;
      cell.top = top;
      cell.width = sum(table.columns.slice(x, x + cell.colSpan).map((c) => c.width));
      cell.height = sum(table.rows.slice(y, y + cell.rowSpan).map((r) => r.height));
      left += table.columns[x]?.width ?? 0;
    });
    top += table.rows[y]?.height ?? 0;
  });
}

function emptyCell(
  table: TableObjectModel,
  x: number,
  y: number,
  ctx: LoadContext,
  parsers: TableParsers,
): TableCellModel {
  const el: XmlElement = {
    name: 'TableCell',
    attrs: { Name: `${table.name}_${x}_${y}` },
    children: [],
    text: '',
    line: table.line,
  };
  return { ...parsers.parseText(el, ctx, padding(2, 1, 2, 1)), colSpan: 1, rowSpan: 1, objects: [] };
}

const sum = (xs: readonly number[]): number => xs.reduce((s, v) => s + v, 0);
const clamp = (v: number, min: number, max: number): number => Math.min(max, Math.max(min, v));
