// MSChartObject and SparklineObject (one format): the chart's points are read when the object
// gets its data (chart-data.ts; inside a matrix cell that is while the cell's values are known),
// and it prints as vectors: the chart library's shapes (src/report/chart/) as path items and text
// items in the report's fonts. Items are named "<object>.<tag>" with the shape's tag's "/" as ".",
// so "MSChart2.Series1.3" is the figure of point 3 of Series1; a path item's box is its path's
// bounds (a bar's item is the bar).

import type { ChartObjectModel } from '../frx/model.js';
import { AXISLESS_PLOTTERS } from '../chart/axisless-plotters.js';
import { drawChart } from '../chart/draw-chart.js';
import { pathBounds, translatePath } from '../chart/geometry.js';
import type { ChartModel } from '../chart/model.js';
import type { ChartShape } from '../chart/plot-types.js';
import { measureWidth } from '../text/index.js';
import type { EngineContext } from './context.js';
import { chartForPrint } from './chart-data.js';
import { linkTo, takesContainerValue } from './hyperlinks.js';
import type { ObjectType } from './object-type.js';
import type { LaidItem, RtObject } from './runtime.js';
import { shapeLabel } from './text-label.js';
import { vectorPath } from './vector-items.js';

const charts = new WeakMap<RtObject, ChartModel>();

function shapeItem(e: EngineContext, o: ChartObjectModel, rt: RtObject, s: ChartShape, k: number): LaidItem {
  const name = `${o.name}.${s.tag ? s.tag.replace(/\//g, '.') : `shape${k}`}`;
  if (s.kind === 'text') return { item: shapeLabel(e, name, rt, s), canBreak: false };
  const b = pathBounds(s.d);
  return {
    item: vectorPath({
      name,
      x: rt.left + b.x,
      y: rt.top + b.y,
      width: b.width,
      height: b.height,
      d: translatePath(s.d, b.x, b.y),
      closed: s.closed,
      fill: s.fill,
      stroke: s.stroke,
      lineWidth: s.lineWidth,
      style: s.dash,
      round: s.round,
    }),
    canBreak: false,
  };
}

/** A chart's DetailPage/DetailReport link goes from each point (its figure and its label) with
 *  the point's category as the value: the chart sets the link's value to the point clicked. */
function linkPoints(
  e: EngineContext,
  o: ChartObjectModel,
  chart: ChartModel,
  shapes: readonly ChartShape[],
  items: readonly LaidItem[],
): void {
  const series = new Map(chart.series.map((s) => [s.name, s] as const));
  shapes.forEach((shape, k) => {
    const m = /^(.*)\/(\d+)(?:\/label)?$/.exec(shape.tag ?? '');
    const point = m ? series.get(m[1] as string)?.points[Number(m[2])] : undefined;
    const item = items[k]?.item;
    if (!point || point.empty || !item) return;
    const value = point.axisLabel !== '' ? point.axisLabel : e.scope.formatter.format(point.x, '');
    const link = linkTo(e, o.name, o.hyperlink, value);
    if (link) item.hyperlink = link;
  });
}

export const chartObject: ObjectType<ChartObjectModel> = {
  getData(e, o, rt) {
    charts.set(rt, chartForPrint(e, o));
  },
  item(e, o, rt) {
    const chart = charts.get(rt) ?? chartForPrint(e, o);
    if (chart.areas.some((a) => a.enable3D)) e.warnings.add(`${o.name}: 3-D chart drawn flat`);
    const drawing = drawChart(chart, rt.width, rt.height, {
      measure: (text, font) => {
        const r = e.resolveFont(font);
        return { width: measureWidth(text, r, e.fonts), height: r.lineHeightPx };
      },
      format: (v, f) => e.scope.formatter.format(v, f, typeof v === 'number' ? 'System.Double' : 'System.DateTime'),
      plotters: AXISLESS_PLOTTERS,
    });
    for (const w of drawing.warnings) e.warnings.add(`${o.name}: ${w}`);
    const items = drawing.shapes.map((s, k) => shapeItem(e, o, rt, s, k));
    if (takesContainerValue(o.hyperlink)) linkPoints(e, o, chart, drawing.shapes, items);
    return items;
  },
};
