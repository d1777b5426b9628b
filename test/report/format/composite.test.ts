// Composite formatting and the Formatter used by the expression engine. Expected values from
//   [CMP] https://learn.microsoft.com/dotnet/standard/base-types/composite-formatting
import { describe, expect, it } from 'vitest';
import {
  DE_DE,
  EN_US,
  FormatError,
  Formatter,
  createFormatter,
  formatComposite,
  formatValue,
  toDisplayString,
} from '../../../src/report/format/index.js';
import type { Formatter as ExpressionFormatter } from '../../../src/report/expr/types.js';

const at = (y: number, m: number, d: number, h = 0, mi = 0, s = 0) => new Date(Date.UTC(y, m - 1, d, h, mi, s));

describe('format items [CMP]', () => {
  it('index, several items for one argument', () => {
    expect(formatComposite('Prime numbers less than 10: {0}, {1}, {2}, {3}', [2, 3, 5, 7])).toBe(
      'Prime numbers less than 10: 2, 3, 5, 7',
    );
    expect(formatComposite('0x{0:X} {0:E} {0:N}', [9223372036854775807n])).toBe(
      '0x7FFFFFFFFFFFFFFF 9.223372E+018 9,223,372,036,854,775,807.00',
    );
    expect(formatComposite('{1} {0} {2}', ['a', 'b', 'c'])).toBe('b a c');
  });

  it('escaped braces, including around an item (.NET, not .NET Framework)', () => {
    expect(formatComposite('{{{0:D}}}', [6324])).toBe('{6324}');
    expect(formatComposite('{{0}} }} {{', [1])).toBe('{0} } {');
  });

  it('width: right-aligned when positive, left-aligned when negative', () => {
    expect(formatComposite('[{0,-20}][{1,5:N1}]', ['Adam', 40])).toBe('[Adam                ][ 40.0]');
    expect(formatComposite('[{0,3}]', ['toolong'])).toBe('[toolong]');
    expect(formatComposite('[{0 , -6 :C}]', [1.5])).toBe('[$1.50 ]'); // spaces around index and width
    expect(formatComposite('[{0,0}]', ['x'])).toBe('[x]');
  });

  it('null arguments give ""; strings ignore the format', () => {
    expect(formatComposite('<{0}><{0:N2}><{1:yyyy}>', [null, 'text'])).toBe('<><><text>');
    expect(formatComposite('{0}', [undefined])).toBe('');
  });

  it('values of every kind', () => {
    expect(formatComposite('{0} {1} {2} {3}', [true, false, 1.5, at(2009, 6, 15, 13, 45, 30)])).toBe(
      'True False 1.5 6/15/2009 1:45:30 PM',
    );
    expect(formatComposite('{0:d}', [at(2009, 6, 15)], DE_DE)).toBe('15.06.2009');
    expect(formatComposite('{0:N2}', [1234.5], DE_DE)).toBe('1.234,50');
    expect(formatComposite('{0}', [new Uint8Array([1, 2])])).toBe('System.Byte[]');
  });

  it('malformed composite formats are FormatErrors', () => {
    const bad = [
      '{',
      '}',
      '{0',
      '{0:',
      '{a}',
      '{-1}',
      '{0,}',
      '{0,-}',
      '{0,x}',
      '{0:{}',
      '{0 x}',
      'text }',
      '{{0}',
      '{ 0}',
      '{0,10000000}',
      '{10000000}',
    ];
    for (const f of bad) expect(() => formatComposite(f, [1]), f).toThrow(FormatError);
    expect(() => formatComposite('{1}', [1])).toThrow(/argument index 1/);
    expect(() => formatComposite('{1000000}', [])).toThrow(FormatError);
    expect(() => formatComposite('{0:Q}', [1])).toThrow(FormatError); // the item's own format error
  });
});

describe('formatValue / toDisplayString: ToString(format) and ToString()', () => {
  it('ToString()', () => {
    expect(toDisplayString(1234.5)).toBe('1234.5');
    expect(toDisplayString(1234.5, DE_DE)).toBe('1234,5');
    expect(toDisplayString(-0)).toBe('-0');
    expect(toDisplayString(1e21)).toBe('1E+21');
    expect(toDisplayString(true)).toBe('True');
    expect(toDisplayString('x')).toBe('x');
    expect(toDisplayString(null)).toBe('');
    expect(toDisplayString(at(2013, 8, 4))).toBe('8/4/2013 12:00:00 AM');
    expect(toDisplayString(at(2013, 8, 4), DE_DE)).toBe('04.08.2013 00:00:00');
    expect(toDisplayString({ toString: () => '12.3400' })).toBe('12.3400');
    expect(toDisplayString({ toString: () => 'not a number' })).toBe('not a number');
    expect(toDisplayString({ a: 1, b: [true, null] })).toBe('{"a":1,"b":[true,null]}');
    expect(toDisplayString({ big: 1n })).toBe('[object Object]');
    expect(toDisplayString(Object.assign(Object.create(null) as object, { big: 1n }))).toBe('[object Object]');
    expect(toDisplayString(['a', 'b'])).toBe('System.String[]');
    expect(toDisplayString([1, 'b'])).toBe('System.Object[]');
  });

  it('ToString(format)', () => {
    expect(formatValue(1234.5, 'C')).toBe('$1,234.50');
    expect(formatValue(at(2013, 8, 4), 'yyyy-MM-dd')).toBe('2013-08-04');
    expect(formatValue('abc', 'N2')).toBe('abc');
    expect(formatValue(false, 'N2')).toBe('False');
  });
});

describe('Formatter', () => {
  it('is en-US by default and follows a culture when created with one', () => {
    expect(Formatter.culture).toBe(EN_US);
    expect(Formatter.format(0.5, 'P0')).toBe('50%');
    expect(Formatter.composite('Total: {0:C}', [12.5])).toBe('Total: $12.50');
    const german = createFormatter(DE_DE);
    expect(german.format(0.5, 'P0')).toBe('50 %');
    expect(german.composite('Summe: {0:C}', [12.5])).toBe('Summe: 12,50 €');
    expect(german.format(at(2013, 8, 4), 'D')).toBe('Sonntag, 4. August 2013');
    expect(Formatter.format(12)).toBe('12');
  });

  it("fits the expression engine's Formatter contract, type names included", () => {
    const f: ExpressionFormatter = createFormatter(EN_US);
    expect(f.format(3, 'R', 'System.Double')).toBe('3');
    expect(() => f.format(3, 'D', 'System.Double')).toThrow(FormatError);
    expect(f.format(-1, 'X', 'System.SByte')).toBe('FF');
    expect(f.format(1.5, '')).toBe('1.5');
    expect(Formatter.composite('{0:E1} {1:E1}', [25, 25], ['System.Int32', 'System.Double'])).toBe('2.5E+001 2.5E+001');
    expect(Formatter.composite('{0:F0} {1:F0}', [2.5, 2.5], ['System.Double', 'System.Decimal'])).toBe('2 3');
  });
});
