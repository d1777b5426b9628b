// The typed report model: how things look (borders, fills, padding) and the text formats, the
// value types the objects and bands share (model.ts gathers every part; conventions in
// model-objects.ts).

import type { Color } from './colors.js';

// ---------------------------------------------------------------------------------------------
// Appearance

export interface PaddingModel {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type LineStyle = 'Solid' | 'Dash' | 'Dot' | 'DashDot' | 'DashDotDot' | 'Double';

export interface BorderLineModel {
  color: Color;
  style: LineStyle;
  /** Pixels. */
  width: number;
}

export interface BorderModel {
  /** Which sides are drawn (`Border.Lines`, default None). */
  lines: { left: boolean; top: boolean; right: boolean; bottom: boolean };
  leftLine: BorderLineModel;
  topLine: BorderLineModel;
  rightLine: BorderLineModel;
  bottomLine: BorderLineModel;
  shadow: boolean;
  shadowWidth: number;
  shadowColor: Color;
}

export interface SolidFillModel {
  kind: 'Solid';
  color: Color;
}
export interface LinearGradientFillModel {
  kind: 'LinearGradient';
  startColor: Color;
  endColor: Color;
  /** Degrees, 0…359. */
  angle: number;
  /** 0…1. */
  focus: number;
  /** 0…1. */
  contrast: number;
}
export interface PathGradientFillModel {
  kind: 'PathGradient';
  centerColor: Color;
  edgeColor: Color;
  style: 'Elliptic' | 'Rectangular';
}
export interface HatchFillModel {
  kind: 'Hatch';
  foreColor: Color;
  backColor: Color;
  /** System.Drawing.Drawing2D.HatchStyle name, e.g. BackwardDiagonal. */
  style: string;
}
export interface GlassFillModel {
  kind: 'Glass';
  color: Color;
  /** 0…1: white blended over the upper half. */
  blend: number;
  hatch: boolean;
}
export interface TextureFillModel {
  kind: 'Texture';
  /** Base64 image data ('' when none). */
  imageData: string;
  /** The size one copy of the image is drawn at, px (0: the image's own). */
  imageWidth: number;
  imageHeight: number;
  /** Where the first copy's top-left is, from the filled area's top-left, px. */
  offsetX: number;
  offsetY: number;
  /** Clamp: one copy; Tile: repeated; the Flip modes mirror every other copy. */
  wrapMode: 'Clamp' | 'Tile' | 'TileFlipX' | 'TileFlipY' | 'TileFlipXY';
}
export type FillModel =
  | SolidFillModel
  | LinearGradientFillModel
  | PathGradientFillModel
  | HatchFillModel
  | GlassFillModel
  | TextureFillModel;

// ---------------------------------------------------------------------------------------------
// Formats (TextObject.Format / <Formats>); culture-dependent defaults are en-US.

export interface GeneralFormatModel {
  kind: 'General';
}
export interface NumberFormatModel {
  kind: 'Number';
  useLocale: boolean;
  decimalDigits: number;
  decimalSeparator: string;
  groupSeparator: string;
  negativePattern: number;
}
export interface CurrencyFormatModel {
  kind: 'Currency';
  useLocale: boolean;
  decimalDigits: number;
  decimalSeparator: string;
  groupSeparator: string;
  currencySymbol: string;
  positivePattern: number;
  negativePattern: number;
}
export interface PercentFormatModel {
  kind: 'Percent';
  useLocale: boolean;
  decimalDigits: number;
  decimalSeparator: string;
  groupSeparator: string;
  percentSymbol: string;
  positivePattern: number;
  negativePattern: number;
}
/** Custom: `format` is a .NET format string (default "G"); Date defaults to "d", Time to "t". */
export interface StringFormatModel {
  kind: 'Custom' | 'Date' | 'Time';
  format: string;
}
export interface BooleanFormatModel {
  kind: 'Boolean';
  trueText: string;
  falseText: string;
}
export type FormatModel =
  | GeneralFormatModel
  | NumberFormatModel
  | CurrencyFormatModel
  | PercentFormatModel
  | StringFormatModel
  | BooleanFormatModel;
