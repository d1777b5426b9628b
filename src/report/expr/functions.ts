// The only things an expression can call or read besides the scope: FastReport's standard
// functions (here), a fixed set of .NET static members (Math, Convert, String, DateTime…;
// static-members.ts), and per-type allow-lists of instance members (string, DateTime, TimeSpan,
// numbers…; instance-members.ts). Everything is looked up in Maps by exact (case-sensitive, C#)
// name; nothing here reads a property of a JS object by a name taken from the expression.

import { charge, type Ctx, cv, format, outOfRange } from './context.js';
import { argChar, argDate, argDouble, argInt, argString, convertTo } from './convert.js';
import { addMonths, addMs, dayOfYear, formatDateTime, weekOfYear } from './date-ops.js';
import { daysInMonth, makeDate } from './date-time.js';
import { abs, minMax, round, roundTo, toRoman, toWords } from './number-ops.js';
import {
  composite,
  formatItem,
  insert,
  mapCase,
  pad,
  remove,
  replace,
  substring,
  titleCase,
  trimChars,
} from './string-ops.js';
import { TimeSpan } from './time-span.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { Chr, Dbl, type Value } from './values.js';

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

export const def = (
  min: number,
  max: number,
  fn: (ctx: Ctx, args: readonly Value[]) => Value,
  mode: ArgMode = 'cv',
): FnDef => ({ min, max, mode, fn });
const lazy = (min: number, max: number, fn: (ctx: Ctx, arg: (i: number) => Value, argc: number) => Value): FnDef => ({
  min,
  max,
  mode: 'lazy',
  fn: (ctx, _args, arg, argc) => fn(ctx, arg, argc),
});

export const dbl1 = (f: (x: number) => number) => def(1, 1, (_c, a) => new Dbl(f(argDouble(a[0]!))));

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

export const MATH_FNS: [string, FnDef][] = [
  ['Abs', def(1, 1, (_c, a) => abs(a[0]!))],
  ['Acos', dbl1(Math.acos)],
  ['Asin', dbl1(Math.asin)],
  ['Atan', dbl1(Math.atan)],
  ['Ceiling', def(1, 1, (_c, a) => roundTo(a[0]!, 'ceiling'))],
  ['Cos', dbl1(Math.cos)],
  ['Exp', dbl1(Math.exp)],
  ['Floor', def(1, 1, (_c, a) => roundTo(a[0]!, 'floor'))],
  [
    'Log',
    def(
      1,
      2,
      (_c, a) =>
        new Dbl(a.length === 1 ? Math.log(argDouble(a[0]!)) : Math.log(argDouble(a[0]!)) / Math.log(argDouble(a[1]!))),
    ),
  ],
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
  [
    'Insert',
    def(3, 3, (c, a) => {
      const s = strArg(a[0]!);
      return s === null ? '' : insert(c, s, argInt(a[1]!, 'startIndex'), a[2]!);
    }),
  ],
  ['Length', def(1, 1, (_c, a) => strArg(a[0]!)?.length ?? 0)],
  ['LowerCase', def(1, 1, (_c, a) => mapCase(strArg(a[0]!) ?? '', false))],
  [
    'PadLeft',
    def(2, 3, (c, a) => {
      const s = strArg(a[0]!);
      return s === null
        ? ''
        : pad(c, s, argInt(a[1]!, 'totalWidth'), a[2] === undefined ? 32 : argChar(a[2], 'paddingChar'), true);
    }),
  ],
  [
    'PadRight',
    def(2, 3, (c, a) => {
      const s = strArg(a[0]!);
      return s === null
        ? ''
        : pad(c, s, argInt(a[1]!, 'totalWidth'), a[2] === undefined ? 32 : argChar(a[2], 'paddingChar'), false);
    }),
  ],
  [
    'Remove',
    def(2, 3, (_c, a) => {
      const s = strArg(a[0]!);
      return s === null
        ? ''
        : remove(s, argInt(a[1]!, 'startIndex'), a[2] === undefined ? undefined : argInt(a[2], 'count'));
    }),
  ],
  [
    'Replace',
    def(3, 3, (c, a) => {
      const s = strArg(a[0]!);
      return s === null ? '' : replace(c, s, a[1]!, a[2]!);
    }),
  ],
  [
    'Substring',
    def(2, 3, (_c, a) => {
      const s = strArg(a[0]!);
      return s === null
        ? ''
        : substring(s, argInt(a[1]!, 'startIndex'), a[2] === undefined ? undefined : argInt(a[2], 'length'));
    }),
  ],
  [
    'TitleCase',
    def(1, 1, (c, a) => {
      const s = strArg(a[0]!) ?? '';
      charge(c, s.length >>> 4);
      return titleCase(s);
    }),
  ],
  ['Trim', def(1, 1, (_c, a) => trimChars(strArg(a[0]!) ?? '', null, true, true))],
  ['UpperCase', def(1, 1, (_c, a) => mapCase(strArg(a[0]!) ?? '', true))],
  // Date & time
  ['AddDays', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 86_400_000))],
  ['AddHours', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 3_600_000))],
  ['AddMinutes', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 60_000))],
  ['AddSeconds', def(2, 2, (_c, a) => addMs(argDate(a[0]!, 'date'), argDouble(a[1]!, 'value') * 1000))],
  ['AddMonths', def(2, 2, (_c, a) => addMonths(argDate(a[0]!, 'date'), argInt(a[1]!, 'value')))],
  [
    'AddYears',
    def(2, 2, (_c, a) => {
      const y = argInt(a[1]!, 'value');
      if (y < -10000 || y > 10000) throw outOfRange('Years value must be between +/-10000');
      return addMonths(argDate(a[0]!, 'date'), y * 12);
    }),
  ],
  [
    'DateDiff',
    def(2, 2, (_c, a) => new TimeSpan(argDate(a[0]!, 'date1').getTime() - argDate(a[1]!, 'date2').getTime())),
  ],
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
  [
    'FormatCurrency',
    def(1, 2, (c, a) => formatItem(c, a[0]!, `C${a[1] === undefined ? '' : argInt(a[1], 'decimalDigits')}`)),
  ],
  ['FormatDateTime', def(1, 2, (c, a) => formatDateTime(c, a))],
  [
    'FormatNumber',
    def(1, 2, (c, a) => formatItem(c, a[0]!, `N${a[1] === undefined ? '' : argInt(a[1], 'decimalDigits')}`)),
  ],
  [
    'FormatPercent',
    def(1, 2, (c, a) => formatItem(c, a[0]!, `P${a[1] === undefined ? '' : argInt(a[1], 'decimalDigits')}`)),
  ],
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
  [
    'Choose',
    lazy(1, Infinity, (c, arg, argc) => {
      const i = Math.trunc(argDouble(cv(c, arg(0)), 'index')) - 1;
      return i >= 0 && i < argc - 1 ? arg(i + 1) : null;
    }),
  ],
  ['IIf', lazy(3, 3, (c, arg) => (toCondition(cv(c, arg(0))) ? arg(1) : arg(2)))],
  [
    'Switch',
    lazy(0, Infinity, (c, arg, argc) => {
      for (let i = 0; i + 1 < argc; i += 2)
        if (convertTo(c, cv(c, arg(i)), 'System.Boolean') === true) return arg(i + 1);
      return null;
    }),
  ],
  // IsNull("Table.Column"): is the named column/parameter/total null? (raw value, whatever
  // ConvertNulls says). IsNull([Table.Column]) checks that value directly.
  ['IsNull', { min: 1, max: 1, mode: 'isnull', fn: () => null }],
]);
