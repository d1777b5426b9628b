// A chart → the shapes that draw it in a width × height box: background, border (BorderSkin as a
// plain frame), titles, legends, then each chart area with its series, on axes or by the plotters
// of the types drawn without axes. Series colours come from the palette; data labels are
// expanded here. 3-D areas are drawn flat (the caller says so).

import type { Color } from '../frx/model.js';
import type { AxislessPlotter, ChartShape, PlotSeries, Rect } from './plot-types.js';
import type { ChartModel, ChartSeries } from './model.js';
import { AXISLESS_TYPES, CARTESIAN_TYPES, POINT_COLORED_TYPES } from './chart-types.js';
import { layoutAxes, type Measure } from './cartesian-axes.js';
import { areaScales } from './cartesian-scale.js';
import { drawCartesianSeries } from './cartesian-series.js';
import { derivePriceSeries } from './price-series.js';
import { isDateType, pointLabel, xText, type ValueFormatter } from './labels.js';
import { placeLegend, placeTitles, type LegendItem } from './legend.js';
import { rectPath } from './geometry.js';

export interface ChartDrawEnv {
  measure: Measure;
  format: ValueFormatter;
  plotters: Readonly<Record<string, AxislessPlotter>>;
}

export interface ChartDrawing {
  shapes: ChartShape[];
  /** Things the drawing leaves out (a type nobody draws). */
  warnings: string[];
}

const TRANSPARENT: Color = { r: 255, g: 255, b: 255, a: 0 };
const GRAY: Color = { r: 169, g: 169, b: 169, a: 255 };

/** A series with its colours resolved and its labels expanded. */
export function plotSeries(chart: ChartModel, s: ChartSeries, index: number, format: ValueFormatter): PlotSeries {
  const pal = chart.palette;
  const color = s.color ?? pal[index % pal.length] ?? GRAY;
  const perPoint = POINT_COLORED_TYPES.has(s.chartType);
  const border = s.borderColor ?? TRANSPARENT;
  return {
    name: s.name,
    chartType: s.chartType,
    color,
    borderColor: border,
    borderWidth: s.borderWidth,
    font: s.font,
    labelColor: s.labelForeColor,
    markerStyle: s.markerStyle,
    markerSize: s.markerSize,
    markerColor: s.markerColor,
    custom: s.custom,
    points: s.points.map((p, j) => ({
      x: p.x,
      ys: p.ys,
      axisLabel: p.axisLabel !== '' ? p.axisLabel : perPoint ? xText(s, p, '', format) : '',
      label: pointLabel(s, j, format),
      color: p.color ?? (perPoint ? (pal[j % pal.length] ?? GRAY) : color),
      borderColor: border,
      borderWidth: s.borderWidth,
      empty: p.empty,
      exploded: (p.custom.Exploded ?? '').toLowerCase() === 'true',
      custom: { ...s.custom, ...p.custom },
    })),
  };
}

function legendItems(chart: ChartModel, plots: readonly PlotSeries[], legendIndex: number): LegendItem[] {
  const names = new Set(chart.legends.map((l) => l.name));
  const legendName = chart.legends[legendIndex]?.name;
  const items: LegendItem[] = [];
  chart.series.forEach((s, i) => {
    const mine = s.legend === legendName || (legendIndex === 0 && !names.has(s.legend));
    const p = plots[i];
    if (!mine || !s.enabled || !s.isVisibleInLegend || !p) return;
    if (POINT_COLORED_TYPES.has(s.chartType))
      for (const pt of p.points) {
        if (!pt.empty) items.push({ text: pt.axisLabel, color: pt.color });
      }
    else items.push({ text: s.legendText || s.name, color: p.color });
  });
  return items;
}

function inset(r: Rect, d: number): Rect {
  return { x: r.x + d, y: r.y + d, width: Math.max(0, r.width - 2 * d), height: Math.max(0, r.height - 2 * d) };
}

export function drawChart(chart: ChartModel, width: number, height: number, env: ChartDrawEnv): ChartDrawing {
  const shapes: ChartShape[] = [];
  const warnings: string[] = [];
  const whole: Rect = { x: 0, y: 0, width, height };
  if (chart.backColor.a > 0)
    shapes.push({ kind: 'path', tag: 'back', d: rectPath(whole), closed: true, fill: chart.backColor });
  let room = whole;
  const border = chart.borderlineDash !== 'NotSet' && chart.borderlineWidth > 0 && chart.borderlineColor.a > 0;
  if (chart.borderSkin !== 'None') {
    // BorderSkin (Emboss and the frames): a plain frame, no bevel.
    shapes.push({
      kind: 'path',
      tag: 'skin',
      d: rectPath(inset(whole, 0.5)),
      closed: true,
      stroke: GRAY,
      lineWidth: 1,
    });
    room = inset(room, 5);
  }
  if (border) {
    const w = chart.borderlineWidth;
    shapes.push({
      kind: 'path',
      tag: 'border',
      d: rectPath(inset(room, w / 2)),
      closed: true,
      stroke: chart.borderlineColor,
      lineWidth: w,
    });
    room = inset(room, w);
  }
  room = inset(room, 3);
  room = placeTitles(room, chart.titles, env.measure, shapes);
  const plots = chart.series.map((s, i) => plotSeries(chart, s, i, env.format));
  // Legends dock to the chart (DockedToChartArea, which would put one inside an area, is not read).
  chart.legends.forEach((l, i) => {
    room = placeLegend(room, l, legendItems(chart, plots, i), env.measure, shapes, i);
  });

  // Each series in its chart area (the first when it names none that exists).
  const areaNames = chart.areas.map((a) => a.name);
  const byArea = chart.areas.map(() => [] as number[]);
  chart.series.forEach((s, i) => {
    if (!s.enabled) return;
    const k = areaNames.indexOf(s.chartArea);
    byArea[Math.max(k, 0)]?.push(i);
  });
  const used = chart.areas.map((a, k) => ({ area: a, series: byArea[k] ?? [] })).filter((u) => u.area.visible);
  const shown = used.filter((u) => u.series.length > 0);
  const list = shown.length > 0 ? shown : used.slice(0, 1);
  const each = list.length > 0 ? room.height / list.length : 0;
  const missing = new Set<string>();
  list.forEach((u, k) => {
    const rect: Rect = { x: room.x, y: room.y + k * each, width: room.width, height: each };
    if (u.area.backColor.a > 0)
      shapes.push({ kind: 'path', tag: `area/${k}/back`, d: rectPath(rect), closed: true, fill: u.area.backColor });
    const axisless = u.series.filter((i) => AXISLESS_TYPES.has(chart.series[i]?.chartType ?? ''));
    const cartesian = u.series.filter((i) => CARTESIAN_TYPES.has(chart.series[i]?.chartType ?? ''));
    for (const i of u.series) {
      const t = chart.series[i]?.chartType ?? '';
      if (!AXISLESS_TYPES.has(t) && !CARTESIAN_TYPES.has(t)) missing.add(t);
    }
    const axislessPlots = axisless.map((i) => plots[i] as PlotSeries);
    for (const p of axislessPlots) {
      const plotter = env.plotters[p.chartType];
      if (!plotter) {
        missing.add(p.chartType);
        continue;
      }
      shapes.push(...plotter({ rect, measure: env.measure }, p, axislessPlots));
    }
    if (cartesian.length > 0 || axisless.length === 0) {
      const series = cartesian.map((i) => derivePriceSeries(plots[i] as PlotSeries));
      const secondary = new Set(
        series.filter((_, j) => chart.series[cartesian[j] as number]?.yAxisType === 'Secondary'),
      );
      const xIsDate = cartesian.some((i) => isDateType(chart.series[i]?.xValueType ?? ''));
      const indexed = cartesian.some((i) => chart.series[i]?.isXValueIndexed === true);
      const axes3 = { x: u.area.axisX, y: u.area.axisY, y2: u.area.axisY2 };
      const scales = areaScales(series, axes3, secondary, indexed, xIsDate);
      const { frame, grid, axes } = layoutAxes(rect, {
        area: u.area,
        scales,
        xIsDate,
        measure: env.measure,
        format: env.format,
      });
      shapes.push(...grid);
      shapes.push(...drawCartesianSeries(series, { frame, measure: env.measure, all: series, secondary }));
      shapes.push(...axes);
    }
  });
  for (const t of missing) warnings.push(`chart type ${t} is not drawn`);
  return { shapes, warnings };
}
