// MatrixObject, a property: random matrices (1–3 row and 1–3 column dimensions, one or
// two data cells side by side or stacked, every cell function, random Sort / Totals / TotalsFirst /
// SuppressTotals, nulls with ConvertNulls on or off) over random small data, printed by the engine
// and compared cell by cell with a cross-tab computed here with plain arithmetic: every header, every
// data cell, every subtotal, total and the grand total, with their places and spans.
//
// The expected layout follows FastReport's matrix (see the fact sheet of the issue): each dimension's
// values sorted (or in order of first appearance), a total per parent after (or before) them, left
// out when SuppressTotals and the parent has one value; a total aggregates the RAW values under its
// parent (an average of a total is the average of all its values); an empty intersection is blank.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PreparedText } from '../../../src/report/engine/index.js';
import { collate, runTemplate } from './helpers.js';

type Fn = 'Sum' | 'Min' | 'Max' | 'Avg' | 'Count' | 'CountDistinct';
type Sort = 'Ascending' | 'Descending' | 'None';
type DimValue = string | number | null;
type ValueType = 'System.Int32' | 'System.Decimal' | 'System.Double';

interface Dim {
  kind: 'str' | 'int';
  /** The values the data may take (null: a missing value). */
  domain: DimValue[];
  sort: Sort;
  totals: boolean;
  totalsFirst: boolean;
  suppressTotals: boolean;
}

interface DataCell {
  fn: Fn;
  /** Which value column (V0 or V1) the cell aggregates. */
  column: 0 | 1;
}

interface Scenario {
  rows: Dim[];
  columns: Dim[];
  cells: DataCell[];
  sideBySide: boolean;
  valueType: ValueType;
  convertNulls: boolean;
  /** Data rows: row dimension values, column dimension values, V0 and V1. */
  data: { r: DimValue[]; c: DimValue[]; v: [number | null, number | null] }[];
}

// Strings that sort differently by culture ("B" between "a" and "c") and by code point; numbers that
// sort differently as numbers and as text.
const STRINGS = ['a', 'B', 'c', 'd'];
const INTS = [10, 2, 0, -1];
const FUNCTIONS: Fn[] = ['Sum', 'Min', 'Max', 'Avg', 'Count', 'CountDistinct'];
const COLUMN_WIDTH = 60;
const ROW_HEIGHT = 20;

// ---------------------------------------------------------------------------------------------
// Random scenarios

const dimArb: fc.Arbitrary<Dim & { withNull: boolean }> = fc.constantFrom<'str' | 'int'>('str', 'int').chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    domain: fc.shuffledSubarray<DimValue>(kind === 'str' ? STRINGS : INTS, { minLength: 1, maxLength: 3 }),
    withNull: fc.boolean(),
    sort: fc.constantFrom<Sort>('Ascending', 'Descending', 'None'),
    totals: fc.constantFrom(true, true, false),
    totalsFirst: fc.boolean(),
    suppressTotals: fc.boolean(),
  }),
);

/** One data row: indices into each dimension's values, and the two values (null: missing). */
const pickArb = fc.record({
  r: fc.array(fc.nat(11), { minLength: 3, maxLength: 3 }),
  c: fc.array(fc.nat(11), { minLength: 3, maxLength: 3 }),
  v: fc.tuple(
    fc.option(fc.integer({ min: -12, max: 36 }), { freq: 6 }),
    fc.option(fc.integer({ min: -12, max: 36 }), { freq: 6 }),
  ),
});

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    rows: fc.array(dimArb, { minLength: 1, maxLength: 3 }),
    columns: fc.array(dimArb, { minLength: 1, maxLength: 3 }),
    cells: fc.array(fc.record({ fn: fc.constantFrom(...FUNCTIONS), column: fc.constantFrom<0 | 1>(0, 1) }), {
      minLength: 1,
      maxLength: 2,
    }),
    sideBySide: fc.boolean(),
    valueType: fc.constantFrom<ValueType>('System.Int32', 'System.Decimal', 'System.Double'),
    convertNulls: fc.boolean(),
    // Mostly a few rows (sparse grids, single values, no rows at all), sometimes up to 40.
    picks: fc.oneof(
      fc.array(pickArb, { maxLength: 8 }),
      fc.array(pickArb, { minLength: 9, maxLength: 40, size: 'max' }),
    ),
  })
  .map(({ rows, columns, cells, sideBySide, valueType, convertNulls, picks }): Scenario => {
    // A null dimension value with Sort None and ConvertNulls off makes FastReport compare a value
    // with DBNull (an exception there), so that combination is left out.
    const dims = (ds: (Dim & { withNull: boolean })[]): Dim[] =>
      ds.map(({ withNull, ...d }) => ({
        ...d,
        domain: withNull && (d.sort !== 'None' || convertNulls) ? [...d.domain, null] : d.domain,
      }));
    const r = dims(rows);
    const c = dims(columns);
    const scale = valueType === 'System.Int32' ? 1 : 4;
    const value = (n: number | null): number | null => (n === null ? null : n / scale);
    return {
      rows: r,
      columns: c,
      cells,
      sideBySide,
      valueType,
      convertNulls,
      data: picks.map((p) => ({
        r: r.map((d, i) => d.domain[(p.r[i] ?? 0) % d.domain.length] ?? null),
        c: c.map((d, i) => d.domain[(p.c[i] ?? 0) % d.domain.length] ?? null),
        v: [value(p.v[0]), value(p.v[1])],
      })),
    };
  });

// ---------------------------------------------------------------------------------------------
// The template

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const NUMBER_FORMAT =
  'Format="Number" Format.UseLocale="false" Format.DecimalDigits="2" Format.DecimalSeparator="." ' +
  'Format.GroupSeparator="" Format.NegativePattern="1"';

/** Where each part of the matrix sits in its template (FastReport's template geometry). */
interface Geometry {
  k: number;
  sbs: boolean;
  stk: boolean;
  dW: number;
  dH: number;
  hw: number;
  hh: number;
  bw: number;
  bh: number;
  /** Template column of each column dimension's total (-1 without totals). */
  columnTotal: number[];
  /** Template row of each row dimension's total (-1 without totals). */
  rowTotal: number[];
}

function geometry(s: Scenario): Geometry {
  const k = s.cells.length;
  const sbs = s.sideBySide && k > 1;
  const stk = !s.sideBySide && k > 1;
  const dW = sbs ? k : 1;
  const dH = stk ? k : 1;
  const hw = s.rows.length + (stk ? 1 : 0);
  const hh = s.columns.length + (sbs ? 1 : 0);
  const bw = (1 + s.columns.filter((d) => d.totals).length) * dW;
  const bh = (1 + s.rows.filter((d) => d.totals).length) * dH;
  let seen = 0;
  const columnTotal = s.columns.map((d) => (d.totals ? hw + bw - dW * ++seen : -1));
  seen = 0;
  const rowTotal = s.rows.map((d) => (d.totals ? hh + bh - dH * ++seen : -1));
  return { k, sbs, stk, dW, dH, hw, hh, bw, bh, columnTotal, rowTotal };
}

const cellName = (col: number, row: number): string => `Cell${col}_${row}`;

function templateCell(s: Scenario, g: Geometry, col: number, row: number): string {
  const name = cellName(col, row);
  const cell = (attrs: string): string => `<TableCell Name="${name}" ${attrs}/>`;
  if (col < g.hw && row < g.hh) return cell(`Text="corner${col}${row}"`);
  if (row < g.hh) {
    const i = row;
    if (g.sbs && row === g.hh - 1) return cell(`Text="Cap${(col - g.hw) % g.k}"`);
    if (col === g.hw) return cell(`Text="${esc(`[Data.C${i}]`)}" AllowExpressions="false"`);
    if (col === g.columnTotal[i]) return cell('Text="Total"');
    return cell('');
  }
  if (col < g.hw) {
    if (g.stk && col === g.hw - 1) return cell(`Text="Cap${(row - g.hh) % g.k}"`);
    if (row === g.hh) return cell(`Text="${esc(`[Data.R${col}]`)}" AllowExpressions="false"`);
    if (row === g.rowTotal[col]) return cell('Text="Total"');
    return cell('');
  }
  // The body: only the data cells of the innermost values carry the expression.
  const dx = col - g.hw;
  const dy = row - g.hh;
  const k = g.sbs ? dx : g.stk ? dy : 0;
  const leaf = dx < g.dW && dy < g.dH;
  const c = s.cells[k];
  const text = leaf && c ? `Text="${esc(`[Data.V${c.column}]`)}" ` : '';
  return cell(`${text}AllowExpressions="false" ${NUMBER_FORMAT} HorzAlign="Right"`);
}

function header(d: Dim, expression: string): string {
  return (
    `<Header Expression="${esc(expression)}" Sort="${d.sort}" Totals="${d.totals}" ` +
    `TotalsFirst="${d.totalsFirst}" SuppressTotals="${d.suppressTotals}"/>`
  );
}

function template(s: Scenario): string {
  const g = geometry(s);
  const cols = g.hw + g.bw;
  const rows = g.hh + g.bh;
  const dimType = (d: Dim): string => (d.kind === 'str' ? 'System.String' : 'System.Int32');
  const dataColumns = [
    ...s.rows.map((d, i) => `<Column Name="R${i}" DataType="${dimType(d)}"/>`),
    ...s.columns.map((d, i) => `<Column Name="C${i}" DataType="${dimType(d)}"/>`),
    `<Column Name="V0" DataType="${s.valueType}"/>`,
    `<Column Name="V1" DataType="${s.valueType}"/>`,
  ];
  const tableRows: string[] = [];
  for (let y = 0; y < rows; y++) {
    const cells: string[] = [];
    for (let x = 0; x < cols; x++) cells.push(templateCell(s, g, x, y));
    tableRows.push(`<TableRow Name="Row${y}" Height="${ROW_HEIGHT}" AutoSize="false">${cells.join('')}</TableRow>`);
  }
  const columnsXml = s.columns.map((d, i) => header(d, `[Data.C${i}]`)).join('');
  const rowsXml = s.rows.map((d, i) => header(d, `[Data.R${i}]`)).join('');
  const cellsXml = s.cells.map((c) => `<Cell Expression="${esc(`[Data.V${c.column}]`)}" Function="${c.fn}"/>`).join('');
  const widths = Array.from(
    { length: cols },
    (_, x) => `<TableColumn Name="Column${x}" Width="${COLUMN_WIDTH}" AutoSize="false"/>`,
  );
  const matrix =
    `<MatrixObject Name="Matrix1" Left="5" Top="5" Width="${cols * COLUMN_WIDTH}" Height="${rows * ROW_HEIGHT}" ` +
    `AutoSize="false" DataSource="Data" CellsSideBySide="${s.sideBySide}">
        <MatrixColumns>${columnsXml}</MatrixColumns>
        <MatrixRows>${rowsXml}</MatrixRows>
        <MatrixCells>${cellsXml}</MatrixCells>
        ${widths.join('')}
        ${tableRows.join('\n        ')}
      </MatrixObject>`;
  // A page large enough for the biggest matrix (about 80 × 80 cells), so it is never split.
  return `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ConvertNulls="${s.convertNulls}">
  <Dictionary>
    <TableDataSource Name="Data" DataType="System.Int32" Enabled="true">
      ${dataColumns.join('\n      ')}
    </TableDataSource>
  </Dictionary>
  <ReportPage Name="Page1" PaperWidth="3000" PaperHeight="3000">
    <DataBand Name="Data1" Width="11000" Height="${rows * ROW_HEIGHT + 10}">
      ${matrix}
    </DataBand>
  </ReportPage>
</Report>`;
}

/** The rows the engine is given (a null is a missing value). */
function tableRows(s: Scenario): Record<string, DimValue>[] {
  return s.data.map((d) => {
    const o: Record<string, DimValue> = {};
    d.r.forEach((v, i) => {
      o[`R${i}`] = v;
    });
    d.c.forEach((v, i) => {
      o[`C${i}`] = v;
    });
    o.V0 = d.v[0];
    o.V1 = d.v[1];
    return o;
  });
}

// ---------------------------------------------------------------------------------------------
// The plain computation

interface AxisNode {
  value: DimValue;
  total: boolean;
  level: number;
  /** The dimension values a data row must start with to be under this item (a total: its parent's). */
  path: DimValue[];
  children: AxisNode[];
}

function compareDim(a: DimValue, b: DimValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collate(String(a), String(b));
}

/** One axis's items: values per parent in the dimension's order, the totals where they go. */
function axis(dims: Dim[], paths: DimValue[][]): AxisNode[] {
  const build = (level: number, prefix: DimValue[], under: DimValue[][]): AxisNode[] => {
    const d = dims[level] as Dim;
    const values: DimValue[] = [];
    for (const p of under) {
      const v = p[level] ?? null;
      if (!values.includes(v)) values.push(v);
    }
    if (d.sort !== 'None') values.sort((a, b) => (d.sort === 'Descending' ? -1 : 1) * compareDim(a, b));
    const nodes: AxisNode[] = values.map((value) => {
      const path = [...prefix, value];
      const children =
        level + 1 < dims.length
          ? build(
              level + 1,
              path,
              under.filter((p) => p[level] === value),
            )
          : [];
      return { value, total: false, level, path, children };
    });
    if (d.totals && !(d.suppressTotals && values.length <= 1)) {
      const total: AxisNode = { value: null, total: true, level, path: prefix, children: [] };
      if (d.totalsFirst) nodes.unshift(total);
      else nodes.push(total);
    }
    return nodes;
  };
  return build(0, [], paths);
}

const terminals = (nodes: AxisNode[]): AxisNode[] =>
  nodes.flatMap((n) => (n.children.length === 0 ? [n] : terminals(n.children)));
const under = (node: AxisNode, path: DimValue[]): boolean => node.path.every((v, i) => path[i] === v);

/** The aggregate of the values, or null when there are none. */
function aggregate(fn: Fn, values: number[]): number | null {
  if (values.length === 0) return null;
  switch (fn) {
    case 'Sum':
      return values.reduce((a, b) => a + b, 0);
    case 'Avg':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'Min':
      return Math.min(...values);
    case 'Max':
      return Math.max(...values);
    case 'Count':
      return values.length;
    case 'CountDistinct':
      return new Set(values).size;
  }
}

/** One printed cell as expected: its template cell, place, spans and text (or number). */
interface Expected {
  name: string;
  col: number;
  row: number;
  colSpan: number;
  rowSpan: number;
  text?: string;
  /** A data cell: the exact aggregate (null = blank). */
  number?: number | null;
}

function expectedCells(s: Scenario): Expected[] {
  const g = geometry(s);
  const out: Expected[] = [];
  const add = (e: Omit<Expected, 'name'>, tplCol: number, tplRow: number): void => {
    out.push({ name: cellName(tplCol, tplRow), ...e });
  };
  // What the engine reads: with ConvertNulls a missing string is "" and a missing number 0.
  const dim = (d: Dim, v: DimValue): DimValue => (v === null && s.convertNulls ? (d.kind === 'str' ? '' : 0) : v);
  const rows = s.data.map((x) => ({
    r: x.r.map((v, i) => dim(s.rows[i] as Dim, v)),
    c: x.c.map((v, i) => dim(s.columns[i] as Dim, v)),
    v: x.v.map((v) => (v === null && s.convertNulls ? 0 : v)),
  }));
  // No data: the headers print over one item per dimension with no value.
  const paths = (pick: (x: (typeof rows)[number]) => DimValue[], n: number): DimValue[][] =>
    rows.length > 0 ? rows.map(pick) : [Array<DimValue>(n).fill(null)];
  const columnItems = axis(
    s.columns,
    paths((x) => x.c, s.columns.length),
  );
  const rowItems = axis(
    s.rows,
    paths((x) => x.r, s.rows.length),
  );
  const show = (v: DimValue): string => (v === null ? '' : String(v));

  for (let r = 0; r < g.hh; r++)
    for (let c = 0; c < g.hw; c++) add({ col: c, row: r, colSpan: 1, rowSpan: 1, text: `corner${c}${r}` }, c, r);

  const columnTemplate = (n: AxisNode): number => (n.total ? (g.columnTotal[n.level] as number) : g.hw);
  const rowTemplate = (n: AxisNode): number => (n.total ? (g.rowTotal[n.level] as number) : g.hh);
  const lastHeaderRow = g.hh - (g.sbs ? 1 : 0);
  const lastHeaderColumn = g.hw - (g.stk ? 1 : 0);

  const columnHeaders = (nodes: AxisNode[], left: number, top: number): void => {
    for (const n of nodes) {
      const span = terminals([n]).length * g.dW;
      const tc = columnTemplate(n);
      if (n.total) add({ col: left, row: top, colSpan: span, rowSpan: lastHeaderRow - top, text: 'Total' }, tc, top);
      else {
        add({ col: left, row: top, colSpan: span, rowSpan: 1, text: show(n.value) }, tc, top);
        columnHeaders(n.children, left, top + 1);
      }
      if (n.children.length === 0 && g.sbs) {
        for (let k = 0; k < g.k; k++)
          add({ col: left + k, row: g.hh - 1, colSpan: 1, rowSpan: 1, text: `Cap${k}` }, tc + k, g.hh - 1);
      }
      left += span;
    }
  };
  const rowHeaders = (nodes: AxisNode[], left: number, top: number): void => {
    for (const n of nodes) {
      const span = terminals([n]).length * g.dH;
      const tr = rowTemplate(n);
      if (n.total)
        add({ col: left, row: top, colSpan: lastHeaderColumn - left, rowSpan: span, text: 'Total' }, left, tr);
      else {
        add({ col: left, row: top, colSpan: 1, rowSpan: span, text: show(n.value) }, left, tr);
        rowHeaders(n.children, left + 1, top);
      }
      if (n.children.length === 0 && g.stk) {
        for (let k = 0; k < g.k; k++)
          add({ col: g.hw - 1, row: top + k, colSpan: 1, rowSpan: 1, text: `Cap${k}` }, g.hw - 1, tr + k);
      }
      top += span;
    }
  };
  columnHeaders(columnItems, g.hw, 0);
  rowHeaders(rowItems, 0, g.hh);

  terminals(rowItems).forEach((ri, y) => {
    terminals(columnItems).forEach((ci, x) => {
      const values = rows.filter((d) => under(ri, d.r) && under(ci, d.c));
      s.cells.forEach((cell, k) => {
        const list = values.map((d) => d.v[cell.column] ?? null).filter((v): v is number => v !== null);
        add(
          {
            col: g.hw + x * g.dW + (g.sbs ? k : 0),
            row: g.hh + y * g.dH + (g.stk ? k : 0),
            colSpan: 1,
            rowSpan: 1,
            number: aggregate(cell.fn, list),
          },
          columnTemplate(ci) + (g.sbs ? k : 0),
          rowTemplate(ri) + (g.stk ? k : 0),
        );
      });
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading the printed matrix

interface Printed {
  name: string;
  col: number;
  row: number;
  colSpan: number;
  rowSpan: number;
  text: string;
}

function printed(s: Scenario): { cells: Printed[]; pages: number; warnings: string[] } {
  const { prepared, warnings } = runTemplate(template(s), { tables: { Data: tableRows(s) } });
  const items = prepared.pages
    .flatMap((p) => p.items)
    .filter((i): i is PreparedText => i.kind === 'text' && i.name.startsWith('Cell'));
  const x0 = Math.min(...items.map((i) => i.x));
  const y0 = Math.min(...items.map((i) => i.y));
  const cells = items.map((i) => ({
    name: i.name,
    col: Math.round((i.x - x0) / COLUMN_WIDTH),
    row: Math.round((i.y - y0) / ROW_HEIGHT),
    colSpan: Math.round(i.width / COLUMN_WIDTH),
    rowSpan: Math.round(i.height / ROW_HEIGHT),
    text: i.text,
  }));
  return { cells, pages: prepared.pages.length, warnings };
}

const where = (c: { col: number; row: number }): string =>
  `(${String(c.col).padStart(2, '0')},${String(c.row).padStart(2, '0')})`;

/** A number as the data cells print it ("-1.25"), within half a cent of the exact aggregate (an
 *  average may round either way on a tie). */
function sameNumber(text: string, exact: number | null): boolean {
  if (exact === null) return text === '';
  if (!/^-?\d+\.\d\d$/.test(text)) return false;
  return Math.abs(Number(text) - exact) <= 0.005 + 1e-9;
}

/** Expected and printed cells as comparable lines ("(col,row) name span text"), sorted by place; a
 *  printed number that matches its exact aggregate is shown as the expected line. */
function compare(s: Scenario): { actual: string[]; expected: string[]; pages: number; warnings: string[] } {
  const exp = expectedCells(s);
  const got = printed(s);
  const line = (c: { name: string; col: number; row: number; colSpan: number; rowSpan: number }, text: string) =>
    `${where(c)} ${c.name} ${c.colSpan}x${c.rowSpan} ${JSON.stringify(text)}`;
  const expText = (e: Expected): string =>
    e.text ?? (e.number === null || e.number === undefined ? '' : `≈${Number(e.number.toFixed(6))}`);
  const byPlace = new Map(exp.map((e) => [where(e), e]));
  const expected = exp.map((e) => line(e, expText(e))).sort();
  const actual = got.cells
    .map((c) => {
      const e = byPlace.get(where(c));
      if (e && e.text === undefined && e.number !== undefined && sameNumber(c.text, e.number))
        return line(c, expText(e));
      return line(c, c.text);
    })
    .sort();
  return { actual, expected, pages: got.pages, warnings: got.warnings };
}

// ---------------------------------------------------------------------------------------------

describe('MatrixObject property: random cross-tabs against a plain computation', () => {
  it('prints every header, data cell, subtotal, total and the grand total of random matrices', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const r = compare(s);
        expect(r.warnings.filter((w) => /Matrix1/.test(w))).toEqual([]);
        expect(r.pages).toBe(1);
        expect(r.actual).toEqual(r.expected);
      }),
      { numRuns: 60 },
    );
  });
});
