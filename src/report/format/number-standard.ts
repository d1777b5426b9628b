// .NET's standard numeric format strings: C, D, E, F, G, N, P, R, X and .NET 8's B, each with an
// optional precision (documented in "Standard numeric format strings" on learn.microsoft.com),
// and the culture's sign/symbol patterns they use.

import type { NumberFormatInfo } from './culture.js';
import {
  type Classified,
  type NumberBuffer,
  exactBuffer,
  fixedDouble,
  roundBuffer,
  shortestDouble,
  shortestSingle,
} from './digits.js';
import { FormatError } from './errors.js';
import { formatFixed, formatGeneral, formatScientific } from './number-notation.js';

/** Round-trip digits of a double (single); "G"/"R" switch to scientific notation beyond this many. */
const DOUBLE_ROUNDTRIP_DIGITS = 17;
const SINGLE_ROUNDTRIP_DIGITS = 9;

export const NEGATIVE_NUMBER_PATTERNS: readonly string[] = ['(#)', '-#', '- #', '#-', '# -'];
export const POSITIVE_CURRENCY_PATTERNS: readonly string[] = ['$#', '#$', '$ #', '# $'];
export const NEGATIVE_CURRENCY_PATTERNS: readonly string[] = [
  '($#)',
  '-$#',
  '$-#',
  '$#-',
  '(#$)',
  '-#$',
  '#-$',
  '#$-',
  '-# $',
  '-$ #',
  '# $-',
  '$ #-',
  '$ -#',
  '#- $',
  '($ #)',
  '(# $)',
  '$- #',
];
export const POSITIVE_PERCENT_PATTERNS: readonly string[] = ['# %', '#%', '%#', '% #'];
export const NEGATIVE_PERCENT_PATTERNS: readonly string[] = [
  '-# %',
  '-#%',
  '-%#',
  '%-#',
  '%#-',
  '#-%',
  '#%-',
  '-% #',
  '# %-',
  '% #-',
  '% -#',
  '#- %',
];

type Rounding = { readonly significant: number } | { readonly decimals: number };

/** The exact digits of a finite value, rounded the way .NET's standard formats round it. */
function rounded(c: Classified, rounding: Rounding, scaleShift = 0): NumberBuffer {
  if (c.kind === 'double' && 'decimals' in rounding) {
    // x × 10^shift to d places = x to d + shift places (toFixed's fast path, digits.ts).
    const fast = fixedDouble(c.value, rounding.decimals + scaleShift);
    if (fast) {
      fast.scale += scaleShift;
      return fast;
    }
  }
  const buf = exactBuffer(c);
  buf.scale += scaleShift;
  const pos = 'significant' in rounding ? rounding.significant : buf.scale + rounding.decimals;
  roundBuffer(buf, pos, buf.kind === 'double' ? 'halfEven' : 'halfUp');
  return buf;
}

export function formatStandard(
  c: Classified,
  specifier: string,
  precision: number,
  nfi: NumberFormatInfo,
  format: string,
): string {
  switch (specifier) {
    case 'C':
    case 'c': {
      const decimals = precision < 0 ? nfi.currencyDecimalDigits : precision;
      const buf = rounded(c, { decimals });
      const pattern = buf.negative
        ? pick(NEGATIVE_CURRENCY_PATTERNS, nfi.currencyNegativePattern, 'currency negative pattern')
        : pick(POSITIVE_CURRENCY_PATTERNS, nfi.currencyPositivePattern, 'currency positive pattern');
      return expandPattern(pattern, nfi, () =>
        formatFixed(buf, decimals, nfi.currencyGroupSizes, nfi.currencyDecimalSeparator, nfi.currencyGroupSeparator),
      );
    }
    case 'D':
    case 'd': {
      const int = requireInteger(c, format);
      const digits = int.abs.toString().padStart(Math.max(precision, 1), '0');
      return int.negative ? nfi.negativeSign + digits : digits;
    }
    case 'E':
    case 'e': {
      const significant = (precision < 0 ? 6 : precision) + 1;
      const buf = rounded(c, { significant });
      return (buf.negative ? nfi.negativeSign : '') + formatScientific(buf, significant, specifier, nfi);
    }
    case 'F':
    case 'f': {
      const decimals = precision < 0 ? nfi.numberDecimalDigits : precision;
      const buf = rounded(c, { decimals });
      return (buf.negative ? nfi.negativeSign : '') + formatFixed(buf, decimals, null, nfi.numberDecimalSeparator, '');
    }
    case 'G':
    case 'g':
      return formatGeneralSpecifier(c, precision, specifier === 'G' ? 'E' : 'e', nfi);
    case 'N':
    case 'n': {
      const decimals = precision < 0 ? nfi.numberDecimalDigits : precision;
      const buf = rounded(c, { decimals });
      const pattern = buf.negative
        ? pick(NEGATIVE_NUMBER_PATTERNS, nfi.numberNegativePattern, 'number negative pattern')
        : '#';
      return expandPattern(pattern, nfi, () =>
        formatFixed(buf, decimals, nfi.numberGroupSizes, nfi.numberDecimalSeparator, nfi.numberGroupSeparator),
      );
    }
    case 'P':
    case 'p': {
      const decimals = precision < 0 ? nfi.percentDecimalDigits : precision;
      const buf = rounded(c, { decimals }, 2);
      const pattern = buf.negative
        ? pick(NEGATIVE_PERCENT_PATTERNS, nfi.percentNegativePattern, 'percent negative pattern')
        : pick(POSITIVE_PERCENT_PATTERNS, nfi.percentPositivePattern, 'percent positive pattern');
      return expandPattern(pattern, nfi, () =>
        formatFixed(buf, decimals, nfi.percentGroupSizes, nfi.percentDecimalSeparator, nfi.percentGroupSeparator),
      );
    }
    case 'R':
    case 'r':
      // Round-trip: doubles give their shortest round-trip digits. .NET rejects "R" for decimal
      // and Int32/Int64 but accepts it for BigInteger; an integer-valued JS number may have been a
      // double, so integers print their digits.
      if (c.kind === 'decimal') throw new FormatError(`format "${format}" is not valid for a decimal value`);
      return formatGeneralSpecifier(c, -1, specifier === 'R' ? 'E' : 'e', nfi);
    case 'X':
    case 'x':
      return formatRadix(requireInteger(c, format), 16, precision, specifier === 'X');
    case 'B':
    case 'b':
      return formatRadix(requireInteger(c, format), 2, precision, false);
    default:
      throw new FormatError(`format "${format}": '${specifier}' is not a standard numeric format specifier`);
  }
}

function requireInteger(c: Classified, format: string): Extract<Classified, { kind: 'integer' }> {
  if (c.kind !== 'integer') {
    throw new FormatError(
      `format "${format}" is only valid for integral values, not for ` +
        `a ${c.kind === 'decimal' ? 'decimal' : 'floating-point'} value`,
    );
  }
  return c;
}

function formatGeneralSpecifier(c: Classified, precision: number, expChar: string, nfi: NumberFormatInfo): string {
  if (c.kind === 'integer' && precision < 1) {
    // Int32/Int64 "G" without precision: all digits, never scientific.
    const digits = c.abs === 0n ? '0' : c.abs.toString();
    return c.negative ? nfi.negativeSign + digits : digits;
  }
  if (c.kind === 'decimal' && precision < 0) {
    // Decimal "G": every digit including trailing zeros, never scientific, never "-0".
    const buf = exactBuffer(c);
    const sign = buf.negative && buf.digits !== '' ? nfi.negativeSign : '';
    return sign + formatGeneral(buf, -1, expChar, true, nfi);
  }
  let buf: NumberBuffer;
  let maxDigits: number;
  if (c.kind === 'double' && precision < 1) {
    buf = shortestDouble(c.value);
    maxDigits = Math.max(buf.digits.length, DOUBLE_ROUNDTRIP_DIGITS);
  } else if (c.kind === 'single' && precision < 1) {
    buf = shortestSingle(c.value);
    maxDigits = Math.max(buf.digits.length, SINGLE_ROUNDTRIP_DIGITS);
  } else if (precision < 1) {
    // decimal "G0": rounds to its own digits (dropping trailing zeros), may go scientific.
    buf = exactBuffer(c);
    maxDigits = buf.digits.length;
    roundBuffer(buf, maxDigits, 'halfUp');
  } else {
    buf = rounded(c, { significant: precision });
    maxDigits = precision;
  }
  return (buf.negative ? nfi.negativeSign : '') + formatGeneral(buf, maxDigits, expChar, false, nfi);
}

function pick(patterns: readonly string[], index: number, what: string): string {
  const p = patterns[index];
  if (p === undefined || !Number.isInteger(index)) {
    throw new FormatError(`${what} ${index} is out of range 0..${patterns.length - 1}`);
  }
  return p;
}

/** Expands a .NET sign/symbol pattern: '#' the number, '-' the negative sign, '$' and '%' the symbols. */
function expandPattern(pattern: string, nfi: NumberFormatInfo, number: () => string): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '#') out += number();
    else if (ch === '-') out += nfi.negativeSign;
    else if (ch === '$') out += nfi.currencySymbol;
    else if (ch === '%') out += nfi.percentSymbol;
    else out += ch;
  }
  return out;
}

/**
 * "X"/"B": a negative value in two's complement of its type's width, or, for an untyped value,
 * of 32 bits (Int32 range) or 64 bits (Int64 range).
 */
function formatRadix(
  int: Extract<Classified, { kind: 'integer' }>,
  radix: 2 | 16,
  precision: number,
  upper: boolean,
): string {
  let v = int.negative ? -int.abs : int.abs;
  if (v < 0n) {
    const bits = int.bits !== undefined && v >= -(1n << BigInt(int.bits - 1)) ? int.bits : v >= -(1n << 31n) ? 32 : 64;
    if (v < -(1n << BigInt(bits - 1))) {
      throw new FormatError(
        `cannot format ${v} in ${radix === 16 ? 'hexadecimal' : 'binary'}: outside the 64-bit range`,
      );
    }
    v += 1n << BigInt(bits);
  }
  const text = v.toString(radix).padStart(Math.max(precision, 1), '0');
  return upper ? text.toUpperCase() : text;
}
