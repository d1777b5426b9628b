// Literals, operator precedence and associativity, C# numeric semantics (int / long / float /
// double / decimal), casts and System.Convert.
import { describe, expect, it } from 'vitest';
import { errorOf, run } from './helpers.js';

describe('literals', () => {
  it.each([
    ['42', 'int 42'],
    ['2147483647', 'int 2147483647'],
    ['2147483648', 'long 2147483648'],
    ['-2147483648', 'int -2147483648'],
    ['9223372036854775807', 'long 9223372036854775807'],
    ['-9223372036854775808', 'long -9223372036854775808'],
    ['42L', 'long 42'],
    ['42u', 'long 42'],
    ['0x1F', 'int 31'],
    ['0xFFFFFFFF', 'long 4294967295'],
    ['0b101', 'int 5'],
    ['1_000_000', 'int 1000000'],
    ['1.5', 'double 1.5'],
    ['1.5d', 'double 1.5'],
    ['3D', 'double 3'],
    ['1e3', 'double 1000'],
    ['.5', 'double 0.5'],
    ['1.5f', 'float 1.5'],
    ['1.50m', 'decimal 1.50'],
    ['7m', 'decimal 7'],
    ['1e2m', 'decimal 100'],
    ['1.5e-3M', 'decimal 0.0015'],
    ["'a'", 'char a'],
    ["'\\u0041'", 'char A'],
    ["'\\''", "char '"],
    ['"a\\tb"', 'string a\tb'],
    ['"\\x41\\u0042\\U00000043"', 'string ABC'],
    ['@"C:\\temp\\""x"""', 'string C:\\temp\\"x"'],
    ['"quote \\" inside"', 'string quote " inside'],
    ['true', 'bool true'],
    ['false', 'bool false'],
    ['null', 'null'],
    ['/* comment */ 1 // trailing', 'int 1'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });
});

describe('precedence and associativity', () => {
  it.each([
    ['2 + 3 * 4', 'int 14'],
    ['(2 + 3) * 4', 'int 20'],
    ['10 - 4 - 3', 'int 3'],
    ['100 / 10 / 5', 'int 2'],
    ['2 * 3 % 4', 'int 2'],
    ['10 - 2 * 3 + 1', 'int 5'],
    ['1 + 2 << 1', 'int 6'],
    ['1 << 2 + 1', 'int 8'],
    ['5 & 3 | 8', 'int 9'],
    ['5 | 3 & 1', 'int 5'],
    ['6 ^ 3 & 1', 'int 7'],
    ['1 < 2 == true', 'bool true'],
    ['2 + 3 == 5 && 4 > 3', 'bool true'],
    ['true || false && false', 'bool true'],
    ['(true || false) && false', 'bool false'],
    ['!true || true', 'bool true'],
    ['-2 * -3', 'int 6'],
    ['- -2', 'int 2'],
    ['-(-2)', 'int 2'],
    ['+5', 'int 5'],
    ['~0', 'int -1'],
    ['!(1 > 2)', 'bool true'],
    ['1 + 2 > 2 ? "a" : "b"', 'string a'],
    ['true ? 1 : false ? 2 : 3', 'int 1'],
    ['false ? 1 : false ? 2 : 3', 'int 3'],
    ['false ? 1 : true ? 2 : 3', 'int 2'],
    ['null ?? null ?? 5', 'int 5'],
    ['1 == 1 ? 2 : 3 + 10', 'int 2'],
    ['-5 % 3', 'int -2'],
    ['5 % -3', 'int 2'],
    ['7 >> 1', 'int 3'],
    ['-7 >> 1', 'int -4'],
    ['1 << 33', 'int 2'],
    ['1L << 33', 'long 8589934592'],
    ['5 > 3 == 2 > 1', 'bool true'],
    ['true & false | true', 'bool true'],
    ['true ^ true', 'bool false'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });
});

describe('int, long, double and decimal arithmetic', () => {
  it.each([
    ['7 / 2', 'int 3'],
    ['-7 / 2', 'int -3'],
    ['7 / 2.0', 'double 3.5'],
    ['7.0 / 2', 'double 3.5'],
    ['7m / 2', 'decimal 3.5'],
    ['7 / 2m', 'decimal 3.5'],
    ['1m / 3', 'decimal 0.3333333333333333333333333333'],
    ['2m / 3', 'decimal 0.6666666666666666666666666667'],
    ['10m / 3', 'decimal 3.3333333333333333333333333333'],
    ['1m / 3 * 3', 'decimal 0.9999999999999999999999999999'],
    ['10m / 4', 'decimal 2.5'],
    ['1.00m / 2', 'decimal 0.50'],
    ['10m / 0.5m', 'decimal 20'],
    ['0.1m + 0.2m', 'decimal 0.3'],
    ['0.1m + 0.2m == 0.3m', 'bool true'],
    ['0.1m * 3 == 0.3m', 'bool true'],
    ['0.1 + 0.2 == 0.3', 'bool false'],
    ['0.1 + 0.2', 'double 0.30000000000000004'],
    ['1.10m * 2', 'decimal 2.20'],
    ['0.4m * 1.05m', 'decimal 0.420'],
    ['1.5m - 1.5m', 'decimal 0.0'],
    ['10m % 3', 'decimal 1'],
    ['-7.5m % 2', 'decimal -1.5'],
    ['3 * 1.5m', 'decimal 4.5'],
    ['1.21 * 100m', 'decimal 121.00'],
    ['79228162514264337593543950335m', 'decimal 79228162514264337593543950335'],
    ['7L / 2', 'long 3'],
    ['7 / 2L', 'long 3'],
    ['int.MaxValue + 1', 'int -2147483648'],
    ['int.MaxValue * 2', 'int -2'],
    ['long.MaxValue + 1', 'long -9223372036854775808'],
    ['-int.MinValue', 'int -2147483648'],
    ['1.0 / 0', 'double Infinity'],
    ['-1.0 / 0', 'double -Infinity'],
    ['0.0 / 0', 'double NaN'],
    ['5.5 % 2', 'double 1.5'],
    ['1 + 1.5f', 'float 2.5'],
    ['1.5f + 1.5', 'double 3'],
    ["'a' + 1", 'int 98'],
    ["'a' + 'b'", 'int 195'],
    ['[I] / 2', 'int 3'],
    ['[D] / 2', 'double 3.5'],
    ['[L] * [L]', 'long 49'],
    ['[M] * 2', 'decimal 15.00'],
    ['[Order Details.UnitPrice] * [Order Details.Quantity]', 'decimal 168.0000'],
    ['[Order Details.Quantity] / 5', 'int 2'],
    ['[Order Details.Discount] * 2', 'float 0.30000001192092896'],
    ['[Sub-Total] * 1.21', 'decimal 532.4000'],
    ['[Orders.Freight] + 0.02m', 'decimal 32.40'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });

  it.each([
    ['1 / 0', /divide by zero/],
    ['1 % 0', /divide by zero/],
    ['1L / 0', /divide by zero/],
    ['1m / 0', /divide by zero/],
    ['1m % 0m', /divide by zero/],
    ['int.MinValue / -1', /overflow/],
    ['decimal.MaxValue + 1', /too large or too small/],
    ['decimal.MaxValue * 2', /too large or too small/],
    ['1m + double.NaN', /too large or too small/],
    ['"a" * 2', /Operator '\*' cannot be applied/],
    ['true + 1', /Operator '\+' cannot be applied/],
    ['"a" < "b"', /Operator '<' cannot be applied/],
    ['1 == "1"', /Operator '==' cannot be applied/],
    ['1.5 << 1', /Operator '<<'/],
    ['-"a"', /Operator '-'/],
    ['!1', /Operator '!'/],
    ['1 && true', /Cannot implicitly convert type 'int' to 'bool'/],
    ['1 ? 2 : 3', /to 'bool'/],
  ])('%s fails: %s', (src, message) => {
    expect(errorOf(src)).toMatch(message);
  });
});

describe('comparisons', () => {
  it.each([
    ['1 == 1.0', 'bool true'],
    ['1 == 1m', 'bool true'],
    ['1.0m == 1.00m', 'bool true'],
    ['2L > 1', 'bool true'],
    ['0.5m < 0.6', 'bool true'],
    ['3 >= 3', 'bool true'],
    ['3 <= 2', 'bool false'],
    ['"abc" == "abc"', 'bool true'],
    ['"abc" == "ABC"', 'bool false'],
    ['"a" != "b"', 'bool true'],
    ["'a' == 'a'", 'bool true'],
    ["'a' < 'b'", 'bool true'],
    ["'a' == 97", 'bool true'],
    ['double.NaN == double.NaN', 'bool false'],
    ['double.NaN != double.NaN', 'bool true'],
    ['double.NaN < 1', 'bool false'],
    ['true == !false', 'bool true'],
    ['[Row#] % 2 == 0', 'bool false'],
    ['[Orders.OrderID] == 10248', 'bool true'],
    ['[Value] < 0', 'bool true'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });
});

describe('casts', () => {
  it.each([
    ['(int)3.99', 'int 3'],
    ['(int)-3.99', 'int -3'],
    ['(int)3.5m', 'int 3'],
    ['(int)1e20', 'int 2147483647'],
    ['(int)double.NaN', 'int 0'],
    ['(long)1e10', 'long 10000000000'],
    ['(int)5000000000L', 'int 705032704'],
    ['(decimal)0.1', 'decimal 0.1'],
    ['(decimal)(1.0 / 3)', 'decimal 0.333333333333333'],
    ['(decimal)0.1f', 'decimal 0.1'],
    ['(decimal)[Sub-Total]', 'decimal 440.00'],
    ['(double)1 / 2', 'double 0.5'],
    ['(double)(1 / 2)', 'double 0'],
    ['(float)0.1', 'float 0.10000000149011612'],
    ['(byte)300', 'int 44'],
    ['(sbyte)200', 'int -56'],
    ['(short)70000', 'int 4464'],
    ['(ushort)-1', 'int 65535'],
    ['(uint)-1', 'long 4294967295'],
    ['(char)65', 'char A'],
    ["(int)'A'", 'int 65'],
    ['(string)null', 'null'],
    ['(string)"x"', 'string x'],
    ['(int?)null', 'null'],
    ['(decimal?)[NullDec]', 'decimal 0'],
    ['(object)5', 'int 5'],
    ['(System.Int32)2.5', 'int 2'],
    ['(Int32)2.5', 'int 2'],
    ['(Decimal)2.5', 'decimal 2.5'],
    ['(DateTime)"2020-01-02"', 'DateTime 2020-01-02T00:00:00'],
    ['(System.DateTime)[Orders.OrderDate]', 'DateTime 1996-07-04T00:00:00'],
    ['(int)-5', 'int -5'],
    ['(double)[I] / 2', 'double 3.5'],
    ['(int)[Orders.OrderDate].DayOfWeek', 'int 4'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });

  it.each([
    ['(int)null', /null cannot be converted to Int32/],
    ['(int)7.9e28m', /too large or too small/],
    ['(decimal)1e30', /too large or too small/],
    ['(int)"5"', /cannot convert a string to Int32/],
    ['(DateTime)5', /cannot convert a int to DateTime/],
  ])('%s fails: %s', (src, message) => {
    expect(errorOf(src)).toMatch(message);
  });
});

describe('System.Convert, Parse and numeric statics', () => {
  it.each([
    ['Convert.ToInt32(2.5)', 'int 2'],
    ['Convert.ToInt32(3.5)', 'int 4'],
    ['Convert.ToInt32(-2.5)', 'int -2'],
    ['Convert.ToInt32(2.5m)', 'int 2'],
    ['Convert.ToInt32("42")', 'int 42'],
    ['Convert.ToInt32(" -7 ")', 'int -7'],
    ['Convert.ToInt32(null)', 'int 0'],
    ['Convert.ToInt32(true)', 'int 1'],
    ["Convert.ToInt32('A')", 'int 65'],
    ['Convert.ToInt64("9223372036854775807")', 'long 9223372036854775807'],
    ['Convert.ToInt16(1000)', 'int 1000'],
    ['Convert.ToDecimal("1,234.50")', 'decimal 1234.50'],
    ['Convert.ToDecimal(0.1)', 'decimal 0.1'],
    ['Convert.ToDecimal(7)', 'decimal 7'],
    ['Convert.ToDouble("1.5e3")', 'double 1500'],
    ['Convert.ToDouble("1,234.5")', 'double 1234.5'],
    ['Convert.ToDouble(2.5m)', 'double 2.5'],
    ['Convert.ToSingle(1)', 'float 1'],
    ['Convert.ToBoolean("TRUE")', 'bool true'],
    ['Convert.ToBoolean(" false ")', 'bool false'],
    ['Convert.ToBoolean(0)', 'bool false'],
    ['Convert.ToBoolean(0.5)', 'bool true'],
    ['Convert.ToString(1.5)', 'string 1.5'],
    ['Convert.ToString(null)', 'string '],
    ['Convert.ToString(true)', 'string True'],
    ['Convert.ToString(255, 16)', 'string ff'],
    ['Convert.ToString(5, 2)', 'string 101'],
    ['Convert.ToDateTime("7/4/1996")', 'DateTime 1996-07-04T00:00:00'],
    ['Convert.ToDateTime("7/4/1996 1:30 PM")', 'DateTime 1996-07-04T13:30:00'],
    ['Convert.ToDateTime("July 4, 1996")', 'DateTime 1996-07-04T00:00:00'],
    ['Convert.ToDateTime("4 Jul 1996")', 'DateTime 1996-07-04T00:00:00'],
    ['Convert.ToDateTime(null)', 'DateTime 0001-01-01T00:00:00'],
    ['Convert.ToChar(65)', 'char A'],
    ['Convert.ToChar("z")', 'char z'],
    ['Convert.ToByte(255)', 'int 255'],
    ['int.Parse("12")', 'int 12'],
    ['Int32.Parse("-12")', 'int -12'],
    ['long.Parse("5000000000")', 'long 5000000000'],
    ['double.Parse("1,234.5")', 'double 1234.5'],
    ['decimal.Parse("12.50")', 'decimal 12.50'],
    ['bool.Parse("True")', 'bool true'],
    ['Int32.MaxValue', 'int 2147483647'],
    ['long.MinValue', 'long -9223372036854775808'],
    ['decimal.MaxValue', 'decimal 79228162514264337593543950335'],
    ['double.IsNaN(0.0 / 0)', 'bool true'],
    ['Math.PI', 'double 3.141592653589793'],
    ['Math.E', 'double 2.718281828459045'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });

  it.each([
    ['Convert.ToInt32("4.5")', /correct format/],
    ['Convert.ToInt32("abc")', /correct format/],
    ['Convert.ToInt32(3000000000L)', /too large or too small for Int32/],
    ['Convert.ToByte(256)', /too large or too small for Byte/],
    ['Convert.ToBoolean("yes")', /valid Boolean/],
    ['Convert.ToDateTime("not a date")', /valid DateTime/],
    ['Convert.ToDouble([Orders.OrderDate])', /Invalid cast from 'DateTime' to 'Double'/],
    ['Convert.ToChar("ab")', /exactly one character/],
    ['int.Parse("1,000")', /correct format/],
  ])('%s fails: %s', (src, message) => {
    expect(errorOf(src)).toMatch(message);
  });
});

describe('Math', () => {
  it.each([
    ['Math.Round(2.5)', 'double 2'],
    ['Math.Round(3.5)', 'double 4'],
    ['Math.Round(-2.5)', 'double -2'],
    ['Math.Round(2.5, MidpointRounding.AwayFromZero)', 'double 3'],
    ['Math.Round(-2.5, MidpointRounding.AwayFromZero)', 'double -3'],
    ['Math.Round(1.2345, 2)', 'double 1.23'],
    ['Math.Round(2.345m, 2)', 'decimal 2.34'],
    ['Math.Round(2.355m, 2)', 'decimal 2.36'],
    ['Math.Round(1.005m, 2, MidpointRounding.AwayFromZero)', 'decimal 1.01'],
    ['Math.Round(12.5m)', 'decimal 12'],
    ['Math.Round(2.7, 0, MidpointRounding.ToZero)', 'double 2'],
    ['Math.Max(1, 2.5)', 'double 2.5'],
    ['Math.Max(1, 2)', 'int 2'],
    ['Math.Min(3m, 2)', 'decimal 2'],
    ['Math.Max(1, double.NaN)', 'double NaN'],
    ['Math.Abs(-5)', 'int 5'],
    ['Math.Abs(-5.5m)', 'decimal 5.5'],
    ['Math.Abs(-5L)', 'long 5'],
    ['Math.Sign(-3.2)', 'int -1'],
    ['Math.Sign(0m)', 'int 0'],
    ['Math.Pow(2, 10)', 'double 1024'],
    ['Math.Sqrt(16)', 'double 4'],
    ['Math.Floor(-1.5)', 'double -2'],
    ['Math.Ceiling(1.2m)', 'decimal 2'],
    ['Math.Truncate(-1.7)', 'double -1'],
    ['Math.Log(Math.E)', 'double 1'],
    ['Math.Log(8, 2)', 'double 3'],
    ['Math.Log10(1000)', 'double 3'],
    ['Math.Atan2(0, 1)', 'double 0'],
    ['System.Math.Abs(-1)', 'int 1'],
  ])('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });

  it('Math.Abs(int.MinValue) is an overflow', () => {
    expect(errorOf('Math.Abs(int.MinValue)')).toMatch(/minimum value/);
  });
});
