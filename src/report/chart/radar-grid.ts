// The circular chart area that Radar and Polar series share (MS Chart's ChartArea circular mode,
// RadarChart, PolarChart; MIT, facts only):
// - a square plot area centred in the area, shrunk so that the category labels fit around it;
// - one spoke per sector from the centre (Radar: as many sectors as the longest series has
//   points, sector 0 at 12 o'clock, clockwise; Polar: 12 sectors of 30°, labelled by angle);
// - value rings at the Y axis' auto scale (about five intervals of 1, 2 or 5 × 10^k, from zero
//   unless values are negative, the maximum one interval past the largest value), circles, or
//   polygons through the spokes when a series sets AreaDrawingStyle=Polygon;
// - category labels outside the ring ("Horizontal" label style: beside the spoke's end, centred
//   over it at the top and under it at the bottom); value labels along the top spoke.

import type { Color } from '../frx/colors.js';
import { rgba } from '../frx/colors.js';
import { circle, PathBuilder } from '../path-data.js';
import type { FontSpec } from '../text/font-spec.js';
import { type Box, customWord, measureLabel, textShape, visible, yOf } from './plot-custom.js';
import { type Scale, scaleTicks, valueScale } from './axis-scale.js';
import type { ChartShape, PlotContext, PlotSeries } from './plot-types.js';

/** MS Chart draws at most this many sectors' spokes and labels; more would be unreadable and
 *  unbounded (a hostile series of 10^6 points). The series' own polygons are not capped. */
export const MAX_SECTORS = 1000;
const GAP = 4;

/** The value rings' scale: the Y axis' auto scale from zero (negative values extend it down). */
export function radarScale(values: readonly number[]): Scale {
  let lo = 0;
  let hi = 0;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return valueScale(lo, hi, { startFromZero: true });
}

export interface RadarLook {
  spokeColor: Color;
  gridColor: Color;
  categoryFont: FontSpec;
  categoryColor: Color;
  valueFont: FontSpec;
  valueColor: Color;
}

export interface RadarLayout {
  polar: boolean;
  cx: number;
  cy: number;
  radius: number;
  sectors: number;
  polygon: boolean;
  scale: Scale;
  categories: string[];
  look: RadarLook;
}

/** The unit vector of an angle measured from 12 o'clock, clockwise. */
export const direction = (deg: number): { x: number; y: number } => ({
  x: Math.sin((deg * Math.PI) / 180),
  y: -Math.cos((deg * Math.PI) / 180),
});

/** A category label's box for a ring of radius r. */
function categoryBox(l: RadarLayout, k: number, size: { width: number; height: number }, r: number): Box {
  const deg = (360 * k) / l.sectors;
  const d = direction(deg);
  const ax = l.cx + (r + GAP) * d.x;
  const ay = l.cy + (r + GAP) * d.y;
  const a = ((deg % 360) + 360) % 360;
  if (a < 5 || a > 355) return { x: ax - size.width / 2, y: ay - size.height, ...size };
  if (a > 175 && a < 185) return { x: ax - size.width / 2, y: ay, ...size };
  return { x: a < 180 ? ax : ax - size.width, y: ay - size.height / 2, ...size };
}

function lookOf(ctx: PlotContext, first: PlotSeries): RadarLook {
  const given = ctx.circularAxes;
  return {
    // A new FastReport chart's grid colour, when the layout gives none.
    spokeColor: given?.lineColor ?? rgba(64, 64, 64, 64),
    gridColor: given?.gridColor ?? rgba(64, 64, 64, 64),
    categoryFont: given?.categoryFont ?? first.font,
    categoryColor: given?.categoryColor ?? rgba(0, 0, 0),
    valueFont: given?.valueFont ?? first.font,
    valueColor: given?.valueColor ?? rgba(0, 0, 0),
  };
}

export function radarLayout(ctx: PlotContext, group: readonly PlotSeries[]): RadarLayout | undefined {
  const first = group[0];
  const { rect } = ctx;
  const side = Math.min(rect.width, rect.height);
  if (!first || !(side > 0)) return undefined;
  const polar = first.chartType === 'Polar';
  const sectors = polar ? 12 : Math.min(MAX_SECTORS, Math.max(0, ...group.map((s) => s.points.length)));
  if (sectors === 0) return undefined;
  const categories: string[] = [];
  for (let k = 0; k < sectors; k++) {
    if (polar) categories.push(String(k * 30));
    else categories.push(group.map((s) => s.points[k]?.axisLabel ?? '').find((t) => t !== '') ?? '');
  }
  const styled = group.find((s) => s.custom.AreaDrawingStyle !== undefined);
  const polygon = styled
    ? customWord(styled.custom, 'AreaDrawingStyle', ['Circle', 'Polygon'], 'Circle') === 'Polygon'
    : false;
  const values: number[] = [];
  for (const s of group) for (const p of s.points) if (!p.empty) values.push(yOf(p));
  const layout: RadarLayout = {
    polar,
    cx: rect.x + rect.width / 2,
    cy: rect.y + rect.height / 2,
    radius: side / 2,
    sectors,
    polygon,
    scale: radarScale(values),
    categories,
    look: lookOf(ctx, first),
  };
  // The largest radius at which every category label stays in the area: each box edge moves
  // linearly with the radius, so each edge gives a bound directly.
  let r = side / 2;
  categories.forEach((text, k) => {
    if (text === '') return;
    const size = measureLabel(ctx, text, layout.look.categoryFont);
    const at0 = categoryBox(layout, k, size, 0);
    const d = direction((360 * k) / sectors);
    const bound = (room: number, rate: number): void => {
      if (rate > 1e-9) r = Math.min(r, room / rate);
    };
    bound(at0.x - rect.x, -d.x);
    bound(rect.x + rect.width - (at0.x + at0.width), d.x);
    bound(at0.y - rect.y, -d.y);
    bound(rect.y + rect.height - (at0.y + at0.height), d.y);
  });
  // MS Chart never gives the labels more than 40 % of the plot's width.
  layout.radius = Math.max(r, side / 2 - side / 2.5, 0);
  return layout;
}

/** Where a value lies from the centre. */
export function valueRadius(l: RadarLayout, v: number): number {
  const span = l.scale.max - l.scale.min;
  const t = span > 0 ? (v - l.scale.min) / span : 0;
  return l.radius * Math.max(0, Math.min(1, t));
}

const formatValue = (v: number): string => String(Number.parseFloat(v.toPrecision(10)));

/** The value rings, below every series (drawn with the area's first series). */
export function radarRings(l: RadarLayout): ChartShape[] {
  const shapes: ChartShape[] = [];
  const { cx, cy, look } = l;
  if (!visible(look.gridColor)) return shapes;
  scaleTicks(l.scale).forEach((t, i) => {
    const r = valueRadius(l, t);
    if (!(r > 0)) return;
    const pb = new PathBuilder();
    if (l.polygon && !l.polar && l.sectors >= 3) {
      const pts: [number, number][] = [];
      for (let k = 0; k < l.sectors; k++) {
        const d = direction((360 * k) / l.sectors);
        pts.push([cx + r * d.x, cy + r * d.y]);
      }
      pb.polyline(pts, true);
    } else {
      circle(pb, cx, cy, r);
    }
    shapes.push({
      kind: 'path',
      tag: `radar/ring/${i}`,
      d: pb.toString(),
      closed: true,
      stroke: look.gridColor,
      lineWidth: 1,
    });
  });
  return shapes;
}

/** The spokes and the labels, over every series (drawn with the area's last series), as MS
 *  Chart draws its axes after the series. A value label hangs just inside its ring, so that the
 *  outer one stays clear of the category label above the top spoke. */
export function radarAxes(ctx: PlotContext, l: RadarLayout): ChartShape[] {
  const shapes: ChartShape[] = [];
  const { cx, cy, look } = l;
  const spokes = new PathBuilder();
  for (let k = 0; k < l.sectors; k++) {
    const d = direction((360 * k) / l.sectors);
    spokes.moveTo(cx, cy);
    spokes.lineTo(cx + l.radius * d.x, cy + l.radius * d.y);
  }
  if (visible(look.spokeColor) && !spokes.empty) {
    shapes.push({
      kind: 'path',
      tag: 'radar/spokes',
      d: spokes.toString(),
      closed: false,
      stroke: look.spokeColor,
      lineWidth: 1,
    });
  }
  scaleTicks(l.scale).forEach((t, i) => {
    const text = formatValue(t);
    const size = measureLabel(ctx, text, look.valueFont);
    const box = { x: cx - GAP / 2 - size.width, y: cy - valueRadius(l, t), ...size };
    shapes.push(textShape(`radar/value/${i}`, text, box, look.valueFont, look.valueColor, 'Right'));
  });
  l.categories.forEach((text, k) => {
    if (text === '') return;
    const box = categoryBox(l, k, measureLabel(ctx, text, look.categoryFont), l.radius);
    shapes.push(textShape(`radar/category/${k}`, text, box, look.categoryFont, look.categoryColor));
  });
  return shapes;
}
