// .NET numeric format strings: the standard ones (C, D, E, F, G, N, P, R, X and .NET 8's B, each
// with an optional precision) and custom ones ("#,##0.00;(#,##0.00);-", "0.###E+0", "0%", …).
// Behaviour follows .NET 5+ (documented in "Standard numeric format strings" and "Custom numeric
// format strings" on learn.microsoft.com); see digits.ts for how values are classified and
// rounded.
//
// This module is the entry: it tells a standard format from a custom one and hands the value to
// number-standard.ts or number-custom.ts.

import { EN_US, type Culture, type NumberFormatInfo } from './culture.js';
import { type Classified, type DecimalLike, classify } from './digits.js';
import { FormatError } from './errors.js';
import { formatCustom } from './number-custom.js';
import { formatStandard } from './number-standard.js';

/** What formatNumber accepts: a JS number, a bigint, or a decimal-like object (see digits.ts). */
export type NumericValue = number | bigint | DecimalLike;

/**
 * The largest precision specifier this engine formats. .NET 7+ accepts up to 999,999,999 (and
 * would build a string that long); anything above this limit is refused with a FormatError.
 */
export const MAX_PRECISION = 10_000;

/**
 * Formats a number like .NET's `value.ToString(format, culture)`. NaN and infinities give the
 * culture's symbols whatever the format. An empty or missing format means "G". `type`, when
 * known, is the value's .NET type ("System.Double", "System.Int16", "decimal"…; see
 * digits.ts classify). Throws FormatError for a format .NET would reject (an unknown standard
 * specifier, "D"/"X" on a non-integer, a precision above MAX_PRECISION).
 */
export function formatNumber(
  value: NumericValue,
  format?: string | null,
  culture: Culture = EN_US,
  type?: string,
): string {
  return formatClassified(classify(value, type), format, culture.number);
}

export function formatClassified(c: Classified, format: string | null | undefined, nfi: NumberFormatInfo): string {
  if (c.kind === 'nan') return nfi.nanSymbol;
  if (c.kind === 'infinity') return c.negative ? nfi.negativeInfinitySymbol : nfi.positiveInfinitySymbol;
  let f = format ?? '';
  const nul = f.indexOf('\0');
  if (nul >= 0) f = f.slice(0, nul); // .NET stops reading a numeric format at a NUL
  const standard = parseStandard(f);
  return standard === null
    ? formatCustom(c, f, nfi)
    : formatStandard(c, standard.specifier, standard.precision, nfi, f);
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
