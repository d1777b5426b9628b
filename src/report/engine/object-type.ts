// What the engine needs of one kind of report object (FastReport's ReportComponentBase virtuals:
// GetData, CalcHeight, and the prepared item the object prints as). One module per kind
// implements it and object-types.ts registers it; everything common to all objects (styles,
// visibility, PrintOn, hyperlinks, bookmarks) is done once in objects.ts.

import { TemplateError } from '../errors.js';
import type { ReportObjectModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import type { LaidItem, RtObject } from './runtime.js';

export interface ObjectType<M extends ReportObjectModel> {
  /** GetData: the object's data for the current row into its run-time properties (only for a
   *  visible object; it may hide the object). */
  getData?(e: EngineContext, o: M, rt: RtObject): void;
  /** CalcHeight: the height CanGrow/CanShrink size the object to (default: its height). */
  calcHeight?(e: EngineContext, o: M, rt: RtObject): number;
  /** The prepared item of the printed object, coordinates relative to its band; several for an
   *  object made of parts (a table's cells and the objects inside them), in drawing order. */
  item(e: EngineContext, o: M, rt: RtObject): LaidItem | LaidItem[];
}

/** One entry per object type of the model, each typed for its own model. */
export type ObjectTypes = { [T in ReportObjectModel['type']]: ObjectType<Extract<ReportObjectModel, { type: T }>> };

const stripBrackets = (s: string): string => {
  const t = s.trim();
  return t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t;
};

/** What every filled and bordered prepared item starts with after its kind: the object's name,
 *  its box relative to the band, its fill and border (in the order the prepared output has). */
export function itemHeader(o: ReportObjectModel, rt: RtObject) {
  return { name: o.name, x: rt.left, y: rt.top, width: rt.width, height: rt.height, fill: rt.fill, border: rt.border };
}

/** The text of an object bound to data (FastReport's GetData for barcodes and ZIP codes): its
 *  DataColumn's value, else its Expression's, as the report shows it ('' for null); undefined
 *  when it has neither, and its own Text stands. */
export function boundText(
  e: EngineContext,
  o: ReportObjectModel & { dataColumn: string; expression: string },
): string | undefined {
  if (o.dataColumn.trim() !== '') {
    const v = columnValue(e, o.dataColumn, `${o.name}.DataColumn`);
    return v === null || v === undefined ? '' : e.scope.formatter.format(v, '');
  }
  if (o.expression.trim() !== '') return e.exprs.text(o, 'expr', o.expression, `${o.name}.Expression`) ?? '';
  return undefined;
}

/** The value of a DataColumn property (a column, parameter or total name). */
export function columnValue(e: EngineContext, name: string, where: string): unknown {
  const r = e.scope.resolve(stripBrackets(name));
  if (r === undefined) throw new TemplateError(`unknown data column "${name}"`, where);
  return r.value;
}
