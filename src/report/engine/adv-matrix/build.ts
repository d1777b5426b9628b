// Building an AdvMatrix for one print: the rows of its data source that pass its Filter, the
// two header trees (items.ts) and the printed table (result.ts). The data source's rows and
// position are restored after.

import { TemplateError } from '../../errors.js';
import type { AdvMatrixObjectModel } from '../../frx/model.js';
import type { EngineContext } from '../context.js';
import { cursorRestorer, filteredSourceRows } from '../datasource.js';
import type { MatrixResult } from '../matrix/result.js';
import { CellEvaluator } from './cells.js';
import { buildItems, terminals } from './items.js';
import { AdvMatrixState, AdvResultBuilder } from './result.js';
import { MatrixRows } from './rows.js';
import { axisSlots, type SlotDescriptor } from './slots.js';

/** Printed cells at most (a million-cell matrix prints; beyond this the matrix is refused). */
export const MAX_ADV_MATRIX_CELLS = 2_000_000;

/** The matrix's table for the current print; null when it has no data and PrintIfEmpty is off. */
export function buildAdvMatrix(e: EngineContext, o: AdvMatrixObjectModel): MatrixResult | null {
  const cursor = o.dataSource ? e.data.findSource(o.dataSource) : undefined;
  if (o.dataSource && !cursor)
    e.warnings.add(`${o.name}: data source "${o.dataSource}" is not in the dictionary; the matrix has no data`);
  const restoreCursor = cursorRestorer(cursor);
  try {
    const dataRows = cursor ? filteredSourceRows(e, cursor, o, o.filter, `${o.name}.Filter`) : [];
    if (dataRows.length === 0 && !o.printIfEmpty) return null;
    const rows = new MatrixRows(e, cursor, dataRows.length);
    const columnAxis = axisSlots(o.columnDescriptors);
    const rowAxis = axisSlots(o.rowDescriptors);
    const cells = new CellEvaluator(e, o.name, rows);
    const sortTotal = (slot: SlotDescriptor, r: Int32Array) => cells.total(slot.model, r);
    const columnRoot = buildItems(e, o, columnAxis, rows, sortTotal, 'Columns');
    const rowRoot = buildItems(e, o, rowAxis, rows, sortTotal, 'Rows');
    const columnTerminals = terminals(columnRoot);
    const rowTerminals = terminals(rowRoot);
    const hh = columnAxis.depth;
    const hw = rowAxis.depth;
    const size = (hw + columnTerminals.length) * (hh + rowTerminals.length);
    if (size > MAX_ADV_MATRIX_CELLS)
      throw new TemplateError(
        `the matrix would print ${size} cells (${rowTerminals.length} rows × ${columnTerminals.length} columns); ` +
          `at most ${MAX_ADV_MATRIX_CELLS} are allowed`,
        o.name,
      );
    const state = new AdvMatrixState();
    e.scope.objectProperties.set(o.name, state.property);
    const b = new AdvResultBuilder(e, o, {
      columnRoot,
      rowRoot,
      columnTerminals,
      rowTerminals,
      hh,
      hw,
      rows,
      cells,
      state,
    });
    b.corner();
    b.headers('column');
    b.headers('row');
    b.data();
    return b.result();
  } finally {
    restoreCursor();
  }
}
