// The built-in aggregates of an AdvMatrix cell over the values its data rows gave (nulls left
// out, in data order). No value gives null (an empty cell), Count included, as the MatrixObject
// does; Avg of integers is a double; ValuesList is the values themselves (for a sparkline).

import { applyOperator, compareValues, INTEGER_TYPES, type TypedValue } from '../../expr/index.js';
import type { AggregateName } from './formula.js';

export function aggregate(fn: AggregateName, values: readonly TypedValue[], convertNulls: boolean): TypedValue | null {
  if (fn === 'ValuesList') return { value: values.map((v) => v.value), type: 'System.Object[]' };
  if (values.length === 0) return null;
  const first = values[0] as TypedValue;
  switch (fn) {
    case 'Count':
      return { value: values.length, type: 'System.Int32' };
    case 'CountDistinct':
      return { value: new Set(values.map(distinctKey)).size, type: 'System.Int32' };
    case 'First':
      return first;
    case 'Last':
      return values[values.length - 1] as TypedValue;
    case 'Min':
    case 'Max': {
      let best = first;
      for (const v of values) {
        const c = compareValues(v, best);
        if (fn === 'Min' ? c < 0 : c > 0) best = v;
      }
      return best;
    }
    case 'Sum':
    case 'Avg': {
      let sum = first;
      for (let i = 1; i < values.length; i++) sum = applyOperator('+', sum, values[i] as TypedValue, { convertNulls });
      if (fn === 'Sum') return sum;
      const dividend: TypedValue = INTEGER_TYPES.has(sum.type)
        ? { value: Number(sum.value), type: 'System.Double' }
        : sum;
      return applyOperator('/', dividend, { value: values.length, type: 'System.Int32' }, { convertNulls });
    }
  }
  return null;
}

function distinctKey(v: TypedValue): string {
  const x = v.value;
  if (x instanceof Date) return `${v.type}:d${x.getTime()}`;
  return `${v.type}:${String(x)}`;
}
