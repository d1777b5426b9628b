// Building a matrix for one print (FastReport's MatrixHelper StartPrint/AddDataRows/FinishPrint):
// every row of its data source that passes the Filter adds its dimension values to the header
// trees and its data values to the cells; totals are added, every cell aggregated (percentages
// last), and the printed table built. The data source's rows and position are restored after.

import { applyOperator, INTEGER_TYPES, type TypedValue } from '../../expr/index.js';
import type { MatrixObjectModel } from '../../frx/model.js';
import type { EngineContext } from '../context.js';
import { compareSortValues, cursorRestorer, filteredSourceRows } from '../datasource.js';
import { CellValues } from './aggregate.js';
import { HeaderTree, leafIdsOf, type HeaderItem } from './headers.js';
import { buildResult, type MatrixResult } from './result.js';
import { matrixTemplate, type MatrixLevel, type MatrixTemplate } from '../../frx/matrix-template.js';

/** The matrix's table for the current print; null when it has no data and PrintIfEmpty is off. */
export function buildMatrix(e: EngineContext, o: MatrixObjectModel): MatrixResult | null {
  if (o.dataCells.length === 0 || (o.rowHeaders.length === 0 && o.columnHeaders.length === 0)) {
    e.warnings.add(`${o.name}: a matrix needs at least one row or column dimension and one data cell; it is empty`);
    return null;
  }
  const tpl = matrixTemplate(o);
  const culture = e.culture.name;
  const compare = (a: TypedValue | null, b: TypedValue | null): number => compareSortValues(a, b, culture);
  const columns = new HeaderTree(tpl.columnLevels, compare);
  const rows = new HeaderTree(tpl.rowLevels, compare);
  const values = new CellValues(
    o.dataCells.map((c) => (c.function === 'Custom' ? 'None' : c.function)),
    e.report.convertNulls,
  );

  // A ManualBuild handler fills the matrix with AddValue instead of a data source.
  let added = 0;
  const manual =
    o.manualBuildEvent !== '' &&
    e.script.matrixBuild(o, (columnValues, rowValues, cellValues) => {
      e.limits.visitRow();
      addValues(tpl, added++, { columns, rows, values }, columnValues, rowValues, cellValues);
    });
  const cursor = !manual && o.dataSource ? e.data.findSource(o.dataSource) : undefined;
  if (!manual && o.dataSource && !cursor)
    e.warnings.add(`${o.name}: data source "${o.dataSource}" is not in the dictionary; the matrix has no data`);
  if (!manual && !o.dataSource)
    e.warnings.add(
      o.manualBuildEvent
        ? `${o.name}: the matrix is filled by its ManualBuild script handler (${o.manualBuildEvent}), which cannot ` +
            'run; it prints its headers only'
        : `${o.name}: the matrix has no DataSource; it prints its headers only`,
    );
  const restoreCursor = cursorRestorer(cursor);
  try {
    const dataRows = cursor ? filteredSourceRows(e, cursor, o, o.filter, `${o.name}.Filter`) : [];
    if (cursor) {
      for (let i = 0; i < dataRows.length && !e.limits.aborted; i++) {
        e.limits.visitRow();
        cursor.position = i;
        addRow(e, o, tpl, i, { columns, rows, values });
      }
    }
    if (values.isEmpty && columns.root.children.length === 0) {
      if (!o.printIfEmpty) return null;
      // No data: the headers print over one empty row and column.
      columns.add([], 0);
      rows.add([], 0);
    }
    columns.addTotals();
    rows.addTotals();
    const columnTerminals = columns.terminals();
    const rowTerminals = rows.terminals();
    const grid = computeCells(e, o, tpl, values, rowTerminals, columnTerminals);
    return buildResult(e, o, {
      tpl,
      columnRoot: columns.root,
      rowRoot: rows.root,
      columnTerminals,
      rowTerminals,
      value: (r, c, k) => grid[(r * columnTerminals.length + c) * tpl.cellCount + k] ?? null,
      seekRow: (i) => {
        if (cursor && i < cursor.count) cursor.position = i;
      },
    });
  } finally {
    restoreCursor();
  }
}

interface Collected {
  columns: HeaderTree;
  rows: HeaderTree;
  values: CellValues;
}

function levelValues(e: EngineContext, o: MatrixObjectModel, levels: MatrixLevel[], what: string) {
  return levels.map((level, i): TypedValue | null => {
    const d = level.descriptor;
    if (d.expression.trim() === '') return null;
    const v = e.exprs.calc(d, 'expression', d.expression, `${o.name}.${what}[${i}]`);
    return v.value === null || v.value === undefined ? null : v;
  });
}

function addRow(e: EngineContext, o: MatrixObjectModel, tpl: MatrixTemplate, index: number, c: Collected): void {
  const cells = o.dataCells.map((cell, k): TypedValue | null =>
    cell.expression.trim() === '' ? null : e.exprs.calc(cell, 'expression', cell.expression, `${o.name}.Cells[${k}]`),
  );
  addValues(
    tpl,
    index,
    c,
    levelValues(e, o, tpl.columnLevels, 'Columns'),
    levelValues(e, o, tpl.rowLevels, 'Rows'),
    cells,
  );
}

/** One data row's dimension values and cell values (MatrixHelper.AddValue). */
function addValues(
  tpl: MatrixTemplate,
  index: number,
  c: Collected,
  columnValues: readonly (TypedValue | null)[],
  rowValues: readonly (TypedValue | null)[],
  cellValues: readonly (TypedValue | null)[],
): void {
  const present = (v: TypedValue | null | undefined): TypedValue | null =>
    v === null || v === undefined || v.value === null || v.value === undefined ? null : v;
  const columnLeaf = c.columns.add(
    tpl.columnLevels.map((_, i) => present(columnValues[i])),
    index,
  );
  const rowLeaf = c.rows.add(
    tpl.rowLevels.map((_, i) => present(rowValues[i])),
    index,
  );
  for (let k = 0; k < tpl.cellCount; k++) {
    const v = present(cellValues[k]);
    if (v) c.values.add(k, rowLeaf, columnLeaf, v, index);
  }
}

/** Every cell's aggregate (row terminal × column terminal × data cell), percentages applied. */
function computeCells(
  e: EngineContext,
  o: MatrixObjectModel,
  tpl: MatrixTemplate,
  values: CellValues,
  rowTerminals: readonly HeaderItem[],
  columnTerminals: readonly HeaderItem[],
): (TypedValue | null)[] {
  const convertNulls = e.report.convertNulls;
  const rowLeaves = rowTerminals.map(leafIdsOf);
  const columnLeaves = columnTerminals.map(leafIdsOf);
  const k = tpl.cellCount;
  const nc = columnTerminals.length;
  const grid: (TypedValue | null)[] = new Array<TypedValue | null>(rowTerminals.length * nc * k).fill(null);
  let warnedCustom = false;
  for (let r = 0; r < rowTerminals.length; r++) {
    for (let c = 0; c < nc; c++) {
      for (let i = 0; i < k; i++) {
        const cell = o.dataCells[i];
        if (!cell) continue;
        if (cell.function === 'Custom' && !warnedCustom) {
          warnedCustom = true;
          e.warnings.add(`${o.name}: a Custom cell function needs the report script; its first value is shown`);
        }
        const fn = cell.function === 'Custom' ? 'None' : cell.function;
        grid[(r * nc + c) * k + i] = values.aggregate(i, fn, rowLeaves[r] ?? [], columnLeaves[c] ?? []);
      }
    }
  }
  applyPercents(o, tpl, grid, rowTerminals.length, nc, convertNulls);
  return grid;
}

/** Percent cells show their value as a fraction of the row's total column, the column's total
 *  row, or the grand total (the first terminal when the outermost dimension's totals come first,
 *  else the last). */
function applyPercents(
  o: MatrixObjectModel,
  tpl: MatrixTemplate,
  grid: (TypedValue | null)[],
  nr: number,
  nc: number,
  convertNulls: boolean,
): void {
  const k = tpl.cellCount;
  if (!o.dataCells.some((c) => c.percent !== 'None')) return;
  const totalColumn = tpl.columnLevels[0]?.descriptor.totalsFirst ? 0 : nc - 1;
  const totalRow = tpl.rowLevels[0]?.descriptor.totalsFirst ? 0 : nr - 1;
  const source = grid.slice();
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      o.dataCells.forEach((cell, i) => {
        if (cell.percent === 'None') return;
        const refRow = cell.percent === 'ColumnTotal' ? r : totalRow;
        const refColumn = cell.percent === 'RowTotal' ? c : totalColumn;
        const value = source[(r * nc + c) * k + i] ?? null;
        const ref = source[(refRow * nc + refColumn) * k + i] ?? null;
        grid[(r * nc + c) * k + i] = value === null || ref === null ? null : divide(value, ref, convertNulls);
      });
    }
  }
}

function divide(a: TypedValue, b: TypedValue, convertNulls: boolean): TypedValue | null {
  const toDouble = (v: TypedValue): TypedValue =>
    INTEGER_TYPES.has(v.type) ? { value: Number(v.value), type: 'System.Double' } : v;
  try {
    return applyOperator('/', toDouble(a), b, { convertNulls });
  } catch {
    return null;
  }
}
