// FastReport's text rules for the numeric codes: how it pads or cuts a text to the symbology's
// length and which check digit it appends. They are FastReport's, not always the standard's
// (2/5 Interleaved drops a first digit to make the length even, MSI weighs from the left), since
// the point is to print what FastReport prints for the same template.

import { BarcodeError } from './types.js';

/** The text must be digits only (FastReport parses each character as a number). */
export function digitsOnly(text: string): string {
  const bad = /[^0-9]/.exec(text);
  if (bad) throw new BarcodeError(`Invalid character "${bad[0]}": this barcode encodes digits only`);
  return text;
}

/** Left-padded with zeros to `n` characters, then cut to the first `n`. */
export function setLength(text: string, n: number): string {
  return text.padStart(n, '0').slice(0, n);
}

/** Modulo 10 with weights 3, 1, 3, … from the rightmost digit (EAN, UPC, ITF). */
export function mod10(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += Number(digits[i]) * w;
  return String((10 - (sum % 10)) % 10);
}

/** A fixed-length code: `len` digits, the last a modulo-10 check when `calc` (a supplied check
 *  digit is replaced), else the text padded or cut to `len`. */
export function withCheckDigit(text: string, len: number, calc: boolean): string {
  const t = digitsOnly(text);
  if (!calc) return setLength(t, len);
  const body = setLength(t, len - 1);
  return body + mod10(body);
}

/** Deutsche Post Identcode/Leitcode check: weights 4 and 9 from the rightmost digit. */
export function mod10Weights49(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, w = 4; i >= 0; i--, w = 13 - w) sum += Number(digits[i]) * w;
  return String((10 - (sum % 10)) % 10);
}

/** MSI's modulo 10 as FastReport computes it: the digits at even positions from the left summed,
 *  those at odd positions read as one number, doubled, and its digits added. */
export function msiCheck(digits: string): string {
  let odd = '';
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    if (i % 2 === 0) sum += Number(digits[i]);
    else odd += digits[i];
  }
  for (const d of String(Number(odd || '0') * 2)) sum += Number(d);
  return String((10 - (sum % 10)) % 10);
}

const CODE39 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%';

/** Code 39 skips characters it has no bar pattern for (FastReport drops them silently). */
export function code39Chars(text: string): string {
  return [...text].filter((c) => c !== '*' && CODE39.includes(c)).join('');
}

/** GS1 DataBar's data: "(01)" and a GTIN-14 of the text's first 13 digits (an "(01)" in front
 *  is skipped) with its check digit computed. */
export function gs1Gtin(text: string): string {
  const d = setLength(digitsOnly(text.replace(/^\(01\)/, '')), 13);
  return `(01)${d}${mod10(d)}`;
}
