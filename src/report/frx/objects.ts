// Report objects (the things on bands) and the properties every component shares.

import { parseBorder, parseFill, parseHyperlink } from './appearance.js';
import { BLACK, TRANSPARENT } from './colors.js';
import { defaultFill, defaultFont, defaultTextFill, defaultTextPadding, padding, solidFill } from './defaults.js';
import { parseFormatAttrs, parseFormatsElement } from './formats.js';
import {
  PRINT_ON_FLAGS,
  type CapModel,
  type CheckBoxObjectModel,
  type ComponentModel,
  type HighlightConditionModel,
  type LineObjectModel,
  type PaddingModel,
  type PictureObjectModel,
  type ReportObjectModel,
  type ShapeObjectModel,
  type SubreportObjectModel,
  type DigitalSignatureObjectModel,
  type TextObjectModel,
  type UnsupportedObjectModel,
} from './model.js';
import { parseBool } from './value-parsers.js';
import { readComponent } from './component.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';
import { parseMatrixObject } from './matrix.js';
import { parseAdvMatrixObject, parseMatrixButton } from './adv-matrix.js';
import { parseBarcodeObject } from './barcode.js';
import { parseMapObject } from './map.js';
import { parsePolyObject, parseZipCodeObject } from './poly.js';
import { parseChartObject } from './chart-object.js';
import { SYMBOLOGIES } from '../barcode/index.js';
import { parseTableObject } from './table.js';
import { parseGaugeObject } from './gauge.js';
import { parseRichObject } from './rich.js';

const GAUGE_ELEMENTS = ['LinearGauge', 'RadialGauge', 'SimpleGauge', 'SimpleProgressGauge', 'GaugeObject'];

/** FastReport objects that are recognised but not rendered: kept as `Unsupported`. */
export const UNSUPPORTED_OBJECTS: ReadonlySet<string> = new Set(['HtmlObject', 'ContainerObject', 'CrossViewObject']);

const SUPPORTED = new Set([
  'TextObject',
  'LineObject',
  'ShapeObject',
  'PictureObject',
  'CheckBoxObject',
  'TableObject',
  'MatrixObject',
  'AdvMatrixObject',
  'MatrixCollapseButton',
  'MatrixSortButton',
  'SubreportObject',
  'DigitalSignatureObject',
  'BarcodeObject',
  'PolyLineObject',
  'PolygonObject',
  'MapObject',
  'SVGObject',
  'CellularTextObject',
  'ZipCodeObject',
  ...GAUGE_ELEMENTS,
  'RichObject',
  'MSChartObject',
  'SparklineObject',
]);

export function isReportObjectElement(name: string): boolean {
  return SUPPORTED.has(name) || UNSUPPORTED_OBJECTS.has(name);
}

/** Warns about child elements an object cannot hold. */
function ignoreChildren(el: XmlElement, ctx: LoadContext, allowed: readonly string[] = []): void {
  for (const child of el.children) {
    if (!allowed.includes(child.name)) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  }
}

function parseHighlight(el: XmlElement, ctx: LoadContext): HighlightConditionModel[] {
  const out: HighlightConditionModel[] = [];
  for (const child of el.children) {
    if (child.name !== 'Condition') {
      ctx.warn(`${describe(child)} inside <Highlight> is ignored`);
      continue;
    }
    const a = new Attrs(child, ctx);
    const c: HighlightConditionModel = {
      line: child.line,
      expression: a.str('Expression'),
      visible: a.bool('Visible', true),
      border: parseBorder(a),
      fill: parseFill(a, 'Fill', defaultFill()),
      // HighlightCondition's constructor: red text, only the text fill applied.
      textFill: parseFill(a, 'TextFill', solidFill({ r: 255, g: 0, b: 0, a: 255 })),
      font: a.font('Font', defaultFont()),
      applyBorder: a.bool('ApplyBorder', false),
      applyFill: a.bool('ApplyFill', false),
      applyTextFill: a.bool('ApplyTextFill', true),
      applyFont: a.bool('ApplyFont', false),
      raw: {},
    };
    c.raw = a.rest();
    out.push(c);
    ignoreChildren(child, ctx);
  }
  return out;
}

/** A TextObject element (or a TableCell, whose padding defaults differ) → its model. */
export function parseTextObject(
  el: XmlElement,
  ctx: LoadContext,
  defaultPadding: PaddingModel = defaultTextPadding(),
): TextObjectModel {
  const a = new Attrs(el, ctx);
  const base = readComponent(a);
  const format = parseFormatAttrs(a);
  // Legacy HtmlTags="true" means TextRenderType="HtmlTags"; an explicit TextRenderType wins.
  const legacyHtml = a.take('HtmlTags');
  const renderTypes = ['Default', 'HtmlTags', 'HtmlParagraph', 'Inline'] as const;
  let textRenderType = a.enumOf('TextRenderType', renderTypes, 'Default');
  if (!a.has('TextRenderType') && legacyHtml !== undefined) {
    const on = parseBool(legacyHtml);
    if (on === undefined) a.invalid('HtmlTags', legacyHtml, 'a boolean');
    else textRenderType = on ? 'HtmlTags' : 'Default';
  }
  const fontWidthRatio = a.float('FontWidthRatio', 1);
  const t: TextObjectModel = {
    type: 'TextObject',
    ...base,
    canBreak: a.bool('CanBreak', true),
    breakTo: a.str('BreakTo'),
    text: a.str('Text'),
    allowExpressions: a.bool('AllowExpressions', true),
    brackets: a.str('Brackets', '[,]'),
    padding: a.padding('Padding', defaultPadding),
    hideZeros: a.bool('HideZeros', false),
    hideValue: a.str('HideValue'),
    nullValue: a.str('NullValue'),
    processAt: a.enumOf(
      'ProcessAt',
      [
        'Default',
        'ReportFinished',
        'ReportPageFinished',
        'PageFinished',
        'ColumnFinished',
        'DataFinished',
        'GroupFinished',
        'Custom',
      ] as const,
      'Default',
    ),
    duplicates: a.enumOf('Duplicates', ['Show', 'Hide', 'Clear', 'Merge'] as const, 'Show'),
    editable: a.bool('Editable', false),
    format,
    formats: [format],
    autoWidth: a.bool('AutoWidth', false),
    autoShrink: a.enumOf('AutoShrink', ['None', 'FontSize', 'FontWidth'] as const, 'None'),
    autoShrinkMinSize: a.float('AutoShrinkMinSize', 0),
    horzAlign: a.enumOf('HorzAlign', ['Left', 'Center', 'Right', 'Justify'] as const, 'Left'),
    vertAlign: a.enumOf('VertAlign', ['Top', 'Center', 'Bottom'] as const, 'Top'),
    angle: a.float('Angle', 0),
    rightToLeft: a.bool('RightToLeft', false),
    wordWrap: a.bool('WordWrap', true),
    underlines: a.bool('Underlines', false),
    font: a.font('Font', defaultFont()),
    textFill: parseFill(a, 'TextFill', defaultTextFill()),
    trimming: a.enumOf(
      'Trimming',
      ['None', 'Character', 'Word', 'EllipsisCharacter', 'EllipsisWord', 'EllipsisPath'] as const,
      'None',
    ),
    fontWidthRatio: fontWidthRatio > 0 ? fontWidthRatio : 1,
    firstTabOffset: Math.max(0, a.float('FirstTabOffset', 0)),
    tabWidth: Math.max(0, a.float('TabWidth', 58)),
    tabPositions: a.floatList('TabPositions'),
    clip: a.bool('Clip', true),
    wysiwyg: a.bool('Wysiwyg', false),
    lineHeight: a.float('LineHeight', 0),
    forceJustify: a.bool('ForceJustify', false),
    textRenderType,
    paragraphOffset: a.float('ParagraphOffset', 0),
    mergeMode: a.flags('MergeMode', ['Horizontal', 'Vertical'] as const, [1, 2], []),
    highlight: [],
  };
  for (const child of el.children) {
    if (child.name === 'Formats') {
      const formats = parseFormatsElement(child, ctx);
      if (formats.length > 0) {
        t.formats = formats;
        t.format = formats[0] ?? format;
      }
    } else if (child.name === 'Highlight') {
      t.highlight = parseHighlight(child, ctx);
    } else if (el.name === 'TableCell' && isReportObjectElement(child.name)) {
      // A cell's objects: read by the table parser.
    } else {
      ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
    }
  }
  t.raw = a.rest();
  return t;
}

function readCap(a: Attrs, prefix: string): CapModel {
  return {
    width: a.float(`${prefix}.Width`, 8),
    height: a.float(`${prefix}.Height`, 8),
    style: a.enumOf(`${prefix}.Style`, ['None', 'Circle', 'Square', 'Diamond', 'Arrow'] as const, 'None'),
  };
}

function parseLineObject(el: XmlElement, ctx: LoadContext): LineObjectModel {
  const a = new Attrs(el, ctx);
  const o: LineObjectModel = {
    type: 'LineObject',
    ...readComponent(a),
    diagonal: a.bool('Diagonal', false),
    startCap: readCap(a, 'StartCap'),
    endCap: readCap(a, 'EndCap'),
    dashPattern: a.floatList('DashPattern'),
  };
  ignoreChildren(el, ctx);
  o.raw = a.rest();
  return o;
}

function parseShapeObject(el: XmlElement, ctx: LoadContext): ShapeObjectModel {
  const a = new Attrs(el, ctx);
  const o: ShapeObjectModel = {
    type: 'ShapeObject',
    ...readComponent(a),
    shape: a.enumOf('Shape', ['Rectangle', 'RoundRectangle', 'Ellipse', 'Triangle', 'Diamond'] as const, 'Rectangle'),
    curve: a.float('Curve', 0),
    dashPattern: a.floatList('DashPattern'),
  };
  ignoreChildren(el, ctx);
  o.raw = a.rest();
  return o;
}

function parsePictureObject(el: XmlElement, ctx: LoadContext): PictureObjectModel {
  const a = new Attrs(el, ctx);
  const o: PictureObjectModel = {
    type: 'PictureObject',
    ...readComponent(a),
    image: a.str('Image').trim(),
    imageLocation: a.str('ImageLocation'),
    imageSourceExpression: a.str('ImageSourceExpression'),
    dataColumn: a.str('DataColumn'),
    sizeMode: a.enumOf('SizeMode', ['Normal', 'StretchImage', 'AutoSize', 'CenterImage', 'Zoom'] as const, 'Zoom'),
    angle: a.float('Angle', 0),
    transparency: a.clamped('Transparency', 0, 0, 1),
    transparentColor: a.color('TransparentColor', TRANSPARENT),
    tile: a.bool('Tile', false),
    grayscale: a.bool('Grayscale', false),
    showErrorImage: a.bool('ShowErrorImage', false),
    padding: a.padding('Padding', padding(0, 0, 0, 0)),
    imageAlign: a.str('ImageAlign', 'None'),
  };
  ignoreChildren(el, ctx);
  o.raw = a.rest();
  return o;
}

/** CellularTextObject: a TextObject printed one character per cell. FastReport's constructor
 *  gives it a border on all sides and CanBreak false. */
function parseCellularText(el: XmlElement, ctx: LoadContext): TextObjectModel {
  const o = parseTextObject(el, ctx);
  const num = (key: string): number => {
    const v = Number(o.raw[key] ?? '0');
    delete o.raw[key];
    return Number.isFinite(v) && v > 0 ? v : 0;
  };
  o.cellular = {
    cellWidth: num('CellWidth'),
    cellHeight: num('CellHeight'),
    horzSpacing: num('HorzSpacing'),
    vertSpacing: num('VertSpacing'),
  };
  if (el.attrs['Border.Lines'] === undefined) o.border.lines = { left: true, top: true, right: true, bottom: true };
  if (el.attrs.CanBreak === undefined) o.canBreak = false;
  return o;
}

/** SVGObject: a picture whose image is SVG (SvgData, base64), drawn as PictureObject draws one. */
function parseSvgObject(el: XmlElement, ctx: LoadContext): PictureObjectModel {
  const o = parsePictureObject(el, ctx);
  o.image = (o.raw.SvgData ?? '').trim();
  delete o.raw.SvgData;
  return o;
}

function parseCheckBoxObject(el: XmlElement, ctx: LoadContext): CheckBoxObjectModel {
  const a = new Attrs(el, ctx);
  const o: CheckBoxObjectModel = {
    type: 'CheckBoxObject',
    ...readComponent(a),
    checked: a.bool('Checked', true),
    checkedSymbol: a.enumOf('CheckedSymbol', ['Check', 'Cross', 'Plus', 'Fill'] as const, 'Check'),
    uncheckedSymbol: a.enumOf('UncheckedSymbol', ['None', 'Cross', 'Minus'] as const, 'None'),
    checkColor: a.color('CheckColor', BLACK),
    dataColumn: a.str('DataColumn'),
    expression: a.str('Expression'),
    checkWidthRatio: Math.min(2, Math.max(0.2, a.float('CheckWidthRatio', 1))),
    hideIfUnchecked: a.bool('HideIfUnchecked', false),
    editable: a.bool('Editable', false),
  };
  ignoreChildren(el, ctx);
  o.raw = a.rest();
  return o;
}

function parseSubreportObject(el: XmlElement, ctx: LoadContext): SubreportObjectModel {
  const a = new Attrs(el, ctx);
  const o: SubreportObjectModel = {
    type: 'SubreportObject',
    ...readComponent(a),
    reportPageName: a.str('ReportPage'),
    printOnParent: a.bool('PrintOnParent', false),
  };
  ignoreChildren(el, ctx);
  o.raw = a.rest();
  return o;
}

function parseDigitalSignature(el: XmlElement, ctx: LoadContext): DigitalSignatureObjectModel {
  const a = new Attrs(el, ctx);
  const o: DigitalSignatureObjectModel = { type: 'DigitalSignatureObject', ...readComponent(a) };
  ignoreChildren(el, ctx);
  o.raw = a.rest();
  return o;
}

function parseUnsupported(el: XmlElement, ctx: LoadContext): UnsupportedObjectModel {
  const a = new Attrs(el, ctx);
  const o: UnsupportedObjectModel = { type: 'Unsupported', ...readComponent(a), className: el.name, element: el };
  o.raw = a.rest();
  ctx.warn(`${describe(el)} is not supported and will not be rendered`);
  return o;
}

/** A report object element → its model; null (with a warning) for an unknown element. */
export function parseReportObject(el: XmlElement, ctx: LoadContext): ReportObjectModel | null {
  switch (el.name) {
    case 'TextObject':
      return parseTextObject(el, ctx);
    case 'LineObject':
      return parseLineObject(el, ctx);
    case 'DigitalSignatureObject':
      return parseDigitalSignature(el, ctx);
    case 'BarcodeObject':
      return parseBarcodeObject(el, ctx, SYMBOLOGIES);
    case 'PolyLineObject':
    case 'PolygonObject':
      return parsePolyObject(el, ctx);
    case 'SVGObject':
      return parseSvgObject(el, ctx);
    case 'CellularTextObject':
      return parseCellularText(el, ctx);
    case 'ZipCodeObject':
      return parseZipCodeObject(el, ctx);
    case 'MSChartObject':
    case 'SparklineObject':
      return parseChartObject(el, ctx);
    case 'ShapeObject':
      return parseShapeObject(el, ctx);
    case 'MapObject':
      return parseMapObject(el, ctx);
    case 'PictureObject':
      return parsePictureObject(el, ctx);
    case 'CheckBoxObject':
      return parseCheckBoxObject(el, ctx);
    case 'SubreportObject':
      return parseSubreportObject(el, ctx);
    case 'TableObject':
      return parseTableObject(el, ctx, { parseObject: parseReportObject, parseText: parseTextObject });
    case 'RichObject':
      return parseRichObject(el, ctx);
    case 'MatrixObject':
      return parseMatrixObject(el, ctx, { parseObject: parseReportObject, parseText: parseTextObject });
    case 'LinearGauge':
    case 'RadialGauge':
    case 'SimpleGauge':
    case 'SimpleProgressGauge':
    case 'GaugeObject':
      return parseGaugeObject(el, ctx);
    case 'AdvMatrixObject':
      return parseAdvMatrixObject(el, ctx, { parseObject: parseReportObject, parseText: parseTextObject });
    case 'MatrixCollapseButton':
    case 'MatrixSortButton':
      return parseMatrixButton(el, ctx);
    default:
      if (UNSUPPORTED_OBJECTS.has(el.name)) return parseUnsupported(el, ctx);
      ctx.warn(`Unknown element ${describe(el)} is ignored`);
      return null;
  }
}
