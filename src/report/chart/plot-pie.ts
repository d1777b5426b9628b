// Pie and Doughnut, after MS Chart's PieChart (MIT; facts only):
// - the pie is a circle in the square centred in the area; slices start at PieStartAngle
//   (0° = 3 o'clock, default 0) and run clockwise, each |Y| / Σ|Y| of the turn (negative values
//   count by their absolute value; empty points are skipped; a zero total draws nothing);
// - the pie fills 95 % of the square, less when outside labels need room (pie-labels.ts), at
//   most 80 % when a slice is exploded; an exploded slice moves 1/10 of the pie's diameter along
//   its mid-angle;
// - a doughnut's hole is DoughnutRadius % of the radius (default 60);
// - PieLabelStyle Inside (default): the label is centred at 1/4 of the diameter from the centre
//   (×1.4 when exploded; a doughnut moves it out by (100 − DoughnutRadius) %); Outside: see
//   pie-labels.ts; Disabled: none;
// - PieDrawingStyle (Concave, SoftEdge) is a shading over the flat slice: drawn flat, and
//   nothing is lost that a warning should report.

import { parseColor } from '../frx/colors.js';
import { arcTo, circle, PathBuilder } from '../path-data.js';
import { polar, type Pt } from './bezier-arc.js';
import { type OutsideLabel, fitOutsideLabels } from './pie-labels.js';
import {
  clampInto,
  customNumber,
  customWord,
  drawnAlone,
  measureLabel,
  scaledMagnitudes,
  textShape,
  visible,
} from './plot-custom.js';
import type { AxislessPlotter, ChartShape, PathShape, PlotContext, PlotPoint, PlotSeries } from './plot-types.js';

type LabelStyle = 'Inside' | 'Outside' | 'Disabled';

interface Slice {
  index: number;
  point: PlotPoint;
  start: number;
  sweep: number;
  mid: number;
  style: LabelStyle;
  text: string;
  size: { width: number; height: number };
}

/** A slice (or a ring sector) as one closed figure, clockwise outside, back along the hole. */
function slicePath(pb: PathBuilder, c: Pt, r: number, hole: number, start: number, sweep: number): void {
  if (sweep >= 360 - 1e-9) {
    circle(pb, c.x, c.y, r);
    if (hole > 0) circle(pb, c.x, c.y, hole, true);
    return;
  }
  const a = polar(c.x, c.y, r, start);
  pb.moveTo(a.x, a.y);
  arcTo(pb, c.x, c.y, r, start, start + sweep);
  if (hole > 0) {
    const b = polar(c.x, c.y, hole, start + sweep);
    pb.lineTo(b.x, b.y);
    arcTo(pb, c.x, c.y, hole, start + sweep, start);
  } else {
    pb.lineTo(c.x, c.y);
  }
  pb.close();
}

function labelStyle(p: PlotPoint): LabelStyle {
  // MS Chart reads LabelStyle before PieLabelStyle (the former is the older name).
  const key = p.custom.LabelStyle !== undefined ? 'LabelStyle' : 'PieLabelStyle';
  return customWord<LabelStyle>(p.custom, key, ['Inside', 'Outside', 'Disabled'], 'Inside');
}

function slices(ctx: PlotContext, series: PlotSeries): Slice[] {
  const mags = scaledMagnitudes(series.points);
  const sum = mags.reduce((s, m) => s + m, 0);
  if (!(sum > 0)) return [];
  let angle = customNumber(series.custom, 'PieStartAngle', 0, 0, 360);
  const out: Slice[] = [];
  series.points.forEach((point, index) => {
    if (point.empty) return;
    const sweep = (mags[index]! / sum) * 360;
    const style = labelStyle(point);
    const text = style === 'Disabled' ? '' : point.label;
    const size = text ? measureLabel(ctx, text, series.font) : { width: 0, height: 0 };
    out.push({ index, point, start: angle, sweep, mid: (angle + sweep / 2) % 360, style, text, size });
    angle += sweep;
    if (angle >= 360) angle -= 360;
  });
  return out;
}

function plotPieOrDoughnut(ctx: PlotContext, series: PlotSeries, doughnut: boolean): ChartShape[] {
  const { rect } = ctx;
  const side = Math.min(rect.width, rect.height);
  if (!(side > 0)) return [];
  const all = slices(ctx, series);
  if (all.length === 0) return [];
  const center = { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
  const outside = all.filter((s) => s.style === 'Outside' && s.text !== '');
  const wanted: OutsideLabel[] = outside.map((s) => ({
    mid: s.mid,
    exploded: s.point.exploded,
    ...s.size,
    radial: customNumber(s.point.custom, 'LabelsRadialLineSize', 1, 0, 100),
    horizontal: customNumber(s.point.custom, 'LabelsHorizontalLineSize', 1, 0, 100),
  }));
  const minimum = customNumber(series.custom, 'MinimumRelativePieSize', 30, 10, 70) / 100;
  const anyExploded = all.some((s) => s.point.exploded);
  const fit = fitOutsideLabels(center, side, wanted, rect, minimum, anyExploded);
  const r = (side * fit.correction) / 2;
  const holePct = doughnut ? customNumber(series.custom, 'DoughnutRadius', 60, 0, 99) : 0;
  const hole = (r * holePct) / 100;

  const shapes: ChartShape[] = [];
  for (const s of all) {
    if (!(s.sweep > 0)) continue;
    const c = s.point.exploded ? polar(center.x, center.y, (2 * r) / 10, s.mid) : center;
    const pb = new PathBuilder();
    slicePath(pb, c, r, hole, s.start, s.sweep);
    const shape: PathShape = { kind: 'path', tag: `${series.name}/${s.index}`, d: pb.toString(), closed: true };
    if (visible(s.point.color)) shape.fill = s.point.color;
    if (visible(s.point.borderColor) && s.point.borderWidth > 0) {
      shape.stroke = s.point.borderColor;
      shape.lineWidth = s.point.borderWidth;
    }
    shapes.push(shape);
  }
  outside.forEach((s, i) => {
    const placed = fit.placed[i]!;
    const custom = s.point.custom.PieLineColor;
    const lineColor = (custom !== undefined ? parseColor(custom) : undefined) ?? s.point.borderColor;
    if (visible(lineColor)) {
      const pb = new PathBuilder();
      pb.polyline(placed.line.map((p) => [p.x, p.y] as const));
      shapes.push({
        kind: 'path',
        tag: `${series.name}/${s.index}/leader`,
        d: pb.toString(),
        closed: false,
        stroke: lineColor,
        lineWidth: Math.max(1, s.point.borderWidth),
      });
    }
    const box = clampInto(placed.box, rect);
    const align = placed.left ? 'Right' : 'Left';
    shapes.push(textShape(`${series.name}/${s.index}/label`, s.text, box, series.font, series.labelColor, align));
  });
  for (const s of all) {
    if (s.style !== 'Inside' || s.text === '') continue;
    const e = s.point.exploded ? 1.4 : 1;
    const ring = doughnut ? 1 + (100 - holePct) / 100 : 1;
    const at = polar(center.x, center.y, ((2 * r * e) / 4) * ring, s.mid);
    const box = { x: at.x - s.size.width / 2, y: at.y - s.size.height / 2, ...s.size };
    const label = textShape(
      `${series.name}/${s.index}/label`,
      s.text,
      clampInto(box, rect),
      series.font,
      series.labelColor,
    );
    shapes.push(label);
  }
  return shapes;
}

export const plotPie: AxislessPlotter = (ctx, series, all) =>
  drawnAlone(series, all) ? plotPieOrDoughnut(ctx, series, false) : [];
export const plotDoughnut: AxislessPlotter = (ctx, series, all) =>
  drawnAlone(series, all) ? plotPieOrDoughnut(ctx, series, true) : [];
