// Funnel and Pyramid: one segment per point (funnel-segments.ts), labels beside or inside
// (funnel-labels.ts). A 3-D funnel (Funnel3DDrawingStyle, Area3DStyle) is drawn flat: the chart
// layout reports that once for the whole chart.

import { PathBuilder } from '../path-data.js';
import { rgba, parseColor } from '../frx/colors.js';
import { fitPlotArea, funnelLabels, placeLabels } from './funnel-labels.js';
import { funnelSpec, segmentOutline, segments } from './funnel-segments.js';
import { clampInto, drawnAlone, textShape, visible } from './plot-custom.js';
import type { AxislessPlotter, ChartShape, PathShape } from './plot-types.js';

export const plotFunnel: AxislessPlotter = (ctx, series, all) => {
  const { rect } = ctx;
  if (!(rect.width > 0 && rect.height > 0) || !drawnAlone(series, all)) return [];
  const spec = funnelSpec(series, rect);
  const nonEmpty = series.points.filter((p) => !p.empty).length;
  // MS Chart draws nothing for a zero total, nor a YIsWidth funnel of one point.
  if (!(spec.total > 0) || nonEmpty === 0 || (spec.yIsWidth && spec.values.length < 2)) return [];
  const labels = funnelLabels(ctx, series, spec.pyramid);
  const plot = fitPlotArea(spec, rect, labels, (p) => ({ segs: segments(spec, p) }));
  const segs = segments(spec, plot);
  const shapes: ChartShape[] = [];
  for (const g of segs) {
    const point = series.points[g.index]!;
    if (point.empty || !(g.height > 0)) continue;
    const pb = new PathBuilder();
    pb.polygon(segmentOutline(spec, plot, g));
    if (pb.empty) continue;
    const shape: PathShape = { kind: 'path', tag: `${series.name}/${g.index}`, d: pb.toString(), closed: true };
    if (visible(point.color)) shape.fill = point.color;
    if (visible(point.borderColor) && point.borderWidth > 0) {
      shape.stroke = point.borderColor;
      shape.lineWidth = point.borderWidth;
    }
    shapes.push(shape);
  }
  for (const placed of placeLabels(spec, plot, segs, labels)) {
    const { label } = placed;
    const point = series.points[label.index]!;
    // Labels pushed past the area (thousands of them) stay at its edge, their callouts with them.
    const box = clampInto(placed.box, rect);
    if (placed.callout) {
      placed.callout[1][1] = box.y + box.height / 2;
      const custom = point.custom.CalloutLineColor;
      const color = (custom !== undefined ? parseColor(custom) : undefined) ?? rgba(0, 0, 0);
      const pb = new PathBuilder();
      pb.polyline(placed.callout);
      if (visible(color) && !pb.empty) {
        shapes.push({
          kind: 'path',
          tag: `${series.name}/${label.index}/callout`,
          d: pb.toString(),
          closed: false,
          stroke: color,
          lineWidth: 1,
        });
      }
    }
    shapes.push(textShape(`${series.name}/${label.index}/label`, label.text, box, series.font, series.labelColor));
  }
  return shapes;
};
