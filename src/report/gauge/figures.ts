// Small geometry shared by the gauge types: lines, polygons, ellipses and arcs as path segments
// (absolute commands, arcs as cubic Béziers), rotation about a centre, .NET rounding, and the
// text of a tick label placed by an anchor and an alignment.

import type { Color, FillModel, FontSpec } from '../frx/model.js';
import type { GaugeFigure, GaugeText, MeasureText, PathSegment } from './types.js';

export const CM = 37.8;
export const RAD = Math.PI / 180;

export type Point = [number, number];

export function line(name: string, a: Point, b: Point, color: Color, width: number): GaugeFigure {
  return {
    kind: 'figure',
    name,
    segments: [
      ['M', ...a],
      ['L', ...b],
    ],
    closed: false,
    stroke: color,
    lineWidth: width,
  };
}

export function polygonSegments(points: readonly Point[]): PathSegment[] {
  const out: PathSegment[] = points.map(([x, y], i) => [i === 0 ? 'M' : 'L', x, y]);
  out.push(['Z']);
  return out;
}

/** The bounding box of points (a gradient brush's rectangle). */
export function bounds(points: readonly Point[]) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

// A quarter of an ellipse as one cubic Bézier: the control points lie this far along the tangents.
const KAPPA = (4 / 3) * Math.tan(Math.PI / 8);

/** An arc of the ellipse in (x, y, w, h) from `start` sweeping `sweep` degrees, GDI+ style (0° at
 *  3 o'clock, clockwise on the page); `move` starts a new figure at its first point. */
export function arcSegments(x: number, y: number, w: number, h: number, start: number, sweep: number, move: boolean) {
  const rx = w / 2;
  const ry = h / 2;
  const cx = x + rx;
  const cy = y + ry;
  const pieces = Math.max(1, Math.ceil(Math.abs(sweep) / 90 - 1e-9));
  const step = (sweep / pieces) * RAD;
  const k = (4 / 3) * Math.tan(step / 4);
  const at = (t: number): Point => [cx + rx * Math.cos(t), cy + ry * Math.sin(t)];
  const out: PathSegment[] = [];
  let t = start * RAD;
  const first = at(t);
  out.push([move ? 'M' : 'L', first[0], first[1]]);
  for (let i = 0; i < pieces; i++) {
    const t2 = t + step;
    const [x1, y1] = at(t);
    const [x2, y2] = at(t2);
    out.push([
      'C',
      x1 - k * rx * Math.sin(t),
      y1 + k * ry * Math.cos(t),
      x2 + k * rx * Math.sin(t2),
      y2 - k * ry * Math.cos(t2),
      x2,
      y2,
    ]);
    t = t2;
  }
  return out;
}

/** A whole ellipse in (x, y, w, h), clockwise from 9 o'clock. */
export function ellipseSegments(x: number, y: number, w: number, h: number): PathSegment[] {
  const rx = w / 2;
  const ry = h / 2;
  const cx = x + rx;
  const cy = y + ry;
  const kx = rx * KAPPA;
  const ky = ry * KAPPA;
  return [
    ['M', x, cy],
    ['C', x, cy - ky, cx - kx, y, cx, y],
    ['C', cx + kx, y, x + w, cy - ky, x + w, cy],
    ['C', x + w, cy + ky, cx + kx, y + h, cx, y + h],
    ['C', cx - kx, y + h, x, cy + ky, x, cy],
    ['Z'],
  ];
}

/** A filled and outlined ellipse (FillAndDrawEllipse). */
export function ellipse(
  name: string,
  box: { x: number; y: number; width: number; height: number },
  fill: FillModel,
  stroke: Color,
  lineWidth: number,
): GaugeFigure {
  return {
    kind: 'figure',
    name,
    segments: ellipseSegments(box.x, box.y, box.width, box.height),
    closed: true,
    fill,
    stroke,
    lineWidth,
    box,
  };
}

/** Turns a point about a centre by `deg` degrees, clockwise on the page (FastReport's
 *  RadialUtils.RotateVector: 0° is 12 o'clock for a point above the centre). */
export function rotate([x, y]: Point, deg: number, [cx, cy]: Point): Point {
  const a = deg * RAD;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  return [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
}

/** .NET Math.Round(x, decimals): halves to even. */
export function roundHalfEven(x: number, decimals = 0): number {
  const p = 10 ** decimals;
  const v = x * p;
  if (!Number.isFinite(v)) return x;
  const f = Math.floor(v);
  const diff = v - f;
  let r: number;
  if (diff > 0.5) r = f + 1;
  else if (diff < 0.5) r = f;
  else r = f % 2 === 0 ? f : f + 1;
  return r / p;
}

export type HAlign = 'left' | 'middle' | 'right';
export type VAlign = 'top' | 'middle' | 'bottom';

/** A label drawn at an anchor: `left` puts the text's left edge there, `bottom` its bottom, … */
export function anchoredText(
  name: string,
  text: string,
  font: FontSpec,
  color: Color,
  measure: MeasureText,
  [x, y]: Point,
  h: HAlign,
  v: VAlign,
): GaugeText {
  const size = measure(text, font);
  const dx = h === 'left' ? 0 : h === 'middle' ? -size.width / 2 : -size.width;
  const dy = v === 'top' ? 0 : v === 'middle' ? -size.height / 2 : -size.height;
  return { kind: 'text', name, text, font, color, x: x + dx, y: y + dy, width: size.width, height: size.height };
}
