// MatrixObject (a cross-tab): each print builds a table from its template and the rows of its
// data source (matrix/build.ts), sized like a TableObject's. Printed on its band (PrintOnParent,
// or inside a band that collects bands: page columns, a PrintOnParent subreport) it is an object
// of the band; otherwise the band prints only its part above the matrix and the table follows
// in parts that fit the pages (table-pages.ts).

import type { MatrixObjectModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import { buildMatrix } from './matrix/build.js';
import type { ObjectType } from './object-type.js';
import type { RtObject } from './runtime.js';
import { layoutTable, tableItems } from './table-object.js';

function matrixData(e: EngineContext, o: MatrixObjectModel, rt: RtObject): void {
  const result = buildMatrix(e, o);
  if (!result) {
    rt.visible = false;
    return;
  }
  rt.table = result.table;
  layoutTable(e, result, result.table, rt);
}

/** A matrix whose table prints after its band, in page-sized parts. */
export function printsAfterBand(e: EngineContext, rt: RtObject): boolean {
  const matrix = rt.model.type === 'MatrixObject' || rt.model.type === 'AdvMatrixObject';
  const paged = matrix || (rt.model.type === 'TableObject' && rt.table?.manual === true);
  return paged && !rt.model.printOnParent && e.bands.output === null;
}

export const matrixObject: ObjectType<MatrixObjectModel> = {
  getData: matrixData,
  calcHeight: (_e, _o, rt) => (rt.table ? rt.table.rowHeights.reduce((s, h) => s + h, 0) : rt.height),
  item: tableItems,
};
