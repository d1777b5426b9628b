// AdvMatrixObject: each print builds a table from its template and the rows of its data source
// (adv-matrix/), sized like a TableObject's and printed as a MatrixObject's is (after its band,
// in page-sized parts, unless PrintOnParent). The objects in its cells are docked there (a gauge
// or sparkline filling its cell, a button at its side) once the cells have their sizes.

import type { AdvMatrixObjectModel } from '../frx/model.js';
import { buildAdvMatrix } from './adv-matrix/build.js';
import type { EngineContext } from './context.js';
import type { ObjectType } from './object-type.js';
import type { RtObject, RtTable } from './runtime.js';
import { layoutTable, tableItems } from './table-object.js';

function advMatrixData(e: EngineContext, o: AdvMatrixObjectModel, rt: RtObject): void {
  const result = buildAdvMatrix(e, o);
  if (!result) {
    rt.visible = false;
    return;
  }
  rt.table = result.table;
  layoutTable(e, result, result.table, rt);
  dockCellObjects(result.table);
}

/** Objects docked in a cell take its left, right, top or bottom edge, or all of it (Dock). */
export function dockCellObjects(t: RtTable): void {
  for (const c of t.cells) {
    const w = c.rt.width;
    const h = c.rt.height;
    for (const inner of c.objects) {
      switch (inner.model.dock) {
        case 'Fill':
          Object.assign(inner, { left: 0, top: 0, width: w, height: h });
          break;
        case 'Left':
          Object.assign(inner, { left: 0, top: 0, height: h });
          break;
        case 'Right':
          Object.assign(inner, { left: w - inner.width, top: 0, height: h });
          break;
        case 'Top':
          Object.assign(inner, { left: 0, top: 0, width: w });
          break;
        case 'Bottom':
          Object.assign(inner, { left: 0, top: h - inner.height, width: w });
          break;
      }
    }
  }
}

export const advMatrixObject: ObjectType<AdvMatrixObjectModel> = {
  getData: advMatrixData,
  calcHeight: (_e, _o, rt) => (rt.table ? rt.table.rowHeights.reduce((s, h) => s + h, 0) : rt.height),
  item: tableItems,
};
