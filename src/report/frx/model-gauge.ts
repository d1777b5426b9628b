// The parts of the typed model of FastReport's gauges (FastReport.Gauge: LinearGauge, SimpleGauge,
// SimpleProgressGauge, RadialGauge and their base GaugeObject), with the defaults each class's
// constructor sets (GaugeObjectModel itself is in model-objects.ts). The geometry that draws them is ../gauge/.

import type { Color } from './colors.js';
import type { FillModel } from './model-appearance.js';
import type { FontSpec } from '../text/font-spec.js';

export type GaugeKind = 'GaugeObject' | 'LinearGauge' | 'SimpleGauge' | 'SimpleProgressGauge' | 'RadialGauge';

/** ScaleTicks: Length is recomputed by the radial scale; Count is fixed per gauge type. */
export interface GaugeTicksModel {
  length: number;
  width: number;
  color: Color;
}

/** SimpleSubScale: the upper (First) or lower (Second) half of a SimpleGauge's scale. */
export interface GaugeSubScaleModel {
  enabled: boolean;
  showCaption: boolean;
}

export interface GaugeScaleModel {
  font: FontSpec;
  /** The tick labels' brush (a gradient draws in its start colour). */
  textFill: FillModel;
  majorTicks: GaugeTicksModel;
  minorTicks: GaugeTicksModel;
  firstSubScale: GaugeSubScaleModel;
  secondSubScale: GaugeSubScaleModel;
}

export interface GaugePointerModel {
  fill: FillModel;
  borderWidth: number;
  borderColor: Color;
  /** Linear/Simple: the stored size (Simple's scale leaves a gap of Height around its centre). */
  width: number;
  height: number;
  /** SimpleProgressGauge: a bar from the start (Full) or a short bar at the value (Small). */
  type: 'Full' | 'Small';
  /** Small pointer's width as a part of the bar's length, 0…1. */
  smallPointerWidthRatio: number;
  /** RadialGauge: a linear gradient turns with the needle. */
  gradientAutoRotate: boolean;
}

export interface GaugeLabelModel {
  text: string;
  font: FontSpec;
  color: Color;
  /** SimpleProgressGauge: decimals of the percentage, 0…15. */
  decimals: number;
}

export type RadialGaugeType = 'Circle' | 'Semicircle' | 'Quadrant';

/** RadialGauge.Position flags (only the combinations its Type accepts). */
export interface RadialPositionModel {
  top: boolean;
  bottom: boolean;
  left: boolean;
  right: boolean;
}
