// Date and time format strings. Expected values from
//   [SDT] https://learn.microsoft.com/dotnet/standard/base-types/standard-date-and-time-format-strings
//   [CDT] https://learn.microsoft.com/dotnet/standard/base-types/custom-date-and-time-format-strings
//         (table of examples and its snippets Formatting.DateAndTime.Custom/cs/Custom1.cs)
// The docs' machine is in U.S. Pacific time (-07:00 in June); where an example depends on that
// local zone (U, and R/u with a DateTime) this engine's rule applies instead: a Date is a clock
// reading with no zone, and the engine's local zone is UTC (see src/report/format/date.ts).
import { describe, expect, it } from 'vitest';
import {
  DE_DE,
  EN_US,
  FormatError,
  INVARIANT,
  dateTimeMinValue,
  dateTimeOffset,
  formatComposite,
  formatDate,
  type DateValue,
} from '../../../src/report/format/index.js';

/** A clock reading as the data layer hands it over: the UTC fields hold it. */
function at(year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, m, s, ms);
  return d;
}
const en = (v: DateValue, f: string) => formatDate(v, f, EN_US);
const de = (v: DateValue, f: string) => formatDate(v, f, DE_DE);
const inv = (v: DateValue, f: string) => formatDate(v, f, INVARIANT);

const june15 = at(2009, 6, 15, 13, 45, 30);
const june15Pacific = dateTimeOffset(june15, -7 * 60);

describe('standard formats [SDT]', () => {
  it('en-US', () => {
    expect(en(june15, 'd')).toBe('6/15/2009');
    expect(en(june15, 'D')).toBe('Monday, June 15, 2009');
    expect(en(june15, 'f')).toBe('Monday, June 15, 2009 1:45 PM');
    expect(en(june15, 'F')).toBe('Monday, June 15, 2009 1:45:30 PM');
    expect(en(june15, 'g')).toBe('6/15/2009 1:45 PM');
    expect(en(june15, 'G')).toBe('6/15/2009 1:45:30 PM');
    expect(en(june15, 'M')).toBe('June 15');
    expect(en(june15, 'm')).toBe('June 15');
    expect(en(june15, 's')).toBe('2009-06-15T13:45:30');
    expect(en(june15, 't')).toBe('1:45 PM');
    expect(en(june15, 'T')).toBe('1:45:30 PM');
    expect(en(june15, 'Y')).toBe('June 2009');
    expect(en(june15, 'y')).toBe('June 2009');
  });

  it('de-DE', () => {
    expect(de(june15, 'd')).toBe('15.06.2009');
    expect(de(june15, 'D')).toBe('Montag, 15. Juni 2009'); // the docs' de-DE example
    expect(de(june15, 'f')).toBe('Montag, 15. Juni 2009 13:45');
    expect(de(june15, 'F')).toBe('Montag, 15. Juni 2009 13:45:30');
    expect(de(june15, 'g')).toBe('15.06.2009 13:45');
    expect(de(june15, 'G')).toBe('15.06.2009 13:45:30');
    expect(de(june15, 'M')).toBe('15. Juni');
    expect(de(june15, 't')).toBe('13:45');
    expect(de(june15, 'T')).toBe('13:45:30');
    expect(de(june15, 'Y')).toBe('Juni 2009');
    expect(de(june15, 's')).toBe('2009-06-15T13:45:30'); // invariant whatever the culture
  });

  it('invariant culture patterns', () => {
    expect(inv(june15, 'd')).toBe('06/15/2009');
    expect(inv(june15, 'D')).toBe('Monday, 15 June 2009');
    expect(inv(june15, 't')).toBe('13:45');
    expect(inv(june15, 'M')).toBe('June 15');
    expect(inv(june15, 'Y')).toBe('2009 June');
  });

  it('O: DateTime (Kind Unspecified) and DateTimeOffset', () => {
    expect(en(june15, 'O')).toBe('2009-06-15T13:45:30.0000000');
    expect(en(june15Pacific, 'o')).toBe('2009-06-15T13:45:30.0000000-07:00');
    expect(de(at(2009, 6, 15, 13, 45, 30, 617), 'o')).toBe('2009-06-15T13:45:30.6170000');
  });

  it('R and u convert a DateTimeOffset to UTC; a DateTime is printed as it is', () => {
    expect(en(june15Pacific, 'R')).toBe('Mon, 15 Jun 2009 20:45:30 GMT');
    expect(de(june15Pacific, 'r')).toBe('Mon, 15 Jun 2009 20:45:30 GMT'); // always invariant
    expect(en(june15Pacific, 'u')).toBe('2009-06-15 20:45:30Z');
    expect(en(june15, 'u')).toBe('2009-06-15 13:45:30Z');
    expect(en(june15, 'R')).toBe('Mon, 15 Jun 2009 13:45:30 GMT');
  });

  it('U converts to UTC (a no-op in the engine) and is refused for a DateTimeOffset', () => {
    expect(en(june15, 'U')).toBe('Monday, June 15, 2009 1:45:30 PM');
    expect(de(june15, 'U')).toBe('Montag, 15. Juni 2009 13:45:30');
    expect(() => en(june15Pacific, 'U')).toThrow(FormatError);
  });

  it('no format: G, and for a DateTimeOffset G plus the offset', () => {
    expect(en(june15, '')).toBe('6/15/2009 1:45:30 PM');
    expect(formatDate(june15)).toBe('6/15/2009 1:45:30 PM');
    expect(en(june15Pacific, '')).toBe('6/15/2009 1:45:30 PM -07:00');
  });

  it('any other single character is a FormatError', () => {
    for (const f of ['h', 'H', 'K', 'z', 'x', 'a', ':', '/', '%', '\\', 'e']) {
      expect(() => en(june15, f)).toThrow(FormatError);
    }
  });
});

describe('custom specifiers [CDT]', () => {
  it('d, dd, ddd, dddd', () => {
    expect(en(at(2009, 6, 1, 13, 45, 30), '%d')).toBe('1');
    expect(en(at(2009, 6, 15, 13, 45, 30), '%d')).toBe('15');
    expect(en(at(2009, 6, 1, 13, 45, 30), 'dd')).toBe('01');
    expect(en(june15, 'ddd')).toBe('Mon');
    expect(en(june15, 'dddd')).toBe('Monday');
    expect(en(june15, 'ddddd')).toBe('Monday');
    expect(de(june15, 'ddd dddd')).toBe('Mo. Montag');
    const aug29 = at(2008, 8, 29, 19, 27, 15);
    expect(inv(aug29, 'd, M')).toBe('29, 8');
    expect(en(aug29, 'd MMMM')).toBe('29 August');
    expect(inv(at(2008, 1, 2, 6, 30, 15), 'dd, MM')).toBe('02, 01');
    expect(en(aug29, 'ddd d MMM')).toBe('Fri 29 Aug');
    expect(en(aug29, 'dddd dd MMMM')).toBe('Friday 29 August');
  });

  it('f… and F… (fractions truncate; F drops trailing zeros and a lone point)', () => {
    const t = at(2008, 8, 29, 19, 27, 15, 18);
    expect(inv(t, 'hh:mm:ss.f')).toBe('07:27:15.0');
    expect(inv(t, 'hh:mm:ss.F')).toBe('07:27:15');
    expect(inv(t, 'hh:mm:ss.ff')).toBe('07:27:15.01');
    expect(inv(t, 'hh:mm:ss.FF')).toBe('07:27:15.01');
    expect(inv(t, 'hh:mm:ss.fff')).toBe('07:27:15.018');
    expect(inv(t, 'hh:mm:ss.FFF')).toBe('07:27:15.018');
    const ms617 = at(2009, 6, 15, 13, 45, 30, 617);
    expect(en(ms617, '%f')).toBe('6');
    expect(en(ms617, 'ff')).toBe('61');
    expect(en(ms617, 'fff')).toBe('617');
    expect(en(ms617, 'ffff')).toBe('6170');
    expect(en(ms617, 'fffff')).toBe('61700');
    expect(en(ms617, 'ffffff')).toBe('617000');
    expect(en(ms617, 'fffffff')).toBe('6170000');
    expect(en(ms617, '%F')).toBe('6');
    expect(en(ms617, 'FF')).toBe('61');
    expect(en(ms617, 'FFF')).toBe('617');
    expect(en(ms617, 'FFFFFFF')).toBe('617');
    expect(en(at(2009, 6, 15, 13, 45, 30, 50), '%f')).toBe('0');
    expect(en(at(2009, 6, 15, 13, 45, 30, 50), '%F')).toBe('');
    expect(en(at(2009, 6, 15, 13, 45, 30, 5), 'ff')).toBe('00');
    expect(en(at(2009, 6, 15, 13, 45, 30, 5), 'FF')).toBe('');
    expect(en(at(2009, 6, 15, 13, 45, 30, 527), 'FFFF')).toBe('527');
    expect(() => en(ms617, 'ffffffff')).toThrow(FormatError);
    expect(() => en(ms617, 'FFFFFFFF')).toThrow(FormatError);
  });

  it('g, gg', () => {
    expect(en(june15, 'gg')).toBe('A.D.');
    expect(inv(at(70, 8, 4), 'MM/dd/yyyy g')).toBe('08/04/0070 A.D.');
    expect(de(june15, 'yyyy gg')).toBe('2009 n. Chr.');
  });

  it('h, hh, H, HH', () => {
    expect(en(at(2009, 6, 15, 1, 45, 30), '%h')).toBe('1');
    expect(en(at(2009, 6, 15, 13, 45, 30), '%h')).toBe('1');
    expect(en(at(2009, 6, 15, 1, 45, 30), 'hh')).toBe('01');
    expect(en(at(2009, 6, 15, 13, 45, 30), 'hh')).toBe('01');
    expect(en(at(2009, 6, 15, 0, 5, 0), 'hh')).toBe('12');
    expect(en(at(2009, 6, 15, 12, 5, 0), '%h')).toBe('12');
    expect(en(at(2009, 6, 15, 1, 45, 30), '%H')).toBe('1');
    expect(en(at(2009, 6, 15, 13, 45, 30), '%H')).toBe('13');
    expect(en(at(2009, 6, 15, 1, 45, 30), 'HH')).toBe('01');
    expect(en(at(2009, 6, 15, 1, 45, 30), 'HHH')).toBe('01'); // at most two digits
    const evening = at(2008, 1, 1, 18, 9, 1);
    expect(inv(evening, 'h:m:s.F t')).toBe('6:9:1 P');
    expect(inv(at(2008, 1, 1, 18, 9, 1, 500), 'h:m:s.F t')).toBe('6:9:1.5 P');
    expect(inv(evening, 'hh:mm:ss tt')).toBe('06:09:01 PM');
    expect(inv(at(2008, 1, 1, 18, 9, 1, 500), 'hh:mm:ss.ff tt')).toBe('06:09:01.50 PM');
    expect(inv(at(2008, 1, 1, 6, 9, 1), 'H:mm:ss')).toBe('6:09:01');
    expect(inv(at(2008, 1, 1, 6, 9, 1), 'HH:mm:ss')).toBe('06:09:01');
  });

  it('K', () => {
    expect(en(june15, '%K')).toBe(''); // Kind Unspecified
    expect(en(dateTimeOffset(at(2008, 5, 1, 6, 30), 5 * 60), '%K')).toBe('+05:00');
    expect(en(dateTimeOffset(june15, 0), '%K')).toBe('+00:00');
    expect(en(june15Pacific, '%K')).toBe('-07:00');
  });

  it('m, mm, M, MM, MMM, MMMM', () => {
    expect(en(at(2009, 6, 15, 1, 9, 30), '%m')).toBe('9');
    expect(en(at(2009, 6, 15, 13, 29, 30), '%m')).toBe('29');
    expect(en(at(2009, 6, 15, 1, 9, 30), 'mm')).toBe('09');
    expect(en(june15, '%M')).toBe('6');
    expect(en(june15, 'MM')).toBe('06');
    expect(en(june15, 'MMM')).toBe('Jun');
    expect(en(june15, 'MMMM')).toBe('June');
    expect(en(at(2008, 8, 18), '(M) MMM, MMMM')).toBe('(8) Aug, August');
    expect(de(at(2008, 3, 18), 'MMM MMMM')).toBe('März März');
    expect(de(at(2008, 9, 18), 'MMM MMMM')).toBe('Sept. September');
  });

  it('s, ss, t, tt', () => {
    expect(en(at(2009, 6, 15, 13, 45, 9), '%s')).toBe('9');
    expect(en(at(2009, 6, 15, 13, 45, 9), 'ss')).toBe('09');
    expect(en(june15, '%t')).toBe('P');
    expect(en(june15, 'tt')).toBe('PM');
    expect(en(at(2009, 6, 15, 1, 45, 30), 'arr hh:mm t')).toBe('arr 01:45 A');
  });

  it('y … yyyyy', () => {
    const years = [
      at(1, 1, 1),
      at(900, 1, 1),
      at(1900, 1, 1),
      at(2009, 6, 15, 13, 45, 30),
      at(2019, 6, 15, 13, 45, 30),
    ];
    expect(years.map((d) => en(d, '%y'))).toEqual(['1', '0', '0', '9', '19']);
    expect(years.map((d) => en(d, 'yy'))).toEqual(['01', '00', '00', '09', '19']);
    expect(years.map((d) => en(d, 'yyy'))).toEqual(['001', '900', '1900', '2009', '2019']);
    expect(years.map((d) => en(d, 'yyyy'))).toEqual(['0001', '0900', '1900', '2009', '2019']);
    expect(years.map((d) => en(d, 'yyyyy'))).toEqual(['00001', '00900', '01900', '02009', '02019']);
    const dec1 = at(1, 12, 1);
    const y2010 = at(2010, 1, 1);
    expect(['%y', 'yy', 'yyy', 'yyyy', 'yyyyy'].map((f) => en(dec1, f))).toEqual(['1', '01', '001', '0001', '00001']);
    expect(['%y', 'yy', 'yyy', 'yyyy', 'yyyyy'].map((f) => en(y2010, f))).toEqual([
      '10',
      '10',
      '2010',
      '2010',
      '02010',
    ]);
  });

  it('z, zz, zzz', () => {
    expect(en(june15Pacific, '%z')).toBe('-7');
    expect(en(june15Pacific, 'zz')).toBe('-07');
    expect(en(june15Pacific, 'zzz')).toBe('-07:00');
    // A DateTime: .NET Core prints +0, +00, +00:00 for UtcNow; the engine's local zone is UTC.
    expect(formatComposite('{0:%z}, {0:zz}, {0:zzz}', [june15])).toBe('+0, +00, +00:00');
    expect(formatComposite('{0:%z}, {0:zz}, {0:zzz}', [dateTimeOffset(at(2008, 8, 1), 6 * 60)])).toBe(
      '+6, +06, +06:00',
    );
    expect(en(dateTimeOffset(june15, 5 * 60 + 30), 'z zz zzz')).toBe('+5 +05 +05:30');
    expect(en(dateTimeOffset(june15, -(9 * 60 + 30)), 'zzz')).toBe('-09:30');
  });

  it('":" and "/" are the culture separators', () => {
    expect(en(june15, 'HH:mm dd/MM/yyyy')).toBe('13:45 15/06/2009');
    expect(de(june15, 'HH:mm dd/MM/yyyy')).toBe('13:45 15.06.2009');
  });

  it('literals: quotes, %c, \\c, other characters', () => {
    expect(en(june15, '"arr:" h:m t')).toBe('arr: 1:45 P');
    expect(en(june15, "'arr:' h:m t")).toBe('arr: 1:45 P');
    expect(en(june15, '%h')).toBe('1');
    expect(en(june15, 'h \\h')).toBe('1 h');
    expect(en(june15, "'It''s' d")).toBe('Its 15'); // two quoted runs
    expect(en(june15, "'a\\'b' d")).toBe("a'b 15"); // backslash escapes inside quotes
    expect(en(june15, 'yyyy-MM-ddTHH:mm:ss')).toBe('2009-06-15T13:45:30');
    expect(en(june15, 'dd. MMMM yyyy, HH \\U\\h\\r')).toBe('15. June 2009, 13 Uhr');
    expect(en(june15, '%%d'.slice(1))).toBe('15');
  });

  it('malformed custom formats are FormatErrors', () => {
    for (const f of ["'abc", 'dd "x', 'dd\\', '%%', 'd%', "d '\\"]) {
      expect(() => en(june15, f)).toThrow(FormatError);
    }
  });
});

describe('time zones and ranges', () => {
  it('a wall-clock Date shows the date as written in the data; an instant would not', () => {
    // nwind.xml: <OrderDate>2013-08-04T00:00:00+04:00</OrderDate>
    const wallClock = at(2013, 8, 4);
    expect(en(wallClock, 'd')).toBe('8/4/2013');
    expect(en(new Date('2013-08-04T00:00:00+04:00'), 'd')).toBe('8/3/2013'); // the instant, read in UTC
    const withOffset = dateTimeOffset(wallClock, 4 * 60);
    expect(en(withOffset, 'd')).toBe('8/4/2013');
    expect(en(withOffset, 'o')).toBe('2013-08-04T00:00:00.0000000+04:00');
    expect(en(withOffset, 'u')).toBe('2013-08-03 20:00:00Z');
  });

  it("DateTime.MinValue and the edges of .NET's range", () => {
    expect(en(dateTimeMinValue(), 'G')).toBe('1/1/0001 12:00:00 AM');
    expect(en(at(9999, 12, 31, 23, 59, 59, 999), 'o')).toBe('9999-12-31T23:59:59.9990000');
    expect(() => en(at(10000, 1, 1), 'd')).toThrow(FormatError);
    expect(() => en(new Date(Number.NaN), 'd')).toThrow(FormatError);
    expect(() => en(dateTimeOffset(june15, 15 * 60), 'd')).toThrow(FormatError);
  });
});
