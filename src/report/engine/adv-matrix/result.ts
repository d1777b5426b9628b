// The table an AdvMatrix prints: the corner copied from the template, the column header items
// across the top (each spanning the columns under it, a leaf reaching down to the last header
// row), the row header items down the left (a stepped item on a row of its own above its
// children, in the same column), and a data cell at every row × column, each a copy of the
// template cell at the two items' data lines with its text evaluated over their common rows.
// A template data cell that spans lines spans them in the result where the same lines follow.

import type { Resolved, TypedValue } from '../../expr/index.js';
import { formatForDisplay } from '../../format/index.js';
import type {
  AdvMatrixObjectModel,
  ReportObjectModel,
  TableCellModel,
  TableColumnModel,
  TableRowModel,
  TextObjectModel,
} from '../../frx/model.js';
import { defaultColumn, defaultRow } from '../../frx/table.js';
import type { EngineContext } from '../context.js';
import type { MatrixResult } from '../matrix/result.js';
import type { RtObject, RtTable, RtTableCell } from '../runtime.js';
import { applyHighlights, formatValue } from '../text-object.js';
import type { CellEvaluator, CellPlaces, CellResult } from './cells.js';
import type { AggregatePlace } from './formula.js';
import { dataLine, type AdvItem } from './items.js';
import { RowMarks, type MatrixRows } from './rows.js';
import { compareSortValues } from '../datasource.js';

/** What [Matrix.RowNo] and [Matrix.ItemCount] read: the header item printing. */
export class AdvMatrixState {
  item: AdvItem | null = null;

  property = (name: string): Resolved | undefined => {
    switch (name) {
      case 'RowNo':
        return { value: this.item?.rowNo ?? 0, type: 'System.Int32' };
      case 'ItemCount':
        return { value: this.item?.itemCount ?? 0, type: 'System.Int32' };
      default:
        return undefined;
    }
  };
}

export interface AdvParts {
  columnRoot: AdvItem;
  rowRoot: AdvItem;
  columnTerminals: readonly AdvItem[];
  rowTerminals: readonly AdvItem[];
  /** Header lines: rows above the data (column levels), columns left of it (row levels). */
  hh: number;
  hw: number;
  rows: MatrixRows;
  cells: CellEvaluator;
  state: AdvMatrixState;
}

const NULL: TypedValue = { value: null, type: 'System.Object' };
const NO_OBJECTS: RtObject[] = [];

export class AdvResultBuilder {
  private readonly out: RtTableCell[] = [];
  private missing = false;

  constructor(
    private readonly e: EngineContext,
    private readonly o: AdvMatrixObjectModel,
    private readonly p: AdvParts,
  ) {}

  private template(col: number, row: number): TableCellModel | undefined {
    const t = this.o.cells[row]?.[col];
    if (!t && !this.missing) {
      this.missing = true;
      this.e.warnings.add(`${this.o.name}: its template has no cell at column ${col + 1}, row ${row + 1}`);
    }
    return t;
  }

  private add(
    template: TableCellModel,
    col: number,
    row: number,
    colSpan: number,
    rowSpan: number,
    fill?: (o: TextObjectModel, rt: RtObject) => void,
    cellData?: CellResult,
  ): void {
    const getData = fill
      ? (_e: EngineContext, m: ReportObjectModel, rt: RtObject) => fill(m as TextObjectModel, rt)
      : undefined;
    const rt = this.e.flow.objectData(this.e, template, false, false, getData);
    let objects = NO_OBJECTS;
    if (rt.visible && template.objects.length > 0) {
      // The objects of a data cell (a gauge, a sparkline) see the cell's value and values.
      this.e.cellData = cellData ? { value: cellData.value?.value ?? null, values: cellData.values } : undefined;
      try {
        objects = template.objects.map((inner) => this.e.flow.objectData(this.e, inner, false, false));
      } finally {
        this.e.cellData = undefined;
      }
    }
    this.out.push({ rt, column: col, row, colSpan, rowSpan, objects });
  }

  /** The corner: the template's, its spans kept inside it. */
  corner(): void {
    const { hh, hw } = this.p;
    const covered = new Set<string>();
    for (let row = 0; row < hh; row++) {
      for (let col = 0; col < hw; col++) {
        if (covered.has(`${col},${row}`)) continue;
        const t = this.template(col, row);
        if (!t) continue;
        const colSpan = Math.min(t.colSpan, hw - col);
        const rowSpan = Math.min(t.rowSpan, hh - row);
        for (let dy = 0; dy < rowSpan; dy++)
          for (let dx = 0; dx < colSpan; dx++) covered.add(`${col + dx},${row + dy}`);
        this.add(t, col, row, colSpan, rowSpan);
      }
    }
  }

  /** The header cells of one axis. */
  headers(axis: 'column' | 'row'): void {
    const { hh, hw } = this.p;
    const depth = axis === 'column' ? hh : hw;
    let pos = 0;
    const walk = (parent: AdvItem): void => {
      for (const item of parent.children) {
        const leaf = item.children.length === 0;
        const stepped = !leaf && item.slot.model.stepped;
        const level = item.slot.level;
        if (level >= 0) {
          const lineSpan = leaf ? Math.max(1, depth - level) : 1;
          const posSpan = stepped ? 1 : terminalCount(item);
          const first = item.slot.firstSlot;
          if (axis === 'column') this.header(item, hw + first, level, hw + pos, level, posSpan, lineSpan);
          else this.header(item, level, hh + first, level, hh + pos, lineSpan, posSpan);
        }
        if (leaf) pos++;
        else {
          if (stepped) pos++;
          walk(item);
        }
      }
    };
    walk(axis === 'column' ? this.p.columnRoot : this.p.rowRoot);
  }

  private header(item: AdvItem, tc: number, tr: number, col: number, row: number, colSpan: number, rowSpan: number) {
    const t = this.template(tc, tr);
    if (!t) return;
    const d = item.slot.model;
    this.p.state.item = item;
    this.p.rows.seek(item.rows[0] ?? -1);
    let fill: ((o: TextObjectModel, rt: RtObject) => void) | undefined;
    if (d.displayText !== '') {
      const text = this.e.exprs
        .template(d, 'displayText', d.displayText, '[,]', `${this.o.name}.DisplayText`)
        .render(this.e.scope);
      fill = (_o, rt) => {
        rt.text = text;
      };
    } else if (item.group) {
      fill = (o, rt) => {
        const v = item.value ?? NULL;
        rt.text = formatForDisplay(v.value, o.format, { type: v.type, culture: this.e.culture });
        rt.value = v;
        applyHighlights(this.e, o, rt, v);
      };
    }
    this.add(t, col, row, colSpan, rowSpan, fill);
    this.p.state.item = null;
  }

  /** Every data cell. A cell's rows are its row item's that its column item has: each row
   *  item's rows are dealt into the column terminals that hold them (a row is in a few: its
   *  group and the totals above it), so the whole matrix costs its rows times its levels. */
  data(): void {
    const { hh, hw, columnTerminals: cols, rowTerminals: rows } = this.p;
    const marks = new RowMarks(this.p.rows.count);
    const all = this.p.rows.all();
    const grand = { owner: all, rows: all };
    const covered = new Set<number>();
    const nc = cols.length;
    const membership = columnMembership(cols, this.p.rows.count);
    const columnOf = new Map(cols.map((c, i) => [c, i]));
    const buckets: number[][] = cols.map(() => []);
    rows.forEach((rowItem, ri) => {
      const tr = hh + dataLine(rowItem);
      for (const b of buckets) b.length = 0;
      for (const r of rowItem.rows)
        for (let k = membership.start[r] as number; k < (membership.start[r + 1] as number); k++)
          buckets[membership.columns[k] as number]?.push(r);
      const rowsIn = (target: AdvItem): ArrayLike<number> => {
        const at = columnOf.get(target);
        if (at !== undefined) return buckets[at] as number[];
        marks.mark(rowItem.rows);
        return marks.within(target.rows);
      };
      cols.forEach((colItem, ci) => {
        if (covered.has(ri * nc + ci)) return;
        const tc = hw + dataLine(colItem);
        const t = this.template(tc, tr);
        if (!t) return;
        const places: CellPlaces = {
          here: () => buckets[ci] as number[],
          total: (of) =>
            of === 'Column'
              ? { owner: colItem, rows: colItem.rows }
              : of === 'Row'
                ? { owner: rowItem, rows: rowItem.rows }
                : grand,
          column: (place, key) => {
            const target = this.navigate(colItem, place, key);
            return target ? rowsIn(target) : null;
          },
        };
        const compiled = this.p.cells.cell(t);
        const result = this.p.cells.evaluate(t, compiled, places);
        const colSpan = this.span(cols, ci, tc, t.colSpan, hw);
        const rowSpan = this.span(rows, ri, tr, t.rowSpan, hh);
        for (let dy = 0; dy < rowSpan; dy++) for (let dx = 0; dx < colSpan; dx++) covered.add((ri + dy) * nc + ci + dx);
        const fill = (o: TextObjectModel, rt: RtObject): void => {
          rt.text = this.cellText(o, result);
          rt.value = result.value ?? NULL;
          applyHighlights(this.e, o, rt, rt.value);
        };
        this.add(t, hw + ci, hh + ri, colSpan, rowSpan, fill, result);
      });
    });
  }

  /** How many of the terminals from `i` on follow the template's lines from `line` (a template
   *  cell spanning `span` lines spans as many printed lines). */
  private span(items: readonly AdvItem[], i: number, line: number, span: number, offset: number): number {
    let n = 1;
    while (n < span) {
      const next = items[i + n];
      if (!next || offset + dataLine(next) !== line + n) break;
      n++;
    }
    return n;
  }

  private cellText(o: TextObjectModel, r: CellResult): string {
    let text = '';
    let k = 0;
    for (const part of r.parts) {
      if (typeof part === 'string') text += part;
      else if (!Array.isArray(part.value)) text += formatValue(this.e, o, part, k++);
      else k++;
    }
    return text;
  }

  /** The column a navigation function names: among the values of the cell's group (a static
   *  column: of the groups beside it), the first, second, last, last but one, or the one whose
   *  value is the key. */
  private navigate(
    item: AdvItem,
    place: Extract<AggregatePlace, { kind: 'Column' | 'SpecificColumn' }>,
    key: TypedValue | null,
  ): AdvItem | undefined {
    const siblings = item.parent?.children ?? [];
    const domain = siblings.filter((s) => s.group && (!item.group || s.slot === item.slot));
    if (place.kind === 'SpecificColumn') return domain.find((s) => sameValue(s.value, key, this.e.culture.name));
    switch (place.to) {
      case 'First':
        return domain[0];
      case 'Next':
        return domain[1];
      case 'Last':
        return domain[domain.length - 1];
      case 'Previous':
        return domain[domain.length - 2];
    }
  }

  result(): MatrixResult {
    const { hh, hw, columnTerminals, rowTerminals } = this.p;
    const columns: TableColumnModel[] = [];
    for (let x = 0; x < hw; x++) columns.push(this.column(x));
    for (const item of columnTerminals) columns.push(this.column(hw + dataLine(item)));
    const rows: TableRowModel[] = [];
    for (let y = 0; y < hh; y++) rows.push(this.row(y));
    for (const item of rowTerminals) rows.push(this.row(hh + dataLine(item)));
    const table: RtTable = {
      columnWidths: columns.map((c) => c.width),
      rowHeights: rows.map((r) => r.height),
      cells: this.out,
      canBreakRows: rows.map((r) => r.canBreak),
      fixed: { rows: hh, columns: hw },
    };
    return { table, columns, rows };
  }

  private column(x: number): TableColumnModel {
    return this.o.columns[x] ?? defaultColumn('', this.o.line, false);
  }

  private row(y: number): TableRowModel {
    return this.o.rows[y] ?? defaultRow('', this.o.line, false);
  }
}

/** For each data row, the column terminals that hold it (compressed: `columns` from
 *  `start[row]` to `start[row + 1]`). */
function columnMembership(cols: readonly AdvItem[], count: number): { start: Int32Array; columns: Int32Array } {
  const start = new Int32Array(count + 1);
  for (const c of cols) for (const r of c.rows) start[r + 1] = (start[r + 1] as number) + 1;
  for (let r = 0; r < count; r++) start[r + 1] = (start[r + 1] as number) + (start[r] as number);
  const next = start.slice(0, count);
  const columns = new Int32Array(start[count] as number);
  cols.forEach((c, ci) => {
    for (const r of c.rows) {
      columns[next[r] as number] = ci;
      next[r] = (next[r] as number) + 1;
    }
  });
  return { start, columns };
}

/** The printed lines under an item: its own (stepped or leaf) and its children's. */
function terminalCount(item: AdvItem): number {
  if (item.children.length === 0) return 1;
  let n = item.slot.model.stepped ? 1 : 0;
  for (const c of item.children) n += terminalCount(c);
  return n;
}

/** A group value equal to a SpecificColumn key (2012 names the column of the year 2012, and
 *  "2012" too). */
function sameValue(v: TypedValue | null, key: TypedValue | null, culture: string): boolean {
  if (!v || !key) return v === key;
  try {
    if (compareSortValues(v, key, culture) === 0) return true;
  } catch {
    // Values of unrelated types: compared as text below.
  }
  return String(v.value) === String(key.value);
}
