// A small en-US Formatter used when the scope brings none (tests, tools). The real .NET format
// strings live in src/report/format/; this one covers the common cases well enough:
//   numbers: "" (ToString), C, D, E, F, G, N, P, R, X with precision; custom 0 # . , % ‰ ; and
//            literals ("#,##0.00", "0.0%", "(###) ###-####");
//   dates:   "" (G), d D f F g G M O R s t T u U Y and custom d M y h H m s f t with literals;
//   TimeSpan: "" / c / g / G and custom d h m s f.

import { Decimal } from './decimal.js';
import { doubleToString, singleToString } from './number-text.js';
import { TimeSpan } from './time-span.js';
import type { Formatter } from './types.js';

const MONTHS = [
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
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

class FormatError extends Error {}

const INT_TYPES = new Set([
  'System.Int32',
  'System.Int16',
  'System.Byte',
  'System.SByte',
  'System.UInt16',
  'System.Int64',
  'System.UInt32',
  'System.UInt64',
]);

/** Default text (format ""). */
export function defaultText(value: unknown, type?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (type === 'System.Single') return singleToString(value);
    if (type !== 'System.Double' && Number.isInteger(value) && Math.abs(value) < 1e15 && !Object.is(value, -0))
      return String(value);
    if (type !== undefined && INT_TYPES.has(type) && Number.isSafeInteger(value)) return String(value);
    return doubleToString(value);
  }
  if (value instanceof Decimal || value instanceof TimeSpan) return value.toString();
  if (value instanceof Date) return formatDate(value, 'G');
  if (value instanceof Uint8Array) return 'System.Byte[]';
  if (Array.isArray(value)) return value.every((x) => typeof x === 'string') ? 'System.String[]' : 'System.Object[]';
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

export const fallbackFormatter: Formatter = {
  format(value: unknown, fmt: string, type?: string): string {
    if (value === null || value === undefined) return '';
    if (fmt === '') return defaultText(value, type);
    if (typeof value === 'number' || typeof value === 'bigint' || value instanceof Decimal)
      return formatNumber(value, fmt, type);
    if (value instanceof Date) return formatDate(value, fmt);
    if (value instanceof TimeSpan) return formatTimeSpan(value, fmt);
    return defaultText(value, type);
  },
};

// ---------------------------------------------------------------------------------------------
// Numbers

function toDecimal(v: number | bigint | Decimal): Decimal {
  if (v instanceof Decimal) return v;
  if (typeof v === 'bigint') return Decimal.fromInteger(v);
  return Decimal.fromNumber(v);
}

function group(intDigits: string): string {
  let out = '';
  for (let i = 0; i < intDigits.length; i++) {
    if (i > 0 && (intDigits.length - i) % 3 === 0) out += ',';
    out += intDigits[i];
  }
  return out;
}

/** |d| rounded (away from zero) to `digits` decimals, as [integer digits, fraction digits]. */
function fixedParts(d: Decimal, digits: number): [string, string] {
  const r = digits <= 28 ? d.abs().round(digits, 'away') : d.abs();
  const s = r.toString();
  const dot = s.indexOf('.');
  const int = dot < 0 ? s : s.slice(0, dot);
  let frac = dot < 0 ? '' : s.slice(dot + 1);
  frac = frac.padEnd(digits, '0').slice(0, digits);
  return [int, frac];
}

function isNegative(d: Decimal, digits: number): boolean {
  return d.sign < 0 && !(digits <= 28 && d.abs().round(digits, 'away').isZero());
}

function formatNumber(v: number | bigint | Decimal, fmt: string, type?: string): string {
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '∞' : '-∞';
  const std = /^([A-Za-z])(\d{0,9})$/.exec(fmt);
  if (!std) return customNumber(toDecimal(v), fmt);
  const letter = std[1]!;
  const p = std[2] === '' ? undefined : Number(std[2]);
  const isInt =
    typeof v === 'bigint' ||
    (typeof v === 'number' && Number.isInteger(v) && type !== 'System.Double' && type !== 'System.Single');
  const d = toDecimal(v);
  switch (letter.toUpperCase()) {
    case 'C': {
      const digits = p ?? 2;
      const [i, f] = fixedParts(d, digits);
      const body = `$${group(i)}${f ? `.${f}` : ''}`;
      return isNegative(d, digits) ? `-${body}` : body;
    }
    case 'D': {
      if (!isInt) throw new FormatError('Format specifier was invalid.');
      const s = d
        .abs()
        .toString()
        .padStart(p ?? 0, '0');
      return d.sign < 0 ? `-${s}` : s;
    }
    case 'E': {
      const digits = p ?? 6;
      if (d.isZero()) return `0${digits ? `.${'0'.repeat(digits)}` : ''}${letter}+000`;
      const a = d.abs();
      const s = a.coef.toString();
      const exp = s.length - 1 - a.scale;
      const m = Decimal.of(a.coef, s.length - 1).round(digits, 'away');
      let [mi, mf] = fixedParts(m, digits);
      let e = exp;
      if (mi === '10') {
        mi = '1';
        mf = `0${mf}`.slice(0, digits);
        e++;
      }
      const exponent = `${letter}${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(3, '0')}`;
      return `${d.sign < 0 ? '-' : ''}${mi}${mf ? `.${mf}` : ''}${exponent}`;
    }
    case 'F':
    case 'N': {
      const digits = p ?? 2;
      const [i, f] = fixedParts(d, digits);
      const body = `${letter.toUpperCase() === 'N' ? group(i) : i}${f ? `.${f}` : ''}`;
      return isNegative(d, digits) ? `-${body}` : body;
    }
    case 'P': {
      const digits = p ?? 2;
      const h = d.mul(Decimal.fromInteger(100));
      const [i, f] = fixedParts(h, digits);
      const body = `${group(i)}${f ? `.${f}` : ''}%`;
      return isNegative(h, digits) ? `-${body}` : body;
    }
    case 'G':
    case 'R': {
      if (p === undefined || p === 0 || letter.toUpperCase() === 'R') return defaultText(v, type);
      const a = d.abs();
      if (a.isZero()) return '0';
      const s = a.coef.toString();
      const exp = s.length - 1 - a.scale;
      const sig = Decimal.of(a.coef, s.length - 1)
        .round(p - 1, 'away')
        .stripTrailingZeros();
      let [si, sf] = sig.toString().split('.') as [string, string | undefined];
      let e = exp;
      if (si === '10') {
        si = '1';
        sf = undefined;
        e++;
      }
      const digits = si + (sf ?? '');
      const sign = d.sign < 0 ? '-' : '';
      if (e >= p || e < -4) {
        const exponent = `${letter === 'g' ? 'e' : 'E'}${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
        return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}${exponent}`;
      }
      return sign + Decimal.of(BigInt(digits), digits.length - 1 - e).toString();
    }
    case 'X': {
      if (!isInt) throw new FormatError('Format specifier was invalid.');
      let n = d.toBigInt();
      if (n < 0n) n = BigInt.asUintN(type === 'System.Int64' || typeof v === 'bigint' ? 64 : 32, n);
      const s = n.toString(16).padStart(p ?? 0, '0');
      return letter === 'X' ? s.toUpperCase() : s;
    }
  }
  return customNumber(d, fmt);
}

/** Splits a custom format into sections on unquoted ';'. */
function sections(fmt: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (quote) {
      if (c === quote) quote = '';
      cur += c;
    } else if (c === '\\' && i + 1 < fmt.length) {
      cur += c + fmt[++i]!;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === ';') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function customNumber(d: Decimal, fmt: string): string {
  const secs = sections(fmt);
  let sec = secs[0]!;
  let value = d;
  let explicitNegative = false;
  if (d.sign < 0 && secs.length >= 2 && secs[1] !== '') {
    sec = secs[1]!;
    value = d.abs();
    explicitNegative = true;
  } else if (d.isZero() && secs.length >= 3 && secs[2] !== '') {
    sec = secs[2]!;
  }
  // Analyse the section.
  type Tok = { kind: 'ph'; ch: '0' | '#'; frac: boolean } | { kind: 'lit'; text: string } | { kind: 'dot' };
  const toks: Tok[] = [];
  let seenDot = false;
  let grouping = false;
  let scale = 0;
  let pct = 0;
  let pendingCommas = 0;
  let quote = '';
  for (let i = 0; i < sec.length; i++) {
    const c = sec[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else toks.push({ kind: 'lit', text: c });
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      continue;
    }
    if (c === '\\') {
      if (i + 1 < sec.length) toks.push({ kind: 'lit', text: sec[++i]! });
      continue;
    }
    if (c === '0' || c === '#') {
      if (pendingCommas && !seenDot && toks.some((t) => t.kind === 'ph')) grouping = true;
      pendingCommas = 0;
      toks.push({ kind: 'ph', ch: c, frac: seenDot });
    } else if (c === '.') {
      if (!seenDot) {
        scale += pendingCommas;
        pendingCommas = 0;
        seenDot = true;
        toks.push({ kind: 'dot' });
      }
    } else if (c === ',') {
      if (!seenDot) pendingCommas++;
    } else {
      if (c === '%') pct += 2;
      if (c === '‰') pct += 3;
      toks.push({ kind: 'lit', text: c });
    }
  }
  if (!seenDot) scale += pendingCommas;
  const intPh = toks.filter((t): t is Extract<Tok, { kind: 'ph' }> => t.kind === 'ph' && !t.frac);
  const fracPh = toks.filter((t): t is Extract<Tok, { kind: 'ph' }> => t.kind === 'ph' && t.frac);
  const firstZero = intPh.findIndex((t) => t.ch === '0');
  const minInt = firstZero < 0 ? 0 : intPh.length - firstZero;
  const maxFrac = fracPh.length;
  let lastZero = -1;
  fracPh.forEach((t, i) => {
    if (t.ch === '0') lastZero = i;
  });
  const minFrac = lastZero + 1;

  const shift = pct - scale * 3;
  let v = value;
  if (shift > 0) v = v.mul(Decimal.of(10n ** BigInt(shift), 0));
  else if (shift < 0) v = v.div(Decimal.of(10n ** BigInt(-shift), 0));
  let [intDigits, fracDigits] = fixedParts(v, maxFrac);
  if (intDigits === '0') intDigits = '';
  intDigits = intDigits.padStart(minInt, '0');
  fracDigits = fracDigits.replace(/0+$/, '');
  if (fracDigits.length < minFrac) fracDigits = fracDigits.padEnd(minFrac, '0');
  const negative =
    !explicitNegative && v.sign < 0 && (intDigits.replace(/0/g, '') !== '' || fracDigits.replace(/0/g, '') !== '');

  let out = '';
  const excess = intDigits.length - intPh.length;
  let phIndex = 0;
  let emitted = 0;
  const emitDigit = (ch: string) => {
    out += ch;
    emitted++;
    const fromRight = intDigits.length - emitted;
    if (grouping && fromRight > 0 && fromRight % 3 === 0) out += ',';
  };
  let fracIndex = 0;
  for (const t of toks) {
    if (t.kind === 'lit') out += t.text;
    else if (t.kind === 'dot') {
      if (fracDigits.length > 0) out += '.';
    } else if (!t.frac) {
      if (phIndex === 0) for (let k = 0; k < excess; k++) emitDigit(intDigits[k]!);
      const idx = excess + phIndex;
      if (idx >= 0) emitDigit(intDigits[idx]!);
      phIndex++;
    } else {
      if (fracIndex < fracDigits.length) out += fracDigits[fracIndex];
      fracIndex++;
    }
  }
  if (intPh.length === 0 && excess > 0 && intDigits !== '') out = intDigits + out;
  return negative ? `-${out}` : out;
}

// ---------------------------------------------------------------------------------------------
// Dates

const STANDARD_DATE: Record<string, string> = {
  d: 'M/d/yyyy',
  D: 'dddd, MMMM d, yyyy',
  f: 'dddd, MMMM d, yyyy h:mm tt',
  F: 'dddd, MMMM d, yyyy h:mm:ss tt',
  g: 'M/d/yyyy h:mm tt',
  G: 'M/d/yyyy h:mm:ss tt',
  m: 'MMMM d',
  M: 'MMMM d',
  o: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffff",
  O: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffff",
  r: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'",
  R: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'",
  s: "yyyy'-'MM'-'dd'T'HH':'mm':'ss",
  t: 'h:mm tt',
  T: 'h:mm:ss tt',
  u: "yyyy'-'MM'-'dd HH':'mm':'ss'Z'",
  U: 'dddd, MMMM d, yyyy h:mm:ss tt',
  y: 'MMMM yyyy',
  Y: 'MMMM yyyy',
};

export function formatDate(date: Date, fmt: string): string {
  const pattern = fmt.length === 1 ? STANDARD_DATE[fmt] : fmt;
  if (pattern === undefined) throw new FormatError('Input string was not in a correct format.');
  const y = date.getUTCFullYear(),
    mo = date.getUTCMonth(),
    d = date.getUTCDate();
  const h = date.getUTCHours(),
    mi = date.getUTCMinutes(),
    s = date.getUTCSeconds(),
    ms = date.getUTCMilliseconds();
  let out = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    let n = 1;
    while (pattern[i + n] === c) n++;
    const pad = (v: number, w: number) => String(v).padStart(w, '0');
    switch (c) {
      case 'd':
        out +=
          n === 1 ? d : n === 2 ? pad(d, 2) : n === 3 ? DAYS[date.getUTCDay()]!.slice(0, 3) : DAYS[date.getUTCDay()];
        break;
      case 'M':
        out += n === 1 ? mo + 1 : n === 2 ? pad(mo + 1, 2) : n === 3 ? MONTHS[mo]!.slice(0, 3) : MONTHS[mo];
        break;
      case 'y':
        out += n === 1 ? y % 100 : n === 2 ? pad(y % 100, 2) : pad(y, n);
        break;
      case 'h':
        out += n === 1 ? h % 12 || 12 : pad(h % 12 || 12, 2);
        break;
      case 'H':
        out += n === 1 ? h : pad(h, 2);
        break;
      case 'm':
        out += n === 1 ? mi : pad(mi, 2);
        break;
      case 's':
        out += n === 1 ? s : pad(s, 2);
        break;
      case 'f':
      case 'F': {
        let f = (pad(ms, 3) + '0000').slice(0, Math.min(n, 7));
        if (c === 'F') f = f.replace(/0+$/, '');
        out += f;
        break;
      }
      case 't':
        out += n === 1 ? (h < 12 ? 'A' : 'P') : h < 12 ? 'AM' : 'PM';
        break;
      case 'g':
        out += 'A.D.';
        break;
      case 'K':
      case 'z':
        break;
      case "'":
      case '"': {
        const close = pattern.indexOf(c, i + 1);
        if (close < 0) throw new FormatError('Cannot find a matching quote character.');
        out += pattern.slice(i + 1, close);
        i = close + 1;
        continue;
      }
      case '\\':
        out += pattern[i + 1] ?? '';
        i += 2;
        continue;
      case '%':
        i++;
        continue;
      default:
        out += c.repeat(n);
    }
    i += n;
  }
  return out;
}

function formatTimeSpan(t: TimeSpan, fmt: string): string {
  if (fmt === 'c' || fmt === 't' || fmt === 'T') return t.toString();
  const neg = t.ms < 0;
  const a = Math.abs(t.ms);
  const d = Math.trunc(a / 86_400_000),
    h = Math.trunc(a / 3_600_000) % 24,
    m = Math.trunc(a / 60_000) % 60,
    s = Math.trunc(a / 1000) % 60;
  const frac = Math.round((a % 1000) * 10_000);
  if (fmt === 'g' || fmt === 'G') {
    const f =
      fmt === 'G'
        ? `.${String(frac).padStart(7, '0')}`
        : frac
          ? `.${String(frac).padStart(7, '0').replace(/0+$/, '')}`
          : '';
    return (
      `${neg ? '-' : ''}${d || fmt === 'G' ? `${d}:` : ''}${fmt === 'G' ? String(h).padStart(2, '0') : h}` +
      `:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${f}`
    );
  }
  let out = '';
  for (let i = 0; i < fmt.length; ) {
    const c = fmt[i]!;
    let n = 1;
    while (fmt[i + n] === c) n++;
    const pad = (v: number) => String(v).padStart(n, '0');
    switch (c) {
      case 'd':
        out += pad(d);
        break;
      case 'h':
        out += pad(h);
        break;
      case 'm':
        out += pad(m);
        break;
      case 's':
        out += pad(s);
        break;
      case 'f':
      case 'F':
        out += String(frac).padStart(7, '0').slice(0, n);
        break;
      case '\\':
        out += fmt[i + 1] ?? '';
        i += 2;
        continue;
      case "'":
      case '"': {
        const close = fmt.indexOf(c, i + 1);
        if (close < 0) throw new FormatError('Input string was not in a correct format.');
        out += fmt.slice(i + 1, close);
        i = close + 1;
        continue;
      }
      default:
        throw new FormatError('Input string was not in a correct format.');
    }
    i += n;
  }
  return out;
}
