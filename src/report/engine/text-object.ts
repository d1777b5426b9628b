// TextObject at print time (FastReport's TextObject.GetData and CalcHeight): expressions in the
// text, each formatted with its Format (NullValue, HideZeros, HideValue), highlight conditions
// (first true wins; `Value` is the last expression's value), AutoWidth, and the measured lines.

import { TemplateError } from '../errors.js';
import type { TypedValue } from '../expr/index.js';
import type { TextObjectModel } from '../frx/model.js';
import { fillColor } from '../frx/appearance.js';
import { formatForDisplay } from '../format/index.js';
import { cellularHeight, cellularItems } from './cellular-text.js';
import type { EngineContext } from './context.js';
import type { PreparedText } from './prepared.js';
import type { ObjectType } from './object-type.js';
import { originOf } from './model-origin.js';
import type { LaidItem, LateText, RtObject } from './runtime.js';
import { applyHighlight } from './styles.js';
import { EMPTY_FRAME, measureText, positionLines, preparedLines, type TextMeasure } from './text-layout.js';

/** The page-number macros FastReport fills in when a page is shown (see postprocess.ts). */
export const MACROS = ['Page#', 'TotalPages#'] as const;

/** A value as the text object shows it: its Format (the index-th of several), NullValue,
 *  HideZeros and HideValue. */
export function formatValue(
  e: EngineContext,
  o: Pick<TextObjectModel, 'name' | 'format' | 'formats' | 'nullValue' | 'hideZeros' | 'hideValue'>,
  v: TypedValue,
  index = 0,
): string {
  const spec = o.formats[index] ?? o.format;
  try {
    return formatForDisplay(v.value, spec, {
      nullValue: o.nullValue,
      hideZeros: o.hideZeros,
      hideValue: o.hideValue,
      type: v.type,
      culture: e.culture,
    });
  } catch (err) {
    if (err instanceof TemplateError && err.where === undefined)
      throw new TemplateError(err.message, `${o.name}.Format`);
    throw err;
  }
}

/** Evaluates the text and the highlight conditions into `rt`. */
export function textData(e: EngineContext, o: TextObjectModel, rt: RtObject): void {
  let text = o.text;
  let value: TypedValue | undefined;
  let macros = false;
  // Texts whose logical totals wait for the end of a single pass (pass-plan.ts): the pieces.
  const late: LateText | undefined =
    e.passes.lateTotals.size > 0 && e.passes.lateTotals.has(originOf(o))
      ? { page: e.cursor.curPage, pieces: [] }
      : undefined;
  let piece = '';
  if (o.allowExpressions && o.text.length > 0) {
    const where = `${o.name}.Text`;
    const t = e.exprs.template(o, 'text', o.text, o.brackets, where);
    if (t.expressions.length > 0) {
      let out = '';
      let i = 0;
      for (const p of t.parts) {
        const before = out.length;
        if (p.kind === 'text') {
          out += p.text;
          if (late) piece += p.text;
          continue;
        }
        const src = p.source.trim();
        if ((MACROS as readonly string[]).includes(src)) {
          // Kept as it is and filled in once the page count is final.
          out += `[${src}]`;
          macros = true;
        } else if (late && (src === 'PageNofM' || src === 'TotalPages')) {
          // Laid out as the bracket; late-totals.ts puts the value in.
          out += `[${src}]`;
          late.pieces.push(piece, {
            name: src,
            index: i,
            pageNo: e.numbering.pageNo(e.cursor.curPage, e.report.initialPageNumber),
          });
          piece = '';
          i++;
          continue;
        } else {
          value = p.expression.evaluateTyped(e.scope, where);
          out += formatValue(e, o, value, i);
        }
        if (late) piece += out.slice(before);
        i++;
      }
      text = out;
    }
  }
  rt.text = text;
  if (value !== undefined) rt.value = value;
  if (macros) rt.macros = true;
  if (late && late.pieces.length > 0) {
    late.pieces.push(piece);
    rt.lateTotals = late;
  }
  applyHighlights(e, o, rt, value);
}

/** The first highlight condition that holds (`Value` is the given value) styles the object. */
export function applyHighlights(e: EngineContext, o: TextObjectModel, rt: RtObject, value: TypedValue | undefined) {
  for (const c of o.highlight) {
    e.scope.highlightValue = value ?? { value: null, type: 'System.Object' };
    let hit: boolean | undefined;
    try {
      hit = e.exprs.condition(c, 'expr', c.expression, `${o.name}.Highlight`);
    } finally {
      e.scope.highlightValue = undefined;
    }
    if (hit === true) {
      applyHighlight(rt, c);
      break;
    }
  }
}

/** What the text layout measures: the object's text, font and box as they are now (late-totals.ts
 *  measures a filled-in page total with it too). */
export function textSpec(o: TextObjectModel, rt: Pick<RtObject, 'text' | 'font' | 'width' | 'height'>) {
  return {
    text: rt.text ?? '',
    font: rt.font ?? o.font,
    width: rt.width,
    height: rt.height,
    padding: o.padding,
    angle: o.angle,
    wordWrap: o.wordWrap,
    lineHeight: o.lineHeight,
    tabWidth: o.tabWidth,
    html: o.textRenderType === 'HtmlTags' || o.textRenderType === 'HtmlParagraph',
  };
}

/** TextObject.CalcWidth: the width of the text set without wrapping, padding included. */
export function textCalcWidth(e: EngineContext, o: TextObjectModel, rt: RtObject): number {
  const spec = { ...textSpec(o, rt), wordWrap: false };
  return measureText(spec, e.fonts, e.warnings, e.resolveFont(spec.font)).calcWidth;
}

/** Measures the text for the object's current width (and applies AutoWidth first). */
export function measure(e: EngineContext, o: TextObjectModel, rt: RtObject): TextMeasure {
  const spec = textSpec(o, rt);
  if (o.autoWidth) {
    const w = textCalcWidth(e, o, rt);
    if (o.anchor.includes('Right') || o.horzAlign === 'Right') rt.left = rt.left + rt.width - w;
    else if (o.horzAlign === 'Center') rt.left += rt.width / 2 - w / 2;
    rt.width = w;
    spec.width = w;
    spec.wordWrap = false;
  }
  return measureText(spec, e.fonts, e.warnings, e.resolveFont(spec.font));
}

/** The height CanGrow/CanShrink size the object to. */
export function textCalcHeight(e: EngineContext, o: TextObjectModel, rt: RtObject): number {
  rt.measure ??= measure(e, o, rt);
  return rt.measure.calcHeight;
}

export function textItem(e: EngineContext, o: TextObjectModel, rt: RtObject): LaidItem {
  const m = (rt.measure ??= measure(e, o, rt));
  const { lines, html } = preparedLines(m);
  // Every field written out (no spread of itemHeader): V8 then keeps them all inside the object,
  // which saves a property array per item (a large matrix prints a million of them).
  const item: PreparedText = {
    kind: 'text',
    name: o.name,
    x: rt.left,
    y: rt.top,
    width: rt.width,
    height: rt.height,
    fill: rt.fill,
    border: rt.border,
    text: rt.text ?? '',
    font: rt.font ?? o.font,
    textFill: rt.textFill ?? o.textFill,
    color: fillColor(rt.textFill ?? o.textFill),
    horzAlign: o.horzAlign,
    vertAlign: o.vertAlign,
    padding: o.padding,
    angle: ((o.angle % 360) + 360) % 360,
    frame: EMPTY_FRAME,
    lineHeight: m.lineHeight,
    ascent: m.ascent,
    wordWrap: o.wordWrap,
    clip: o.clip,
    underlines: o.underlines,
    rightToLeft: o.rightToLeft,
    forceJustify: o.forceJustify,
    lines,
  };
  if (html) item.html = html;
  positionLines(item);
  if (rt.macros && !e.passes.dropFinishedPages) e.records.macroItems.set(item, o);
  if (rt.lateTotals) e.records.lateItems.set(item, { ...rt.lateTotals, model: o, width: rt.width, height: rt.height });
  return { item, measure: m, canBreak: o.canBreak, duplicates: o.duplicates };
}

export const textObject: ObjectType<TextObjectModel> = {
  getData: textData,
  calcHeight: (e, o, rt) => (o.cellular ? cellularHeight(e, o, o.cellular, rt) : textCalcHeight(e, o, rt)),
  item: (e, o, rt) => (o.cellular ? cellularItems(e, o, o.cellular, rt) : textItem(e, o, rt)),
};
