// BarcodeObject → its model. FastReport writes a symbology's own properties with the "Barcode."
// prefix after Barcode="…" (the symbology); they are kept by name for the barcode library, which
// knows each symbology's defaults.

import { BLACK } from './colors.js';
import { defaultFont, padding } from './defaults.js';
import type { BarcodeObjectModel } from './model.js';
import { readComponent } from './component.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

// Read into the model's own fields; every other Barcode.* attribute goes to `options`.
const COMMON = new Set(['Barcode.Color', 'Barcode.Font', 'Barcode.CalcCheckSum', 'Barcode.WideBarRatio']);

export function parseBarcodeObject(el: XmlElement, ctx: LoadContext, known: readonly string[]): BarcodeObjectModel {
  const a = new Attrs(el, ctx);
  const symbology = a.str('Barcode', 'Code39').trim() || 'Code39';
  if (!known.includes(symbology)) ctx.warn(`${describe(el)}: unknown barcode type "${symbology}"`);
  const angle = Math.trunc(a.float('Angle', 0) / 90) * 90;
  const ratio = a.has('Barcode.WideBarRatio') ? a.float('Barcode.WideBarRatio', 2) : undefined;
  const o: BarcodeObjectModel = {
    type: 'BarcodeObject',
    ...readComponent(a),
    symbology,
    // A BarcodeObject's Text defaults to Code 39's sample value, which FastReport does not write.
    text: a.str('Text', '12345678'),
    dataColumn: a.str('DataColumn'),
    expression: a.str('Expression'),
    allowExpressions: a.bool('AllowExpressions', false),
    brackets: a.str('Brackets', '[,]'),
    showText: a.bool('ShowText', true),
    autoSize: a.bool('AutoSize', true),
    zoom: a.float('Zoom', 1) > 0 ? a.float('Zoom', 1) : 1,
    angle: (((angle % 360) + 360) % 360) as 0 | 90 | 180 | 270,
    padding: a.padding('Padding', padding(0, 0, 0, 0)),
    hideIfNoData: a.bool('HideIfNoData', true),
    noDataText: a.str('NoDataText'),
    horzAlign: a.enumOf('HorzAlign', ['Left', 'Center', 'Right'] as const, 'Left'),
    color: a.color('Barcode.Color', BLACK),
    font: a.font('Barcode.Font', { ...defaultFont(), family: 'Arial', sizePt: 8 }),
    calcCheckSum: a.bool('Barcode.CalcCheckSum', true),
    ...(ratio !== undefined && ratio > 0 ? { wideBarRatio: ratio } : {}),
    options: {},
  };
  for (const key of a.keys()) {
    if (!key.startsWith('Barcode.') || COMMON.has(key)) continue;
    o.options[key.slice('Barcode.'.length)] = a.take(key) ?? '';
  }
  // Print-time flags of FastReport's designer and exporters that change nothing here.
  for (const key of ['AsBitmap', 'ShowMarker']) a.take(key);
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  o.raw = a.rest();
  return o;
}
