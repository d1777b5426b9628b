// How a number's rounded digits (a NumberBuffer) are written out: digit grouping, fixed and
// scientific notation, the exponent, and .NET's "G" body. Shared by the standard formats
// (number-standard.ts) and the custom ones (number-custom.ts).

import type { NumberFormatInfo } from './culture.js';
import type { NumberBuffer } from './digits.js';

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
export function formatFixed(
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

export function formatExponent(
  value: number,
  expChar: string,
  minDigits: number,
  positiveSign: boolean,
  nfi: NumberFormatInfo,
): string {
  let sign = '';
  if (value < 0) sign = nfi.negativeSign;
  else if (positiveSign) sign = nfi.positiveSign;
  return expChar + sign + String(Math.abs(value)).padStart(minDigits, '0');
}

/** d.ddd…E+ddd with `significant` digits in all. */
export function formatScientific(
  buf: NumberBuffer,
  significant: number,
  expChar: string,
  nfi: NumberFormatInfo,
): string {
  const { digits } = buf;
  let out = digits.charAt(0) || '0';
  if (significant !== 1) out += nfi.numberDecimalSeparator;
  for (let i = 1; i < significant; i++) out += digits.charAt(i) || '0';
  return out + formatExponent(digits === '' ? 0 : buf.scale - 1, expChar, 3, true, nfi);
}

/** .NET's "G" body: fixed notation unless the exponent is ≥ maxDigits or < -4 (then d.dddE+dd). */
export function formatGeneral(
  buf: NumberBuffer,
  maxDigits: number,
  expChar: string,
  suppressScientific: boolean,
  nfi: NumberFormatInfo,
): string {
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
