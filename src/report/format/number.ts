// .NET numeric format strings: the standard ones (C, D, E, F, G, N, P, R, X and .NET 8's B, each
// with an optional precision) and custom ones ("#,##0.00;(#,##0.00);-", "0.###E+0", "0%", …).
// Behaviour follows .NET 5+ (documented in "Standard numeric format strings" and "Custom numeric
// format strings" on learn.microsoft.com); see digits.ts for how values are classified and
// rounded.

import { EN_US, type Culture, type NumberFormatInfo } from './culture.js';
import {
  type Classified,
  type DecimalLike,
  type NumberBuffer,
  classify,
  exactBuffer,
  roundBuffer,
  shortestDouble,
  shortestSingle,
} from './digits.js';
import { FormatError } from './errors.js';

/** What formatNumber accepts: a JS number, a bigint, or a decimal-like object (see digits.ts). */
export type NumericValue = number | bigint | DecimalLike;

/**
 * The largest precision specifier this engine formats. .NET 7+ accepts up to 999,999,999 (and
 * would build a string that long); anything above this limit is refused with a FormatError.
 */
export const MAX_PRECISION = 10_000;

/** Digits of a double (single) kept before a custom format rounds (.NET's Double/SinglePrecisionCustomFormat). */
const DOUBLE_CUSTOM_DIGITS = 15;
const SINGLE_CUSTOM_DIGITS = 7;
/** Round-trip digits of a double (single); "G"/"R" switch to scientific notation beyond this many. */
const DOUBLE_ROUNDTRIP_DIGITS = 17;
const SINGLE_ROUNDTRIP_DIGITS = 9;

export const NEGATIVE_NUMBER_PATTERNS: readonly string[] = ['(#)', '-#', '- #', '#-', '# -'];
export const POSITIVE_CURRENCY_PATTERNS: readonly string[] = ['$#', '#$', '$ #', '# $'];
export const NEGATIVE_CURRENCY_PATTERNS: readonly string[] = [
  '($#)', '-$#', '$-#', '$#-', '(#$)', '-#$', '#-$', '#$-',
  '-# $', '-$ #', '# $-', '$ #-', '$ -#', '#- $', '($ #)', '(# $)', '$- #',
];
export const POSITIVE_PERCENT_PATTERNS: readonly string[] = ['# %', '#%', '%#', '% #'];
export const NEGATIVE_PERCENT_PATTERNS: readonly string[] = [
  '-# %', '-#%', '-%#', '%-#', '%#-', '#-%', '#%-', '-% #', '# %-', '% #-', '% -#', '#- %',
];

/**
 * Formats a number like .NET's `value.ToString(format, culture)`. NaN and infinities give the
 * culture's symbols whatever the format. An empty or missing format means "G". `type`, when
 * known, is the value's .NET type ("System.Double", "System.Int16", "decimal"…; see
 * digits.ts classify). Throws FormatError for a format .NET would reject (an unknown standard
 * specifier, "D"/"X" on a non-integer, a precision above MAX_PRECISION).
 */
export function formatNumber(value: NumericValue, format?: string | null, culture: Culture = EN_US, type?: string): string {
  return formatClassified(classify(value, type), format, culture.number);
}

export function formatClassified(c: Classified, format: string | null | undefined, nfi: NumberFormatInfo): string {
  if (c.kind === 'nan') return nfi.nanSymbol;
  if (c.kind === 'infinity') return c.negative ? nfi.negativeInfinitySymbol : nfi.positiveInfinitySymbol;
  let f = format ?? '';
  const nul = f.indexOf('\0');
  if (nul >= 0) f = f.slice(0, nul); // .NET stops reading a numeric format at a NUL
  const standard = parseStandard(f);
  return standard === null ? formatCustom(c, f, nfi) : formatStandard(c, standard.specifier, standard.precision, nfi, f);
}

interface StandardFormat {
  specifier: string;
  /** -1 when absent. */
  precision: number;
}

/** A letter followed only by digits (or nothing) is a standard format; anything else is custom. */
function parseStandard(format: string): StandardFormat | null {
  if (format === '') return { specifier: 'G', precision: -1 };
  const c = format.charCodeAt(0);
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (!letter) return null;
  if (!/^[0-9]*$/.test(format.slice(1))) return null;
  if (format.length === 1) return { specifier: format, precision: -1 };
  const digits = format.slice(1).replace(/^0+(?=\d)/, '');
  if (digits.length > 9 || Number(digits) > 999_999_999) {
    throw new FormatError(`format "${format}": the precision specifier is larger than 999,999,999`);
  }
  const precision = Number(digits);
  if (precision > MAX_PRECISION) {
    throw new FormatError(`format "${format}": precision ${precision} exceeds this engine's limit of ${MAX_PRECISION}`);
  }
  return { specifier: format.charAt(0), precision };
}

type Rounding = { readonly significant: number } | { readonly decimals: number };

/** The exact digits of a finite value, rounded the way .NET's standard formats round it. */
function rounded(c: Classified, rounding: Rounding, scaleShift = 0): NumberBuffer {
  const buf = exactBuffer(c);
  buf.scale += scaleShift;
  const pos = 'significant' in rounding ? rounding.significant : buf.scale + rounding.decimals;
  roundBuffer(buf, pos, buf.kind === 'double' ? 'halfEven' : 'halfUp');
  return buf;
}

function formatStandard(c: Classified, specifier: string, precision: number, nfi: NumberFormatInfo, format: string): string {
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
      const pattern = buf.negative ? pick(NEGATIVE_NUMBER_PATTERNS, nfi.numberNegativePattern, 'number negative pattern') : '#';
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
    throw new FormatError(`format "${format}" is only valid for integral values, not for a ${c.kind === 'decimal' ? 'decimal' : 'floating-point'} value`);
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

/** Inserts group separators into a run of integer digits, from the right, by .NET group sizes. */
export function groupDigits(intDigits: string, sizes: readonly number[], separator: string): string {
  let size = sizes[0] ?? 0;
  if (size <= 0 || separator === '') return intDigits;
  let index = 0;
  let count = 0;
  const parts: string[] = [];
  let end = intDigits.length;
  for (let i = intDigits.length - 1; i >= 0; i--) {
    count++;
    if (size > 0 && count === size && i !== 0) {
      parts.push(intDigits.slice(i, end));
      end = i;
      if (index < sizes.length - 1) {
        index++;
        size = sizes[index] ?? 0;
      }
      count = 0;
    }
  }
  parts.push(intDigits.slice(0, end));
  return parts.reverse().join(separator);
}

/** Integer part (grouped when sizes are given) and exactly `decimals` fraction digits. */
function formatFixed(
  buf: NumberBuffer,
  decimals: number,
  groupSizes: readonly number[] | null,
  decimalSeparator: string,
  groupSeparator: string,
): string {
  const { digits, scale } = buf;
  let out: string;
  if (scale > 0) {
    const intDigits = digits.slice(0, scale).padEnd(scale, '0');
    out = groupSizes === null ? intDigits : groupDigits(intDigits, groupSizes, groupSeparator);
  } else {
    out = '0';
  }
  if (decimals > 0) {
    const lead = scale < 0 ? '0'.repeat(Math.min(-scale, decimals)) : '';
    const fraction = (lead + digits.slice(Math.max(scale, 0))).slice(0, decimals).padEnd(decimals, '0');
    out += decimalSeparator + fraction;
  }
  return out;
}

function formatExponent(value: number, expChar: string, minDigits: number, positiveSign: boolean, nfi: NumberFormatInfo): string {
  let sign = '';
  if (value < 0) sign = nfi.negativeSign;
  else if (positiveSign) sign = nfi.positiveSign;
  return expChar + sign + String(Math.abs(value)).padStart(minDigits, '0');
}

/** d.ddd…E+ddd with `significant` digits in all. */
function formatScientific(buf: NumberBuffer, significant: number, expChar: string, nfi: NumberFormatInfo): string {
  const { digits } = buf;
  let out = digits.charAt(0) || '0';
  if (significant !== 1) out += nfi.numberDecimalSeparator;
  for (let i = 1; i < significant; i++) out += digits.charAt(i) || '0';
  return out + formatExponent(digits === '' ? 0 : buf.scale - 1, expChar, 3, true, nfi);
}

/** .NET's "G" body: fixed notation unless the exponent is ≥ maxDigits or < -4 (then d.dddE+dd). */
function formatGeneral(buf: NumberBuffer, maxDigits: number, expChar: string, suppressScientific: boolean, nfi: NumberFormatInfo): string {
  const { digits, scale } = buf;
  let digPos = scale;
  let scientific = false;
  if (!suppressScientific && (digPos > maxDigits || digPos < -3)) {
    digPos = 1;
    scientific = true;
  }
  let i = 0;
  let out = '';
  if (digPos > 0) {
    do {
      out += i < digits.length ? digits.charAt(i++) : '0';
    } while (--digPos > 0);
  } else {
    out = '0';
  }
  if (i < digits.length || digPos < 0) {
    out += nfi.numberDecimalSeparator;
    while (digPos < 0) {
      out += '0';
      digPos++;
    }
    out += digits.slice(i);
  }
  if (scientific) out += formatExponent(scale - 1, expChar, 2, true, nfi);
  return out;
}

/**
 * "X"/"B": a negative value in two's complement of its type's width, or, for an untyped value,
 * of 32 bits (Int32 range) or 64 bits (Int64 range).
 */
function formatRadix(int: Extract<Classified, { kind: 'integer' }>, radix: 2 | 16, precision: number, upper: boolean): string {
  let v = int.negative ? -int.abs : int.abs;
  if (v < 0n) {
    const bits = int.bits !== undefined && v >= -(1n << BigInt(int.bits - 1)) ? int.bits : v >= -(1n << 31n) ? 32 : 64;
    if (v < -(1n << BigInt(bits - 1))) {
      throw new FormatError(`cannot format ${v} in ${radix === 16 ? 'hexadecimal' : 'binary'}: outside the 64-bit range`);
    }
    v += 1n << BigInt(bits);
  }
  const text = v.toString(radix).padStart(Math.max(precision, 1), '0');
  return upper ? text.toUpperCase() : text;
}

// ---------------------------------------------------------------------------------------------
// Custom numeric formats

/**
 * Where section `n` (0 positive, 1 negative, 2 zero) of a custom format starts; 0 (the first
 * section) when that section is missing or empty, as in .NET.
 */
function sectionStart(format: string, n: number): number {
  if (n === 0) return 0;
  let i = 0;
  let remaining = n;
  while (i < format.length) {
    const ch = format.charAt(i++);
    if (ch === "'" || ch === '"') {
      while (i < format.length && format.charAt(i++) !== ch);
    } else if (ch === '\\') {
      if (i < format.length) i++;
    } else if (ch === ';') {
      if (--remaining !== 0) continue;
      return i < format.length && format.charAt(i) !== ';' ? i : 0;
    }
  }
  return 0;
}

interface SectionShape {
  digitCount: number;
  decimalPos: number;
  /** Placeholder index of the first '0', or Infinity. */
  firstZero: number;
  /** Placeholder count up to and including the last '0'. */
  lastZero: number;
  scientific: boolean;
  thousandSeparators: boolean;
  scaleAdjust: number;
}

function analyzeSection(format: string, start: number): SectionShape {
  let digitCount = 0;
  let decimalPos = -1;
  let firstZero = Infinity;
  let lastZero = 0;
  let scientific = false;
  let thousandPos = -1;
  let thousandCount = 0;
  let thousandSeparators = false;
  let scaleAdjust = 0;
  let i = start;
  while (i < format.length) {
    const ch = format.charAt(i++);
    if (ch === ';') break;
    switch (ch) {
      case '#':
        digitCount++;
        break;
      case '0':
        if (firstZero === Infinity) firstZero = digitCount;
        digitCount++;
        lastZero = digitCount;
        break;
      case '.':
        if (decimalPos < 0) decimalPos = digitCount;
        break;
      case ',':
        // Before the decimal point and after a placeholder: grouping, or scaling when the
        // commas end up right before the decimal point.
        if (digitCount > 0 && decimalPos < 0) {
          if (thousandPos >= 0) {
            if (thousandPos === digitCount) {
              thousandCount++;
              break;
            }
            thousandSeparators = true;
          }
          thousandPos = digitCount;
          thousandCount = 1;
        }
        break;
      case '%':
        scaleAdjust += 2;
        break;
      case '\u2030':
        scaleAdjust += 3;
        break;
      case "'":
      case '"':
        while (i < format.length && format.charAt(i++) !== ch);
        break;
      case '\\':
        if (i < format.length) i++;
        break;
      case 'E':
      case 'e':
        if (
          (i < format.length && format.charAt(i) === '0') ||
          (i + 1 < format.length && (format.charAt(i) === '+' || format.charAt(i) === '-') && format.charAt(i + 1) === '0')
        ) {
          while (++i < format.length && format.charAt(i) === '0');
          scientific = true;
        }
        break;
    }
  }
  if (decimalPos < 0) decimalPos = digitCount;
  if (thousandPos >= 0) {
    if (thousandPos === decimalPos) scaleAdjust -= thousandCount * 3;
    else thousandSeparators = true;
  }
  return { digitCount, decimalPos, firstZero, lastZero, scientific, thousandSeparators, scaleAdjust };
}

function formatCustom(c: Classified, format: string, nfi: NumberFormatInfo): string {
  const buf = exactBuffer(c);
  if (c.kind === 'double') roundBuffer(buf, DOUBLE_CUSTOM_DIGITS, 'halfEven');
  else if (c.kind === 'single') roundBuffer(buf, SINGLE_CUSTOM_DIGITS, 'halfEven');

  let section = sectionStart(format, buf.digits === '' ? 2 : buf.negative ? 1 : 0);
  let shape: SectionShape;
  for (;;) {
    shape = analyzeSection(format, section);
    if (buf.digits !== '') {
      buf.scale += shape.scaleAdjust;
      const pos = shape.scientific ? shape.digitCount : buf.scale + shape.digitCount - shape.decimalPos;
      roundBuffer(buf, pos, 'halfUp');
      if (buf.digits === '') {
        // Rounded to zero: the zero section (when there is one) formats it.
        const zero = sectionStart(format, 2);
        if (zero !== section) {
          section = zero;
          continue;
        }
      }
    } else {
      if (buf.kind !== 'double') buf.negative = false;
      buf.scale = 0;
    }
    break;
  }

  const { digitCount, decimalPos } = shape;
  const digits = buf.digits;
  const firstDigit = shape.firstZero < decimalPos ? decimalPos - shape.firstZero : 0;
  const lastDigit = shape.lastZero > decimalPos ? decimalPos - shape.lastZero : 0;
  let scientific = shape.scientific;
  let digPos: number;
  let adjust: number;
  if (scientific) {
    digPos = decimalPos;
    adjust = 0;
  } else {
    digPos = Math.max(buf.scale, decimalPos);
    adjust = buf.scale - decimalPos;
  }

  // Integer positions (counted from the decimal point) after which a group separator goes.
  const separatorAfter: number[] = [];
  if (shape.thousandSeparators && nfi.numberGroupSeparator.length > 0) {
    const sizes = nfi.numberGroupSizes;
    let index = 0;
    let total = sizes[0] ?? 0;
    let size = total;
    const numDigits = Math.max(firstDigit, digPos + (adjust < 0 ? adjust : 0));
    while (numDigits > total) {
      if (size === 0) break;
      separatorAfter.push(total);
      if (index < sizes.length - 1) {
        index++;
        size = sizes[index] ?? 0;
      }
      total += size;
    }
  }
  let separatorIndex = separatorAfter.length - 1;

  let out = '';
  let cur = 0;
  let decimalWritten = false;
  const groupSeparatorAfterDigit = (): void => {
    if (shape.thousandSeparators && digPos > 1 && separatorIndex >= 0 && digPos === (separatorAfter[separatorIndex] as number) + 1) {
      out += nfi.numberGroupSeparator;
      separatorIndex--;
    }
  };

  let i = section;
  while (i < format.length) {
    const ch = format.charAt(i++);
    if (ch === ';') break;
    if (adjust > 0 && (ch === '#' || ch === '0' || ch === '.')) {
      // More integer digits than placeholders: they all go before the first placeholder.
      while (adjust > 0) {
        out += cur < digits.length ? digits.charAt(cur++) : '0';
        groupSeparatorAfterDigit();
        digPos--;
        adjust--;
      }
    }
    switch (ch) {
      case '#':
      case '0': {
        let d = '';
        if (adjust < 0) {
          adjust++;
          d = digPos <= firstDigit ? '0' : '';
        } else {
          d = cur < digits.length ? digits.charAt(cur++) : digPos > lastDigit ? '0' : '';
        }
        if (d !== '') {
          out += d;
          groupSeparatorAfterDigit();
        }
        digPos--;
        break;
      }
      case '.':
        if (digPos !== 0 || decimalWritten) break; // only the first '.' counts
        if (lastDigit < 0 || (decimalPos < digitCount && cur < digits.length)) {
          out += nfi.numberDecimalSeparator;
          decimalWritten = true;
        }
        break;
      case '\u2030':
        out += nfi.perMilleSymbol;
        break;
      case '%':
        out += nfi.percentSymbol;
        break;
      case ',':
        break;
      case "'":
      case '"':
        while (i < format.length && format.charAt(i) !== ch) out += format.charAt(i++);
        if (i < format.length) i++;
        break;
      case '\\':
        if (i < format.length) out += format.charAt(i++);
        break;
      case 'E':
      case 'e': {
        if (scientific) {
          let positiveSign = false;
          let zeros = 0;
          if (i < format.length && format.charAt(i) === '0') {
            zeros++;
          } else if (i + 1 < format.length && format.charAt(i) === '+' && format.charAt(i + 1) === '0') {
            positiveSign = true;
          } else if (!(i + 1 < format.length && format.charAt(i) === '-' && format.charAt(i + 1) === '0')) {
            out += ch;
            break;
          }
          while (++i < format.length && format.charAt(i) === '0') zeros++;
          const exponent = digits === '' ? 0 : buf.scale - decimalPos;
          out += formatExponent(exponent, ch, Math.min(zeros, 10), positiveSign, nfi);
          scientific = false;
        } else {
          out += ch;
          if (i < format.length) {
            if (format.charAt(i) === '+' || format.charAt(i) === '-') out += format.charAt(i++);
            while (i < format.length && format.charAt(i) === '0') out += format.charAt(i++);
          }
        }
        break;
      }
      default:
        out += ch;
    }
  }

  // The first section of a format shows a negative value with the culture's sign; other
  // sections carry their own. (A double that rounded to zero keeps its sign: "-0".)
  if (buf.negative && section === 0 && (buf.scale !== 0 || out.length > 0)) out = nfi.negativeSign + out;
  return out;
}
