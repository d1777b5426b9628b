// Report objects at print time: appearance (style, even style, visibility, PrintOn), their data
// (GetData: text, picture, check box, hyperlink, bookmark) and the prepared items they become.

import { TemplateError } from '../errors.js';
import type {
  CheckBoxObjectModel,
  HyperlinkModel,
  LineObjectModel,
  PictureObjectModel,
  ReportObjectModel,
  ShapeObjectModel,
} from '../frx/model.js';
import { canPrint } from './print-on.js';
import type { EngineContext } from './context.js';
import { decodeBase64, imageInfo } from './image.js';
import type { PreparedHyperlink, PreparedItem } from './prepared.js';
import type { LaidItem, RtObject } from './runtime.js';
import { textCalcHeight, textData, textItem } from './text-object.js';

/** Evaluates a VisibleExpression: false hides; expressions with TotalPages wait for the final
 *  pass (true before), as FastReport does. */
export function visibleByExpression(e: EngineContext, owner: object, name: string, expression: string): boolean {
  if (expression.trim() === '') return true;
  if (/TotalPages/.test(expression) && e.passes.firstPass && e.passes.doublePass) return true;
  return e.exprs.condition(owner, 'visible', expression, `${name}.VisibleExpression`) !== false;
}

const stripBrackets = (s: string): string => {
  const t = s.trim();
  return t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t;
};

/** The value of a DataColumn property (a column, parameter or total name). */
function columnValue(e: EngineContext, name: string, where: string): unknown {
  const r = e.scope.resolve(stripBrackets(name));
  if (r === undefined) throw new TemplateError(`unknown data column "${name}"`, where);
  return r.value;
}

function hyperlink(e: EngineContext, owner: object, name: string, h: HyperlinkModel): PreparedHyperlink | undefined {
  let target = h.value;
  if (h.expression.trim() !== '') {
    const v = e.exprs.calc(owner, 'hyperlink', h.expression, `${name}.Hyperlink.Expression`).value;
    target = v === null || v === undefined ? '' : e.formatter.format(v, '');
  }
  if (target === '') return undefined;
  const kind =
    h.kind === 'URL' ? 'url' : h.kind === 'PageNumber' ? 'page' : h.kind === 'Bookmark' ? 'bookmark' : undefined;
  if (!kind) return undefined;
  return { kind, target, newTab: h.openLinkInNewTab };
}

/** An object as printed now; null when it does not print at all. */
export function objectData(e: EngineContext, o: ReportObjectModel, even: boolean, repeated: boolean): RtObject {
  const rt: RtObject = {
    model: o,
    left: o.left,
    top: o.top,
    width: o.width,
    height: o.height,
    visible: o.visible,
    fill: o.fill,
    border: o.border,
  };
  if (o.type === 'TextObject') {
    rt.font = o.font;
    rt.textFill = o.textFill;
  }
  if (o.style) e.styles.apply(rt, o.style, o.name);
  if (even && o.evenStyle) e.styles.applyEven(rt, o.evenStyle, o.evenStylePriority, o.name);
  if (!rt.visible || !visibleByExpression(e, o, o.name, o.visibleExpression) || !canPrint(e, o, repeated)) {
    rt.visible = false;
    return rt;
  }
  switch (o.type) {
    case 'TextObject':
      textData(e, o, rt);
      break;
    case 'PictureObject':
      rt.bytes = pictureBytes(e, o);
      break;
    case 'CheckBoxObject':
      rt.checked = checked(e, o);
      if (o.hideIfUnchecked && !rt.checked) rt.visible = false;
      break;
    default:
      break;
  }
  const link = hyperlink(e, o, o.name, o.hyperlink);
  if (link) rt.hyperlink = link;
  if (o.bookmark.trim() !== '') {
    const v = e.exprs.calc(o, 'bookmark', o.bookmark, `${o.name}.Bookmark`).value;
    if (v !== null && v !== undefined) rt.bookmark = e.formatter.format(v, '');
  }
  return rt;
}

function pictureBytes(e: EngineContext, o: PictureObjectModel): Uint8Array | null {
  let v: unknown = null;
  if (o.dataColumn.trim() !== '') v = columnValue(e, o.dataColumn, `${o.name}.DataColumn`);
  else if (o.imageSourceExpression.trim() !== '')
    v = e.exprs.calc(o, 'image', o.imageSourceExpression, `${o.name}.ImageSourceExpression`).value;
  else if (o.image !== '') v = o.image;
  else if (o.imageLocation !== '') {
    e.warnings.add(
      `${o.name}: ImageLocation "${o.imageLocation.slice(0, 80)}" is not loaded (no files or URLs are read)`,
    );
    return null;
  }
  if (v instanceof Uint8Array) return v.length > 0 ? v : null;
  if (typeof v === 'string' && v !== '') {
    const bytes = decodeBase64(v.startsWith('data:') ? v.slice(v.indexOf(',') + 1) : v);
    if (bytes) return bytes;
    e.warnings.add(`${o.name}: the picture value is not image data (file names and URLs are not loaded)`);
  }
  return null;
}

function checked(e: EngineContext, o: CheckBoxObjectModel): boolean {
  let v: unknown = o.checked;
  if (o.dataColumn.trim() !== '') v = columnValue(e, o.dataColumn, `${o.name}.DataColumn`);
  else if (o.expression.trim() !== '') v = e.exprs.calc(o, 'expr', o.expression, `${o.name}.Expression`).value;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return /^(true|1|yes)$/i.test(v.trim());
  return false;
}

/** The object's height before shifting (CanGrow/CanShrink). */
export function objectCalcHeight(e: EngineContext, rt: RtObject): number {
  return rt.model.type === 'TextObject' ? textCalcHeight(e, rt.model, rt) : rt.height;
}

function lineItem(o: LineObjectModel, rt: RtObject): PreparedItem {
  let x2 = rt.left + rt.width;
  let y2 = rt.top + rt.height;
  if (!o.diagonal) {
    if (Math.abs(rt.width) >= Math.abs(rt.height)) y2 = rt.top;
    else x2 = rt.left;
  }
  const l = rt.border.leftLine;
  return {
    kind: 'line',
    name: o.name,
    x: Math.min(rt.left, x2),
    y: Math.min(rt.top, y2),
    width: Math.abs(x2 - rt.left),
    height: Math.abs(y2 - rt.top),
    x1: rt.left,
    y1: rt.top,
    x2,
    y2,
    color: l.color,
    lineWidth: l.width,
    style: l.style,
    dashPattern: o.dashPattern,
    startCap: o.startCap,
    endCap: o.endCap,
  };
}

function shapeItem(o: ShapeObjectModel, rt: RtObject): PreparedItem {
  const l = rt.border.leftLine;
  return {
    kind: 'shape',
    name: o.name,
    x: rt.left,
    y: rt.top,
    width: rt.width,
    height: rt.height,
    shape: o.shape,
    fill: rt.fill,
    color: l.color,
    lineWidth: l.width,
    style: l.style,
    dashPattern: o.dashPattern,
    curve: o.curve,
  };
}

/** The prepared item of a printed object (coordinates relative to its band). */
export function objectItem(e: EngineContext, rt: RtObject): LaidItem {
  const o = rt.model;
  let item: PreparedItem;
  switch (o.type) {
    case 'TextObject':
      return withLinks(textItem(e, o, rt), rt);
    case 'LineObject':
      item = lineItem(o, rt);
      break;
    case 'ShapeObject':
      item = shapeItem(o, rt);
      break;
    case 'PictureObject': {
      const bytes = rt.bytes ?? null;
      const info = bytes ? imageInfo(bytes) : { mime: '' };
      item = {
        kind: 'picture',
        name: o.name,
        x: rt.left,
        y: rt.top,
        width: rt.width,
        height: rt.height,
        fill: rt.fill,
        border: rt.border,
        bytes,
        mime: info.mime,
        sizeMode: o.sizeMode,
        padding: o.padding,
        angle: o.angle,
        transparency: o.transparency,
        grayscale: o.grayscale,
        ...(info.width !== undefined ? { imageWidth: info.width } : {}),
        ...(info.height !== undefined ? { imageHeight: info.height } : {}),
      };
      break;
    }
    case 'CheckBoxObject':
      item = {
        kind: 'checkbox',
        name: o.name,
        x: rt.left,
        y: rt.top,
        width: rt.width,
        height: rt.height,
        fill: rt.fill,
        border: rt.border,
        checked: rt.checked ?? false,
        checkedSymbol: o.checkedSymbol,
        uncheckedSymbol: o.uncheckedSymbol,
        checkColor: o.checkColor,
        checkWidthRatio: o.checkWidthRatio,
      };
      break;
    case 'Unsupported':
      item = {
        kind: 'box',
        name: o.name,
        x: rt.left,
        y: rt.top,
        width: rt.width,
        height: rt.height,
        fill: rt.fill,
        border: rt.border,
        unsupported: o.className,
      };
      break;
  }
  return withLinks({ item, canBreak: false }, rt);
}

function withLinks(l: LaidItem, rt: RtObject): LaidItem {
  if (rt.hyperlink) l.item.hyperlink = rt.hyperlink;
  if (rt.bookmark) l.item.bookmark = rt.bookmark;
  return l;
}
