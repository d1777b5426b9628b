// A table built by its ManualBuild script handler (FastReport's TableHelper): the handler prints
// template rows and columns, and each print copies template cells into the result table with the
// data of the moment (the handler moves the data sources between prints).
// - Row by row: PrintRow(i) starts a result row (a copy of template row i); each PrintColumn(j)
//   after it adds the cell of template column j, the columns created by the first row and reused
//   by the next rows. Column by column: PrintColumn(j) starts a result column, PrintRow(i) adds.
//   Whichever of the two comes first decides the mode for the whole build.
// - PageBreak() marks the next row or column printed as the start of a new page part.
// - Spans (ManualBuildAutoSpans, default on): a template cell spanning columns (rows) spans the
//   result columns (rows) printed from its span's template columns in a row; a run ends at a
//   template column outside the span, or when the span's first column comes again after its
//   last. The cells a span covers are not copied.

import type { TableCellModel, TableColumnModel, TableObjectModel, TableRowModel } from '../frx/model.js';
import type { TypedValue } from '../expr/index.js';
import type { EngineContext } from './context.js';
import type { RtObject, RtTable, RtTableCell } from './runtime.js';
import type { TableBuild } from './script-events.js';
import type { TableBeingBuilt } from './table-aggregates.js';
import { ValueError } from '../expr/index.js';

interface Span {
  /** The template cell's column and row, and the result cell. */
  column: number;
  row: number;
  span: number;
  cell: RtTableCell;
  /** The span's last template column (row) has printed: its first one starts a new span. */
  finished: boolean;
}

/** Most result cells a build may make (a handler that loops is stopped by its step budget; this
 *  bounds the memory of one that does not loop but prints too much). */
const MAX_CELLS = 2_000_000;

export class ManualTable implements TableBuild, TableBeingBuilt {
  private mode: 'none' | 'row' | 'column' = 'none';
  private rowsFirst = true;
  private template = { column: 0, row: 0 };
  private at = { column: 0, row: 0 };
  private pageBreakNext = false;
  private readonly columns: { model: TableColumnModel; pageBreak: boolean }[] = [];
  private readonly rows: { model: TableRowModel; pageBreak: boolean }[] = [];
  private readonly cells = new Map<string, RtTableCell>();
  /** The template cell each result cell was printed from. */
  private readonly origins = new Map<RtTableCell, TableCellModel>();
  private columnSpans: Span[] = [];
  private rowSpans: Span[] = [];
  private readonly autoSpans: boolean;

  constructor(
    private readonly e: EngineContext,
    private readonly o: TableObjectModel,
  ) {
    this.autoSpans = (o.raw.ManualBuildAutoSpans ?? 'true').toLowerCase() !== 'false';
  }

  printRow(index: number): void {
    const model = this.templateRow(index);
    this.template.row = index;
    if (this.mode === 'none') this.rowsFirst = true;
    if (this.rowsFirst) {
      if (this.mode === 'column') this.at.row++;
      else if (this.mode === 'none') this.at.row = 0;
      this.rows.push({ model, pageBreak: this.pageBreakNext });
      this.columnSpans = [];
    } else {
      this.at.row = this.mode === 'column' ? 0 : this.at.row + 1;
      const row = this.rows[this.at.row];
      if (row) row.pageBreak = this.pageBreakNext;
      else this.rows.push({ model, pageBreak: this.pageBreakNext });
      this.copyCell();
    }
    this.mode = 'row';
    this.pageBreakNext = false;
  }

  printColumn(index: number): void {
    const model = this.templateColumn(index);
    this.template.column = index;
    if (this.mode === 'none') this.rowsFirst = false;
    if (!this.rowsFirst) {
      if (this.mode === 'row') this.at.column++;
      else if (this.mode === 'none') this.at.column = 0;
      this.columns.push({ model, pageBreak: this.pageBreakNext });
      this.rowSpans = [];
    } else {
      this.at.column = this.mode === 'row' ? 0 : this.at.column + 1;
      const column = this.columns[this.at.column];
      if (column) column.pageBreak = this.pageBreakNext;
      else this.columns.push({ model, pageBreak: this.pageBreakNext });
      this.copyCell();
    }
    this.mode = 'column';
    this.pageBreakNext = false;
  }

  pageBreak(): void {
    this.pageBreakNext = true;
  }

  private templateRow(index: number): TableRowModel {
    const row = this.o.rows[index];
    if (!row)
      throw new ValueError(
        'ArgumentOutOfRangeException',
        `${this.o.name} has no row ${index} (it has ${this.o.rows.length})`,
      );
    return row;
  }

  private templateColumn(index: number): TableColumnModel {
    const column = this.o.columns[index];
    if (!column)
      throw new ValueError(
        'ArgumentOutOfRangeException',
        `${this.o.name} has no column ${index} (it has ${this.o.columns.length})`,
      );
    return column;
  }

  /** Copies the template cell at `template` to the result cell at `at`. */
  private copyCell(): void {
    const { column: tx, row: ty } = this.template;
    const { column: rx, row: ry } = this.at;
    const cell = this.o.cells[ty]?.[tx] as TableCellModel;
    const spans = this.autoSpans ? this.spansFor() : { needData: true, colSpan: cell.colSpan, rowSpan: cell.rowSpan };
    if (!spans.needData) {
      this.cells.delete(`${rx},${ry}`);
      return;
    }
    if (this.cells.size >= MAX_CELLS)
      throw new ValueError('LimitExceeded', `${this.o.name}: the built table has more than ${MAX_CELLS} cells`);
    const e = this.e;
    // The cell's aggregates (`[Sum(Cell8)]`) look left and up from here.
    const saved = e.scope.tableBuild;
    e.scope.tableBuild = this;
    let rt: RtObject;
    try {
      rt = e.flow.objectData(e, cell, false, false);
    } finally {
      e.scope.tableBuild = saved;
    }
    const printed: RtTableCell = {
      rt,
      column: rx,
      row: ry,
      colSpan: spans.colSpan,
      rowSpan: spans.rowSpan,
      objects: cell.objects.map((inner) => e.flow.objectData(e, inner, false, false)),
    };
    this.cells.set(`${rx},${ry}`, printed);
    this.origins.set(printed, cell);
    if (this.autoSpans) this.startSpans(cell, printed);
  }

  /** TableHelper's span bookkeeping before a cell is copied: whether the cell continues a span
   *  (not copied) and the spans the new cell starts with. */
  private spansFor(): { needData: boolean; colSpan: number; rowSpan: number } {
    const { column: tx, row: ty } = this.template;
    const { column: rx, row: ry } = this.at;
    // In row mode the column spans run along the row and the row spans down the columns; in
    // column mode the other way round.
    const along = this.rowsFirst ? this.columnSpans : this.rowSpans;
    const across = this.rowsFirst ? this.rowSpans : this.columnSpans;
    const tAlong = this.rowsFirst ? tx : ty;
    const tAcross = this.rowsFirst ? ty : tx;
    let needData = true;
    const first = along[0];
    if (first) {
      const start = this.rowsFirst ? first.column : first.row;
      if (tAlong === start + first.span - 1) first.finished = true;
      if ((first.finished && tAlong === start) || tAlong < start || tAlong > start + first.span - 1) along.length = 0;
      else {
        if (this.rowsFirst) first.cell.colSpan++;
        else first.cell.rowSpan++;
        needData = false;
      }
    }
    // The spans across, once per result row (column).
    if ((this.rowsFirst ? rx : ry) === 0) {
      for (let i = 0; i < across.length; i++) {
        const s = across[i] as Span;
        const start = this.rowsFirst ? s.row : s.column;
        if (tAcross === start + s.span - 1) s.finished = true;
        if ((s.finished && tAcross === start) || tAcross < start || tAcross > start + s.span - 1) {
          across.splice(i, 1);
          i--;
        } else if (this.rowsFirst) s.cell.rowSpan++;
        else s.cell.colSpan++;
      }
    }
    for (const s of across) {
      const c = s.cell;
      if (rx >= c.column && rx < c.column + c.colSpan && ry >= c.row && ry < c.row + c.rowSpan) {
        needData = false;
        break;
      }
    }
    return { needData, colSpan: 1, rowSpan: 1 };
  }

  /** Records the spans a copied cell starts. */
  private startSpans(cell: TableCellModel, printed: RtTableCell): void {
    const { column: tx, row: ty } = this.template;
    const along = this.rowsFirst ? this.columnSpans : this.rowSpans;
    const across = this.rowsFirst ? this.rowSpans : this.columnSpans;
    const alongSpan = this.rowsFirst ? cell.colSpan : cell.rowSpan;
    const acrossSpan = this.rowsFirst ? cell.rowSpan : cell.colSpan;
    if (alongSpan > 1 && along.length === 0)
      along.push({ column: tx, row: ty, span: alongSpan, cell: printed, finished: false });
    if (acrossSpan > 1) across.push({ column: tx, row: ty, span: acrossSpan, cell: printed, finished: false });
  }

  /** The result: the printed columns, rows and cells (spans cut to the table). */
  result(): RtTable {
    const columns = this.columns.length;
    const rows = this.rows.length;
    const cells: RtTableCell[] = [];
    for (const c of this.cells.values()) {
      if (c.column >= columns || c.row >= rows) continue;
      c.colSpan = Math.max(1, Math.min(c.colSpan, columns - c.column));
      c.rowSpan = Math.max(1, Math.min(c.rowSpan, rows - c.row));
      cells.push(c);
    }
    cells.sort((a, b) => a.row - b.row || a.column - b.column);
    const breaks = (list: { pageBreak: boolean }[]): Set<number> =>
      new Set(list.flatMap((x, i) => (x.pageBreak && i > 0 ? [i] : [])));
    return {
      columnWidths: this.columns.map((c) => c.model.width),
      rowHeights: this.rows.map((r) => r.model.height),
      cells,
      canBreakRows: this.rows.map((r) => r.model.canBreak),
      pageBreaks: { rows: breaks(this.rows), columns: breaks(this.columns) },
      manual: true,
    };
  }

  /** TableBase.GetAggregateCells: the values of the cells printed from `template`, left and up
   *  from the cell being printed. */
  collect(template: object): TypedValue[] {
    const { column: cx, row: cy } = this.at;
    const startColumn = this.columns[cx]?.model;
    const startRow = this.rows[cy]?.model;
    const [tx, ty] = this.templatePlace(template);
    const sameRow = startRow === this.o.rows[ty];
    const sameColumn = startColumn === this.o.columns[tx];
    const out: TypedValue[] = [];
    for (let y = cy; y >= 0; y--) {
      if (y !== cy && this.rows[y]?.model === startRow) break;
      for (let x = cx; x >= 0; x--) {
        if (x !== cx && this.columns[x]?.model === startColumn) break;
        const c = this.cells.get(`${x},${y}`);
        if (c && this.origins.get(c) === template && c.rt.value) out.push(c.rt.value);
        if (sameColumn) break;
      }
      if (sameRow) break;
    }
    return out;
  }

  private templatePlace(template: object): [number, number] {
    for (let y = 0; y < this.o.cells.length; y++) {
      const x = (this.o.cells[y] ?? []).indexOf(template as TableCellModel);
      if (x >= 0) return [x, y];
    }
    return [-1, -1];
  }

  /** The template cell of this table named `name`. */
  templateCell(name: string): TableCellModel | undefined {
    for (const row of this.o.cells) for (const c of row) if (c.name === name) return c;
    return undefined;
  }

  /** The template columns and rows of the result's, for its layout (AutoSize, Min/Max). */
  grid(): { columns: TableColumnModel[]; rows: TableRowModel[] } {
    return { columns: this.columns.map((c) => c.model), rows: this.rows.map((r) => r.model) };
  }
}
