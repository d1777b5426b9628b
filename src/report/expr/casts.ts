// Explicit casts `(int)x`: unchecked for integers and doubles, checked for decimals, and
// lenient between text, dates and booleans where FastReport's Variant is.

import { type Ctx, str } from './context.js';
import { convertTo } from './convert.js';
import { Decimal } from './decimal.js';
import { checkedIntegral, doubleToIntegral, isIntegralType, wrapInt } from './integral-types.js';
import { asDecimal, asDouble, isNumeric } from './numeric-kinds.js';
import { parseTimeSpan } from './scope-values.js';
import { TimeSpan } from './time-span.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { Chr, Dbl, EnumVal, Flt, NullOf, type Value } from './values.js';

/**
 * `(type)value`, `value` already through ConvertNulls. Numeric casts follow C# (unchecked for
 * integers and doubles, checked for decimals). Lenient where FastReport's Variant is: `(string)x`
 * is x's text, `(DateTime)"2020-01-02"` and `(bool)1` convert like System.Convert.
 */
export function castTo(ctx: Ctx, v: Value, type: string, nullable: boolean): Value {
  if (v === null || v instanceof NullOf) {
    if (nullable || type === 'System.String' || type === 'System.Object') return null;
    throw new ValueError('NullReferenceException', `null cannot be converted to ${type.slice(7)}`);
  }
  if (type === 'System.Object') return v;
  if (isIntegralType(type)) {
    if (typeof v === 'number') return wrapInt(BigInt(v), type);
    if (typeof v === 'bigint') return wrapInt(v, type);
    if (v instanceof Chr) return wrapInt(BigInt(v.code), type);
    if (v instanceof EnumVal) return wrapInt(BigInt(v.value), type);
    if (v instanceof Dbl || v instanceof Flt) return doubleToIntegral(v.v, type);
    if (v instanceof Decimal) return checkedIntegral(v.toBigInt(), type);
    throw badCast(v, type);
  }
  switch (type) {
    case 'System.Double':
      if (isNumeric(v)) return new Dbl(asDouble(v));
      if (v instanceof EnumVal) return new Dbl(v.value);
      throw badCast(v, type);
    case 'System.Single':
      if (isNumeric(v)) return new Flt(asDouble(v));
      throw badCast(v, type);
    case 'System.Decimal':
      if (isNumeric(v)) return asDecimal(v);
      throw badCast(v, type);
    case 'System.String':
      return typeof v === 'string' ? v : str(ctx, v);
    case 'System.Boolean':
      return convertTo(ctx, v, type);
    case 'System.DateTime':
      if (v instanceof Date) return v;
      if (typeof v === 'string') return convertTo(ctx, v, type);
      throw badCast(v, type);
    case 'System.TimeSpan':
      if (v instanceof TimeSpan) return v;
      if (typeof v === 'string') {
        const t = parseTimeSpan(v);
        if (t) return t;
      }
      throw badCast(v, type);
  }
  throw badCast(v, type);
}

function badCast(v: Value, type: string): ValueError {
  return new ValueError('InvalidCastException', `cannot convert a ${kindName(v)} to ${type.replace(/^System\./, '')}`);
}
