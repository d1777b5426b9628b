// .NET's custom numeric format strings ("#,##0.00;(#,##0.00);-", "0.###E+0", "0%", …), as .NET 5+
// formats them (documented in "Custom numeric format strings" on learn.microsoft.com).

import type { NumberFormatInfo } from './culture.js';
import { type Classified, exactBuffer, roundBuffer } from './digits.js';
import { formatExponent } from './number-notation.js';

/** Digits of a double (single) kept before a custom format rounds (.NET's Double/SinglePrecisionCustomFormat). */
const DOUBLE_CUSTOM_DIGITS = 15;
const SINGLE_CUSTOM_DIGITS = 7;

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
          (i + 1 < format.length &&
            (format.charAt(i) === '+' || format.charAt(i) === '-') &&
            format.charAt(i + 1) === '0')
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

export function formatCustom(c: Classified, format: string, nfi: NumberFormatInfo): string {
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
    const numDigits = Math.max(firstDigit, digPos + Math.min(adjust, 0));
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
    if (
      shape.thousandSeparators &&
      digPos > 1 &&
      separatorIndex >= 0 &&
      digPos === (separatorAfter[separatorIndex] as number) + 1
    ) {
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
