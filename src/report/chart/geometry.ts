// Path data for chart shapes, absolute commands only (M, L, C, Z) so that every exporter can bound
// a path from its numbers; and moving such a path to another origin.

import type { Rect } from './plot-types.js';

const n = (v: number): string => {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

export type Pt = readonly [number, number];

export function rectPath(r: Rect): string {
  const { x, y, width: w, height: h } = r;
  return `M${n(x)} ${n(y)}L${n(x + w)} ${n(y)}L${n(x + w)} ${n(y + h)}L${n(x)} ${n(y + h)}Z`;
}

export function polylinePath(points: readonly Pt[], closed = false): string {
  if (points.length === 0) return '';
  return `M${points.map(([x, y]) => `${n(x)} ${n(y)}`).join('L')}${closed ? 'Z' : ''}`;
}

/** A line through the points as a cardinal spline (MS Chart's default tension 0.5), as cubics. */
export function splinePath(points: readonly Pt[], tension = 0.5, moveFirst = true): string {
  if (points.length === 0) return '';
  const [x0, y0] = points[0] as Pt;
  let d = moveFirst ? `M${n(x0)} ${n(y0)}` : `L${n(x0)} ${n(y0)}`;
  const t = tension / 3;
  for (let i = 0; i + 1 < points.length; i++) {
    const p0 = (points[i - 1] ?? points[i]) as Pt;
    const p1 = points[i] as Pt;
    const p2 = points[i + 1] as Pt;
    const p3 = (points[i + 2] ?? p2) as Pt;
    const c1: Pt = [p1[0] + (p2[0] - p0[0]) * t, p1[1] + (p2[1] - p0[1]) * t];
    const c2: Pt = [p2[0] - (p3[0] - p1[0]) * t, p2[1] - (p3[1] - p1[1]) * t];
    d += `C${n(c1[0])} ${n(c1[1])} ${n(c2[0])} ${n(c2[1])} ${n(p2[0])} ${n(p2[1])}`;
  }
  return d;
}

/** An ellipse as four cubics. */
export function ellipsePath(cx: number, cy: number, rx: number, ry: number): string {
  const k = 0.5522847498;
  const ox = rx * k;
  const oy = ry * k;
  return (
    `M${n(cx + rx)} ${n(cy)}` +
    `C${n(cx + rx)} ${n(cy + oy)} ${n(cx + ox)} ${n(cy + ry)} ${n(cx)} ${n(cy + ry)}` +
    `C${n(cx - ox)} ${n(cy + ry)} ${n(cx - rx)} ${n(cy + oy)} ${n(cx - rx)} ${n(cy)}` +
    `C${n(cx - rx)} ${n(cy - oy)} ${n(cx - ox)} ${n(cy - ry)} ${n(cx)} ${n(cy - ry)}` +
    `C${n(cx + ox)} ${n(cy - ry)} ${n(cx + rx)} ${n(cy - oy)} ${n(cx + rx)} ${n(cy)}Z`
  );
}

/** The bounds of an absolute path's coordinates (control points included). */
export function pathBounds(d: string): Rect {
  const nums = d.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/gi)?.map(Number) ?? [];
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < nums.length; i += 2) {
    const x = nums[i] as number;
    const y = nums[i + 1] as number;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  if (!Number.isFinite(x0)) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The same absolute path moved by (-dx, -dy). */
export function translatePath(d: string, dx: number, dy: number): string {
  let i = 0;
  return d.replace(/-?\d+(?:\.\d+)?(?:e-?\d+)?/gi, (m) => n(Number(m) - (i++ % 2 === 0 ? dx : dy)));
}
