// A chart area drawn on axes: where the plot rectangle goes once the axes' labels have room, how
// values map to px, and the axes themselves (gridlines, lines, tick marks, labels, titles). For
// the bar types the X axis runs up the left side (its first category at the bottom) and the values
// along the bottom, as MS Chart draws them.

import type { Color, FontSpec, LineStyle } from '../frx/model.js';
import type { ChartAreaModel, ChartAxis } from './model.js';
import type { ChartShape, PlotSeries, Rect, TextShape } from './plot-types.js';
import { scaleTicks, type Scale } from './axis-scale.js';
import type { AreaScales } from './cartesian-scale.js';
import { polylinePath } from './geometry.js';
import { fromOADate } from './finish-data.js';
import type { ValueFormatter } from './labels.js';

export type Measure = (text: string, font: FontSpec) => { width: number; height: number };

export interface PlotFrame {
  rect: Rect;
  scales: AreaScales;
  /** The px position of (X value, Y value) on the primary (or secondary) Y axis. */
  at(xv: number, yv: number, secondary?: boolean): [number, number];
  /** px per X unit along the category axis. */
  xUnit: number;
}

export interface SeriesContext {
  frame: PlotFrame;
  measure: Measure;
  /** The area's series, for side-by-side slots and stacks. */
  all: readonly PlotSeries[];
  secondary: ReadonlySet<PlotSeries>;
}

/** What the area's axes show. */
export interface AxesSpec {
  area: ChartAreaModel;
  scales: AreaScales;
  xIsDate: boolean;
  measure: Measure;
  format: ValueFormatter;
}

interface AxisLabel {
  value: number;
  text: string;
}

const shown = (axis: ChartAxis, used: boolean): boolean => axis.enabled === 'True' || (axis.enabled === 'Auto' && used);

function xLabels(s: AxesSpec): AxisLabel[] {
  const { scales } = s;
  if (scales.indexed) {
    const every = Math.max(1, Math.round(scales.x.interval));
    return scales.categories
      .map((c, i) => ({ value: i + 1, text: c !== '' ? c : String(i + 1) }))
      .filter((l) => l.value % every === 0);
  }
  const f = s.area.axisX.labelFormat;
  if (scales.dates)
    return scales.dates.ticks.map((v) => ({
      value: v,
      text: s.format(fromOADate(v), f || scales.dates?.format || 'd'),
    }));
  return scaleTicks(scales.x).map((v) => ({
    value: v,
    text: s.xIsDate ? s.format(fromOADate(v), f || 'd') : s.format(v, f),
  }));
}

const yLabels = (scale: Scale, axis: ChartAxis, format: ValueFormatter): AxisLabel[] =>
  scaleTicks(scale).map((v) => ({ value: v, text: format(v, axis.labelFormat) }));

const DASH: Record<string, LineStyle> = { Dash: 'Dash', Dot: 'Dot', DashDot: 'DashDot', DashDotDot: 'DashDotDot' };
export const dashOf = (s: string): LineStyle => DASH[s] ?? 'Solid';

function line(
  tag: string,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  color: Color,
  width: number,
  dash = 'Solid',
): ChartShape {
  return {
    kind: 'path',
    tag,
    d: polylinePath([
      [x1, y1],
      [x2, y2],
    ]),
    closed: false,
    stroke: color,
    lineWidth: width,
    dash: dashOf(dash),
  };
}

function text(
  tag: string,
  t: string,
  box: Rect,
  axis: ChartAxis,
  h: TextShape['horzAlign'],
  v: TextShape['vertAlign'],
): TextShape {
  return {
    kind: 'text',
    tag,
    text: t,
    ...box,
    font: axis.labelFont,
    color: axis.labelColor,
    horzAlign: h,
    vertAlign: v,
  };
}

/** A label split into lines at spaces so that each fits `width` (at most three lines; a word
 *  longer than the width stays whole). */
export function wrapLabel(text: string, width: number, measureText: (t: string) => number): string {
  if (measureText(text) <= width || !text.includes(' ')) return text;
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(' ')) {
    const next = cur === '' ? word : `${cur} ${word}`;
    if (cur !== '' && measureText(next) > width && lines.length < 2) {
      lines.push(cur);
      cur = word;
    } else cur = next;
  }
  lines.push(cur);
  return lines.join('\n');
}

/** Lays out the axes in `outer`, answers the plot frame and the axes' shapes (gridlines first:
 *  the caller draws them under the series and the rest over them). */
export function layoutAxes(outer: Rect, s: AxesSpec): { frame: PlotFrame; grid: ChartShape[]; axes: ChartShape[] } {
  const { area, scales, measure } = s;
  const horizontal = scales.horizontal;
  const xAxis = area.axisX;
  const yAxis = area.axisY;
  const y2Axis = area.axisY2;
  const showX = shown(xAxis, true);
  const showY = shown(yAxis, true);
  const showY2 = shown(y2Axis, scales.y2 !== undefined);
  const xl = showX && xAxis.labelsEnabled ? xLabels(s) : [];
  const yl = showY && yAxis.labelsEnabled ? yLabels(scales.y, yAxis, s.format) : [];
  const y2l = showY2 && y2Axis.labelsEnabled && scales.y2 ? yLabels(scales.y2, y2Axis, s.format) : [];
  const tick = (a: ChartAxis): number =>
    a.majorTick.enabled ? Math.max(2, (a.majorTick.size / 100) * outer.height) : 0;
  const widest = (ls: AxisLabel[], a: ChartAxis): number =>
    ls.reduce((m, l) => Math.max(m, ...l.text.split('\n').map((t) => measure(t, a.labelFont).width)), 0);
  const tall = (a: ChartAxis): number => measure('Ag', a.labelFont).height;
  const titleRoom = (a: ChartAxis): number => (a.title ? measure(a.title, a.titleFont).height + 2 : 0);
  const gap = 3;

  // The axis on the left/bottom: Y/X for columns, X/Y for bars.
  const leftAxis = horizontal ? xAxis : yAxis;
  const bottomAxis = horizontal ? yAxis : xAxis;
  const leftLabels = horizontal ? xl : yl;
  const bottomLabels = horizontal ? yl : xl;
  const leftShown = horizontal ? showX : showY;
  const bottomShown = horizontal ? showY : showX;
  const left = leftShown ? widest(leftLabels, leftAxis) + tick(leftAxis) + gap + titleRoom(leftAxis) : 0;
  const right = showY2 && scales.y2 ? widest(y2l, y2Axis) + tick(y2Axis) + gap + titleRoom(y2Axis) : 0;
  const halfLabel = (a: ChartAxis, shownAxis: boolean): number => (shownAxis ? tall(a) / 2 : 0);
  const rect: Rect = {
    x: outer.x + left,
    y: outer.y + Math.max(halfLabel(leftAxis, leftShown), 2),
    width: 0,
    height: 0,
  };
  const lastBottom = bottomLabels[bottomLabels.length - 1];
  const rightPad = Math.max(
    right,
    lastBottom && bottomShown ? measure(lastBottom.text, bottomAxis.labelFont).width / 2 : 0,
    2,
  );
  rect.width = Math.max(1, outer.x + outer.width - rightPad - rect.x);
  // Category labels wider than their slot wrap at spaces (MS Chart wraps a label in its cell).
  if (!horizontal && scales.indexed && bottomLabels.length > 0) {
    const slot = (rect.width / (scales.x.max - scales.x.min || 1)) * scales.x.interval;
    for (const l of bottomLabels) l.text = wrapLabel(l.text, slot, (t) => measure(t, bottomAxis.labelFont).width);
  }
  const lines = bottomLabels.reduce((m, l) => Math.max(m, l.text.split('\n').length), 1);
  const bottom = bottomShown
    ? (bottomLabels.length > 0 ? lines * tall(bottomAxis) : 0) + tick(bottomAxis) + gap + titleRoom(bottomAxis)
    : 0;
  rect.height = Math.max(1, outer.y + outer.height - bottom - rect.y);

  const frac = (v: number, sc: Scale): number => (sc.max === sc.min ? 0 : (v - sc.min) / (sc.max - sc.min));
  const at = (xv: number, yv: number, secondary = false): [number, number] => {
    const ys = secondary && scales.y2 ? scales.y2 : scales.y;
    const fx = xAxis.isReversed ? 1 - frac(xv, scales.x) : frac(xv, scales.x);
    const reversed = secondary && scales.y2 ? y2Axis.isReversed : yAxis.isReversed;
    const fy = reversed ? 1 - frac(yv, ys) : frac(yv, ys);
    return horizontal
      ? [rect.x + fy * rect.width, rect.y + rect.height - fx * rect.height]
      : [rect.x + fx * rect.width, rect.y + rect.height - fy * rect.height];
  };
  const span = scales.x.max - scales.x.min || 1;
  const xUnit = (horizontal ? rect.height : rect.width) / span;
  const frame: PlotFrame = { rect, scales, at, xUnit };

  const grid: ChartShape[] = [];
  const axes: ChartShape[] = [];
  const r = rect;
  // Gridlines: across the plot at every label of the axis.
  const gridAt = (ls: AxisLabel[], a: ChartAxis, isX: boolean, name: string, second = false): void => {
    if (!a.majorGrid.enabled || ls.length === 0) return;
    ls.forEach((l, i) => {
      const [px, py] = isX ? at(l.value, scales.y.min) : at(scales.x.min, l.value, second);
      const vertical = isX !== horizontal;
      if (vertical)
        grid.push(
          line(
            `${name}/grid/${i}`,
            px,
            r.y,
            px,
            r.y + r.height,
            a.majorGrid.color,
            a.majorGrid.width,
            a.majorGrid.dash,
          ),
        );
      else
        grid.push(
          line(`${name}/grid/${i}`, r.x, py, r.x + r.width, py, a.majorGrid.color, a.majorGrid.width, a.majorGrid.dash),
        );
    });
  };
  if (showX) gridAt(showX ? (xl.length > 0 ? xl : xLabels(s)) : [], xAxis, true, 'axis-x');
  if (showY) gridAt(yLabels(scales.y, yAxis, s.format), yAxis, false, 'axis-y');

  // Axis lines, tick marks and labels.
  const drawAxis = (
    a: ChartAxis,
    ls: AxisLabel[],
    side: 'left' | 'bottom' | 'right',
    isX: boolean,
    name: string,
    second = false,
  ): void => {
    const t = tick(a);
    const lh = tall(a);
    const position = (l: AxisLabel): [number, number] =>
      isX ? at(l.value, scales.y.min) : at(scales.x.min, l.value, second);
    if (a.lineWidth > 0) {
      if (side === 'left')
        axes.push(line(`${name}/line`, r.x, r.y, r.x, r.y + r.height, a.lineColor, a.lineWidth, a.lineDash));
      else if (side === 'right')
        axes.push(
          line(`${name}/line`, r.x + r.width, r.y, r.x + r.width, r.y + r.height, a.lineColor, a.lineWidth, a.lineDash),
        );
      else
        axes.push(
          line(
            `${name}/line`,
            r.x,
            r.y + r.height,
            r.x + r.width,
            r.y + r.height,
            a.lineColor,
            a.lineWidth,
            a.lineDash,
          ),
        );
    }
    // Labels that would overlap print every k-th.
    let every = 1;
    if (side === 'bottom' && ls.length > 1) {
      const slot = Math.abs(position(ls[1] as AxisLabel)[0] - position(ls[0] as AxisLabel)[0]);
      const w = widest(ls, a) + 4;
      if (slot > 0 && w > slot) every = Math.ceil(w / slot);
    } else if (ls.length > 1) {
      const slot = Math.abs(position(ls[1] as AxisLabel)[1] - position(ls[0] as AxisLabel)[1]);
      if (slot > 0 && lh > slot) every = Math.ceil(lh / slot);
    }
    ls.forEach((l, i) => {
      const [px, py] = position(l);
      if (t > 0 && a.lineWidth >= 0) {
        if (side === 'left')
          axes.push(line(`${name}/tick/${i}`, r.x - t, py, r.x, py, a.majorTick.color, a.majorTick.width));
        else if (side === 'right')
          axes.push(
            line(`${name}/tick/${i}`, r.x + r.width, py, r.x + r.width + t, py, a.majorTick.color, a.majorTick.width),
          );
        else
          axes.push(
            line(`${name}/tick/${i}`, px, r.y + r.height, px, r.y + r.height + t, a.majorTick.color, a.majorTick.width),
          );
      }
      if (i % every !== 0) return;
      const w = widest([l], a) + 2;
      const lh = tall(a) * l.text.split('\n').length;
      if (side === 'left')
        axes.push(
          text(
            `${name}/label/${i}`,
            l.text,
            { x: r.x - t - gap - w, y: py - lh / 2, width: w, height: lh },
            a,
            'Right',
            'Center',
          ),
        );
      else if (side === 'right')
        axes.push(
          text(
            `${name}/label/${i}`,
            l.text,
            { x: r.x + r.width + t + gap, y: py - lh / 2, width: w, height: lh },
            a,
            'Left',
            'Center',
          ),
        );
      else
        axes.push(
          text(
            `${name}/label/${i}`,
            l.text,
            { x: px - w / 2, y: r.y + r.height + t + 1, width: w, height: lh },
            a,
            'Center',
            'Top',
          ),
        );
    });
    if (a.title) {
      const th = measure(a.title, a.titleFont).height;
      const base = {
        kind: 'text' as const,
        tag: `${name}/title`,
        text: a.title,
        font: a.titleFont,
        color: a.titleColor,
      };
      if (side === 'bottom')
        axes.push({
          ...base,
          x: r.x,
          y: outer.y + outer.height - th,
          width: r.width,
          height: th,
          horzAlign: 'Center',
          vertAlign: 'Center',
        });
      else
        axes.push({
          ...base,
          x: side === 'left' ? outer.x : outer.x + outer.width - th,
          y: r.y,
          width: th,
          height: r.height,
          horzAlign: 'Center',
          vertAlign: 'Center',
          angle: side === 'left' ? 270 : 90,
        });
    }
  };
  if (showX) drawAxis(xAxis, xl, horizontal ? 'left' : 'bottom', true, 'axis-x');
  if (showY) drawAxis(yAxis, yl, horizontal ? 'bottom' : 'left', false, 'axis-y');
  if (showY2 && scales.y2) drawAxis(y2Axis, y2l, 'right', false, 'axis-y2', true);
  return { frame, grid, axes };
}
