// Scope values → internal values: what a scope hands in for a name (a JS value and its declared
// .NET type) made into an internal value of that type, and the ISO 8601 date and TimeSpan text
// parsers it uses.

import { formatValue, INVARIANT } from '../format/index.js';
import { makeDate } from './date-time.js';
import { Decimal } from './decimal.js';
import { MS_PER_DAY, TimeSpan } from './time-span.js';
import { canonicalType, INT_TYPES, LONG_TYPES } from './type-names.js';
import { ValueError } from './value-error.js';
import { Chr, Dbl, Flt, inferValue, NullOf, type Value } from './values.js';

/** What a scope hands in for a name (see Scope in types.ts). */
export interface ResolvedInput {
  value: unknown;
  type?: string | undefined;
  decimalText?: string | undefined;
  offsetMinutes?: number | null | undefined;
}

function bad(v: unknown, type: string): ValueError {
  const shown = typeof v === 'string' ? `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"` : typeof v;
  return new ValueError('InvalidCastException', `${shown} is not a valid ${type}`);
}

/** A scope's value (JS value + declared .NET type) → internal value of that type. */
export function fromResolved(r: ResolvedInput): Value {
  const type = canonicalType(r.type);
  let v = r.value;
  if (v === undefined || v === null) return NullOf.of(type);
  if (v instanceof Date && r.offsetMinutes !== undefined && r.offsetMinutes !== null)
    v = new Date(v.getTime() + r.offsetMinutes * 60_000);
  if (type === undefined || type === 'System.Object') return inferValue(v);
  if (INT_TYPES.has(type)) {
    const n =
      typeof v === 'number'
        ? v
        : typeof v === 'bigint'
          ? Number(v)
          : typeof v === 'boolean'
            ? v
              ? 1
              : 0
            : v instanceof Decimal
              ? v.toNumber()
              : typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)
                ? Number(v)
                : NaN;
    if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw bad(v, type);
    return n;
  }
  if (LONG_TYPES.has(type)) {
    try {
      if (typeof v === 'bigint') return BigInt.asIntN(64, v);
      if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
      if (typeof v === 'string' && v.length <= 40 && /^\s*[+-]?\d+\s*$/.test(v))
        return BigInt.asIntN(64, BigInt(v.trim()));
      if (v instanceof Decimal) return v.toBigInt();
    } catch {
      /* fall through */
    }
    throw bad(v, type);
  }
  switch (type) {
    case 'System.Double':
    case 'System.Single': {
      const n =
        typeof v === 'number'
          ? v
          : typeof v === 'bigint'
            ? Number(v)
            : v instanceof Decimal
              ? v.toNumber()
              : typeof v === 'string' && v.trim() !== ''
                ? Number(v)
                : NaN;
      if (Number.isNaN(n) && !(typeof v === 'number' || (typeof v === 'string' && v.trim() === 'NaN')))
        throw bad(v, type);
      return type === 'System.Double' ? new Dbl(n) : new Flt(n);
    }
    case 'System.Decimal': {
      if (r.decimalText !== undefined) {
        const d = Decimal.parse(r.decimalText);
        if (d) return d;
      }
      if (v instanceof Decimal) return v;
      if (typeof v === 'number') return Decimal.fromNumber(v);
      if (typeof v === 'bigint') return Decimal.fromInteger(v);
      if (typeof v === 'string') {
        const d = Decimal.parse(v);
        if (d) return d;
      }
      throw bad(v, type);
    }
    case 'System.String':
      if (typeof v === 'string') return v;
      if (typeof v === 'boolean') return v ? 'True' : 'False';
      // A number as .NET's Double.ToString() writes it (shortest round-trip digits, invariant).
      if (typeof v === 'number')
        return Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : formatValue(v, null, INVARIANT, 'System.Double');
      if (typeof v === 'bigint' || v instanceof Decimal) return v.toString();
      return inferValue(v); // shown as text by whoever prints it
    case 'System.Boolean':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      if (typeof v === 'string' && /^\s*(true|false)\s*$/i.test(v)) return v.trim().toLowerCase() === 'true';
      throw bad(v, type);
    case 'System.DateTime':
      if (v instanceof Date) {
        if (Number.isNaN(v.getTime())) throw bad(v, type);
        return v;
      }
      if (typeof v === 'string') {
        const d = parseIsoDate(v);
        if (d) return d;
      }
      throw bad(v, type);
    case 'System.TimeSpan':
      if (v instanceof TimeSpan) return v;
      if (typeof v === 'string') {
        const t = parseTimeSpan(v);
        if (t) return t;
      }
      throw bad(v, type);
    case 'System.Char':
      if (typeof v === 'string' && v.length > 0) return new Chr(v.charCodeAt(0));
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff) return new Chr(v);
      throw bad(v, type);
    case 'System.Byte[]':
      if (v instanceof Uint8Array) return v;
      if (v instanceof ArrayBuffer) return new Uint8Array(v);
      throw bad(v, type);
  }
  return inferValue(v);
}

const ISO_DATE_RE =
  /^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/;

/** ISO 8601 date / date-time text → DateTime (the written wall clock; an offset is ignored). */
export function parseIsoDate(text: string): Date | undefined {
  const m = ISO_DATE_RE.exec(text);
  if (!m) return undefined;
  try {
    return makeDate(
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      Number(m[4] ?? 0),
      Number(m[5] ?? 0),
      Number(m[6] ?? 0),
      m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0,
    );
  } catch {
    return undefined;
  }
}

/** "[-][d.]hh:mm[:ss[.fffffff]]" → TimeSpan. */
export function parseTimeSpan(text: string): TimeSpan | undefined {
  const m = /^\s*(-)?(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?\s*$/.exec(text);
  if (!m) {
    const days = /^\s*(-)?(\d+)\s*$/.exec(text);
    return days ? new TimeSpan((days[1] ? -1 : 1) * Number(days[2]) * MS_PER_DAY) : undefined;
  }
  const h = Number(m[3]),
    mi = Number(m[4]),
    s = Number(m[5] ?? 0);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const frac = m[6] ? Number(m[6].padEnd(7, '0')) / 10_000 : 0;
  const ms = Number(m[2] ?? 0) * MS_PER_DAY + h * 3_600_000 + mi * 60_000 + s * 1000 + frac;
  return new TimeSpan(m[1] ? -ms : ms);
}
