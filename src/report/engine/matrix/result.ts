// The table a matrix prints (FastReport's MatrixHelper PrintHeaders/PrintData): the corner and
// title, the column headers across the top (each value spanning the columns under it, a total
// reaching down to the last header row), the row headers down the left, and a data cell at
// every row × column, each a copy of the template cell of its part with its own text and value.
// Sizes come from the template's columns and rows (AutoSize ones are measured again).

import type { Resolved, TypedValue } from '../../expr/index.js';
import { formatForDisplay } from '../../format/index.js';
import type {
  MatrixObjectModel,
  ReportObjectModel,
  TableColumnModel,
  TableRowModel,
  TextObjectModel,
} from '../../frx/model.js';
import { defaultColumn, defaultRow } from '../../frx/table.js';
import type { EngineContext } from '../context.js';
import type { RtObject, RtTable, RtTableCell } from '../runtime.js';
import { linkTo, takesContainerValue } from '../hyperlinks.js';
import { applyHighlights, formatValue } from '../text-object.js';
import { spanOf, type HeaderItem } from './headers.js';
import { templateCell, type CellAt, type MatrixTemplate } from '../../frx/matrix-template.js';

/** What the result is built from: the template, the header trees' terminal items, and the value
 *  of data cell k at (row terminal, column terminal). */
export interface MatrixParts {
  tpl: MatrixTemplate;
  columnRoot: HeaderItem;
  rowRoot: HeaderItem;
  columnTerminals: readonly HeaderItem[];
  rowTerminals: readonly HeaderItem[];
  value(rowTerminal: number, columnTerminal: number, k: number): TypedValue | null;
  /** Moves the matrix's data source to a row (a header cell sees its value's first row). */
  seekRow(index: number): void;
}

/** What expressions read of a matrix while it prints (Matrix1.RowIndex, Matrix1.ColumnValues[0]):
 *  the data cell's row and column among the printed ones, and the values of the row and column
 *  items (outermost first) of the cell or header printing. */
export class MatrixState {
  rowIndex = 0;
  columnIndex = 0;
  rowValues: unknown[] | null = null;
  columnValues: unknown[] | null = null;

  property = (name: string): Resolved | undefined => {
    switch (name) {
      case 'RowIndex':
        return { value: this.rowIndex, type: 'System.Int32' };
      case 'ColumnIndex':
        return { value: this.columnIndex, type: 'System.Int32' };
      case 'RowValues':
        return { value: this.rowValues, type: 'System.Object[]' };
      case 'ColumnValues':
        return { value: this.columnValues, type: 'System.Object[]' };
      default:
        return undefined;
    }
  };
}

/** An item's values and its parents', outermost first (a total holds its parent's value). */
function valuesOf(item: HeaderItem): unknown[] {
  const out: unknown[] = [];
  for (let i: HeaderItem | null = item; i && i.level >= 0; i = i.parent) out.unshift(i.value?.value ?? null);
  return out;
}

/** The printed table and the template columns and rows its columns and rows copy. */
export interface MatrixResult {
  table: RtTable;
  columns: TableColumnModel[];
  rows: TableRowModel[];
}

const NULL_VALUE: TypedValue = { value: null, type: 'System.Object' };
/** The objects of a cell that has none (shared: a large matrix has a million cells). */
const NO_OBJECTS: RtObject[] = [];

export function buildResult(e: EngineContext, o: MatrixObjectModel, p: MatrixParts): MatrixResult {
  const state = new MatrixState();
  e.scope.objectProperties.set(o.name, state.property);
  const b = new ResultBuilder(e, o, p, state);
  b.corner();
  b.columnHeaders(p.columnRoot, p.tpl.hw, p.tpl.title);
  b.rowHeaders(p.rowRoot, 0, p.tpl.hh);
  b.data();
  return b.result();
}

class ResultBuilder {
  private readonly cells: RtTableCell[] = [];
  private readonly rowBreaks = new Set<number>();
  private readonly columnBreaks = new Set<number>();
  private readonly dataWidth: number;
  private readonly dataHeight: number;
  readonly columnCount: number;
  readonly rowCount: number;
  private missing = false;

  constructor(
    private readonly e: EngineContext,
    private readonly o: MatrixObjectModel,
    private readonly p: MatrixParts,
    private readonly state: MatrixState,
  ) {
    const t = p.tpl;
    this.dataWidth = t.sideBySide ? t.cellCount : 1;
    this.dataHeight = t.stacked ? t.cellCount : 1;
    this.columnCount = t.hw + p.columnTerminals.length * this.dataWidth;
    this.rowCount = t.hh + p.rowTerminals.length * this.dataHeight;
  }

  /** One printed cell from a template cell; `fill` gives it its text (else the template's text
   *  with its expressions evaluated). */
  private add(
    at: CellAt,
    col: number,
    row: number,
    colSpan: number,
    rowSpan: number,
    even = false,
    fill?: (o: TextObjectModel, rt: RtObject) => void,
  ): void {
    const template = templateCell(this.o, at);
    if (!template) {
      if (!this.missing)
        this.e.warnings.add(`${this.o.name}: its template has no cell at column ${at.col + 1}, row ${at.row + 1}`);
      this.missing = true;
      return;
    }
    const getData = fill
      ? (_e: EngineContext, m: ReportObjectModel, rt: RtObject) => fill(m as TextObjectModel, rt)
      : undefined;
    const rt = this.e.flow.objectData(this.e, template, even, false, getData);
    if (rt.visible && takesContainerValue(template.hyperlink)) this.linkCell(template, rt, at);
    this.cells.push({
      rt,
      column: col,
      row,
      colSpan,
      rowSpan,
      objects:
        rt.visible && template.objects.length > 0
          ? template.objects.map((inner) => this.e.flow.objectData(this.e, inner, false, false))
          : NO_OBJECTS,
    });
  }

  /** A cell's link whose value the matrix gives: a header's is its text, a data cell's its
   *  column and row values, joined by the link's ValuesSeparator (FastReport's MatrixHelper). */
  private linkCell(template: TextObjectModel, rt: RtObject, at: CellAt): void {
    const h = template.hyperlink;
    const isData = at.col >= this.p.tpl.hw && at.row >= this.p.tpl.hh;
    const value = isData
      ? [...(this.state.columnValues ?? []), ...(this.state.rowValues ?? [])]
          .map((v) => (v === null || v === undefined ? '' : this.e.scope.formatter.format(v, '')))
          .join(h.valuesSeparator)
      : (rt.text ?? '');
    const link = linkTo(this.e, template.name, h, value);
    if (link) rt.hyperlink = link;
    else delete rt.hyperlink;
  }

  /** The corner (copied from the template, its spans kept inside the corner) and the title. */
  corner(): void {
    const t = this.p.tpl;
    const covered = new Set<string>();
    for (let row = t.title; row < t.hh; row++) {
      for (let col = 0; col < t.hw; col++) {
        if (covered.has(`${col},${row}`)) continue;
        const template = templateCell(this.o, { col, row });
        const colSpan = Math.min(template?.colSpan ?? 1, t.hw - col);
        const rowSpan = Math.min(template?.rowSpan ?? 1, t.hh - row);
        for (let dy = 0; dy < rowSpan; dy++)
          for (let dx = 0; dx < colSpan; dx++) covered.add(`${col + dx},${row + dy}`);
        this.add({ col, row }, col, row, colSpan, rowSpan);
      }
    }
    if (t.title) {
      this.add({ col: 0, row: 0 }, 0, 0, t.hw, 1);
      this.add({ col: t.hw, row: 0 }, t.hw, 0, Math.max(1, this.columnCount - t.hw), 1);
    }
  }

  private headerText(item: HeaderItem) {
    return (o: TextObjectModel, rt: RtObject): void => {
      const v = item.value ?? NULL_VALUE;
      // A header shows its value in the cell's format; NullValue and HideZeros are for data.
      rt.text = formatForDisplay(v.value, o.format, { type: v.type, culture: this.e.culture });
      rt.value = v;
      applyHighlights(this.e, o, rt, v);
    };
  }

  /** A header cell: the value's text, or a total's own template text (its expressions see the
   *  total's first row). */
  private header(item: HeaderItem, col: number, row: number, colSpan: number, rowSpan: number, even: boolean): void {
    this.p.seekRow(item.firstRow);
    this.add(item.template, col, row, colSpan, rowSpan, even, item.total ? undefined : this.headerText(item));
  }

  /** Header even styles alternate per dimension over the whole matrix (not per parent); a total
   *  also counts for the dimensions inside it. */
  private readonly columnCounts: number[] = [];
  private readonly rowCounts: number[] = [];

  private evenHeader(counts: number[], item: HeaderItem, levels: number): boolean {
    const position = counts[item.level] ?? 0;
    counts[item.level] = position + 1;
    if (item.total) for (let l = item.level + 1; l < levels; l++) counts[l] = (counts[l] ?? 0) + 1;
    return position % 2 === 1;
  }

  columnHeaders(node: HeaderItem, left: number, top: number): void {
    const t = this.p.tpl;
    const lastHeaderRow = t.hh - (t.sideBySide ? 1 : 0);
    for (const item of node.children) {
      this.state.columnValues = valuesOf(item);
      const span = spanOf(item) * this.dataWidth;
      if (left > t.hw && t.columnLevels[item.level]?.descriptor.pageBreak) this.columnBreaks.add(left);
      const even = this.evenHeader(this.columnCounts, item, t.columnLevels.length);
      if (item.total) this.header(item, left, top, span, Math.max(1, lastHeaderRow - top), even);
      else {
        this.header(item, left, top, span, 1, even);
        this.columnHeaders(item, left, top + 1);
      }
      if (item.children.length === 0 && t.sideBySide) {
        for (let k = 0; k < t.cellCount; k++)
          this.add({ col: item.template.col + k, row: t.hh - 1 }, left + k, t.hh - 1, 1, 1);
      }
      left += span;
    }
  }

  rowHeaders(node: HeaderItem, left: number, top: number): void {
    const t = this.p.tpl;
    const lastHeaderColumn = t.hw - (t.stacked ? 1 : 0);
    for (const item of node.children) {
      this.state.rowValues = valuesOf(item);
      const span = spanOf(item) * this.dataHeight;
      if (top > t.hh && t.rowLevels[item.level]?.descriptor.pageBreak) this.rowBreaks.add(top);
      const even = this.evenHeader(this.rowCounts, item, t.rowLevels.length);
      if (item.total) this.header(item, left, top, Math.max(1, lastHeaderColumn - left), span, even);
      else {
        if (this.o.splitRows) for (let r = 0; r < span; r++) this.header(item, left, top + r, 1, 1, even);
        else this.header(item, left, top, 1, span, even);
        this.rowHeaders(item, left + 1, top);
      }
      if (item.children.length === 0 && t.stacked) {
        for (let k = 0; k < t.cellCount; k++)
          this.add({ col: t.hw - 1, row: item.template.row + k }, t.hw - 1, top + k, 1, 1);
      }
      top += span;
    }
  }

  /** Every data cell: the aggregate in the template cell's format (NullValue when empty). */
  data(): void {
    const { tpl, columnTerminals, rowTerminals } = this.p;
    const byRows = this.o.matrixEvenStylePriority === 'Rows';
    rowTerminals.forEach((rowItem, ri) => {
      this.state.rowIndex = ri;
      this.state.rowValues = valuesOf(rowItem);
      columnTerminals.forEach((colItem, ci) => {
        this.state.columnIndex = ci;
        this.state.columnValues = valuesOf(colItem);
        const even = (byRows ? ri : ci) % 2 === 1;
        for (let k = 0; k < tpl.cellCount; k++) {
          const value = this.p.value(ri, ci, k);
          const at = {
            col: colItem.template.col + (tpl.sideBySide ? k : 0),
            row: rowItem.template.row + (tpl.stacked ? k : 0),
          };
          const col = tpl.hw + ci * this.dataWidth + (tpl.sideBySide ? k : 0);
          const row = tpl.hh + ri * this.dataHeight + (tpl.stacked ? k : 0);
          this.add(at, col, row, 1, 1, even, (o, rt) => {
            const v = value ?? NULL_VALUE;
            rt.text = formatValue(this.e, o, v);
            rt.value = v;
            applyHighlights(this.e, o, rt, v);
          });
        }
      });
    });
  }

  result(): MatrixResult {
    const { tpl, columnTerminals, rowTerminals } = this.p;
    const columns: TableColumnModel[] = [];
    for (let x = 0; x < tpl.hw; x++) columns.push(this.column(x));
    for (const item of columnTerminals)
      for (let k = 0; k < this.dataWidth; k++) columns.push(this.column(item.template.col + k));
    const rows: TableRowModel[] = [];
    for (let y = 0; y < tpl.hh; y++) rows.push(this.row(y));
    for (const item of rowTerminals)
      for (let k = 0; k < this.dataHeight; k++) rows.push(this.row(item.template.row + k));
    const table: RtTable = {
      columnWidths: columns.map((c) => c.width),
      rowHeights: rows.map((r) => r.height),
      cells: this.cells,
      canBreakRows: rows.map((r) => r.canBreak),
      // A matrix's header rows and columns are its fixed ones, whatever the file says.
      fixed: { rows: tpl.hh, columns: tpl.hw },
    };
    if (this.rowBreaks.size > 0 || this.columnBreaks.size > 0)
      table.pageBreaks = { rows: this.rowBreaks, columns: this.columnBreaks };
    if (this.o.keepCellsSideBySide && tpl.sideBySide) table.keepColumns = tpl.cellCount;
    return { table, columns, rows };
  }

  // The loader completes a matrix's template to the size its dimensions need (frx/matrix.ts).
  private column(x: number): TableColumnModel {
    return this.o.columns[x] ?? defaultColumn('', this.o.line, false);
  }

  private row(y: number): TableRowModel {
    return this.o.rows[y] ?? defaultRow('', this.o.line, false);
  }
}
