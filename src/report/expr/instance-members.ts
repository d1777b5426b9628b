// Instance members: per-type allow-lists of the properties and methods of a value (string,
// DateTime, TimeSpan, numbers…), looked up in Maps by exact (case-sensitive, C#) name; nothing
// here reads a property of a JS object by a name taken from the expression.

import { charge, chargeScan, checkLength, type Ctx, format, outOfRange, str } from './context.js';
import { argChar, argDouble, argInt } from './convert.js';
import { asLong, isNumeric } from './numeric-kinds.js';
import { addMonths, addMs, dateOnly, DAYS_OF_WEEK, dayOfYear, ticksOf, timeSpanArg } from './date-ops.js';
import { dateFromMs, makeDate } from './date-time.js';
import { compare, equals } from './ops.js';
import {
  formatItem,
  ignoreCaseOf,
  indexOf,
  insert,
  mapCase,
  pad,
  remove,
  replace,
  searchText,
  split,
  startsEnds,
  stringCompare,
  substring,
  trimChars,
} from './string-ops.js';
import { TimeSpan } from './time-span.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { ArrayVal, Chr, Dbl, EnumVal, HostObject, NullOf, type Value } from './values.js';

const nullRef = (what: string) =>
  new ValueError('NullReferenceException', `Object reference not set to an instance of an object (${what} on null)`);

type Method = {
  readonly min: number;
  readonly max: number;
  readonly fn: (ctx: Ctx, self: never, args: readonly Value[]) => Value;
};
const m = <T>(min: number, max: number, fn: (ctx: Ctx, self: T, args: readonly Value[]) => Value): Method => ({
  min,
  max,
  fn: fn as Method['fn'],
});

function toStringMethod(ctx: Ctx, self: Value, args: readonly Value[]): Value {
  const f = args.find((a) => typeof a === 'string');
  if (f === undefined || f === '' || typeof self === 'string' || typeof self === 'boolean' || self instanceof Chr)
    return str(ctx, self);
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
  [
    'Substring',
    m<string>(1, 2, (_c, s, a) =>
      substring(s, argInt(a[0]!, 'startIndex'), a[1] === undefined ? undefined : argInt(a[1], 'length')),
    ),
  ],
  [
    'Remove',
    m<string>(1, 2, (_c, s, a) =>
      remove(s, argInt(a[0]!, 'startIndex'), a[1] === undefined ? undefined : argInt(a[1], 'count')),
    ),
  ],
  ['Insert', m<string>(2, 2, (c, s, a) => insert(c, s, argInt(a[0]!, 'startIndex'), a[1]!))],
  [
    'Replace',
    m<string>(2, 3, (c, s, a) =>
      replace(c, s, a[0]! instanceof Chr ? a[0]!.toString() : a[0]!, a[1]! instanceof Chr ? a[1]!.toString() : a[1]!),
    ),
  ],
  ['ToUpper', m<string>(0, 1, (_c, s) => mapCase(s, true))],
  ['ToLower', m<string>(0, 1, (_c, s) => mapCase(s, false))],
  ['ToUpperInvariant', m<string>(0, 0, (_c, s) => mapCase(s, true))],
  ['ToLowerInvariant', m<string>(0, 0, (_c, s) => mapCase(s, false))],
  [
    'Trim',
    m<string>(0, Infinity, (_c, s, a) =>
      trimChars(s, a.length ? a.map((x) => argChar(x, 'trimChars')) : null, true, true),
    ),
  ],
  [
    'TrimStart',
    m<string>(0, Infinity, (_c, s, a) =>
      trimChars(s, a.length ? a.map((x) => argChar(x, 'trimChars')) : null, true, false),
    ),
  ],
  [
    'TrimEnd',
    m<string>(0, Infinity, (_c, s, a) =>
      trimChars(s, a.length ? a.map((x) => argChar(x, 'trimChars')) : null, false, true),
    ),
  ],
  [
    'Contains',
    m<string>(1, 2, (_c, s, a) => {
      const v = searchText(a[0]!, 'value');
      return ignoreCaseOf(a[1]) ? s.toLowerCase().includes(v.toLowerCase()) : s.includes(v);
    }),
  ],
  ['StartsWith', m<string>(1, 3, (_c, s, a) => startsEnds(s, a, false))],
  ['EndsWith', m<string>(1, 3, (_c, s, a) => startsEnds(s, a, true))],
  ['IndexOf', m<string>(1, 4, (_c, s, a) => indexOf(s, a, false))],
  ['LastIndexOf', m<string>(1, 4, (_c, s, a) => indexOf(s, a, true))],
  [
    'PadLeft',
    m<string>(1, 2, (c, s, a) =>
      pad(c, s, argInt(a[0]!, 'totalWidth'), a[1] === undefined ? 32 : argChar(a[1], 'paddingChar'), true),
    ),
  ],
  [
    'PadRight',
    m<string>(1, 2, (c, s, a) =>
      pad(c, s, argInt(a[0]!, 'totalWidth'), a[1] === undefined ? 32 : argChar(a[1], 'paddingChar'), false),
    ),
  ],
  ['Split', m<string>(0, Infinity, (c, s, a) => split(c, s, a))],
  [
    'ToCharArray',
    m<string>(0, 0, (c, s) => {
      checkLength(c, s.length);
      charge(c, s.length);
      return ArrayVal.of(
        Array.from({ length: s.length }, (_x, i) => new Chr(s.charCodeAt(i))),
        'System.Char',
      );
    }),
  ],
  ['CompareTo', m<string>(1, 1, (_c, s, a) => stringCompare(s, a[0]!, false))],
  [
    'Equals',
    m<string>(1, 2, (_c, s, a) => {
      if (typeof a[0] !== 'string') return false;
      return ignoreCaseOf(a[1]) ? s.toLowerCase() === a[0].toLowerCase() : s === a[0];
    }),
  ],
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
  [
    'AddYears',
    m<Date>(1, 1, (_c, d, a) => {
      const y = argInt(a[0]!, 'value');
      if (y < -10000 || y > 10000) throw outOfRange('Years value must be between +/-10000');
      return addMonths(d, y * 12);
    }),
  ],
  ['Add', m<Date>(1, 1, (_c, d, a) => dateFromMs(d.getTime() + timeSpanArg(a[0]!, 'value').ms))],
  [
    'Subtract',
    m<Date>(1, 1, (_c, d, a) => {
      const x = a[0]!;
      if (x instanceof Date) return new TimeSpan(d.getTime() - x.getTime());
      return dateFromMs(d.getTime() - timeSpanArg(x, 'value').ms);
    }),
  ],
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

/** String methods that read the whole string (charged by its length). */
const SCANNING = new Set(['Contains', 'IndexOf', 'LastIndexOf', 'Replace', 'Split', 'EndsWith', 'Equals', 'CompareTo']);

export function checkArgs(name: string, def: { min: number; max: number }, n: number): void {
  if (n < def.min || n > def.max)
    throw new ValueError('ArgumentException', `No overload for method '${name}' takes ${n} arguments`);
}

/** Reads property `name` of a value (already through ConvertNulls). */
export function getMember(_ctx: Ctx, self: Value, name: string): Value {
  if (self === null || self instanceof NullOf) throw nullRef(`.${name}`);
  if (self instanceof HostObject) return self.member(name);
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
  if (self instanceof HostObject) return self.call(name, args, (v) => str(ctx, v));
  let meth: Method | undefined;
  if (typeof self === 'string') {
    meth = STRING_METHODS.get(name);
    if (SCANNING.has(name)) chargeScan(ctx, self, ...args);
  } else if (self instanceof Date) meth = DATE_METHODS.get(name);
  else if (self instanceof TimeSpan) meth = TIMESPAN_METHODS.get(name);
  meth ??= COMMON_METHODS.get(name);
  if (!meth) throw new ValueError('MissingMethodException', `'${kindName(self)}' has no method '${name}'`);
  checkArgs(name, meth, args.length);
  return meth.fn(ctx, self as never, args);
}

/** `self[index]`: chars of a string, items of an array, bytes of a byte[]. */
export function indexValue(self: Value, index: Value): Value {
  if (self === null || self instanceof NullOf) throw nullRef('[]');
  if (self instanceof HostObject) return self.index(index);
  const i = argInt(index, 'index');
  if (typeof self === 'string') {
    if (i < 0 || i >= self.length)
      throw new ValueError('IndexOutOfRangeException', 'Index was outside the bounds of the array');
    return new Chr(self.charCodeAt(i));
  }
  if (self instanceof ArrayVal) return self.get(i);
  if (self instanceof Uint8Array) {
    if (i < 0 || i >= self.length)
      throw new ValueError('IndexOutOfRangeException', 'Index was outside the bounds of the array');
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
    if (ints.length === 4 || ints.length === 5)
      return new TimeSpan((((ints[0]! * 24 + ints[1]!) * 60 + ints[2]!) * 60 + ints[3]!) * 1000 + (ints[4] ?? 0));
    throw new ValueError('ArgumentException', `TimeSpan has no constructor taking ${args.length} arguments`);
  }
  throw new ValueError('InvalidOperationException', `cannot create a ${type}`);
}
