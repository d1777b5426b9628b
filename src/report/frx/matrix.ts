// MatrixObject: a TableObject whose cells are a template, and the three lists that say what fills
// it (FastReport.Base/Matrix): <MatrixColumns> and <MatrixRows> hold one <Header> per dimension
// (outermost first), <MatrixCells> one <Cell> per data cell. Defaults are FastReport's: a
// dimension sorts ascending with a total after its values; a data cell sums.

import type { MatrixCellModel, MatrixHeaderModel, MatrixObjectModel } from './model.js';
import { readTable, type TableParsers } from './table.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

const DESCRIPTOR_LISTS = new Set(['MatrixColumns', 'MatrixRows', 'MatrixCells']);

export function parseMatrixObject(el: XmlElement, ctx: LoadContext, parsers: TableParsers): MatrixObjectModel {
  const a = new Attrs(el, ctx);
  const table = readTable(el, a, ctx, parsers, DESCRIPTOR_LISTS);
  const list = (name: string): XmlElement[] =>
    el.children.filter((c) => c.name.toLowerCase() === name.toLowerCase()).flatMap((c) => c.children);
  const matrix: MatrixObjectModel = {
    ...table,
    type: 'MatrixObject',
    // The matrix's Style names a colour scheme, not a report style: the template cells already
    // carry its colours (the designer applied it), so it is kept for the record only.
    style: '',
    matrixStyle: table.style,
    dataSource: a.str('DataSource'),
    filter: a.str('Filter'),
    columnHeaders: descriptors(list('MatrixColumns'), 'Header', ctx).map(header),
    rowHeaders: descriptors(list('MatrixRows'), 'Header', ctx).map(header),
    dataCells: descriptors(list('MatrixCells'), 'Cell', ctx).map(cell),
    cellsSideBySide: a.bool('CellsSideBySide', false),
    keepCellsSideBySide: a.bool('KeepCellsSideBySide', false),
    showTitle: a.bool('ShowTitle', false),
    matrixEvenStylePriority: a.enumOf('MatrixEvenStylePriority', ['Rows', 'Columns'] as const, 'Rows'),
    splitRows: a.bool('SplitRows', false),
    printIfEmpty: a.bool('PrintIfEmpty', true),
  };
  // The matrix's AutoSize is the designer's switch for its columns' and rows' own AutoSize.
  a.markUsed('AutoSize');
  matrix.raw = a.rest();
  return matrix;
}

function descriptors(children: XmlElement[], name: string, ctx: LoadContext): Attrs[] {
  const out: Attrs[] = [];
  for (const child of children) {
    if (child.name !== name) ctx.warn(`${describe(child)} is not a matrix <${name}>; it is ignored`);
    else out.push(new Attrs(child, ctx));
  }
  return out;
}

function header(a: Attrs): MatrixHeaderModel {
  return {
    expression: a.str('Expression'),
    sort: a.enumOf('Sort', ['Ascending', 'Descending', 'None'] as const, 'Ascending'),
    totals: a.bool('Totals', true),
    totalsFirst: a.bool('TotalsFirst', false),
    pageBreak: a.bool('PageBreak', false),
    suppressTotals: a.bool('SuppressTotals', false),
  };
}

function cell(a: Attrs): MatrixCellModel {
  return {
    expression: a.str('Expression'),
    function: a.enumOf(
      'Function',
      ['None', 'Sum', 'Min', 'Max', 'Avg', 'Count', 'CountDistinct', 'Custom'] as const,
      'Sum',
    ),
    percent: a.enumOf('Percent', ['None', 'ColumnTotal', 'RowTotal', 'GrandTotal'] as const, 'None'),
  };
}
