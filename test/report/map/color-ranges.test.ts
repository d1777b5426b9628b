// ColorRanges.Fill: colours from the start/middle/end colours and values splitting [min, max].

import { describe, expect, it } from 'vitest';
import { fillRanges, paletteColor, rangeColor } from '../../../src/report/map/color-ranges.js';

const c = (r: number, g: number, b: number) => ({ r, g, b, a: 255 });
const DODGER_BLUE = c(30, 144, 255);
const YELLOW = c(255, 255, 0);
const RED = c(255, 0, 0);
const empty = () => Array.from({ length: 10 }, () => ({ color: null, start: Number.NaN, end: Number.NaN }));

describe('fillRanges', () => {
  const ranges = fillRanges(
    { startColor: DODGER_BLUE, middleColor: YELLOW, endColor: RED, ranges: empty() },
    19,
    104379.95,
  );

  it('puts the start, middle (index 5) and end colours and mixes between them', () => {
    const mix = (a: typeof RED, b: typeof RED, p: number) =>
      c(a.r * (1 - p) + b.r * p, a.g * (1 - p) + b.g * p, a.b * (1 - p) + b.b * p);
    const expected = [
      DODGER_BLUE,
      ...[1, 2, 3, 4].map((i) => mix(DODGER_BLUE, YELLOW, i / 5)),
      YELLOW,
      ...[1, 2, 3].map((i) => mix(YELLOW, RED, i / 4)),
      RED,
    ];
    // Within one unit per channel: .NET mixes in single precision and truncates.
    ranges.forEach((r, i) => {
      const e = expected[i] as typeof RED;
      for (const k of ['r', 'g', 'b'] as const) expect(Math.abs((r.color?.[k] ?? -9) - e[k])).toBeLessThanOrEqual(1);
    });
  });

  it('splits the values evenly, the last end raised by 0.1', () => {
    const step = (104379.95 - 19) / 10;
    ranges.forEach((r, i) => {
      expect(r.start).toBeCloseTo(19 + step * i, 6);
      expect(r.end).toBeCloseTo(19 + step * (i + 1) + (i === 9 ? 0.1 : 0), 6);
    });
    expect(rangeColor(ranges, 104379.95)).toEqual(RED);
    expect(rangeColor(ranges, 19)).toEqual(DODGER_BLUE);
    expect(rangeColor(ranges, 1e9)).toEqual(c(255, 255, 255));
  });

  it('keeps colours and values the template gives', () => {
    const given = fillRanges(
      {
        startColor: RED,
        middleColor: YELLOW,
        endColor: RED,
        ranges: [
          { color: c(1, 2, 3), start: 0, end: 5 },
          { color: null, start: Number.NaN, end: Number.NaN },
        ],
      },
      0,
      10,
    );
    expect(given[0]).toEqual({ color: c(1, 2, 3), start: 0, end: 5 });
    expect(given[1]).toEqual({ color: RED, start: 5, end: 10.1 });
  });
});

describe('paletteColor', () => {
  it('cycles the Light palette by shape index; None has none', () => {
    expect(paletteColor('Light', 0)).toEqual(c(230, 230, 250));
    expect(paletteColor('Light', 9)).toEqual(c(255, 240, 245));
    expect(paletteColor('None', 3)).toBeUndefined();
  });
});
