// System.Decimal semantics of the Decimal class (decimal.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, TemplateError, ValueError } from '../../../src/report/expr/index.js';

const d = (s: string) => {
  const v = Decimal.parse(s);
  if (!v) throw new Error(`bad decimal ${s}`);
  return v;
};

describe('Decimal', () => {
  it.each([
    ['0', '0'],
    ['-0.00', '0.00'],
    ['123.4500', '123.4500'],
    ['  12  ', '12'],
    ['+7', '7'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['1e-3', '0.001'],
    ['1.5E+2', '150'],
    ['0.12345678901234567890123456789', '0.1234567890123456789012345679'],
    ['79228162514264337593543950335', '79228162514264337593543950335'],
    ['7.9228162514264337593543950335', '7.9228162514264337593543950335'],
    ['1e-1000', '0'],
  ])('parse(%j) → %s', (text, expected) => {
    expect(d(text).toString()).toBe(expected);
  });

  it.each(['', '.', 'abc', '1.2.3', '1e', '--1', '0x10', 'NaN'])('parse(%j) is undefined', (text) => {
    expect(Decimal.parse(text)).toBeUndefined();
  });

  it('overflows past 2^96 - 1', () => {
    expect(() => d('79228162514264337593543950336')).toThrow(ValueError);
    expect(() => d('1e1000')).toThrow(ValueError);
    expect(() => Decimal.MaxValue.add(Decimal.One)).toThrow(/too large or too small/);
    expect(() => Decimal.MaxValue.add(d('0.5'))).toThrow(ValueError);
    expect(Decimal.MaxValue.add(d('0.4')).toString()).toBe('79228162514264337593543950335');
    expect(new ValueError('X', 'y')).toBeInstanceOf(TemplateError);
  });

  it.each([
    ['1', '3', '0.3333333333333333333333333333'],
    ['2', '3', '0.6666666666666666666666666667'],
    ['100', '3', '33.333333333333333333333333333'],
    ['1', '8', '0.125'],
    ['1.00', '2', '0.50'],
    ['10', '0.5', '20'],
    ['-7', '2', '-3.5'],
    ['6', '-3', '-2'],
    ['0.000', '5', '0.000'],
    ['1', '0.0000000000000000000000000001', '10000000000000000000000000000'],
  ])('%s / %s = %s', (a, b, expected) => {
    expect(d(a).div(d(b)).toString()).toBe(expected);
  });

  it('division by zero', () => {
    expect(() => d('1').div(Decimal.Zero)).toThrow(/divide by zero/);
    expect(() => d('1').mod(d('0.0'))).toThrow(/divide by zero/);
  });

  it.each([
    ['0.1', '0.2', '0.3'],
    ['1.10', '2.205', '3.305'],
    ['-1', '1', '0'],
    ['0.0000000000000000000000000001', '1', '1.0000000000000000000000000001'],
  ])('%s + %s = %s', (a, b, expected) => {
    expect(d(a).add(d(b)).toString()).toBe(expected);
  });

  it.each([
    ['0.4', '1.05', '0.420'],
    ['-2.5', '4', '-10.0'],
    ['0.0000000000001', '0.0000000000001', '0.00000000000000000000000001'],
    ['0.000000000000001', '0.000000000000001', '0.0000000000000000000000000000'],
    ['0.000000000000015', '0.00000000000001', '0.0000000000000000000000000002'],
    ['0.000000000000025', '0.00000000000001', '0.0000000000000000000000000002'],
    ['0.000000000000035', '0.00000000000001', '0.0000000000000000000000000004'],
  ])('%s * %s = %s', (a, b, expected) => {
    expect(d(a).mul(d(b)).toString()).toBe(expected);
  });

  it.each([
    ['2.5', 0, 'even', '2'],
    ['3.5', 0, 'even', '4'],
    ['-2.5', 0, 'even', '-2'],
    ['2.5', 0, 'away', '3'],
    ['-2.5', 0, 'away', '-3'],
    ['1.005', 2, 'even', '1.00'],
    ['1.015', 2, 'even', '1.02'],
    ['-2.7', 0, 'trunc', '-2'],
    ['-2.1', 0, 'floor', '-3'],
    ['2.1', 0, 'ceiling', '3'],
    ['1.5', 3, 'even', '1.5'],
  ] as const)('round(%s, %i, %s) = %s', (a, digits, mode, expected) => {
    expect(d(a).round(digits, mode).toString()).toBe(expected);
  });

  it.each([
    [0.1, '0.1'],
    [1 / 3, '0.333333333333333'],
    [2 / 3, '0.666666666666667'],
    [1e20, '100000000000000000000'],
    [123456789.12345679, '123456789.123457'],
    [-0.5, '-0.5'],
    [1e-30, '0'],
  ])('fromDouble(%d) = %s (15 significant digits)', (n, expected) => {
    expect(Decimal.fromDouble(n).toString()).toBe(expected);
  });

  it('fromDouble rejects NaN and infinities', () => {
    expect(() => Decimal.fromDouble(NaN)).toThrow(ValueError);
    expect(() => Decimal.fromDouble(Infinity)).toThrow(ValueError);
    expect(() => Decimal.fromDouble(1e29)).toThrow(ValueError);
  });

  it('fromNumber keeps the digits a JS number shows', () => {
    expect(Decimal.fromNumber(32.38).toString()).toBe('32.38');
    expect(Decimal.fromNumber(1e21).toString()).toBe('1000000000000000000000');
    expect(Decimal.fromNumber(-7).toString()).toBe('-7');
  });

  it('mod, compare, misc', () => {
    expect(d('7.5').mod(d('2')).toString()).toBe('1.5');
    expect(d('-7').mod(d('3')).toString()).toBe('-1');
    expect(d('1.0').cmp(d('1.00'))).toBe(0);
    expect(d('1.0').equals(d('1'))).toBe(true);
    expect(d('-1').cmp(d('0'))).toBe(-1);
    expect(d('12.50').toNumber()).toBe(12.5);
    expect(d('-12.99').toBigInt()).toBe(-12n);
    expect(d('12.00').isInteger()).toBe(true);
    expect(d('12.01').isInteger()).toBe(false);
    expect(d('1.2300').stripTrailingZeros().toString()).toBe('1.23');
    expect(d('-3').abs().toString()).toBe('3');
    expect(d('-3').sign).toBe(-1);
  });

  const dec = fc
    .record({ coef: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), scale: fc.integer({ min: 0, max: 8 }) })
    .map(({ coef, scale }) => Decimal.of(coef, scale));
  const nonZero = fc
    .record({
      coef: fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }).filter((c) => c !== 0n),
      scale: fc.integer({ min: 0, max: 6 }),
    })
    .map(({ coef, scale }) => Decimal.of(coef, scale));

  it('property: parse(toString(x)) is x, scale included', () => {
    fc.assert(
      fc.property(dec, (x) => {
        const y = d(x.toString());
        expect(y.coef).toBe(x.coef);
        expect(y.scale).toBe(x.scale);
      }),
    );
  });

  it('property: (a + b) - b == a and a + b == b + a, exactly', () => {
    fc.assert(
      fc.property(dec, dec, (a, b) => {
        expect(a.add(b).sub(b).equals(a)).toBe(true);
        expect(a.add(b).toString()).toBe(b.add(a).toString());
      }),
    );
  });

  it('property: (a * b) / b is a, digit for digit', () => {
    fc.assert(
      fc.property(dec, nonZero, (a, b) => {
        expect(a.mul(b).div(b).toString()).toBe(a.toString());
      }),
    );
  });

  it('property: compare agrees with the exact rational order', () => {
    fc.assert(
      fc.property(dec, dec, (a, b) => {
        const x = a.coef * 10n ** BigInt(b.scale);
        const y = b.coef * 10n ** BigInt(a.scale);
        expect(a.cmp(b)).toBe(x < y ? -1 : x > y ? 1 : 0);
      }),
    );
  });

  it('property: sums of cents are exact', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 50 }), (cents) => {
        const total = cents.reduce((acc, c) => acc.add(Decimal.of(BigInt(c), 2)), Decimal.of(0n, 2));
        expect(total.toString()).toBe(Decimal.of(BigInt(cents.reduce((a, b) => a + b, 0)), 2).toString());
      }),
    );
  });
});
