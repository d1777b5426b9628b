// .NET date and time format strings (standard d D f F g G M m O o R r s t T u U Y y, and custom
// ones built from d…dddd, f…fffffff, F…FFFFFFF, g, h, hh, H, HH, K, m, mm, M…MMMM, s, ss, t, tt,
// y…yyyyy, z, zz, zzz, :, /, quoted literals, %c and \c), following "Standard date and time
// format strings" and "Custom date and time format strings" on learn.microsoft.com.
//
// Time zones. A JS Date is an instant; a .NET DateTime is a clock reading. The rule here:
//   - a plain `Date` is a DateTime whose clock reading is the Date's UTC fields, with
//     DateTimeKind.Unspecified: "K" prints nothing, "O" has no offset, "R"/"u"/"U" do not shift it.
//     The engine's "local time zone" is UTC, so "z", "zz", "zzz" print +0, +00, +00:00.
//     The data layer should therefore hand over wall-clock values: nwind.xml's
//     2013-08-04T00:00:00+04:00 becomes the Date of 2013-08-04T00:00:00Z, so "d" shows 8/4/2013
//     as the file says (an instant converted to UTC would show 8/3/2013).
//   - a `DateTimeOffsetLike` ({ utc, offsetMinutes }) is a .NET DateTimeOffset: its clock reading
//     is utc + offset; "K" and "zzz" print the offset; "R" and "u" print UTC; "U" is refused, as
//     in .NET.

import { EN_US, INVARIANT, type Culture, type DateTimeFormatInfo } from './culture.js';
import { FormatError } from './errors.js';

/** A .NET DateTimeOffset: an instant and the offset (minutes east of UTC) it was written with. */
export interface DateTimeOffsetLike {
  readonly utc: Date;
  readonly offsetMinutes: number;
}

export type DateValue = Date | DateTimeOffsetLike;

/** .NET's DateTime.MinValue (0001-01-01T00:00:00) as a Date; what ConvertNulls gives a null date. */
export const DATETIME_MIN_VALUE_MS = -62135596800000;
export function dateTimeMinValue(): Date {
  return new Date(DATETIME_MIN_VALUE_MS);
}

export function isDateTimeOffsetLike(value: unknown): value is DateTimeOffsetLike {
  if (typeof value !== 'object' || value === null || value instanceof Date) return false;
  const v = value as { utc?: unknown; offsetMinutes?: unknown };
  return v.utc instanceof Date && typeof v.offsetMinutes === 'number';
}

export function isDateValue(value: unknown): value is DateValue {
  return value instanceof Date || isDateTimeOffsetLike(value);
}

/** Builds a DateTimeOffsetLike from the clock reading (as a Date's UTC fields) and the offset. */
export function dateTimeOffset(clock: Date, offsetMinutes: number): DateTimeOffsetLike {
  return { utc: new Date(clock.getTime() - offsetMinutes * 60_000), offsetMinutes };
}

/** The clock reading of a date value, as a Date whose UTC fields hold it. */
export function clockReading(value: DateValue): Date {
  return value instanceof Date ? value : new Date(value.utc.getTime() + value.offsetMinutes * 60_000);
}

interface Moment {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Fraction of the second in 100-ns ticks, 0..9999999. */
  ticks: number;
  dayOfWeek: number; // 0 = Sunday
  /** Minutes east of UTC for a DateTimeOffset; null for a DateTime (Kind Unspecified). */
  offset: number | null;
}

function momentOf(clockMs: number, offset: number | null): Moment {
  const d = new Date(clockMs);
  if (Number.isNaN(d.getTime())) throw new FormatError('cannot format an invalid Date');
  const year = d.getUTCFullYear();
  if (year < 1 || year > 9999) {
    throw new FormatError(`cannot format the date ${d.toISOString()}: .NET dates run from year 1 to 9999`);
  }
  return {
    year,
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    ticks: d.getUTCMilliseconds() * 10_000,
    dayOfWeek: d.getUTCDay(),
    offset,
  };
}

function momentOfValue(value: DateValue): Moment {
  if (value instanceof Date) return momentOf(value.getTime(), null);
  const offset = value.offsetMinutes;
  if (!Number.isInteger(offset) || Math.abs(offset) > 14 * 60) {
    throw new FormatError(`invalid UTC offset ${offset} minutes (.NET allows whole minutes within ±14 hours)`);
  }
  return momentOf(value.utc.getTime() + offset * 60_000, offset);
}

const ROUNDTRIP_DATETIME = "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffK";
const ROUNDTRIP_OFFSET = "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffzzz";
const RFC1123 = "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'";
const SORTABLE = "yyyy'-'MM'-'dd'T'HH':'mm':'ss";
const UNIVERSAL_SORTABLE = "yyyy'-'MM'-'dd HH':'mm':'ss'Z'";

/**
 * Formats a date like .NET's `DateTime.ToString(format, culture)` (or DateTimeOffset's for a
 * DateTimeOffsetLike). An empty or missing format means "G" (DateTimeOffset: "G" plus " zzz").
 * Throws FormatError for what .NET rejects: an unknown one-letter format, more than seven "f",
 * an unclosed quote, a trailing "\" or "%".
 */
export function formatDate(value: DateValue, format?: string | null, culture: Culture = EN_US): string {
  let moment = momentOfValue(value);
  const dtfi = culture.dateTime;
  let f = format ?? '';
  if (f === '') {
    f = moment.offset === null ? 'G' : `${dtfi.shortDatePattern} ${dtfi.longTimePattern} zzz`;
  }
  if (f.length !== 1) return formatCustom(moment, f, dtfi);
  switch (f) {
    case 'd':
      return formatCustom(moment, dtfi.shortDatePattern, dtfi);
    case 'D':
      return formatCustom(moment, dtfi.longDatePattern, dtfi);
    case 'f':
      return formatCustom(moment, `${dtfi.longDatePattern} ${dtfi.shortTimePattern}`, dtfi);
    case 'F':
      return formatCustom(moment, dtfi.fullDateTimePattern, dtfi);
    case 'g':
      return formatCustom(moment, `${dtfi.shortDatePattern} ${dtfi.shortTimePattern}`, dtfi);
    case 'G':
      return formatCustom(moment, `${dtfi.shortDatePattern} ${dtfi.longTimePattern}`, dtfi);
    case 'm':
    case 'M':
      return formatCustom(moment, dtfi.monthDayPattern, dtfi);
    case 'o':
    case 'O':
      return formatCustom(moment, moment.offset === null ? ROUNDTRIP_DATETIME : ROUNDTRIP_OFFSET, INVARIANT.dateTime);
    case 'r':
    case 'R':
      return formatCustom(toUtc(moment), RFC1123, INVARIANT.dateTime);
    case 's':
      return formatCustom(moment, SORTABLE, INVARIANT.dateTime);
    case 't':
      return formatCustom(moment, dtfi.shortTimePattern, dtfi);
    case 'T':
      return formatCustom(moment, dtfi.longTimePattern, dtfi);
    case 'u':
      return formatCustom(toUtc(moment), UNIVERSAL_SORTABLE, INVARIANT.dateTime);
    case 'U':
      if (moment.offset !== null) throw new FormatError('format "U" is not valid for a DateTimeOffset value');
      moment = toUtc(moment); // a DateTime in the engine's local zone (UTC): unchanged
      return formatCustom(moment, dtfi.fullDateTimePattern, dtfi);
    case 'y':
    case 'Y':
      return formatCustom(moment, dtfi.yearMonthPattern, dtfi);
    default:
      throw new FormatError(`format "${f}": '${f}' is not a standard date and time format specifier`);
  }
}

/** A DateTimeOffset shifted to UTC; a DateTime is left as it is (its zone is the engine's, UTC). */
function toUtc(m: Moment): Moment {
  if (m.offset === null || m.offset === 0) return m;
  const clock = new Date(0);
  clock.setUTCFullYear(m.year, m.month - 1, m.day); // (Date.UTC would map years 0..99 to 19xx)
  clock.setUTCHours(m.hour, m.minute, m.second, 0);
  const out = momentOf(clock.getTime() - m.offset * 60_000, 0);
  out.ticks = m.ticks;
  return out;
}

function repeatCount(format: string, i: number): number {
  const ch = format.charAt(i);
  let n = 1;
  while (i + n < format.length && format.charAt(i + n) === ch) n++;
  return n;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function offsetText(minutes: number, digitsOnly: 'hours' | 'hours2' | 'full'): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  if (digitsOnly === 'hours') return sign + String(hours);
  if (digitsOnly === 'hours2') return sign + pad(hours, 2);
  return `${sign}${pad(hours, 2)}:${pad(abs % 60, 2)}`;
}

function formatCustom(m: Moment, format: string, dtfi: DateTimeFormatInfo): string {
  let out = '';
  let i = 0;
  while (i < format.length) {
    const ch = format.charAt(i);
    let n = 1;
    switch (ch) {
      case 'g':
        n = repeatCount(format, i);
        out += dtfi.eraName;
        break;
      case 'h':
        n = repeatCount(format, i);
        out += pad(m.hour % 12 === 0 ? 12 : m.hour % 12, n > 1 ? 2 : 1);
        break;
      case 'H':
        n = repeatCount(format, i);
        out += pad(m.hour, n > 1 ? 2 : 1);
        break;
      case 'm':
        n = repeatCount(format, i);
        out += pad(m.minute, n > 1 ? 2 : 1);
        break;
      case 's':
        n = repeatCount(format, i);
        out += pad(m.second, n > 1 ? 2 : 1);
        break;
      case 'f':
      case 'F': {
        n = repeatCount(format, i);
        if (n > 7) throw new FormatError(`format "${format}": more than seven '${ch}' specifiers`);
        let fraction = Math.floor(m.ticks / 10 ** (7 - n));
        if (ch === 'f') {
          out += pad(fraction, n);
        } else {
          let width = n;
          while (width > 0 && fraction % 10 === 0) {
            fraction /= 10;
            width--;
          }
          if (width > 0) out += pad(fraction, width);
          else if (out.endsWith('.')) out = out.slice(0, -1); // no fraction: no point before it
        }
        break;
      }
      case 't': {
        n = repeatCount(format, i);
        const designator = m.hour < 12 ? dtfi.amDesignator : dtfi.pmDesignator;
        out += n === 1 ? designator.charAt(0) : designator;
        break;
      }
      case 'd':
        n = repeatCount(format, i);
        if (n <= 2) out += pad(m.day, n);
        else if (n === 3) out += dtfi.abbreviatedDayNames[m.dayOfWeek] ?? '';
        else out += dtfi.dayNames[m.dayOfWeek] ?? '';
        break;
      case 'M':
        n = repeatCount(format, i);
        if (n <= 2) out += pad(m.month, n);
        else if (n === 3) out += dtfi.abbreviatedMonthNames[m.month - 1] ?? '';
        else out += dtfi.monthNames[m.month - 1] ?? '';
        break;
      case 'y':
        n = repeatCount(format, i);
        out += n <= 2 ? pad(m.year % 100, n) : pad(m.year, n);
        break;
      case 'z': {
        n = repeatCount(format, i);
        const offset = m.offset ?? 0; // a DateTime's zone is the engine's local zone, UTC
        out += offsetText(offset, n === 1 ? 'hours' : n === 2 ? 'hours2' : 'full');
        break;
      }
      case 'K':
        if (m.offset !== null) out += offsetText(m.offset, 'full'); // DateTime Kind Unspecified: nothing
        break;
      case ':':
        out += dtfi.timeSeparator;
        break;
      case '/':
        out += dtfi.dateSeparator;
        break;
      case "'":
      case '"': {
        let j = i + 1;
        let closed = false;
        while (j < format.length) {
          const c = format.charAt(j++);
          if (c === ch) {
            closed = true;
            break;
          }
          if (c === '\\') {
            if (j >= format.length) break;
            out += format.charAt(j++);
          } else {
            out += c;
          }
        }
        if (!closed) throw new FormatError(`format "${format}": no closing ${ch} for the quote at position ${i}`);
        n = j - i;
        break;
      }
      case '%': {
        const next = format.charAt(i + 1);
        if (next === '' || next === '%')
          throw new FormatError(`format "${format}": '%' must be followed by a format specifier`);
        out += formatCustom(m, next, dtfi);
        n = 2;
        break;
      }
      case '\\': {
        if (i + 1 >= format.length) throw new FormatError(`format "${format}" ends with an escape character`);
        out += format.charAt(i + 1);
        n = 2;
        break;
      }
      default:
        out += ch;
    }
    i += n;
  }
  return out;
}
