// Fast paths of the number digits: toFixed for fixed-decimal formats (C, F, N, P) gives the digits
// of the exact path (every digit of the double, rounded half to even) or leaves the value to it;
// an integer typed Double gets its own digits as its shortest.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactDouble, fixedDouble, roundBuffer, shortestDouble } from '../../../src/report/format/digits.js';

const exact = (x: number, decimals: number) => {
  const b = exactDouble(x);
  roundBuffer(b, b.scale + decimals, 'halfEven');
  return b;
};

describe('fixedDouble', () => {
  it('agrees with the exact digits wherever it answers', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.double({ min: -1e7, max: 1e7, noNaN: true }),
          fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
          fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 8),
        ),
        fc.integer({ min: 0, max: 17 }),
        (x, decimals) => {
          const fast = fixedDouble(x, decimals);
          if (fast) expect(fast).toEqual(exact(x, decimals));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('answers for ordinary amounts, and leaves ties, zeros and huge values to the exact path', () => {
    expect(fixedDouble(1234.567, 2)).toEqual({ kind: 'double', negative: false, digits: '123457', scale: 4 });
    expect(fixedDouble(-0.07, 1)).toEqual({ kind: 'double', negative: true, digits: '1', scale: 0 });
    // Near a tie (0.05 is 0.05000000000000000277…): left to the exact digits.
    expect(fixedDouble(0.05, 1)).toBeUndefined();
    // Exact ties: toFixed rounds them away from zero, .NET to even.
    for (const [x, d] of [
      [2.5, 0],
      [0.125, 2],
      [-0.375, 2],
      [1e6 + 0.5, 0],
    ] as const) {
      expect(fixedDouble(x, d)).toBeUndefined();
      expect(exact(x, d).digits).not.toBe('');
    }
    expect(fixedDouble(0.001, 2)).toBeUndefined();
    expect(fixedDouble(1e12, 2)).toBeUndefined();
    expect(fixedDouble(1, 16)).toBeUndefined();
  });
});

describe('shortestDouble', () => {
  it('gives an integer its own digits, as the exponential text does', () => {
    const viaExponential = (x: number) => {
      const text = Math.abs(x).toExponential();
      const e = text.indexOf('e');
      const mantissa = text.slice(0, e).replace('.', '').replace(/0+$/, '');
      return { kind: 'double', negative: x < 0, digits: mantissa, scale: Number(text.slice(e + 1)) + 1 };
    };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.maxSafeInteger(),
          fc.integer(),
          fc.integer({ min: 1, max: 1000 }).map((n) => n * 1e6),
        ),
        (x) => {
          if (x !== 0) expect(shortestDouble(x)).toEqual(viaExponential(x));
        },
      ),
      { numRuns: 20_000 },
    );
    expect(shortestDouble(1200)).toEqual({ kind: 'double', negative: false, digits: '12', scale: 4 });
    expect(shortestDouble(2 ** 60)).toEqual(viaExponential(2 ** 60));
  });
});
