// System.Decimal (exact: scaled bigint, 28 digits after the point at most) with .NET's scale
// and rounding rules, and the bigint helpers behind it (pow10, roundDiv).

import { ValueError } from './value-error.js';

const overflow = (what: string) => new ValueError('OverflowException', `${what} is too large or too small`);

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
      if (coef !== 0n && digitCount(coef) - scale > 29)
        throw overflow('Value was either too large or too small for a Decimal; it');
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
    if (!Number.isFinite(n) || Math.abs(n) >= 7.9228162514264338e28)
      throw overflow('Value was either too large or too small for a Decimal; it');
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
    if (digits < 0 || digits > MAX_SCALE)
      throw new ValueError('ArgumentOutOfRangeException', 'Rounding digits must be between 0 and 28');
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
