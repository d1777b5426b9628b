// The null rule (CONTRACT.md "Report rendering"): comparisons with null / DBNull.Value see the
// raw value; ConvertNulls makes a null act as its column type's default in display and
// arithmetic only.
import { describe, expect, it } from 'vitest';
import { compileExpression } from '../../../src/report/expr/index.js';
import { errorOf, run, scopeOf } from './helpers.js';

describe('ConvertNulls on (FastReport default)', () => {
  it.each([
    ['[NullInt] == null', 'bool true'],
    ['[NullInt] != null', 'bool false'],
    ['null == [NullInt]', 'bool true'],
    ['[NullInt] == DBNull.Value', 'bool true'],
    ['[NullStr] == null', 'bool true'],
    ['[NullDate] == null', 'bool true'],
    ['[Missing] == null', 'bool true'],
    ['[I] == null', 'bool false'],
    ['[I] != DBNull.Value', 'bool true'],
    ['[NullInt] + 1', 'int 1'],
    ['[NullInt]', 'int 0'],
    ['[NullLong] + 1', 'long 1'],
    ['[NullDec] * 2', 'decimal 0'],
    ['[NullDouble] / 2', 'double 0'],
    ['[NullStr]', 'string '],
    ['[NullStr] + "x"', 'string x'],
    ['[NullStr].Length', 'int 0'],
    ['[NullStr].ToUpper()', 'string '],
    ['[NullBool]', 'bool false'],
    ['[NullBool] || true', 'bool true'],
    ['[NullDate]', 'DateTime 0001-01-01T00:00:00'],
    ['[NullInt] == 0', 'bool true'],
    ['[NullInt] > -1', 'bool true'],
    ['[NullInt] == [NullDec]', 'bool true'],
    ['[NullInt].ToString()', 'string 0'],
    ['(int)[NullInt]', 'int 0'],
    ['-[NullInt]', 'int 0'],
    ['[Missing]', 'null'],
    ['[Missing] + 1', 'int 1'],
    ['[Missing] + 1.5m', 'decimal 1.5'],
    ['[Missing] + "a"', 'string a'],
    ['IIf([NullInt] == null, "-", "x")', 'string -'],
    ['IIf([Employees.Notes] == null, "-", [Employees.Notes])', 'string -'],
    ['IIf(true, [NullInt], 1)', 'int 0'],
    ['IIf(true, [NullInt], 1) == null', 'bool true'],
    ['[NullInt] ?? 5', 'int 5'],
    ['[I] ?? 5', 'int 7'],
    ['[Orders.ShippedDate] == null ? "not shipped" : "shipped"', 'string not shipped'],
    ['IsNull("NullInt")', 'bool true'],
    ['IsNull("I")', 'bool false'],
    ['IsNull("Orders.ShippedDate")', 'bool true'],
    ['IsNull([NullStr])', 'bool true'],
    ['IsNull([S])', 'bool false'],
    ['IsNull("No.Such.Name")', 'bool true'],
    ['String.IsNullOrEmpty([NullStr])', 'bool true'],
    ['Convert.IsDBNull([NullInt])', 'bool true'],
    ['Convert.IsDBNull([I])', 'bool false'],
    ['Length([NullStr])', 'int 0'],
    ['Report.GetColumnValue("NullInt")', 'int 0'],
    ['Report.GetColumnValueNullable("NullInt") == null', 'bool true'],
    ['Report.GetColumnValue("Orders.OrderID")', 'int 10248'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });
});

describe('ConvertNulls off', () => {
  const off = { convertNulls: false };
  it.each([
    ['[NullInt] == null', 'bool true'],
    ['[NullInt] == DBNull.Value', 'bool true'],
    ['[NullInt] + 1', 'null'],
    ['[NullInt]', 'null'],
    ['[NullDec] * 2', 'null'],
    ['[Missing] + 1', 'null'],
    ['-[NullInt]', 'null'],
    ['[NullStr] + "x"', 'string x'],
    ['"x" + [NullInt]', 'string x'],
    ['[NullInt] > 1', 'bool false'],
    ['[NullInt] < 1', 'bool false'],
    ['[NullInt] == 0', 'bool false'],
    ['[NullInt] != 0', 'bool true'],
    ['[NullInt] == [NullLong]', 'bool true'],
    ['(int?)[NullInt]', 'null'],
    ['[NullInt] ?? 5', 'int 5'],
    ['Length([NullStr])', 'int 0'],
    ['Convert.ToInt32([NullInt])', 'int 0'],
    ['Report.GetColumnValue("NullInt")', 'int 0'],
    ['IsNull("NullInt")', 'bool true'],
    ['[NullStr]?.Length', 'null'],
  ])('%s → %s', (src, expected) => {
    expect(run(src, off)).toBe(expected);
  });

  it.each([
    ['[NullStr].Length', /Object reference not set/],
    ['[NullStr].Substring(0)', /Object reference not set/],
    ['IIf([NullBool], 1, 2)', /condition is null/],
    ['(int)[NullInt]', /null cannot be converted/],
  ])('%s fails: %s', (src, message) => {
    expect(errorOf(src, off)).toMatch(message);
  });

  it('a null result keeps its column type', () => {
    const c = compileExpression('[NullInt]');
    expect(c.evaluateTyped(scopeOf(undefined, { convertNulls: false }))).toEqual({ value: null, type: 'System.Int32' });
    expect(c.evaluateTyped(scopeOf(undefined, { convertNulls: true }))).toEqual({ value: 0, type: 'System.Int32' });
  });
});
