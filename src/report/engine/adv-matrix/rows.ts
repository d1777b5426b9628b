// The data rows of one AdvMatrix print: the data source's rows that pass the matrix's Filter,
// by index. The matrix's items hold sets of these indexes; an expression is evaluated per row
// with the source positioned on it, each (expression, row) once.

import type { TypedValue } from '../../expr/index.js';
import type { DataSourceCursor } from '../../data/index.js';
import type { EngineContext } from '../context.js';

export class MatrixRows {
  private readonly cache = new Map<string, (TypedValue | null | undefined)[]>();

  constructor(
    private readonly e: EngineContext,
    private readonly cursor: DataSourceCursor | undefined,
    readonly count: number,
  ) {}

  seek(row: number): void {
    if (this.cursor && row >= 0 && row < this.count) this.cursor.position = row;
  }

  /** The value of an expression (owner's `key` property, compiled once) at a row; null for a
   *  null value. */
  value(owner: object, key: string, source: string, where: string, row: number): TypedValue | null {
    const id = `${key}\u0000${source}`;
    let byRow = this.cache.get(id);
    if (!byRow) this.cache.set(id, (byRow = new Array(this.count)));
    const known = byRow[row];
    if (known !== undefined) return known;
    this.seek(row);
    const v = this.e.exprs.calc(owner, key, source, where);
    const out = v.value === null || v.value === undefined ? null : v;
    byRow[row] = out;
    return out;
  }

  /** All row indexes, ascending. */
  all(): Int32Array {
    return Int32Array.from({ length: this.count }, (_, i) => i);
  }
}

/** Intersections of row sets (each ascending): one set marked, others filtered by the marks. */
export class RowMarks {
  private readonly stamp: Int32Array;
  private current = 0;
  private marked: Int32Array | null = null;

  constructor(count: number) {
    this.stamp = new Int32Array(count);
  }

  mark(rows: Int32Array): void {
    if (this.marked === rows) return;
    this.current++;
    for (const r of rows) this.stamp[r] = this.current;
    this.marked = rows;
  }

  /** The rows of `rows` that are marked. */
  within(rows: Int32Array): Int32Array {
    const out: number[] = [];
    for (const r of rows) if (this.stamp[r] === this.current) out.push(r);
    return Int32Array.from(out);
  }
}
