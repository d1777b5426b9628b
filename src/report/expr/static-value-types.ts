// The static members of the value types: Int32…UInt32 (MinValue, MaxValue, Parse), Double and
// Single, Decimal, Boolean and Char. static-members.ts gathers them with the other static types.

import { type Ctx, outOfRange } from './context.js';
import { argChar, argDouble, argInt, argString, convertTo } from './convert.js';
import { Decimal } from './decimal.js';
import { def, type FnDef } from './functions.js';
import { round } from './number-ops.js';
import { parseDecimal, parseDouble, parseIntegral } from './parse-en-us.js';
import { IS_WS, mapCase } from './string-ops.js';
import { ValueError } from './value-error.js';
import { Chr, Dbl, Flt, type Value } from './values.js';

/** A .NET type's static properties and methods, by exact (case-sensitive, C#) name. */
export interface StaticType {
  readonly name: string;
  readonly props: ReadonlyMap<string, (ctx: Ctx) => Value>;
  readonly methods: ReadonlyMap<string, FnDef>;
}

const INT_LIMITS: [string, string, number | bigint, number | bigint][] = [
  ['Int32', 'System.Int32', -2147483648, 2147483647],
  ['Int16', 'System.Int16', -32768, 32767],
  ['Byte', 'System.Byte', 0, 255],
  ['SByte', 'System.SByte', -128, 127],
  ['UInt16', 'System.UInt16', 0, 65535],
  ['Int64', 'System.Int64', -9223372036854775808n, 9223372036854775807n],
  ['UInt32', 'System.UInt32', 0n, 4294967295n],
];

export const VALUE_TYPE_STATICS: StaticType[] = [
  ...INT_LIMITS.map(
    ([name, type, min, max]): StaticType => ({
      name,
      props: new Map<string, (c: Ctx) => Value>([
        ['MinValue', () => min],
        ['MaxValue', () => max],
      ]),
      methods: new Map([['Parse', def(1, 2, (_c, a) => parseIntegral(argString(a[0]!, 's'), type))]]),
    }),
  ),
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
      [
        'ToLower',
        def(1, 1, (_c, a) => new Chr(mapCase(String.fromCharCode(argChar(a[0]!, 'c')), false).charCodeAt(0))),
      ],
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
  if (n < -2147483648n || n > 2147483647n)
    throw new ValueError('OverflowException', 'Value was either too large or too small for an Int32');
  return Number(n);
}
