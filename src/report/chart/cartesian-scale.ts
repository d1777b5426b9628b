// The scales of a chart area drawn on axes: the X axis (categories by point index, or numbers and
// dates) and the primary and secondary Y axes over what the area's series show (stacks summed,
// 100 % stacks in percent, ranges and prices over all their values).

import type { ChartAxis } from './model.js';
import type { PlotPoint, PlotSeries } from './plot-types.js';
import { COLUMN_TYPES, HORIZONTAL_TYPES, HUNDRED_PERCENT_TYPES, RANGE_TYPES, STACKED_TYPES } from './chart-types.js';
import { niceInterval, valueScale, type Scale } from './axis-scale.js';
import { dateTicks, type DateTicks } from './date-axis.js';

export interface AreaScales {
  /** X is the point's index (categories): point i sits at i + 1. */
  indexed: boolean;
  /** The category labels of an indexed axis (index i → position i + 1). */
  categories: string[];
  x: Scale;
  y: Scale;
  y2: Scale | undefined;
  horizontal: boolean;
  /** Per stacked family, per position: the running totals (for stacks and 100 %). */
  stackTotals: Map<string, Map<number, { pos: number; neg: number }>>;
  /** A date X axis' labels (OADates) and their format. */
  dates: DateTicks | undefined;
}

/** The X value a point is drawn at. */
export const pointX = (indexed: boolean, p: PlotPoint, i: number): number => (indexed ? i + 1 : p.x);

/** The stack a stacked type belongs to (columns and bars stack apart from areas). */
export const stackFamily = (type: string): string => type.replace(/100$/, '') + (type.endsWith('100') ? '100' : '');

/** The values a series puts on its Y axis. */
function seriesValues(s: PlotSeries): number[] {
  const out: number[] = [];
  for (const p of s.points) {
    if (p.empty) continue;
    if (RANGE_TYPES.has(s.chartType) || s.chartType === 'Kagi' || s.chartType === 'Renko') out.push(...p.ys);
    else out.push(p.ys[0] ?? 0);
  }
  return out.filter(Number.isFinite);
}

export function stackTotals(series: readonly PlotSeries[], indexed: boolean) {
  const totals = new Map<string, Map<number, { pos: number; neg: number }>>();
  for (const s of series) {
    if (!STACKED_TYPES.has(s.chartType)) continue;
    const fam = stackFamily(s.chartType);
    let m = totals.get(fam);
    if (!m) totals.set(fam, (m = new Map()));
    s.points.forEach((p, i) => {
      if (p.empty) return;
      const x = pointX(indexed, p, i);
      const t = m.get(x) ?? { pos: 0, neg: 0 };
      const v = p.ys[0] ?? 0;
      if (v >= 0) t.pos += v;
      else t.neg += v;
      m.set(x, t);
    });
  }
  return totals;
}

function yRange(series: readonly PlotSeries[], totals: AreaScales['stackTotals']): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    if (HUNDRED_PERCENT_TYPES.has(s.chartType)) {
      lo = Math.min(lo, 0);
      hi = Math.max(hi, 100);
      continue;
    }
    if (STACKED_TYPES.has(s.chartType)) {
      for (const t of totals.get(stackFamily(s.chartType))?.values() ?? []) {
        lo = Math.min(lo, t.neg);
        hi = Math.max(hi, t.pos);
      }
      continue;
    }
    for (const v of seriesValues(s)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  return [lo, hi];
}

function axisScale(
  series: readonly PlotSeries[],
  axis: ChartAxis,
  totals: AreaScales['stackTotals'],
  intervals: number,
): Scale {
  const [lo, hi] = yRange(series, totals);
  const hundred = series.length > 0 && series.every((s) => HUNDRED_PERCENT_TYPES.has(s.chartType));
  const price =
    series.length > 0 && series.every((s) => ['Candlestick', 'Stock', 'Kagi', 'Renko'].includes(s.chartType));
  const scale = valueScale(Number.isFinite(lo) ? lo : 0, Number.isFinite(hi) ? hi : 0, {
    startFromZero: axis.isStartedFromZero && !price,
    min: axis.minimum,
    max: axis.maximum ?? (hundred ? 100 : undefined),
    interval: axis.interval,
    intervals,
  });
  return scale;
}

export function areaScales(
  series: readonly PlotSeries[],
  axes: { x: ChartAxis; y: ChartAxis; y2: ChartAxis },
  secondary: ReadonlySet<PlotSeries>,
  xValueIndexed = false,
  xIsDate = false,
): AreaScales {
  const horizontal = series.some((s) => HORIZONTAL_TYPES.has(s.chartType));
  // Categories: IsXValueIndexed, X values all 0 (text X), or labelled points at 1, 2, 3…
  // (AlignXValues' result).
  const indexed =
    xValueIndexed ||
    series.some((s) => s.chartType === 'Kagi' || s.chartType === 'Renko') ||
    series.every((s) => s.points.every((p) => p.x === 0)) ||
    series.every((s) => s.points.every((p, i) => p.axisLabel !== '' && p.x === i + 1));
  const categories: string[] = [];
  let count = 0;
  for (const s of series) count = Math.max(count, s.points.length);
  for (let i = 0; i < count; i++) categories.push(series.map((s) => s.points[i]?.axisLabel ?? '').find((l) => l) ?? '');
  let x: Scale;
  let dates: DateTicks | undefined;
  if (indexed) {
    // Without margins columns still need half an interval each side to be whole.
    const half = series.some(
      (s) => COLUMN_TYPES.has(s.chartType) || s.chartType === 'Candlestick' || s.chartType === 'Renko',
    );
    x = axes.x.isMarginVisible
      ? { min: 0, max: count + 1, interval: 1 }
      : half
        ? { min: 0.5, max: count + 0.5, interval: 1 }
        : { min: 1, max: Math.max(count, 2), interval: 1 };
    // One label per point up to 20 intervals, else about five (MS Chart's EstimateNumberAxis).
    if (axes.x.interval !== undefined && axes.x.interval > 0) x.interval = axes.x.interval;
    else if (x.max - x.min > 20) x.interval = niceInterval((x.max - x.min) / 5);
  } else {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of series)
      for (const p of s.points) {
        lo = Math.min(lo, p.x);
        hi = Math.max(hi, p.x);
      }
    if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
    if (xIsDate) {
      // With margins the ends move out by half the closest spacing of two points (whole columns).
      const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
      let spacing = Infinity;
      for (let i = 1; i < xs.length; i++) spacing = Math.min(spacing, (xs[i] as number) - (xs[i - 1] as number));
      const pad = axes.x.isMarginVisible ? (Number.isFinite(spacing) ? spacing / 2 : 1) : 0;
      const min = axes.x.minimum ?? lo - pad;
      const max = axes.x.maximum ?? (hi > lo ? hi : lo + 1) + pad;
      dates = dateTicks(min, max);
      x = { min, max, interval: 1 };
    } else if (axes.x.isMarginVisible)
      x = valueScale(lo, hi, { startFromZero: false, min: axes.x.minimum, max: axes.x.maximum });
    else {
      const span = hi > lo ? hi - lo : 1;
      x = {
        min: axes.x.minimum ?? lo,
        max: axes.x.maximum ?? (hi > lo ? hi : lo + 1),
        interval: niceInterval(span / 5),
      };
    }
  }
  const primary = series.filter((s) => !secondary.has(s));
  const second = series.filter((s) => secondary.has(s));
  const totals = stackTotals(series, indexed);
  return {
    indexed,
    categories,
    x,
    y: axisScale(primary.length > 0 ? primary : series, axes.y, totals, 5),
    y2: second.length > 0 ? axisScale(second, axes.y2, totals, 5) : undefined,
    horizontal,
    stackTotals: totals,
    dates,
  };
}
