// Fixed culture data: what .NET's NumberFormatInfo and DateTimeFormatInfo hold for the cultures
// this engine supports. The values are those of .NET 5+ with ICU (Linux, and Windows since .NET 5),
// i.e. CLDR data, because that is what FastReport Open Source on .NET Core shows:
//   - en-US negative currency is "-$1,234.56" (pattern 1), not the NLS-era "($1,234.56)";
//   - en-US percent is "50.00%" (patterns 1/1, no space), de-DE "50,00 %" (patterns 0/0);
//   - infinity is "∞" / "-∞" in en-US and de-DE (the invariant culture says "Infinity");
//   - time patterns use a plain space before AM/PM.
// The invariant culture is .NET's `new NumberFormatInfo()` / InvariantCulture: FastReport builds
// its Number/Currency/Percent formats on a fresh NumberFormatInfo, so its NaN/infinity symbols
// and negative sign are the invariant ones even when UseLocale is true.

export interface NumberFormatInfo {
  readonly negativeSign: string;
  readonly positiveSign: string;
  readonly nanSymbol: string;
  readonly positiveInfinitySymbol: string;
  readonly negativeInfinitySymbol: string;
  readonly perMilleSymbol: string;

  readonly numberDecimalDigits: number;
  readonly numberDecimalSeparator: string;
  readonly numberGroupSeparator: string;
  /** .NET group sizes: [3] = every 3 digits; [3, 2] = 3 then 2, 2, …; a 0 ends grouping. */
  readonly numberGroupSizes: readonly number[];
  /** 0 "(n)", 1 "-n", 2 "- n", 3 "n-", 4 "n -". */
  readonly numberNegativePattern: number;

  readonly currencySymbol: string;
  readonly currencyDecimalDigits: number;
  readonly currencyDecimalSeparator: string;
  readonly currencyGroupSeparator: string;
  readonly currencyGroupSizes: readonly number[];
  /** 0 "$n", 1 "n$", 2 "$ n", 3 "n $". */
  readonly currencyPositivePattern: number;
  /** 0..16, see NEGATIVE_CURRENCY_PATTERNS in number-standard.ts. */
  readonly currencyNegativePattern: number;

  readonly percentSymbol: string;
  readonly percentDecimalDigits: number;
  readonly percentDecimalSeparator: string;
  readonly percentGroupSeparator: string;
  readonly percentGroupSizes: readonly number[];
  /** 0 "n %", 1 "n%", 2 "%n", 3 "% n". */
  readonly percentPositivePattern: number;
  /** 0..11, see NEGATIVE_PERCENT_PATTERNS in number-standard.ts. */
  readonly percentNegativePattern: number;
}

export interface DateTimeFormatInfo {
  /** Sunday first, as .NET's DayOfWeek. */
  readonly dayNames: readonly string[];
  readonly abbreviatedDayNames: readonly string[];
  /** January first. */
  readonly monthNames: readonly string[];
  readonly abbreviatedMonthNames: readonly string[];
  readonly amDesignator: string;
  readonly pmDesignator: string;
  /** What the custom specifier "/" prints. */
  readonly dateSeparator: string;
  /** What the custom specifier ":" prints. */
  readonly timeSeparator: string;
  /** The era of the Gregorian calendar ("g", "gg"). */
  readonly eraName: string;
  readonly shortDatePattern: string; // "d"
  readonly longDatePattern: string; // "D"
  readonly shortTimePattern: string; // "t"
  readonly longTimePattern: string; // "T"
  readonly fullDateTimePattern: string; // "F", "U"
  readonly monthDayPattern: string; // "M", "m"
  readonly yearMonthPattern: string; // "Y", "y"
}

export interface Culture {
  /** .NET culture name: "en-US", "de-DE", "" for the invariant culture. */
  readonly name: string;
  readonly number: NumberFormatInfo;
  readonly dateTime: DateTimeFormatInfo;
}

const ENGLISH_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const ENGLISH_DAYS_ABBR = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const ENGLISH_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const ENGLISH_MONTHS_ABBR = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

const INVARIANT_NUMBER: NumberFormatInfo = Object.freeze({
  negativeSign: '-',
  positiveSign: '+',
  nanSymbol: 'NaN',
  positiveInfinitySymbol: 'Infinity',
  negativeInfinitySymbol: '-Infinity',
  perMilleSymbol: '\u2030',
  numberDecimalDigits: 2,
  numberDecimalSeparator: '.',
  numberGroupSeparator: ',',
  numberGroupSizes: Object.freeze([3]),
  numberNegativePattern: 1,
  currencySymbol: '\u00A4',
  currencyDecimalDigits: 2,
  currencyDecimalSeparator: '.',
  currencyGroupSeparator: ',',
  currencyGroupSizes: Object.freeze([3]),
  currencyPositivePattern: 0,
  currencyNegativePattern: 0,
  percentSymbol: '%',
  percentDecimalDigits: 2,
  percentDecimalSeparator: '.',
  percentGroupSeparator: ',',
  percentGroupSizes: Object.freeze([3]),
  percentPositivePattern: 0,
  percentNegativePattern: 0,
});

/** .NET's CultureInfo.InvariantCulture (also what O, R, s and u always use). */
export const INVARIANT: Culture = Object.freeze({
  name: '',
  number: INVARIANT_NUMBER,
  dateTime: Object.freeze({
    dayNames: ENGLISH_DAYS,
    abbreviatedDayNames: ENGLISH_DAYS_ABBR,
    monthNames: ENGLISH_MONTHS,
    abbreviatedMonthNames: ENGLISH_MONTHS_ABBR,
    amDesignator: 'AM',
    pmDesignator: 'PM',
    dateSeparator: '/',
    timeSeparator: ':',
    eraName: 'A.D.',
    shortDatePattern: 'MM/dd/yyyy',
    longDatePattern: 'dddd, dd MMMM yyyy',
    shortTimePattern: 'HH:mm',
    longTimePattern: 'HH:mm:ss',
    fullDateTimePattern: 'dddd, dd MMMM yyyy HH:mm:ss',
    monthDayPattern: 'MMMM dd',
    yearMonthPattern: 'yyyy MMMM',
  }),
});

/** English (United States), the engine's default culture. */
export const EN_US: Culture = Object.freeze({
  name: 'en-US',
  number: Object.freeze({
    ...INVARIANT_NUMBER,
    positiveInfinitySymbol: '\u221E',
    negativeInfinitySymbol: '-\u221E',
    numberNegativePattern: 1,
    currencySymbol: '$',
    currencyPositivePattern: 0,
    currencyNegativePattern: 1,
    percentPositivePattern: 1,
    percentNegativePattern: 1,
  }),
  dateTime: Object.freeze({
    ...INVARIANT.dateTime,
    shortDatePattern: 'M/d/yyyy',
    longDatePattern: 'dddd, MMMM d, yyyy',
    shortTimePattern: 'h:mm tt',
    longTimePattern: 'h:mm:ss tt',
    fullDateTimePattern: 'dddd, MMMM d, yyyy h:mm:ss tt',
    monthDayPattern: 'MMMM d',
    yearMonthPattern: 'MMMM yyyy',
  }),
});

/** German (Germany). */
export const DE_DE: Culture = Object.freeze({
  name: 'de-DE',
  number: Object.freeze({
    ...INVARIANT_NUMBER,
    positiveInfinitySymbol: '\u221E',
    negativeInfinitySymbol: '-\u221E',
    numberDecimalSeparator: ',',
    numberGroupSeparator: '.',
    numberNegativePattern: 1,
    currencySymbol: '\u20AC',
    currencyDecimalSeparator: ',',
    currencyGroupSeparator: '.',
    currencyPositivePattern: 3,
    currencyNegativePattern: 8,
    percentDecimalSeparator: ',',
    percentGroupSeparator: '.',
    percentPositivePattern: 0,
    percentNegativePattern: 0,
  }),
  dateTime: Object.freeze({
    dayNames: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
    abbreviatedDayNames: ['So.', 'Mo.', 'Di.', 'Mi.', 'Do.', 'Fr.', 'Sa.'],
    monthNames: [
      'Januar',
      'Februar',
      'März',
      'April',
      'Mai',
      'Juni',
      'Juli',
      'August',
      'September',
      'Oktober',
      'November',
      'Dezember',
    ],
    abbreviatedMonthNames: [
      'Jan.',
      'Feb.',
      'März',
      'Apr.',
      'Mai',
      'Juni',
      'Juli',
      'Aug.',
      'Sept.',
      'Okt.',
      'Nov.',
      'Dez.',
    ],
    amDesignator: 'AM',
    pmDesignator: 'PM',
    dateSeparator: '.',
    timeSeparator: ':',
    eraName: 'n. Chr.',
    shortDatePattern: 'dd.MM.yyyy',
    longDatePattern: 'dddd, d. MMMM yyyy',
    shortTimePattern: 'HH:mm',
    longTimePattern: 'HH:mm:ss',
    fullDateTimePattern: 'dddd, d. MMMM yyyy HH:mm:ss',
    monthDayPattern: 'd. MMMM',
    yearMonthPattern: 'MMMM yyyy',
  }),
});

const CULTURES: ReadonlyMap<string, Culture> = new Map([
  ['', INVARIANT],
  ['iv', INVARIANT],
  ['invariant', INVARIANT],
  ['en', EN_US],
  ['en-us', EN_US],
  ['de', DE_DE],
  ['de-de', DE_DE],
]);

/**
 * The culture of a .NET culture name ("en-US", "de-DE", "" = invariant), case-insensitively; undefined when unknown.
 */
export function getCulture(name: string): Culture | undefined {
  return CULTURES.get(name.trim().replace(/_/g, '-').toLowerCase());
}

/** Names accepted by getCulture besides the aliases. */
export const SUPPORTED_CULTURES: readonly string[] = Object.freeze(['en-US', 'de-DE', '']);

/** A copy of `culture` whose number formatting is replaced (what FastReport's Format objects do). */
export function withNumberFormat(culture: Culture, number: NumberFormatInfo): Culture {
  return { name: culture.name, number, dateTime: culture.dateTime };
}
