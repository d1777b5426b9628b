// .NET TimeSpan format strings ("Standard TimeSpan format strings" and "Custom TimeSpan format
// strings" on learn.microsoft.com): "c"/"t"/"T" [-][d.]hh:mm:ss[.fffffff] (the default),
// "g" [-][d:]h:mm:ss[.FFFFFFF] and "G" [-]d:hh:mm:ss.fffffff (both with the culture's decimal
// separator), and custom d…dddddddd, h, hh, m, mm, s, ss, f…fffffff, F…FFFFFFF, 'literal', \c,
// %c. Unlike date formats, any other character in a custom TimeSpan format is an error, and
// custom formats never print a sign.

import { EN_US, type Culture } from './culture.js';
import { FormatError } from './errors.js';

/** A .NET TimeSpan: anything with a bigint `ticks` (100-ns units), e.g. the expression engine's TimeSpan. */
export interface TimeSpanLike {
  readonly ticks: bigint;
}

export function isTimeSpanLike(value: unknown): value is TimeSpanLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Date) &&
    typeof (value as { ticks?: unknown }).ticks === 'bigint'
  );
}

interface Parts {
  negative: boolean;
  days: bigint;
  hours: number;
  minutes: number;
  seconds: number;
  /** 0..9999999 */
  fraction: number;
}

function partsOf(ticks: bigint): Parts {
  const negative = ticks < 0n;
  const abs = negative ? -ticks : ticks;
  const totalSeconds = abs / 10_000_000n;
  return {
    negative,
    days: totalSeconds / 86_400n,
    hours: Number((totalSeconds / 3_600n) % 24n),
    minutes: Number((totalSeconds / 60n) % 60n),
    seconds: Number(totalSeconds % 60n),
    fraction: Number(abs % 10_000_000n),
  };
}

const pad = (v: number | bigint, width: number) => String(v).padStart(width, '0');

/** Formats a TimeSpan like .NET's `TimeSpan.ToString(format, culture)`; "" means "c". */
export function formatTimeSpan(value: TimeSpanLike, format?: string | null, culture: Culture = EN_US): string {
  const p = partsOf(value.ticks);
  const f = format ?? '';
  const sign = p.negative ? '-' : '';
  switch (f) {
    case '':
    case 'c':
    case 't':
    case 'T':
      return (
        `${sign}${p.days > 0n ? `${p.days}.` : ''}${pad(p.hours, 2)}:${pad(p.minutes, 2)}` +
        `:${pad(p.seconds, 2)}${p.fraction > 0 ? `.${pad(p.fraction, 7)}` : ''}`
      );
    case 'g': {
      const fraction =
        p.fraction > 0 ? culture.number.numberDecimalSeparator + pad(p.fraction, 7).replace(/0+$/, '') : '';
      return `${sign}${p.days > 0n ? `${p.days}:` : ''}${p.hours}:${pad(p.minutes, 2)}:${pad(p.seconds, 2)}${fraction}`;
    }
    case 'G':
      return (
        `${sign}${p.days}:${pad(p.hours, 2)}:${pad(p.minutes, 2)}` +
        `:${pad(p.seconds, 2)}${culture.number.numberDecimalSeparator}${pad(p.fraction, 7)}`
      );
    default:
      if (f.length === 1) throw new FormatError(`format "${f}": '${f}' is not a standard TimeSpan format specifier`);
      return formatCustom(p, f);
  }
}

function formatCustom(p: Parts, format: string): string {
  let out = '';
  let i = 0;
  while (i < format.length) {
    const ch = format.charAt(i);
    let n = 1;
    while (i + n < format.length && format.charAt(i + n) === ch) n++;
    const tooMany = (max: number) => {
      if (n > max) throw new FormatError(`format "${format}": more than ${max} '${ch}' in a row`);
    };
    switch (ch) {
      case 'd':
        tooMany(8);
        out += pad(p.days, n);
        break;
      case 'h':
        tooMany(2);
        out += pad(p.hours, n);
        break;
      case 'm':
        tooMany(2);
        out += pad(p.minutes, n);
        break;
      case 's':
        tooMany(2);
        out += pad(p.seconds, n);
        break;
      case 'f':
        tooMany(7);
        out += pad(Math.floor(p.fraction / 10 ** (7 - n)), n);
        break;
      case 'F': {
        tooMany(7);
        out += pad(Math.floor(p.fraction / 10 ** (7 - n)), n).replace(/0+$/, '');
        break;
      }
      case "'":
      case '"': {
        const close = format.indexOf(ch, i + 1);
        if (close < 0) throw new FormatError(`format "${format}": no closing ${ch} for the quote at position ${i}`);
        out += format.slice(i + 1, close);
        n = close - i + 1;
        break;
      }
      case '%': {
        const next = format.charAt(i + 1);
        if (next === '' || next === '%')
          throw new FormatError(`format "${format}": '%' must be followed by a format specifier`);
        out += formatCustom(p, next);
        n = 2;
        break;
      }
      case '\\':
        if (i + 1 >= format.length) throw new FormatError(`format "${format}" ends with an escape character`);
        out += format.charAt(i + 1);
        n = 2;
        break;
      default:
        throw new FormatError(
          `format "${format}": '${ch}' is not a TimeSpan format specifier (quote or escape literals)`,
        );
    }
    i += n;
  }
  return out;
}
