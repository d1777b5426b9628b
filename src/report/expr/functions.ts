// The only things an expression can call or read besides the scope: FastReport's standard
// functions, a fixed set of .NET static members (Math, Convert, String, DateTime…), and per-type
// allow-lists of instance members (string, DateTime, TimeSpan, numbers…). Everything is looked
// up in Maps by exact (case-sensitive, C#) name; nothing here reads a property of a JS object by
// a name taken from the expression.

import { charge, checkLength, concat, type Ctx, cv, fail, format, isNullish, lookupName, now, str } from './context.js';
import {
  argChar,
  argDate,
  argDouble,
  argInt,
  argString,
  asDouble,
  asLong,
  convertTo,
  DOUBLE,
  FLOAT,
  isNumeric,
  numKind,
  parseDateTime,
  parseDecimal,
  parseDouble,
  parseIntegral,
  promote,
  roundDouble,
  toKind,
} from './convert.js';
import { compare, equals } from './ops.js';
import {
  ArrayVal,
  Chr,
  DATETIME_MAX_MS,
  DATETIME_MIN_MS,
  dateFromMs,
  daysInMonth,
  Dbl,
  Decimal,
  EnumVal,
  Flt,
  isLeapYear,
  kindName,
  makeDate,
  NullOf,
  parseTimeSpan,
  TimeSpan,
  ValueError,
  type RoundingMode,
  type Value,
} from './values.js';

/** How a function gets its arguments: through ConvertNulls (default), raw (a null read from
 *  data stays distinguishable), lazily (the function evaluates what it needs), or the
 *  IsNull special form. */
export type ArgMode = 'cv' | 'raw' | 'lazy' | 'isnull';

export interface FnDef {
  readonly min: number;
  readonly max: number;
  readonly mode: ArgMode;
  /** `args` are evaluated arguments (none for 'lazy'); `arg(i)` evaluates argument i raw. */
  readonly fn: (ctx: Ctx, args: readonly Value[], arg: (i: number) => Value, argc: number) => Value;
}

const def = (min: number, max: number, fn: (ctx: Ctx, args: readonly Value[]) => Value, mode: ArgMode = 'cv'): FnDef => ({ min, max, mode, fn });
const lazy = (min: number, max: number, fn: (ctx: Ctx, arg: (i: number) => Value, argc: number) => Value): FnDef => ({
  min,
  max,
  mode: 'lazy',
  fn: (ctx, _args, arg, argc) => fn(ctx, arg, argc),
});

const outOfRange = (what: string) => new ValueError('ArgumentOutOfRangeException', what);
const nullRef = (what: string) => new ValueError('NullReferenceException', `Object reference not set to an instance of an object (${what} on null)`);

// ---------------------------------------------------------------------------------------------
// Strings (.NET semantics)

const WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM_START = new RegExp(`^[${WS}]+`);
const TRIM_END = new RegExp(`[${WS}]+$`);
const IS_WS = new RegExp(`^[${WS}]$`);

function trimChars(s: string, chars: readonly number[] | null, start: boolean, end: boolean): string {
  if (chars === null || chars.length === 0) {
    let r = s;
    if (start) r = r.replace(TRIM_START, '');
    if (end) r = r.replace(TRIM_END, '');
    return r;
  }
  const set = new Set(chars);
  let i = 0, j = s.length;
  if (start) while (i < j && set.has(s.charCodeAt(i))) i++;
  if (end) while (j > i && set.has(s.charCodeAt(j - 1))) j--;
  return s.slice(i, j);
}

/** Case mapping that keeps the length, as .NET's char-by-char ToUpper/ToLower does. */
function mapCase(s: string, upper: boolean): string {
  const r = upper ? s.toUpperCase() : s.toLowerCase();
  if (r.length === s.length) return r;
  let out = '';
  for (const ch of s) {
    const m = upper ? ch.toUpperCase() : ch.toLowerCase();
    out += m.length === ch.length ? m : ch;
  }
  return out;
}

function substring(s: string, start: number, len?: number): string {
  if (start < 0 || start > s.length) throw outOfRange('startIndex cannot be larger than length of string');
  if (len === undefined) return s.slice(start);
  if (len < 0 || start + len > s.length) throw outOfRange('Index and length must refer to a location within the string');
  return s.slice(start, start + len);
}

function remove(s: string, start: number, count?: number): string {
  if (count === undefined) {
    if (start < 0 || start >= s.length) throw outOfRange('startIndex must be less than length of string');
    return s.slice(0, start);
  }
  if (start < 0 || count < 0 || start + count > s.length) throw outOfRange('Index and count must refer to a location within the string');
  return s.slice(0, start) + s.slice(start + count);
}

function insert(ctx: Ctx, s: string, start: number, value: Value): string {
  if (value === null) throw new ValueError('ArgumentNullException', 'Value cannot be null');
  const v = argString(value, 'value');
  if (start < 0 || start > s.length) throw outOfRange('startIndex cannot be larger than length of string');
  checkLength(ctx, s.length + v.length);
  return s.slice(0, start) + v + s.slice(start);
}

function replace(ctx: Ctx, s: string, oldV: Value, newV: Value): string {
  if (oldV === null) throw new ValueError('ArgumentNullException', 'Value cannot be null (oldValue)');
  const o = argString(oldV, 'oldValue');
  if (o === '') throw new ValueError('ArgumentException', 'String cannot be of zero length (oldValue)');
  const n = newV === null ? '' : argString(newV, 'newValue');
  let count = 0;
  for (let i = s.indexOf(o); i >= 0; i = s.indexOf(o, i + o.length)) if ((++count & 1023) === 0) charge(ctx, 1);
  if (count === 0) return s;
  checkLength(ctx, s.length + count * (n.length - o.length));
  return s.replaceAll(o, () => n);
}

function pad(ctx: Ctx, s: string, width: number, ch: number, left: boolean): string {
  if (width < 0) throw outOfRange('totalWidth cannot be negative');
  if (width <= s.length) return s;
  checkLength(ctx, width);
  const fill = String.fromCharCode(ch).repeat(width - s.length);
  return left ? fill + s : s + fill;
}

function ignoreCaseOf(v: Value | undefined): boolean {
  if (typeof v === 'boolean') return v;
  if (v instanceof EnumVal && v.type === 'System.StringComparison') return v.name.endsWith('IgnoreCase');
  return false;
}

function searchText(v: Value, what: string): string {
  if (v === null) throw new ValueError('ArgumentNullException', `Value cannot be null (${what})`);
  if (v instanceof Chr) return v.toString();
  return argString(v, what);
}

function indexOf(s: string, args: readonly Value[], last: boolean): number {
  let value = searchText(args[0]!, 'value');
  let i = 1;
  let start: number | undefined;
  let count: number | undefined;
  if (typeof args[i] === 'number') start = args[i++] as number;
  if (typeof args[i] === 'number') count = args[i++] as number;
  let hay = s;
  if (ignoreCaseOf(args[i])) {
    hay = s.toLowerCase().length === s.length ? s.toLowerCase() : s;
    value = value.toLowerCase();
  }
  if (!last) {
    const from = start ?? 0;
    if (from < 0 || from > s.length) throw outOfRange('Index was out of range');
    const to = count === undefined ? s.length : from + count;
    if (count !== undefined && (count < 0 || to > s.length)) throw outOfRange('Count must be positive and count must refer to a location within the string');
    const r = hay.slice(0, to).indexOf(value, from);
    return r;
  }
  const from = start ?? s.length - 1;
  if (s.length === 0) return value === '' ? 0 : -1;
  if (from < 0 || from >= s.length) throw outOfRange('Index was out of range');
  const lo = count === undefined ? 0 : from - count + 1;
  if (lo < 0) throw outOfRange('Count must be positive and count must refer to a location within the string');
  const r = hay.lastIndexOf(value, from - value.length + 1);
  return r >= lo ? r : -1;
}

function startsEnds(s: string, args: readonly Value[], ends: boolean): boolean {
  let value = searchText(args[0]!, 'value');
  let hay = s;
  if (ignoreCaseOf(args[1])) {
    hay = s.toLowerCase();
    value = value.toLowerCase();
  }
  return ends ? hay.endsWith(value) : hay.startsWith(value);
}

function split(ctx: Ctx, s: string, args: readonly Value[]): ArrayVal {
  const seps: string[] = [];
  let count = 2147483647;
  let options = 0;
  for (const a of args) {
    if (a instanceof Chr) seps.push(a.toString());
    else if (typeof a === 'string') seps.push(a);
    else if (typeof a === 'number') count = a;
    else if (a instanceof EnumVal && a.type === 'System.StringSplitOptions') options |= a.value;
    else if (a instanceof ArrayVal) for (let i = 0; i < a.length; i++) seps.push(str(ctx, a.get(i)));
    else if (a !== null) throw new ValueError('ArgumentException', `Split does not take a ${kindName(a)}`);
  }
  if (count < 0) throw outOfRange('Count cannot be less than zero');
  const parts: string[] = [];
  const useWs = seps.length === 0 || seps.every((x) => x === '');
  let from = 0;
  let i = 0;
  while (i <= s.length && parts.length < count - 1) {
    let len = -1;
    if (i < s.length) {
      if (useWs) {
        if (IS_WS.test(s[i]!)) len = 1;
      } else {
        for (const sep of seps) {
          if (sep !== '' && s.startsWith(sep, i)) {
            len = sep.length;
            break;
          }
        }
      }
    }
    if (len > 0) {
      parts.push(s.slice(from, i));
      if ((parts.length & 1023) === 0) charge(ctx, 1024);
      i += len;
      from = i;
    } else i++;
  }
  if (count > 0) parts.push(s.slice(from));
  let out = parts;
  if (options & 2) out = out.map((p) => trimChars(p, null, true, true));
  if (options & 1) out = out.filter((p) => p !== '');
  return ArrayVal.of(out, 'System.String');
}

/** TextInfo.ToTitleCase (en-US): each word's first letter upper, the rest lower, words written
 *  all in capitals left alone. Letters and apostrophes make words. */
export function titleCase(s: string): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    if (!/\p{L}/u.test(s[i]!)) {
      out += s[i++];
      continue;
    }
    let j = i;
    while (j < s.length && (/[\p{L}\p{M}]/u.test(s[j]!) || ((s[j] === "'" || s[j] === '’') && /\p{L}/u.test(s[j + 1] ?? '')))) j++;
    const word = s.slice(i, j);
    const letters = word.replace(/[^\p{L}]/gu, '');
    if (letters.length > 1 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) out += word;
    else out += mapCase(word[0]!, true) + mapCase(word.slice(1), false);
    i = j;
  }
  return out;
}

function stringCompare(a: Value, b: Value, ignoreCase: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  const x = argString(a), y = argString(b);
  const c = x.localeCompare(y, 'en-US', { sensitivity: ignoreCase ? 'accent' : 'variant' });
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Composite formatting: String.Format("{0:N2} of {1,8}", …)

function formatItem(ctx: Ctx, v: Value, fmt: string): string {
  if (v === null || v instanceof NullOf) return '';
  if (fmt === '' || typeof v === 'string' || typeof v === 'boolean' || v instanceof Chr) return str(ctx, v);
  if (v instanceof EnumVal) return /^[dDxX]$/.test(fmt) ? String(v.value) : v.name;
  return format(ctx, v, fmt);
}

export function composite(ctx: Ctx, fmt: string, args: readonly Value[]): string {
  const bad = () => new ValueError('FormatException', 'Input string was not in a correct format');
  let out = '';
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i]!;
    if (c === '}') {
      if (fmt[i + 1] !== '}') throw bad();
      out += '}';
      i += 2;
      continue;
    }
    if (c !== '{') {
      const next = fmt.slice(i).search(/[{}]/);
      const chunk = next < 0 ? fmt.slice(i) : fmt.slice(i, i + next);
      out += chunk;
      i += chunk.length;
      continue;
    }
    if (fmt[i + 1] === '{') {
      out += '{';
      i += 2;
      continue;
    }
    i++;
    const idx = /^\s*(\d{1,6})\s*/.exec(fmt.slice(i, i + 40));
    if (!idx) throw bad();
    i += idx[0].length;
    let align = 0;
    if (fmt[i] === ',') {
      const m = /^,\s*(-?\d{1,6})\s*/.exec(fmt.slice(i, i + 40));
      if (!m) throw bad();
      align = Number(m[1]);
      i += m[0].length;
    }
    let itemFmt = '';
    if (fmt[i] === ':') {
      i++;
      for (;;) {
        const ch = fmt[i];
        if (ch === undefined) throw bad();
        if (ch === '}') {
          if (fmt[i + 1] === '}') {
            itemFmt += '}';
            i += 2;
            continue;
          }
          break;
        }
        if (ch === '{') {
          if (fmt[i + 1] === '{') {
            itemFmt += '{';
            i += 2;
            continue;
          }
          throw bad();
        }
        itemFmt += ch;
        i++;
      }
    }
    if (fmt[i] !== '}') throw bad();
    i++;
    const n = Number(idx[1]);
    if (n >= args.length) throw new ValueError('FormatException', 'Index (zero based) must be greater than or equal to zero and less than the size of the argument list');
    let s = formatItem(ctx, args[n]!, itemFmt);
    const width = Math.abs(align);
    if (s.length < width) {
      checkLength(ctx, out.length + width);
      s = align > 0 ? s.padStart(width) : s.padEnd(width);
    }
    out = concat(ctx, out, s);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Numbers

const MIDPOINT = ['ToEven', 'AwayFromZero', 'ToZero', 'ToNegativeInfinity', 'ToPositiveInfinity'];
const MIDPOINT_MODE: RoundingMode[] = ['even', 'away', 'trunc', 'floor', 'ceiling'];

function round(args: readonly Value[]): Value {
  const x = args[0]!;
  let digits = 0;
  let mode: RoundingMode = 'even';
  for (const a of args.slice(1)) {
    if (a instanceof EnumVal && a.type === 'System.MidpointRounding') mode = MIDPOINT_MODE[a.value]!;
    else digits = argInt(a, 'digits');
  }
  if (x instanceof Decimal) return x.round(digits, mode);
  const d = argDouble(x, 'value');
  if (mode === 'even' || mode === 'away') return new Dbl(roundDouble(d, digits, mode === 'away'));
  if (digits < 0 || digits > 15) throw outOfRange('Rounding digits must be between 0 and 15, inclusive');
  const p = 10 ** digits;
  const f = mode === 'trunc' ? Math.trunc : mode === 'floor' ? Math.floor : Math.ceil;
  return new Dbl(Math.abs(d) >= 1e16 ? d : f(d * p) / p);
}

function abs(x: Value): Value {
  if (typeof x === 'number') {
    if (x === -2147483648) throw new ValueError('OverflowException', "Negating the minimum value of a twos complement number is invalid");
    return Math.abs(x);
  }
  if (x instanceof Chr) return x.code;
  if (typeof x === 'bigint') {
    if (x === -9223372036854775808n) throw new ValueError('OverflowException', "Negating the minimum value of a twos complement number is invalid");
    return x < 0n ? -x : x;
  }
  if (x instanceof Dbl) return new Dbl(Math.abs(x.v));
  if (x instanceof Flt) return new Flt(Math.abs(x.v));
  if (x instanceof Decimal) return x.abs();
  throw new ValueError('ArgumentException', `Abs needs a number, not a ${kindName(x)}`);
}

function roundTo(x: Value, mode: 'floor' | 'ceiling' | 'trunc'): Value {
  if (x instanceof Decimal) return mode === 'floor' ? x.floor() : mode === 'ceiling' ? x.ceiling() : x.truncate();
  const d = argDouble(x, 'value');
  return new Dbl(mode === 'floor' ? Math.floor(d) : mode === 'ceiling' ? Math.ceil(d) : Math.trunc(d));
}

function minMax(a: Value, b: Value, max: boolean): Value {
  const ka = numKind(a), kb = numKind(b);
  if (ka < 0 || kb < 0) throw new ValueError('ArgumentException', `${max ? 'Max' : 'Min'} needs numbers, not ${kindName(a)} and ${kindName(b)}`);
  const k = promote(ka as 0, kb as 0);
  const x = toKind(a, k), y = toKind(b, k);
  if ((k === DOUBLE || k === FLOAT) && (Number.isNaN(asDouble(x)) || Number.isNaN(asDouble(y)))) return k === DOUBLE ? new Dbl(NaN) : new Flt(NaN);
  const gt = compare('>', x, y);
  return max ? (gt ? x : y) : gt ? y : x;
}

const dbl1 = (f: (x: number) => number) => def(1, 1, (_c, a) => new Dbl(f(argDouble(a[0]!))));

// ---------------------------------------------------------------------------------------------
// Dates

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAYS_OF_WEEK = DAY_NAMES.map((n, i) => new EnumVal('System.DayOfWeek', n, i));

function addMs(d: Date, ms: number): Date {
  if (!Number.isFinite(ms)) throw outOfRange('Value to add was out of range');
  const t = Math.trunc(ms);
  const r = Math.abs(ms - t) >= 0.5 ? t + Math.sign(ms) : t;
  return dateFromMs(d.getTime() + r);
}

function addMonths(d: Date, months: number): Date {
  if (months < -120000 || months > 120000) throw outOfRange('Months value must be between +/-120000');
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12), m = (total % 12) + 1;
  if (y < 1 || y > 9999) throw outOfRange('The added or subtracted value results in an un-representable DateTime');
  const day = Math.min(d.getUTCDate(), daysInMonth(y, m));
  return makeDate(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

function dayOfYear(d: Date): number {
  const start = makeDate(d.getUTCFullYear(), 1, 1).getTime();
  return Math.floor((d.getTime() - start) / 86_400_000) + 1;
}

/** Calendar.GetWeekOfYear with en-US rules (CalendarWeekRule.FirstDay, weeks start Sunday). */
function weekOfYear(d: Date): number {
  const jan1 = makeDate(d.getUTCFullYear(), 1, 1);
  return Math.floor((dayOfYear(d) - 1 + jan1.getUTCDay()) / 7) + 1;
}

const dateOnly = (d: Date) => makeDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
const ticksOf = (d: Date) => BigInt(d.getTime() - DATETIME_MIN_MS) * 10_000n;

function timeSpanArg(v: Value, what: string): TimeSpan {
  if (v instanceof TimeSpan) return v;
  if (v === null) throw new ValueError('ArgumentNullException', `${what} is null`);
  throw new ValueError('ArgumentException', `${what} must be a TimeSpan, not a ${kindName(v)}`);
}

function fromUnit(v: Value, msPerUnit: number): TimeSpan {
  const x = argDouble(v, 'value');
  if (Number.isNaN(x)) throw new ValueError('ArgumentException', 'TimeSpan does not accept floating point Not-a-Number values');
  return new TimeSpan(x * msPerUnit);
}

function formatDateTime(ctx: Ctx, args: readonly Value[]): string {
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

// ---------------------------------------------------------------------------------------------
// ToRoman, ToWords (English)

export function toRoman(n: number): string {
  if (n > 3998) throw outOfRange('value must be at most 3998');
  const digits: [string, string, string][] = [
    ['M', '', ''],
    ['C', 'D', 'M'],
    ['X', 'L', 'C'],
    ['I', 'V', 'X'],
  ];
  let out = '';
  let v = n;
  for (let i = 0; i < 4; i++) {
    const power = 10 ** (3 - i);
    const digit = Math.trunc(v / power);
    v -= digit * power;
    if (digit <= 0) continue;
    const [one, five, ten] = digits[i]!;
    if (i === 0) out += one.repeat(digit);
    else if (digit === 9) out += one + ten;
    else if (digit >= 5) out += five + one.repeat(digit - 5);
    else if (digit === 4) out += one + five;
    else out += one.repeat(digit);
  }
  return out;
}

interface WordForms {
  one: string;
  many: string;
}
const FIXED = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', 'ten', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const CURRENCIES: ReadonlyMap<string, [WordForms, WordForms]> = new Map([
  ['USD', [{ one: 'dollar', many: 'dollars' }, { one: 'cent', many: 'cents' }]],
  ['CAD', [{ one: 'dollar', many: 'dollars' }, { one: 'cent', many: 'cents' }]],
  ['EUR', [{ one: 'euro', many: 'euros' }, { one: 'cent', many: 'cents' }]],
  ['GBP', [{ one: 'pound', many: 'pounds' }, { one: 'penny', many: 'pence' }]],
]);

const wordCase = (n: bigint, f: WordForms) => (n % 100n === 1n ? f.one : f.many);

function words1000(value: bigint, forms: WordForms): string {
  const v = value % 1000n;
  if (v === 0n) return '';
  const hund = v >= 100n ? `${FIXED[Number(v / 100n)]} hundred` : '';
  let r = hund;
  const sep = value < 1000n && hund === '' ? '' : ' and ';
  const rest = Number(v % 100n);
  if (rest < 20) {
    if (FIXED[rest]) r += sep + FIXED[rest];
  } else {
    const ten = TENS[Math.trunc(rest / 10)]!;
    const one = FIXED[rest % 10]!;
    r += sep + ten + (one ? `-${one}` : '');
  }
  r += ` ${wordCase(value, forms)} `;
  return r.replace(/^ +/, '');
}

/** FastReport's English ToWords: "One hundred and twenty-three dollars and 45 cents". */
export function toWordsEn(value: Decimal, senior: WordForms, junior: WordForms | null): string {
  const minus = value.sign < 0;
  const a = value.abs();
  let n = a.truncate().toBigInt();
  if (n > 9223372036854775807n) throw new ValueError('OverflowException', 'Value was either too large or too small for an Int64');
  let cents = Number(a.sub(Decimal.fromInteger(n)).add(Decimal.of(5n, 3)).mul(Decimal.fromInteger(100)).truncate().toBigInt());
  if (cents >= 100) {
    n++;
    cents = 0;
  }
  let r: string;
  if (n === 0n) r = `zero ${senior.many} `;
  else {
    r = n % 1000n !== 0n ? words1000(n, senior) : ` ${senior.many} `;
    const groups: WordForms[] = [
      { one: 'thousand', many: 'thousand' },
      { one: 'million', many: 'million' },
      { one: 'billion', many: 'billion' },
      { one: 'trillion', many: 'trillion' },
    ];
    let v = n;
    for (const g of groups) {
      v /= 1000n;
      r = words1000(v, g) + r;
    }
    r = r.replaceAll('  ', ' ');
  }
  if (minus) r = `minus ${r}`;
  if (junior) r += `and ${String(cents).padStart(2, '0')} ${wordCase(BigInt(cents), junior)}`;
  return r.charAt(0).toUpperCase() + r.slice(1);
}

function toWords(ctx: Ctx, args: readonly Value[]): string {
  const value = convertTo(ctx, args[0]!, 'System.Decimal') as Decimal;
  if (args.length === 3) return toWordsEn(value, { one: argString(args[1]!, 'one'), many: argString(args[2]!, 'many') }, null);
  const name = args.length === 2 ? argString(args[1]!, 'currencyName').toUpperCase() : 'USD';
  const cur = CURRENCIES.get(name);
  if (!cur) throw new ValueError('ArgumentException', `Currency "${name}" is not defined in the English converter`);
  return toWordsEn(value, cur[0], cur[1]);
}

// ---------------------------------------------------------------------------------------------
// Conditions

/** A value used as a condition: must be a bool. */
export function toCondition(v: Value): boolean {
  if (typeof v === 'boolean') return v;
  if (v === null) throw new ValueError('NullReferenceException', 'the condition is null');
  throw new ValueError('InvalidCastException', `Cannot implicitly convert type '${kindName(v)}' to 'bool'`);
}

// ---------------------------------------------------------------------------------------------
// Standard functions (FastReport's StdFunctions and the Math functions it registers)

const MATH_FNS: [string, FnDef][] = [
  ['Abs', def(1, 1, (_c, a) => abs(a[0]!))],
  ['Acos', dbl1(Math.acos)],
  ['Asin', dbl1(Math.asin)],
  ['Atan', dbl1(Math.atan)],
  ['Ceiling', def(1, 1, (_c, a) => roundTo(a[0]!, 'ceiling'))],
  ['Cos', dbl1(Math.cos)],
  ['Exp', dbl1(Math.exp)],
  ['Floor', def(1, 1, (_c, a) => roundTo(a[0]!, 'floor'))],
  ['Log', def(1, 2, (_c, a) => new Dbl(a.length === 1 ? Math.log(argDouble(a[0]!)) : Math.log(argDouble(a[0]!)) / Math.log(argDouble(a[1]!))))],
  ['Round', def(1, 3, (_c, a) => round(a))],
  ['Sin', dbl1(Math.sin)],
  ['Sqrt', dbl1(Math.sqrt)],
  ['Tan', dbl1(Math.tan)],
  ['Truncate', def(1, 1, (_c, a) => roundTo(a[0]!, 'trunc'))],
];

const strArg = (v: Value) => (v === null ? null : argString(v, 's'));

export const FUNCTIONS: ReadonlyMap<string, FnDef> = new Map<string, FnDef>([
  ...MATH_FNS,
  ['Maximum', def(2, 2, (_c, a) => minMax(a[0]!, a[1]!, true))],
  ['Minimum', def(2, 2, (_c, a) => minMax(a[0]!, a[1]!, false))],
  // Text
  ['Asc', def(1, 1, (_c, a) => argChar(a[0]!, 'c'))],
  ['Chr', def(1, 1, (_c, a) => new Chr(argInt(a[0]!, 'i') & 0xffff))],
  ['Insert', def(3, 3, (c, a) => { const s = strArg(a[0]!); return s === null ? '' : insert(c, s, argInt(a[1]!, 'startIndex'), a[2]!); })],
  ['Length', def(1, 1, (_c, a) => strArg(a[0]!)?.length ?? 0)],
  ['LowerCase', def(1, 1, (_c, a) => mapCase(strArg(a[0]!) ?? '', false))],
  ['PadLeft', def(2, 3, (c, a) => { const s = strArg(a[0]!); return s === null ? '' : pad(c, s, argInt(a[1]!, 'totalWidth'), a[2] === undefined ? 32 : argChar(a[2], 'paddingChar'), true); })],
  ['PadRight', def(2, 3, (c, a) => { const s = strArg(a[0]!); return s === null ? '' : pad(c, s, argInt(a[1]!, 'totalWidth'), a[2] === undefined ? 32 : argChar(a[2], 'paddingChar'), false); })],
  ['Remove', def(2, 3, (_c, a) => { const s = strArg(a[0]!); return s === null ? '' : remove(s, argInt(a[1]!, 'startIndex'), a[2] === undefined ? undefined : argInt(a[2], 'count')); })],
  ['Replace', def(3, 3, (c, a) => { const s = strArg(a[0]!); return s === null ? '' : replace(c, s, a[1]!, a[2]!); })],
  ['Substring', def(2, 3, (_c, a) => { const s = strArg(a[0]!); return s === null ? '' : substring(s, argInt(a[1]!, 'startIndex'), a[2] === undefined ? undefined : argInt(a[2], 'length')); })],
  ['TitleCase', def(1, 1, (c, a) => {
    const s = strArg(a[0]!) ?? '';
    charge(c, s.length >>> 4);
    return titleCase(s);
  })],
  ['Trim', def(1, 1, (_c, a) => trimChars(strArg(a[0]!) ?? '', null, true, true))],
  ['UpperCase', def(1, 1, (_c, a) => mapCase(strArg(a[0]!) ?? '', true))],
  // Date & time
  ['AddDays', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 86_400_000))],
  ['AddHours', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 3_600_000))],
  ['AddMinutes', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 60_000))],
  ['AddSeconds', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 1000))],
  ['AddMonths', def(2, 2, (_c, a) => addMonths(argDate(a[0]!, 'date'), argInt(a[1]!, 'value')))],
  ['AddYears', def(2, 2, (_c, a) => { const y = argInt(a[1]!, 'value'); if (y < -10000 || y > 10000) throw outOfRange('Years value must be between +/-10000'); return addMonths(argDate(a[0]!, 'date'), y * 12); })],
  ['DateDiff', def(2, 2, (_c, a) => new TimeSpan(argDate(a[0]!, 'date1').getTime() - argDate(a[1]!, 'date2').getTime()))],
  ['DateSerial', def(3, 3, (_c, a) => makeDate(argInt(a[0]!, 'year'), argInt(a[1]!, 'month'), argInt(a[2]!, 'day')))],
  ['Day', def(1, 1, (_c, a) => argDate(a[0]!, 'date').getUTCDate())],
  ['DayOfWeek', def(1, 1, (c, a) => format(c, argDate(a[0]!, 'date'), 'dddd'))],
  ['DayOfYear', def(1, 1, (_c, a) => dayOfYear(argDate(a[0]!, 'date')))],
  ['DaysInMonth', def(2, 2, (_c, a) => daysInMonth(argInt(a[0]!, 'year'), argInt(a[1]!, 'month')))],
  ['Hour', def(1, 1, (_c, a) => argDate(a[0]!, 'date').getUTCHours())],
  ['Minute', def(1, 1, (_c, a) => argDate(a[0]!, 'date').getUTCMinutes())],
  ['Month', def(1, 1, (_c, a) => argDate(a[0]!, 'date').getUTCMonth() + 1)],
  ['MonthName', def(1, 1, (c, a) => format(c, makeDate(2000, argInt(a[0]!, 'month'), 1), 'MMMM'))],
  ['Second', def(1, 1, (_c, a) => argDate(a[0]!, 'date').getUTCSeconds())],
  ['WeekOfYear', def(1, 1, (_c, a) => weekOfYear(argDate(a[0]!, 'date')))],
  ['Year', def(1, 1, (_c, a) => argDate(a[0]!, 'date').getUTCFullYear())],
  // Formatting
  ['Format', def(1, Infinity, (c, a) => composite(c, argString(a[0]!, 'format'), a.slice(1)))],
  ['FormatCurrency', def(1, 2, (c, a) => formatItem(c, a[0]!, `C${a[1] === undefined ? '' : argInt(a[1], 'decimalDigits')}`))],
  ['FormatDateTime', def(1, 2, (c, a) => formatDateTime(c, a))],
  ['FormatNumber', def(1, 2, (c, a) => formatItem(c, a[0]!, `N${a[1] === undefined ? '' : argInt(a[1], 'decimalDigits')}`))],
  ['FormatPercent', def(1, 2, (c, a) => formatItem(c, a[0]!, `P${a[1] === undefined ? '' : argInt(a[1], 'decimalDigits')}`))],
  // Conversion
  ['ToBoolean', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Boolean'))],
  ['ToByte', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Byte'))],
  ['ToChar', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Char'))],
  ['ToDateTime', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.DateTime'))],
  ['ToDecimal', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Decimal'))],
  ['ToDouble', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Double'))],
  ['ToInt32', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Int32'))],
  ['ToRoman', def(1, 1, (c, a) => toRoman(convertTo(c, a[0]!, 'System.Int32') as number))],
  ['ToSingle', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Single'))],
  ['ToString', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.String'))],
  ['ToWords', def(1, 3, (c, a) => toWords(c, a))],
  // Program flow (lazy: FastReport evaluates every argument, which can only fail more often)
  ['Choose', lazy(1, Infinity, (c, arg, argc) => {
    const i = Math.trunc(argDouble(cv(c, arg(0)), 'index')) - 1;
    return i >= 0 && i < argc - 1 ? arg(i + 1) : null;
  })],
  ['IIf', lazy(3, 3, (c, arg) => (toCondition(cv(c, arg(0))) ? arg(1) : arg(2)))],
  ['Switch', lazy(0, Infinity, (c, arg, argc) => {
    for (let i = 0; i + 1 < argc; i += 2) if (convertTo(c, cv(c, arg(i)), 'System.Boolean') === true) return arg(i + 1);
    return null;
  })],
  // IsNull("Table.Column"): is the named column/parameter/total null? (raw value, whatever
  // ConvertNulls says). IsNull([Table.Column]) checks that value directly.
  ['IsNull', { min: 1, max: 1, mode: 'isnull', fn: () => null }],
]);

// ---------------------------------------------------------------------------------------------
// Static members

export interface StaticType {
  readonly name: string;
  readonly props: ReadonlyMap<string, (ctx: Ctx) => Value>;
  readonly methods: ReadonlyMap<string, FnDef>;
}

const enumType = (type: string, names: readonly string[], values?: readonly number[]): StaticType => ({
  name: type,
  props: new Map(names.map((n, i) => [n, () => new EnumVal(type, n, values?.[i] ?? i)] as const)),
  methods: new Map(),
});

const INT_LIMITS: [string, string, number | bigint, number | bigint][] = [
  ['Int32', 'System.Int32', -2147483648, 2147483647],
  ['Int16', 'System.Int16', -32768, 32767],
  ['Byte', 'System.Byte', 0, 255],
  ['SByte', 'System.SByte', -128, 127],
  ['UInt16', 'System.UInt16', 0, 65535],
  ['Int64', 'System.Int64', -9223372036854775808n, 9223372036854775807n],
  ['UInt32', 'System.UInt32', 0n, 4294967295n],
];

const reportLookup = (mode: 'convert' | 'nullable' | 'plain'): FnDef =>
  def(1, 1, (c, a) => {
    const name = argString(a[0]!, 'name');
    const v = lookupName(c, name);
    if (v === undefined) throw fail(`unknown name "${name}"`, 'KeyNotFoundException');
    if (mode === 'nullable') return v instanceof NullOf ? null : v;
    if (mode === 'convert' && v instanceof NullOf) return cv({ ...c, convertNulls: true }, v);
    return v;
  });

const STATIC_LIST: StaticType[] = [
  {
    name: 'Math',
    props: new Map([
      ['PI', () => new Dbl(Math.PI)],
      ['E', () => new Dbl(Math.E)],
    ]),
    methods: new Map<string, FnDef>([
      ...MATH_FNS,
      ['Atan2', def(2, 2, (_c, a) => new Dbl(Math.atan2(argDouble(a[0]!), argDouble(a[1]!))))],
      ['Cosh', dbl1(Math.cosh)],
      ['Sinh', dbl1(Math.sinh)],
      ['Tanh', dbl1(Math.tanh)],
      ['Log10', dbl1(Math.log10)],
      ['Pow', def(2, 2, (_c, a) => new Dbl(Math.pow(argDouble(a[0]!), argDouble(a[1]!))))],
      ['Max', def(2, 2, (_c, a) => minMax(a[0]!, a[1]!, true))],
      ['Min', def(2, 2, (_c, a) => minMax(a[0]!, a[1]!, false))],
      ['Sign', def(1, 1, (_c, a) => {
        const x = a[0]!;
        if (x instanceof Decimal) return x.sign;
        if (typeof x === 'bigint') return x < 0n ? -1 : x > 0n ? 1 : 0;
        const d = argDouble(x);
        if (Number.isNaN(d)) throw new ValueError('ArithmeticException', 'Function does not accept floating point Not-a-Number values');
        return d < 0 ? -1 : d > 0 ? 1 : 0;
      })],
    ]),
  },
  {
    name: 'Convert',
    props: new Map(),
    methods: new Map<string, FnDef>([
      ...(
        [
          ['ToBoolean', 'System.Boolean'],
          ['ToByte', 'System.Byte'],
          ['ToChar', 'System.Char'],
          ['ToDateTime', 'System.DateTime'],
          ['ToDecimal', 'System.Decimal'],
          ['ToDouble', 'System.Double'],
          ['ToInt16', 'System.Int16'],
          ['ToInt32', 'System.Int32'],
          ['ToInt64', 'System.Int64'],
          ['ToSByte', 'System.SByte'],
          ['ToSingle', 'System.Single'],
          ['ToUInt16', 'System.UInt16'],
          ['ToUInt32', 'System.UInt32'],
          ['ToUInt64', 'System.UInt64'],
        ] as const
      ).map(([n, t]) => [n, def(1, 2, (c, a) => convertTo(c, a[0]!, t))] as [string, FnDef]),
      ['ToString', def(1, 2, (c, a) => {
        if (a.length === 2 && typeof a[1] === 'number') {
          const base = a[1];
          if (![2, 8, 10, 16].includes(base)) throw new ValueError('ArgumentException', 'Invalid Base');
          const x = a[0]!;
          if (typeof x !== 'number' && typeof x !== 'bigint') throw new ValueError('ArgumentException', 'ToString with a base needs an integer');
          const n = typeof x === 'number' ? BigInt.asUintN(base === 10 ? 64 : 32, BigInt(x)) : BigInt.asUintN(64, x);
          return base === 10 ? String(x) : n.toString(base);
        }
        return convertTo(c, a[0]!, 'System.String');
      })],
      ['IsDBNull', def(1, 1, (_c, a) => isNullish(a[0]!), 'raw')],
      ['ToBase64String', def(1, 1, (c, a) => {
        const b = a[0];
        if (!(b instanceof Uint8Array)) throw new ValueError('ArgumentException', 'ToBase64String needs a byte[]');
        checkLength(c, Math.ceil(b.length / 3) * 4);
        return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
      })],
    ]),
  },
  {
    name: 'String',
    props: new Map([['Empty', () => '']]),
    methods: new Map<string, FnDef>([
      ['Format', def(1, Infinity, (c, a) => {
        // String.Format(provider, format, args…): the provider is ignored (en-US / formatter).
        const args = a[0] instanceof EnumVal ? a.slice(1) : a;
        return composite(c, argString(args[0] ?? null, 'format'), args.slice(1));
      })],
      ['IsNullOrEmpty', def(1, 1, (_c, a) => a[0] === null || a[0] === '')],
      ['IsNullOrWhiteSpace', def(1, 1, (_c, a) => a[0] === null || trimChars(argString(a[0]!), null, true, true) === '')],
      ['Concat', def(0, Infinity, (c, a) => a.reduce<string>((acc, v) => concat(c, acc, v instanceof ArrayVal ? joinArray(c, '', v) : str(c, v)), ''))],
      ['Join', def(2, Infinity, (c, a) => {
        const sep = a[0] === null ? '' : str(c, a[0]!);
        if (a.length === 2 && a[1] instanceof ArrayVal) return joinArray(c, sep, a[1]);
        return a.slice(1).reduce<string>((acc, v, i) => concat(c, i === 0 ? acc : concat(c, acc, sep), str(c, v)), '');
      })],
      ['Compare', def(2, 3, (_c, a) => stringCompare(a[0]!, a[1]!, ignoreCaseOf(a[2])))],
      ['Equals', def(2, 3, (_c, a) => {
        if (a[0] === null || a[1] === null) return a[0] === a[1];
        const x = argString(a[0]!), y = argString(a[1]!);
        return ignoreCaseOf(a[2]) ? x.toLowerCase() === y.toLowerCase() : x === y;
      })],
    ]),
  },
  {
    name: 'DateTime',
    props: new Map<string, (c: Ctx) => Value>([
      ['Now', (c) => now(c)],
      ['Today', (c) => dateOnly(now(c))],
      ['UtcNow', () => new Date()],
      ['MinValue', () => new Date(DATETIME_MIN_MS)],
      ['MaxValue', () => new Date(DATETIME_MAX_MS)],
    ]),
    methods: new Map<string, FnDef>([
      ['DaysInMonth', def(2, 2, (_c, a) => daysInMonth(argInt(a[0]!, 'year'), argInt(a[1]!, 'month')))],
      ['IsLeapYear', def(1, 1, (_c, a) => { const y = argInt(a[0]!, 'year'); if (y < 1 || y > 9999) throw outOfRange('Year must be between 1 and 9999'); return isLeapYear(y); })],
      ['Parse', def(1, 2, (c, a) => parseDateTime(c, argString(a[0]!, 's')))],
      ['Compare', def(2, 2, (_c, a) => Math.sign(argDate(a[0]!, 't1').getTime() - argDate(a[1]!, 't2').getTime()))],
    ]),
  },
  {
    name: 'TimeSpan',
    props: new Map<string, (c: Ctx) => Value>([
      ['Zero', () => TimeSpan.Zero],
      ['MaxValue', () => new TimeSpan(922_337_203_685_477)],
      ['MinValue', () => new TimeSpan(-922_337_203_685_477)],
    ]),
    methods: new Map<string, FnDef>([
      ['FromDays', def(1, 1, (_c, a) => fromUnit(a[0]!, 86_400_000))],
      ['FromHours', def(1, 1, (_c, a) => fromUnit(a[0]!, 3_600_000))],
      ['FromMinutes', def(1, 1, (_c, a) => fromUnit(a[0]!, 60_000))],
      ['FromSeconds', def(1, 1, (_c, a) => fromUnit(a[0]!, 1000))],
      ['FromMilliseconds', def(1, 1, (_c, a) => fromUnit(a[0]!, 1))],
      ['FromTicks', def(1, 1, (_c, a) => new TimeSpan(Number(asLong(a[0]!)) / 10_000))],
      ['Parse', def(1, 2, (_c, a) => {
        const t = parseTimeSpan(argString(a[0]!, 's'));
        if (!t) throw new ValueError('FormatException', 'String was not recognized as a valid TimeSpan');
        return t;
      })],
    ]),
  },
  { name: 'DBNull', props: new Map([['Value', () => null]]), methods: new Map() },
  ...INT_LIMITS.map(([name, type, min, max]): StaticType => ({
    name,
    props: new Map<string, (c: Ctx) => Value>([
      ['MinValue', () => min],
      ['MaxValue', () => max],
    ]),
    methods: new Map([['Parse', def(1, 2, (_c, a) => parseIntegral(argString(a[0]!, 's'), type))]]),
  })),
  ...(['Double', 'Single'] as const).map((name): StaticType => {
    const box = (n: number): Value => (name === 'Double' ? new Dbl(n) : new Flt(n));
    return {
      name,
      props: new Map<string, (c: Ctx) => Value>([
        ['MaxValue', () => box(name === 'Double' ? Number.MAX_VALUE : 3.4028234663852886e38)],
        ['MinValue', () => box(name === 'Double' ? -Number.MAX_VALUE : -3.4028234663852886e38)],
        ['Epsilon', () => box(name === 'Double' ? Number.MIN_VALUE : 1.401298464324817e-45)],
        ['NaN', () => box(NaN)],
        ['PositiveInfinity', () => box(Infinity)],
        ['NegativeInfinity', () => box(-Infinity)],
      ]),
      methods: new Map<string, FnDef>([
        ['Parse', def(1, 2, (_c, a) => box(parseDouble(argString(a[0]!, 's'))))],
        ['IsNaN', def(1, 1, (_c, a) => Number.isNaN(argDouble(a[0]!)))],
        ['IsInfinity', def(1, 1, (_c, a) => Math.abs(argDouble(a[0]!)) === Infinity)],
        ['IsPositiveInfinity', def(1, 1, (_c, a) => argDouble(a[0]!) === Infinity)],
        ['IsNegativeInfinity', def(1, 1, (_c, a) => argDouble(a[0]!) === -Infinity)],
      ]),
    };
  }),
  {
    name: 'Decimal',
    props: new Map<string, (c: Ctx) => Value>([
      ['MaxValue', () => Decimal.MaxValue],
      ['MinValue', () => Decimal.MinValue],
      ['Zero', () => Decimal.Zero],
      ['One', () => Decimal.One],
      ['MinusOne', () => Decimal.MinusOne],
    ]),
    methods: new Map<string, FnDef>([
      ['Parse', def(1, 2, (_c, a) => parseDecimal(argString(a[0]!, 's')))],
      ['Round', def(1, 3, (c, a) => round([convertTo(c, a[0]!, 'System.Decimal'), ...a.slice(1)]))],
      ['Truncate', def(1, 1, (c, a) => (convertTo(c, a[0]!, 'System.Decimal') as Decimal).truncate())],
      ['Floor', def(1, 1, (c, a) => (convertTo(c, a[0]!, 'System.Decimal') as Decimal).floor())],
      ['Ceiling', def(1, 1, (c, a) => (convertTo(c, a[0]!, 'System.Decimal') as Decimal).ceiling())],
      ['ToDouble', def(1, 1, (c, a) => convertTo(c, a[0]!, 'System.Double'))],
      ['ToInt32', def(1, 1, (_c, a) => castInt32(a[0]!))],
    ]),
  },
  {
    name: 'Boolean',
    props: new Map([
      ['TrueString', () => 'True'],
      ['FalseString', () => 'False'],
    ]),
    methods: new Map([['Parse', def(1, 1, (c, a) => convertTo(c, argString(a[0]!, 'value'), 'System.Boolean'))]]),
  },
  {
    name: 'Char',
    props: new Map<string, (c: Ctx) => Value>([
      ['MaxValue', () => new Chr(0xffff)],
      ['MinValue', () => new Chr(0)],
    ]),
    methods: new Map<string, FnDef>([
      ...(
        [
          ['IsDigit', /^\p{Nd}$/u],
          ['IsLetter', /^\p{L}$/u],
          ['IsLetterOrDigit', /^[\p{L}\p{Nd}]$/u],
          ['IsWhiteSpace', IS_WS],
          ['IsUpper', /^\p{Lu}$/u],
          ['IsLower', /^\p{Ll}$/u],
          ['IsPunctuation', /^\p{P}$/u],
          ['IsNumber', /^\p{N}$/u],
        ] as const
      ).map(([n, re]) => [n, def(1, 2, (_c, a) => re.test(charAt(a)))] as [string, FnDef]),
      ['ToUpper', def(1, 1, (_c, a) => new Chr(mapCase(String.fromCharCode(argChar(a[0]!, 'c')), true).charCodeAt(0)))],
      ['ToLower', def(1, 1, (_c, a) => new Chr(mapCase(String.fromCharCode(argChar(a[0]!, 'c')), false).charCodeAt(0)))],
    ]),
  },
  enumType('System.MidpointRounding', MIDPOINT),
  enumType('System.DayOfWeek', DAY_NAMES),
  enumType('System.StringComparison', ['CurrentCulture', 'CurrentCultureIgnoreCase', 'InvariantCulture', 'InvariantCultureIgnoreCase', 'Ordinal', 'OrdinalIgnoreCase']),
  enumType('System.StringSplitOptions', ['None', 'RemoveEmptyEntries', 'TrimEntries'], [0, 1, 2]),
  enumType('System.Globalization.CultureInfo', ['InvariantCulture', 'CurrentCulture', 'CurrentUICulture']),
  { name: 'Environment', props: new Map([['NewLine', () => '\r\n']]), methods: new Map() },
  {
    name: 'Report',
    props: new Map(),
    methods: new Map<string, FnDef>([
      ['GetColumnValue', reportLookup('convert')],
      ['GetColumnValueNullable', reportLookup('nullable')],
      ['GetParameterValue', reportLookup('plain')],
      ['GetVariableValue', reportLookup('plain')],
      ['GetTotalValue', reportLookup('plain')],
      ['GetTotalValueNullable', reportLookup('nullable')],
    ]),
  },
];

function charAt(a: readonly Value[]): string {
  if (a.length === 2) {
    const s = argString(a[0]!, 's');
    const i = argInt(a[1]!, 'index');
    if (i < 0 || i >= s.length) throw outOfRange('Index was out of range');
    return s[i]!;
  }
  return String.fromCharCode(argChar(a[0]!, 'c'));
}

function castInt32(v: Value): number {
  const d = v instanceof Decimal ? v : Decimal.fromDouble(argDouble(v));
  const n = d.truncate().toBigInt();
  if (n < -2147483648n || n > 2147483647n) throw new ValueError('OverflowException', 'Value was either too large or too small for an Int32');
  return Number(n);
}

function joinArray(ctx: Ctx, sep: string, a: ArrayVal): string {
  let out = '';
  for (let i = 0; i < a.length; i++) out = concat(ctx, i === 0 ? out : concat(ctx, out, sep), str(ctx, a.get(i)));
  return out;
}

/** Static types by every name a template may use: "Math", "System.Math", "string", "int"… */
export const STATIC_TYPES: ReadonlyMap<string, StaticType> = (() => {
  const m = new Map<string, StaticType>();
  const keyword: Record<string, string> = { String: 'string', Int32: 'int', Int64: 'long', Int16: 'short', Byte: 'byte', SByte: 'sbyte', UInt16: 'ushort', UInt32: 'uint', Double: 'double', Single: 'float', Decimal: 'decimal', Boolean: 'bool', Char: 'char' };
  for (const t of STATIC_LIST) {
    const short = t.name.replace(/^System\.(Globalization\.)?/, '');
    m.set(short, t);
    m.set(`System.${short}`, t);
    if (t.name.startsWith('System.Globalization.')) m.set(t.name, t);
    const kw = keyword[short];
    if (kw) m.set(kw, t);
  }
  m.delete('System.Report');
  return m;
})();

/** The static type a dotted prefix names and how many segments it used ("System.Math.Round" →
 *  Math, 2), or undefined. */
export function staticTypeOf(segs: readonly string[]): { type: StaticType; used: number } | undefined {
  for (let n = Math.min(3, segs.length - 1); n >= 1; n--) {
    const t = STATIC_TYPES.get(segs.slice(0, n).join('.'));
    if (t) return { type: t, used: n };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Instance members

type Method = { readonly min: number; readonly max: number; readonly fn: (ctx: Ctx, self: never, args: readonly Value[]) => Value };
const m = <T>(min: number, max: number, fn: (ctx: Ctx, self: T, args: readonly Value[]) => Value): Method => ({ min, max, fn: fn as Method['fn'] });

function toStringMethod(ctx: Ctx, self: Value, args: readonly Value[]): Value {
  const f = args.find((a) => typeof a === 'string');
  if (f === undefined || f === '' || typeof self === 'string' || typeof self === 'boolean' || self instanceof Chr) return str(ctx, self);
  if (self instanceof EnumVal) return formatItem(ctx, self, f as string);
  if (isNumeric(self) || self instanceof Date || self instanceof TimeSpan) return format(ctx, self, f as string);
  return str(ctx, self);
}

function equalsMethod(self: Value, other: Value): boolean {
  try {
    return equals(self, other === undefined ? null : other);
  } catch {
    return false;
  }
}

function compareToMethod(self: Value, other: Value): number {
  if (other === null) return 1;
  if (typeof self === 'string') return stringCompare(self, other, false);
  if (typeof self === 'boolean' && typeof other === 'boolean') return self === other ? 0 : self ? 1 : -1;
  if (compare('<', self, other)) return -1;
  if (compare('>', self, other)) return 1;
  return 0;
}

const COMMON_METHODS: ReadonlyMap<string, Method> = new Map([
  ['ToString', m<Value>(0, 2, (c, s, a) => toStringMethod(c, s, a))],
  ['Equals', m<Value>(1, 2, (_c, s, a) => equalsMethod(s, a[0]!))],
  ['CompareTo', m<Value>(1, 1, (_c, s, a) => compareToMethod(s, a[0]!))],
]);

const STRING_PROPS: ReadonlyMap<string, (s: string) => Value> = new Map([['Length', (s: string) => s.length]]);
const STRING_METHODS: ReadonlyMap<string, Method> = new Map([
  ['Substring', m<string>(1, 2, (_c, s, a) => substring(s, argInt(a[0]!, 'startIndex'), a[1] === undefined ? undefined : argInt(a[1], 'length')))],
  ['Remove', m<string>(1, 2, (_c, s, a) => remove(s, argInt(a[0]!, 'startIndex'), a[1] === undefined ? undefined : argInt(a[1], 'count')))],
  ['Insert', m<string>(2, 2, (c, s, a) => insert(c, s, argInt(a[0]!, 'startIndex'), a[1]!))],
  ['Replace', m<string>(2, 3, (c, s, a) => replace(c, s, a[0]! instanceof Chr ? a[0]!.toString() : a[0]!, a[1]! instanceof Chr ? a[1]!.toString() : a[1]!))],
  ['ToUpper', m<string>(0, 1, (_c, s) => mapCase(s, true))],
  ['ToLower', m<string>(0, 1, (_c, s) => mapCase(s, false))],
  ['ToUpperInvariant', m<string>(0, 0, (_c, s) => mapCase(s, true))],
  ['ToLowerInvariant', m<string>(0, 0, (_c, s) => mapCase(s, false))],
  ['Trim', m<string>(0, Infinity, (_c, s, a) => trimChars(s, a.length ? a.map((x) => argChar(x, 'trimChars')) : null, true, true))],
  ['TrimStart', m<string>(0, Infinity, (_c, s, a) => trimChars(s, a.length ? a.map((x) => argChar(x, 'trimChars')) : null, true, false))],
  ['TrimEnd', m<string>(0, Infinity, (_c, s, a) => trimChars(s, a.length ? a.map((x) => argChar(x, 'trimChars')) : null, false, true))],
  ['Contains', m<string>(1, 2, (_c, s, a) => {
    const v = searchText(a[0]!, 'value');
    return ignoreCaseOf(a[1]) ? s.toLowerCase().includes(v.toLowerCase()) : s.includes(v);
  })],
  ['StartsWith', m<string>(1, 3, (_c, s, a) => startsEnds(s, a, false))],
  ['EndsWith', m<string>(1, 3, (_c, s, a) => startsEnds(s, a, true))],
  ['IndexOf', m<string>(1, 4, (_c, s, a) => indexOf(s, a, false))],
  ['LastIndexOf', m<string>(1, 4, (_c, s, a) => indexOf(s, a, true))],
  ['PadLeft', m<string>(1, 2, (c, s, a) => pad(c, s, argInt(a[0]!, 'totalWidth'), a[1] === undefined ? 32 : argChar(a[1], 'paddingChar'), true))],
  ['PadRight', m<string>(1, 2, (c, s, a) => pad(c, s, argInt(a[0]!, 'totalWidth'), a[1] === undefined ? 32 : argChar(a[1], 'paddingChar'), false))],
  ['Split', m<string>(0, Infinity, (c, s, a) => split(c, s, a))],
  ['ToCharArray', m<string>(0, 0, (c, s) => {
    checkLength(c, s.length);
    charge(c, s.length);
    return ArrayVal.of(Array.from({ length: s.length }, (_x, i) => new Chr(s.charCodeAt(i))), 'System.Char');
  })],
  ['CompareTo', m<string>(1, 1, (_c, s, a) => stringCompare(s, a[0]!, false))],
  ['Equals', m<string>(1, 2, (_c, s, a) => {
    if (typeof a[0] !== 'string') return false;
    return ignoreCaseOf(a[1]) ? s.toLowerCase() === a[0].toLowerCase() : s === a[0];
  })],
]);

const DATE_PROPS: ReadonlyMap<string, (d: Date) => Value> = new Map<string, (d: Date) => Value>([
  ['Year', (d) => d.getUTCFullYear()],
  ['Month', (d) => d.getUTCMonth() + 1],
  ['Day', (d) => d.getUTCDate()],
  ['Hour', (d) => d.getUTCHours()],
  ['Minute', (d) => d.getUTCMinutes()],
  ['Second', (d) => d.getUTCSeconds()],
  ['Millisecond', (d) => d.getUTCMilliseconds()],
  ['DayOfWeek', (d) => DAYS_OF_WEEK[d.getUTCDay()]!],
  ['DayOfYear', (d) => dayOfYear(d)],
  ['Date', (d) => dateOnly(d)],
  ['TimeOfDay', (d) => new TimeSpan(d.getTime() - dateOnly(d).getTime())],
  ['Ticks', (d) => ticksOf(d)],
]);
const DATE_METHODS: ReadonlyMap<string, Method> = new Map([
  ['AddDays', m<Date>(1, 1, (_c, d, a) => addMs(d, argDouble(a[0]!, 'value') * 86_400_000))],
  ['AddHours', m<Date>(1, 1, (_c, d, a) => addMs(d, argDouble(a[0]!, 'value') * 3_600_000))],
  ['AddMinutes', m<Date>(1, 1, (_c, d, a) => addMs(d, argDouble(a[0]!, 'value') * 60_000))],
  ['AddSeconds', m<Date>(1, 1, (_c, d, a) => addMs(d, argDouble(a[0]!, 'value') * 1000))],
  ['AddMilliseconds', m<Date>(1, 1, (_c, d, a) => addMs(d, argDouble(a[0]!, 'value')))],
  ['AddTicks', m<Date>(1, 1, (_c, d, a) => addMs(d, Number(asLong(a[0]!)) / 10_000))],
  ['AddMonths', m<Date>(1, 1, (_c, d, a) => addMonths(d, argInt(a[0]!, 'months')))],
  ['AddYears', m<Date>(1, 1, (_c, d, a) => {
    const y = argInt(a[0]!, 'value');
    if (y < -10000 || y > 10000) throw outOfRange('Years value must be between +/-10000');
    return addMonths(d, y * 12);
  })],
  ['Add', m<Date>(1, 1, (_c, d, a) => dateFromMs(d.getTime() + timeSpanArg(a[0]!, 'value').ms))],
  ['Subtract', m<Date>(1, 1, (_c, d, a) => {
    const x = a[0]!;
    if (x instanceof Date) return new TimeSpan(d.getTime() - x.getTime());
    return dateFromMs(d.getTime() - timeSpanArg(x, 'value').ms);
  })],
  ['ToShortDateString', m<Date>(0, 0, (c, d) => format(c, d, 'd'))],
  ['ToLongDateString', m<Date>(0, 0, (c, d) => format(c, d, 'D'))],
  ['ToShortTimeString', m<Date>(0, 0, (c, d) => format(c, d, 't'))],
  ['ToLongTimeString', m<Date>(0, 0, (c, d) => format(c, d, 'T'))],
]);

const TIMESPAN_PROPS: ReadonlyMap<string, (t: TimeSpan) => Value> = new Map<string, (t: TimeSpan) => Value>([
  ['Days', (t) => t.days],
  ['Hours', (t) => t.hours],
  ['Minutes', (t) => t.minutes],
  ['Seconds', (t) => t.seconds],
  ['Milliseconds', (t) => t.milliseconds],
  ['Ticks', (t) => t.ticks],
  ['TotalDays', (t) => new Dbl(t.ms / 86_400_000)],
  ['TotalHours', (t) => new Dbl(t.ms / 3_600_000)],
  ['TotalMinutes', (t) => new Dbl(t.ms / 60_000)],
  ['TotalSeconds', (t) => new Dbl(t.ms / 1000)],
  ['TotalMilliseconds', (t) => new Dbl(t.ms)],
]);
const TIMESPAN_METHODS: ReadonlyMap<string, Method> = new Map([
  ['Add', m<TimeSpan>(1, 1, (_c, t, a) => new TimeSpan(t.ms + timeSpanArg(a[0]!, 'ts').ms))],
  ['Subtract', m<TimeSpan>(1, 1, (_c, t, a) => new TimeSpan(t.ms - timeSpanArg(a[0]!, 'ts').ms))],
  ['Negate', m<TimeSpan>(0, 0, (_c, t) => new TimeSpan(-t.ms))],
  ['Duration', m<TimeSpan>(0, 0, (_c, t) => new TimeSpan(Math.abs(t.ms)))],
]);

export function checkArgs(name: string, def: { min: number; max: number }, n: number): void {
  if (n < def.min || n > def.max) throw new ValueError('ArgumentException', `No overload for method '${name}' takes ${n} arguments`);
}

/** Reads property `name` of a value (already through ConvertNulls). */
export function getMember(_ctx: Ctx, self: Value, name: string): Value {
  if (self === null || self instanceof NullOf) throw nullRef(`.${name}`);
  if (typeof self === 'string') {
    const p = STRING_PROPS.get(name);
    if (p) return p(self);
  } else if (self instanceof Date) {
    const p = DATE_PROPS.get(name);
    if (p) return p(self);
  } else if (self instanceof TimeSpan) {
    const p = TIMESPAN_PROPS.get(name);
    if (p) return p(self);
  } else if (self instanceof ArrayVal || self instanceof Uint8Array) {
    if (name === 'Length' || (name === 'Count' && self instanceof ArrayVal)) return self.length;
  } else if (self instanceof EnumVal && name === 'value__') {
    return self.value;
  }
  throw new ValueError('MissingMemberException', `'${kindName(self)}' has no property '${name}'`);
}

/** Calls method `name` of a value (already through ConvertNulls) with evaluated arguments. */
export function callMethod(ctx: Ctx, self: Value, name: string, args: readonly Value[]): Value {
  if (self === null || self instanceof NullOf) throw nullRef(`.${name}()`);
  let meth: Method | undefined;
  if (typeof self === 'string') meth = STRING_METHODS.get(name);
  else if (self instanceof Date) meth = DATE_METHODS.get(name);
  else if (self instanceof TimeSpan) meth = TIMESPAN_METHODS.get(name);
  meth ??= COMMON_METHODS.get(name);
  if (!meth) throw new ValueError('MissingMethodException', `'${kindName(self)}' has no method '${name}'`);
  checkArgs(name, meth, args.length);
  return meth.fn(ctx, self as never, args);
}

/** `self[index]`: chars of a string, items of an array, bytes of a byte[]. */
export function indexValue(self: Value, index: Value): Value {
  if (self === null || self instanceof NullOf) throw nullRef('[]');
  const i = argInt(index, 'index');
  if (typeof self === 'string') {
    if (i < 0 || i >= self.length) throw new ValueError('IndexOutOfRangeException', 'Index was outside the bounds of the array');
    return new Chr(self.charCodeAt(i));
  }
  if (self instanceof ArrayVal) return self.get(i);
  if (self instanceof Uint8Array) {
    if (i < 0 || i >= self.length) throw new ValueError('IndexOutOfRangeException', 'Index was outside the bounds of the array');
    return self[i]!;
  }
  throw new ValueError('InvalidOperationException', `Cannot apply indexing with [] to a ${kindName(self)}`);
}

/** `new DateTime(…)` / `new TimeSpan(…)`. */
export function construct(type: string, args: readonly Value[]): Value {
  const ints = args.map((a, i) => argInt(a, `argument ${i + 1}`));
  if (type === 'System.DateTime') {
    if (ints.length === 3 || ints.length === 6 || ints.length === 7) {
      const [y, mo, d, h = 0, mi = 0, s = 0, ms = 0] = ints;
      return makeDate(y!, mo!, d!, h, mi, s, ms);
    }
    throw new ValueError('ArgumentException', `DateTime has no constructor taking ${args.length} arguments`);
  }
  if (type === 'System.TimeSpan') {
    if (args.length === 1) return new TimeSpan(Number(asLong(args[0]!)) / 10_000);
    if (ints.length === 3) return new TimeSpan(((ints[0]! * 60 + ints[1]!) * 60 + ints[2]!) * 1000);
    if (ints.length === 4 || ints.length === 5) return new TimeSpan((((ints[0]! * 24 + ints[1]!) * 60 + ints[2]!) * 60 + ints[3]!) * 1000 + (ints[4] ?? 0));
    throw new ValueError('ArgumentException', `TimeSpan has no constructor taking ${args.length} arguments`);
  }
  throw new ValueError('InvalidOperationException', `cannot create a ${type}`);
}

