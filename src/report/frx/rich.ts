// RichObject (FastReport's RichObject : TextObjectBase): the RTF text, its data column and the
// TextObjectBase properties it uses (expressions, brackets, formats, padding, CanBreak).

import { defaultTextPadding } from './defaults.js';
import { parseFormatAttrs, parseFormatsElement } from './formats.js';
import type { RichObjectModel } from './model.js';
import { readComponent } from './component.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

export function parseRichObject(el: XmlElement, ctx: LoadContext): RichObjectModel {
  const a = new Attrs(el, ctx);
  const format = parseFormatAttrs(a);
  const o: RichObjectModel = {
    type: 'RichObject',
    ...readComponent(a),
    text: a.str('Text'),
    dataColumn: a.str('DataColumn'),
    allowExpressions: a.bool('AllowExpressions', true),
    brackets: a.str('Brackets', '[,]'),
    padding: a.padding('Padding', defaultTextPadding()),
    canBreak: a.bool('CanBreak', true),
    hideZeros: a.bool('HideZeros', false),
    hideValue: a.str('HideValue'),
    nullValue: a.str('NullValue'),
    format,
    formats: [format],
  };
  for (const child of el.children) {
    if (child.name === 'Formats') {
      const formats = parseFormatsElement(child, ctx);
      if (formats.length > 0) {
        o.formats = formats;
        o.format = formats[0] ?? format;
      }
    } else ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  }
  o.raw = a.rest();
  return o;
}
