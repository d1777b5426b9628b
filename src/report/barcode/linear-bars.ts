// bwip-js's bar/space widths → FastReport's bar elements. bwip-js draws two-width codes 3:1 or
// 2:1; FastReport draws their wide elements WideBarRatio modules wide, and some codes end with or
// without a trailing space where bwip-js differs. These helpers do the remapping.

import type { RawLinear } from './bwip.js';
import type { BarElement } from './types.js';

/** Bars and spaces alternate, bar first. `width` maps each raw width (bars at even indices). */
export function toElements(raw: RawLinear, width: (w: number, bar: boolean) => number = (w) => w): BarElement[] {
  return raw.sbs.map((w, i) => ({ w: width(w, i % 2 === 0), bar: i % 2 === 0 }));
}

/** A two-width code: every element wider than one module becomes `ratio` modules wide. */
export function twoWidth(raw: RawLinear, ratio: number): BarElement[] {
  return toElements(raw, (w) => (w > 1 ? ratio : 1));
}

/** Drops a trailing space (an inter-character gap after the stop character). */
export function trimEnd(e: BarElement[]): BarElement[] {
  while (e.length > 0 && !e[e.length - 1]?.bar) e.pop();
  return e;
}

/** Marks the bars inside the given module ranges as long (EAN/UPC guard bars). */
export function markLong(e: BarElement[], ranges: readonly (readonly [number, number])[]): BarElement[] {
  let x = 0;
  for (const el of e) {
    if (el.bar && ranges.some(([a, b]) => x >= a && x < b)) el.long = true;
    x += el.w;
  }
  return e;
}

/** Postal codes: bar heights from bwip-js's heights and bottoms (inches), as fractions of the
 *  tallest bar, measured from the top. */
export function withHeights(raw: RawLinear, e: BarElement[]): BarElement[] {
  const tops = raw.bhs.map((h, i) => h + (raw.bbs[i] ?? 0));
  const max = Math.max(...tops, 1e-9);
  let bar = 0;
  for (const el of e) {
    if (!el.bar) continue;
    const h = raw.bhs[bar] ?? 0;
    const b = raw.bbs[bar] ?? 0;
    el.top = 1 - (b + h) / max;
    el.bottom = 1 - b / max;
    bar++;
  }
  return e;
}

export function totalWidth(e: readonly BarElement[]): number {
  let w = 0;
  for (const el of e) w += el.w;
  return w;
}
