// TimeSpan format strings. Expected values from
//   [STS] https://learn.microsoft.com/dotnet/standard/base-types/standard-timespan-format-strings
//   [CTS] https://learn.microsoft.com/dotnet/standard/base-types/custom-timespan-format-strings
import { describe, expect, it } from 'vitest';
import {
  DE_DE,
  EN_US,
  FormatError,
  Formatter,
  formatComposite,
  formatTimeSpan,
  isTimeSpanLike,
} from '../../../src/report/format/index.js';

/** new TimeSpan(days, hours, minutes, seconds, milliseconds) */
const ts = (d: number, h: number, m: number, s: number, ms = 0) => ({
  ticks: BigInt(((d * 24 + h) * 60 + m) * 60 + s) * 10_000_000n + BigInt(ms) * 10_000n,
});
const neg = (t: { ticks: bigint }) => ({ ticks: -t.ticks });

describe('standard TimeSpan formats [STS]', () => {
  it('"c" (also "t", "T" and no format)', () => {
    expect(formatTimeSpan(ts(0, 0, 0, 0), 'c')).toBe('00:00:00');
    expect(formatTimeSpan(ts(0, 0, 30, 0), 'c')).toBe('00:30:00');
    expect(formatTimeSpan(ts(3, 17, 25, 30, 500), 'c')).toBe('3.17:25:30.5000000');
    expect(formatTimeSpan(ts(1, 12, 23, 62), 'c')).toBe('1.12:24:02');
    expect(formatTimeSpan(ts(1, 12, 23, 62), 't')).toBe('1.12:24:02');
    expect(formatTimeSpan(ts(1, 12, 23, 62), 'T')).toBe('1.12:24:02');
    expect(formatTimeSpan(ts(1, 12, 23, 62))).toBe('1.12:24:02');
    expect(formatTimeSpan(neg(ts(0, 1, 0, 0)), 'c')).toBe('-01:00:00');
    expect(formatTimeSpan(ts(3, 17, 25, 30, 500), 'c', DE_DE)).toBe('3.17:25:30.5000000'); // invariant
  });

  it('"g" and "G" use the culture decimal separator', () => {
    expect(formatTimeSpan(ts(1, 3, 16, 50, 500), 'g', EN_US)).toBe('1:3:16:50.5');
    expect(formatTimeSpan(ts(1, 3, 16, 50, 500), 'g', DE_DE)).toBe('1:3:16:50,5'); // docs: fr-FR
    expect(formatTimeSpan(ts(1, 3, 16, 50, 599), 'g', EN_US)).toBe('1:3:16:50.599');
    expect(formatTimeSpan(ts(0, 3, 16, 50), 'g')).toBe('3:16:50');
    expect(formatTimeSpan(ts(0, 18, 30, 0), 'G', EN_US)).toBe('0:18:30:00.0000000');
    expect(formatTimeSpan(ts(0, 18, 30, 0), 'G', DE_DE)).toBe('0:18:30:00,0000000');
    expect(formatTimeSpan(neg(ts(0, 18, 30, 0)), 'G')).toBe('-0:18:30:00.0000000');
  });

  it('other single letters are FormatErrors', () => {
    for (const f of ['d', 'h', 'x', 'F']) expect(() => formatTimeSpan(ts(0, 1, 0, 0), f)).toThrow(FormatError);
  });
});

describe('custom TimeSpan formats [CTS]', () => {
  const t = ts(6, 14, 32, 17, 685);
  it('components, escapes and literals; no sign', () => {
    expect(formatTimeSpan(t, 'dd\\.hh\\:mm\\:ss')).toBe('06.14:32:17');
    expect(formatTimeSpan(t, '%d')).toBe('6');
    expect(formatTimeSpan(t, 'dddddddd')).toBe('00000006');
    expect(formatTimeSpan(t, "hh':'mm")).toBe('14:32');
    expect(formatTimeSpan(t, '%h')).toBe('14');
    expect(formatTimeSpan(ts(0, 8, 5, 3), 'h\\:m\\:s')).toBe('8:5:3');
    expect(formatTimeSpan(t, 'ss\\.fff')).toBe('17.685');
    expect(formatTimeSpan(t, 'ss\\.ff')).toBe('17.68'); // truncated
    expect(formatTimeSpan(t, 'ss\\.FFFFFFF')).toBe('17.685');
    // Table examples: the point before an empty F stays (unlike date formats).
    expect(formatTimeSpan(t, 'd\\.hh\\:mm')).toBe('6.14:32');
    expect(formatTimeSpan(t, 'ddd')).toBe('006');
    expect(formatTimeSpan(ts(6, 8, 5, 17, 685), 'd\\.hh\\:mm\\:ss')).toBe('6.08:05:17');
    expect(formatTimeSpan(ts(0, 0, 0, 12, 965), '%s')).toBe('12');
    expect(formatTimeSpan(ts(0, 0, 0, 12, 965), 's\\.fff')).toBe('12.965');
    expect(formatTimeSpan(ts(0, 0, 0, 6, 895), '%f')).toBe('8');
    expect(formatTimeSpan(ts(0, 0, 0, 6, 895), 'ss\\.ff')).toBe('06.89');
    expect(formatTimeSpan(ts(0, 0, 0, 3, 91), 'ss\\.F')).toBe('03.');
    expect(formatTimeSpan(ts(0, 0, 0, 3, 101), 'ss\\.FF')).toBe('03.1');
    expect(formatTimeSpan(ts(0, 14, 32, 17), "hh':'mm':'ss")).toBe('14:32:17');
    expect(formatTimeSpan(neg(t), 'hh\\:mm')).toBe('14:32');
    expect(formatTimeSpan(neg(t), '\\-hh\\:mm')).toBe('-14:32');
    expect(formatTimeSpan(t, "d' days'")).toBe('6 days');
  });

  it('any unescaped literal, or too many repeats, is a FormatError', () => {
    for (const f of ['hh:mm', 'dd.hh', 'hhh', 'mmm', 'sss', 'fffffffff', 'ddddddddd', "'open", 'hh\\', '%%', 'h%']) {
      expect(() => formatTimeSpan(t, f), f).toThrow(FormatError);
    }
  });
});

describe('through formatValue and composite formatting', () => {
  it('recognises any value with bigint ticks', () => {
    expect(isTimeSpanLike(ts(0, 1, 0, 0))).toBe(true);
    expect(isTimeSpanLike({ ticks: 5 })).toBe(false);
    expect(Formatter.format(ts(0, 1, 30, 0), '')).toBe('01:30:00');
    expect(formatComposite('Took {0:g}', [ts(0, 0, 1, 5, 250)])).toBe('Took 0:01:05.25');
  });
});
