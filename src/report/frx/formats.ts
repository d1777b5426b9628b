// TextObject formats: `Format="Currency" Format.DecimalDigits="2" …` on the object, or a
// `<Formats>` child with one element per expression (`<NumberFormat UseLocale="false" …/>`).

import { FORMAT_KINDS } from '../format/index.js';
import { formatOfKind } from './defaults.js';
import type { FormatModel } from './model.js';
import { parseEnum } from './value-parsers.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

/** "Currency", "CurrencyFormat" or "FastReport.Format.CurrencyFormat" → "Currency". */
export function formatKind(text: string): FormatModel['kind'] | undefined {
  const t = text
    .trim()
    .replace(/^FastReport\.Format\./, '')
    .replace(/Format$/, '');
  return parseEnum(t, FORMAT_KINDS);
}

/** Reads the properties of `f` from attributes named `${prefix}Property`. */
function readFormatProps(a: Attrs, prefix: string, f: FormatModel): FormatModel {
  switch (f.kind) {
    case 'General':
      break;
    case 'Number':
      f.useLocale = a.bool(`${prefix}UseLocale`, f.useLocale);
      f.decimalDigits = a.int(`${prefix}DecimalDigits`, f.decimalDigits);
      f.decimalSeparator = a.str(`${prefix}DecimalSeparator`, f.decimalSeparator);
      f.groupSeparator = a.str(`${prefix}GroupSeparator`, f.groupSeparator);
      f.negativePattern = a.int(`${prefix}NegativePattern`, f.negativePattern);
      break;
    case 'Currency':
      f.useLocale = a.bool(`${prefix}UseLocale`, f.useLocale);
      f.decimalDigits = a.int(`${prefix}DecimalDigits`, f.decimalDigits);
      f.decimalSeparator = a.str(`${prefix}DecimalSeparator`, f.decimalSeparator);
      f.groupSeparator = a.str(`${prefix}GroupSeparator`, f.groupSeparator);
      f.currencySymbol = a.str(`${prefix}CurrencySymbol`, f.currencySymbol);
      f.positivePattern = a.int(`${prefix}PositivePattern`, f.positivePattern);
      f.negativePattern = a.int(`${prefix}NegativePattern`, f.negativePattern);
      break;
    case 'Percent':
      f.useLocale = a.bool(`${prefix}UseLocale`, f.useLocale);
      f.decimalDigits = a.int(`${prefix}DecimalDigits`, f.decimalDigits);
      f.decimalSeparator = a.str(`${prefix}DecimalSeparator`, f.decimalSeparator);
      f.groupSeparator = a.str(`${prefix}GroupSeparator`, f.groupSeparator);
      f.percentSymbol = a.str(`${prefix}PercentSymbol`, f.percentSymbol);
      f.positivePattern = a.int(`${prefix}PositivePattern`, f.positivePattern);
      f.negativePattern = a.int(`${prefix}NegativePattern`, f.negativePattern);
      break;
    case 'Custom':
    case 'Date':
    case 'Time':
      f.format = a.str(`${prefix}Format`, f.format);
      break;
    case 'Boolean':
      f.trueText = a.str(`${prefix}TrueText`, f.trueText);
      f.falseText = a.str(`${prefix}FalseText`, f.falseText);
      break;
  }
  if ('decimalDigits' in f && (f.decimalDigits < 0 || f.decimalDigits > 99)) {
    a.ctx.warn(`${a.owner}: ${prefix}DecimalDigits=${f.decimalDigits} is out of range 0…99; 2 is used`);
    f.decimalDigits = 2;
  }
  return f;
}

/** `Format` and `Format.*` attributes of a text object (General when absent). */
export function parseFormatAttrs(a: Attrs): FormatModel {
  const kindText = a.take('Format');
  let kind: FormatModel['kind'] = 'General';
  if (kindText !== undefined) {
    const k = formatKind(kindText);
    if (k === undefined) a.invalid('Format', kindText, `a format (${FORMAT_KINDS.join('|')})`);
    else kind = k;
  }
  return readFormatProps(a, 'Format.', formatOfKind(kind));
}

/** `<Formats>`: one format element per expression of the text. */
export function parseFormatsElement(el: XmlElement, ctx: LoadContext): FormatModel[] {
  const out: FormatModel[] = [];
  for (const child of el.children) {
    const kind = formatKind(child.name);
    if (kind === undefined) {
      ctx.warn(`${describe(child)}: unknown format inside <Formats>; General is used in its place`);
      out.push(formatOfKind('General'));
      continue;
    }
    const a = new Attrs(child, ctx);
    out.push(readFormatProps(a, '', formatOfKind(kind)));
    const left = Object.keys(a.rest());
    if (left.length > 0) ctx.warn(`${describe(child)}: attributes ${left.join(', ')} are ignored`);
  }
  return out;
}
