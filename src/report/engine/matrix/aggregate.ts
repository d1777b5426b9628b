// A matrix's data: the values of each data cell per (row value, column value) of the innermost
// dimensions, as the rows bring them (nulls are not kept), and their aggregates. A total
// aggregates the raw values of everything under it (an average of a total is the average of all
// its values, not of the averages under it); no value at all gives null (an empty cell), for
// every function, Count included.

import { applyOperator, compareValues, INTEGER_TYPES, type TypedValue } from '../../expr/index.js';
import type { MatrixFunction } from '../../frx/model.js';

export class CellValues {
  /** data cell → row leaf id → column leaf id → values. */
  private readonly byCell: Map<number, Map<number, TypedValue[]>>[] = [];

  constructor(cellCount: number) {
    for (let k = 0; k < cellCount; k++) this.byCell.push(new Map());
  }

  add(k: number, rowLeaf: number, columnLeaf: number, v: TypedValue): void {
    const rows = this.byCell[k];
    if (!rows) return;
    let cols = rows.get(rowLeaf);
    if (!cols) rows.set(rowLeaf, (cols = new Map()));
    const list = cols.get(columnLeaf);
    if (list) list.push(v);
    else cols.set(columnLeaf, [v]);
  }

  get isEmpty(): boolean {
    return this.byCell.every((m) => m.size === 0);
  }

  /** Every value of data cell k under the given row and column leaves. */
  *values(k: number, rowLeaves: readonly number[], columnLeaves: readonly number[]): Iterable<TypedValue> {
    const rows = this.byCell[k];
    if (!rows) return;
    for (const r of rowLeaves) {
      const cols = rows.get(r);
      if (!cols) continue;
      for (const c of columnLeaves) {
        const list = cols.get(c);
        if (list) yield* list;
      }
    }
  }
}

function distinctKey(v: TypedValue): string {
  const x = v.value;
  if (x instanceof Date) return `${v.type}:d${x.getTime()}`;
  return `${v.type}:${String(x)}`;
}

/** The aggregate of values (null when there are none). Custom cells are computed by the caller. */
export function aggregate(fn: MatrixFunction, values: Iterable<TypedValue>, convertNulls: boolean): TypedValue | null {
  let acc: TypedValue | null = null;
  let count = 0;
  const distinct = fn === 'CountDistinct' ? new Set<string>() : undefined;
  for (const v of values) {
    count++;
    if (distinct) {
      distinct.add(distinctKey(v));
      continue;
    }
    if (acc === null) {
      acc = v;
      continue;
    }
    if (fn === 'Sum' || fn === 'Avg') acc = applyOperator('+', acc, v, { convertNulls });
    else if (fn === 'Min' && compareValues(acc, v) > 0) acc = v;
    else if (fn === 'Max' && compareValues(acc, v) < 0) acc = v;
  }
  if (count === 0) return null;
  switch (fn) {
    case 'Count':
      return { value: count, type: 'System.Int32' };
    case 'CountDistinct':
      return { value: distinct?.size ?? 0, type: 'System.Int32' };
    case 'Avg': {
      if (acc === null) return null;
      const sum: TypedValue = INTEGER_TYPES.has(acc.type) ? { value: Number(acc.value), type: 'System.Double' } : acc;
      return applyOperator('/', sum, { value: count, type: 'System.Int32' }, { convertNulls });
    }
    default:
      return acc;
  }
}
