// Values converted to the type a script declares where C# converts them implicitly: a local, a
// field, a parameter, a method's return value, a collection's element (`double d = 1` holds 1.0,
// so `d / 2` is 0.5; `long f = 1` multiplies as a long). And `default(T)` of a declared type.

import { castTo } from '../expr/casts.js';
import { isNullish, makeCtx } from '../expr/context.js';
import { canonicalType, defaultOf } from '../expr/type-names.js';
import { DEFAULT_LIMITS } from '../expr/types.js';
import { Decimal } from '../expr/decimal.js';
import { Chr, Dbl, Flt, type Value } from '../expr/values.js';

/** The numeric types (canonical names) a declared type converts numbers to. */
const NUMERIC = new Set([
  'System.Int32',
  'System.Int64',
  'System.Int16',
  'System.Byte',
  'System.SByte',
  'System.UInt16',
  'System.UInt32',
  'System.UInt64',
  'System.Double',
  'System.Single',
  'System.Decimal',
  'System.Char',
]);

/** Numeric conversions never format or look anything up: a context of their own serves them. */
const CTX = makeCtx({ convertNulls: false, resolve: () => undefined }, DEFAULT_LIMITS);

/** The canonical numeric type a declared type names (`double`, `long?`, `System.Int32`), or
 *  undefined for every other type. */
export function numericType(type: string): string | undefined {
  const t = canonicalType(type.endsWith('?') ? type.slice(0, -1) : type);
  return t !== undefined && NUMERIC.has(t) ? t : undefined;
}

/** A value converted to a declared type where C# would convert it (numbers). */
export function coerce(v: Value, type: string): Value {
  if (v === null || isNullish(v)) return v;
  const t = numericType(type);
  return t && !isOf(v, t) ? castTo(CTX, v, t, false) : v;
}

/** `v` already is a value of the numeric type `t` (the common case, answered without a cast). */
function isOf(v: Value, t: string): boolean {
  switch (t) {
    case 'System.Int32':
      return typeof v === 'number';
    case 'System.Int64':
      return typeof v === 'bigint';
    case 'System.Double':
      return v instanceof Dbl;
    case 'System.Single':
      return v instanceof Flt;
    case 'System.Decimal':
      return v instanceof Decimal;
    case 'System.Char':
      return v instanceof Chr;
  }
  return false;
}

/** C#'s `default(T)` for a type as scripts write it (`T?` and reference types: null). */
export function defaultFor(type: string): Value {
  if (type.endsWith('?')) return null;
  const t = canonicalType(type);
  // ConvertNulls makes a null char a space; C#'s default char is '\0'.
  if (t === 'System.Char') return new Chr(0);
  if (t === 'System.Boolean' || t === 'System.DateTime' || t === 'System.TimeSpan' || (t && NUMERIC.has(t)))
    return defaultOf(t);
  return null;
}
