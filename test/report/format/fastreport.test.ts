// FastReport's Format objects and the TextObject display rules. Facts from FastReport Open Source:
//   FastReport.Base/Format/{Number,Currency,Percent,Date,Time,Boolean,Custom,General}Format.cs
//   (constructor defaults; GetNumberFormatInfo builds a fresh NumberFormatInfo)
//   FastReport.Base/TextObjectBase.cs (FormatValue: NullValue, HideValue, HideZeros)
//   FastReport.Base/Utils/Converter.cs (ConvertNull: "", 0, false, DateTime.MinValue)
// Number formatting itself follows .NET (see the other test files).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DE_DE,
  EN_US,
  FormatError,
  applyFormat,
  dateTimeMinValue,
  dateTimeOffset,
  formatForDisplay,
  isFormatKind,
  resolveFormatSpec,
  type FormatSpec,
} from '../../../src/report/format/index.js';
import { CORE_DEMOS, DEMO_REPORTS_DIR } from '../../support/fastreport-demos.js';

const at = (y: number, m: number, d: number, h = 0, mi = 0, s = 0) => {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date;
};
class Dec {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}
const dec = (t: string) => new Dec(t);

describe('defaults per kind', () => {
  it('match the FastReport constructors', () => {
    const number = resolveFormatSpec({ kind: 'Number' });
    expect([
      number.useLocale,
      number.decimalDigits,
      number.decimalSeparator,
      number.groupSeparator,
      number.negativePattern,
    ]).toEqual([true, 2, '.', ',', 0]);
    const currency = resolveFormatSpec({ kind: 'Currency' });
    expect([
      currency.useLocale,
      currency.decimalDigits,
      currency.currencySymbol,
      currency.positivePattern,
      currency.negativePattern,
    ]).toEqual([true, 2, '$', 0, 0]);
    const percent = resolveFormatSpec({ kind: 'Percent' });
    expect([
      percent.useLocale,
      percent.decimalDigits,
      percent.percentSymbol,
      percent.positivePattern,
      percent.negativePattern,
    ]).toEqual([true, 2, '%', 0, 0]);
    expect(resolveFormatSpec({ kind: 'Date' }).format).toBe('d');
    expect(resolveFormatSpec({ kind: 'Time' }).format).toBe('t');
    expect(resolveFormatSpec({ kind: 'Custom' }).format).toBe('G');
    const boolean = resolveFormatSpec({ kind: 'Boolean' });
    expect([boolean.trueText, boolean.falseText]).toEqual(['True', 'False']);
    expect(resolveFormatSpec({ kind: 'Number', decimalDigits: undefined }).decimalDigits).toBe(2);
  });

  it('unknown kinds are refused', () => {
    expect(isFormatKind('Currency')).toBe(true);
    expect(isFormatKind('Money')).toBe(false);
    expect(() => applyFormat(1, { kind: 'Money' as never })).toThrow(FormatError);
  });
});

describe('Number', () => {
  it('UseLocale (default): culture separators and negative pattern, DecimalDigits from the object', () => {
    expect(applyFormat(1234.5, { kind: 'Number' })).toBe('1,234.50');
    expect(applyFormat(-1234.5, { kind: 'Number' })).toBe('-1,234.50');
    expect(applyFormat(1234.5, { kind: 'Number' }, DE_DE)).toBe('1.234,50');
    expect(applyFormat(-1234.5, { kind: 'Number' }, DE_DE)).toBe('-1.234,50');
    expect(applyFormat(1234.567, { kind: 'Number', decimalDigits: 1 })).toBe('1,234.6');
    expect(applyFormat(12, { kind: 'Number', decimalDigits: 0 })).toBe('12');
  });

  it('without UseLocale: the object\'s separators, groups of three, NegativePattern 0 = "(n)"', () => {
    const spec: FormatSpec = { kind: 'Number', useLocale: false };
    expect(applyFormat(-1234.5, spec)).toBe('(1,234.50)');
    expect(applyFormat(-1234.5, { ...spec, negativePattern: 1 })).toBe('-1,234.50');
    expect(applyFormat(-1234.5, { ...spec, negativePattern: 4 })).toBe('1,234.50 -');
    expect(applyFormat(1234567.5, { ...spec, decimalSeparator: ',', groupSeparator: ' ' })).toBe('1 234 567,50');
    expect(applyFormat(1234567.5, { ...spec, decimalSeparator: ',', groupSeparator: ' ' }, DE_DE)).toBe('1 234 567,50');
    expect(() => applyFormat(1, { ...spec, negativePattern: 5 })).toThrow(FormatError);
    expect(() => applyFormat(1, { kind: 'Number', decimalDigits: -1 })).toThrow(FormatError);
  });

  it('a column type reaches the number formatter', () => {
    expect(applyFormat(1234.5, { kind: 'Number', decimalDigits: 0 }, EN_US, 'System.Double')).toBe('1,234');
    expect(applyFormat(1234.5, { kind: 'Number', decimalDigits: 0 }, EN_US, 'System.Decimal')).toBe('1,235');
    expect(applyFormat(-1, { kind: 'Custom', format: 'X' }, EN_US, 'System.Int16')).toBe('FFFF');
  });

  it('midpoints: a double rounds to even, a decimal away from zero', () => {
    expect(applyFormat(2.5, { kind: 'Number', decimalDigits: 0 })).toBe('2');
    expect(applyFormat(dec('2.5'), { kind: 'Number', decimalDigits: 0 })).toBe('3');
    expect(applyFormat(0.125, { kind: 'Number' })).toBe('0.12');
    expect(applyFormat(dec('0.125'), { kind: 'Number' })).toBe('0.13');
  });

  it("NaN and infinity use the invariant symbols FastReport's fresh NumberFormatInfo has", () => {
    expect(applyFormat(Number.NaN, { kind: 'Number' })).toBe('NaN');
    expect(applyFormat(Number.POSITIVE_INFINITY, { kind: 'Currency' })).toBe('Infinity');
    expect(applyFormat(Number.NEGATIVE_INFINITY, { kind: 'Percent' }, DE_DE)).toBe('-Infinity');
  });
});

describe('Currency', () => {
  it('UseLocale (default)', () => {
    expect(applyFormat(1234.5, { kind: 'Currency' })).toBe('$1,234.50');
    expect(applyFormat(-1234.5, { kind: 'Currency' })).toBe('-$1,234.50');
    expect(applyFormat(1234.5, { kind: 'Currency' }, DE_DE)).toBe('1.234,50 €');
    expect(applyFormat(-1234.5, { kind: 'Currency' }, DE_DE)).toBe('-1.234,50 €');
    // The object's symbol and patterns only count without UseLocale.
    expect(applyFormat(-5, { kind: 'Currency', currencySymbol: '£', negativePattern: 0 })).toBe('-$5.00');
  });

  it('without UseLocale', () => {
    const spec: FormatSpec = {
      kind: 'Currency',
      useLocale: false,
      currencySymbol: '€',
      positivePattern: 3,
      negativePattern: 8,
    };
    expect(applyFormat(1234.5, spec)).toBe('1,234.50 €');
    expect(applyFormat(-1234.5, spec)).toBe('-1,234.50 €');
    expect(applyFormat(-1234.5, { kind: 'Currency', useLocale: false })).toBe('($1,234.50)');
    expect(() => applyFormat(1, { kind: 'Currency', useLocale: false, positivePattern: 4 })).toThrow(FormatError);
    expect(applyFormat(1, { kind: 'Currency', useLocale: false, negativePattern: 16 })).toBe('$1.00');
  });
});

describe('Percent', () => {
  it('UseLocale (default): culture patterns', () => {
    expect(applyFormat(0.1234, { kind: 'Percent' })).toBe('12.34%');
    expect(applyFormat(-0.1234, { kind: 'Percent' })).toBe('-12.34%');
    expect(applyFormat(0.1234, { kind: 'Percent' }, DE_DE)).toBe('12,34 %');
    expect(applyFormat(0.5, { kind: 'Percent', decimalDigits: 0 })).toBe('50%');
  });

  it('without UseLocale: pattern 0 is "n %"', () => {
    expect(applyFormat(0.1234, { kind: 'Percent', useLocale: false })).toBe('12.34 %');
    expect(applyFormat(-0.1234, { kind: 'Percent', useLocale: false })).toBe('-12.34 %');
    expect(applyFormat(0.1234, { kind: 'Percent', useLocale: false, percentSymbol: 'pct', positivePattern: 3 })).toBe(
      'pct 12.34',
    );
  });
});

describe('Date, Time, Custom, Boolean, General', () => {
  const when = at(2013, 8, 4, 13, 5, 0);

  it('Date and Time', () => {
    expect(applyFormat(when, { kind: 'Date' })).toBe('8/4/2013');
    expect(applyFormat(when, { kind: 'Date', format: 'D' })).toBe('Sunday, August 4, 2013');
    expect(applyFormat(when, { kind: 'Date' }, DE_DE)).toBe('04.08.2013');
    expect(applyFormat(when, { kind: 'Time' })).toBe('1:05 PM');
    expect(applyFormat(when, { kind: 'Time', format: 'T' }, DE_DE)).toBe('13:05:00');
    expect(applyFormat(dateTimeOffset(at(2013, 8, 4), 240), { kind: 'Date' })).toBe('8/4/2013');
  });

  it('Custom: any .NET format string, through String.Format("{0:…}")', () => {
    expect(applyFormat(1234.5, { kind: 'Custom', format: '#,##0.00 kg' })).toBe('1,234.50 kg');
    expect(applyFormat(when, { kind: 'Custom', format: 'dd MMM yyyy' })).toBe('04 Aug 2013');
    expect(applyFormat(1234.5, { kind: 'Custom' })).toBe('1234.5');
    expect(applyFormat(1234.5, { kind: 'Custom', format: 'N0' }, DE_DE)).toBe('1.234'); // a double: tie to even
    // A '}' ends the composite item early, as in FastReport.
    expect(() => applyFormat(1, { kind: 'Custom', format: '0}x' })).toThrow(FormatError);
  });

  it('Boolean', () => {
    expect(applyFormat(true, { kind: 'Boolean' })).toBe('True');
    expect(applyFormat(false, { kind: 'Boolean' })).toBe('False');
    expect(applyFormat(true, { kind: 'Boolean', trueText: 'Yes', falseText: 'No' })).toBe('Yes');
    expect(applyFormat(false, { kind: 'Boolean', trueText: 'Yes', falseText: 'No' })).toBe('No');
    expect(applyFormat(5, { kind: 'Boolean', trueText: 'Yes' })).toBe('5');
  });

  it('General: ToString()', () => {
    expect(applyFormat(1234.5, { kind: 'General' })).toBe('1234.5');
    expect(applyFormat(dec('12.3400'), { kind: 'General' })).toBe('12.3400');
    expect(applyFormat(when, { kind: 'General' })).toBe('8/4/2013 1:05:00 PM');
    expect(applyFormat(true, { kind: 'General' })).toBe('True');
    expect(applyFormat(null, { kind: 'General' })).toBe('');
  });

  it('strings pass through every format; a date under a number format is a FormatError', () => {
    for (const kind of ['Number', 'Currency', 'Percent', 'Date', 'Time', 'Custom', 'Boolean', 'General'] as const) {
      expect(applyFormat('n/a', { kind })).toBe('n/a');
    }
    expect(() => applyFormat(when, { kind: 'Number' })).toThrow(FormatError);
    expect(applyFormat(12, { kind: 'Date' })).toBe('12'); // "d" is also the integer format D
    expect(() => applyFormat(12.5, { kind: 'Date' })).toThrow(FormatError); // …but not valid for a double
  });
});

describe('formatForDisplay: NullValue, ConvertNulls, HideZeros, HideValue', () => {
  const currency: FormatSpec = { kind: 'Currency' };

  it('null shows NullValue', () => {
    expect(formatForDisplay(null, currency)).toBe('');
    expect(formatForDisplay(null, currency, { nullValue: '-' })).toBe('-');
    expect(formatForDisplay(undefined, { kind: 'Date' }, { nullValue: 'n/a' })).toBe('n/a');
  });

  it('ConvertNulls turns a null column value into its type default, so NullValue is not shown', () => {
    expect(formatForDisplay(null, currency, { convertNulls: true, nullType: 'number', nullValue: '-' })).toBe('$0.00');
    expect(formatForDisplay(null, { kind: 'General' }, { convertNulls: true, nullType: 'number' })).toBe('0');
    expect(
      formatForDisplay(null, { kind: 'General' }, { convertNulls: true, nullType: 'string', nullValue: '-' }),
    ).toBe('');
    expect(formatForDisplay(null, { kind: 'Boolean' }, { convertNulls: true, nullType: 'boolean' })).toBe('False');
    expect(formatForDisplay(null, { kind: 'Date' }, { convertNulls: true, nullType: 'date' })).toBe('1/1/0001');
    expect(formatForDisplay(null, { kind: 'General' }, { convertNulls: true, nullType: 'other', nullValue: '?' })).toBe(
      '?',
    );
    // The column's .NET type name works too.
    expect(formatForDisplay(null, currency, { convertNulls: true, type: 'System.Decimal' })).toBe('$0.00');
    expect(formatForDisplay(null, { kind: 'General' }, { convertNulls: true, type: 'System.Int32' })).toBe('0');
    expect(
      formatForDisplay(null, { kind: 'General' }, { convertNulls: true, type: 'System.String', nullValue: '-' }),
    ).toBe('');
    expect(formatForDisplay(null, { kind: 'General' }, { convertNulls: true, type: 'System.Boolean' })).toBe('False');
    expect(formatForDisplay(null, { kind: 'General' }, { convertNulls: true, type: 'System.DateTime' })).toBe(
      '1/1/0001 12:00:00 AM',
    );
    expect(
      formatForDisplay(null, { kind: 'General' }, { convertNulls: true, type: 'System.Byte[]', nullValue: '?' }),
    ).toBe('?');
    // Without the column type, the format's kind decides.
    expect(formatForDisplay(null, { kind: 'Number' }, { convertNulls: true })).toBe('0.00');
    expect(formatForDisplay(null, { kind: 'Time' }, { convertNulls: true })).toBe('12:00 AM');
    expect(formatForDisplay(null, { kind: 'Custom', format: '0.0' }, { convertNulls: true })).toBe('');
  });

  it('HideZeros hides numeric zeros and DateTime.MinValue, not values that merely print as zero', () => {
    const opts = { hideZeros: true };
    expect(formatForDisplay(0, currency, opts)).toBe('');
    expect(formatForDisplay(-0, currency, opts)).toBe('');
    expect(formatForDisplay(0n, currency, opts)).toBe('');
    expect(formatForDisplay(dec('0.00'), currency, opts)).toBe('');
    expect(formatForDisplay(0.001, currency, opts)).toBe('$0.00');
    expect(formatForDisplay(5, currency, opts)).toBe('$5.00');
    expect(formatForDisplay(dateTimeMinValue(), { kind: 'Date' }, opts)).toBe('');
    expect(formatForDisplay(at(1900, 1, 1), { kind: 'Date' }, opts)).toBe('1/1/1900');
    expect(formatForDisplay(null, currency, { ...opts, convertNulls: true, nullType: 'number' })).toBe('');
    expect(formatForDisplay('0', { kind: 'General' }, opts)).toBe('0'); // a string is not numeric
    expect(formatForDisplay(false, { kind: 'General' }, opts)).toBe('False');
  });

  it('HideValue compares value.ToString() in the culture', () => {
    expect(formatForDisplay(0, currency, { hideValue: '0' })).toBe('');
    expect(formatForDisplay(0.5, currency, { hideValue: '0.5' })).toBe('');
    expect(formatForDisplay(0.5, currency, { hideValue: '0,5' })).toBe('$0.50');
    expect(formatForDisplay(0.5, currency, { hideValue: '0,5', culture: DE_DE })).toBe('');
    // FastReport's own example: hide 1/1/1900 by its ToString() text.
    expect(formatForDisplay(at(1900, 1, 1), { kind: 'Date' }, { hideValue: '1/1/1900 12:00:00 AM' })).toBe('');
    expect(formatForDisplay('n/a', { kind: 'General' }, { hideValue: 'n/a' })).toBe('');
    expect(formatForDisplay('x', { kind: 'General' }, { hideValue: '' })).toBe('x');
  });
});

// Every TextObject Format in the demo reports, read the way the template loader reads them.
const FIXTURES = DEMO_REPORTS_DIR;

function specsInFixtures(): { file: string; name: string; spec: FormatSpec }[] {
  const found: { file: string; name: string; spec: FormatSpec }[] = [];
  for (const file of CORE_DEMOS) {
    const xml = readFileSync(FIXTURES + file, 'utf8');
    for (const tag of xml.match(/<TextObject\b[^>]*>/g) ?? []) {
      const attrs = new Map<string, string>();
      for (const m of tag.matchAll(/\s([\w.]+)="([^"]*)"/g)) attrs.set(m[1] as string, m[2] as string);
      const kind = attrs.get('Format');
      if (kind === undefined) continue;
      if (!isFormatKind(kind)) throw new Error(`${file}: unknown Format ${kind}`);
      const num = (k: string) => (attrs.has(k) ? Number(attrs.get(k)) : undefined);
      const spec: FormatSpec = {
        kind,
        useLocale: attrs.has('Format.UseLocale') ? attrs.get('Format.UseLocale') === 'true' : undefined,
        decimalDigits: num('Format.DecimalDigits'),
        decimalSeparator: attrs.get('Format.DecimalSeparator'),
        groupSeparator: attrs.get('Format.GroupSeparator'),
        currencySymbol: attrs.get('Format.CurrencySymbol'),
        positivePattern: num('Format.PositivePattern'),
        negativePattern: num('Format.NegativePattern'),
        format: attrs.get('Format.Format'),
      };
      found.push({ file, name: attrs.get('Name') ?? '?', spec });
    }
  }
  return found;
}

describe('Format attributes in the core FastReport demos', () => {
  it('every combination formats as FastReport would', () => {
    const found = specsInFixtures();
    expect(found.length).toBeGreaterThan(20);
    const orderDate = at(2013, 8, 4);
    // (positive, negative) for Currency; the date for Date formats.
    const expected = new Map<string, string[]>([
      ['Date d', ['8/4/2013']],
      ['Date D', ['Sunday, August 4, 2013']],
      ['Currency locale', ['$1,234.50', '-$1,234.50']], // UseLocale="true" [DecimalDigits="2"]
      // Purchase Order.frx line items: the group separator is a no-break space (U+00A0)
      ['Currency , / NBSP / $ / 0 / 1', ['$1\u00A0234,50', '-$1\u00A0234,50']],
      ['Currency . / , / $ / 0 / 0', ['$1,234.50', '($1,234.50)']], // Purchase Order.frx totals
    ]);
    const seen = new Set<string>();
    for (const { file, name, spec } of found) {
      const s = resolveFormatSpec(spec);
      let key: string;
      let actual: string[];
      if (s.kind === 'Date') {
        key = `Date ${s.format}`;
        actual = [applyFormat(orderDate, spec)];
      } else if (s.kind === 'Currency') {
        key = s.useLocale
          ? 'Currency locale'
          : `Currency ${s.decimalSeparator} / ${s.groupSeparator === '\u00A0' ? 'NBSP' : s.groupSeparator} ` +
            `/ ${s.currencySymbol} / ${s.positivePattern} / ${s.negativePattern}`;
        expect(s.decimalDigits, `${file} ${name}`).toBe(2);
        actual = [applyFormat(1234.5, spec), applyFormat(-1234.5, spec)];
      } else {
        throw new Error(`${file} ${name}: a ${s.kind} format this test does not know yet`);
      }
      expect(expected.has(key), `${file} ${name}: ${key}`).toBe(true);
      expect(actual, `${file} ${name}`).toEqual(expected.get(key));
      seen.add(key);
    }
    expect([...seen].sort()).toEqual([...expected.keys()].sort());
  });
});
