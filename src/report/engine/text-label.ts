// A line of text an object prints beside its own drawing (a barcode's digits, its error message):
// a text item with no fill or border, laid out by the text object's rules so the exporters draw
// and embed it like any text.

import type { BorderModel, Color, FillModel, FontSpec, HorzAlign, VertAlign } from '../frx/model.js';
import { defaultBorder, defaultFill, padding } from '../frx/defaults.js';
import type { EngineContext } from './context.js';
import type { PreparedText } from './prepared.js';
import { EMPTY_FRAME, measureText, positionLines, preparedLines } from './text-layout.js';

// Shared by every label (prepared items share what does not change between them).
const NO_FILL = Object.freeze(defaultFill());
const BORDER_NONE = Object.freeze(defaultBorder());
const NO_PADDING = Object.freeze(padding(0, 0, 0, 0));

export interface LabelSpec {
  name: string;
  text: string;
  font: FontSpec;
  color: Color;
  /** The item's box relative to the band; the text turns with `angle` about its centre, laid out
   *  across the box's height for angles of 90…179 and 270…359 (as a TextObject's). */
  x: number;
  y: number;
  width: number;
  height: number;
  angle: number;
  horzAlign: HorzAlign;
  vertAlign: VertAlign;
  wordWrap: boolean;
  /** A cell's fill and border (default: none). */
  fill?: FillModel;
  border?: BorderModel;
}

export function labelItem(e: EngineContext, s: LabelSpec): PreparedText {
  const { x, y, width, height } = s;
  const m = measureText(
    {
      text: s.text,
      font: s.font,
      width,
      height,
      padding: NO_PADDING,
      angle: s.angle,
      wordWrap: s.wordWrap,
      lineHeight: 0,
      tabWidth: 58,
      html: false,
    },
    e.fonts,
    e.warnings,
    e.resolveFont(s.font),
  );
  const item: PreparedText = {
    kind: 'text',
    name: s.name,
    x,
    y,
    width,
    height,
    fill: s.fill ?? NO_FILL,
    border: s.border ?? BORDER_NONE,
    text: s.text,
    font: s.font,
    textFill: { kind: 'Solid', color: s.color },
    color: s.color,
    horzAlign: s.horzAlign,
    vertAlign: s.vertAlign,
    padding: NO_PADDING,
    angle: s.angle,
    frame: EMPTY_FRAME,
    lineHeight: m.lineHeight,
    ascent: m.ascent,
    wordWrap: s.wordWrap,
    clip: false,
    underlines: false,
    rightToLeft: false,
    forceJustify: false,
    lines: preparedLines(m).lines,
  };
  positionLines(item);
  return item;
}

/** A text a drawing library (chart, gauge) placed in the object's box; alignment Center and
 *  angle 0 unless given. */
export type ShapeText = Pick<LabelSpec, 'text' | 'font' | 'color' | 'x' | 'y' | 'width' | 'height'> &
  Partial<Pick<LabelSpec, 'angle' | 'horzAlign' | 'vertAlign'>>;

/** A drawing's text as a one-line label, its box moved from the object's to the band's. */
export function shapeLabel(
  e: EngineContext,
  name: string,
  rt: { left: number; top: number },
  s: ShapeText,
): PreparedText {
  return labelItem(e, {
    name,
    text: s.text,
    font: s.font,
    color: s.color,
    x: rt.left + s.x,
    y: rt.top + s.y,
    width: s.width,
    height: s.height,
    angle: s.angle ?? 0,
    horzAlign: s.horzAlign ?? 'Center',
    vertAlign: s.vertAlign ?? 'Center',
    wordWrap: false,
  });
}
