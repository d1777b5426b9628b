// A layer's colours (FastReport's ColorRanges and map ColorPalette): the palette colour of a shape
// by its index, and the colour of an analytical value from the ranges. Ranges as the template
// writes them ("Color;Start;End" lines, NaN where FastReport fills in) are completed from the
// data's minimum and maximum: the first range takes StartColor, the last EndColor, the middle one
// MiddleColor (unless transparent) and the rest are mixed between them; the values split
// [min, max] evenly, the last end raised by 0.1 so that the maximum falls inside.

import { rgba, WHITE } from '../frx/colors.js';
import type { Color } from '../frx/model.js';

export interface ColorRange {
  color: Color | null;
  start: number;
  end: number;
}

export interface ColorRangesSpec {
  startColor: Color;
  middleColor: Color;
  endColor: Color;
  ranges: ColorRange[];
}

/** The map palettes (FastReport's MapPalette), colour by shape index modulo their length. */
export const MAP_PALETTES: Readonly<Record<string, readonly Color[]>> = {
  Light: [
    rgba(230, 230, 250),
    rgba(255, 240, 245),
    rgba(255, 218, 185),
    rgba(255, 250, 205),
    rgba(255, 228, 225),
    rgba(240, 255, 240),
    rgba(240, 248, 255),
    rgba(245, 245, 245),
  ],
  Pastel: [
    rgba(191, 224, 137),
    rgba(200, 189, 183),
    rgba(255, 250, 156),
    rgba(244, 197, 138),
    rgba(135, 206, 226),
    rgba(230, 160, 150),
    rgba(160, 160, 220),
    rgba(255, 149, 149),
  ],
  Grayscale: [200, 188, 178, 168, 157, 147, 136, 125].map((v) => rgba(v, v, v)),
  Earth: [
    rgba(255, 128, 0),
    rgba(184, 134, 11),
    rgba(192, 64, 0),
    rgba(107, 142, 35),
    rgba(205, 133, 63),
    rgba(192, 192, 0),
    rgba(34, 139, 34),
    rgba(210, 105, 30),
  ],
  Sea: [
    rgba(46, 139, 87),
    rgba(102, 205, 170),
    rgba(70, 130, 180),
    rgba(0, 139, 139),
    rgba(95, 158, 160),
    rgba(60, 179, 113),
    rgba(72, 209, 204),
    rgba(143, 188, 139),
  ],
  BrightPastel: [
    rgba(65, 140, 240),
    rgba(252, 180, 65),
    rgba(224, 64, 10),
    rgba(5, 100, 146),
    rgba(241, 185, 168),
    rgba(80, 99, 129),
    rgba(255, 227, 130),
    rgba(18, 156, 221),
  ],
};

/** The palette colour of the shape at `index`; undefined for the palette None (or unknown). */
export function paletteColor(palette: string, index: number): Color | undefined {
  const colors = MAP_PALETTES[palette];
  return colors ? colors[index % colors.length] : undefined;
}

const isTransparent = (c: Color | null): boolean => c === null || c.a === 0;

/** FastReport's GetMixedColor: the channels mixed, p of the second, in single precision as .NET
 *  computes it (bytes truncated: 255 × 0.4 gives 101 there). */
export function mixColors(a: Color, b: Color, p: number): Color {
  const f = Math.fround;
  const q = f(p);
  const ch = (x: number, y: number): number => Math.trunc(f(f(x * f(1 - q)) + f(y * q))) & 255;
  return rgba(ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b));
}

/** The ranges completed for data from `min` to `max` (ColorRanges.Fill); a copy. */
export function fillRanges(spec: ColorRangesSpec, min: number, max: number): ColorRange[] {
  const ranges = spec.ranges.map((r) => ({ ...r }));
  const n = ranges.length;
  if (n === 0) return ranges;
  const set = (i: number, c: Color): void => {
    const r = ranges[i] as ColorRange;
    if (isTransparent(r.color)) r.color = c;
  };
  const blend = (from: number, to: number): void => {
    const steps = to - from;
    if (steps < 2) return;
    const a = (ranges[from] as ColorRange).color ?? WHITE;
    const b = (ranges[to] as ColorRange).color ?? WHITE;
    for (let i = 1; i < steps; i++) set(from + i, mixColors(a, b, Math.fround(i * Math.fround(1 / steps))));
  };
  set(0, spec.startColor);
  set(n - 1, spec.endColor);
  if (n > 2) {
    if (!isTransparent(spec.middleColor)) {
      const middle = Math.floor(n / 2);
      set(middle, spec.middleColor);
      blend(0, middle);
      blend(middle, n - 1);
    } else blend(0, n - 1);
  }
  const delta = (max - min) / n;
  ranges.forEach((r, i) => {
    if (Number.isNaN(r.start)) r.start = min + delta * i;
    if (Number.isNaN(r.end)) r.end = min + delta * (i + 1) + (i === n - 1 ? 0.1 : 0);
  });
  return ranges;
}

/** The colour of a value: the first range holding it (start ≤ v < end), else white. */
export function rangeColor(ranges: readonly ColorRange[], value: number): Color {
  for (const r of ranges) if (value >= r.start && value < r.end) return r.color ?? WHITE;
  return WHITE;
}
