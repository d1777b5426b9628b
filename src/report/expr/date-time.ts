// DateTime helpers (a Date whose UTC fields are the wall clock): DateTime.MinValue/MaxValue,
// .NET's range and argument checks, leap years, days in a month, the wall clock of "now".

import { MS_PER_DAY } from './time-span.js';
import { ValueError } from './value-error.js';

/** DateTime.MinValue: 0001-01-01 00:00:00. */
export const DATETIME_MIN_MS = Date.UTC(2000, 0, 1) - 730_119 * MS_PER_DAY;
/** DateTime.MaxValue: 9999-12-31 23:59:59.999. */
export const DATETIME_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A DateTime from a millisecond count, range-checked like .NET (years 1…9999). */
export function dateFromMs(ms: number): Date {
  if (!Number.isFinite(ms) || ms < DATETIME_MIN_MS || ms > DATETIME_MAX_MS) {
    throw new ValueError(
      'ArgumentOutOfRangeException',
      'The added or subtracted value results in an un-representable DateTime',
    );
  }
  return new Date(ms);
}

/** new DateTime(y, m, d, h, mi, s, ms) with .NET's argument checks. */
export function makeDate(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date {
  const bad =
    !Number.isInteger(y) ||
    y < 1 ||
    y > 9999 ||
    mo < 1 ||
    mo > 12 ||
    d < 1 ||
    d > daysInMonth(y, mo) ||
    h < 0 ||
    h > 23 ||
    mi < 0 ||
    mi > 59 ||
    s < 0 ||
    s > 59 ||
    ms < 0 ||
    ms > 999;
  if (bad)
    throw new ValueError(
      'ArgumentOutOfRangeException',
      'Year, Month, and Day parameters describe an un-representable DateTime',
    );
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  date.setUTCFullYear(y);
  return date;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m < 1 || m > 12 || y < 1 || y > 9999)
    throw new ValueError('ArgumentOutOfRangeException', 'Month must be between one and twelve');
  return [31, isLeapYear(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

/** The wall clock of "now" as a DateTime (the local fields of the machine's clock). */
export function localNow(): Date {
  const n = new Date();
  return new Date(
    Date.UTC(
      n.getFullYear(),
      n.getMonth(),
      n.getDate(),
      n.getHours(),
      n.getMinutes(),
      n.getSeconds(),
      n.getMilliseconds(),
    ),
  );
}
