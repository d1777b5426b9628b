// Numeric kinds (C#'s int, long, float, double, decimal), implicit promotion and widening, and
// the rounding of doubles as .NET does it (Math.Round, MidpointRounding).

import { fail } from './context.js';
import { Decimal } from './decimal.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { Chr, Dbl, Flt, type Value } from './values.js';

export const INT = 0,
  LONG = 1,
  FLOAT = 2,
  DOUBLE = 3,
  DEC = 4;
export type NumKind = 0 | 1 | 2 | 3 | 4;

/** The numeric kind of a value for arithmetic (char counts as int), or -1. */
export function numKind(v: Value): NumKind | -1 {
  if (typeof v === 'number') return INT;
  if (typeof v === 'bigint') return LONG;
  if (v instanceof Dbl) return DOUBLE;
  if (v instanceof Decimal) return DEC;
  if (v instanceof Flt) return FLOAT;
  if (v instanceof Chr) return INT;
  return -1;
}

/** C#'s binary numeric promotion. decimal with float/double is a compile error in C#; here the
 *  double becomes a decimal (15 significant digits), which is what FastReport's Variant totals
 *  do with money and keeps sums exact. */
export function promote(a: NumKind, b: NumKind): NumKind {
  if (a === DEC || b === DEC) return DEC;
  return (a > b ? a : b) as NumKind;
}

export function asInt(v: Value): number {
  return v instanceof Chr ? v.code : (v as number);
}

export function asLong(v: Value): bigint {
  if (typeof v === 'bigint') return v;
  return BigInt(asInt(v));
}

export function asDouble(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Dbl || v instanceof Flt) return v.v;
  if (v instanceof Decimal) return v.toNumber();
  if (v instanceof Chr) return v.code;
  throw fail(`a ${kindName(v)} is not a number`, 'InvalidCastException');
}

export function asDecimal(v: Value): Decimal {
  if (v instanceof Decimal) return v;
  if (typeof v === 'number') return Decimal.fromInteger(v);
  if (typeof v === 'bigint') return Decimal.fromInteger(v);
  if (v instanceof Dbl) return Decimal.fromDouble(v.v);
  if (v instanceof Flt) return Decimal.fromSingle(v.v);
  if (v instanceof Chr) return Decimal.fromInteger(v.code);
  throw fail(`a ${kindName(v)} is not a number`, 'InvalidCastException');
}

/** Converts a numeric value to the given kind (implicit widening). */
export function toKind(v: Value, k: NumKind): Value {
  switch (k) {
    case INT:
      return asInt(v);
    case LONG:
      return asLong(v);
    case FLOAT:
      return v instanceof Flt ? v : new Flt(asDouble(v));
    case DOUBLE:
      return v instanceof Dbl ? v : new Dbl(asDouble(v));
    case DEC:
      return asDecimal(v);
  }
}

export function isNumeric(v: Value): boolean {
  return numKind(v) >= 0;
}

/** 0 of the kind of `like` (for an untyped null under ConvertNulls), or null. */
export function zeroLike(like: Value): Value {
  switch (numKind(like)) {
    case INT:
      return 0;
    case LONG:
      return 0n;
    case FLOAT:
      return new Flt(0);
    case DOUBLE:
      return new Dbl(0);
    case DEC:
      return Decimal.Zero;
  }
  if (typeof like === 'string') return '';
  if (typeof like === 'boolean') return false;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Rounding of doubles

/** Math.Round(double): half to even. */
export function roundEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const t = Math.trunc(x);
  const diff = Math.abs(x - t);
  const s = x < 0 ? -1 : 1;
  if (diff > 0.5 || (diff === 0.5 && t % 2 !== 0)) return t + s;
  return t === 0 && x < 0 ? -0 : t;
}

/** MidpointRounding.AwayFromZero. */
export function roundAway(x: number): number {
  if (!Number.isFinite(x)) return x;
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + (x < 0 ? -1 : 1) : t;
}

/** Math.Round(double, digits[, mode]) the way .NET Core does it: scale, round, unscale. */
export function roundDouble(x: number, digits: number, away: boolean): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15)
    throw new ValueError('ArgumentOutOfRangeException', 'Rounding digits must be between 0 and 15, inclusive');
  if (Math.abs(x) >= 1e16 || !Number.isFinite(x)) return x;
  const p = 10 ** digits;
  const r = away ? roundAway(x * p) : roundEven(x * p);
  return r / p;
}
