// Prepared items for objects that draw themselves as vectors (charts, sparklines, gauges, maps):
// filled or stroked paths and texts, all of them kinds both exporters already draw (a path as an
// SVG <path> and a PDF path, a text as any text object's, embedded in the report's fonts). Such an
// object prints as a list of these items, bottom-most first, coordinates relative to its band.

import type { Color, FillModel, LineStyle } from '../frx/model.js';
import type { PreparedPath } from './prepared.js';

const TRANSPARENT: Color = Object.freeze({ r: 0, g: 0, b: 0, a: 0 });
const NO_FILL: FillModel = Object.freeze({ kind: 'Solid', color: TRANSPARENT });

/** How a vector path is painted: a fill (a colour or any fill), an outline, or both. */
export interface VectorStyle {
  fill?: Color | FillModel;
  stroke?: Color;
  /** Outline width in px (default 1; 0 or no stroke: no outline). */
  lineWidth?: number;
  style?: LineStyle;
  /** Round caps and joins (lines of a chart; else butt caps and miter joins). */
  round?: boolean;
}

export interface VectorPathSpec extends VectorStyle {
  name: string;
  /** The box the path belongs to, relative to the band (the path may reach outside it). */
  x: number;
  y: number;
  width: number;
  height: number;
  /** SVG path data relative to (x, y): build it with PathBuilder (../path-data.ts). */
  d: string;
  /** A closed figure (filled) or an open line. */
  closed: boolean;
}

const isColor = (f: Color | FillModel): f is Color => 'r' in f;

/** A path item painted as the spec says. */
export function vectorPath(s: VectorPathSpec): PreparedPath {
  const stroke = s.stroke ?? TRANSPARENT;
  const lineWidth = s.stroke === undefined ? 0 : (s.lineWidth ?? 1);
  const item: PreparedPath = {
    kind: 'path',
    name: s.name,
    x: s.x,
    y: s.y,
    width: s.width,
    height: s.height,
    d: s.d,
    closed: s.closed,
    fill: s.fill === undefined ? NO_FILL : isColor(s.fill) ? { kind: 'Solid', color: s.fill } : s.fill,
    color: stroke,
    lineWidth,
    style: s.style ?? 'Solid',
    dashPattern: [],
  };
  if (s.round) item.round = true;
  return item;
}
