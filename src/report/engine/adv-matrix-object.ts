// AdvMatrixObject: each print builds a table from its template and the rows of its data source
// (adv-matrix/), sized like a TableObject's and printed as a MatrixObject's is (after its band,
// in page-sized parts, unless PrintOnParent). The objects in its cells are docked there (a gauge
// or sparkline filling its cell, a button at its side) once the cells have their sizes.

import type { AdvMatrixObjectModel } from '../frx/model.js';
import { buildAdvMatrix } from './adv-matrix/build.js';
import type { EngineContext } from './context.js';
import type { ObjectType } from './object-type.js';
import type { RtObject } from './runtime.js';
import { layoutTable, tableItems } from './table-object.js';

function advMatrixData(e: EngineContext, o: AdvMatrixObjectModel, rt: RtObject): void {
  const result = buildAdvMatrix(e, o);
  if (!result) {
    rt.visible = false;
    return;
  }
  rt.table = result.table;
  // Sizes the cells and docks their objects (a gauge or sparkline filling its cell).
  layoutTable(e, result, result.table, rt);
}

export const advMatrixObject: ObjectType<AdvMatrixObjectModel> = {
  getData: advMatrixData,
  calcHeight: (_e, _o, rt) => (rt.table ? rt.table.rowHeights.reduce((s, h) => s + h, 0) : rt.height),
  item: tableItems,
};
