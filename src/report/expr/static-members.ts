// Static members: the fixed set of .NET static members (Math, Convert, String, DateTime…) and
// enums a template may use, looked up in Maps by exact (case-sensitive, C#) name.

import {
  charge,
  chargeScan,
  checkLength,
  concat,
  type Ctx,
  cv,
  fail,
  isNullish,
  lookupName,
  now,
  outOfRange,
  str,
} from './context.js';
import { argDate, argDouble, argInt, argString, convertTo } from './convert.js';
import { dateOnly, DAY_NAMES, fromUnit } from './date-ops.js';
import { DATETIME_MAX_MS, DATETIME_MIN_MS, daysInMonth, isLeapYear } from './date-time.js';
import { Decimal } from './decimal.js';
import { dbl1, def, type FnDef, MATH_FNS } from './functions.js';
import { MIDPOINT, minMax } from './number-ops.js';
import { asLong } from './numeric-kinds.js';
import { parseDateTime } from './parse-en-us.js';
import { parseTimeSpan } from './scope-values.js';
import { type StaticType, VALUE_TYPE_STATICS } from './static-value-types.js';
import { composite, ignoreCaseOf, stringCompare, trimChars } from './string-ops.js';
import { TimeSpan } from './time-span.js';
import { ValueError } from './value-error.js';
import { ArrayVal, Dbl, EnumVal, HostObject, NullOf, type Value } from './values.js';

const enumType = (type: string, names: readonly string[], values?: readonly number[]): StaticType => ({
  name: type,
  props: new Map(names.map((n, i) => [n, () => new EnumVal(type, n, values?.[i] ?? i)] as const)),
  methods: new Map(),
});

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
      ['Pow', def(2, 2, (_c, a) => new Dbl(argDouble(a[0]!) ** argDouble(a[1]!)))],
      ['Max', def(2, 2, (_c, a) => minMax(a[0]!, a[1]!, true))],
      ['Min', def(2, 2, (_c, a) => minMax(a[0]!, a[1]!, false))],
      [
        'Sign',
        def(1, 1, (_c, a) => {
          const x = a[0]!;
          if (x instanceof Decimal) return x.sign;
          if (typeof x === 'bigint') return x < 0n ? -1 : x > 0n ? 1 : 0;
          const d = argDouble(x);
          if (Number.isNaN(d))
            throw new ValueError('ArithmeticException', 'Function does not accept floating point Not-a-Number values');
          return d < 0 ? -1 : d > 0 ? 1 : 0;
        }),
      ],
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
      [
        'ToString',
        def(1, 2, (c, a) => {
          if (a.length === 2 && typeof a[1] === 'number') {
            const base = a[1];
            if (![2, 8, 10, 16].includes(base)) throw new ValueError('ArgumentException', 'Invalid Base');
            const x = a[0]!;
            if (typeof x !== 'number' && typeof x !== 'bigint')
              throw new ValueError('ArgumentException', 'ToString with a base needs an integer');
            const n = typeof x === 'number' ? BigInt.asUintN(base === 10 ? 64 : 32, BigInt(x)) : BigInt.asUintN(64, x);
            return base === 10 ? String(x) : n.toString(base);
          }
          return convertTo(c, a[0]!, 'System.String');
        }),
      ],
      ['IsDBNull', def(1, 1, (_c, a) => isNullish(a[0]!), 'raw')],
      [
        'ToBase64String',
        def(1, 1, (c, a) => {
          const b = a[0];
          if (!(b instanceof Uint8Array)) throw new ValueError('ArgumentException', 'ToBase64String needs a byte[]');
          checkLength(c, Math.ceil(b.length / 3) * 4);
          return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
        }),
      ],
    ]),
  },
  {
    name: 'String',
    props: new Map([['Empty', () => '']]),
    methods: new Map<string, FnDef>([
      [
        'Format',
        def(1, Infinity, (c, a) => {
          // String.Format(provider, format, args…): the provider is ignored (en-US / formatter).
          const args = a[0] instanceof EnumVal ? a.slice(1) : a;
          return composite(c, argString(args[0] ?? null, 'format'), args.slice(1));
        }),
      ],
      ['IsNullOrEmpty', def(1, 1, (_c, a) => a[0] === null || a[0] === '')],
      [
        'IsNullOrWhiteSpace',
        def(1, 1, (_c, a) => a[0] === null || trimChars(argString(a[0]!), null, true, true) === ''),
      ],
      [
        'Concat',
        def(0, Infinity, (c, a) =>
          a.reduce<string>((acc, v) => concat(c, acc, v instanceof ArrayVal ? joinArray(c, '', v) : str(c, v)), ''),
        ),
      ],
      [
        'Join',
        def(2, Infinity, (c, a) => {
          const sep = a[0] === null ? '' : str(c, a[0]!);
          if (a.length === 2 && a[1] instanceof ArrayVal) return joinArray(c, sep, a[1]);
          if (a.length === 2 && isCollection(a[1]!)) return joinItems(c, sep, (a[1] as HostObject).items());
          return a
            .slice(1)
            .reduce<string>((acc, v, i) => concat(c, i === 0 ? acc : concat(c, acc, sep), str(c, v)), '');
        }),
      ],
      [
        'Compare',
        def(2, 3, (c, a) => {
          chargeScan(c, a[0], a[1]);
          return stringCompare(a[0]!, a[1]!, ignoreCaseOf(a[2]));
        }),
      ],
      [
        'Equals',
        def(2, 3, (c, a) => {
          chargeScan(c, a[0], a[1]);
          if (a[0] === null || a[1] === null) return a[0] === a[1];
          const x = argString(a[0]!),
            y = argString(a[1]!);
          return ignoreCaseOf(a[2]) ? x.toLowerCase() === y.toLowerCase() : x === y;
        }),
      ],
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
      [
        'IsLeapYear',
        def(1, 1, (_c, a) => {
          const y = argInt(a[0]!, 'year');
          if (y < 1 || y > 9999) throw outOfRange('Year must be between 1 and 9999');
          return isLeapYear(y);
        }),
      ],
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
      [
        'Parse',
        def(1, 2, (_c, a) => {
          const t = parseTimeSpan(argString(a[0]!, 's'));
          if (!t) throw new ValueError('FormatException', 'String was not recognized as a valid TimeSpan');
          return t;
        }),
      ],
    ]),
  },
  { name: 'DBNull', props: new Map([['Value', () => null]]), methods: new Map() },
  ...VALUE_TYPE_STATICS,
  enumType('System.MidpointRounding', MIDPOINT),
  enumType('System.DayOfWeek', DAY_NAMES),
  enumType('System.StringComparison', [
    'CurrentCulture',
    'CurrentCultureIgnoreCase',
    'InvariantCulture',
    'InvariantCultureIgnoreCase',
    'Ordinal',
    'OrdinalIgnoreCase',
  ]),
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

function joinArray(ctx: Ctx, sep: string, a: ArrayVal): string {
  let out = '';
  for (let i = 0; i < a.length; i++) out = concat(ctx, i === 0 ? out : concat(ctx, out, sep), str(ctx, a.get(i)));
  return out;
}

/** A script's collection (a List, an array, a Dictionary): String.Join joins its items, where it
 *  prints any other object as its type's name. */
function isCollection(v: Value): boolean {
  return v instanceof HostObject && (v.typeName.endsWith('[]') || v.typeName.startsWith('System.Collections.'));
}

/** Joins a collection's items, a step each (a huge collection costs what it is), the length
 *  checked as it grows. */
function joinItems(ctx: Ctx, sep: string, items: Iterable<Value>): string {
  const parts: string[] = [];
  let length = 0;
  for (const v of items) {
    charge(ctx, 1);
    const text = str(ctx, v);
    length += text.length + (parts.length > 0 ? sep.length : 0);
    if (length > ctx.limits.maxStringLength) checkLength(ctx, length);
    parts.push(text);
  }
  checkLength(ctx, length);
  return parts.join(sep);
}

/** Static types by every name a template may use: "Math", "System.Math", "string", "int"… */
export const STATIC_TYPES: ReadonlyMap<string, StaticType> = (() => {
  const m = new Map<string, StaticType>();
  const keyword: Record<string, string> = {
    String: 'string',
    Int32: 'int',
    Int64: 'long',
    Int16: 'short',
    Byte: 'byte',
    SByte: 'sbyte',
    UInt16: 'ushort',
    UInt32: 'uint',
    Double: 'double',
    Single: 'float',
    Decimal: 'decimal',
    Boolean: 'bool',
    Char: 'char',
  };
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
