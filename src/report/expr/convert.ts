// Numeric kinds and C# conversions: implicit promotion, explicit casts `(int)x`, and the
// System.Convert.ToXxx family (banker's rounding, range checks, en-US parsing).

import { type Ctx, fail, now, str } from './context.js';
import { DATETIME_MIN_MS, makeDate } from './date-time.js';
import { Decimal } from './decimal.js';
import { parseIsoDate, parseTimeSpan } from './scope-values.js';
import { TimeSpan } from './time-span.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { ArrayVal, Chr, Dbl, EnumVal, Flt, NullOf, type Value } from './values.js';

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

// ---------------------------------------------------------------------------------------------
// Explicit casts

const INT_RANGES: Record<string, readonly [number, number]> = {
  'System.Int32': [-2147483648, 2147483647],
  'System.Int16': [-32768, 32767],
  'System.SByte': [-128, 127],
  'System.Byte': [0, 255],
  'System.UInt16': [0, 65535],
  'System.Char': [0, 65535],
};
const LONG_RANGES: Record<string, readonly [bigint, bigint]> = {
  'System.Int64': [-9223372036854775808n, 9223372036854775807n],
  'System.UInt32': [0n, 4294967295n],
  'System.UInt64': [0n, 9223372036854775807n],
};

/** Wraps an integer to a narrow integral type (unchecked conversion). */
function wrapInt(n: bigint, type: string): Value {
  switch (type) {
    case 'System.Int32':
      return Number(BigInt.asIntN(32, n));
    case 'System.Int16':
      return Number(BigInt.asIntN(16, n));
    case 'System.SByte':
      return Number(BigInt.asIntN(8, n));
    case 'System.Byte':
      return Number(BigInt.asUintN(8, n));
    case 'System.UInt16':
      return Number(BigInt.asUintN(16, n));
    case 'System.Char':
      return new Chr(Number(BigInt.asUintN(16, n)));
    case 'System.UInt32':
      return BigInt.asUintN(32, n);
    default:
      return BigInt.asIntN(64, n);
  }
}

/** A double converted to an integral type: truncated, saturating (NaN → 0), as .NET 9 does. */
function doubleToIntegral(x: number, type: string): Value {
  const t = Math.trunc(x);
  const r = INT_RANGES[type];
  if (r) {
    const n = Number.isNaN(t) ? 0 : Math.min(r[1], Math.max(r[0], t));
    return type === 'System.Char' ? new Chr(n) : n;
  }
  const lr = LONG_RANGES[type]!;
  if (Number.isNaN(t)) return 0n;
  if (t <= Number(lr[0])) return lr[0];
  if (t >= Number(lr[1])) return lr[1];
  return BigInt(t);
}

function checkedIntegral(n: bigint, type: string): Value {
  const r = INT_RANGES[type];
  if (r) {
    if (n < BigInt(r[0]) || n > BigInt(r[1]))
      throw new ValueError('OverflowException', `Value was either too large or too small for ${type.slice(7)}`);
    return type === 'System.Char' ? new Chr(Number(n)) : Number(n);
  }
  const lr = LONG_RANGES[type]!;
  if (n < lr[0] || n > lr[1])
    throw new ValueError('OverflowException', `Value was either too large or too small for ${type.slice(7)}`);
  return n;
}

const isIntegralType = (t: string) => t in INT_RANGES || t in LONG_RANGES;

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

// ---------------------------------------------------------------------------------------------
// System.Convert

const INT_TEXT_RE = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT_RE = /^\s*[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const DECIMAL_TEXT_RE = /^\s*[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)\s*$/;

function formatError(): ValueError {
  return new ValueError('FormatException', 'Input string was not in a correct format');
}

/** Int32.Parse / Int64.Parse (NumberStyles.Integer, en-US). */
export function parseIntegral(s: string, type: string): Value {
  if (!INT_TEXT_RE.test(s)) throw formatError();
  const t = s.trim().replace(/^([+-]?)0+(?=\d)/, '$1');
  // More than 25 digits is out of every integral range (and keeps BigInt parsing cheap).
  if (t.length > 25)
    throw new ValueError('OverflowException', `Value was either too large or too small for ${type.slice(7)}`);
  return checkedIntegral(BigInt(t), type);
}

/** Double.Parse (NumberStyles.Float | AllowThousands, en-US). */
export function parseDouble(s: string): number {
  const t = s.trim();
  if (t === 'NaN') return NaN;
  if (t === 'Infinity' || t === '∞' || t === '+Infinity' || t === '+∞') return Infinity;
  if (t === '-Infinity' || t === '-∞') return -Infinity;
  if (!FLOAT_TEXT_RE.test(s)) throw formatError();
  return Number(t.replace(/,/g, ''));
}

/** Decimal.Parse (NumberStyles.Number, en-US). */
export function parseDecimal(s: string): Decimal {
  if (!DECIMAL_TEXT_RE.test(s)) throw formatError();
  const d = Decimal.parse(s.replace(/,/g, ''));
  if (!d) throw formatError();
  return d;
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function monthOf(name: string): number {
  const n = name.toLowerCase().replace(/\.$/, '');
  const i = MONTH_NAMES.findIndex((m) => m === n || (n.length >= 3 && m.startsWith(n)));
  return i + 1;
}

function applyTime(d: Date, h: number, mi: number, s: number, ms: number, ampm: string | undefined): Date {
  let hour = h;
  if (ampm) {
    if (h < 1 || h > 12) throw formatError();
    const pm = ampm.toUpperCase().startsWith('P');
    hour = (h % 12) + (pm ? 12 : 0);
  }
  return makeDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), hour, mi, s, ms);
}

const TIME_PART = String.raw`(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?\s*([AaPp]\.?[Mm]\.?)?`;
const US_DATE_RE = new RegExp(String.raw`^\s*(\d{1,2})/(\d{1,2})/(\d{2,4})(?:\s+${TIME_PART})?\s*$`);
const NAMED_DATE_RE = new RegExp(
  String.raw`^\s*(?:[A-Za-z]+,\s*)?([A-Za-z]+\.?)\s+(\d{1,2}),?\s+(\d{4})(?:\s+${TIME_PART})?\s*$`,
);
const DAY_FIRST_RE = new RegExp(
  String.raw`^\s*(?:[A-Za-z]+,\s*)?(\d{1,2})\s+([A-Za-z]+\.?)\s+(\d{4})(?:\s+${TIME_PART})?\s*$`,
);
const TIME_ONLY_RE = new RegExp(String.raw`^\s*${TIME_PART}\s*$`);

/** DateTime.Parse for en-US text: ISO 8601, "7/4/1996 [1:30[:00] PM]", "July 4, 1996",
 *  "4 July 1996", or a time alone (today's date). */
export function parseDateTime(ctx: Ctx, s: string): Date {
  const iso = parseIsoDate(s);
  if (iso) return iso;
  const frac = (f: string | undefined) => (f ? Number(f.slice(0, 3).padEnd(3, '0')) : 0);
  try {
    let m = US_DATE_RE.exec(s);
    if (m) {
      let y = Number(m[3]);
      if (m[3]!.length <= 2) y += y < 50 ? 2000 : 1900;
      const d = makeDate(y, Number(m[1]), Number(m[2]));
      return m[4] ? applyTime(d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), frac(m[7]), m[8]) : d;
    }
    m = NAMED_DATE_RE.exec(s);
    if (m && monthOf(m[1]!) > 0) {
      const d = makeDate(Number(m[3]), monthOf(m[1]!), Number(m[2]));
      return m[4] ? applyTime(d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), frac(m[7]), m[8]) : d;
    }
    m = DAY_FIRST_RE.exec(s);
    if (m && monthOf(m[2]!) > 0) {
      const d = makeDate(Number(m[3]), monthOf(m[2]!), Number(m[1]));
      return m[4] ? applyTime(d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), frac(m[7]), m[8]) : d;
    }
    m = TIME_ONLY_RE.exec(s);
    if (m) return applyTime(now(ctx), Number(m[1]), Number(m[2]), Number(m[3] ?? 0), frac(m[4]), m[5]);
  } catch (e) {
    if (e instanceof ValueError)
      throw new ValueError(
        'FormatException',
        `String '${s.length > 40 ? `${s.slice(0, 40)}…` : s}' was not recognized as a valid DateTime`,
      );
    throw e;
  }
  throw new ValueError(
    'FormatException',
    `String '${s.length > 40 ? `${s.slice(0, 40)}…` : s}' was not recognized as a valid DateTime`,
  );
}

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
