// FastReport's standard functions (StdFunctions.cs and the Math functions it registers), every
// one of them, and formatting through the injected Formatter.
import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../../src/report/expr/functions.js';
import { compileExpression, TemplateError } from '../../../src/report/expr/index.js';
import { errorOf, run, scopeOf, stubFormatter } from './helpers.js';

const CASES: [string, string][] = [
  // Math
  ['Abs(-3)', 'int 3'],
  ['Abs(-2.5)', 'double 2.5'],
  ['Abs(-2.5m)', 'decimal 2.5'],
  ['Acos(1)', 'double 0'],
  ['Asin(0)', 'double 0'],
  ['Atan(0)', 'double 0'],
  ['Ceiling(1.1)', 'double 2'],
  ['Ceiling(1.1m)', 'decimal 2'],
  ['Cos(0)', 'double 1'],
  ['Exp(0)', 'double 1'],
  ['Floor(1.9)', 'double 1'],
  ['Floor(-1.1m)', 'decimal -2'],
  ['Log(1)', 'double 0'],
  ['Log(100, 10)', 'double 2'],
  ['Maximum(3, 7)', 'int 7'],
  ['Maximum(2.5, 1)', 'double 2.5'],
  ['Maximum(5L, 7)', 'long 7'],
  ['Minimum(3m, 7)', 'decimal 3'],
  ['Minimum(-1, -2)', 'int -2'],
  ['Round(2.5)', 'double 2'],
  ['Round(1.2345m, 2)', 'decimal 1.23'],
  ['Round(1.2355, 3)', 'double 1.236'],
  ['Sin(0)', 'double 0'],
  ['Sqrt(2.25)', 'double 1.5'],
  ['Tan(0)', 'double 0'],
  ['Truncate(-2.7)', 'double -2'],
  ['Truncate(2.7m)', 'decimal 2'],
  // Text
  ["Asc('A')", 'int 65'],
  ['Chr(66)', 'char B'],
  ['Insert("abc", 1, "-")', 'string a-bc'],
  ['Length("abc")', 'int 3'],
  ['LowerCase("ABC")', 'string abc'],
  ['PadLeft("7", 3)', 'string   7'],
  ['PadLeft("7", 3, \'0\')', 'string 007'],
  ['PadRight("7", 3, \'.\')', 'string 7..'],
  ['PadRight("7", 2)', 'string 7 '],
  ['Remove("abcdef", 3)', 'string abc'],
  ['Remove("abcdef", 1, 2)', 'string adef'],
  ['Replace("a-b-c", "-", "+")', 'string a+b+c'],
  ['Substring("abcdef", 2)', 'string cdef'],
  ['Substring("abcdef", 2, 2)', 'string cd'],
  ['TitleCase("hello wORLD of IBM")', 'string Hello World Of IBM'],
  ['TitleCase("o\'neil\'s café")', "string O'neil's Café"],
  ['Trim("  a b  ")', 'string a b'],
  ['UpperCase("abc")', 'string ABC'],
  // Date & time
  ['AddDays([Orders.OrderDate], 1)', 'DateTime 1996-07-05T00:00:00'],
  ['AddHours([Orders.OrderDate], 2)', 'DateTime 1996-07-04T02:00:00'],
  ['AddMinutes([Orders.OrderDate], 30)', 'DateTime 1996-07-04T00:30:00'],
  ['AddSeconds([Orders.OrderDate], 59)', 'DateTime 1996-07-04T00:00:59'],
  ['AddMonths([Orders.OrderDate], 1)', 'DateTime 1996-08-04T00:00:00'],
  ['AddYears([Orders.OrderDate], -1)', 'DateTime 1995-07-04T00:00:00'],
  ['DateDiff(new DateTime(2020, 1, 2), new DateTime(2020, 1, 1))', 'TimeSpan 1.00:00:00'],
  ['DateDiff(new DateTime(2020, 1, 2), new DateTime(2020, 1, 1)).Days', 'int 1'],
  ['DateSerial(2020, 2, 29)', 'DateTime 2020-02-29T00:00:00'],
  ['Day([Orders.OrderDate])', 'int 4'],
  ['DayOfWeek([Orders.OrderDate])', 'string Thursday'],
  ['DayOfYear([Orders.OrderDate])', 'int 186'],
  ['DaysInMonth(2023, 2)', 'int 28'],
  ['Hour(new DateTime(2020, 1, 1, 13, 14, 15))', 'int 13'],
  ['Minute(new DateTime(2020, 1, 1, 13, 14, 15))', 'int 14'],
  ['Month([Orders.OrderDate])', 'int 7'],
  ['MonthName(12)', 'string December'],
  ['Second(new DateTime(2020, 1, 1, 13, 14, 15))', 'int 15'],
  ['WeekOfYear(new DateTime(2024, 1, 6))', 'int 1'],
  ['WeekOfYear(new DateTime(2024, 1, 7))', 'int 2'],
  ['WeekOfYear(new DateTime(2024, 12, 31))', 'int 53'],
  ['Year([Orders.OrderDate])', 'int 1996'],
  // Formatting (the en-US Formatter of src/report/format/, the default when a scope brings none)
  ['Format("{0} of {1}", [Page], [TotalPages])', 'string 2 of 5'],
  ['Format("{0:N1}", 2.25m)', 'string 2.3'],
  ['FormatCurrency(1234.5)', 'string $1,234.50'],
  // A double exactly halfway rounds to even in standard formats (.NET Core 2.1+, "Standard numeric format
  // strings" on learn.microsoft.com); a decimal rounds half away from zero.
  ['FormatCurrency(1234.5, 0)', 'string $1,234'],
  ['FormatCurrency(1234.5m, 0)', 'string $1,235'],
  ['FormatCurrency(-5m)', 'string -$5.00'],
  ['FormatNumber(1234.567)', 'string 1,234.57'],
  ['FormatNumber(1234.567, 1)', 'string 1,234.6'],
  ['FormatPercent(0.256)', 'string 25.60%'],
  ['FormatPercent(0.256, 0)', 'string 26%'],
  ['FormatDateTime([Orders.OrderDate])', 'string 7/4/1996'],
  ['FormatDateTime(new DateTime(1996, 7, 4, 13, 5, 0))', 'string 7/4/1996 1:05:00 PM'],
  ['FormatDateTime(new DateTime(1, 1, 1, 13, 5, 0))', 'string 1:05:00 PM'],
  ['FormatDateTime([Orders.OrderDate], "Long Date")', 'string Thursday, July 4, 1996'],
  ['FormatDateTime([Orders.OrderDate], "Short Date")', 'string 7/4/1996'],
  ['FormatDateTime(new DateTime(1996, 7, 4, 13, 5, 0), "Long Time")', 'string 1:05:00 PM'],
  ['FormatDateTime(new DateTime(1996, 7, 4, 13, 5, 0), "Short Time")', 'string 13:05'],
  ['FormatDateTime([Orders.OrderDate], "yyyy")', 'string 1996'],
  // Conversion
  ['ToBoolean("true")', 'bool true'],
  ['ToByte(255)', 'int 255'],
  ['ToChar(97)', 'char a'],
  ['ToDateTime("1996-07-04")', 'DateTime 1996-07-04T00:00:00'],
  ['ToDecimal("1.50")', 'decimal 1.50'],
  ['ToDouble("2.5")', 'double 2.5'],
  ['ToInt32(2.5)', 'int 2'],
  ['ToInt32(3.5)', 'int 4'],
  ['ToRoman(1994)', 'string MCMXCIV'],
  ['ToRoman(3998)', 'string MMMCMXCVIII'],
  ['ToRoman(4)', 'string IV'],
  ['ToRoman(0)', 'string '],
  ['ToRoman("49")', 'string XLIX'],
  ['ToSingle(1.5)', 'float 1.5'],
  ['ToString(12)', 'string 12'],
  ['ToWords(123.45)', 'string One hundred and twenty-three dollars and 45 cents'],
  ['ToWords(1)', 'string One dollar and 00 cents'],
  ['ToWords(0)', 'string Zero dollars and 00 cents'],
  ['ToWords(15)', 'string Fifteen dollars and 00 cents'],
  ['ToWords(115)', 'string One hundred and fifteen dollars and 00 cents'],
  ['ToWords(1000)', 'string One thousand dollars and 00 cents'],
  ['ToWords(2005000)', 'string Two million and five thousand dollars and 00 cents'],
  [
    'ToWords(1234567.89)',
    'string One million two hundred and thirty-four thousand five hundred and sixty-seven dollars and 89 cents',
  ],
  ['ToWords(99.999)', 'string One hundred dollars and 00 cents'],
  ['ToWords(-5.5)', 'string Minus five dollars and 50 cents'],
  ['ToWords(12.5, "EUR")', 'string Twelve euros and 50 cents'],
  ['ToWords(1.01, "gbp")', 'string One pound and 01 penny'],
  ['ToWords(3, "page", "pages")', 'string Three pages '],
  ['ToWords([Sub-Total])', 'string Four hundred and forty dollars and 00 cents'],
  // Program flow
  ['Choose(2, "a", "b", "c")', 'string b'],
  ['Choose(4, "a", "b")', 'null'],
  ['Choose(0, "a")', 'null'],
  ['Choose(1.9, "a", "b")', 'string a'],
  ['IIf(1 > 2, "yes", "no")', 'string no'],
  ['IIf(true, 1, 1 / 0)', 'int 1'],
  ['IIf([Value] < 0, -[Value], [Value])', 'int 5'],
  ['Switch(false, "a", true, "b")', 'string b'],
  ['Switch(false, "a")', 'null'],
  ['Switch("True", 1)', 'int 1'],
  ['Switch([Page] == 1, "first", [Page] == [TotalPages], "last", true, "middle")', 'string middle'],
  ['IsNull("Orders.ShippedDate")', 'bool true'],
  ['IsNull("Orders.OrderDate")', 'bool false'],
];

describe('standard functions', () => {
  it.each(CASES)('%s → %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });

  it('covers every standard function', () => {
    const used = new Set(CASES.map(([src]) => /^(\w+)\(/.exec(src)?.[1]));
    const missing = [...FUNCTIONS.keys()].filter((name) => !used.has(name));
    expect(missing).toEqual([]);
  });

  it.each([
    ['ToRoman(3999)', /at most 3998/],
    ['ToWords(21, "JPY")', /Currency "JPY" is not defined/],
    ['Substring("abc", 5)', /startIndex/],
    ['DateSerial(2021, 2, 29)', /un-representable/],
    ['MonthName(13)', /un-representable/],
    ['Maximum("a", 1)', /needs numbers/],
    ['Asc(65)', /must be a char/],
    ['Day("1996-07-04")', /must be a DateTime/],
    ['IIf(1, 2, 3)', /to 'bool'/],
  ])('%s fails: %s', (src, message) => {
    expect(errorOf(src)).toMatch(message);
  });

  it.each([
    ['NoSuchFunction(1)', /unknown function 'NoSuchFunction'/],
    ['IIf(true, 1)', /no overload of 'IIf' takes 2 arguments/],
    ['Substring("a")', /no overload of 'Substring' takes 1 argument/],
    ['Math.NoSuch(1)', /'Math' has no method 'NoSuch'/],
    ['Math.Nope', /'Math' has no member 'Nope'/],
    ['IfNull([X], 0)', /unknown function 'IfNull'/],
    ['iif(true, 1, 2)', /unknown function 'iif'/],
  ])('%s is a compile error: %s', (src, message) => {
    expect(() => compileExpression(src)).toThrow(message);
  });
});

describe('formatting goes through the injected Formatter', () => {
  const cases: [string, string, [unknown, string, string | undefined][]][] = [
    ['[M].ToString("N2")', '<N2|7.50|Decimal>', [[expect.anything(), 'N2', 'System.Decimal']]],
    ['1.5.ToString("F1")', '<F1|1.5|Double>', [[1.5, 'F1', 'System.Double']]],
    ['(1).ToString("D3")', '<D3|1|Int32>', [[1, 'D3', 'System.Int32']]],
    ['5000000000L.ToString("N0")', '<N0|5000000000|Int64>', [[5000000000n, 'N0', 'System.Int64']]],
    ['((decimal)[Sub-Total]).ToString("N2")', '<N2|440.00|Decimal>', [[expect.anything(), 'N2', 'System.Decimal']]],
    [
      '[Orders.OrderDate].ToString("dd.MM.yyyy")',
      '<dd.MM.yyyy|1996-07-04T00:00:00|DateTime>',
      [[expect.any(Date), 'dd.MM.yyyy', 'System.DateTime']],
    ],
    [
      '[Orders.OrderDate].ToShortDateString()',
      '<d|1996-07-04T00:00:00|DateTime>',
      [[expect.any(Date), 'd', 'System.DateTime']],
    ],
    [
      'String.Format("{0:C}|{1}", 5m, 2)',
      '<C|5|Decimal>|<|2|Int32>',
      [
        [expect.anything(), 'C', 'System.Decimal'],
        [2, '', 'System.Int32'],
      ],
    ],
    ['"x" + 1.5', 'x<|1.5|Double>', [[1.5, '', 'System.Double']]],
    ['"x" + "y" + true', 'xyTrue', []],
    ['FormatNumber(1, 3)', '<N3|1|Int32>', [[1, 'N3', 'System.Int32']]],
    ['FormatCurrency(2.5)', '<C|2.5|Double>', [[2.5, 'C', 'System.Double']]],
    ['FormatPercent(0.5m)', '<P|0.5|Decimal>', [[expect.anything(), 'P', 'System.Decimal']]],
    ['MonthName(1)', '<MMMM|2000-01-01T00:00:00|DateTime>', [[expect.any(Date), 'MMMM', 'System.DateTime']]],
    [
      'DayOfWeek([Orders.OrderDate])',
      '<dddd|1996-07-04T00:00:00|DateTime>',
      [[expect.any(Date), 'dddd', 'System.DateTime']],
    ],
    ['Convert.ToString(2.5m)', '<|2.5|Decimal>', [[expect.anything(), '', 'System.Decimal']]],
    ['[Orders.OrderDate].DayOfWeek.ToString()', 'Thursday', []],
  ];
  it.each(cases)('%s → %s', (src, expected, calls) => {
    const formatter = stubFormatter();
    expect(compileExpression(src).evaluate(scopeOf(undefined, { formatter }))).toBe(expected);
    expect(formatter.calls).toEqual(calls);
  });

  it('a formatter that throws becomes a TemplateError naming the expression', () => {
    const formatter = {
      format() {
        throw new RangeError('bad format');
      },
    };
    const c = compileExpression('[I].ToString("Q")', { where: 'Text1.Text' });
    let err: unknown;
    try {
      c.evaluate(scopeOf(undefined, { formatter }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TemplateError);
    expect((err as Error).message).toMatch(
      /^Text1\.Text: expression "\[I\]\.ToString\(\\"Q\\"\)": cannot format a int with "Q": bad format$/,
    );
  });

  it('a formatter that returns no text is an error', () => {
    const formatter = { format: () => 5 as unknown as string };
    expect(() => compileExpression('"" + 1.5').evaluate(scopeOf(undefined, { formatter }))).toThrow(TemplateError);
  });
});
