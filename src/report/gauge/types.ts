// What the gauge geometry takes and gives: the gauge's model (../frx/model-gauge.ts) at its
// printed size and value, and the shapes that draw it, in px relative to the gauge's top-left.

import type { Color, FillModel, FontSpec, GaugeObjectModel, LineStyle } from '../frx/model.js';

/** The gauge as it prints: its model, its box and its value (already clamped). */
export interface GaugeInput {
  model: GaugeObjectModel;
  width: number;
  height: number;
  value: number;
}

/** The size GDI+'s MeasureString gives a one-line text (FastReport places the scale's labels
 *  by it). */
export type MeasureText = (text: string, font: FontSpec) => { width: number; height: number };

/** A number as .NET's default ToString() writes it (the report's culture). */
export type FormatNumber = (n: number) => string;

export type PathSegment = ['M' | 'L', number, number] | ['C', number, number, number, number, number, number] | ['Z'];

/** A path: filled (closed) and/or stroked. `box` is the area a gradient fill spans (by default
 *  the gauge's box). */
export interface GaugeFigure {
  kind: 'figure';
  name: string;
  segments: PathSegment[];
  closed: boolean;
  fill?: FillModel;
  stroke?: Color;
  lineWidth?: number;
  style?: LineStyle;
  box?: { x: number; y: number; width: number; height: number };
}

/** A one-line text centred in its box (the box is the GDI+ size of the text where FastReport
 *  draws it). */
export interface GaugeText {
  kind: 'text';
  name: string;
  text: string;
  font: FontSpec;
  color: Color;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Drawn after the gauge's border (the progress gauge's percentage). */
  overBorder?: true;
}

export type GaugeShape = GaugeFigure | GaugeText;

/** What the drawing of one gauge type needs besides the gauge. */
export interface GaugeTools {
  measure: MeasureText;
  format: FormatNumber;
}
