// BarcodeObject (FastReport's BarcodeObject.GetData, UpdateAutoSize and Draw): its text from a
// data column, an expression or the template; AutoSize to the symbol's natural size × Zoom; the
// symbol stretched to the box as paths, with its human-readable text as text items. A text the
// symbology cannot encode prints its reason in red in the box, as FastReport draws it.

import {
  encodeBarcode,
  layoutBarcode,
  naturalSize,
  type BarcodeDrawing,
  type BarcodeFont,
  type BarcodeLabel,
} from '../barcode/index.js';
import type { BarcodeObjectModel, Color, FontSpec } from '../frx/model.js';
import { BLACK } from '../frx/colors.js';
import { DEFAULT_FONT, measureWidth } from '../text/index.js';
import type { EngineContext } from './context.js';
import { boundText, itemHeader, type ObjectType } from './object-type.js';
import type { PreparedBarcode } from './prepared.js';
import type { LaidItem, RtObject } from './runtime.js';
import { labelItem } from './text-label.js';

const RED: Color = { r: 255, g: 0, b: 0, a: 255 };

/** GetData: DataColumn, else Expression, else the text (its [expressions] when allowed). */
function barcodeText(e: EngineContext, o: BarcodeObjectModel): string {
  const bound = boundText(e, o);
  if (bound !== undefined) return bound;
  if (!o.allowExpressions || o.text === '') return o.text;
  const where = `${o.name}.Text`;
  const t = e.exprs.template(o, 'text', o.text, o.brackets, where);
  let out = '';
  for (const p of t.parts) {
    if (p.kind === 'text') out += p.text;
    else {
      const v = p.expression.evaluateTyped(e.scope, where).value;
      out += v === null || v === undefined ? '' : e.scope.formatter.format(v, '');
    }
  }
  return out;
}

function barcodeFont(e: EngineContext, font: FontSpec): BarcodeFont {
  const r = e.resolveFont(font);
  return { measure: (text) => measureWidth(text, r, e.fonts), height: Math.ceil(r.lineHeightPx) };
}

/** AutoSize: the box takes the symbol's natural size × Zoom plus padding (a linear code only
 *  along its bars); HorzAlign says which edge stays. */
function autoSize(e: EngineContext, o: BarcodeObjectModel, rt: RtObject): void {
  const encoded = rt.barcode?.encoded;
  if (!o.autoSize || !encoded || !('symbol' in encoded)) return;
  const natural = naturalSize(encoded.symbol, o.showText, barcodeFont(e, o.font));
  const sideways = o.angle === 90 || o.angle === 270;
  const along = natural.width * o.zoom;
  const across = natural.height === undefined ? undefined : natural.height * o.zoom;
  const padH = o.padding.left + o.padding.right;
  const padV = o.padding.top + o.padding.bottom;
  const width = sideways ? across : along;
  const height = sideways ? along : across;
  if (width !== undefined) {
    const w = width + padH;
    if (o.horzAlign === 'Center') rt.left += rt.width / 2 - w / 2;
    else if (o.horzAlign === 'Right') rt.left += rt.width - w;
    rt.width = w;
  }
  if (height !== undefined) rt.height = height + padV;
}

/** A point of the layout box → the object's padded area, turned clockwise by the angle. */
function turn(angle: number, area: { width: number; height: number }, u: number, v: number): [number, number] {
  switch (angle) {
    case 90:
      return [area.width - v, u];
    case 180:
      return [area.width - u, area.height - v];
    case 270:
      return [v, area.height - u];
    default:
      return [u, v];
  }
}

function labelItems(
  e: EngineContext,
  o: BarcodeObjectModel,
  rt: RtObject,
  area: PreparedBarcode['area'],
  d: BarcodeDrawing,
): LaidItem[] {
  const r = e.resolveFont(o.font);
  return d.labels.map((l: BarcodeLabel) => {
    // The font is sized so one line fills the text band, as FastReport scales it.
    const scale = r.lineHeightPx > 0 ? l.height / r.lineHeightPx : 1;
    const sizePt = Math.max(1, (o.font.sizePt - (l.small ? 2 : 0)) * scale);
    const [cx, cy] = turn(o.angle, area, l.x + l.width / 2, l.y + l.height / 2);
    // Turned sideways, the label's box on the page is its layout box turned.
    const sideways = o.angle === 90 || o.angle === 270;
    const width = sideways ? l.height : l.width;
    const height = sideways ? l.width : l.height;
    const item = labelItem(e, {
      name: o.name,
      text: l.text,
      font: { ...o.font, sizePt },
      color: l.black ? BLACK : o.color,
      x: rt.left + area.x + cx - width / 2,
      y: rt.top + area.y + cy - height / 2,
      width,
      height,
      angle: o.angle,
      horzAlign: 'Center',
      vertAlign: l.top ? 'Top' : 'Bottom',
      wordWrap: false,
    });
    return { item, canBreak: false };
  });
}

function message(e: EngineContext, o: BarcodeObjectModel, rt: RtObject, text: string): LaidItem {
  const item = labelItem(e, {
    name: o.name,
    text,
    // FastReport draws the message in its default report font.
    font: DEFAULT_FONT,
    color: RED,
    x: rt.left,
    y: rt.top,
    width: rt.width,
    height: rt.height,
    angle: 0,
    horzAlign: 'Left',
    vertAlign: 'Top',
    wordWrap: true,
  });
  item.clip = true;
  return { item, canBreak: false };
}

export const barcodeObject: ObjectType<BarcodeObjectModel> = {
  getData(e, o, rt) {
    const text = barcodeText(e, o);
    if (text === '' && o.hideIfNoData) {
      rt.visible = false;
      return;
    }
    const encoded = encodeBarcode({
      symbology: o.symbology,
      text,
      calcCheckSum: o.calcCheckSum,
      ...(o.wideBarRatio !== undefined ? { wideBarRatio: o.wideBarRatio } : {}),
      options: o.options,
    });
    rt.barcode = { text, encoded };
    autoSize(e, o, rt);
  },
  item(e, o, rt) {
    const area = {
      x: o.padding.left,
      y: o.padding.top,
      width: Math.max(0, rt.width - o.padding.left - o.padding.right),
      height: Math.max(0, rt.height - o.padding.top - o.padding.bottom),
    };
    const bars: PreparedBarcode = {
      kind: 'barcode',
      ...itemHeader(o, rt),
      angle: o.angle,
      area,
      color: o.color,
      paths: [],
    };
    const out: LaidItem[] = [{ item: bars, canBreak: false }];
    const b = rt.barcode;
    if (!b || b.text === '') {
      if (o.noDataText !== '') out.push(message(e, o, rt, o.noDataText));
      return out;
    }
    if ('error' in b.encoded) {
      out.push(message(e, o, rt, b.encoded.error));
      return out;
    }
    const sideways = o.angle === 90 || o.angle === 270;
    const box = sideways ? { width: area.height, height: area.width } : area;
    const drawing = layoutBarcode(b.encoded.symbol, box, o.showText, barcodeFont(e, o.font));
    bars.paths = drawing.paths;
    out.push(...labelItems(e, o, rt, area, drawing));
    return out;
  },
};
