// C# operators on runtime values. Operands arrive through ConvertNulls already; a remaining null
// follows C#'s lifted operators (arithmetic → null, comparisons → false).

import { concat, type Ctx, str } from './context.js';
import {
  asDecimal,
  asDouble,
  asInt,
  asLong,
  DEC,
  DOUBLE,
  FLOAT,
  INT,
  LONG,
  numKind,
  promote,
} from './numeric-kinds.js';
import { dateFromMs } from './date-time.js';
import { Decimal } from './decimal.js';
import { TimeSpan } from './time-span.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { Chr, Dbl, EnumVal, Flt, type Value } from './values.js';

const INT_MIN = -2147483648;
const LONG_MIN = -9223372036854775808n;

function noOperator(op: string, a: Value, b?: Value): ValueError {
  return b === undefined
    ? new ValueError(
        'InvalidOperationException',
        `Operator '${op}' cannot be applied to operand of type '${kindName(a)}'`,
      )
    : new ValueError(
        'InvalidOperationException',
        `Operator '${op}' cannot be applied to operands of type '${kindName(a)}' and '${kindName(b)}'`,
      );
}

const divideByZero = () => new ValueError('DivideByZeroException', 'Attempted to divide by zero');
const overflow = () => new ValueError('OverflowException', 'Arithmetic operation resulted in an overflow');

/** + - * / % << >> & | ^ on two values. */
export function arith(ctx: Ctx, op: string, a: Value, b: Value): Value {
  // String concatenation: string + anything (null → "").
  if (op === '+' && (typeof a === 'string' || typeof b === 'string')) return concat(ctx, str(ctx, a), str(ctx, b));
  if (a === null || b === null) {
    if (
      op === '+' ||
      op === '-' ||
      op === '*' ||
      op === '/' ||
      op === '%' ||
      op === '<<' ||
      op === '>>' ||
      op === '&' ||
      op === '|' ||
      op === '^'
    )
      return null;
    throw noOperator(op, a, b);
  }
  // Dates and time spans.
  if (a instanceof Date || b instanceof Date || a instanceof TimeSpan || b instanceof TimeSpan)
    return dateArith(op, a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') {
    if (op === '&') return a && b;
    if (op === '|') return a || b;
    if (op === '^') return a !== b;
    throw noOperator(op, a, b);
  }
  const ka = numKind(a);
  const kb = numKind(b);
  if (ka < 0 || kb < 0) throw noOperator(op, a, b);
  if (op === '<<' || op === '>>') {
    if (kb !== INT || (ka !== INT && ka !== LONG)) throw noOperator(op, a, b);
    const n = asInt(b);
    if (ka === INT) return op === '<<' ? asInt(a) << (n & 31) : asInt(a) >> (n & 31);
    const x = asLong(a);
    return op === '<<' ? BigInt.asIntN(64, x << BigInt(n & 63)) : x >> BigInt(n & 63);
  }
  const k = promote(ka as 0, kb as 0);
  switch (k) {
    case INT: {
      const x = asInt(a),
        y = asInt(b);
      switch (op) {
        case '+':
          return (x + y) | 0;
        case '-':
          return (x - y) | 0;
        case '*':
          return Math.imul(x, y);
        case '/':
          if (y === 0) throw divideByZero();
          if (x === INT_MIN && y === -1) throw overflow();
          return (x / y) | 0;
        case '%':
          if (y === 0) throw divideByZero();
          if (x === INT_MIN && y === -1) throw overflow();
          return (x % y) | 0;
        case '&':
          return x & y;
        case '|':
          return x | y;
        case '^':
          return x ^ y;
      }
      break;
    }
    case LONG: {
      const x = asLong(a),
        y = asLong(b);
      switch (op) {
        case '+':
          return BigInt.asIntN(64, x + y);
        case '-':
          return BigInt.asIntN(64, x - y);
        case '*':
          return BigInt.asIntN(64, x * y);
        case '/':
          if (y === 0n) throw divideByZero();
          if (x === LONG_MIN && y === -1n) throw overflow();
          return x / y;
        case '%':
          if (y === 0n) throw divideByZero();
          if (x === LONG_MIN && y === -1n) throw overflow();
          return x % y;
        case '&':
          return BigInt.asIntN(64, x & y);
        case '|':
          return BigInt.asIntN(64, x | y);
        case '^':
          return BigInt.asIntN(64, x ^ y);
      }
      break;
    }
    case FLOAT:
    case DOUBLE: {
      const x = asDouble(a),
        y = asDouble(b);
      let r: number;
      switch (op) {
        case '+':
          r = x + y;
          break;
        case '-':
          r = x - y;
          break;
        case '*':
          r = x * y;
          break;
        case '/':
          r = x / y;
          break;
        case '%':
          r = x % y;
          break;
        default:
          throw noOperator(op, a, b);
      }
      return k === FLOAT ? new Flt(r) : new Dbl(r);
    }
    case DEC: {
      const x = asDecimal(a),
        y = asDecimal(b);
      switch (op) {
        case '+':
          return x.add(y);
        case '-':
          return x.sub(y);
        case '*':
          return x.mul(y);
        case '/':
          return x.div(y);
        case '%':
          return x.mod(y);
      }
      break;
    }
  }
  throw noOperator(op, a, b);
}

function dateArith(op: string, a: Value, b: Value): Value {
  if (op === '+') {
    if (a instanceof Date && b instanceof TimeSpan) return dateFromMs(a.getTime() + b.ms);
    if (a instanceof TimeSpan && b instanceof Date) return dateFromMs(b.getTime() + a.ms);
    if (a instanceof TimeSpan && b instanceof TimeSpan) return new TimeSpan(a.ms + b.ms);
  } else if (op === '-') {
    if (a instanceof Date && b instanceof Date) return new TimeSpan(a.getTime() - b.getTime());
    if (a instanceof Date && b instanceof TimeSpan) return dateFromMs(a.getTime() - b.ms);
    if (a instanceof TimeSpan && b instanceof TimeSpan) return new TimeSpan(a.ms - b.ms);
  }
  throw noOperator(op, a, b);
}

/** Orders two values for < > <= >=, or undefined when a side is null (lifted: false). */
function order(op: string, a: Value, b: Value): number | undefined {
  if (a === null || b === null) return undefined;
  const ka = numKind(a),
    kb = numKind(b);
  if (ka >= 0 && kb >= 0) {
    const k = promote(ka as 0, kb as 0);
    if (k === DEC) return asDecimal(a).cmp(asDecimal(b));
    if (k === LONG) {
      const x = asLong(a),
        y = asLong(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    const x = asDouble(a),
      y = asDouble(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (a instanceof TimeSpan && b instanceof TimeSpan) return Math.sign(a.ms - b.ms);
  if (a instanceof EnumVal && b instanceof EnumVal && a.type === b.type) return Math.sign(a.value - b.value);
  throw noOperator(op, a, b);
}

export function compare(op: string, a: Value, b: Value): boolean {
  const c = order(op, a, b);
  if (c === undefined || Number.isNaN(c)) return false;
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    default:
      return c >= 0;
  }
}

/** C# == on two non-null-literal values. Values of unrelated types are an error, as C# refuses
 *  to compile them. */
export function equals(a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b;
  const ka = numKind(a),
    kb = numKind(b);
  if (ka >= 0 && kb >= 0) {
    const k = promote(ka as 0, kb as 0);
    if (k === DEC) return asDecimal(a).cmp(asDecimal(b)) === 0;
    if (k === LONG) return asLong(a) === asLong(b);
    return asDouble(a) === asDouble(b);
  }
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof TimeSpan && b instanceof TimeSpan) return a.ms === b.ms;
  if (a instanceof EnumVal && b instanceof EnumVal) return a.type === b.type && a.value === b.value;
  if (a instanceof EnumVal && typeof b === 'number') return a.value === b;
  if (b instanceof EnumVal && typeof a === 'number') return b.value === a;
  if (
    typeof a === 'object' &&
    typeof b === 'object' &&
    numKind(a) < 0 &&
    numKind(b) < 0 &&
    !(a instanceof Date) &&
    !(b instanceof Date) &&
    !(a instanceof TimeSpan) &&
    !(b instanceof TimeSpan)
  ) {
    return a === b; // arrays, byte[], JSON objects: reference equality
  }
  throw noOperator('==', a, b);
}

export function unary(op: string, x: Value): Value {
  if (x === null) {
    if (op === '-' || op === '+' || op === '~' || op === '!') return null;
  }
  switch (op) {
    case '!':
      if (typeof x === 'boolean') return !x;
      break;
    case '+':
      if (x instanceof Chr) return x.code;
      if (numKind(x) >= 0) return x;
      break;
    case '-':
      if (typeof x === 'number') return (0 - x) | 0;
      if (x instanceof Chr) return -x.code;
      if (typeof x === 'bigint') return BigInt.asIntN(64, -x);
      if (x instanceof Dbl) return new Dbl(-x.v);
      if (x instanceof Flt) return new Flt(-x.v);
      if (x instanceof Decimal) return x.neg();
      if (x instanceof TimeSpan) return new TimeSpan(-x.ms);
      break;
    case '~':
      if (typeof x === 'number') return ~x;
      if (x instanceof Chr) return ~x.code;
      if (typeof x === 'bigint') return BigInt.asIntN(64, ~x);
      break;
  }
  throw noOperator(op, x);
}
