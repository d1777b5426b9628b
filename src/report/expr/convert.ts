// System.Convert.ToXxx (banker's rounding, range checks, en-US parsing) and the checks that
// read a function's arguments as int, double, string, date, char or bool.

import { type Ctx, str } from './context.js';
import { DATETIME_MIN_MS } from './date-time.js';
import { Decimal } from './decimal.js';
import { checkedIntegral, INT_RANGES, isIntegralType } from './integral-types.js';
import { asDecimal, asDouble, isNumeric, roundEven } from './numeric-kinds.js';
import { parseDateTime, parseDecimal, parseDouble, parseIntegral } from './parse-en-us.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { ArrayVal, Chr, Dbl, EnumVal, Flt, NullOf, type Value } from './values.js';

function invalidConvert(v: Value, type: string): ValueError {
  return new ValueError(
    'InvalidCastException',
    `Invalid cast from '${kindName(v)}' to '${type.replace(/^System\./, '')}'`,
  );
}

/** System.Convert.ToXxx(value) for a target .NET type. `v` is through ConvertNulls already; a
 *  null gives the type's zero ("" for ToString, DateTime.MinValue for ToDateTime). */
export function convertTo(ctx: Ctx, v: Value, type: string): Value {
  if (v instanceof NullOf) v = null;
  if (isIntegralType(type)) {
    if (v === null) return type === 'System.Char' ? new Chr(0) : type in INT_RANGES ? 0 : 0n;
    if (type === 'System.Char') {
      if (v instanceof Chr) return v;
      if (typeof v === 'string') {
        if (v.length !== 1) throw new ValueError('FormatException', 'String must be exactly one character long');
        return new Chr(v.charCodeAt(0));
      }
      if (typeof v === 'number' || typeof v === 'bigint') return checkedIntegral(BigInt(v), type);
      throw invalidConvert(v, type);
    }
    if (typeof v === 'number') return checkedIntegral(BigInt(v), type);
    if (typeof v === 'bigint') return checkedIntegral(v, type);
    if (typeof v === 'boolean') return checkedIntegral(v ? 1n : 0n, type);
    if (v instanceof Chr) return checkedIntegral(BigInt(v.code), type);
    if (v instanceof EnumVal) return checkedIntegral(BigInt(v.value), type);
    if (v instanceof Dbl || v instanceof Flt) {
      const r = roundEven(v.v);
      if (!Number.isFinite(r))
        throw new ValueError('OverflowException', `Value was either too large or too small for ${type.slice(7)}`);
      return checkedIntegral(BigInt(r), type);
    }
    if (v instanceof Decimal) return checkedIntegral(v.round(0, 'even').toBigInt(), type);
    if (typeof v === 'string') return parseIntegral(v, type);
    throw invalidConvert(v, type);
  }
  switch (type) {
    case 'System.Double':
    case 'System.Single': {
      let n: number;
      if (v === null) n = 0;
      else if (typeof v === 'boolean') n = v ? 1 : 0;
      else if (typeof v === 'string') n = parseDouble(v);
      else if (v instanceof Chr) throw invalidConvert(v, type);
      else if (isNumeric(v)) n = asDouble(v);
      else throw invalidConvert(v, type);
      return type === 'System.Double' ? new Dbl(n) : new Flt(n);
    }
    case 'System.Decimal':
      if (v === null) return Decimal.Zero;
      if (typeof v === 'boolean') return v ? Decimal.One : Decimal.Zero;
      if (typeof v === 'string') return parseDecimal(v);
      if (v instanceof Chr) throw invalidConvert(v, type);
      if (isNumeric(v)) return asDecimal(v);
      throw invalidConvert(v, type);
    case 'System.Boolean':
      if (v === null) return false;
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string') {
        const t = v.trim().toLowerCase();
        if (t === 'true') return true;
        if (t === 'false') return false;
        throw new ValueError(
          'FormatException',
          `String '${v.length > 40 ? `${v.slice(0, 40)}…` : v}' was not recognized as a valid Boolean`,
        );
      }
      if (v instanceof Chr) throw invalidConvert(v, type);
      if (v instanceof Decimal) return !v.isZero();
      if (isNumeric(v)) {
        const n = asDouble(v);
        return n !== 0;
      }
      throw invalidConvert(v, type);
    case 'System.String':
      return str(ctx, v);
    case 'System.DateTime':
      if (v === null) return new Date(DATETIME_MIN_MS);
      if (v instanceof Date) return v;
      if (typeof v === 'string') return parseDateTime(ctx, v);
      throw invalidConvert(v, type);
    case 'System.Object':
      return v;
  }
  throw invalidConvert(v ?? null, type);
}

/** A value as an Int32 argument (int, long in range, char; doubles are not implicit). */
export function argInt(v: Value, what = 'argument'): number {
  if (typeof v === 'number') return v;
  if (v instanceof Chr) return v.code;
  if (typeof v === 'bigint' && v >= -2147483648n && v <= 2147483647n) return Number(v);
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be an int, not a ${kindName(v)}`);
}

/** A value as a double argument (any number). */
export function argDouble(v: Value, what = 'argument'): number {
  if (isNumeric(v)) return asDouble(v);
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be a number, not a ${kindName(v)}`);
}

export function argString(v: Value, what = 'argument'): string {
  if (typeof v === 'string') return v;
  if (v instanceof Chr) return v.toString();
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be a string, not a ${kindName(v)}`);
}

export function argDate(v: Value, what = 'argument'): Date {
  if (v instanceof Date) return v;
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be a DateTime, not a ${kindName(v)}`);
}

export function argChar(v: Value, what = 'argument'): number {
  if (v instanceof Chr) return v.code;
  if (typeof v === 'string' && v.length === 1) return v.charCodeAt(0);
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be a char, not a ${kindName(v)}`);
}

export function argBool(v: Value, what = 'argument'): boolean {
  if (typeof v === 'boolean') return v;
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be a bool, not a ${kindName(v)}`);
}

export function isArray(v: Value): v is ArrayVal {
  return v instanceof ArrayVal;
}
