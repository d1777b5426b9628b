// Hand-built PlotSeries for the axisless plotters' tests, and a reader for the path data they
// draw (absolute M/L/C/Z only).

import { rgba } from '../../../src/report/frx/colors.js';
import type {
  ChartShape,
  PathShape,
  PlotContext,
  PlotPoint,
  PlotSeries,
  Rect,
  TextShape,
} from '../../../src/report/chart/plot-types.js';
import { DEFAULT_FONT } from '../../../src/report/text/font-spec.js';

const PER_POINT = new Set(['Pie', 'Doughnut', 'Funnel', 'Pyramid']);

export const PALETTE = [rgba(65, 140, 240), rgba(252, 180, 65), rgba(224, 64, 10), rgba(5, 100, 146)];

/** A fixed-pitch measure: 6 px a character, 12 px a line. */
export function context(rect: Rect): PlotContext {
  return { rect, measure: (text) => ({ width: 6 * text.length, height: 12 }) };
}

export function point(y: number, extra: Partial<PlotPoint> = {}, i = 0): PlotPoint {
  return {
    x: 0,
    ys: [y],
    axisLabel: `P${i}`,
    label: '',
    color: PALETTE[i % PALETTE.length]!,
    borderColor: rgba(0, 0, 0, 0),
    borderWidth: 1,
    empty: false,
    exploded: false,
    custom: {},
    ...extra,
  };
}

export function series(
  chartType: string,
  ys: readonly number[],
  opts: { name?: string; custom?: Record<string, string>; label?: (y: number, i: number) => string } = {},
  pointExtra: (i: number) => Partial<PlotPoint> = () => ({}),
): PlotSeries {
  const custom = opts.custom ?? {};
  return {
    name: opts.name ?? 'S',
    chartType,
    color: PALETTE[0]!,
    borderColor: rgba(0, 0, 0, 0),
    borderWidth: 1,
    font: DEFAULT_FONT,
    labelColor: rgba(0, 0, 0),
    markerStyle: 'None',
    markerSize: 5,
    markerColor: undefined,
    custom,
    points: ys.map((y, i) => {
      const extra = pointExtra(i);
      // Pie, Doughnut, Funnel and Pyramid colour each point from the palette; the others take
      // the series' colour.
      const color = PER_POINT.has(chartType) ? PALETTE[i % PALETTE.length]! : PALETTE[0]!;
      return point(y, { label: opts.label?.(y, i) ?? '', color, ...extra, custom: { ...custom, ...extra.custom } }, i);
    }),
  };
}

export interface Cmd {
  c: 'M' | 'L' | 'C' | 'Z';
  n: number[];
}

export function readPath(d: string): Cmd[] {
  const out: Cmd[] = [];
  const re = /([MLCZz])([^MLCZz]*)/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(d))) {
    consumed += m[0].length;
    const n = m[2]!.trim() === '' ? [] : m[2]!.trim().split(/[ ,]+/).map(Number);
    out.push({ c: m[1]!.toUpperCase() as Cmd['c'], n });
  }
  if (consumed !== d.length) throw new Error(`unexpected path commands in ${d}`);
  return out;
}

/** Every (x, y) the path names, end points and control points alike. */
export function coords(d: string): [number, number][] {
  const out: [number, number][] = [];
  for (const { n } of readPath(d)) for (let i = 0; i + 1 < n.length; i += 2) out.push([n[i]!, n[i + 1]!]);
  return out;
}

/** The vertices of a polygon path (its M and L points). */
export function vertices(d: string): [number, number][] {
  return readPath(d)
    .filter((c) => c.c === 'M' || c.c === 'L')
    .map((c) => [c.n[0]!, c.n[1]!]);
}

export const paths = (shapes: readonly ChartShape[]): PathShape[] =>
  shapes.filter((s): s is PathShape => s.kind === 'path');
export const texts = (shapes: readonly ChartShape[]): TextShape[] =>
  shapes.filter((s): s is TextShape => s.kind === 'text');
export const byTag = (shapes: readonly ChartShape[], tag: string): ChartShape | undefined =>
  shapes.find((s) => s.tag === tag);

export function insideRect(b: { x: number; y: number; width: number; height: number }, r: Rect, eps = 1e-6): boolean {
  return (
    b.x >= r.x - eps &&
    b.y >= r.y - eps &&
    b.x + b.width <= r.x + r.width + eps &&
    b.y + b.height <= r.y + r.height + eps
  );
}

export function boxesOverlap(a: TextShape, b: TextShape): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Every number in every shape is finite and every point lies in the rect (grown by `slack`). */
export function bounded(shapes: readonly ChartShape[], r: Rect, slack = 0.5): boolean {
  for (const s of shapes) {
    if (s.kind === 'text') {
      if (![s.x, s.y, s.width, s.height].every(Number.isFinite)) return false;
      continue;
    }
    if (/NaN|Infinity/.test(s.d)) return false;
    for (const [x, y] of coords(s.d)) {
      if (x < r.x - slack || y < r.y - slack || x > r.x + r.width + slack || y > r.y + r.height + slack) return false;
    }
  }
  return true;
}
