// What a chart is drawn as, and the contract between the chart's layout (chart areas, axes,
// legends, titles) and the plotters of its series types. A plotter gets its series with every
// point's values and resolved colours and the rectangle it may draw in, and answers shapes; the
// engine turns shapes into prepared items (engine/vector-items.ts for paths, labelItem for texts).
//
// Coordinates are px from the chart object's top-left corner. Path data is absolute SVG commands
// only (M, L, C, Z: arcs as cubic Béziers), so that every exporter can bound it.

import type { Color, FontSpec, HorzAlign, LineStyle, VertAlign } from '../frx/model.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One data point as a plotter sees it: values read, colours resolved (point, else series, else
 *  the palette), its label text already formatted ('' = no label). */
export interface PlotPoint {
  /** XValue (an OADate for dates); 0 for a point whose X is a category label. */
  x: number;
  /** Y values: 1 for most types; 2 for Bubble (y, size) and the range types (y1, y2); 4 for
   *  Candlestick/Stock (high, low, open, close). */
  ys: number[];
  /** The category text (AxisLabel, or the X value as text). */
  axisLabel: string;
  /** The data label to print at the point ('' = none). */
  label: string;
  color: Color;
  borderColor: Color;
  borderWidth: number;
  /** An empty point (AlignXValues' filler): drawn as nothing. */
  empty: boolean;
  /** Pie/doughnut: the slice moves out of the pie. */
  exploded: boolean;
  /** CustomProperties of the point over those of the series ("Key=Value"). */
  custom: Readonly<Record<string, string>>;
}

export interface PlotSeries {
  name: string;
  /** MS Chart's SeriesChartType name: Column, Bar, Pie, Doughnut, Funnel, Radar, … */
  chartType: string;
  color: Color;
  borderColor: Color;
  borderWidth: number;
  /** The font and colour of the data labels. */
  font: FontSpec;
  labelColor: Color;
  markerStyle: string;
  markerSize: number;
  markerColor: Color | undefined;
  /** The series' CustomProperties (PieLabelStyle, DoughnutRadius, PieDrawingStyle, …). */
  custom: Readonly<Record<string, string>>;
  points: PlotPoint[];
}

interface ShapeBase {
  /** What the shape shows, for tests reading the drawing back: "<series>/<point index>" for a
   *  point's figure, "<series>/<point index>/label" for its label, "axis-x/label/3", "legend/…". */
  tag?: string;
}

export interface PathShape extends ShapeBase {
  kind: 'path';
  d: string;
  closed: boolean;
  fill?: Color;
  stroke?: Color;
  lineWidth?: number;
  dash?: LineStyle;
  round?: boolean;
}

export interface TextShape extends ShapeBase {
  kind: 'text';
  text: string;
  /** The box the text is aligned in. */
  x: number;
  y: number;
  width: number;
  height: number;
  font: FontSpec;
  color: Color;
  horzAlign: HorzAlign;
  vertAlign: VertAlign;
  /** Degrees clockwise (axis labels turned by 90 or 270). */
  angle?: number;
}

export type ChartShape = PathShape | TextShape;

/** What a plotter may ask of its surroundings. */
export interface PlotContext {
  /** The area the series draws in: the chart area (less its title/legend) for the types
   *  without axes, the inner plot area for the others. */
  rect: Rect;
  /** A text's advance width and line height in px, in a font. */
  measure(text: string, font: FontSpec): { width: number; height: number };
  /** Optional: the chart area's axes as a circular area draws them (Radar, Polar); absent, the
   *  plotter uses a new FastReport chart's grid colour and the series' font. */
  circularAxes?: CircularAxesLook;
}

/** The look of a circular chart area's axes (Radar, Polar). */
export interface CircularAxesLook {
  /** The spokes: AxisY LineColor (MS Chart draws a Y axis at every sector). */
  lineColor?: Color;
  /** The value rings: AxisY MajorGrid LineColor. */
  gridColor?: Color;
  /** Category labels: AxisX LabelStyle. */
  categoryFont?: FontSpec;
  categoryColor?: Color;
  /** Value labels: AxisY LabelStyle. */
  valueFont?: FontSpec;
  valueColor?: Color;
}

/** A plotter for the types drawn without X/Y axes (Pie, Doughnut, Funnel, Pyramid, Radar). It
 *  draws one series (several Radar series share one chart area: `all` holds them). */
export type AxislessPlotter = (ctx: PlotContext, series: PlotSeries, all: readonly PlotSeries[]) => ChartShape[];
