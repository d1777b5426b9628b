// Dates: DateTime and TimeSpan helpers (adding with .NET's range checks, day and week of the
// year, TimeSpan arguments, FormatDateTime) for the standard functions and the static and
// instance members.

import { type Ctx, format, outOfRange } from './context.js';
import { argDate, argDouble, argString } from './convert.js';
import { dateFromMs, DATETIME_MIN_MS, daysInMonth, makeDate } from './date-time.js';
import { TimeSpan } from './time-span.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { EnumVal, type Value } from './values.js';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const DAYS_OF_WEEK = DAY_NAMES.map((n, i) => new EnumVal('System.DayOfWeek', n, i));

export function addMs(d: Date, ms: number): Date {
  if (!Number.isFinite(ms)) throw outOfRange('Value to add was out of range');
  const t = Math.trunc(ms);
  const r = Math.abs(ms - t) >= 0.5 ? t + Math.sign(ms) : t;
  return dateFromMs(d.getTime() + r);
}

export function addMonths(d: Date, months: number): Date {
  if (months < -120000 || months > 120000) throw outOfRange('Months value must be between +/-120000');
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12),
    m = (total % 12) + 1;
  if (y < 1 || y > 9999) throw outOfRange('The added or subtracted value results in an un-representable DateTime');
  const day = Math.min(d.getUTCDate(), daysInMonth(y, m));
  return makeDate(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

export function dayOfYear(d: Date): number {
  const start = makeDate(d.getUTCFullYear(), 1, 1).getTime();
  return Math.floor((d.getTime() - start) / 86_400_000) + 1;
}

/** Calendar.GetWeekOfYear with en-US rules (CalendarWeekRule.FirstDay, weeks start Sunday). */
export function weekOfYear(d: Date): number {
  const jan1 = makeDate(d.getUTCFullYear(), 1, 1);
  return Math.floor((dayOfYear(d) - 1 + jan1.getUTCDay()) / 7) + 1;
}

export const dateOnly = (d: Date) => makeDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
export const ticksOf = (d: Date) => BigInt(d.getTime() - DATETIME_MIN_MS) * 10_000n;

export function timeSpanArg(v: Value, what: string): TimeSpan {
  if (v instanceof TimeSpan) return v;
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be a TimeSpan, not a ${kindName(v)}`);
}

export function fromUnit(v: Value, msPerUnit: number): TimeSpan {
  const x = argDouble(v, 'value');
  if (Number.isNaN(x))
    throw new ValueError('ArgumentException', 'TimeSpan does not accept floating point Not-a-Number values');
  return new TimeSpan(x * msPerUnit);
}

export function formatDateTime(ctx: Ctx, args: readonly Value[]): string {
  const d = argDate(args[0]!, 'value');
  if (args.length === 1) {
    const midnight = dateOnly(d).getTime();
    const fmt = midnight === DATETIME_MIN_MS ? 'T' : d.getTime() === midnight ? 'd' : 'G';
    return format(ctx, d, fmt);
  }
  const f = argString(args[1]!, 'format');
  switch (f.toLowerCase().replace(/ /g, '')) {
    case 'longdate':
      return format(ctx, d, 'D');
    case 'shortdate':
      return format(ctx, d, 'd');
    case 'longtime':
      return format(ctx, d, 'T');
    case 'shorttime':
      return format(ctx, d, 'HH:mm');
  }
  return format(ctx, d, f);
}
