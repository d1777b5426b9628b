// The public API: compile once / evaluate per row, public value shapes, name lookup, errors,
// and the value operations the engine uses for totals and sorting.
import { describe, expect, it } from 'vitest';
import {
  applyOperator,
  compareValues,
  compileExpression,
  Decimal,
  ExpressionError,
  type Resolved,
  type Scope,
  TemplateError,
  TimeSpan,
} from '../../../src/report/expr/index.js';
import { Formatter } from '../../../src/report/format/index.js';
import { NWIND, scopeOf } from './helpers.js';

describe('compile once, evaluate per row', () => {
  it('evaluates the same compiled expression against many rows', () => {
    const c = compileExpression('[Order Details.UnitPrice] * [Order Details.Quantity]');
    let total = Decimal.Zero;
    for (let i = 1; i <= 1000; i++) {
      const scope = scopeOf({
        'Order Details.UnitPrice': { value: '0.10', type: 'System.Decimal' },
        'Order Details.Quantity': { value: i % 7, type: 'System.Int16' },
      });
      total = total.add(c.evaluate(scope) as Decimal);
    }
    expect(total.toString()).toBe('300.30');
  });

  it('is fast enough for reports', () => {
    const c = compileExpression(
      'IIf([Row#] % 2 == 0, [Employees.FirstName] + " " + [Employees.LastName], ' +
        '[Products.ProductName].Substring(0, 1))',
    );
    const scope = scopeOf();
    const t0 = performance.now();
    for (let i = 0; i < 20_000; i++) c.evaluate(scope);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('exposes the syntax tree and the names it refers to', () => {
    const c = compileExpression(
      '[A] + IIf([B] == null, Report.ReportInfo.Name, IsNull("C") ? Report.GetTotalValue("T") : [A])',
    );
    expect(c.references).toEqual(['A', 'B', 'Report.ReportInfo.Name', 'C', 'T']);
    expect(c.ast).toMatchObject({ k: 'bin', op: '+' });
    expect(compileExpression('Order Details.UnitPrice').references).toEqual(['Order Details.UnitPrice']);
    expect(compileExpression('[Orders.OrderID]').references).toEqual(['Orders.OrderID']);
  });
});

describe('public values', () => {
  const scope = scopeOf();
  it.each<[string, (v: unknown) => boolean, string]>([
    ['1 + 2', (v) => v === 3, 'System.Int32'],
    ['1.5 * 2', (v) => v === 3, 'System.Double'],
    ['1.5f', (v) => v === 1.5, 'System.Single'],
    ['5L', (v) => v === 5n, 'System.Int64'],
    ['1.50m', (v) => v instanceof Decimal && v.toString() === '1.50', 'System.Decimal'],
    ["'x'", (v) => v === 'x', 'System.Char'],
    [
      '[Orders.OrderDate]',
      (v) => v instanceof Date && v.toISOString() === '1996-07-04T00:00:00.000Z',
      'System.DateTime',
    ],
    ['TimeSpan.FromHours(1)', (v) => v instanceof TimeSpan && v.ms === 3_600_000, 'System.TimeSpan'],
    ['[Bytes]', (v) => v instanceof Uint8Array && v.length === 3, 'System.Byte[]'],
    ['"a,b".Split(\',\')', (v) => JSON.stringify(v) === '["a","b"]', 'System.String[]'],
    ['[Json]', (v) => JSON.stringify(v) === '{"a":1,"b":[1,2]}', 'System.Object'],
    ['[Arr][1]', (v) => v === 'y', 'System.String'],
    ['[Orders.OrderDate].DayOfWeek', (v) => v === 'Thursday', 'System.DayOfWeek'],
    ['null', (v) => v === null, 'System.Object'],
  ])('%s', (src, check, type) => {
    const r = compileExpression(src).evaluateTyped(scope);
    expect(check(r.value)).toBe(true);
    expect(r.type).toBe(type);
  });

  it('reads a DateTime as the wall clock written in the source (offsetMinutes)', () => {
    const s = scopeOf({ D: { value: new Date('2013-08-03T20:00:00Z'), type: 'System.DateTime', offsetMinutes: 240 } });
    expect(compileExpression('[D].ToString("yyyy-MM-dd HH:mm")').evaluate(s)).toBe('2013-08-04 00:00');
    expect(compileExpression('[D].Day').evaluate(s)).toBe(4);
  });

  it('takes untyped values at face value', () => {
    const s = scopeOf({ N: { value: 5 }, F: { value: 2.5 }, B: { value: 10n }, T: { value: 'x' } });
    expect(compileExpression('[N] / 2').evaluate(s)).toBe(2);
    expect(compileExpression('[F] * 2').evaluateTyped(s)).toEqual({ value: 5, type: 'System.Double' });
    expect(compileExpression('[B] + 1').evaluate(s)).toBe(11n);
    expect(compileExpression('[T] + 1').evaluate(s)).toBe('x1');
  });

  it('accepts the type spellings data sources use', () => {
    const s = scopeOf({
      A: { value: 5, type: 'Int32' },
      B: { value: 5, type: 'double' },
      C: { value: 5, type: 'System.Nullable`1[System.Decimal]' },
      D: { value: '7', type: 'int?' },
    });
    expect(compileExpression('[A] / 2').evaluate(s)).toBe(2);
    expect(compileExpression('[B] / 2').evaluate(s)).toBe(2.5);
    expect(compileExpression('[C] / 2').evaluateTyped(s).type).toBe('System.Decimal');
    expect(compileExpression('[D] / 2').evaluate(s)).toBe(3);
  });
});

describe('name lookup', () => {
  function recording(data: Record<string, Resolved>): Scope & { calls: string[] } {
    const calls: string[] = [];
    const map = new Map(Object.entries(data));
    return {
      calls,
      convertNulls: true,
      resolve: (n) => {
        calls.push(n);
        return map.get(n);
      },
    };
  }

  it('passes the raw text of a [reference], then the trimmed text', () => {
    const s = recording({ 'Order Details.UnitPrice': { value: 1, type: 'System.Int32' } });
    expect(compileExpression('[ Order Details.UnitPrice ] + 1').evaluate(s)).toBe(2);
    expect(s.calls).toEqual([' Order Details.UnitPrice ', 'Order Details.UnitPrice']);
  });

  it('tries a whole expression as a name first (Report.Calc)', () => {
    const s = recording({
      'Sub-Total': { value: 10, type: 'System.Int32' },
      Sub: { value: 100, type: 'System.Int32' },
      Total: { value: 1, type: 'System.Int32' },
    });
    expect(compileExpression('Sub-Total').evaluate(s)).toBe(10);
    expect(compileExpression('[Sub-Total]').evaluate(s)).toBe(10);
    expect(compileExpression('Sub - Total').evaluate(s)).toBe(99);
    expect(compileExpression('[Sub] - [Total]').evaluate(s)).toBe(99);
  });

  it(
    'a whole source that is not C# but looks like a name is looked up; other invalid sources fail at compile ' + 'time',
    () => {
      const s = scopeOf({
        'Qty/Box (kg)': { value: 4, type: 'System.Int32' },
        'Price (USD)': { value: 2, type: 'System.Int32' },
        Qty: { value: 1, type: 'System.Int32' },
      });
      const isName = (n: string) => n === 'Qty/Box (kg)' || n === 'Price (USD)' || n === 'Qty';
      expect(compileExpression('Qty/Box (kg)', { isName }).evaluate(s)).toBe(4);
      expect(() => compileExpression('Qty/Box (kg)')).toThrow(/unknown function 'Box'/);
      expect(compileExpression('[Price (USD)]').evaluate(s)).toBe(2);
      expect(compileExpression('[Price (USD)]', { isName }).evaluate(s)).toBe(2);
      expect(compileExpression('Price (USD)', { isName }).references).toEqual(['Price (USD)']);
      expect(compileExpression('[Price (USD)] * [Qty/Box (kg)]').evaluate(s)).toBe(8);
      expect(compileExpression('Order Details.UnitPrice').references).toEqual(['Order Details.UnitPrice']);
      expect(() => compileExpression('1 + * 2')).toThrow(/syntax error/);
      expect(() => compileExpression('a ? b')).toThrow(/syntax error/);
    },
  );

  it('with the dictionary (isName), sources that are not names are C# only', () => {
    const calls: string[] = [];
    const scope: Scope = {
      convertNulls: true,
      resolve: (n) => {
        calls.push(n);
        return n === 'A' ? { value: 1, type: 'System.Int32' } : undefined;
      },
    };
    const isName = (n: string) => n === 'A';
    expect(compileExpression('[A] + 1', { isName }).evaluate(scope)).toBe(2);
    expect(compileExpression('2 + 2', { isName }).evaluate(scope)).toBe(4);
    expect(compileExpression('A', { isName }).evaluate(scope)).toBe(1);
    expect(calls).toEqual(['A', 'A']);
    expect(() => compileExpression('Order Details.UnitPrice', { isName })).toThrow(/syntax error/);
  });

  it('accepts names that are not C#, and says so when they are unknown', () => {
    expect(compileExpression('Order Details.UnitPrice').evaluate(scopeOf())).toBeInstanceOf(Decimal);
    expect(compileExpression('Row#').evaluate(scopeOf())).toBe(3);
    expect(() => compileExpression('No Such.Column').evaluate(scopeOf())).toThrow(
      /unknown name "No Such\.Column" \(and not a valid expression: /,
    );
    expect(() => compileExpression('[No Such.Column]').evaluate(scopeOf())).toThrow(
      /unknown name "\[No Such\.Column\]"/,
    );
    expect(() => compileExpression('NoSuch.Name').evaluate(scopeOf())).toThrow(/unknown name "NoSuch\.Name"/);
  });

  it('resolves bare chains by their longest known prefix, members after it', () => {
    const s = recording({ 'Report.ReportInfo.Name': { value: 'Simple List', type: 'System.String' } });
    expect(compileExpression('Report.ReportInfo.Name.Length').evaluate(s)).toBe(11);
    expect(s.calls).toEqual(['Report.ReportInfo.Name.Length', 'Report.ReportInfo.Name']);
    s.calls.length = 0;
    expect(compileExpression('Report.ReportInfo.Name.Substring(0, 6)').evaluate(s)).toBe('Simple');
    // The whole source first (Report.Calc), then the chain without the called method.
    expect(s.calls).toEqual(['Report.ReportInfo.Name.Substring(0, 6)', 'Report.ReportInfo.Name']);
    s.calls.length = 0;
    expect(compileExpression('[Report.ReportInfo.Name].Substring(0, 6)').evaluate(s)).toBe('Simple');
    expect(s.calls).toEqual(['Report.ReportInfo.Name']);
  });

  it('stays right when different rows know different prefixes', () => {
    const c = compileExpression('Foo.Bar.Length');
    const a = scopeOf({ 'Foo.Bar': { value: 'abc', type: 'System.String' } });
    const b = scopeOf({ 'Foo.Bar.Length': { value: 42, type: 'System.Int32' } });
    expect([c.evaluate(a), c.evaluate(b), c.evaluate(a), c.evaluate(b)]).toEqual([3, 42, 3, 42]);
  });

  it('inside an expression C# types win over data names; a whole-expression name is looked up first', () => {
    const s = scopeOf({ 'Math.PI': { value: 3, type: 'System.Int32' } });
    expect(compileExpression('Math.PI + 0').evaluate(s)).toBe(Math.PI);
    expect(compileExpression('Math.PI').evaluate(s)).toBe(3);
    expect(compileExpression('Math.PI').evaluate(scopeOf())).toBe(Math.PI);
  });

  it('Value is an ordinary name (Highlight conditions)', () => {
    expect(compileExpression('Value < 0').evaluate(scopeOf())).toBe(true);
  });
});

describe('errors', () => {
  it('syntax errors name the expression, the object and the offset', () => {
    let err: unknown;
    try {
      compileExpression('[A] + * 2', { where: 'Text7.Text' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExpressionError);
    expect(err).toBeInstanceOf(TemplateError);
    const e = err as ExpressionError;
    expect(e.message).toBe('Text7.Text: expression "[A] + * 2": syntax error at 7: unexpected \'*\'');
    expect(e.where).toBe('Text7.Text');
    expect(e.expression).toBe('[A] + * 2');
    expect(e.position).toBe(6);
    expect(e.netError).toBe('SyntaxError');
  });

  it.each([
    ['1 +', /unexpected end of expression/],
    ['(1', /'\)' expected at the end/],
    ['"abc', /unterminated string/],
    ["'ab'", /too many characters/],
    ["''", /empty character literal/],
    ['1 2', /unexpected '2'/],
    ['[A] = 1', /assignment is not supported/],
    ['[A]++', /'\+\+' is not supported/],
    ['$"a{1}"', /interpolated strings/],
    ['1abc', /invalid number suffix/],
    ['"\\q"', /unrecognized escape/],
    ['#', /unexpected character '#'/],
    ['[A', /not closed/],
    ['[A] + []', /empty data reference/],
    ['x ? 1', /':' expected/],
    ['99999999999999999999', /ulong|too large/],
    ['18446744073709551616', /too large/],
    ['new Foo()', /'new Foo' is not supported/],
    ['int', /is a type, not a value/],
    ['this.X', /'this' is not supported/],
    ['x is int', /'is' is not supported/],
    ['/* open', /unterminated comment/],
    ['   ', /empty expression/],
  ])('%j: %s', (src, message) => {
    expect(() => compileExpression(src).evaluate(scopeOf())).toThrow(message);
  });

  it('runtime errors carry the .NET exception name; evaluate(…, where) overrides the compile-time object', () => {
    const c = compileExpression('10 / [NullInt]', { where: 'Text1.Text' });
    let err: unknown;
    try {
      c.evaluate(scopeOf(), 'Page1.Text1');
    } catch (e) {
      err = e;
    }
    const e = err as ExpressionError;
    expect(e.where).toBe('Page1.Text1');
    expect(e.netError).toBe('DivideByZeroException');
    expect(e.message).toBe('Page1.Text1: expression "10 / [NullInt]": Attempted to divide by zero');
  });

  it('long expressions are shortened in messages', () => {
    const src = `1 / 0${' + 1'.repeat(100)}`;
    expect(() => compileExpression(src).evaluate(scopeOf())).toThrow(/…": Attempted to divide by zero$/);
  });

  it('a missing scope is a TemplateError', () => {
    expect(() => compileExpression('1').evaluate(undefined as unknown as Scope)).toThrow(TemplateError);
    expect(() => compileExpression(5 as unknown as string)).toThrow(TemplateError);
  });
});

describe('value operations for the engine', () => {
  const dec = (s: string): Resolved => ({ value: s, type: 'System.Decimal' });
  it('sums with C# semantics', () => {
    const r = applyOperator('+', dec('0.1'), dec('0.2'));
    expect(r.type).toBe('System.Decimal');
    expect(String(r.value)).toBe('0.3');
    expect(applyOperator('+', { value: 2147483647, type: 'System.Int32' }, { value: 1, type: 'System.Int32' })).toEqual(
      { value: -2147483648, type: 'System.Int32' },
    );
    expect(applyOperator('+', { value: 1.5, type: 'System.Double' }, { value: 1, type: 'System.Int32' })).toEqual({
      value: 2.5,
      type: 'System.Double',
    });
    expect(applyOperator('/', dec('10'), { value: 4, type: 'System.Int32' }).value).toEqual(Decimal.parse('2.5'));
    expect(applyOperator('==', { value: null }, { value: null })).toEqual({ value: true, type: 'System.Boolean' });
    expect(
      applyOperator(
        '+',
        { value: null, type: 'System.Int32' },
        { value: 1, type: 'System.Int32' },
        { convertNulls: true },
      ).value,
    ).toBe(1);
    expect(applyOperator('+', { value: null, type: 'System.Int32' }, { value: 1, type: 'System.Int32' }).value).toBe(
      null,
    );
    expect(() => applyOperator('/', { value: 1, type: 'System.Int32' }, { value: 0, type: 'System.Int32' })).toThrow(
      TemplateError,
    );
  });

  it('orders values for sorting and grouping', () => {
    const values: Resolved[] = [
      { value: 'b' },
      { value: 2.5, type: 'System.Double' },
      { value: null },
      { value: '10.00', type: 'System.Decimal' },
      { value: 3, type: 'System.Int32' },
      { value: true },
      { value: 'a' },
      { value: new Date('2020-01-01T00:00:00Z') },
    ];
    const sorted = [...values].sort(compareValues).map((r) => String(r.value instanceof Date ? 'date' : r.value));
    expect(sorted).toEqual(['null', 'true', '2.5', '3', '10.00', 'date', 'a', 'b']);
    expect(compareValues({ value: 1, type: 'System.Int32' }, { value: '1.0', type: 'System.Decimal' })).toBe(0);
  });

  // One formatter: a scope without its own formatter gets src/report/format/'s en-US Formatter,
  // the one the report engine hands in, so ToString(format) means the same in tests, tools and reports.
  it.each<[unknown, string, string, string]>([
    [1e21, '', 'System.Double', '1E+21'],
    [3, '', 'System.Double', '3'],
    [0.1, '', 'System.Single', '0.1'],
    [-0, '', 'System.Double', '-0'],
    [Infinity, '', 'System.Double', '∞'],
    [1234.5, '#,##0.00', 'System.Double', '1,234.50'],
    [5551234567, '(###) ###-####', 'System.Int64', '(555) 123-4567'],
    [-1.5, '0.0;(0.0)', 'System.Double', '(1.5)'],
    [0.256, '0.0%', 'System.Double', '25.6%'],
    [1234.5678, 'E2', 'System.Double', '1.23E+003'],
    [1234.5678, 'G3', 'System.Double', '1.23E+03'],
    [0.00001234, 'G3', 'System.Double', '1.23E-05'],
    [-1, 'X', 'System.Int32', 'FFFFFFFF'],
    [new TimeSpan(90_061_000), 'g', 'System.TimeSpan', '1:1:01:01'],
    [new Date('2024-03-15T13:04:05Z'), 'f', 'System.DateTime', 'Friday, March 15, 2024 1:04 PM'],
  ])('without a formatter in the scope, %s formatted "%s" (%s) is "%s"', (value, format, type, expected) => {
    expect(Formatter.format(value, format, type)).toBe(expected);
    const scope = scopeOf({ X: { value, type } });
    const call = format === '' ? '[X].ToString()' : `[X].ToString("${format}")`;
    expect(compileExpression(call).evaluate(scope)).toBe(expected);
  });

  it('without a formatter in the scope, an invalid format is a TemplateError', () => {
    expect(() => Formatter.format(1.5, 'D', 'System.Double')).toThrow();
    const scope = scopeOf({ X: { value: 1.5, type: 'System.Double' } });
    expect(() => compileExpression('[X].ToString("D")').evaluate(scope)).toThrow(TemplateError);
  });
});

describe('the helpers scope', () => {
  it('is what the other tests assume', () => {
    expect(Object.keys(NWIND).length).toBeGreaterThan(30);
  });
});

describe('typed scope values are converted to their declared type', () => {
  it.each<[Resolved, string, unknown]>([
    [{ value: 5, type: 'System.String' }, '[X] + 1', '51'],
    [{ value: 0.1, type: 'System.String' }, '[X] + 1', '0.11'],
    [{ value: 1.5e-7, type: 'System.String' }, '[X]', '1.5E-07'],
    [{ value: 1.5e17, type: 'System.String' }, '[X]', '1.5E+17'],
    [{ value: true, type: 'System.String' }, '[X] + 1', 'True1'],
    [{ value: '12', type: 'System.Int32' }, '[X] + 1', 13],
    [{ value: '12', type: 'System.Int64' }, '[X] + 1', 13n],
    [{ value: 12.5, type: 'System.Decimal' }, '[X] * 2', Decimal.parse('25.0')],
    [{ value: 12, type: 'System.Decimal', decimalText: '12.50' }, '[X].ToString()', '12.50'],
    [{ value: 1, type: 'System.Boolean' }, '[X] && true', true],
    [{ value: 'TRUE', type: 'System.Boolean' }, '!([X])', false],
    [{ value: '2020-01-02T03:04:05', type: 'System.DateTime' }, '[X].Hour', 3],
    [{ value: '01:30:00', type: 'System.TimeSpan' }, '[X].TotalMinutes', 90],
    [{ value: 'A', type: 'System.Char' }, '(int)[X]', 65],
    [{ value: 3, type: 'System.Single' }, '[X] / 2', 1.5],
  ])('%j: %s', (resolved, src, expected) => {
    expect(compileExpression(src).evaluate(scopeOf({ X: resolved }))).toEqual(expected);
  });

  it.each<[Resolved]>([
    [{ value: 1.5, type: 'System.Int32' }],
    [{ value: 'abc', type: 'System.Decimal' }],
    [{ value: 'x', type: 'System.DateTime' }],
    [{ value: 5, type: 'System.Byte[]' }],
  ])('%j is a TemplateError', (resolved) => {
    expect(() => compileExpression('[X]').evaluate(scopeOf({ X: resolved }))).toThrow(TemplateError);
  });
});
