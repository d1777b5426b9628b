// MatrixObject: a TableObject whose cells are a template, and the three lists that say what fills
// it (FastReport.Base/Matrix): <MatrixColumns> and <MatrixRows> hold one <Header> per dimension
// (outermost first), <MatrixCells> one <Cell> per data cell. Defaults are FastReport's: a
// dimension sorts ascending with a total after its values; a data cell sums.

import { padding } from './defaults.js';
import { matrixTemplate, type MatrixTemplate } from './matrix-template.js';
import type { MatrixCellModel, MatrixHeaderModel, MatrixObjectModel } from './model.js';
import { defaultColumn, defaultRow, layOutCells, readTable, type TableParsers } from './table.js';
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
  // The matrix's AutoSize is the designer's switch for its columns' and rows' own AutoSize (and
  // those of the columns and rows added here).
  completeTemplate(matrix, a.bool('AutoSize', true), ctx, parsers);
  matrix.raw = a.rest();
  return matrix;
}

/** A built-in colour scheme (FastReport's cross.frss): border colour and fill of the header cells
 *  and of the body cells ('' = no fill). */
const SCHEMES: Record<string, { header: [string, string]; body: [string, string] }> = {
  white: { header: ['LightGray', ''], body: ['LightGray', ''] },
  gray: { header: ['White', 'Gainsboro'], body: ['White', 'WhiteSmoke'] },
  orange: { header: ['White', '255, 218, 70'], body: ['White', '255, 235, 155'] },
  green: { header: ['White', '123, 164, 0'], body: ['White', '158, 210, 0'] },
  greenorange: { header: ['White', '152, 204, 0'], body: ['White', '255, 204, 0'] },
  blue: { header: ['White', '151, 189, 253'], body: ['White', '186, 211, 254'] },
  bluewhite: { header: ['White', '151, 189, 253'], body: ['White', 'White'] },
  grayorange: { header: ['White', 'Gray'], body: ['White', '255, 204, 0'] },
  blueorange: { header: ['White', '151, 189, 253'], body: ['White', '255, 207, 106'] },
  orangewhite: { header: ['White', '255, 207, 106'], body: ['White', 'White'] },
};

/**
 * A template smaller than its dimensions need (written by hand: FastReport's designer always
 * writes every cell) gets the missing columns, rows and cells as FastReport makes them when it
 * prints: headers centred, data right-aligned, coloured by the matrix's Style, "Total" on the
 * totals and the data cell's column name on its caption.
 */
function completeTemplate(m: MatrixObjectModel, autoSize: boolean, ctx: LoadContext, parsers: TableParsers): void {
  if (m.dataCells.length === 0 || (m.rowHeaders.length === 0 && m.columnHeaders.length === 0)) return;
  const t = matrixTemplate(m);
  if (m.columns.length >= t.columnCount && m.rows.length >= t.rowCount) return;
  while (m.columns.length < t.columnCount)
    m.columns.push(defaultColumn(`${m.name}Column${m.columns.length + 1}`, m.line, autoSize));
  while (m.rows.length < t.rowCount) m.rows.push(defaultRow(`${m.name}Row${m.rows.length + 1}`, m.line, autoSize));
  const totals = new Set(
    [...t.columnLevels, ...t.rowLevels].flatMap((l) => (l.total ? [`${l.total.col},${l.total.row}`] : [])),
  );
  const style = m.matrixStyle.toLowerCase();
  const scheme = Object.hasOwn(SCHEMES, style) ? SCHEMES[style] : undefined;
  m.rows.forEach((_, y) => {
    const row = (m.cells[y] ??= []);
    for (let x = row.length; x < m.columns.length; x++) {
      const header = x < t.hw || y < t.hh;
      const attrs: Record<string, string> = {
        Name: `${m.name}Cell${x + 1}_${y + 1}`,
        AllowExpressions: 'false',
        HorzAlign: header ? 'Center' : 'Right',
        VertAlign: 'Center',
        Text: totals.has(`${x},${y}`) ? 'Total' : captionOf(m, t, x, y),
      };
      if (scheme) {
        const [border, fill] = header ? scheme.header : scheme.body;
        attrs['Border.Lines'] = 'All';
        attrs['Border.Color'] = border;
        if (fill) attrs['Fill.Color'] = fill;
      }
      const el: XmlElement = { name: 'TableCell', attrs, children: [], text: '', line: m.line };
      row.push({ ...parsers.parseText(el, ctx, padding(2, 1, 2, 1)), colSpan: 1, rowSpan: 1, objects: [] });
    }
  });
  layOutCells(m);
}

/** A data cell's caption (several data cells): the column its expression names. */
function captionOf(m: MatrixObjectModel, t: MatrixTemplate, x: number, y: number): string {
  let k = -1;
  if (t.sideBySide && y === t.hh - 1 && x >= t.hw) k = (x - t.hw) % t.cellCount;
  if (t.stacked && x === t.hw - 1 && y >= t.hh) k = (y - t.hh) % t.cellCount;
  const expression = m.dataCells[k]?.expression.trim() ?? '';
  const name = expression.replace(/^\[|\]$/g, '');
  return name.slice(name.lastIndexOf('.') + 1);
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
