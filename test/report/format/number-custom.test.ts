// Custom numeric format strings. Expected values from
//   [CUS] https://learn.microsoft.com/dotnet/standard/base-types/custom-numeric-format-strings
//         (table of examples and its snippets formatting.numeric.custom/cs/custom.cs)
// and, where noted, from .NET's own tests or issues.
import { describe, expect, it } from 'vitest';
import { DE_DE, EN_US, FormatError, INVARIANT, formatNumber } from '../../../src/report/format/index.js';

const en = (v: number | bigint | object, f: string) => formatNumber(v as never, f, EN_US);
const inv = (v: number | bigint | object, f: string) => formatNumber(v as never, f, INVARIANT);
class Dec {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}
const dec = (t: string) => new Dec(t);

describe('documented examples [CUS]', () => {
  it('"0" zero placeholder', () => {
    expect(en(1234.5678, '00000')).toBe('01235');
    expect(en(0.45678, '0.00')).toBe('0.46');
    expect(formatNumber(0.45678, '0.00', DE_DE)).toBe('0,46'); // the docs show fr-FR, same separator
    expect(en(123, '00000')).toBe('00123');
    expect(inv(1.2, '0.00')).toBe('1.20');
    expect(inv(1.2, '00.00')).toBe('01.20');
    expect(formatNumber(1.2, '00.00', DE_DE)).toBe('01,20'); // docs: da-DK
    expect(inv(0.56, '0.0')).toBe('0.6');
    expect(inv(1234567890, '0,0')).toBe('1,234,567,890');
    expect(formatNumber(1234567890, '0,0', DE_DE)).toBe('1.234.567.890'); // docs: el-GR
    expect(inv(1234567890.123456, '0,0.0')).toBe('1,234,567,890.1');
    expect(inv(1234.56789, '0,0.00')).toBe('1,234.57');
  });

  it('"#" digit placeholder', () => {
    expect(en(1234.5678, '#####')).toBe('1235');
    expect(en(0.45678, '#.##')).toBe('.46');
    expect(inv(1.2, '#.##')).toBe('1.2');
    expect(en(123, '#####')).toBe('123');
    expect(en(123456, '[##-##-##]')).toBe('[12-34-56]');
    expect(en(1234567890, '#')).toBe('1234567890');
    expect(en(1234567890, '(###) ###-####')).toBe('(123) 456-7890');
    expect(en(3, '####')).toBe('3'); // "0003 ("####") -> 3"
    expect(en(0, '#')).toBe(''); // "never displays a zero that is not a significant digit"
  });

  it('"," group separator and number scaling', () => {
    expect(en(2147483647, '##,#')).toBe('2,147,483,647');
    expect(formatNumber(2147483647, '##,#', DE_DE)).toBe('2.147.483.647'); // docs: es-ES
    expect(en(2147483647, '#,#,,')).toBe('2,147');
    expect(inv(1234567890, '#,#')).toBe('1,234,567,890');
    expect(inv(1234567890, '#,##0,,')).toBe('1,235');
    expect(inv(1234567890, '#,,')).toBe('1235');
    expect(inv(1234567890, '#,,,')).toBe('1');
    expect(inv(100000000, '0,,')).toBe('100');
    expect(inv(1000000000, '#,0,,')).toBe('1,000');
  });

  it('"%" and "‰"', () => {
    expect(en(0.3697, '%#0.00')).toBe('%36.97');
    expect(en(0.3697, '##.0 %')).toBe('37.0 %');
    expect(inv(0.086, '#0.##%')).toBe('8.6%');
    expect(en(0.03697, '#0.00\u2030')).toBe('36.97\u2030');
    // Snippet 9 formats .00354 with "#0.## ‰" (note the space) and its comment drops the space.
    expect(inv(0.00354, '#0.## \u2030')).toBe('3.54 \u2030');
    expect(formatNumber(0.5, '0%', DE_DE)).toBe('50%');
  });

  it('"E0", "E+0", "E-0", "e0"…', () => {
    expect(en(987654, '#0.0e0')).toBe('98.8e4');
    expect(en(1503.92311, '0.0##e+00')).toBe('1.504e+03');
    expect(en(1.8901385e-16, '0.0e+00')).toBe('1.9e-16');
    expect(inv(86000, '0.###E+0')).toBe('8.6E+4');
    expect(inv(86000, '0.###E+000')).toBe('8.6E+004');
    expect(inv(86000, '0.###E-000')).toBe('8.6E004');
    expect(en(0, '0.0E+00')).toBe('0.0E+00');
    expect(en(-1234, '0.00E0')).toBe('-1.23E3');
    expect(en(0.00012345, '0.00E-0')).toBe('1.23E-4');
    expect(en(12345, '00.0E0')).toBe('12.3E3');
    // "E" not followed by a zero is a literal; so are the sign and zeros after a second E.
    expect(en(5, '0E')).toBe('5E');
    expect(en(5, '0 Ex')).toBe('5 Ex');
    expect(en(123, '0E0 E+00')).toBe('1E2 E+00');
  });

  it('escapes and literal strings', () => {
    expect(en(987654, '\\###00\\#')).toBe('#987654#');
    expect(en(68, "# 'degrees'")).toBe('68 degrees');
    expect(en(68, "#' degrees'")).toBe('68 degrees');
    expect(en(68, '# "°C"')).toBe('68 °C');
    expect(en(68, '# °')).toBe('68 °');
    expect(en(5, "0 '#,0.%'")).toBe('5 #,0.%');
    expect(en(5, '0\\;0')).toBe('0;5'); // an escaped ';' is a literal between two placeholders
    expect(en(5, "0 'unclosed")).toBe('5 unclosed'); // .NET copies an unclosed quote to the end
    expect(en(5, '0\\')).toBe('5'); // a trailing backslash is dropped
  });

  it('";" sections', () => {
    const three = '#0.0#;(#0.0#);-\\0-';
    expect(en(12.345, three)).toBe('12.35');
    expect(en(0, three)).toBe('-0-');
    expect(en(-12.345, three)).toBe('(12.35)');
    const two = '#0.0#;(#0.0#)';
    expect(en(12.345, two)).toBe('12.35');
    expect(en(0, two)).toBe('0.0');
    expect(en(-12.345, two)).toBe('(12.35)');
    expect(en(1234, '##;(##)')).toBe('1234');
    expect(en(-1234, '##;(##)')).toBe('(1234)');
    expect(en(0, '##;(##);**Zero**')).toBe('**Zero**');
  });
});

describe('sections in detail', () => {
  it('an empty second section: the first applies to negatives, with a minus sign', () => {
    expect(en(-5, '0.0;;zero')).toBe('-5.0');
    expect(en(5, '0.0;;zero')).toBe('5.0');
    expect(en(0, '0.0;;zero')).toBe('zero');
  });

  it('a nonzero value that rounds to zero takes the zero section', () => {
    expect(en(0.001, '0.0;(0.0);zero')).toBe('zero');
    expect(en(-0.001, '0.0;(0.0);zero')).toBe('zero');
    expect(en(dec('0.04'), '0.0;neg;zero')).toBe('zero');
  });

  it('two sections: a negative that rounds to zero uses the first section', () => {
    // Decimal: plain zero. Double in .NET Core 3.0+: the sign survives ("-0.00"),
    // https://github.com/dotnet/runtime/issues/32458 (closed: by design).
    expect(en(dec('-0.001'), '0.00;(0.00)')).toBe('0.00');
    expect(en(-0.001, '0.00;(0.00)')).toBe('-0.00');
    expect(en(-0.1, '0')).toBe('-0');
    expect(en(dec('-0.1'), '0')).toBe('0');
    expect(en(-0.4, '#')).toBe(''); // nothing to print: no sign either
  });

  it('other sections never add the culture minus sign', () => {
    expect(en(-5, '0;0')).toBe('5');
    expect(en(-5, '0;[0]')).toBe('[5]');
    expect(en(-5, '"neg";"pos"')).toBe('pos');
  });

  it('quotes and escapes do not split sections', () => {
    expect(en(-5, "'a;b' 0;'c;d' 0")).toBe('c;d 5');
    expect(en(-5, '\\;0;x0')).toBe('x5');
  });
});

describe('rounding in custom formats: half away from zero', () => {
  it('integers and decimals', () => {
    expect(en(dec('34.5'), '00')).toBe('35'); // docs: 34.5 with "00" → 35
    expect(en(dec('34.5'), '##')).toBe('35');
    expect(en(dec('-34.5'), '00')).toBe('-35');
    expect(en(dec('0.125'), '0.00')).toBe('0.13');
    expect(en(dec('-0.125'), '0.00')).toBe('-0.13');
    expect(en(15, '0,')).toBe('0');
    expect(en(1500, '0,')).toBe('2');
    expect(en(-2500, '0,')).toBe('-3');
  });

  it('doubles: 15 significant digits first, then half away from zero', () => {
    expect(en(34.5, '00')).toBe('35');
    expect(en(2.5, '0')).toBe('3');
    expect(en(-2.5, '0')).toBe('-3');
    expect(en(0.125, '0.00')).toBe('0.13');
    expect(en(1.005, '0.00')).toBe('1.01'); // "F2" gives 1.00
    expect(en(123456789.12345679, '0.000000000')).toBe('123456789.123457000');
    // dotnet/corefx PR 38627 (RealFormatterTestsBase): "#,###.00" with double.Epsilon and MaxValue
    expect(inv(Number.MIN_VALUE, '#,###.00')).toBe('.00');
    const max = ('179769313486232' + '0'.repeat(294)).replace(/\B(?=(\d{3})+$)/g, ',') + '.00';
    expect(inv(Number.MAX_VALUE, '#,###.00')).toBe(max);
  });
});

describe('placeholders', () => {
  it('more integer digits than placeholders go before the first placeholder', () => {
    expect(en(123456, 'x0x')).toBe('x123456x');
    expect(en(123456, '#,0')).toBe('123,456');
    expect(en(123456789, '#,##0.0')).toBe('123,456,789.0');
    expect(en(-1234567, '#,##0')).toBe('-1,234,567');
  });

  it('zeros force digits; hashes do not', () => {
    expect(en(0.5, '#.##')).toBe('.5');
    expect(en(0.5, '0.0#')).toBe('0.5');
    expect(en(5, '#.00')).toBe('5.00');
    expect(en(5, '#.##')).toBe('5');
    expect(en(5, '00.##')).toBe('05');
    expect(en(0.05, '#.0#')).toBe('.05');
    expect(en(5, '#0.0#0')).toBe('5.000');
  });

  it('a second decimal point is ignored', () => {
    expect(en(1.25, '0.0.0')).toBe('1.25');
  });

  it('group separators with German separators and scaling', () => {
    expect(formatNumber(1234567.891, '#,##0.00', DE_DE)).toBe('1.234.567,89');
    expect(formatNumber(1234567.891, '#,##0,.0', DE_DE)).toBe('1.234,6');
  });

  it('letters that are not specifiers are literal', () => {
    expect(en(5, '0 kg')).toBe('5 kg');
    expect(en(5, 'abc0')).toBe('abc5');
  });
});

describe('errors', () => {
  it('custom numeric formats never throw for their content', () => {
    for (const f of ["'", '"', '\\', ';', ';;', ';;;', 'E+', 'e-', ',', '.', '%%%', '\u2030']) {
      expect(() => en(-12.5, f)).not.toThrow();
    }
    expect(en(5, ';')).toBe('');
    expect(en(-5, ';;')).toBe('-');
  });

  it('values that are not numbers are refused', () => {
    expect(() => formatNumber('12' as never, '0')).toThrow(FormatError);
  });
});
