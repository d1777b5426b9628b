// The integral types' ranges and the three ways a number becomes one: wrapped (unchecked),
// saturated (a double, as .NET 9 does) and checked (OverflowException).

import { ValueError } from './value-error.js';
import { Chr, type Value } from './values.js';

export const INT_RANGES: Record<string, readonly [number, number]> = {
  'System.Int32': [-2147483648, 2147483647],
  'System.Int16': [-32768, 32767],
  'System.SByte': [-128, 127],
  'System.Byte': [0, 255],
  'System.UInt16': [0, 65535],
  'System.Char': [0, 65535],
};
export const LONG_RANGES: Record<string, readonly [bigint, bigint]> = {
  'System.Int64': [-9223372036854775808n, 9223372036854775807n],
  'System.UInt32': [0n, 4294967295n],
  'System.UInt64': [0n, 9223372036854775807n],
};

/** Wraps an integer to a narrow integral type (unchecked conversion). */
export function wrapInt(n: bigint, type: string): Value {
  switch (type) {
    case 'System.Int32':
      return Number(BigInt.asIntN(32, n));
    case 'System.Int16':
      return Number(BigInt.asIntN(16, n));
    case 'System.SByte':
      return Number(BigInt.asIntN(8, n));
    case 'System.Byte':
      return Number(BigInt.asUintN(8, n));
    case 'System.UInt16':
      return Number(BigInt.asUintN(16, n));
    case 'System.Char':
      return new Chr(Number(BigInt.asUintN(16, n)));
    case 'System.UInt32':
      return BigInt.asUintN(32, n);
    default:
      return BigInt.asIntN(64, n);
  }
}

/** A double converted to an integral type: truncated, saturating (NaN → 0), as .NET 9 does. */
export function doubleToIntegral(x: number, type: string): Value {
  const t = Math.trunc(x);
  const r = INT_RANGES[type];
  if (r) {
    const n = Number.isNaN(t) ? 0 : Math.min(r[1], Math.max(r[0], t));
    return type === 'System.Char' ? new Chr(n) : n;
  }
  const lr = LONG_RANGES[type]!;
  if (Number.isNaN(t)) return 0n;
  if (t <= Number(lr[0])) return lr[0];
  if (t >= Number(lr[1])) return lr[1];
  return BigInt(t);
}

export function checkedIntegral(n: bigint, type: string): Value {
  const r = INT_RANGES[type];
  if (r) {
    if (n < BigInt(r[0]) || n > BigInt(r[1]))
      throw new ValueError('OverflowException', `Value was either too large or too small for ${type.slice(7)}`);
    return type === 'System.Char' ? new Chr(Number(n)) : Number(n);
  }
  const lr = LONG_RANGES[type]!;
  if (n < lr[0] || n > lr[1])
    throw new ValueError('OverflowException', `Value was either too large or too small for ${type.slice(7)}`);
  return n;
}

export const isIntegralType = (t: string) => t in INT_RANGES || t in LONG_RANGES;
