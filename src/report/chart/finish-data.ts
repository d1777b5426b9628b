// What a bound series does to its points once they are read (FastReport's MSChartSeries
// FinishData, over MS Chart's DataManipulator): GroupBy XValue, the sort TopN/BottomN force, the
// sort, GroupBy an interval, Collect small values into one "Other" point, PieExplode; and, for the
// whole chart, AlignXValues (MS Chart's AlignDataPointsByAxisLabel).

import type { ChartGroupBy, ChartSeriesBindingModel, Color } from '../frx/model.js';
import type { ChartPoint } from './model.js';

export type GroupFunction = ChartSeriesBindingModel['groupFunction'];

/** What FinishData reads of an `<MSChartSeries>` (the value of PieExplodeValue already computed). */
export type FinishSettings = Pick<
  ChartSeriesBindingModel,
  | 'sortBy'
  | 'sortOrder'
  | 'groupBy'
  | 'groupInterval'
  | 'groupFunction'
  | 'collect'
  | 'collectValue'
  | 'collectedItemText'
  | 'collectedItemColor'
  | 'pieExplode'
> & { pieExplodeValue: string };

export function newPoint(x: number, ys: number[], axisLabel = ''): ChartPoint {
  return { x, ys, axisLabel, label: '', color: undefined, empty: false, custom: {} };
}

function aggregate(values: readonly number[], fn: GroupFunction): number {
  switch (fn) {
    case 'Count':
      return values.length;
    case 'Min':
      return values.reduce((a, b) => Math.min(a, b), Infinity);
    case 'Max':
      return values.reduce((a, b) => Math.max(a, b), -Infinity);
    case 'Avg':
      return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
    default:
      return values.reduce((a, b) => a + b, 0);
  }
}

/** One output point of a group: X and label of its first point, each Y aggregated. */
function mergeGroup(group: readonly ChartPoint[], fn: GroupFunction, x: number): ChartPoint {
  const first = group[0] as ChartPoint;
  const ys = first.ys.map((_, k) =>
    aggregate(
      group.map((p) => p.ys[k] ?? 0),
      fn,
    ),
  );
  return { ...first, x, ys, custom: { ...first.custom } };
}

/** GroupByAxisLabel: sorted ascending by label (culture order), equal labels merged. */
export function groupByAxisLabel(
  points: readonly ChartPoint[],
  fn: GroupFunction,
  compare: (a: string, b: string) => number,
): ChartPoint[] {
  const sorted = stableSort(points, (a, b) => compare(a.axisLabel, b.axisLabel));
  const out: ChartPoint[] = [];
  let group: ChartPoint[] = [];
  for (const p of sorted) {
    if (group.length > 0 && compare((group[0] as ChartPoint).axisLabel, p.axisLabel) !== 0) {
      out.push(mergeGroup(group, fn, (group[0] as ChartPoint).x));
      group = [];
    }
    group.push(p);
  }
  if (group.length > 0) out.push(mergeGroup(group, fn, (group[0] as ChartPoint).x));
  return out;
}

function stableSort<T>(items: readonly T[], cmp: (a: T, b: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => cmp(a.item, b.item) || a.i - b.i)
    .map((e) => e.item);
}

export function sortPoints(
  points: readonly ChartPoint[],
  by: 'XValue' | 'YValue',
  order: 'Ascending' | 'Descending',
): ChartPoint[] {
  const key = (p: ChartPoint): number => (by === 'XValue' ? p.x : (p.ys[0] ?? 0));
  const sign = order === 'Descending' ? -1 : 1;
  return stableSort(points, (a, b) => sign * (key(a) - key(b)));
}

// OADate: days since 1899-12-30 (a Date's UTC fields are the wall clock).
const OA_EPOCH = Date.UTC(1899, 11, 30);
const DAY = 86_400_000;
export const toOADate = (d: Date): number => (d.getTime() - OA_EPOCH) / DAY;
export const fromOADate = (v: number): Date => new Date(OA_EPOCH + Math.round(v * DAY));

/** The start of the interval unit holding an OADate, and the next start `n` units on. */
export function unitStart(v: number, unit: ChartGroupBy): Date {
  const d = fromOADate(v);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (unit) {
    case 'Years':
      return new Date(Date.UTC(y, 0, 1));
    case 'Months':
      return new Date(Date.UTC(y, m, 1));
    case 'Weeks':
      return new Date(Date.UTC(y, m, d.getUTCDate() - d.getUTCDay()));
    case 'Days':
      return new Date(Date.UTC(y, m, d.getUTCDate()));
    case 'Hours':
      return new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);
    case 'Minutes':
      return new Date(Math.floor(d.getTime() / 60_000) * 60_000);
    case 'Seconds':
      return new Date(Math.floor(d.getTime() / 1000) * 1000);
    default:
      return d;
  }
}

/** How many whole units lie between two unit starts. */
function unitsBetween(from: Date, to: Date, unit: ChartGroupBy): number {
  switch (unit) {
    case 'Years':
      return to.getUTCFullYear() - from.getUTCFullYear();
    case 'Months':
      return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
    case 'Weeks':
      return Math.round((to.getTime() - from.getTime()) / (7 * DAY));
    case 'Days':
      return Math.round((to.getTime() - from.getTime()) / DAY);
    case 'Hours':
      return Math.round((to.getTime() - from.getTime()) / 3_600_000);
    case 'Minutes':
      return Math.round((to.getTime() - from.getTime()) / 60_000);
    case 'Seconds':
      return Math.round((to.getTime() - from.getTime()) / 1000);
    default:
      return to.getTime() - from.getTime();
  }
}

export function addUnits(start: Date, n: number, unit: ChartGroupBy): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth();
  switch (unit) {
    case 'Years':
      return new Date(Date.UTC(y + n, 0, 1));
    case 'Months':
      return new Date(Date.UTC(y, m + n, 1));
    case 'Weeks':
      return new Date(start.getTime() + n * 7 * DAY);
    case 'Days':
      return new Date(start.getTime() + n * DAY);
    case 'Hours':
      return new Date(start.getTime() + n * 3_600_000);
    case 'Minutes':
      return new Date(start.getTime() + n * 60_000);
    case 'Seconds':
      return new Date(start.getTime() + n * 1000);
    default:
      return new Date(start.getTime() + n);
  }
}

/** Group(formula, interval, type): consecutive intervals from the first point's X (aligned to
 *  the unit); a point per non-empty interval at the interval's start. */
export function groupByInterval(
  points: readonly ChartPoint[],
  unit: ChartGroupBy,
  interval: number,
  fn: GroupFunction,
): ChartPoint[] {
  const first = points[0];
  if (!first) return [];
  const step = interval > 0 && Number.isFinite(interval) ? interval : 1;
  const groups = new Map<number, ChartPoint[]>();
  const startOf = new Map<number, number>();
  if (unit === 'Number') {
    for (const p of points) {
      const k = Math.floor((p.x - first.x) / step);
      if (!groups.has(k)) {
        groups.set(k, []);
        startOf.set(k, first.x + k * step);
      }
      groups.get(k)?.push(p);
    }
  } else {
    const origin = unitStart(first.x, unit);
    for (const p of points) {
      const k = Math.floor(unitsBetween(origin, unitStart(p.x, unit), unit) / step);
      if (!groups.has(k)) {
        groups.set(k, []);
        startOf.set(k, toOADate(addUnits(origin, k * step, unit)));
      }
      groups.get(k)?.push(p);
    }
  }
  return [...groups.entries()].map(([k, g]) => mergeGroup(g, fn, startOf.get(k) ?? 0));
}

/** Collect: TopN/BottomN keep the first N points (already sorted), the thresholds drop what they
 *  match; the dropped values go to one point labelled CollectedItemText (none when it is ''). */
export function collectPoints(points: readonly ChartPoint[], s: FinishSettings): ChartPoint[] {
  if (s.collect === 'None') return [...points];
  const total = points.reduce((a, p) => a + (p.ys[0] ?? 0), 0);
  const n = s.collectValue;
  const collected = (p: ChartPoint, i: number): boolean => {
    const v = p.ys[0] ?? 0;
    const pct = total === 0 ? 0 : (v / total) * 100;
    switch (s.collect) {
      case 'TopN':
      case 'BottomN':
        return i >= n;
      case 'LessThan':
        return v < n;
      case 'LessThanPercent':
        return pct < n;
      case 'GreaterThan':
        return v > n;
      default:
        return pct > n;
    }
  };
  const kept: ChartPoint[] = [];
  let others = 0;
  points.forEach((p, i) => {
    if (collected(p, i)) others += p.ys[0] ?? 0;
    else kept.push(p);
  });
  if (others > 0 && s.collectedItemText !== '') {
    const other = newPoint(0, [others], s.collectedItemText);
    if (s.collectedItemColor.a !== 0) other.color = s.collectedItemColor as Color;
    kept.push(other);
  }
  return kept;
}

/** PieExplode: the biggest, lowest or named point gets Exploded=true. */
export function explodePoint(points: ChartPoint[], how: FinishSettings['pieExplode'], value: string): void {
  if (how === 'None' || points.length === 0) return;
  let target: ChartPoint | undefined;
  if (how === 'SpecificValue') target = points.find((p) => p.axisLabel === value);
  else {
    const asc = stableSort(points, (a, b) => (a.ys[0] ?? 0) - (b.ys[0] ?? 0));
    target = how === 'BiggestValue' ? asc[asc.length - 1] : asc[0];
  }
  if (target) target.custom = { ...target.custom, Exploded: 'true' };
}

/** FinishData of one series, in FastReport's order. */
export function finishData(
  points: readonly ChartPoint[],
  s: FinishSettings,
  compare: (a: string, b: string) => number,
): ChartPoint[] {
  let out = [...points];
  if (s.groupBy === 'XValue') out = groupByAxisLabel(out, s.groupFunction, compare);
  let sortBy = s.sortBy;
  let sortOrder = s.sortOrder;
  if (s.collect === 'TopN' || s.collect === 'BottomN') {
    sortBy = 'YValue';
    sortOrder = s.collect === 'TopN' ? 'Descending' : 'Ascending';
  }
  if (sortBy !== 'None') out = sortPoints(out, sortBy, sortOrder);
  if (s.groupBy !== 'XValue' && s.groupBy !== 'None')
    out = groupByInterval(out, s.groupBy, s.groupInterval, s.groupFunction);
  out = collectPoints(out, s);
  explodePoint(out, s.pieExplode, s.pieExplodeValue);
  return out;
}

/** AlignXValues: every series gets every axis label (in order of first appearance over all
 *  series) at X = its index + 1, an empty point where it had none. Series with a point without a
 *  label are left as they are. */
export function alignXValues(seriesPoints: ChartPoint[][]): ChartPoint[][] {
  if (seriesPoints.some((pts) => pts.some((p) => p.axisLabel === ''))) return seriesPoints;
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const pts of seriesPoints)
    for (const p of pts)
      if (!seen.has(p.axisLabel)) {
        seen.add(p.axisLabel);
        labels.push(p.axisLabel);
      }
  return seriesPoints.map((pts) => {
    const byLabel = new Map<string, ChartPoint>();
    for (const p of pts) if (!byLabel.has(p.axisLabel)) byLabel.set(p.axisLabel, p);
    return labels.map((label, i) => {
      const p = byLabel.get(label);
      if (p) return { ...p, x: i + 1 };
      const empty = newPoint(i + 1, [0], label);
      empty.empty = true;
      return empty;
    });
  });
}
