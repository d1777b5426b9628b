// A matrix's data: per data cell and (row value, column value) of the innermost dimensions, what
// the rows brought (nulls are not kept), summed up as they arrive: count, sum, min, max, the
// first value and the distinct values. A total combines the summaries of everything under it, so
// it aggregates the raw values (an average of a total is the average of all its values, not of
// the averages under it). No value at all gives null (an empty cell), for every function, Count
// included.

import { applyOperator, compareValues, INTEGER_TYPES, type TypedValue } from '../../expr/index.js';
import type { MatrixFunction } from '../../frx/model.js';

/** The summary of some values: enough for every function, and combinable. */
interface Summary {
  count: number;
  sum: TypedValue | null;
  min: TypedValue | null;
  max: TypedValue | null;
  /** The value of the earliest data row, and that row. */
  first: TypedValue | null;
  firstRow: number;
  distinct: Set<string> | undefined;
}

function distinctKey(v: TypedValue): string {
  const x = v.value;
  if (x instanceof Date) return `${v.type}:d${x.getTime()}`;
  return `${v.type}:${String(x)}`;
}

/** What a function needs kept of each value. */
interface Needs {
  sum: boolean;
  minMax: boolean;
  distinct: boolean;
}

function needsOf(fn: MatrixFunction): Needs {
  return { sum: fn === 'Sum' || fn === 'Avg', minMax: fn === 'Min' || fn === 'Max', distinct: fn === 'CountDistinct' };
}

export class CellValues {
  /** data cell → row leaf id → column leaf id → summary. */
  private readonly byCell: Map<number, Map<number, Summary>>[] = [];
  private readonly needs: Needs[];
  private empty = true;

  constructor(
    functions: readonly MatrixFunction[],
    private readonly convertNulls: boolean,
  ) {
    this.needs = functions.map(needsOf);
    for (let k = 0; k < functions.length; k++) this.byCell.push(new Map());
  }

  get isEmpty(): boolean {
    return this.empty;
  }

  add(k: number, rowLeaf: number, columnLeaf: number, v: TypedValue, rowIndex: number): void {
    const rows = this.byCell[k];
    const needs = this.needs[k];
    if (!rows || !needs) return;
    this.empty = false;
    let cols = rows.get(rowLeaf);
    if (!cols) rows.set(rowLeaf, (cols = new Map()));
    const s = cols.get(columnLeaf);
    if (!s) {
      cols.set(columnLeaf, {
        count: 1,
        sum: needs.sum ? v : null,
        min: needs.minMax ? v : null,
        max: needs.minMax ? v : null,
        first: v,
        firstRow: rowIndex,
        distinct: needs.distinct ? new Set([distinctKey(v)]) : undefined,
      });
      return;
    }
    s.count++;
    if (needs.sum && s.sum) s.sum = applyOperator('+', s.sum, v, { convertNulls: this.convertNulls });
    if (needs.minMax) {
      if (s.min && compareValues(s.min, v) > 0) s.min = v;
      if (s.max && compareValues(s.max, v) < 0) s.max = v;
    }
    s.distinct?.add(distinctKey(v));
  }

  /** Data cell k's function over every value under the given row and column leaves. */
  aggregate(k: number, fn: MatrixFunction, rowLeaves: readonly number[], columnLeaves: readonly number[]) {
    const rows = this.byCell[k];
    if (!rows) return null;
    let total: Summary | undefined;
    for (const r of rowLeaves) {
      const cols = rows.get(r);
      if (!cols) continue;
      for (const c of columnLeaves) {
        const s = cols.get(c);
        if (s) total = total ? this.combine(total, s) : { ...s, distinct: s.distinct && new Set(s.distinct) };
      }
    }
    return total ? result(fn, total, this.convertNulls) : null;
  }

  /** Adds `s` into `into` (a copy owned by the caller). */
  private combine(into: Summary, s: Summary): Summary {
    into.count += s.count;
    if (into.sum && s.sum) into.sum = applyOperator('+', into.sum, s.sum, { convertNulls: this.convertNulls });
    if (into.min && s.min && compareValues(into.min, s.min) > 0) into.min = s.min;
    if (into.max && s.max && compareValues(into.max, s.max) < 0) into.max = s.max;
    if (s.firstRow < into.firstRow) {
      into.first = s.first;
      into.firstRow = s.firstRow;
    }
    if (into.distinct && s.distinct) for (const d of s.distinct) into.distinct.add(d);
    return into;
  }
}

function result(fn: MatrixFunction, s: Summary, convertNulls: boolean): TypedValue | null {
  switch (fn) {
    case 'Count':
      return { value: s.count, type: 'System.Int32' };
    case 'CountDistinct':
      return { value: s.distinct?.size ?? 0, type: 'System.Int32' };
    case 'Sum':
      return s.sum;
    case 'Avg': {
      if (s.sum === null) return null;
      const sum: TypedValue = INTEGER_TYPES.has(s.sum.type)
        ? { value: Number(s.sum.value), type: 'System.Double' }
        : s.sum;
      return applyOperator('/', sum, { value: s.count, type: 'System.Int32' }, { convertNulls });
    }
    case 'Min':
      return s.min;
    case 'Max':
      return s.max;
    default:
      return s.first;
  }
}
