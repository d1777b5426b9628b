// Report objects at print time, what all types share: appearance (style, even style, visibility,
// PrintOn), hyperlink and bookmark; the type's own data, height and prepared item come from its
// entry in the registry (object-types.ts).

import type { ReportObjectModel } from '../frx/model.js';
import { canPrint } from './print-on.js';
import type { EngineContext } from './context.js';
import { objectType } from './object-types.js';
import { hyperlink } from './hyperlinks.js';
import { newRtObject, type LaidItem, type RtObject } from './runtime.js';

/** Evaluates a VisibleExpression: false hides; expressions with TotalPages wait for the final
 *  pass (true before), as FastReport does. */
export function visibleByExpression(e: EngineContext, owner: object, name: string, expression: string): boolean {
  if (expression.trim() === '') return true;
  if (/TotalPages/.test(expression) && e.passes.firstPass && e.passes.doublePass) return true;
  return e.exprs.condition(owner, 'visible', expression, `${name}.VisibleExpression`) !== false;
}

/** Fills an object's run-time properties with its data (an ObjectType's getData). */
export type GetData = (e: EngineContext, o: ReportObjectModel, rt: RtObject) => void;

/** An object's run-time properties for the current row (`visible` false when it does not print).
 *  `given` replaces the type's own data (a matrix gives its cells their values itself). */
export function objectData(
  e: EngineContext,
  template: ReportObjectModel,
  even: boolean,
  repeated: boolean,
  given?: GetData,
): RtObject {
  // The script's BeforePrint may change the object (its text, visibility, place) before it
  // prints; a cell whose container gives its data (a matrix's) has it first, as in FastReport.
  if (!given) e.script.beforePrint(template);
  const o = e.script.live(template);
  const getData = given ?? objectType(o).getData;
  const rt = newRtObject(o);
  if (o.style) e.styles.apply(rt, o.style, o.name);
  if (even && o.evenStyle) e.styles.applyEven(rt, o.evenStyle, o.evenStylePriority, o.name);
  if (!rt.visible || !visibleByExpression(e, o, o.name, o.visibleExpression) || !canPrint(e, o, repeated)) {
    rt.visible = false;
    return rt;
  }
  getData?.(e, o, rt);
  if (given) e.script.beforePrint(template, rt);
  e.script.afterData(template, rt);
  const link = hyperlink(e, o, o.name, o.hyperlink);
  if (link) rt.hyperlink = link;
  if (o.bookmark.trim() !== '') {
    const bookmark = e.exprs.text(o, 'bookmark', o.bookmark, `${o.name}.Bookmark`);
    if (bookmark !== undefined) rt.bookmark = bookmark;
  }
  return rt;
}

/** The object's height before shifting (CanGrow/CanShrink). */
export function objectCalcHeight(e: EngineContext, rt: RtObject): number {
  const type = objectType(rt.model);
  return type.calcHeight ? type.calcHeight(e, rt.model, rt) : rt.height;
}

/** The prepared items of a printed object (coordinates relative to its band). */
export function objectItems(e: EngineContext, rt: RtObject): LaidItem[] {
  const laid = objectType(rt.model).item(e, rt.model, rt);
  if (!Array.isArray(laid)) return [withLinks(laid, rt)];
  // An object of parts (a table): its bookmark marks its first part, its hyperlink is every
  // part's that has none of its own.
  if (rt.hyperlink) for (const l of laid) l.item.hyperlink ??= rt.hyperlink;
  const first = laid[0];
  if (rt.bookmark && first && first.item.bookmark === undefined) first.item.bookmark = rt.bookmark;
  return laid;
}

function withLinks(l: LaidItem, rt: RtObject): LaidItem {
  if (rt.hyperlink) l.item.hyperlink = rt.hyperlink;
  if (rt.bookmark) l.item.bookmark = rt.bookmark;
  return l;
}
