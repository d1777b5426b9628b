// How FastReport line styles look, shared by the exporters: the hairline width and the dash
// patterns (GDI+'s, in multiples of the line width).

import type { LineStyle } from '../frx/model.js';

/** The thinnest line drawn (a 0-width FastReport line still shows as a hairline). */
export const MIN_LINE_WIDTH = 0.5;

/** Dash lengths (px) of a line style (GDI+'s, in multiples of the line width) or of an explicit
 *  pattern; undefined for a solid line. */
export function dashArray(style: LineStyle, pattern: readonly number[], width: number): number[] | undefined {
  const w = Math.max(width, 1);
  let p: number[];
  if (pattern.length > 0) p = [...pattern];
  else {
    switch (style) {
      case 'Dash':
        p = [3, 1];
        break;
      case 'Dot':
        p = [1, 1];
        break;
      case 'DashDot':
        p = [3, 1, 1, 1];
        break;
      case 'DashDotDot':
        p = [3, 1, 1, 1, 1, 1];
        break;
      default:
        return undefined;
    }
  }
  const out = p.map((x) => (Number.isFinite(x) ? Math.max(x, 0) * w : 0));
  // A pattern of zeros would be invalid in PDF: draw it solid.
  return out.some((x) => x > 0) ? out : undefined;
}
