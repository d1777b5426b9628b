// The segments of a Funnel or Pyramid, after MS Chart's FunnelChart and PyramidChart (MIT; facts
// only). The funnel fills its plot area:
// - Funnel, FunnelStyle YIsHeight (default): segments stacked from the top, each as tall as its
//   share of Σ|Y|; the walls run from the plot area's top corners to the neck (FunnelNeckWidth ×
//   FunnelNeckHeight, % of the area, default 5 × 5) and the neck goes straight down;
// - Funnel, FunnelStyle YIsWidth: the first point gives the top width only; each further point a
//   segment of equal height (or |X| share when X values are set) whose widths are Y / max Y;
// - Pyramid: point 0 at the bottom, stacked upwards, inside the triangle from the bottom corners
//   to the top centre; PyramidValueType Surface makes the segments' areas (not their heights)
//   follow the values;
// - FunnelPointGap / PyramidPointGap (% of the area's height) between segments; with a gap no
//   segment is thinner than min(2, gap/2) px; FunnelMinPointHeight (% of the total) raises small
//   values.

import { customNumber, customWord, yOf } from './plot-custom.js';
import type { PlotPoint, PlotSeries, Rect } from './plot-types.js';

export interface Segment {
  index: number;
  /** The top edge (y). */
  top: number;
  height: number;
  topWidth: number;
  bottomWidth: number;
}

export interface FunnelSpec {
  pyramid: boolean;
  /** YIsWidth (Funnel only): widths from values, first point not drawn. */
  yIsWidth: boolean;
  neck: { width: number; height: number };
  gap: number;
  /** The values used for heights (|Y|, min-height and surface applied), per point. */
  values: number[];
  total: number;
  max: number;
  xs: number[];
  xTotal: number;
}

/** Custom property names: Funnel… for a funnel, Pyramid… for a pyramid. */
export const prop = (pyramid: boolean, rest: string): string => (pyramid ? 'Pyramid' : 'Funnel') + rest;

function magnitudes(points: readonly PlotPoint[], pyramid: boolean, custom: Readonly<Record<string, string>>) {
  let max = 0;
  for (const p of points) if (!p.empty) max = Math.max(max, Math.abs(yOf(p)));
  // Scaled by the largest value: the proportions are all that matters, and sums stay finite.
  let ys = points.map((p) => (p.empty || max === 0 ? 0 : Math.abs(yOf(p)) / max));
  if (pyramid && customWord(custom, 'PyramidValueType', ['Linear', 'Surface'], 'Linear') === 'Surface') {
    // MS Chart: the triangle of area Σy and height 100; a value's height is y/100 times the
    // height of the triangle part holding it and everything below.
    const area = ys.reduce((s, y) => s + y, 0);
    const ratio = (2 * area) / 100 / 100;
    let below = 0;
    ys = ys.map((y) => {
      below += y;
      return ratio > 0 ? (y / 100) * Math.sqrt((2 * below) / ratio) : 0;
    });
  }
  const minPct = customNumber(custom, prop(pyramid, 'MinPointHeight'), 0, 0, 100);
  if (minPct > 0) {
    const floor = (ys.reduce((s, y) => s + y, 0) * minPct) / 100;
    ys = ys.map((y, i) => (points[i]!.empty ? 0 : Math.max(y, floor)));
  }
  return ys;
}

export function funnelSpec(series: PlotSeries, area: Rect): FunnelSpec {
  const pyramid = series.chartType === 'Pyramid';
  const c = series.custom;
  const values = magnitudes(series.points, pyramid, c);
  const xs = series.points.map((p) => (p.empty || !Number.isFinite(p.x) ? 0 : Math.abs(p.x)));
  const xMax = Math.max(0, ...xs.slice(0, 100_000));
  const yIsWidth = !pyramid && customWord(c, 'FunnelStyle', ['YIsHeight', 'YIsWidth'], 'YIsHeight') === 'YIsWidth';
  const gapPct = customNumber(c, prop(pyramid, 'PointGap'), 0, 0, Number.MAX_VALUE);
  return {
    pyramid,
    yIsWidth,
    neck: {
      width: (customNumber(c, 'FunnelNeckWidth', 5, 0, 100) * area.width) / 100,
      height: (customNumber(c, 'FunnelNeckHeight', 5, 0, 100) * area.height) / 100,
    },
    gap: (gapPct * area.height) / 100,
    values,
    total: values.reduce((s, v) => s + v, 0),
    max: values.reduce((m, v) => Math.max(m, v), 0),
    xs: xMax > 0 ? xs.map((x) => x / xMax) : xs,
    xTotal: xMax > 0 ? xs.reduce((s, x) => s + x / xMax, 0) : 0,
  };
}

/** Whether the first point has a segment of its own (not with YIsWidth). */
export const drawsFirst = (s: FunnelSpec): boolean => !s.yIsWidth;

export function segments(s: FunnelSpec, plot: Rect): Segment[] {
  const n = s.values.length;
  const gaps = n - (drawsFirst(s) ? 1 : 2);
  const gap = gaps > 0 ? Math.max(0, Math.min(s.gap, plot.height / gaps)) : 0;
  const room = Math.max(0, plot.height - gap * Math.max(0, gaps));
  const minHeight = Math.min(2, gap / 2);
  const cx = plot.x + plot.width / 2;
  const bottom = plot.y + plot.height;
  const neck = { width: Math.min(s.neck.width, plot.width / 2), height: Math.min(s.neck.height, plot.height / 2) };
  // The funnel's left wall: from the top-left corner to the neck's top-left corner.
  const wallDy = bottom - neck.height - plot.y;
  const wallDx = cx - neck.width / 2 - plot.x;
  const funnelWidth = (y: number): number => (wallDy > 0 ? 2 * (cx - (plot.x + ((y - plot.y) * wallDx) / wallDy)) : 0);
  const pyramidWidth = (y: number): number =>
    plot.height > 0 ? Math.max(0, Math.min(plot.width, (plot.width * (y - plot.y)) / plot.height)) : 0;
  const out: Segment[] = [];
  let at = s.pyramid ? bottom : plot.y;
  for (let i = drawsFirst(s) ? 0 : 1; i < n; i++) {
    let height: number;
    if (s.yIsWidth) height = s.xTotal === 0 ? room / (n - 1) : (room * s.xs[i]!) / s.xTotal;
    else height = s.total > 0 ? (room * s.values[i]!) / s.total : 0;
    if (gap > 0 && height < minHeight) height = minHeight;
    const top = s.pyramid ? at - height : at;
    let topWidth: number;
    let bottomWidth: number;
    if (s.yIsWidth) {
      topWidth = s.max > 0 ? (plot.width * s.values[i - 1]!) / s.max : 0;
      bottomWidth = s.max > 0 ? (plot.width * s.values[i]!) / s.max : 0;
    } else if (s.pyramid) {
      topWidth = pyramidWidth(top);
      bottomWidth = pyramidWidth(top + height);
    } else {
      topWidth = funnelWidth(top);
      bottomWidth = funnelWidth(top + height);
    }
    out.push({ index: i, top, height, topWidth, bottomWidth });
    at = s.pyramid ? at - height - gap : at + height + gap;
  }
  return out;
}

/** The outline of a segment, clockwise from its top-left corner; a funnel segment that holds
 *  the neck's top bends there and runs straight down. */
export function segmentOutline(s: FunnelSpec, plot: Rect, g: Segment): [number, number][] {
  const cx = plot.x + plot.width / 2;
  const neckWidth = Math.min(s.neck.width, plot.width / 2);
  const neckTop = plot.y + plot.height - Math.min(s.neck.height, plot.height / 2);
  const yIsHeightFunnel = !s.pyramid && !s.yIsWidth;
  const tw = yIsHeightFunnel ? Math.max(g.topWidth, neckWidth) : g.topWidth;
  const bw = yIsHeightFunnel ? Math.max(g.bottomWidth, neckWidth) : g.bottomWidth;
  const y0 = g.top;
  const y1 = g.top + g.height;
  if (yIsHeightFunnel && g.topWidth > neckWidth && g.bottomWidth <= neckWidth) {
    const h = neckWidth / 2;
    return [
      [cx - tw / 2, y0],
      [cx + tw / 2, y0],
      [cx + h, neckTop],
      [cx + h, y1],
      [cx - h, y1],
      [cx - h, neckTop],
    ];
  }
  return [
    [cx - tw / 2, y0],
    [cx + tw / 2, y0],
    [cx + bw / 2, y1],
    [cx - bw / 2, y1],
  ];
}
