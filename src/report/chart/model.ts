// The chart as MS Chart's XML serialization describes it (the part a report draws): series with
// their points, chart areas with four axes, legends, titles, the palette and the border. Values
// the XML omits are MS Chart's defaults, filled in by chart-xml.ts.

import type { Color, FontSpec } from '../frx/model.js';

export interface ChartPoint {
  /** XValue: a number, an OADate for dates; 0 when X is a category (the AxisLabel). */
  x: number;
  /** The Y values (YValuesPerPoint of them). */
  ys: number[];
  axisLabel: string;
  /** The point's own Label ('' = the series'). */
  label: string;
  /** The point's own colour, else the series' (or the palette). */
  color: Color | undefined;
  /** An empty point (AlignXValues' filler, IsEmpty="True"): nothing is drawn for it. */
  empty: boolean;
  custom: Record<string, string>;
}

export interface ChartSeries {
  name: string;
  /** Enabled="False" hides the series (and its legend item). */
  enabled: boolean;
  chartType: string;
  chartArea: string;
  legend: string;
  legendText: string;
  isVisibleInLegend: boolean;
  color: Color | undefined;
  borderColor: Color | undefined;
  borderWidth: number;
  borderDashStyle: string;
  /** The label format of every point ('' = none) and IsValueShownAsLabel. */
  label: string;
  isValueShownAsLabel: boolean;
  labelFormat: string;
  font: FontSpec;
  labelForeColor: Color;
  markerStyle: string;
  markerSize: number;
  markerColor: Color | undefined;
  markerBorderColor: Color | undefined;
  markerBorderWidth: number;
  custom: Record<string, string>;
  yValuesPerPoint: number;
  xValueType: string;
  isXValueIndexed: boolean;
  yAxisType: 'Primary' | 'Secondary';
  xAxisType: 'Primary' | 'Secondary';
  points: ChartPoint[];
}

export interface ChartGrid {
  enabled: boolean;
  color: Color;
  width: number;
  dash: string;
}

export interface ChartAxis {
  /** Auto: shown when a series uses it (X and Y), never for X2/Y2 without one. */
  enabled: 'Auto' | 'True' | 'False';
  lineColor: Color;
  lineWidth: number;
  lineDash: string;
  majorGrid: ChartGrid;
  majorTick: ChartGrid & { size: number };
  labelsEnabled: boolean;
  labelFont: FontSpec;
  labelColor: Color;
  labelFormat: string;
  labelAngle: number;
  isMarginVisible: boolean;
  isStartedFromZero: boolean;
  isReversed: boolean;
  minimum: number | undefined;
  maximum: number | undefined;
  interval: number | undefined;
  title: string;
  titleFont: FontSpec;
  titleColor: Color;
}

export interface ChartAreaModel {
  name: string;
  axisX: ChartAxis;
  axisY: ChartAxis;
  axisX2: ChartAxis;
  axisY2: ChartAxis;
  backColor: Color;
  enable3D: boolean;
  visible: boolean;
}

export type Docking = 'Top' | 'Bottom' | 'Left' | 'Right';
export type StringAlignment = 'Near' | 'Center' | 'Far';

export interface ChartLegend {
  name: string;
  enabled: boolean;
  docking: Docking;
  alignment: StringAlignment;
  font: FontSpec;
  foreColor: Color;
  backColor: Color;
  insideChartArea: boolean;
  title: string;
}

export interface ChartTitle {
  text: string;
  visible: boolean;
  font: FontSpec;
  foreColor: Color;
  docking: Docking;
  alignment: StringAlignment;
}

export interface ChartModel {
  paletteName: string;
  palette: readonly Color[];
  backColor: Color;
  borderlineColor: Color;
  borderlineWidth: number;
  /** NotSet (the default) draws no border line. */
  borderlineDash: string;
  borderSkin: string;
  series: ChartSeries[];
  areas: ChartAreaModel[];
  legends: ChartLegend[];
  titles: ChartTitle[];
}
