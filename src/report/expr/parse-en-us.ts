// Parsing en-US text as .NET does: Int32/Int64.Parse, Double.Parse, Decimal.Parse and
// DateTime.Parse (ISO 8601, US and named-month dates, a time alone).

import { type Ctx, now } from './context.js';
import { makeDate } from './date-time.js';
import { Decimal } from './decimal.js';
import { checkedIntegral } from './integral-types.js';
import { parseIsoDate } from './scope-values.js';
import { ValueError } from './value-error.js';
import type { Value } from './values.js';

const INT_TEXT_RE = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT_RE = /^\s*[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const DECIMAL_TEXT_RE = /^\s*[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)\s*$/;

function formatError(): ValueError {
  return new ValueError('FormatException', 'Input string was not in a correct format');
}

/** Int32.Parse / Int64.Parse (NumberStyles.Integer, en-US). */
export function parseIntegral(s: string, type: string): Value {
  if (!INT_TEXT_RE.test(s)) throw formatError();
  const t = s.trim().replace(/^([+-]?)0+(?=\d)/, '$1');
  // More than 25 digits is out of every integral range (and keeps BigInt parsing cheap).
  if (t.length > 25)
    throw new ValueError('OverflowException', `Value was either too large or too small for ${type.slice(7)}`);
  return checkedIntegral(BigInt(t), type);
}

/** Double.Parse (NumberStyles.Float | AllowThousands, en-US). */
export function parseDouble(s: string): number {
  const t = s.trim();
  if (t === 'NaN') return NaN;
  if (t === 'Infinity' || t === '∞' || t === '+Infinity' || t === '+∞') return Infinity;
  if (t === '-Infinity' || t === '-∞') return -Infinity;
  if (!FLOAT_TEXT_RE.test(s)) throw formatError();
  return Number(t.replace(/,/g, ''));
}

/** Decimal.Parse (NumberStyles.Number, en-US). */
export function parseDecimal(s: string): Decimal {
  if (!DECIMAL_TEXT_RE.test(s)) throw formatError();
  const d = Decimal.parse(s.replace(/,/g, ''));
  if (!d) throw formatError();
  return d;
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function monthOf(name: string): number {
  const n = name.toLowerCase().replace(/\.$/, '');
  const i = MONTH_NAMES.findIndex((m) => m === n || (n.length >= 3 && m.startsWith(n)));
  return i + 1;
}

function applyTime(d: Date, h: number, mi: number, s: number, ms: number, ampm: string | undefined): Date {
  let hour = h;
  if (ampm) {
    if (h < 1 || h > 12) throw formatError();
    const pm = ampm.toUpperCase().startsWith('P');
    hour = (h % 12) + (pm ? 12 : 0);
  }
  return makeDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), hour, mi, s, ms);
}

const TIME_PART = String.raw`(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?\s*([AaPp]\.?[Mm]\.?)?`;
const US_DATE_RE = new RegExp(String.raw`^\s*(\d{1,2})/(\d{1,2})/(\d{2,4})(?:\s+${TIME_PART})?\s*$`);
const NAMED_DATE_RE = new RegExp(
  String.raw`^\s*(?:[A-Za-z]+,\s*)?([A-Za-z]+\.?)\s+(\d{1,2}),?\s+(\d{4})(?:\s+${TIME_PART})?\s*$`,
);
const DAY_FIRST_RE = new RegExp(
  String.raw`^\s*(?:[A-Za-z]+,\s*)?(\d{1,2})\s+([A-Za-z]+\.?)\s+(\d{4})(?:\s+${TIME_PART})?\s*$`,
);
const TIME_ONLY_RE = new RegExp(String.raw`^\s*${TIME_PART}\s*$`);

/** DateTime.Parse for en-US text: ISO 8601, "7/4/1996 [1:30[:00] PM]", "July 4, 1996",
 *  "4 July 1996", or a time alone (today's date). */
export function parseDateTime(ctx: Ctx, s: string): Date {
  const iso = parseIsoDate(s);
  if (iso) return iso;
  const frac = (f: string | undefined) => (f ? Number(f.slice(0, 3).padEnd(3, '0')) : 0);
  try {
    let m = US_DATE_RE.exec(s);
    if (m) {
      let y = Number(m[3]);
      if (m[3]!.length <= 2) y += y < 50 ? 2000 : 1900;
      const d = makeDate(y, Number(m[1]), Number(m[2]));
      return m[4] ? applyTime(d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), frac(m[7]), m[8]) : d;
    }
    m = NAMED_DATE_RE.exec(s);
    if (m && monthOf(m[1]!) > 0) {
      const d = makeDate(Number(m[3]), monthOf(m[1]!), Number(m[2]));
      return m[4] ? applyTime(d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), frac(m[7]), m[8]) : d;
    }
    m = DAY_FIRST_RE.exec(s);
    if (m && monthOf(m[2]!) > 0) {
      const d = makeDate(Number(m[3]), monthOf(m[2]!), Number(m[1]));
      return m[4] ? applyTime(d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), frac(m[7]), m[8]) : d;
    }
    m = TIME_ONLY_RE.exec(s);
    if (m) return applyTime(now(ctx), Number(m[1]), Number(m[2]), Number(m[3] ?? 0), frac(m[4]), m[5]);
  } catch (e) {
    if (e instanceof ValueError)
      throw new ValueError(
        'FormatException',
        `String '${s.length > 40 ? `${s.slice(0, 40)}…` : s}' was not recognized as a valid DateTime`,
      );
    throw e;
  }
  throw new ValueError(
    'FormatException',
    `String '${s.length > 40 ? `${s.slice(0, 40)}…` : s}' was not recognized as a valid DateTime`,
  );
}
