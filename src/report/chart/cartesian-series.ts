// The series types drawn on axes: columns and bars (side by side, stacked, 100 %, ranges), lines
// (straight, spline, step), areas (plain, spline, stacked, 100 %), ranges, points, bubbles; the
// price types are in price-series.ts. Each point's figure is tagged "<series>/<index>" and its
// data label "<series>/<index>/label".

import type { ChartShape, PlotPoint, PlotSeries, Rect } from './plot-types.js';
import type { SeriesContext } from './cartesian-axes.js';

export type { SeriesContext };
import { COLUMN_TYPES, HUNDRED_PERCENT_TYPES, STACKED_TYPES } from './chart-types.js';
import { pointX, stackFamily } from './cartesian-scale.js';
import { ellipsePath, polylinePath, rectPath, splinePath, type Pt } from './geometry.js';
import { drawPriceSeries } from './price-series.js';
import { label, markerShape } from './series-marks.js';

/** Column width as a share of the X interval (MS Chart's PointWidth default). */
const POINT_WIDTH = 0.8;

const rectOf = (a: Pt, b: Pt): Rect => ({
  x: Math.min(a[0], b[0]),
  y: Math.min(a[1], b[1]),
  width: Math.abs(a[0] - b[0]),
  height: Math.abs(a[1] - b[1]),
});

/** The smallest X distance between points (the width of one column slot for numeric X). */
function xInterval(c: SeriesContext): number {
  const { scales } = c.frame;
  if (scales.indexed) return 1;
  const xs = [...new Set(c.all.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  let best = Infinity;
  for (let i = 1; i < xs.length; i++) best = Math.min(best, (xs[i] as number) - (xs[i - 1] as number));
  return Number.isFinite(best) && best > 0 ? best : scales.x.interval;
}

/** The slot of a column series among its side-by-side neighbours: [index, count]. */
function columnSlot(s: PlotSeries, all: readonly PlotSeries[]): [number, number] {
  const horizontal = (t: string): boolean => t.includes('Bar');
  const keys: string[] = [];
  let mine = '';
  for (const o of all) {
    if (!COLUMN_TYPES.has(o.chartType) || horizontal(o.chartType) !== horizontal(s.chartType)) continue;
    const key = STACKED_TYPES.has(o.chartType) ? `stack:${o.chartType}` : `series:${o.name}:${all.indexOf(o)}`;
    if (!keys.includes(key)) keys.push(key);
    if (o === s) mine = key;
  }
  return [Math.max(0, keys.indexOf(mine)), Math.max(1, keys.length)];
}

/** Per X, the stack below each series of a stacked family (filled as the series are drawn). */
class Stacks {
  private readonly below = new Map<string, Map<number, { pos: number; neg: number }>>();
  take(family: string, x: number, v: number): [number, number] {
    let m = this.below.get(family);
    if (!m) this.below.set(family, (m = new Map()));
    const t = m.get(x) ?? { pos: 0, neg: 0 };
    let from: number;
    if (v >= 0) {
      from = t.pos;
      t.pos += v;
    } else {
      from = t.neg;
      t.neg += v;
    }
    m.set(x, t);
    return [from, from + v];
  }
}

function columns(s: PlotSeries, c: SeriesContext, stacks: Stacks): ChartShape[] {
  const { frame } = c;
  const second = c.secondary.has(s);
  const [slot, slots] = columnSlot(s, c.all);
  const width = xInterval(c) * POINT_WIDTH;
  const each = width / slots;
  const hundred = HUNDRED_PERCENT_TYPES.has(s.chartType);
  const family = stackFamily(s.chartType);
  const totals = frame.scales.stackTotals.get(family);
  const range = s.chartType === 'RangeBar' || s.chartType === 'RangeColumn';
  const horizontal = frame.scales.horizontal;
  const ys = second && frame.scales.y2 ? frame.scales.y2 : frame.scales.y;
  const clampY = (v: number): number => Math.min(ys.max, Math.max(ys.min, v));
  const out: ChartShape[] = [];
  const labels: ChartShape[] = [];
  s.points.forEach((p, i) => {
    const x = pointX(frame.scales.indexed, p, i);
    if (p.empty) return;
    let from: number;
    let to: number;
    const v = p.ys[0] ?? 0;
    if (range) [from, to] = [v, p.ys[1] ?? 0];
    else if (STACKED_TYPES.has(s.chartType)) {
      const t = totals?.get(x);
      const scale = hundred && t ? 100 / (t.pos - t.neg || 1) : 1;
      [from, to] = stacks.take(family, x, v * scale);
    } else [from, to] = [0, v];
    const x0 = x - width / 2 + slot * each;
    const a = frame.at(x0, clampY(from), second);
    const b = frame.at(x0 + each, clampY(to), second);
    const r = rectOf(a, b);
    out.push({
      kind: 'path',
      tag: `${s.name}/${i}`,
      d: rectPath(r),
      closed: true,
      fill: p.color,
      stroke: p.borderWidth > 0 && p.borderColor.a > 0 ? p.borderColor : undefined,
      lineWidth: p.borderWidth,
    });
    const end = frame.at(x0 + each / 2, clampY(to), second);
    const positive = to >= from;
    if (STACKED_TYPES.has(s.chartType))
      labels.push(
        ...label(
          s,
          i,
          [r.x + r.width / 2, r.y + r.height / 2 + (horizontal ? 0 : c.measure('A', s.font).height / 2 + 2)],
          c,
          'above',
        ),
      );
    else if (horizontal) labels.push(...label(s, i, end, c, positive ? 'right' : 'left'));
    else labels.push(...label(s, i, end, c, positive ? 'above' : 'below'));
  });
  return [...out, ...labels];
}

/** A path holds at most this many points (exporters bound a path from all its numbers at once);
 *  a longer line or area is drawn in pieces that share their end points. */
const MAX_PATH_POINTS = 4000;

/** Inclusive index spans of at most MAX_PATH_POINTS, each starting where the last ended. */
export function pathSpans(n: number): [number, number][] {
  const out: [number, number][] = [];
  if (n <= 0) return out;
  let a = 0;
  do {
    const b = Math.min(n - 1, a + MAX_PATH_POINTS - 1);
    out.push([a, b]);
    a = b;
  } while (a < n - 1);
  return out;
}

/** The points of a line in px, split where a point is empty. */
function lineRuns(
  s: PlotSeries,
  c: SeriesContext,
  value: (p: PlotPoint, i: number) => number,
): { pts: Pt[]; idx: number[] }[] {
  const second = c.secondary.has(s);
  const runs: { pts: Pt[]; idx: number[] }[] = [];
  let run: { pts: Pt[]; idx: number[] } = { pts: [], idx: [] };
  s.points.forEach((p, i) => {
    if (p.empty) {
      if (run.pts.length > 0) runs.push(run);
      run = { pts: [], idx: [] };
      return;
    }
    run.pts.push(c.frame.at(pointX(c.frame.scales.indexed, p, i), value(p, i), second));
    run.idx.push(i);
  });
  if (run.pts.length > 0) runs.push(run);
  return runs;
}

function stepPoints(pts: readonly Pt[]): Pt[] {
  const out: Pt[] = [];
  pts.forEach((p, i) => {
    const prev = pts[i - 1];
    if (prev) out.push([p[0], prev[1]]);
    out.push(p);
  });
  return out;
}

function lines(s: PlotSeries, c: SeriesContext): ChartShape[] {
  const out: ChartShape[] = [];
  const labels: ChartShape[] = [];
  const runs = lineRuns(s, c, (p) => p.ys[0] ?? 0);
  let piece = 0;
  runs.forEach((run) => {
    if (run.pts.length > 1)
      for (const [a, b] of pathSpans(run.pts.length)) {
        const pts = run.pts.slice(a, b + 1);
        const d =
          s.chartType === 'Spline' ? splinePath(pts) : polylinePath(s.chartType === 'StepLine' ? stepPoints(pts) : pts);
        out.push({
          kind: 'path',
          tag: `${s.name}/line/${piece++}`,
          d,
          closed: false,
          stroke: s.color,
          lineWidth: Math.max(1, s.borderWidth),
          round: true,
        });
      }
    run.idx.forEach((i, j) => {
      const at = run.pts[j] as Pt;
      if (s.markerStyle !== 'None' && s.chartType !== 'FastLine') labels.push(...markerShape(s, i, at, s.markerStyle));
      labels.push(...label(s, i, at, c, 'above'));
    });
  });
  return [...out, ...labels];
}

function areas(s: PlotSeries, c: SeriesContext, stacks: Stacks): ChartShape[] {
  const { frame } = c;
  const second = c.secondary.has(s);
  const ys = second && frame.scales.y2 ? frame.scales.y2 : frame.scales.y;
  const base = Math.min(ys.max, Math.max(ys.min, 0));
  const stacked = STACKED_TYPES.has(s.chartType);
  const hundred = HUNDRED_PERCENT_TYPES.has(s.chartType);
  const family = stackFamily(s.chartType);
  const totals = frame.scales.stackTotals.get(family);
  const bottoms: number[] = [];
  const tops: number[] = [];
  s.points.forEach((p, i) => {
    const x = pointX(frame.scales.indexed, p, i);
    const v = p.empty ? 0 : (p.ys[0] ?? 0);
    if (stacked) {
      const t = totals?.get(x);
      const scale = hundred && t ? 100 / (t.pos - t.neg || 1) : 1;
      const [from, to] = stacks.take(family, x, v * scale);
      bottoms[i] = from;
      tops[i] = to;
    } else {
      bottoms[i] = base;
      tops[i] = v;
    }
  });
  const xs = s.points.map((p, i) => pointX(frame.scales.indexed, p, i));
  const top: Pt[] = xs.map((x, i) => frame.at(x, tops[i] ?? 0, second));
  const bottom: Pt[] = xs.map((x, i) => frame.at(x, bottoms[i] ?? 0, second));
  if (top.length === 0) return [];
  const spline = s.chartType === 'SplineArea';
  const out: ChartShape[] = [];
  pathSpans(top.length).forEach(([a, b], k) => {
    const upper = top.slice(a, b + 1);
    const lower = bottom.slice(a, b + 1).reverse();
    let d = spline ? splinePath(upper) : polylinePath(upper);
    d += spline && stacked ? splinePath(lower, 0.5, false) : polylinePath(lower).replace(/^M/, 'L');
    out.push({
      kind: 'path',
      tag: `${s.name}/area/${k}`,
      d: `${d}Z`,
      closed: true,
      fill: s.color,
      stroke: s.borderWidth > 0 && s.borderColor.a > 0 ? s.borderColor : undefined,
      lineWidth: s.borderWidth,
    });
  });
  top.forEach((at, i) => {
    if (s.markerStyle !== 'None') out.push(...markerShape(s, i, at, s.markerStyle));
    out.push(...label(s, i, at, c, 'above'));
  });
  return out;
}

function ranges(s: PlotSeries, c: SeriesContext): ChartShape[] {
  const out: ChartShape[] = [];
  const high = lineRuns(s, c, (p) => p.ys[1] ?? 0);
  const low = lineRuns(s, c, (p) => p.ys[0] ?? 0);
  const spline = s.chartType === 'SplineRange';
  let piece = 0;
  high.forEach((run, k) => {
    const lowRun = low[k];
    if (!lowRun || run.pts.length < 2) return;
    for (const [a, b] of pathSpans(run.pts.length)) {
      const upper = run.pts.slice(a, b + 1);
      const back = lowRun.pts.slice(a, b + 1).reverse();
      const d = spline
        ? `${splinePath(upper)}${splinePath(back, 0.5, false)}Z`
        : `${polylinePath(upper)}${polylinePath(back).replace(/^M/, 'L')}Z`;
      out.push({
        kind: 'path',
        tag: `${s.name}/range/${piece++}`,
        d,
        closed: true,
        fill: s.color,
        stroke: s.borderWidth > 0 && s.borderColor.a > 0 ? s.borderColor : undefined,
        lineWidth: s.borderWidth,
      });
    }
    run.idx.forEach((i, j) => {
      out.push(...label(s, i, run.pts[j] as Pt, c, 'above'));
    });
  });
  return out;
}

function points(s: PlotSeries, c: SeriesContext): ChartShape[] {
  const out: ChartShape[] = [];
  const second = c.secondary.has(s);
  const bubble = s.chartType === 'Bubble';
  let sizeMin = Infinity;
  let sizeMax = -Infinity;
  if (bubble)
    for (const o of c.all)
      if (o.chartType === 'Bubble')
        for (const p of o.points) {
          sizeMin = Math.min(sizeMin, p.ys[1] ?? 0);
          sizeMax = Math.max(sizeMax, p.ys[1] ?? 0);
        }
  // MS Chart's BubbleMaxSize/BubbleMinSize: 15 % and 3 % of the plot's smaller side.
  const side = Math.min(c.frame.rect.width, c.frame.rect.height);
  const maxD = side * 0.15;
  const minD = side * 0.03;
  s.points.forEach((p, i) => {
    if (p.empty) return;
    const at = c.frame.at(pointX(c.frame.scales.indexed, p, i), p.ys[0] ?? 0, second);
    if (bubble) {
      const size = p.ys[1] ?? 0;
      const d = sizeMax > sizeMin ? minD + ((size - sizeMin) / (sizeMax - sizeMin)) * (maxD - minD) : maxD;
      out.push({
        kind: 'path',
        tag: `${s.name}/${i}`,
        d: ellipsePath(at[0], at[1], d / 2, d / 2),
        closed: true,
        fill: p.color,
      });
    } else {
      const style = s.markerStyle === 'None' ? 'Circle' : s.markerStyle;
      const shapes = markerShape({ ...s, markerColor: s.markerColor ?? p.color }, i, at, style);
      for (const sh of shapes) sh.tag = `${s.name}/${i}`;
      out.push(...shapes);
    }
    out.push(...label(s, i, at, c, 'above'));
  });
  return out;
}

/** The shapes of the cartesian series of one chart area, in drawing order. */
export function drawCartesianSeries(series: readonly PlotSeries[], c: SeriesContext): ChartShape[] {
  const stacks = new Stacks();
  const out: ChartShape[] = [];
  for (const s of series) {
    const t = s.chartType;
    if (COLUMN_TYPES.has(t)) out.push(...columns(s, c, stacks));
    else if (t === 'Area' || t === 'SplineArea' || t === 'StackedArea' || t === 'StackedArea100')
      out.push(...areas(s, c, stacks));
    else if (t === 'Range' || t === 'SplineRange') out.push(...ranges(s, c));
    else if (t === 'Point' || t === 'FastPoint' || t === 'Bubble') out.push(...points(s, c));
    else if (t === 'Candlestick' || t === 'Stock' || t === 'Kagi' || t === 'Renko') out.push(...drawPriceSeries(s, c));
    else out.push(...lines(s, c));
  }
  return out;
}
