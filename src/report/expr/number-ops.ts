// Numbers (Round, Abs, Floor/Ceiling/Truncate, Min/Max with .NET semantics) and FastReport's
// ToRoman and English ToWords.

import { type Ctx, outOfRange } from './context.js';
import { argDouble, argInt, argString, convertTo } from './convert.js';
import { Decimal, type RoundingMode } from './decimal.js';
import { asDouble, DOUBLE, FLOAT, numKind, promote, roundDouble, toKind } from './numeric-kinds.js';
import { compare } from './ops.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { Chr, Dbl, EnumVal, Flt, type Value } from './values.js';

// ---------------------------------------------------------------------------------------------
// Numbers

export const MIDPOINT = ['ToEven', 'AwayFromZero', 'ToZero', 'ToNegativeInfinity', 'ToPositiveInfinity'];
const MIDPOINT_MODE: RoundingMode[] = ['even', 'away', 'trunc', 'floor', 'ceiling'];

export function round(args: readonly Value[]): Value {
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

export function abs(x: Value): Value {
  if (typeof x === 'number') {
    if (x === -2147483648)
      throw new ValueError('OverflowException', 'Negating the minimum value of a twos complement number is invalid');
    return Math.abs(x);
  }
  if (x instanceof Chr) return x.code;
  if (typeof x === 'bigint') {
    if (x === -9223372036854775808n)
      throw new ValueError('OverflowException', 'Negating the minimum value of a twos complement number is invalid');
    return x < 0n ? -x : x;
  }
  if (x instanceof Dbl) return new Dbl(Math.abs(x.v));
  if (x instanceof Flt) return new Flt(Math.abs(x.v));
  if (x instanceof Decimal) return x.abs();
  throw new ValueError('ArgumentException', `Abs needs a number, not a ${kindName(x)}`);
}

export function roundTo(x: Value, mode: 'floor' | 'ceiling' | 'trunc'): Value {
  if (x instanceof Decimal) return mode === 'floor' ? x.floor() : mode === 'ceiling' ? x.ceiling() : x.truncate();
  const d = argDouble(x, 'value');
  return new Dbl(mode === 'floor' ? Math.floor(d) : mode === 'ceiling' ? Math.ceil(d) : Math.trunc(d));
}

export function minMax(a: Value, b: Value, max: boolean): Value {
  const ka = numKind(a),
    kb = numKind(b);
  if (ka < 0 || kb < 0)
    throw new ValueError(
      'ArgumentException',
      `${max ? 'Max' : 'Min'} needs numbers, not ${kindName(a)} and ${kindName(b)}`,
    );
  const k = promote(ka as 0, kb as 0);
  const x = toKind(a, k),
    y = toKind(b, k);
  if ((k === DOUBLE || k === FLOAT) && (Number.isNaN(asDouble(x)) || Number.isNaN(asDouble(y))))
    return k === DOUBLE ? new Dbl(NaN) : new Flt(NaN);
  const gt = compare('>', x, y);
  return max ? (gt ? x : y) : gt ? y : x;
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
const FIXED = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', 'ten', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const DOLLARS: [WordForms, WordForms] = [
  { one: 'dollar', many: 'dollars' },
  { one: 'cent', many: 'cents' },
];
const CURRENCIES: ReadonlyMap<string, [WordForms, WordForms]> = new Map([
  ['USD', DOLLARS],
  ['CAD', DOLLARS],
  [
    'EUR',
    [
      { one: 'euro', many: 'euros' },
      { one: 'cent', many: 'cents' },
    ],
  ],
  [
    'GBP',
    [
      { one: 'pound', many: 'pounds' },
      { one: 'penny', many: 'pence' },
    ],
  ],
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
  if (n > 9223372036854775807n)
    throw new ValueError('OverflowException', 'Value was either too large or too small for an Int64');
  let cents = Number(
    a.sub(Decimal.fromInteger(n)).add(Decimal.of(5n, 3)).mul(Decimal.fromInteger(100)).truncate().toBigInt(),
  );
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

export function toWords(ctx: Ctx, args: readonly Value[]): string {
  const value = convertTo(ctx, args[0]!, 'System.Decimal') as Decimal;
  if (args.length === 3)
    return toWordsEn(value, { one: argString(args[1]!, 'one'), many: argString(args[2]!, 'many') }, null);
  const name = args.length === 2 ? argString(args[1]!, 'currencyName').toUpperCase() : 'USD';
  const cur = CURRENCIES.get(name);
  if (!cur) throw new ValueError('ArgumentException', `Currency "${name}" is not defined in the English converter`);
  return toWordsEn(value, cur[0], cur[1]);
}
