// Exact decimal digits of the numeric values the engine formats, and the two rounding rules .NET
// applies to them.
//
// A value is held as sign + digit string + scale: value = ±0.d1d2d3… × 10^scale, the form .NET's
// number buffer uses. "123.45" is ("12345", 3); "0.05" is ("5", -1); zero is ("", 0).
//
// Three kinds, because .NET formats them differently:
//   integer — Int32/Int64 (and BigInteger): exact digits; rounding (E, G5, custom formats) is
//             half away from zero.
//   decimal — System.Decimal: exact digits including trailing zeros ("12.3400" keeps them for
//             "G"); rounding half away from zero; never prints "-0".
//   double  — System.Double: standard formats round the exact binary value correctly, ties to
//             even (.NET Core 3.0+: 0.125 "F2" → "0.12", 2.5 "F0" → "2", 1.005 "F2" → "1.00");
//             custom formats first take 15 significant digits (correctly rounded) and then round
//             half away from zero at the format's position (so 1.005 "0.00" → "1.01", as in every
//             .NET version); "-0" keeps its sign.

import { FormatError } from './errors.js';

export type NumberKind = 'integer' | 'decimal' | 'double';

/** ±0.digits × 10^scale. Mutable: the rounding helpers change it in place. */
export interface NumberBuffer {
  kind: NumberKind;
  negative: boolean;
  digits: string;
  scale: number;
}

/**
 * A decimal value coming from elsewhere (the expression engine's Decimal): anything whose
 * `toFixedString()` — or, failing that, `toString()` — gives an exact decimal string such as
 * "12.3400", "-0.5" or "1E+3". Trailing zeros are significant (they are .NET's decimal scale).
 */
export interface DecimalLike {
  toFixedString?(): string;
  toString(): string;
}

export type Classified =
  | { readonly kind: 'nan' }
  | { readonly kind: 'infinity'; readonly negative: boolean }
  | {
      readonly kind: 'integer';
      readonly negative: boolean;
      readonly abs: bigint;
      /** Width of the .NET type for "X"/"B" of negative values (8, 16, 32, 64); undefined = by magnitude. */
      readonly bits?: 8 | 16 | 32 | 64 | undefined;
    }
  | { readonly kind: 'decimal'; readonly negative: boolean; readonly digits: string; readonly scale: number }
  | { readonly kind: 'double'; readonly value: number }
  /** System.Single: a float32 value held in a number (7 digits for custom formats, 9 to round-trip). */
  | { readonly kind: 'single'; readonly value: number };

/** The .NET numeric types a caller may name (see normalizeTypeName). */
export type NumericTypeName =
  | 'SByte'
  | 'Byte'
  | 'Int16'
  | 'UInt16'
  | 'Int32'
  | 'UInt32'
  | 'Int64'
  | 'UInt64'
  | 'BigInteger'
  | 'Single'
  | 'Double'
  | 'Decimal';

const TYPE_ALIASES: ReadonlyMap<string, NumericTypeName> = new Map([
  ['sbyte', 'SByte'],
  ['byte', 'Byte'],
  ['int16', 'Int16'],
  ['short', 'Int16'],
  ['uint16', 'UInt16'],
  ['ushort', 'UInt16'],
  ['int32', 'Int32'],
  ['int', 'Int32'],
  ['uint32', 'UInt32'],
  ['uint', 'UInt32'],
  ['int64', 'Int64'],
  ['long', 'Int64'],
  ['uint64', 'UInt64'],
  ['ulong', 'UInt64'],
  ['biginteger', 'BigInteger'],
  ['single', 'Single'],
  ['float', 'Single'],
  ['double', 'Double'],
  ['decimal', 'Decimal'],
]);

// Every formatted number asks (classify); a report has a handful of type names, so they are
// worked out once (bounded: the names come from templates and data).
const normalizedTypes = new Map<string, NumericTypeName | undefined>();

/** "System.Int32", "int", "Int32?", "System.Nullable`1[System.Double]"… → the numeric type, or undefined. */
export function normalizeTypeName(type: string | undefined): NumericTypeName | undefined {
  if (type === undefined) return undefined;
  let n = normalizedTypes.get(type);
  if (n === undefined && !normalizedTypes.has(type)) {
    if (normalizedTypes.size >= 1024) normalizedTypes.clear();
    normalizedTypes.set(type, (n = typeNameOf(type)));
  }
  return n;
}

function typeNameOf(type: string): NumericTypeName | undefined {
  let t = type.trim();
  const nullable = /^System\.Nullable`1\[(.*)\]$/.exec(t);
  if (nullable) t = nullable[1] as string;
  t = t.replace(/\?$/, '').replace(/^System\.(Numerics\.)?/, '');
  return TYPE_ALIASES.get(t.toLowerCase());
}

const INTEGER_BITS: Partial<Record<NumericTypeName, 8 | 16 | 32 | 64>> = {
  SByte: 8,
  Byte: 8,
  Int16: 16,
  UInt16: 16,
  Int32: 32,
  UInt32: 32,
  Int64: 64,
  UInt64: 64,
};

/** .NET decimals stay within 10^±29; a decimal text far outside that is refused, not expanded. */
const MAX_DECIMAL_EXPONENT = 1000;

const DECIMAL_TEXT = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,9}))?\s*$/;

/** The text of a decimal-like object, or undefined when `value` is not one. */
export function decimalText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (value instanceof Date || Array.isArray(value) || ArrayBuffer.isView(value)) return undefined;
  const candidate = value as { toFixedString?: unknown; toString?: unknown };
  let text: unknown;
  if (typeof candidate.toFixedString === 'function') {
    text = (candidate.toFixedString as () => unknown).call(value);
  } else if (typeof candidate.toString === 'function' && candidate.toString !== Object.prototype.toString) {
    text = (candidate.toString as () => unknown).call(value);
  } else {
    return undefined;
  }
  if (typeof text !== 'string') return undefined;
  const m = DECIMAL_TEXT.exec(text);
  if (m === null || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return undefined;
  return text;
}

/** True for the values formatNumber accepts: number, bigint, decimal-like objects. */
export function isNumeric(value: unknown): value is number | bigint | DecimalLike {
  return typeof value === 'number' || typeof value === 'bigint' || decimalText(value) !== undefined;
}

/**
 * Sorts a numeric value into the kinds above. `type` is the value's .NET type when the caller
 * knows it ("System.Double", "System.Int32", "decimal"…): 3 typed Double is a double, 3 typed
 * Int16 an integer that "X" prints with 16 bits. Without a type, a JS number that is a safe
 * integer (and not -0) counts as an integer — JSON and DataSet integers arrive as numbers, and
 * "D"/"X" must work on them; every other number is a double.
 */
export function classify(value: unknown, type?: string): Classified {
  const t = normalizeTypeName(type);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { kind: 'nan' };
    if (!Number.isFinite(value)) return { kind: 'infinity', negative: value < 0 };
    if (t === 'Double') return { kind: 'double', value };
    if (t === 'Single') {
      // A double beyond float's range is ±∞ as a float.
      const single = Math.fround(value);
      if (!Number.isFinite(single)) return { kind: 'infinity', negative: single < 0 };
      return { kind: 'single', value: single };
    }
    if (t === 'Decimal') {
      // A number the caller calls Decimal: its shortest round-trip digits.
      const b = shortestDouble(value);
      return { kind: 'decimal', negative: b.negative && b.digits !== '', digits: b.digits, scale: b.scale };
    }
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
      return {
        kind: 'integer',
        negative: value < 0,
        abs: BigInt(Math.abs(value)),
        bits: t === undefined ? undefined : INTEGER_BITS[t],
      };
    }
    return { kind: 'double', value };
  }
  if (typeof value === 'bigint') {
    if (t === 'Double' || t === 'Single') return classify(Number(value), t);
    return {
      kind: 'integer',
      negative: value < 0n,
      abs: value < 0n ? -value : value,
      bits: t === undefined ? undefined : INTEGER_BITS[t],
    };
  }
  const text = decimalText(value);
  if (text === undefined) {
    throw new FormatError(`cannot format ${describe(value)} as a number`);
  }
  const m = DECIMAL_TEXT.exec(text) as RegExpExecArray;
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? '';
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  let digits = intPart + fracPart;
  let scale = intPart.length + exponent;
  let lead = 0;
  while (lead < digits.length && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  scale -= lead;
  if (digits !== '' && Math.abs(scale) > MAX_DECIMAL_EXPONENT) {
    throw new FormatError(`cannot format the decimal ${text.trim().slice(0, 40)}: its exponent is out of range`);
  }
  if (digits === '') scale = Math.max(scale, -MAX_DECIMAL_EXPONENT);
  return { kind: 'decimal', negative: m[1] === '-', digits, scale };
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return 'a Date';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** The exact digits of an integer or decimal; for doubles see exactDouble / shortestDouble. */
export function exactBuffer(c: Classified): NumberBuffer {
  switch (c.kind) {
    case 'integer': {
      const digits = c.abs === 0n ? '' : c.abs.toString();
      return { kind: 'integer', negative: c.negative && digits !== '', digits, scale: digits.length };
    }
    case 'decimal':
      return { kind: 'decimal', negative: c.negative, digits: c.digits, scale: c.scale };
    case 'double':
    case 'single':
      return exactDouble(c.value);
    default:
      throw new Error('exactBuffer: not a finite number');
  }
}

const FIVE_POWERS: bigint[] = [1n];
function pow5(k: number): bigint {
  for (let i = FIVE_POWERS.length; i <= k; i++) FIVE_POWERS.push((FIVE_POWERS[i - 1] as bigint) * 5n);
  return FIVE_POWERS[k] as bigint;
}

const F64 = new DataView(new ArrayBuffer(8));

/** Every decimal digit of a finite double (a double is m × 2^e, so it has a finite expansion). */
export function exactDouble(x: number): NumberBuffer {
  const negative = x < 0 || Object.is(x, -0);
  if (x === 0) return { kind: 'double', negative, digits: '', scale: 0 };
  F64.setFloat64(0, x);
  const bits = F64.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  let text: string;
  let scale: number;
  if (exponent >= 0) {
    text = (mantissa << BigInt(exponent)).toString();
    scale = text.length;
  } else {
    // m / 2^k = m × 5^k / 10^k
    const k = -exponent;
    text = (mantissa * pow5(k)).toString();
    scale = text.length - k;
  }
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 48) end--;
  return { kind: 'double', negative, digits: text.slice(0, end), scale };
}

/**
 * A finite double rounded to `decimals` places, as exactDouble + roundBuffer(…, 'halfEven') give
 * it, from toFixed (which rounds the exact value too, but a tie away from zero): undefined when
 * the value may be at a tie, is too large for that test, or rounds to zero — the caller then
 * takes the exact path.
 */
export function fixedDouble(x: number, decimals: number): NumberBuffer | undefined {
  if (decimals > 15) return undefined;
  const abs = Math.abs(x);
  // abs × 10^d carries a relative error under 2^-53, so below 1e11 its fraction is within 2e-5
  // of the exact one: a fraction 1e-4 away from .5 is not a tie.
  const scaled = abs * 10 ** decimals;
  if (!(scaled < 1e11) || Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-4) return undefined;
  const text = abs.toFixed(decimals);
  const point = decimals > 0 ? text.length - decimals - 1 : text.length;
  const all = decimals > 0 ? text.slice(0, point) + text.slice(point + 1) : text;
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 48) start++;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 48) end--;
  if (end === start) return undefined;
  return { kind: 'double', negative: x < 0, digits: all.slice(start, end), scale: point - start };
}

/** The shortest digits that read back as the same float32 (System.Single's "R" and "G"). */
export function shortestSingle(x: number): NumberBuffer {
  const negative = x < 0 || Object.is(x, -0);
  if (x === 0) return { kind: 'double', negative, digits: '', scale: 0 };
  const abs = Math.abs(x);
  let text = abs.toExponential(8);
  for (let p = 0; p < 8; p++) {
    const candidate = abs.toExponential(p);
    if (Math.fround(Number(candidate)) === abs) {
      text = candidate;
      break;
    }
  }
  const e = text.indexOf('e');
  const mantissa = text.slice(0, e).replace('.', '');
  let end = mantissa.length;
  while (end > 0 && mantissa.charCodeAt(end - 1) === 48) end--;
  return { kind: 'double', negative, digits: mantissa.slice(0, end), scale: Number(text.slice(e + 1)) + 1 };
}

/** The shortest digits that round-trip (what .NET Core 3.0+ prints for "R" and default "G"). */
export function shortestDouble(x: number): NumberBuffer {
  const negative = x < 0 || Object.is(x, -0);
  if (x === 0) return { kind: 'double', negative, digits: '', scale: 0 };
  if (Number.isInteger(x) && Math.abs(x) <= Number.MAX_SAFE_INTEGER) {
    // An integer below 2^53 has integer neighbours: its shortest digits are its own (ids, counts
    // typed Double), without building an exponential text.
    const whole = String(Math.abs(x));
    let end = whole.length;
    while (whole.charCodeAt(end - 1) === 48) end--;
    return { kind: 'double', negative, digits: whole.slice(0, end), scale: whole.length };
  }
  const text = Math.abs(x).toExponential();
  const e = text.indexOf('e');
  const mantissa = text.slice(0, e).replace('.', '');
  const exponent = Number(text.slice(e + 1));
  let end = mantissa.length;
  while (end > 0 && mantissa.charCodeAt(end - 1) === 48) end--;
  return { kind: 'double', negative, digits: mantissa.slice(0, end), scale: exponent + 1 };
}

/**
 * Rounds `buf` to `pos` digits (counted from the first digit; a position at or before the first
 * digit rounds to zero or to one unit), then drops trailing zeros. `halfEven` is used for doubles
 * in standard formats (the digits are exact, so a tie is a 5 with nothing after it); every other
 * case rounds a 5 up, i.e. away from zero. When nothing is left, the scale becomes 0 and, except
 * for doubles, the sign is dropped: .NET prints "-0" only for doubles.
 */
export function roundBuffer(buf: NumberBuffer, pos: number, rule: 'halfUp' | 'halfEven'): void {
  const digits = buf.digits;
  let keep: string;
  if (pos < 0) {
    keep = '';
  } else if (pos >= digits.length) {
    keep = digits;
  } else {
    const next = digits.charCodeAt(pos) - 48;
    let up: boolean;
    if (next > 5) up = true;
    else if (next < 5) up = false;
    else if (rule === 'halfUp') up = true;
    else if (pos + 1 < digits.length && /[1-9]/.test(digits.slice(pos + 1))) up = true;
    else up = pos > 0 && (digits.charCodeAt(pos - 1) - 48) % 2 === 1;
    keep = digits.slice(0, pos);
    if (up) {
      let i = keep.length;
      while (i > 0 && keep.charCodeAt(i - 1) === 57) i--;
      if (i === 0) {
        keep = '1';
        buf.scale += 1;
      } else {
        keep = keep.slice(0, i - 1) + String.fromCharCode(keep.charCodeAt(i - 1) + 1);
      }
    }
  }
  let end = keep.length;
  while (end > 0 && keep.charCodeAt(end - 1) === 48) end--;
  buf.digits = keep.slice(0, end);
  if (buf.digits === '') {
    buf.scale = 0;
    if (buf.kind !== 'double') buf.negative = false;
  }
}
