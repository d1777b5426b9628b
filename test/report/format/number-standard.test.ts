// Standard numeric format strings. Expected values come from .NET's documentation unless a
// comment says otherwise:
//   [STD]  https://learn.microsoft.com/dotnet/standard/base-types/standard-numeric-format-strings
//          (table of examples; its snippets Formatting.Numeric.Standard/cs/Standard.cs)
//   [ICU]  .NET 5+ culture data (ICU/CLDR): en-US CurrencyNegativePattern 1 ("-$n"), see
//          https://github.com/dotnet/runtime/issues/46591; PercentPositive/NegativePattern 1 ("n%",
//          "-n%") per dotnet/runtime's NumberFormatInfoPercent*Pattern ICU tests. The docs' table
//          still shows the Windows/NLS-era "($123.456)" and "100.00 %".
//   [MID]  midpoints of doubles in .NET Core 3.0+: correctly rounded, ties to even on the exact
//          binary value: https://github.com/dotnet/runtime/issues/1640,
//          https://github.com/PowerShell/PowerShell/issues/16150 (outputs of .NET Core),
//          https://github.com/dotnet/runtime/issues/74979, https://github.com/dotnet/docs/issues/22089
import { describe, expect, it } from 'vitest';
import {
  DE_DE,
  EN_US,
  FormatError,
  INVARIANT,
  formatNumber,
  type Culture,
  type NumberFormatInfo,
} from '../../../src/report/format/index.js';

const en = (v: number | bigint | object, f: string) => formatNumber(v as never, f, EN_US);
const de = (v: number | bigint | object, f: string) => formatNumber(v as never, f, DE_DE);
const inv = (v: number | bigint | object, f: string) => formatNumber(v as never, f, INVARIANT);

/** A decimal as the expression engine's Decimal would hand it over. */
class Dec {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}
const dec = (t: string) => new Dec(t);

function withNumber(overrides: Partial<NumberFormatInfo>): Culture {
  return { ...EN_US, number: { ...EN_US.number, ...overrides } };
}

describe('documented examples [STD]', () => {
  it('C', () => {
    expect(en(123.456, 'C')).toBe('$123.46');
    expect(en(-123.456, 'C3')).toBe('-$123.456'); // [ICU]; NLS gave ($123.456)
    expect(en(12345.6789, 'C')).toBe('$12,345.68');
    expect(en(12345.6789, 'C3')).toBe('$12,345.679');
    expect(de(123.456, 'C')).toBe('123,46 €');
    expect(de(-123.456, 'C3')).toBe('-123,456 €');
  });

  it('D', () => {
    expect(en(1234, 'D')).toBe('1234');
    expect(en(-1234, 'D6')).toBe('-001234');
    expect(en(12345, 'D8')).toBe('00012345');
    expect(en(-12345, 'D')).toBe('-12345');
    expect(en(-12345, 'D8')).toBe('-00012345');
  });

  it('E', () => {
    expect(en(1052.0329112756, 'E')).toBe('1.052033E+003');
    expect(en(-1052.0329112756, 'e2')).toBe('-1.05e+003');
    expect(de(1052.0329112756, 'e')).toBe('1,052033e+003'); // the docs show fr-FR, same separator
    expect(de(-1052.0329112756, 'E2')).toBe('-1,05E+003');
    expect(inv(12345.6789, 'E')).toBe('1.234568E+004');
    expect(inv(12345.6789, 'E10')).toBe('1.2345678900E+004');
    expect(inv(12345.6789, 'e4')).toBe('1.2346e+004');
  });

  it('F, with de-DE', () => {
    expect(en(1234.567, 'F')).toBe('1234.57');
    expect(de(1234.567, 'F')).toBe('1234,57');
    expect(en(1234, 'F1')).toBe('1234.0');
    expect(de(1234, 'F1')).toBe('1234,0');
    expect(en(-1234.56, 'F4')).toBe('-1234.5600');
    expect(de(-1234.56, 'F4')).toBe('-1234,5600');
    expect(inv(17843, 'F')).toBe('17843.00');
    expect(inv(-29541, 'F3')).toBe('-29541.000');
    expect(inv(18934.1879, 'F')).toBe('18934.19');
    expect(inv(18934.1879, 'F0')).toBe('18934');
    expect(inv(-1898300.1987, 'F1')).toBe('-1898300.2');
  });

  it('G', () => {
    expect(en(-123.456, 'G')).toBe('-123.456');
    expect(en(123.4546, 'G4')).toBe('123.5');
    expect(en(-1.23456789e-25, 'G')).toBe('-1.23456789E-25');
    expect(de(-123.456, 'G')).toBe('-123,456');
    expect(de(123.4546, 'G4')).toBe('123,5');
    expect(inv(12345.6789, 'G')).toBe('12345.6789');
    expect(inv(12345.6789, 'G7')).toBe('12345.68');
    expect(inv(0.0000023, 'G')).toBe('2.3E-06');
    expect(inv(0.0023, 'G')).toBe('0.0023');
    expect(inv(1234, 'G2')).toBe('1.2E+03');
    expect(inv(Math.PI, 'G5')).toBe('3.1416');
  });

  it('N, with de-DE grouping', () => {
    expect(en(1234.567, 'N')).toBe('1,234.57');
    expect(en(1234, 'N1')).toBe('1,234.0');
    expect(en(-1234.56, 'N3')).toBe('-1,234.560');
    expect(de(1234.567, 'N')).toBe('1.234,57');
    expect(de(-1234567.891, 'N2')).toBe('-1.234.567,89');
    expect(inv(-12445.6789, 'N')).toBe('-12,445.68');
    expect(inv(123456789, 'N1')).toBe('123,456,789.0');
  });

  it('P', () => {
    expect(en(1, 'P')).toBe('100.00%'); // [ICU]; NLS: "100.00 %"
    expect(en(-0.39678, 'P1')).toBe('-39.7%');
    expect(de(1, 'P')).toBe('100,00 %');
    expect(de(-0.39678, 'P1')).toBe('-39,7 %');
    expect(inv(0.2468013, 'P')).toBe('24.68 %');
    expect(inv(0.2468013, 'P1')).toBe('24.7 %');
  });

  it('R', () => {
    expect(en(123456789.12345678, 'R')).toBe('123456789.12345678');
    expect(en(-1234567890.1234567, 'R')).toBe('-1234567890.1234567');
    // .NET Core 3.0+ prints the shortest round-trip string (the snippet's 3.1415926535897931 is
    // .NET Framework output):
    // https://devblogs.microsoft.com/dotnet/floating-point-parsing-and-formatting-improvements-in-net-core-3-0/
    expect(en(Math.PI, 'R')).toBe('3.141592653589793');
    expect(de(Math.PI, 'r')).toBe('3,141592653589793');
    expect(en(1.623e-21, 'R')).toBe('1.623E-21');
    expect(en(1.623e-21, 'r')).toBe('1.623e-21'); // "r" is handled as "g": lower-case exponent
  });

  it('X', () => {
    expect(en(255, 'X')).toBe('FF');
    expect(en(255, 'x4')).toBe('00ff');
    // The docs' -1 ("x") → ff and ("X4") → 00FF are for an 8-bit value; an Int32 -1 is:
    expect(en(-1, 'x')).toBe('ffffffff');
    expect(en(-1, 'X4')).toBe('FFFFFFFF');
    expect(en(0x2045e, 'x')).toBe('2045e');
    expect(en(0x2045e, 'X')).toBe('2045E');
    expect(en(0x2045e, 'X8')).toBe('0002045E');
    expect(en(123456789, 'X')).toBe('75BCD15');
    expect(en(123456789, 'X2')).toBe('75BCD15');
  });
});

describe('midpoints', () => {
  it('doubles in standard formats: ties to even on the exact value [MID]', () => {
    expect([0.5, 1.5, 2.5, 3.5].map((v) => en(v, 'F0'))).toEqual(['0', '2', '2', '4']);
    expect([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95].map((v) => en(v, 'F1'))).toEqual([
      '0.1',
      '0.1',
      '0.2',
      '0.3',
      '0.5',
      '0.6',
      '0.7',
      '0.8',
      '0.8',
      '0.9',
    ]);
    expect([0.005, 0.015, 0.025, 0.035, 0.045, 0.055, 0.065, 0.075, 0.085, 0.095].map((v) => en(v, 'F2'))).toEqual([
      '0.01',
      '0.01',
      '0.03',
      '0.04',
      '0.04',
      '0.06',
      '0.07',
      '0.07',
      '0.09',
      '0.10',
    ]);
    expect(en(1.15, 'N1')).toBe('1.1'); // 1.15 is 1.149999999999999911…
    expect(en(1234.5, 'G4')).toBe('1234');
    expect(en(12.345, 'C')).toBe('$12.35'); // 12.3450000000000006…
    expect(en(0.125, 'F2')).toBe('0.12');
    expect(en(0.375, 'F2')).toBe('0.38');
    expect(en(-2.5, 'F0')).toBe('-2');
    expect(en(1.005, 'F2')).toBe('1.00'); // 1.00499999999999989…
    expect(en(2.5, 'E0')).toBe('2E+000');
    expect(en(0.125, 'P1')).toBe('12.5%');
    expect(en(0.125, 'P0')).toBe('12%'); // 12.5 % exactly: to even
    expect(en(0.0125, 'P0')).toBe('1%'); // 1.25 % → 1 %
    expect(en(0.025, 'P0')).toBe('3%'); // 0.025 is 0.025000000000000001…: above the tie
  });

  it('decimals round half away from zero (https://github.com/dotnet/docs/issues/22089)', () => {
    expect(en(dec('1234.5'), 'G4')).toBe('1235');
    expect(en(dec('-1234.5'), 'G4')).toBe('-1235');
    expect(en(dec('0.925'), 'N2')).toBe('0.93'); // https://github.com/lkosson/reportviewercore/issues/88
    expect(en(dec('2.5'), 'F0')).toBe('3');
    expect(en(dec('-2.5'), 'F0')).toBe('-3');
    expect(en(dec('0.125'), 'C')).toBe('$0.13');
    expect(en(dec('1.005'), 'F2')).toBe('1.01');
  });

  it('integers round half away from zero where a format drops digits', () => {
    expect(en(12345, 'E3')).toBe('1.235E+004');
    expect(en(-12345, 'E3')).toBe('-1.235E+004');
    expect(en(125, 'G2')).toBe('1.3E+02');
    expect(en(123456789, 'G7')).toBe('1.234568E+08');
  });
});

describe('negative numbers in every pattern', () => {
  const value = -1234.5;
  it('currency negative patterns 0..16', () => {
    const expected = [
      '($1,234.50)',
      '-$1,234.50',
      '$-1,234.50',
      '$1,234.50-',
      '(1,234.50$)',
      '-1,234.50$',
      '1,234.50-$',
      '1,234.50$-',
      '-1,234.50 $',
      '-$ 1,234.50',
      '1,234.50 $-',
      '$ 1,234.50-',
      '$ -1,234.50',
      '1,234.50- $',
      '($ 1,234.50)',
      '(1,234.50 $)',
      '$- 1,234.50',
    ];
    expected.forEach((text, pattern) => {
      expect(formatNumber(value, 'C', withNumber({ currencyNegativePattern: pattern }))).toBe(text);
    });
  });

  it('currency positive patterns 0..3', () => {
    expect([0, 1, 2, 3].map((p) => formatNumber(1234.5, 'C', withNumber({ currencyPositivePattern: p })))).toEqual([
      '$1,234.50',
      '1,234.50$',
      '$ 1,234.50',
      '1,234.50 $',
    ]);
  });

  it('number negative patterns 0..4', () => {
    expect([0, 1, 2, 3, 4].map((p) => formatNumber(value, 'N', withNumber({ numberNegativePattern: p })))).toEqual([
      '(1,234.50)',
      '-1,234.50',
      '- 1,234.50',
      '1,234.50-',
      '1,234.50 -',
    ]);
  });

  it('percent negative patterns 0..11 and positive 0..3', () => {
    // Pattern 7 is "-% n" in .NET (FastReport's doc comment says "-%n").
    const expected = [
      '-12.34 %',
      '-12.34%',
      '-%12.34',
      '%-12.34',
      '%12.34-',
      '12.34-%',
      '12.34%-',
      '-% 12.34',
      '12.34 %-',
      '% 12.34-',
      '% -12.34',
      '12.34- %',
    ];
    expected.forEach((text, pattern) => {
      expect(formatNumber(-0.1234, 'P', withNumber({ percentNegativePattern: pattern }))).toBe(text);
    });
    expect([0, 1, 2, 3].map((p) => formatNumber(0.1234, 'P', withNumber({ percentPositivePattern: p })))).toEqual([
      '12.34 %',
      '12.34%',
      '%12.34',
      '% 12.34',
    ]);
  });

  it('a pattern number out of range is a FormatError', () => {
    expect(() => formatNumber(-1, 'C', withNumber({ currencyNegativePattern: 17 }))).toThrow(FormatError);
  });
});

describe('group separators', () => {
  it('group sizes [3, 2] and [3, 0]', () => {
    const indian = withNumber({ numberGroupSizes: [3, 2], currencyGroupSizes: [3, 2] });
    expect(formatNumber(1234567890, 'N0', indian)).toBe('1,23,45,67,890');
    expect(formatNumber(1234567890.5, 'C', indian)).toBe('$1,23,45,67,890.50');
    expect(formatNumber(1234567890, 'N0', withNumber({ numberGroupSizes: [3, 0] }))).toBe('1234567,890');
    expect(formatNumber(1234567890, 'N0', withNumber({ numberGroupSizes: [0] }))).toBe('1234567890');
    expect(formatNumber(1234567890, 'N0', withNumber({ numberGroupSeparator: '\u00A0' }))).toBe(
      '1\u00A0234\u00A0567\u00A0890',
    );
  });

  it('small values have no separator; big ones group every digit', () => {
    expect(en(999, 'N0')).toBe('999');
    expect(en(1000, 'N0')).toBe('1,000');
    expect(en(-999999.999, 'N2')).toBe('-1,000,000.00'); // carry into a new group
  });

  it('bigint and Int64 extremes', () => {
    expect(en(9223372036854775807n, 'N0')).toBe('9,223,372,036,854,775,807');
    expect(en(-9223372036854775808n, 'D')).toBe('-9223372036854775808');
    expect(en(-9223372036854775808n, 'X')).toBe('8000000000000000');
    expect(en(-2147483649n, 'X')).toBe('FFFFFFFF7FFFFFFF');
    expect(en(-2147483648, 'X')).toBe('80000000');
    expect(en(12345678901234567890123n, 'N0')).toBe('12,345,678,901,234,567,890,123');
    expect(() => en(-(2n ** 63n) - 1n, 'X')).toThrow(FormatError);
    expect(en(5, 'B8')).toBe('00000101'); // .NET 8 binary specifier
  });
});

describe('NaN, infinities and negative zero', () => {
  it('symbols whatever the format', () => {
    for (const f of ['', 'G', 'N2', 'C', 'X', 'D', '0.00', '#;(#);zero', 'Q']) {
      expect(en(Number.NaN, f)).toBe('NaN');
      expect(en(Number.POSITIVE_INFINITY, f)).toBe('\u221E'); // .NET 5+ (ICU) en-US: "∞"
      expect(en(Number.NEGATIVE_INFINITY, f)).toBe('-\u221E');
    }
    expect(inv(Number.POSITIVE_INFINITY, 'F')).toBe('Infinity');
    expect(inv(Number.NEGATIVE_INFINITY, 'F')).toBe('-Infinity');
    expect(de(Number.NaN, 'N')).toBe('NaN');
  });

  it('-0.0 keeps its sign in .NET Core 3.0+ (https://github.com/dotnet/runtime/issues/32458)', () => {
    expect(en(-0, '')).toBe('-0');
    expect(en(-0, 'F2')).toBe('-0.00');
    expect(en(-0, 'N1')).toBe('-0.0');
    expect(en(-0, 'E2')).toBe('-0.00E+000');
    expect(en(-0.001, 'F2')).toBe('-0.00');
    expect(en(-0.001, 'C')).toBe('-$0.00');
    expect(en(0, 'F2')).toBe('0.00');
  });

  it('decimals and integers never print -0', () => {
    expect(en(dec('-0.001'), 'F2')).toBe('0.00');
    expect(en(dec('-0.00'), 'G')).toBe('0.00');
    expect(en(dec('-0.001'), 'C')).toBe('$0.00');
    expect(en(-0n, 'D')).toBe('0');
  });
});

describe('decimal values', () => {
  it('G keeps every digit including trailing zeros, never scientific', () => {
    expect(en(dec('12.3400'), 'G')).toBe('12.3400');
    expect(en(dec('12.3400'), '')).toBe('12.3400');
    expect(en(dec('0.00'), 'G')).toBe('0.00');
    expect(en(dec('0.0000001'), 'G')).toBe('0.0000001');
    expect(en(dec('79228162514264337593543950335'), 'G')).toBe('79228162514264337593543950335');
    expect(de(dec('-12.5'), 'G')).toBe('-12,5');
    expect(en(dec('12.3400'), 'G0')).toBe('12.34');
  });

  it('accepts toFixedString() and exponent text', () => {
    const d = { toFixedString: () => '1234.5000', toString: () => 'ignored' };
    expect(en(d, 'N2')).toBe('1,234.50');
    expect(en(dec('1.5E+3'), 'F1')).toBe('1500.0');
    expect(en(dec('+.5'), 'F1')).toBe('0.5');
  });

  it('D, X and R are not valid for decimals', () => {
    expect(() => en(dec('12'), 'D')).toThrow(FormatError);
    expect(() => en(dec('12'), 'X')).toThrow(FormatError);
    expect(() => en(dec('12'), 'R')).toThrow(FormatError);
  });

  it('a decimal text with an absurd exponent is refused rather than expanded', () => {
    expect(() => en(dec('1E+999999999'), 'F2')).toThrow(FormatError);
    expect(en(dec('0E-999999999'), 'F2')).toBe('0.00');
  });

  it('an object that is not a decimal is refused', () => {
    expect(() => formatNumber({} as never, 'G')).toThrow(FormatError);
    expect(() => formatNumber(dec('12,5') as never, 'G')).toThrow(FormatError);
  });
});

describe('doubles', () => {
  it('G switches to scientific past 17 digits or below 1E-05 (.NET Core 3.0+)', () => {
    expect(en(1e16, 'G')).toBe('10000000000000000');
    expect(en(1e17, 'G')).toBe('1E+17');
    expect(en(123456789012345680000, 'G')).toBe('1.2345678901234568E+20');
    expect(en(0.0001, 'G')).toBe('0.0001');
    expect(en(0.00001, 'G')).toBe('1E-05');
    expect(en(0.1 + 0.2, 'G')).toBe('0.30000000000000004');
    expect(en(0.1, 'G17')).toBe('0.10000000000000001');
    expect(en(0.1, 'G0')).toBe('0.1');
    expect(en(5e-324, 'G')).toBe('5E-324');
    expect(en(Number.MAX_VALUE, 'G')).toBe('1.7976931348623157E+308');
  });

  it('precision beyond 15 digits shows the exact binary value (.NET Core 3.0+)', () => {
    expect(en(0.1, 'F20')).toBe('0.10000000000000000555');
    expect(en(0.1, 'E25')).toBe('1.0000000000000000555111512E-001');
  });

  it('D and X are only for integers', () => {
    expect(() => en(1.5, 'D')).toThrow(FormatError);
    expect(() => en(1.5, 'X')).toThrow(FormatError);
    expect(() => en(-0, 'D')).toThrow(FormatError);
    // An integer-valued JS number counts as an integer.
    expect(en(42, 'D5')).toBe('00042');
    expect(en(42, 'R')).toBe('42');
  });
});

describe(".NET type hints (the expression engine passes the value's type)", () => {
  it('the docs\' X examples are for an 8-bit value: -1 ("x") → ff, ("X4") → 00FF [STD]', () => {
    expect(formatNumber(-1, 'x', EN_US, 'System.SByte')).toBe('ff');
    expect(formatNumber(-1, 'X4', EN_US, 'sbyte')).toBe('00FF');
    expect(formatNumber(-1, 'X', EN_US, 'System.Int16')).toBe('FFFF');
    expect(formatNumber(-1, 'X', EN_US, 'System.Int32')).toBe('FFFFFFFF');
    expect(formatNumber(-1, 'X', EN_US, 'Int64?')).toBe('FFFFFFFFFFFFFFFF');
    expect(formatNumber(-1n, 'x', EN_US, 'System.Int64')).toBe('ffffffffffffffff');
  });

  it('an integral value typed Double is a double', () => {
    expect(() => formatNumber(3, 'D', EN_US, 'System.Double')).toThrow(FormatError);
    expect(formatNumber(3, 'R', EN_US, 'double')).toBe('3');
    expect(formatNumber(2, 'E0', EN_US, 'System.Double')).toBe('2E+000');
    expect(formatNumber(12345, 'E3', EN_US, 'System.Double')).toBe('1.234E+004'); // a double tie: to even
    expect(formatNumber(12345, 'E3', EN_US, 'System.Int32')).toBe('1.235E+004');
    expect(formatNumber(3n, 'F1', EN_US, 'System.Double')).toBe('3.0');
  });

  it('Single: 9 round-trip digits, 7 for custom formats', () => {
    // dotnet/runtime SingleTests ToString_TestData_NotNetFramework
    expect(formatNumber(3.4028234663852886e38, 'G', INVARIANT, 'System.Single')).toBe('3.4028235E+38');
    expect(formatNumber(1.401298464324817e-45, 'G', INVARIANT, 'System.Single')).toBe('1E-45');
    expect(formatNumber(0.1, 'G', EN_US, 'float')).toBe('0.1');
    expect(formatNumber(0.1, 'F10', EN_US, 'float')).toBe('0.1000000015'); // the float32 value 0.100000001490116…
    expect(formatNumber(123456789, 'G', EN_US, 'float')).toBe('123456790');
    expect(formatNumber(1e10, 'G', EN_US, 'float')).toBe('1E+10');
    // Custom formats keep 7 digits: https://github.com/dotnet/runtime/issues/120979
    expect(formatNumber(16777216, '0', EN_US, 'System.Single')).toBe('16777220');
    expect(formatNumber(16777216, 'F0', EN_US, 'System.Single')).toBe('16777216');
    // A double beyond float's range becomes float infinity (it printed "I.nfinitE+Infinity" before).
    expect(formatNumber(Number.MAX_VALUE, 'G', INVARIANT, 'System.Single')).toBe('Infinity');
    expect(formatNumber(-Number.MAX_VALUE, '', EN_US, 'System.Single')).toBe('-∞');
  });

  it('a number typed Decimal is a decimal', () => {
    expect(formatNumber(2.5, 'F0', EN_US, 'System.Decimal')).toBe('3');
    expect(formatNumber(-0.001, 'F2', EN_US, 'decimal')).toBe('0.00');
    expect(() => formatNumber(5, 'D', EN_US, 'decimal')).toThrow(FormatError);
  });
});

describe('dotnet/runtime DoubleTests.ToString_TestData (invariant culture)', () => {
  it('plain values and custom NumberFormatInfo objects', () => {
    expect(inv(-4567.0, 'G')).toBe('-4567');
    expect(inv(-4567.89101, 'G')).toBe('-4567.89101');
    expect(inv(0.0, 'G')).toBe('0');
    expect(inv(4567.89101, 'G')).toBe('4567.89101');
    expect(inv(2468.0, 'N')).toBe('2,468.00');
    const invariantWith = (o: Partial<NumberFormatInfo>): Culture => ({
      ...INVARIANT,
      number: { ...INVARIANT.number, ...o },
    });
    expect(formatNumber(-6310.0, 'G', invariantWith({ numberNegativePattern: 0 }))).toBe('-6310');
    const custom = invariantWith({ negativeSign: '#', numberDecimalSeparator: '~', numberGroupSeparator: '*' });
    expect(formatNumber(-2468.0, 'N', custom)).toBe('#2*468~00');
    expect(formatNumber(2468.0, 'N', custom)).toBe('2*468~00');
    expect(
      formatNumber(
        -2468.0,
        'N',
        invariantWith({ negativeSign: 'xx', numberGroupSeparator: '*', numberNegativePattern: 0 }),
      ),
    ).toBe('(2*468.00)');
    expect(inv(Number.NaN, 'G')).toBe('NaN');
    expect(inv(-Number.MAX_VALUE, 'G')).toBe('-1.7976931348623157E+308');
    expect(inv(Number.MIN_VALUE, 'G')).toBe('5E-324');
  });

  it('precision 100', () => {
    const zeros = (n: number) => '0'.repeat(n);
    expect(inv(32.5, 'C100')).toBe(`\u00A432.5${zeros(99)}`);
    expect(inv(32.5, 'P100')).toBe(`3,250.${zeros(100)} %`);
    expect(inv(32.5, 'E100')).toBe(`3.25${zeros(98)}E+001`);
    expect(inv(32.5, 'F100')).toBe(`32.5${zeros(99)}`);
    expect(inv(32.5, 'N100')).toBe(`32.5${zeros(99)}`);
  });

  it('invalid formats', () => {
    expect(() => inv(123.0, 'Y')).toThrow(FormatError);
    expect(() => inv(123.0, 'E2147483647')).toThrow(FormatError);
    expect(() => inv(123.0, 'E4772185890')).toThrow(FormatError);
    expect(() => inv(123.0, 'E1000000000')).toThrow(FormatError);
    expect(() => inv(123.0, 'E000001000000000')).toThrow(FormatError);
  });
});

describe('format string parsing', () => {
  it('letter + digits is standard; anything else is custom', () => {
    expect(en(5, 'F02')).toBe('5.00'); // leading zeros in the precision
    expect(en(5, 'F 2')).toBe('F 2'); // custom: 'F', ' ', '2' are literals — no placeholders
    expect(en(1234.5, 'N2x')).toBe('N2x');
    expect(en(1234.5, 'C2\0junk')).toBe('$1,234.50'); // .NET stops at a NUL
    expect(en(5, '')).toBe('5');
  });

  it('unknown standard specifiers and huge precisions are FormatErrors', () => {
    for (const f of ['Q', 'q2', 'Z', 'A', 'W10']) expect(() => en(1, f)).toThrow(FormatError);
    expect(() => en(1, 'F1000000000')).toThrow(/999,999,999/);
    expect(() => en(1, 'F20000')).toThrow(/limit/);
    expect(en(1, 'F100')).toBe('1.' + '0'.repeat(100));
  });
});
