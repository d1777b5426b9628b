// The price types: Candlestick and Stock (high, low, open, close per point), and Kagi and Renko,
// which turn a series of prices into their own figures first (derivePriceSeries: Kagi's columns
// that reverse when the price turns by 3 % of its range, Renko's bricks of 4 % of the range, as
// MS Chart's defaults), each figure then a point of [from, to] on an indexed X axis.

import type { Color } from '../frx/model.js';
import { parseColor } from '../frx/colors.js';
import type { ChartShape, PlotPoint, PlotSeries } from './plot-types.js';
import type { SeriesContext } from './cartesian-axes.js';
import { pointX } from './cartesian-scale.js';
import { polylinePath, rectPath } from './geometry.js';

const customColor = (s: PlotSeries, key: string): Color | undefined => {
  const v = s.custom[key];
  return v === undefined ? undefined : parseColor(v);
};

function percentOf(s: PlotSeries, key: string, def: number, range: number): number {
  const v = (s.custom[key] ?? '').trim();
  if (v.endsWith('%')) {
    const pct = Number(v.slice(0, -1));
    if (Number.isFinite(pct) && pct > 0) return (range * pct) / 100;
  } else if (v !== '') {
    const abs = Number(v);
    if (Number.isFinite(abs) && abs > 0) return abs;
  }
  return (range * def) / 100;
}

const figure = (base: PlotPoint, from: number, to: number, up: boolean): PlotPoint => ({
  ...base,
  x: 0,
  ys: [from, to],
  axisLabel: '',
  label: '',
  empty: false,
  custom: { ...base.custom, Up: up ? 'true' : 'false' },
});

/** Kagi and Renko: the series' figures as points [from, to]; other types as they are. */
export function derivePriceSeries(s: PlotSeries): PlotSeries {
  if (s.chartType !== 'Kagi' && s.chartType !== 'Renko') return s;
  const prices = s.points.filter((p) => !p.empty);
  const values = prices.map((p) => p.ys[0] ?? 0);
  if (values.length === 0) return { ...s, points: [] };
  const lo = values.reduce((a, b) => Math.min(a, b), Infinity);
  const hi = values.reduce((a, b) => Math.max(a, b), -Infinity);
  const range = hi - lo || 1;
  const out: PlotPoint[] = [];
  const first = prices[0] as PlotPoint;
  if (s.chartType === 'Renko') {
    let box = percentOf(s, 'BoxSize', 4, range);
    const pow = 10 ** Math.floor(Math.log10(box));
    box = Math.max(pow, Math.round(box / pow) * pow);
    let last = values[0] as number;
    for (const v of values) {
      for (let guard = 0; v >= last + box && guard < 10_000 && out.length < 10_000; guard++) {
        out.push(figure(first, last, last + box, true));
        last += box;
      }
      for (let guard = 0; v <= last - box && guard < 10_000 && out.length < 10_000; guard++) {
        out.push(figure(first, last, last - box, false));
        last -= box;
      }
    }
  } else {
    const reversal = percentOf(s, 'ReversalAmount', 3, range);
    let from = values[0] as number;
    let to = from;
    let dir = 0;
    for (const v of values.slice(1)) {
      if (dir === 0) {
        if (v !== to) dir = v > to ? 1 : -1;
        to = v;
      } else if ((dir > 0 && v >= to) || (dir < 0 && v <= to)) to = v;
      else if (Math.abs(v - to) >= reversal) {
        out.push(figure(first, from, to, dir > 0));
        from = to;
        to = v;
        dir = -dir;
      }
    }
    out.push(figure(first, from, to, dir >= 0));
  }
  return { ...s, points: out };
}

export function drawPriceSeries(s: PlotSeries, c: SeriesContext): ChartShape[] {
  const { frame } = c;
  const second = c.secondary.has(s);
  const out: ChartShape[] = [];
  const unit = 0.8;
  const up = customColor(s, 'PriceUpColor');
  const down = customColor(s, 'PriceDownColor');
  let prev: [number, number] | undefined;
  s.points.forEach((p, i) => {
    if (p.empty) return;
    const x = pointX(frame.scales.indexed, p, i);
    const tag = `${s.name}/${i}`;
    const line = s.borderColor.a > 0 ? s.borderColor : s.color;
    const width = Math.max(1, s.borderWidth);
    if (s.chartType === 'Candlestick' || s.chartType === 'Stock') {
      const [high = 0, low = 0, open = 0, close = 0] = p.ys;
      const top = frame.at(x, high, second);
      const bottom = frame.at(x, low, second);
      out.push({
        kind: 'path',
        tag: `${tag}/wick`,
        d: polylinePath([top, bottom]),
        closed: false,
        stroke: line,
        lineWidth: width,
      });
      const a = frame.at(x - unit / 2, open, second);
      const b = frame.at(x + unit / 2, close, second);
      if (s.chartType === 'Stock') {
        const o = frame.at(x, open, second);
        const cl = frame.at(x, close, second);
        out.push({
          kind: 'path',
          tag: `${tag}/open`,
          d: polylinePath([[a[0], o[1]], o]),
          closed: false,
          stroke: line,
          lineWidth: width,
        });
        out.push({
          kind: 'path',
          tag: `${tag}/close`,
          d: polylinePath([cl, [b[0], cl[1]]]),
          closed: false,
          stroke: line,
          lineWidth: width,
        });
      } else {
        const rising = close >= open;
        const fill = (rising ? up : down) ?? p.color;
        const r = {
          x: Math.min(a[0], b[0]),
          y: Math.min(a[1], b[1]),
          width: Math.abs(b[0] - a[0]),
          height: Math.max(1, Math.abs(b[1] - a[1])),
        };
        out.push({ kind: 'path', tag, d: rectPath(r), closed: true, fill, stroke: line, lineWidth: 1 });
      }
      return;
    }
    const [from = 0, to = 0] = p.ys;
    const rising = p.custom.Up === 'true';
    if (s.chartType === 'Renko') {
      const a = frame.at(x - unit / 2, from, second);
      const b = frame.at(x + unit / 2, to, second);
      const r = {
        x: Math.min(a[0], b[0]),
        y: Math.min(a[1], b[1]),
        width: Math.abs(b[0] - a[0]),
        height: Math.abs(b[1] - a[1]),
      };
      const fill = rising ? (up ?? p.color) : (down ?? { r: 255, g: 255, b: 255, a: 255 });
      out.push({ kind: 'path', tag, d: rectPath(r), closed: true, fill, stroke: line, lineWidth: 1 });
      return;
    }
    // Kagi: a vertical in this column, joined to the previous column's end by a horizontal.
    const a = frame.at(x, from, second);
    const b = frame.at(x, to, second);
    const pts: [number, number][] = prev ? [prev, [a[0], prev[1]], a, b] : [a, b];
    out.push({
      kind: 'path',
      tag,
      d: polylinePath(pts),
      closed: false,
      stroke: (rising ? up : undefined) ?? s.color,
      lineWidth: width,
    });
    prev = b;
  });
  return out;
}
