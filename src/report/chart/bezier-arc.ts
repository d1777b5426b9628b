// Circular arcs as cubic Béziers, for the plotters that draw slices, rings and circular grids.
// The exporters bound a path from its numbers, so an arc cannot be an SVG `A` command: it is cut
// into pieces of at most 90°, each a cubic whose control points sit on the tangents at
// 4/3·tan(θ/4)·r (the usual approximation: the radius error stays below 0.03 %).
//
// Angles are in degrees, measured as MS Chart measures them: 0° = 3 o'clock, growing clockwise on
// the page (y grows downwards).

import type { PathBuilder } from '../path-data.js';

export interface Pt {
  x: number;
  y: number;
}

const RAD = Math.PI / 180;

/** The point at `deg` on the circle (cx, cy, r). */
export function polar(cx: number, cy: number, r: number, deg: number): Pt {
  return { x: cx + r * Math.cos(deg * RAD), y: cy + r * Math.sin(deg * RAD) };
}

/** Appends the arc from angle `from` to angle `to` (either direction; at most one full turn) to
 *  a path whose current point is already the arc's start. */
export function arcTo(pb: PathBuilder, cx: number, cy: number, r: number, from: number, to: number): void {
  const sweep = Math.max(-360, Math.min(360, to - from));
  if (!(Math.abs(sweep) > 1e-9) || !(r > 0)) return;
  const pieces = Math.ceil(Math.abs(sweep) / 90 - 1e-9);
  const step = sweep / pieces;
  const k = (4 / 3) * Math.tan((step * RAD) / 4) * r;
  for (let i = 0; i < pieces; i++) {
    const a0 = (from + i * step) * RAD;
    const a1 = (from + (i + 1) * step) * RAD;
    const x0 = cx + r * Math.cos(a0);
    const y0 = cy + r * Math.sin(a0);
    const x3 = cx + r * Math.cos(a1);
    const y3 = cy + r * Math.sin(a1);
    pb.curveTo(x0 - k * Math.sin(a0), y0 + k * Math.cos(a0), x3 + k * Math.sin(a1), y3 - k * Math.cos(a1), x3, y3);
  }
}

/** A closed circle, clockwise (or anticlockwise with `hole`, a ring's inner edge). */
export function circle(pb: PathBuilder, cx: number, cy: number, r: number, hole = false): void {
  if (!(r > 0)) return;
  pb.moveTo(cx + r, cy);
  arcTo(pb, cx, cy, r, 0, hole ? -360 : 360);
  pb.close();
}
