// ReportPage: paper (millimetres), page columns and the band slots.

import { parseBorder, parseFill } from './appearance.js';
import { BAND_ELEMENTS, parseBand } from './bands.js';
import { WHITE } from './colors.js';
import { defaultFont, solidFill } from './defaults.js';
import type {
  WatermarkModel,
  DataBandModel,
  GroupHeaderBandModel,
  HeaderFooterBandModel,
  PageColumnsModel,
  ReportPageModel,
  SimpleBandModel,
} from './model.js';
import { isReportObjectElement } from './objects.js';
import { parseBool, parseFloatInv, parseFloatList } from './value-parsers.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

type Paper = Pick<
  ReportPageModel,
  'paperWidth' | 'paperHeight' | 'leftMargin' | 'topMargin' | 'rightMargin' | 'bottomMargin' | 'landscape'
>;

const PAPER_KEYS = [
  'Landscape',
  'PaperWidth',
  'PaperHeight',
  'LeftMargin',
  'TopMargin',
  'RightMargin',
  'BottomMargin',
] as const;

/**
 * Paper settings in document order, as FastReport applies them: setting Landscape swaps the
 * current width/height and rotates the margins, explicit sizes written after it then win.
 */
function readPaper(a: Attrs): Paper {
  const p: Paper = {
    paperWidth: 210,
    paperHeight: 297,
    leftMargin: 10,
    topMargin: 10,
    rightMargin: 10,
    bottomMargin: 10,
    landscape: false,
  };
  for (const key of a.keys()) {
    if (!(PAPER_KEYS as readonly string[]).includes(key)) continue;
    const text = a.take(key) ?? '';
    if (key === 'Landscape') {
      const v = parseBool(text);
      if (v === undefined) {
        a.invalid(key, text, 'a boolean');
        continue;
      }
      if (v !== p.landscape) {
        [p.paperWidth, p.paperHeight] = [p.paperHeight, p.paperWidth];
        const { leftMargin: l, rightMargin: r, topMargin: t, bottomMargin: b } = p;
        if (v) Object.assign(p, { leftMargin: t, rightMargin: b, topMargin: r, bottomMargin: l });
        else Object.assign(p, { leftMargin: b, rightMargin: t, topMargin: l, bottomMargin: r });
      }
      p.landscape = v;
      continue;
    }
    const n = parseFloatInv(text);
    const positive = key === 'PaperWidth' || key === 'PaperHeight';
    if (n === undefined || n < 0 || (positive && n === 0) || n > 100_000) {
      a.invalid(key, text, positive ? 'a paper size in millimetres' : 'a margin in millimetres');
      continue;
    }
    const field = (key.charAt(0).toLowerCase() + key.slice(1)) as keyof Omit<Paper, 'landscape'>;
    p[field] = n;
  }
  if (p.leftMargin + p.rightMargin >= p.paperWidth || p.topMargin + p.bottomMargin >= p.paperHeight) {
    a.ctx.warn(`${a.owner}: the margins leave no printable area`);
  }
  return p;
}

function readColumns(a: Attrs, paper: Paper): PageColumnsModel {
  let count = a.int('Columns.Count', 1);
  if (count < 1 || count > 100) {
    a.ctx.warn(`${a.owner}: Columns.Count=${count} is outside 1…100; 1 is used`);
    count = 1;
  }
  // The Count setter derives width and positions from the paper, in millimetres.
  let width = a.float('Columns.Width', (paper.paperWidth - paper.leftMargin - paper.rightMargin) / count);
  if (width <= 0) width = (paper.paperWidth - paper.leftMargin - paper.rightMargin) / count;
  let positions = Array.from({ length: count }, (_, i) => i * width);
  const posText = a.take('Columns.Positions');
  if (posText !== undefined) {
    const list = parseFloatList(posText);
    if (!list) a.invalid('Columns.Positions', posText, 'a list of numbers');
    else if (list.length === count) positions = list;
  }
  return { count, width, positions };
}

/** Watermark.* (FastReport's Watermark constructor: Arial 60 pt, grey at alpha 40, diagonal,
 *  the text on top, the image behind and zoomed); null unless enabled. */
function readWatermark(a: Attrs): WatermarkModel | null {
  const enabled = a.bool('Watermark.Enabled', false);
  const w: WatermarkModel = {
    text: a.str('Watermark.Text'),
    font: a.font('Watermark.Font', { ...defaultFont(), sizePt: 60 }),
    textFill: parseFill(a, 'Watermark.TextFill', solidFill({ r: 128, g: 128, b: 128, a: 40 })),
    textRotation: a.enumOf(
      'Watermark.TextRotation',
      ['Horizontal', 'Vertical', 'ForwardDiagonal', 'BackwardDiagonal'] as const,
      'ForwardDiagonal',
    ),
    showTextOnTop: a.bool('Watermark.ShowTextOnTop', true),
    image: a.str('Watermark.Image').trim(),
    imageSize: a.enumOf('Watermark.ImageSize', ['Normal', 'Center', 'Stretch', 'Zoom', 'Tile'] as const, 'Zoom'),
    imageTransparency: a.clamped('Watermark.ImageTransparency', 0, 0, 1),
    showImageOnTop: a.bool('Watermark.ShowImageOnTop', false),
  };
  return enabled ? w : null;
}

/** A ReportPage element with its bands. */
export function parsePage(el: XmlElement, ctx: LoadContext): ReportPageModel {
  const a = new Attrs(el, ctx);
  const paper = readPaper(a);
  const page: ReportPageModel = {
    type: 'ReportPage',
    name: a.str('Name'),
    line: el.line,
    ...paper,
    mirrorMargins: a.bool('MirrorMargins', false),
    rawPaperSize: a.int('RawPaperSize', 0),
    columns: readColumns(a, paper),
    border: parseBorder(a),
    fill: parseFill(a, 'Fill', solidFill(WHITE)),
    titleBeforeHeader: a.bool('TitleBeforeHeader', true),
    outlineExpression: a.str('OutlineExpression'),
    printOnPreviousPage: a.bool('PrintOnPreviousPage', false),
    resetPageNumber: a.bool('ResetPageNumber', false),
    startOnOddPage: a.bool('StartOnOddPage', false),
    backPage: a.bool('BackPage', false),
    unlimitedHeight: a.bool('UnlimitedHeight', false),
    unlimitedWidth: a.bool('UnlimitedWidth', false),
    visible: a.bool('Visible', true),
    watermark: readWatermark(a),
    subreportOf: '',
    reportTitle: null,
    pageHeader: null,
    columnHeader: null,
    bands: [],
    reportSummary: null,
    columnFooter: null,
    pageFooter: null,
    overlay: null,
    events: a.events(),
    raw: {},
  };

  const slots = {
    ReportTitleBand: 'reportTitle',
    PageHeaderBand: 'pageHeader',
    ColumnHeaderBand: 'columnHeader',
    ReportSummaryBand: 'reportSummary',
    ColumnFooterBand: 'columnFooter',
    PageFooterBand: 'pageFooter',
    OverlayBand: 'overlay',
  } as const;
  for (const child of el.children) {
    if (child.name === 'DataBand' || child.name === 'GroupHeaderBand') {
      page.bands.push(parseBand(child, ctx) as DataBandModel | GroupHeaderBandModel);
    } else if (Object.hasOwn(slots, child.name)) {
      const slot = slots[child.name as keyof typeof slots];
      if (page[slot])
        ctx.warn(`${describe(el)} has more than one ${child.name}; ${describe(child)} replaces the earlier one`);
      const band = parseBand(child, ctx);
      if (slot === 'reportSummary') page.reportSummary = band as HeaderFooterBandModel;
      else page[slot] = band as SimpleBandModel;
    } else if (BAND_ELEMENTS.has(child.name) || isReportObjectElement(child.name)) {
      ctx.warn(`${describe(child)} cannot be placed directly on ${describe(el)} and is ignored`);
    } else {
      ctx.warn(`Unknown element ${describe(child)} inside ${describe(el)} is ignored`);
    }
  }
  page.raw = a.rest();
  return page;
}
