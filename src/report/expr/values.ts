// Runtime values of the expression engine and their .NET semantics.
//
// PUBLIC values (what `evaluate` returns, what a Scope may hand in, what a Formatter receives):
//   null                 null / DBNull
//   string               System.String (and System.Char, as a one-character string)
//   boolean              System.Boolean
//   number               System.Int32 / Int16 / Byte / SByte / UInt16 / Double / Single
//   bigint               System.Int64 / UInt32 / UInt64
//   Decimal              System.Decimal (exact: scaled bigint, 28 digits after the point at most)
//   Date                 System.DateTime: a Date whose *UTC fields* are the wall-clock fields
//                        (Year = getUTCFullYear(), Hour = getUTCHours()…); no time zone
//   TimeSpan             System.TimeSpan
//   Uint8Array           System.Byte[]
//   readonly unknown[]   arrays (String.Split results, JSON arrays)
//   plain object         JSON objects handed in by the scope (opaque to expressions)
// `evaluateTyped` also says the .NET type name of a result (`System.Int32`, `System.Double`…),
// so `3` from `1 + 2` and `3` from `1.5 * 2` can be told apart where it matters (formatting).
//
// INTERNAL values (inside one evaluation) carry the exact .NET kind:
//   number = Int32 (always an integer in range), bigint = Int64, Dbl = Double, Flt = Single,
//   Chr = Char, EnumVal = an enum member (DayOfWeek…), NullOf = a null read from data (knows the
//   column type, so ConvertNulls can turn it into 0 / "" / false where arithmetic or display
//   needs it, while `== null` still sees null), ArrayVal, Opaque (a JSON object).

import { TemplateError } from '../errors.js';

/** An arithmetic or conversion failure (.NET's OverflowException, DivideByZeroException,
 *  FormatException, InvalidCastException…). It is a TemplateError, so whoever evaluates an
 *  expression only ever sees TemplateErrors; the evaluator adds the expression and the object. */
export class ValueError extends TemplateError {
  /** The .NET exception this stands for, e.g. "OverflowException". */
  readonly netError: string;
  constructor(netError: string, message: string) {
    super(message);
    this.name = 'ValueError';
    this.netError = netError;
  }
}

const overflow = (what: string) => new ValueError('OverflowException', `${what} is too large or too small`);

// ---------------------------------------------------------------------------------------------
// Decimal

const MAX_SCALE = 28;
/** Largest coefficient of a System.Decimal: 2^96 − 1 = 79228162514264337593543950335. */
export const DECIMAL_MAX_COEF = (1n << 96n) - 1n;

const POW10: bigint[] = [1n];
/** 10^n as a bigint (n ≥ 0). */
export function pow10(n: number): bigint {
  if (n < POW10.length) return POW10[n]!;
  if (n > 400) throw overflow('Value');
  for (let i = POW10.length; i <= n; i++) POW10.push(POW10[i - 1]! * 10n);
  return POW10[n]!;
}

export type RoundingMode = 'even' | 'away' | 'trunc' | 'floor' | 'ceiling';

/** n / d rounded by `mode` (d > 0). */
export function roundDiv(n: bigint, d: bigint, mode: RoundingMode): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const sign = n < 0n ? -1n : 1n;
  switch (mode) {
    case 'trunc':
      return q;
    case 'floor':
      return sign < 0n ? q - 1n : q;
    case 'ceiling':
      return sign > 0n ? q + 1n : q;
    default: {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice > d) return q + sign;
      if (twice < d) return q;
      if (mode === 'away') return q + sign;
      return q % 2n === 0n ? q : q + sign;
    }
  }
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const digitCount = (n: bigint) => (n === 0n ? 1 : abs(n).toString().length);

const DECIMAL_TEXT_RE = /^\s*([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/**
 * System.Decimal: `coef × 10^−scale`, |coef| ≤ 2^96 − 1, 0 ≤ scale ≤ 28. Immutable. Trailing
 * zeros are kept as .NET keeps them (`1.50m` prints "1.50", `0.4m * 1.05m` is 0.420). Results
 * that do not fit are rounded half-to-even (C#'s rule); a result too large is an
 * OverflowException, a zero divisor a DivideByZeroException.
 */
export class Decimal {
  readonly coef: bigint;
  readonly scale: number;

  private constructor(coef: bigint, scale: number) {
    this.coef = coef;
    this.scale = scale;
  }

  static readonly Zero = new Decimal(0n, 0);
  static readonly One = new Decimal(1n, 0);
  static readonly MinusOne = new Decimal(-1n, 0);
  static readonly MaxValue = new Decimal(DECIMAL_MAX_COEF, 0);
  static readonly MinValue = new Decimal(-DECIMAL_MAX_COEF, 0);

  /** coef × 10^−scale, rounded half-to-even to fit (scale ≤ 28, 96-bit coefficient). */
  static of(coef: bigint, scale: number): Decimal {
    if (scale < 0) {
      if (coef !== 0n && digitCount(coef) - scale > 29) throw overflow('Value was either too large or too small for a Decimal; it');
      return Decimal.of(coef * pow10(-scale), 0);
    }
    if (scale <= MAX_SCALE && abs(coef) <= DECIMAL_MAX_COEF) return new Decimal(coef, scale);
    // Drop just enough digits: first to bring the scale to 28, then the coefficient into 96 bits.
    let drop = Math.max(0, scale - MAX_SCALE, digitCount(coef) - 29);
    if (drop > scale) drop = scale;
    for (;;) {
      if (drop > digitCount(coef) + 1) return new Decimal(0n, scale - drop);
      const c = roundDiv(coef, pow10(drop), 'even');
      if (abs(c) <= DECIMAL_MAX_COEF) return new Decimal(c, scale - drop);
      if (drop >= scale) throw overflow('Value was either too large or too small for a Decimal; it');
      drop++;
    }
  }

  static fromInteger(n: number | bigint): Decimal {
    if (typeof n === 'number') {
      if (!Number.isInteger(n)) throw new ValueError('ArgumentException', `${n} is not an integer`);
      n = BigInt(n);
    }
    if (abs(n) > DECIMAL_MAX_COEF) throw overflow('Value was either too large or too small for a Decimal; it');
    return new Decimal(n, 0);
  }

  /** Parses invariant text: `[+-]digits[.digits][e±n]`. Undefined when it is not a number. */
  static parse(text: string): Decimal | undefined {
    if (text.length > 1000) return undefined;
    const m = DECIMAL_TEXT_RE.exec(text);
    if (!m) return undefined;
    const int = m[2] ?? '';
    const frac = m[3] ?? '';
    if (int === '' && frac === '') return undefined;
    let coef = BigInt((int + frac).replace(/^0+(?=\d)/, '') || '0');
    if (m[1] === '-') coef = -coef;
    let scale = frac.length;
    if (m[4] !== undefined) {
      const e = Number(m[4]);
      if (!Number.isFinite(e) || Math.abs(e) > 400) {
        if (coef === 0n || e < 0) return Decimal.Zero;
        throw overflow('Value was either too large or too small for a Decimal; it');
      }
      scale -= e;
    }
    if (scale > MAX_SCALE + 60) return new Decimal(0n, MAX_SCALE);
    return Decimal.of(coef, scale);
  }

  /** A JS number taken at face value: the shortest text that reads back as it ("0.1" → 0.1m).
   *  This is how numbers from data (JSON, SQL) become decimals. */
  static fromNumber(n: number): Decimal {
    if (!Number.isFinite(n)) throw overflow(`${n}`);
    if (Number.isInteger(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER) return new Decimal(BigInt(n), 0);
    const d = Decimal.parse(String(n));
    if (!d) throw overflow(`${n}`);
    return d;
  }

  /** .NET's (decimal)double / Convert.ToDecimal(double): rounded to 15 significant digits,
   *  trailing zeros dropped. NaN, infinities and |x| ≥ 2^96 are an OverflowException. */
  static fromDouble(n: number, significant = 15): Decimal {
    if (!Number.isFinite(n) || Math.abs(n) >= 7.9228162514264338e28) throw overflow('Value was either too large or too small for a Decimal; it');
    if (n === 0) return Decimal.Zero;
    const d = Decimal.parse(n.toPrecision(significant))!;
    return d.stripTrailingZeros();
  }

  /** .NET's (decimal)float: 7 significant digits. */
  static fromSingle(n: number): Decimal {
    return Decimal.fromDouble(n, 7);
  }

  get sign(): number {
    return this.coef === 0n ? 0 : this.coef < 0n ? -1 : 1;
  }

  isZero(): boolean {
    return this.coef === 0n;
  }

  isInteger(): boolean {
    return this.scale === 0 || this.coef % pow10(this.scale) === 0n;
  }

  neg(): Decimal {
    return new Decimal(-this.coef, this.scale);
  }

  abs(): Decimal {
    return this.coef < 0n ? this.neg() : this;
  }

  private static align(a: Decimal, b: Decimal): [bigint, bigint, number] {
    if (a.scale === b.scale) return [a.coef, b.coef, a.scale];
    if (a.scale > b.scale) return [a.coef, b.coef * pow10(a.scale - b.scale), a.scale];
    return [a.coef * pow10(b.scale - a.scale), b.coef, b.scale];
  }

  add(b: Decimal): Decimal {
    const [x, y, s] = Decimal.align(this, b);
    return Decimal.of(x + y, s);
  }

  sub(b: Decimal): Decimal {
    const [x, y, s] = Decimal.align(this, b);
    return Decimal.of(x - y, s);
  }

  mul(b: Decimal): Decimal {
    return Decimal.of(this.coef * b.coef, this.scale + b.scale);
  }

  /** Division as .NET does it: the exact quotient at the smallest scale ≥ max(0, s1 − s2) that
   *  holds it; otherwise as many digits as fit (scale ≤ 28, 96-bit coefficient), rounded
   *  half-to-even, trailing zeros dropped. */
  div(b: Decimal): Decimal {
    if (b.coef === 0n) throw new ValueError('DivideByZeroException', 'Attempted to divide by zero');
    if (this.coef === 0n) return new Decimal(0n, Math.max(0, this.scale - b.scale));
    // value = num / den exactly
    let num = this.coef * pow10(b.scale);
    let den = b.coef * pow10(this.scale);
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    const preferred = Math.max(0, this.scale - b.scale);
    for (let s = preferred; s <= MAX_SCALE; s++) {
      const n = num * pow10(s);
      if (n % den === 0n) {
        const q = n / den;
        if (abs(q) <= DECIMAL_MAX_COEF) return new Decimal(q, s);
        break;
      }
    }
    for (let s = MAX_SCALE; s >= 0; s--) {
      const q = roundDiv(num * pow10(s), den, 'even');
      if (abs(q) <= DECIMAL_MAX_COEF) {
        let c = q;
        let sc = s;
        while (sc > preferred && c % 10n === 0n) {
          c /= 10n;
          sc--;
        }
        return new Decimal(c, sc);
      }
    }
    throw overflow('Value was either too large or too small for a Decimal; it');
  }

  /** C#'s % on decimals: the sign of the dividend, scale max(s1, s2). */
  mod(b: Decimal): Decimal {
    if (b.coef === 0n) throw new ValueError('DivideByZeroException', 'Attempted to divide by zero');
    const [x, y, s] = Decimal.align(this, b);
    return Decimal.of(x % y, s);
  }

  cmp(b: Decimal): number {
    const [x, y] = Decimal.align(this, b);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  equals(b: Decimal): boolean {
    return this.cmp(b) === 0;
  }

  /** Math.Round(d, digits, mode): default half-to-even like .NET. */
  round(digits = 0, mode: RoundingMode = 'even'): Decimal {
    if (digits < 0 || digits > MAX_SCALE) throw new ValueError('ArgumentOutOfRangeException', 'Rounding digits must be between 0 and 28');
    if (this.scale <= digits) return this;
    return new Decimal(roundDiv(this.coef, pow10(this.scale - digits), mode), digits);
  }

  truncate(): Decimal {
    return this.round(0, 'trunc');
  }

  floor(): Decimal {
    return this.round(0, 'floor');
  }

  ceiling(): Decimal {
    return this.round(0, 'ceiling');
  }

  stripTrailingZeros(): Decimal {
    let c = this.coef;
    let s = this.scale;
    while (s > 0 && c % 10n === 0n) {
      c /= 10n;
      s--;
    }
    return s === this.scale ? this : new Decimal(c, s);
  }

  /** The integral part as a bigint (truncated toward zero). */
  toBigInt(): bigint {
    return this.scale === 0 ? this.coef : this.coef / pow10(this.scale);
  }

  toNumber(): number {
    return Number(this.toString());
  }

  /** Invariant text with every digit of the scale: "-12.50", "0.005". */
  toString(): string {
    const neg = this.coef < 0n;
    let digits = abs(this.coef).toString();
    if (this.scale > 0) {
      if (digits.length <= this.scale) digits = '0'.repeat(this.scale - digits.length + 1) + digits;
      digits = `${digits.slice(0, digits.length - this.scale)}.${digits.slice(digits.length - this.scale)}`;
    }
    return neg && this.coef !== 0n ? `-${digits}` : digits;
  }
}

// ---------------------------------------------------------------------------------------------
// TimeSpan

const MS_PER_DAY = 86_400_000;

/** System.TimeSpan with millisecond (fractional allowed) precision. */
export class TimeSpan {
  /** Total length in milliseconds (negative for negative spans). */
  readonly ms: number;

  constructor(ms: number) {
    if (!Number.isFinite(ms) || Math.abs(ms) > 922_337_203_685_477) throw new ValueError('OverflowException', 'TimeSpan overflowed because the duration is too long');
    this.ms = ms === 0 ? 0 : ms;
  }

  static readonly Zero = new TimeSpan(0);

  get days(): number {
    return Math.trunc(this.ms / MS_PER_DAY);
  }
  get hours(): number {
    return Math.trunc(this.ms / 3_600_000) % 24;
  }
  get minutes(): number {
    return Math.trunc(this.ms / 60_000) % 60;
  }
  get seconds(): number {
    return Math.trunc(this.ms / 1000) % 60;
  }
  get milliseconds(): number {
    return Math.trunc(this.ms) % 1000;
  }
  get ticks(): bigint {
    return BigInt(Math.round(this.ms * 10_000));
  }

  /** The "c" format: [-][d.]hh:mm:ss[.fffffff]. */
  toString(): string {
    const neg = this.ms < 0;
    const t = Math.abs(this.ms);
    const d = Math.trunc(t / MS_PER_DAY);
    const h = Math.trunc(t / 3_600_000) % 24;
    const m = Math.trunc(t / 60_000) % 60;
    const s = Math.trunc(t / 1000) % 60;
    const ticks = Math.round((t % 1000) * 10_000);
    const p2 = (n: number) => String(n).padStart(2, '0');
    let out = `${neg ? '-' : ''}${d ? `${d}.` : ''}${p2(h)}:${p2(m)}:${p2(s)}`;
    if (ticks) out += `.${String(ticks).padStart(7, '0')}`;
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// DateTime helpers (a Date whose UTC fields are the wall clock)

/** DateTime.MinValue: 0001-01-01 00:00:00. */
export const DATETIME_MIN_MS = Date.UTC(2000, 0, 1) - 730_119 * MS_PER_DAY;
/** DateTime.MaxValue: 9999-12-31 23:59:59.999. */
export const DATETIME_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A DateTime from a millisecond count, range-checked like .NET (years 1…9999). */
export function dateFromMs(ms: number): Date {
  if (!Number.isFinite(ms) || ms < DATETIME_MIN_MS || ms > DATETIME_MAX_MS) {
    throw new ValueError('ArgumentOutOfRangeException', 'The added or subtracted value results in an un-representable DateTime');
  }
  return new Date(ms);
}

/** new DateTime(y, m, d, h, mi, s, ms) with .NET's argument checks. */
export function makeDate(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date {
  const bad =
    !Number.isInteger(y) || y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) ||
    h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 || ms < 0 || ms > 999;
  if (bad) throw new ValueError('ArgumentOutOfRangeException', 'Year, Month, and Day parameters describe an un-representable DateTime');
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  date.setUTCFullYear(y);
  return date;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m < 1 || m > 12 || y < 1 || y > 9999) throw new ValueError('ArgumentOutOfRangeException', 'Month must be between one and twelve');
  return [31, isLeapYear(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

/** The wall clock of "now" as a DateTime (the local fields of the machine's clock). */
export function localNow(): Date {
  const n = new Date();
  return new Date(Date.UTC(n.getFullYear(), n.getMonth(), n.getDate(), n.getHours(), n.getMinutes(), n.getSeconds(), n.getMilliseconds()));
}

// ---------------------------------------------------------------------------------------------
// Internal boxes

/** System.Double (internal: a plain number is an Int32). */
export class Dbl {
  constructor(readonly v: number) {}
}
/** System.Single: always a float32 value. */
export class Flt {
  readonly v: number;
  constructor(v: number) {
    this.v = Math.fround(v);
  }
}
/** System.Char: a UTF-16 code unit. */
export class Chr {
  constructor(readonly code: number) {}
  toString(): string {
    return String.fromCharCode(this.code);
  }
}
/** A member of a .NET enum (DayOfWeek, MidpointRounding). */
export class EnumVal {
  constructor(
    readonly type: string,
    readonly name: string,
    readonly value: number,
  ) {}
}
/** A null read from data: remembers the column's declared type (canonical name or undefined). */
export class NullOf {
  private constructor(readonly type: string | undefined) {}
  private static readonly cache = new Map<string, NullOf>();
  static readonly Untyped = new NullOf(undefined);
  static of(type: string | undefined): NullOf {
    if (type === undefined) return NullOf.Untyped;
    let n = NullOf.cache.get(type);
    if (!n) {
      n = new NullOf(type);
      if (NullOf.cache.size < 256) NullOf.cache.set(type, n);
    }
    return n;
  }
}
/** An array: String.Split results (`items`) or a JSON array from data (`raw`, read lazily). */
export class ArrayVal {
  private constructor(
    private readonly items: readonly Value[] | undefined,
    private readonly raw: readonly unknown[] | undefined,
    readonly elementType: string,
  ) {}
  static of(items: readonly Value[], elementType = 'System.Object'): ArrayVal {
    return new ArrayVal(items, undefined, elementType);
  }
  static fromRaw(raw: readonly unknown[]): ArrayVal {
    return new ArrayVal(undefined, raw, 'System.Object');
  }
  get length(): number {
    return this.items ? this.items.length : this.raw!.length;
  }
  get(i: number): Value {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) throw new ValueError('IndexOutOfRangeException', 'Index was outside the bounds of the array');
    return this.items ? this.items[i]! : inferValue(this.raw![i]);
  }
  toPublic(): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < this.length; i++) out.push(toPublic(this.get(i)));
    return out;
  }
}
/** A value expressions may hold and print but not look into (a JSON object). */
export class Opaque {
  constructor(readonly raw: object) {}
}

export type Value =
  | null
  | string
  | boolean
  | number
  | bigint
  | Dbl
  | Flt
  | Decimal
  | Chr
  | Date
  | TimeSpan
  | Uint8Array
  | ArrayVal
  | EnumVal
  | NullOf
  | Opaque;

// ---------------------------------------------------------------------------------------------
// Types

/** Canonical .NET type names, by every spelling a template or a scope may use. */
const TYPE_ALIASES: ReadonlyMap<string, string> = new Map([
  ...['Int32', 'int'].map((n) => [n, 'System.Int32'] as const),
  ...['Int16', 'short'].map((n) => [n, 'System.Int16'] as const),
  ...['Int64', 'long'].map((n) => [n, 'System.Int64'] as const),
  ...['UInt16', 'ushort'].map((n) => [n, 'System.UInt16'] as const),
  ...['UInt32', 'uint'].map((n) => [n, 'System.UInt32'] as const),
  ...['UInt64', 'ulong'].map((n) => [n, 'System.UInt64'] as const),
  ...['Byte', 'byte'].map((n) => [n, 'System.Byte'] as const),
  ...['SByte', 'sbyte'].map((n) => [n, 'System.SByte'] as const),
  ...['Single', 'float'].map((n) => [n, 'System.Single'] as const),
  ...['Double', 'double'].map((n) => [n, 'System.Double'] as const),
  ...['Decimal', 'decimal'].map((n) => [n, 'System.Decimal'] as const),
  ...['String', 'string'].map((n) => [n, 'System.String'] as const),
  ...['Boolean', 'bool'].map((n) => [n, 'System.Boolean'] as const),
  ...['Char', 'char'].map((n) => [n, 'System.Char'] as const),
  ...['Object', 'object'].map((n) => [n, 'System.Object'] as const),
  ['DateTime', 'System.DateTime'],
  ['TimeSpan', 'System.TimeSpan'],
  ['Guid', 'System.Guid'],
  ['Byte[]', 'System.Byte[]'],
  ['byte[]', 'System.Byte[]'],
]);

const canonicalTypes = new Map<string, string>();

/** 'System.Int32', 'Int32', 'int', 'System.Nullable`1[System.Int32]', 'int?' → 'System.Int32'.
 *  Other names are returned as they are; undefined stays undefined. */
export function canonicalType(type: string | undefined): string | undefined {
  if (type === undefined || type === '') return undefined;
  // Every value read from data passes here with its column's type: remember the few names seen.
  let c = canonicalTypes.get(type);
  if (c === undefined) {
    c = canonicalTypeOf(type);
    if (canonicalTypes.size >= 1024) canonicalTypes.clear();
    canonicalTypes.set(type, c);
  }
  return c;
}

function canonicalTypeOf(type: string): string {
  let t = type.trim();
  const nullable = /^System\.Nullable`1\[\[?([^,\]]+)/.exec(t);
  if (nullable) t = nullable[1]!;
  if (t.endsWith('?')) t = t.slice(0, -1);
  const alias = TYPE_ALIASES.get(t.startsWith('System.') ? t.slice(7) : t);
  return alias ?? t;
}

const INT_TYPES = new Set(['System.Int32', 'System.Int16', 'System.Byte', 'System.SByte', 'System.UInt16']);
const LONG_TYPES = new Set(['System.Int64', 'System.UInt32', 'System.UInt64']);

/** The value ConvertNulls gives a null of this type (FastReport's Converter.ConvertNull):
 *  "" for strings, ' ' for chars, false, 0 of the numeric type, DateTime.MinValue,
 *  TimeSpan.Zero, the empty Guid; null for everything else. */
export function defaultOf(type: string | undefined): Value {
  if (type === undefined) return null;
  if (INT_TYPES.has(type)) return 0;
  if (LONG_TYPES.has(type)) return 0n;
  switch (type) {
    case 'System.String':
      return '';
    case 'System.Char':
      return new Chr(32);
    case 'System.Boolean':
      return false;
    case 'System.Double':
      return new Dbl(0);
    case 'System.Single':
      return new Flt(0);
    case 'System.Decimal':
      return Decimal.Zero;
    case 'System.DateTime':
      return new Date(DATETIME_MIN_MS);
    case 'System.TimeSpan':
      return TimeSpan.Zero;
    case 'System.Guid':
      return '00000000-0000-0000-0000-000000000000';
  }
  return null;
}

/** The .NET type name of an internal value. */
export function typeNameOf(v: Value): string {
  if (v === null) return 'System.Object';
  switch (typeof v) {
    case 'string':
      return 'System.String';
    case 'boolean':
      return 'System.Boolean';
    case 'number':
      return 'System.Int32';
    case 'bigint':
      return 'System.Int64';
  }
  if (v instanceof Dbl) return 'System.Double';
  if (v instanceof Flt) return 'System.Single';
  if (v instanceof Decimal) return 'System.Decimal';
  if (v instanceof Chr) return 'System.Char';
  if (v instanceof Date) return 'System.DateTime';
  if (v instanceof TimeSpan) return 'System.TimeSpan';
  if (v instanceof Uint8Array) return 'System.Byte[]';
  if (v instanceof ArrayVal) return `${v.elementType}[]`;
  if (v instanceof EnumVal) return v.type;
  if (v instanceof NullOf) return v.type ?? 'System.Object';
  return 'System.Object';
}

/** A short name for messages: "int", "string", "DateTime"… */
export function kindName(v: Value): string {
  if (v === null || v instanceof NullOf) return 'null';
  const t = typeNameOf(v);
  const short: Record<string, string> = {
    'System.Int32': 'int',
    'System.Int64': 'long',
    'System.Double': 'double',
    'System.Single': 'float',
    'System.Decimal': 'decimal',
    'System.String': 'string',
    'System.Boolean': 'bool',
    'System.Char': 'char',
    'System.Object': 'object',
  };
  return short[t] ?? t.replace(/^System\./, '');
}

/** Internal → public (see the top of this file). A NullOf becomes null: apply ConvertNulls first. */
export function toPublic(v: Value): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Dbl || v instanceof Flt) return v.v;
  if (v instanceof Chr) return v.toString();
  if (v instanceof EnumVal) return v.name;
  if (v instanceof NullOf) return null;
  if (v instanceof ArrayVal) return v.toPublic();
  if (v instanceof Opaque) return v.raw;
  return v;
}

// ---------------------------------------------------------------------------------------------
// Scope values → internal values

/** What a scope hands in for a name (see Scope in types.ts). */
export interface ResolvedInput {
  value: unknown;
  type?: string | undefined;
  decimalText?: string | undefined;
  offsetMinutes?: number | null | undefined;
}

const isPlainObject = (v: object) => {
  const p: unknown = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
};

/** A JS value without a declared type, taken at face value: integral numbers in the Int32 range
 *  are Int32, other numbers Double; bigint Int64; one of our own boxes passes as it is. */
export function inferValue(v: unknown): Value {
  if (v === undefined || v === null) return NullOf.Untyped;
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return v;
    case 'number':
      return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 && !Object.is(v, -0) ? v : new Dbl(v);
    case 'object':
      if (v instanceof Decimal || v instanceof TimeSpan || v instanceof Dbl || v instanceof Flt || v instanceof Chr || v instanceof EnumVal || v instanceof NullOf || v instanceof ArrayVal || v instanceof Opaque) return v;
      if (v instanceof Date) {
        if (Number.isNaN(v.getTime())) throw new ValueError('FormatException', 'invalid Date');
        return v;
      }
      if (v instanceof Uint8Array) return v;
      if (v instanceof ArrayBuffer) return new Uint8Array(v);
      if (Array.isArray(v)) return ArrayVal.fromRaw(v);
      if (isPlainObject(v)) return new Opaque(v);
      return new Opaque(v);
  }
  throw new ValueError('InvalidCastException', `a ${typeof v} is not a value expressions can use`);
}

function bad(v: unknown, type: string): ValueError {
  const shown = typeof v === 'string' ? `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"` : typeof v;
  return new ValueError('InvalidCastException', `${shown} is not a valid ${type}`);
}

/** A scope's value (JS value + declared .NET type) → internal value of that type. */
export function fromResolved(r: ResolvedInput): Value {
  const type = canonicalType(r.type);
  let v = r.value;
  if (v === undefined || v === null) return NullOf.of(type);
  if (v instanceof Date && r.offsetMinutes !== undefined && r.offsetMinutes !== null) v = new Date(v.getTime() + r.offsetMinutes * 60_000);
  if (type === undefined || type === 'System.Object') return inferValue(v);
  if (INT_TYPES.has(type)) {
    const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? (v ? 1 : 0) : v instanceof Decimal ? v.toNumber() : typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw bad(v, type);
    return n;
  }
  if (LONG_TYPES.has(type)) {
    try {
      if (typeof v === 'bigint') return BigInt.asIntN(64, v);
      if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
      if (typeof v === 'string' && v.length <= 40 && /^\s*[+-]?\d+\s*$/.test(v)) return BigInt.asIntN(64, BigInt(v.trim()));
      if (v instanceof Decimal) return v.toBigInt();
    } catch {
      /* fall through */
    }
    throw bad(v, type);
  }
  switch (type) {
    case 'System.Double':
    case 'System.Single': {
      const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof Decimal ? v.toNumber() : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (Number.isNaN(n) && !(typeof v === 'number' || (typeof v === 'string' && v.trim() === 'NaN'))) throw bad(v, type);
      return type === 'System.Double' ? new Dbl(n) : new Flt(n);
    }
    case 'System.Decimal': {
      if (r.decimalText !== undefined) {
        const d = Decimal.parse(r.decimalText);
        if (d) return d;
      }
      if (v instanceof Decimal) return v;
      if (typeof v === 'number') return Decimal.fromNumber(v);
      if (typeof v === 'bigint') return Decimal.fromInteger(v);
      if (typeof v === 'string') {
        const d = Decimal.parse(v);
        if (d) return d;
      }
      throw bad(v, type);
    }
    case 'System.String':
      if (typeof v === 'string') return v;
      if (typeof v === 'boolean') return v ? 'True' : 'False';
      if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : doubleToString(v);
      if (typeof v === 'bigint' || v instanceof Decimal) return v.toString();
      return inferValue(v); // shown as text by whoever prints it
    case 'System.Boolean':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      if (typeof v === 'string' && /^\s*(true|false)\s*$/i.test(v)) return v.trim().toLowerCase() === 'true';
      throw bad(v, type);
    case 'System.DateTime':
      if (v instanceof Date) {
        if (Number.isNaN(v.getTime())) throw bad(v, type);
        return v;
      }
      if (typeof v === 'string') {
        const d = parseIsoDate(v);
        if (d) return d;
      }
      throw bad(v, type);
    case 'System.TimeSpan':
      if (v instanceof TimeSpan) return v;
      if (typeof v === 'string') {
        const t = parseTimeSpan(v);
        if (t) return t;
      }
      throw bad(v, type);
    case 'System.Char':
      if (typeof v === 'string' && v.length > 0) return new Chr(v.charCodeAt(0));
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff) return new Chr(v);
      throw bad(v, type);
    case 'System.Byte[]':
      if (v instanceof Uint8Array) return v;
      if (v instanceof ArrayBuffer) return new Uint8Array(v);
      throw bad(v, type);
  }
  return inferValue(v);
}

const ISO_DATE_RE = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/;

/** ISO 8601 date / date-time text → DateTime (the written wall clock; an offset is ignored). */
export function parseIsoDate(text: string): Date | undefined {
  const m = ISO_DATE_RE.exec(text);
  if (!m) return undefined;
  try {
    return makeDate(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0);
  } catch {
    return undefined;
  }
}

/** "[-][d.]hh:mm[:ss[.fffffff]]" → TimeSpan. */
export function parseTimeSpan(text: string): TimeSpan | undefined {
  const m = /^\s*(-)?(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?\s*$/.exec(text);
  if (!m) {
    const days = /^\s*(-)?(\d+)\s*$/.exec(text);
    return days ? new TimeSpan((days[1] ? -1 : 1) * Number(days[2]) * MS_PER_DAY) : undefined;
  }
  const h = Number(m[3]), mi = Number(m[4]), s = Number(m[5] ?? 0);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const frac = m[6] ? Number(m[6].padEnd(7, '0')) / 10_000 : 0;
  const ms = Number(m[2] ?? 0) * MS_PER_DAY + h * 3_600_000 + mi * 60_000 + s * 1000 + frac;
  return new TimeSpan(m[1] ? -ms : ms);
}

// ---------------------------------------------------------------------------------------------
// Default text of numbers (.NET Core 3.0+ ToString(): shortest round-trip digits)

function shortestToString(n: number, sciFrom: number, digitsFor: (n: number) => string): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '∞';
  if (n === -Infinity) return '-∞';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const exp = digitsFor(n); // like "-1.2345e+17"
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(exp)!;
  const sign = m[1]!;
  const digits = m[2]! + (m[3] ?? '');
  const e = Number(m[4]);
  if (e >= sciFrom || e < -4) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const ae = Math.abs(e);
    return `${sign}${mant}E${e < 0 ? '-' : '+'}${ae < 10 ? `0${ae}` : ae}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return sign + digits + '0'.repeat(e + 1 - digits.length);
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/** double.ToString() (invariant digits): 0.1 → "0.1", 1e15 → "1E+15", 1e-5 → "1E-05". */
export function doubleToString(n: number): string {
  return shortestToString(n, 15, (x) => x.toExponential());
}

/** float.ToString(): the shortest digits that read back as the same float32. */
export function singleToString(n: number): string {
  return shortestToString(Math.fround(n), 7, (x) => {
    for (let p = 1; p <= 9; p++) {
      const s = x.toExponential(p - 1);
      if (Math.fround(Number(s)) === x) return s;
    }
    return x.toExponential(8);
  });
}
