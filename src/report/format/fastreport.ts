// FastReport's Format objects (FastReport.Base/Format/*.cs) and the TextObject rules around them
// (TextObjectBase.FormatValue: NullValue, HideValue, HideZeros). Facts from FastReport Open
// Source; the code is this project's.
//
// Defaults (constructor values; .frx files write only what differs):
//   General   value.ToString()
//   Number    UseLocale true, DecimalDigits 2, DecimalSeparator ".", GroupSeparator ",", NegativePattern 0
//   Currency  UseLocale true, DecimalDigits 2, ".", ",", CurrencySymbol "$", PositivePattern 0, NegativePattern 0
//   Percent   UseLocale true, DecimalDigits 2, ".", ",", PercentSymbol "%", PositivePattern 0, NegativePattern 0
//   Date      Format "d"        Time  Format "t"        Custom  Format "G"
//   Boolean   FalseText "False", TrueText "True"
// Number/Currency/Percent format with "{0:n}", "{0:c}", "{0:p}" and a NumberFormatInfo built from
// scratch (so NaN/∞ symbols and the negative sign are the invariant ones): with UseLocale the
// separators, group sizes, symbol and patterns come from the culture and only DecimalDigits from
// the object; without it everything comes from the object, with groups of 3. NegativePattern
// (and PositivePattern) are therefore only used when UseLocale is false — and NumberFormat's
// default NegativePattern 0 is "(n)".
// Date, Time and Custom format with String.Format("{0:" + Format + "}", value) in the culture.

import { EN_US, INVARIANT, withNumberFormat, type Culture, type NumberFormatInfo } from './culture.js';
import { formatComposite, formatValue, toDisplayString } from './composite.js';
import { DATETIME_MIN_VALUE_MS, clockReading, dateTimeMinValue, isDateValue } from './date.js';
import { classify, isNumeric, normalizeTypeName } from './digits.js';
import { FormatError } from './errors.js';
import {
  NEGATIVE_CURRENCY_PATTERNS,
  NEGATIVE_NUMBER_PATTERNS,
  NEGATIVE_PERCENT_PATTERNS,
  POSITIVE_CURRENCY_PATTERNS,
  POSITIVE_PERCENT_PATTERNS,
} from './number-standard.js';

/** FastReport's Format kinds; the .frx loader reads a number in `Format="…"` as an index into this list. */
export const FORMAT_KINDS = ['General', 'Number', 'Currency', 'Percent', 'Date', 'Time', 'Custom', 'Boolean'] as const;
export type FormatKind = (typeof FORMAT_KINDS)[number];

/**
 * A TextObject's Format as the template loader reads it: `Format="Currency"` gives the kind,
 * `Format.DecimalDigits="2"` etc. the other fields. Absent fields take FastReport's defaults.
 */
export interface FormatSpec {
  readonly kind: FormatKind;
  readonly useLocale?: boolean;
  readonly decimalDigits?: number;
  readonly decimalSeparator?: string;
  readonly groupSeparator?: string;
  readonly negativePattern?: number;
  readonly positivePattern?: number;
  readonly currencySymbol?: string;
  readonly percentSymbol?: string;
  /** Date, Time, Custom: the .NET format string. */
  readonly format?: string;
  readonly trueText?: string;
  readonly falseText?: string;
}

/** A FormatSpec with every field of its kind filled in. */
export type ResolvedFormatSpec = Required<FormatSpec>;

const BASE_DEFAULTS = {
  useLocale: true,
  decimalDigits: 2,
  decimalSeparator: '.',
  groupSeparator: ',',
  negativePattern: 0,
  positivePattern: 0,
  currencySymbol: '$',
  percentSymbol: '%',
  format: 'G',
  trueText: 'True',
  falseText: 'False',
} as const;

const FORMAT_BY_KIND: Partial<Record<FormatKind, string>> = { Date: 'd', Time: 't', Custom: 'G' };

const KINDS: ReadonlySet<string> = new Set(FORMAT_KINDS);

export function isFormatKind(name: string): name is FormatKind {
  return KINDS.has(name);
}

// A template's FormatSpec objects are formatted once per row: remember what they resolve to.
// (Specs are treated as immutable once they have been used.)
const resolvedCache = new WeakMap<FormatSpec, ResolvedFormatSpec>();
const cultureCache = new WeakMap<FormatSpec, Map<Culture, Culture>>();

/** The spec with FastReport's defaults for its kind (Date "d", Time "t", Custom "G", …). */
export function resolveFormatSpec(spec: FormatSpec): ResolvedFormatSpec {
  const cached = resolvedCache.get(spec);
  if (cached !== undefined) return cached;
  if (!isFormatKind(spec.kind)) throw new FormatError(`unknown Format "${String(spec.kind)}"`);
  const defined = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as Partial<FormatSpec>;
  const resolved: ResolvedFormatSpec = Object.freeze({
    ...BASE_DEFAULTS,
    format: FORMAT_BY_KIND[spec.kind] ?? BASE_DEFAULTS.format,
    ...defined,
    kind: spec.kind,
  });
  resolvedCache.set(spec, resolved);
  return resolved;
}

/** The culture a Number/Currency/Percent spec formats with (the culture with FastReport's NumberFormatInfo). */
function numberCulture(spec: FormatSpec, culture: Culture): Culture {
  let byCulture = cultureCache.get(spec);
  if (byCulture === undefined) {
    byCulture = new Map();
    cultureCache.set(spec, byCulture);
  }
  let c = byCulture.get(culture);
  if (c === undefined) {
    c = withNumberFormat(culture, numberFormatInfoFor(spec, culture));
    byCulture.set(culture, c);
  }
  return c;
}

function checkPattern(patterns: readonly string[], value: number, property: string): number {
  if (!Number.isInteger(value) || value < 0 || value >= patterns.length) {
    throw new FormatError(`Format.${property} ${value} is out of range 0..${patterns.length - 1}`);
  }
  return value;
}

function checkDigits(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 99) {
    throw new FormatError(`Format.DecimalDigits ${value} is out of range 0..99`);
  }
  return value;
}

/** The NumberFormatInfo FastReport builds for a Number, Currency or Percent format. */
export function numberFormatInfoFor(spec: FormatSpec, culture: Culture = EN_US): NumberFormatInfo {
  const s = resolveFormatSpec(spec);
  const base = INVARIANT.number;
  const own = culture.number;
  const digits = checkDigits(s.decimalDigits);
  switch (s.kind) {
    case 'Number':
      return s.useLocale
        ? {
            ...base,
            numberDecimalDigits: digits,
            numberDecimalSeparator: own.numberDecimalSeparator,
            numberGroupSizes: own.numberGroupSizes,
            numberGroupSeparator: own.numberGroupSeparator,
            numberNegativePattern: own.numberNegativePattern,
          }
        : {
            ...base,
            numberDecimalDigits: digits,
            numberDecimalSeparator: s.decimalSeparator,
            numberGroupSizes: [3],
            numberGroupSeparator: s.groupSeparator,
            numberNegativePattern: checkPattern(NEGATIVE_NUMBER_PATTERNS, s.negativePattern, 'NegativePattern'),
          };
    case 'Currency':
      return s.useLocale
        ? {
            ...base,
            currencyDecimalDigits: digits,
            currencyDecimalSeparator: own.currencyDecimalSeparator,
            currencyGroupSizes: own.currencyGroupSizes,
            currencyGroupSeparator: own.currencyGroupSeparator,
            currencySymbol: own.currencySymbol,
            currencyPositivePattern: own.currencyPositivePattern,
            currencyNegativePattern: own.currencyNegativePattern,
          }
        : {
            ...base,
            currencyDecimalDigits: digits,
            currencyDecimalSeparator: s.decimalSeparator,
            currencyGroupSizes: [3],
            currencyGroupSeparator: s.groupSeparator,
            currencySymbol: s.currencySymbol,
            currencyPositivePattern: checkPattern(POSITIVE_CURRENCY_PATTERNS, s.positivePattern, 'PositivePattern'),
            currencyNegativePattern: checkPattern(NEGATIVE_CURRENCY_PATTERNS, s.negativePattern, 'NegativePattern'),
          };
    case 'Percent':
      return s.useLocale
        ? {
            ...base,
            percentDecimalDigits: digits,
            percentDecimalSeparator: own.percentDecimalSeparator,
            percentGroupSizes: own.percentGroupSizes,
            percentGroupSeparator: own.percentGroupSeparator,
            percentSymbol: own.percentSymbol,
            percentPositivePattern: own.percentPositivePattern,
            percentNegativePattern: own.percentNegativePattern,
          }
        : {
            ...base,
            percentDecimalDigits: digits,
            percentDecimalSeparator: s.decimalSeparator,
            percentGroupSizes: [3],
            percentGroupSeparator: s.groupSeparator,
            percentSymbol: s.percentSymbol,
            percentPositivePattern: checkPattern(POSITIVE_PERCENT_PATTERNS, s.positivePattern, 'PositivePattern'),
            percentNegativePattern: checkPattern(NEGATIVE_PERCENT_PATTERNS, s.negativePattern, 'NegativePattern'),
          };
    default:
      return own;
  }
}

/**
 * FastReport's FormatBase.FormatValue: the text of a non-null value under a Format object.
 * Strings pass through every format unchanged (as in .NET's String.Format); a Boolean format
 * shows other values with ToString(). null gives "" (TextObject shows NullValue instead — see
 * formatForDisplay). `type` is the value's .NET type name when known (a column's DataType:
 * "System.Double", "System.Decimal"…). Throws FormatError where .NET throws (e.g. a Date under
 * a Number format).
 */
export function applyFormat(value: unknown, spec: FormatSpec, culture: Culture = EN_US, type?: string): string {
  const s = resolveFormatSpec(spec);
  if (value === null || value === undefined) return '';
  switch (s.kind) {
    case 'General':
      return toDisplayString(value, culture, type);
    case 'Number':
      return formatValue(value, 'n', numberCulture(spec, culture), type);
    case 'Currency':
      return formatValue(value, 'c', numberCulture(spec, culture), type);
    case 'Percent':
      return formatValue(value, 'p', numberCulture(spec, culture), type);
    case 'Boolean':
      if (typeof value === 'boolean') return value ? s.trueText : s.falseText;
      return toDisplayString(value, culture, type);
    case 'Date':
    case 'Time':
    case 'Custom':
      return formatComposite(`{0:${s.format}}`, [value], culture, [type]);
  }
}

/** The .NET type of a data column, for ConvertNulls. */
export type NullType = 'string' | 'number' | 'boolean' | 'date' | 'other';

export interface DisplayOptions {
  /** TextObject.NullValue: shown for null (default ""). */
  readonly nullValue?: string;
  /** TextObject.HideZeros: numeric zero and DateTime.MinValue show as "". */
  readonly hideZeros?: boolean;
  /** TextObject.HideValue: a value whose ToString() equals this shows as "" (ignored when empty). */
  readonly hideValue?: string;
  /**
   * Report.ConvertNulls for a value read straight from a data column: FastReport turns a null
   * column value into its type's default (0, "", false, DateTime.MinValue) before formatting, so
   * NullValue is not shown. Leave false for expression results (FastReport keeps their null).
   * Default false.
   */
  readonly convertNulls?: boolean;
  /**
   * The column's type, which decides the default under convertNulls. When absent it comes from
   * `type`, else it is guessed from the format: Number/Currency/Percent → 0, Boolean → false,
   * Date/Time → DateTime.MinValue, General/Custom → "". 'other' (byte[], objects) stays null.
   */
  readonly nullType?: NullType;
  /** The value's .NET type name when known (a column's DataType), passed on to the formatters. */
  readonly type?: string;
  readonly culture?: Culture;
}

/** The ConvertNulls kind of a .NET type name: "System.Int32" → 'number', "System.String" → 'string'… */
export function nullTypeOf(type: string): NullType {
  if (normalizeTypeName(type) !== undefined) return 'number';
  const t = type
    .trim()
    .replace(/\?$/, '')
    .replace(/^System\./, '')
    .toLowerCase();
  if (t === 'string' || t === 'char') return 'string';
  if (t === 'boolean' || t === 'bool') return 'boolean';
  if (t === 'datetime' || t === 'datetimeoffset') return 'date';
  return 'other';
}

function nullDefault(type: NullType | undefined, kind: FormatKind): unknown {
  switch (type) {
    case 'string':
      return '';
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'date':
      return dateTimeMinValue();
    case 'other':
      return null;
    default:
      break;
  }
  switch (kind) {
    case 'Number':
    case 'Currency':
    case 'Percent':
      return 0;
    case 'Boolean':
      return false;
    case 'Date':
    case 'Time':
      return dateTimeMinValue();
    default:
      return '';
  }
}

function isZero(value: unknown): boolean {
  if (isNumeric(value)) {
    const c = classify(value);
    switch (c.kind) {
      case 'integer':
        return c.abs === 0n;
      case 'decimal':
        return c.digits === '';
      case 'double':
        return c.value === 0;
      default:
        return false;
    }
  }
  if (isDateValue(value)) return clockReading(value).getTime() === DATETIME_MIN_VALUE_MS;
  return false;
}

/**
 * What a TextObject shows for one expression value (TextObjectBase.FormatValue): NullValue for
 * null, otherwise the formatted value, blanked when HideValue matches value.ToString() or when
 * HideZeros is on and the value is a numeric zero or DateTime.MinValue.
 */
export function formatForDisplay(value: unknown, spec: FormatSpec, options: DisplayOptions = {}): string {
  const culture = options.culture ?? EN_US;
  let v = value;
  if (v === null || v === undefined) {
    if (!options.convertNulls) return options.nullValue ?? '';
    const nullType = options.nullType ?? (options.type === undefined ? undefined : nullTypeOf(options.type));
    v = nullDefault(nullType, resolveFormatSpec(spec).kind);
    if (v === null) return options.nullValue ?? '';
  }
  const formatted = applyFormat(v, spec, culture, options.type);
  if (
    options.hideValue !== undefined &&
    options.hideValue !== '' &&
    toDisplayString(v, culture, options.type) === options.hideValue
  ) {
    return '';
  }
  if (options.hideZeros && isZero(v)) return '';
  return formatted;
}
