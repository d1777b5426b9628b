// Public API of the format library: .NET numeric and date/time format strings, composite
// formatting, the en-US / de-DE / invariant cultures, and FastReport's Format objects with the
// TextObject display rules. See README.md in this folder for the decisions (time zones,
// decimals, rounding).

import { EN_US, type Culture } from './culture.js';
import { formatComposite, formatValue } from './composite.js';

export {
  DE_DE,
  EN_US,
  INVARIANT,
  SUPPORTED_CULTURES,
  getCulture,
  withNumberFormat,
  type Culture,
  type DateTimeFormatInfo,
  type NumberFormatInfo,
} from './culture.js';
export { FormatError } from './errors.js';
export { type DecimalLike, type NumericTypeName, isNumeric, normalizeTypeName } from './digits.js';
export { MAX_PRECISION, formatNumber, type NumericValue } from './number.js';
export {
  DATETIME_MIN_VALUE_MS,
  clockReading,
  dateTimeMinValue,
  dateTimeOffset,
  formatDate,
  isDateTimeOffsetLike,
  isDateValue,
  type DateTimeOffsetLike,
  type DateValue,
} from './date.js';
export { formatTimeSpan, isTimeSpanLike, type TimeSpanLike } from './timespan.js';
export { formatComposite, formatValue, toDisplayString } from './composite.js';
export {
  applyFormat,
  formatForDisplay,
  FORMAT_KINDS,
  isFormatKind,
  nullTypeOf,
  numberFormatInfoFor,
  resolveFormatSpec,
  type DisplayOptions,
  type FormatKind,
  type FormatSpec,
  type NullType,
  type ResolvedFormatSpec,
} from './fastreport.js';

/**
 * What the expression engine needs for ToString(format), String.Format and Format(…). It fits
 * the engine's `Formatter` contract (src/report/expr/types.ts): `format(value, format, type?)`,
 * where "" means ToString() and `type` is the value's .NET type name when known.
 */
export interface Formatter {
  readonly culture: Culture;
  /** `value.ToString(formatString)`; "" or no format = ToString(). */
  format(value: unknown, formatString?: string | null, type?: string): string;
  /** `String.Format(format, args…)`; `types[i]` is the .NET type of args[i] when known. */
  composite(format: string, args: readonly unknown[], types?: readonly (string | undefined)[]): string;
}

/** A Formatter bound to a culture (the report's Culture setting; en-US by default). */
export function createFormatter(culture: Culture = EN_US): Formatter {
  return Object.freeze({
    culture,
    format: (value: unknown, formatString?: string | null, type?: string): string =>
      formatValue(value, formatString, culture, type),
    composite: (format: string, args: readonly unknown[], types?: readonly (string | undefined)[]): string =>
      formatComposite(format, args, culture, types),
  });
}

/** The en-US Formatter. */
export const Formatter: Formatter = createFormatter(EN_US);
