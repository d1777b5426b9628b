// Radar and Polar series on their shared circular area (radar-grid.ts), after MS Chart's
// RadarChart and PolarChart (MIT; facts only):
// - Radar: point k on spoke k at the distance of its value; RadarDrawingStyle Area (default: the
//   closed figure filled), Line (its outline in the point colour) or Marker (markers only);
// - Polar: X is the angle in degrees (0 at 12 o'clock, clockwise); PolarDrawingStyle Line
//   (default; the last point is not joined back to the first) or Marker;
// - an empty point takes the mean of its non-empty neighbours (MS Chart's default empty point
//   value);
// - markers where the series has a MarkerStyle (or in Marker style); a point's label sits above
//   its vertex.
// The grid is drawn once: its rings with the area's first series (`all[0]`), below every
// series; its spokes and labels with the last, over them.

import { circle, PathBuilder } from '../path-data.js';
import type { Pt } from './bezier-arc.js';
import { customWord, measureLabel, textShape, visible, yOf } from './plot-custom.js';
import type { AxislessPlotter, ChartShape, PlotSeries } from './plot-types.js';
import { direction, type RadarLayout, radarAxes, radarLayout, radarRings, valueRadius } from './radar-grid.js';

type Style = 'Area' | 'Line' | 'Marker';

/** The values, with empty points filled from their neighbours. */
function filledValues(series: PlotSeries): number[] {
  const pts = series.points;
  const prev: (number | undefined)[] = [];
  let last: number | undefined;
  for (const p of pts) {
    prev.push(last);
    if (!p.empty) last = yOf(p);
  }
  const out = new Array<number>(pts.length);
  let next: number | undefined;
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    if (!p.empty) out[i] = yOf(p);
    else {
      const a = prev[i];
      out[i] = a !== undefined && next !== undefined ? (a + next) / 2 : (a ?? next ?? 0);
    }
    if (!p.empty) next = yOf(p);
  }
  return out;
}

function vertices(l: RadarLayout, series: PlotSeries): Pt[] {
  const values = filledValues(series);
  return series.points.map((p, i) => {
    const deg = l.polar ? (Number.isFinite(p.x) ? p.x : 0) : (360 * i) / l.sectors;
    const d = direction(deg);
    const r = valueRadius(l, values[i]!);
    return { x: l.cx + r * d.x, y: l.cy + r * d.y };
  });
}

const sameColor = (series: PlotSeries): boolean => {
  const c = series.points[0]?.color;
  return series.points.every(
    (p) => !c || (p.color.r === c.r && p.color.g === c.g && p.color.b === c.b && p.color.a === c.a),
  );
};

function marker(shape: string, at: Pt, size: number): string {
  const pb = new PathBuilder();
  const h = size / 2;
  if (shape === 'Square') pb.rect(at.x - h, at.y - h, size, size);
  else if (shape === 'Diamond') {
    pb.polygon([
      [at.x, at.y - h],
      [at.x + h, at.y],
      [at.x, at.y + h],
      [at.x - h, at.y],
    ]);
  } else if (shape === 'Triangle') {
    pb.polygon([
      [at.x, at.y - h],
      [at.x + h, at.y + h],
      [at.x - h, at.y + h],
    ]);
  } else circle(pb, at.x, at.y, h);
  return pb.toString();
}

function seriesShapes(l: RadarLayout, series: PlotSeries): ChartShape[] {
  const shapes: ChartShape[] = [];
  const key = l.polar ? 'PolarDrawingStyle' : 'RadarDrawingStyle';
  const words: Style[] = l.polar ? ['Line', 'Marker'] : ['Area', 'Line', 'Marker'];
  const style = customWord<Style>(series.custom, key, words, l.polar ? 'Line' : 'Area');
  const pts = vertices(l, series);
  const first = series.points[0];
  if (!first || pts.length === 0) return shapes;
  const xy = pts.map((p) => [p.x, p.y] as [number, number]);
  if (style === 'Area' && sameColor(series)) {
    const pb = new PathBuilder();
    pb.polygon(xy);
    if (!pb.empty) {
      const border = visible(first.borderColor) && first.borderWidth > 0;
      shapes.push({
        kind: 'path',
        tag: `${series.name}/area`,
        d: pb.toString(),
        closed: true,
        ...(visible(first.color) ? { fill: first.color } : {}),
        ...(border ? { stroke: first.borderColor, lineWidth: first.borderWidth } : {}),
      });
    }
  } else if (style === 'Area') {
    // Points of different colours: MS Chart fills each sector (centre, point, next point).
    series.points.forEach((p, i) => {
      const pb = new PathBuilder();
      const next = xy[(i + 1) % xy.length]!;
      pb.polygon([[l.cx, l.cy], xy[i]!, next]);
      if (!pb.empty && visible(p.color)) {
        shapes.push({ kind: 'path', tag: `${series.name}/${i}/sector`, d: pb.toString(), closed: true, fill: p.color });
      }
    });
  } else if (style === 'Line' && visible(first.color)) {
    const pb = new PathBuilder();
    pb.polyline(xy, !l.polar);
    if (!pb.empty) {
      const lineWidth = Math.max(1, first.borderWidth);
      shapes.push({
        kind: 'path',
        tag: `${series.name}/line`,
        d: pb.toString(),
        closed: false,
        stroke: first.color,
        lineWidth,
      });
    }
  }
  const markerStyle = series.markerStyle && series.markerStyle !== 'None' ? series.markerStyle : undefined;
  if (markerStyle || style === 'Marker') {
    const size = series.markerSize > 0 ? Math.min(series.markerSize, l.radius) : 5;
    series.points.forEach((p, i) => {
      const color = series.markerColor ?? p.color;
      if (p.empty || !visible(color)) return;
      shapes.push({
        kind: 'path',
        tag: `${series.name}/${i}`,
        d: marker(markerStyle ?? 'Circle', pts[i]!, size),
        closed: true,
        fill: color,
      });
    });
  }
  return shapes;
}

function labelShapes(ctx: Parameters<AxislessPlotter>[0], l: RadarLayout, series: PlotSeries): ChartShape[] {
  const pts = vertices(l, series);
  const lift = series.markerStyle && series.markerStyle !== 'None' ? series.markerSize / 2 : 0;
  const out: ChartShape[] = [];
  series.points.forEach((p, i) => {
    if (p.empty || p.label === '') return;
    const size = measureLabel(ctx, p.label, series.font);
    const at = pts[i]!;
    const box = { x: at.x - size.width / 2, y: at.y - lift - 2 - size.height, ...size };
    out.push(textShape(`${series.name}/${i}/label`, p.label, box, series.font, series.labelColor));
  });
  return out;
}

export const plotRadar: AxislessPlotter = (ctx, series, all) => {
  const group = all.filter((s) => s.chartType === series.chartType);
  if (!group.includes(series)) group.unshift(series);
  const layout = radarLayout(ctx, group);
  if (!layout) return [];
  const shapes = series === group[0] ? radarRings(layout) : [];
  shapes.push(...seriesShapes(layout, series));
  if (series === group[group.length - 1]) shapes.push(...radarAxes(ctx, layout));
  shapes.push(...labelShapes(ctx, layout, series));
  return shapes;
};
