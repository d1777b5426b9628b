// The AdvMatrix's parts on templates written here: the descriptor trees as the loader
// reads them, the aggregates the demos do not use (Min, Max, Avg, CountDistinct, the row and
// grand percentages), Sort None, filters, and the limits a hostile template meets: header trees
// nested too deep or too large are cut with a warning, a matrix with too many cells is a
// TemplateError, a cell formula that does not close is a TemplateError naming the cell.

import { describe, expect, it } from 'vitest';
import { cellFormula } from '../../../src/report/engine/adv-matrix/formula.js';
import { MAX_ADV_MATRIX_CELLS } from '../../../src/report/engine/adv-matrix/build.js';
import { TemplateError } from '../../../src/report/errors.js';
import { MAX_DESCRIPTOR_DEPTH, MAX_DESCRIPTORS } from '../../../src/report/frx/adv-matrix.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import { allBands } from '../../../src/report/frx/load.js';
import type { AdvDescriptorModel, AdvMatrixObjectModel } from '../../../src/report/frx/model.js';
import { cellNames, matrixGrid } from './adv-matrix-helpers.js';
import { nwindDataSet, nwindRows, runTemplate } from './helpers.js';

const MATRIX_DEMO =
  '<TableDataSource Name="MatrixDemo" ReferenceName="NorthWind.MatrixDemo" DataType="System.Int32" Enabled="true">' +
  '<Column Name="Name" DataType="System.String"/><Column Name="Year" DataType="System.Int32"/>' +
  '<Column Name="Month" DataType="System.Int32"/><Column Name="ItemsSold" DataType="System.Int32"/>' +
  '<Column Name="Revenue" DataType="System.Decimal"/></TableDataSource>';

function report(matrix: string, dictionary = MATRIX_DEMO): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><Report><Dictionary>${dictionary}</Dictionary>` +
    '<ReportPage Name="Page1"><ReportTitleBand Name="ReportTitle1" Width="718.2" Height="40">' +
    `${matrix}</ReportTitleBand></ReportPage></Report>`
  );
}

const cell = (name: string, text = '', extra = ''): string =>
  `<TableCell Name="${name}" Text="${text.replace(/"/g, '&quot;')}" AllowExpressions="false" ${extra}/>`;
const row = (cells: string[]): string => `<TableRow Name="R">${cells.join('')}</TableRow>`;
const columns = (n: number): string => Array.from({ length: n }, () => '<TableColumn Width="80"/>').join('');

function matrixOf(xml: string): AdvMatrixObjectModel {
  const { report: r, warnings } = loadFrx(xml);
  const page = r.pages[0];
  const m =
    page &&
    allBands(page)
      .flatMap((b) => b.objects)
      .find((o) => o.type === 'AdvMatrixObject');
  if (m?.type !== 'AdvMatrixObject') throw new Error('no matrix');
  return Object.assign(m, { loadWarnings: warnings });
}

const depth = (ds: readonly AdvDescriptorModel[]): number => Math.max(0, ...ds.map((d) => 1 + depth(d.children)));

describe('the descriptor trees', () => {
  it('reads groups, static items, TopN links, Stepped, Sort (Ascending by default) and DisplayText', () => {
    const m = matrixOf(
      report(
        '<AdvMatrixObject Name="M" DataSource="MatrixDemo" Style="Blue"><Columns>' +
          '<Descriptor Expression="[MatrixDemo.Name]" Sort="Descending" SortByTotal="Sum([MatrixDemo.Revenue])" ' +
          'TopN.Count="2" TopN.Total.Name="T" TopN.Others.Name="O" TopN.OthersTotal.Name="OT" Visible="false" ' +
          'VisibleToggledBy="B1"/><Descriptor Name="T" DisplayText="Total"/><Descriptor Name="O"/>' +
          '<Descriptor Name="OT" DisplayText="Others ([M.ItemCount])"/></Columns><Rows>' +
          '<Descriptor Expression="[MatrixDemo.Year]" Stepped="true"><Descriptor Expression="[MatrixDemo.Month]" ' +
          'DisplayText="[MonthName([MatrixDemo.Month])]"/></Descriptor><Descriptor DisplayText="Total" RowSpan="2"/>' +
          '</Rows></AdvMatrixObject>',
      ),
    );
    const [name, total, others, othersTotal] = m.columnDescriptors;
    expect(name).toMatchObject({
      expression: '[MatrixDemo.Name]',
      sort: 'Descending',
      sortByTotal: 'Sum([MatrixDemo.Revenue])',
      visible: false,
      topN: { count: 2, total: 'T', others: 'O', othersTotal: 'OT' },
      children: [],
    });
    expect([total?.displayText, others?.name, othersTotal?.displayText]).toEqual([
      'Total',
      'O',
      'Others ([M.ItemCount])',
    ]);
    const [year, rowTotal] = m.rowDescriptors;
    expect(year).toMatchObject({ stepped: true, sort: 'Ascending', topN: null });
    expect(year?.children[0]?.displayText).toBe('[MonthName([MatrixDemo.Month])]');
    expect(rowTotal).toMatchObject({ expression: '', displayText: 'Total', stepped: false });
    // Blue is a built-in colour scheme, not a report style (no "style not defined").
    expect([m.style, m.matrixStyle]).toEqual(['', 'Blue']);
    expect((m as unknown as { loadWarnings: string[] }).loadWarnings).toEqual([]);
  });

  it(`cuts a tree nested deeper than ${MAX_DESCRIPTOR_DEPTH} levels, with a warning, and still prints`, () => {
    let nested = '';
    for (let i = 0; i < 40; i++) nested = `<Descriptor DisplayText="L${i}">${nested}</Descriptor>`;
    const xml = report(
      `<AdvMatrixObject Name="M" DataSource="MatrixDemo"><Columns>${nested}</Columns>` +
        `<Rows><Descriptor Expression="[MatrixDemo.Name]"/></Rows>${columns(2)}${row([cell('C1'), cell('C2')])}` +
        `${row([cell('C3', '[Name]'), cell('C4', '[Sum([MatrixDemo.Revenue])]')])}</AdvMatrixObject>`,
    );
    const m = matrixOf(xml);
    expect(depth(m.columnDescriptors)).toBe(MAX_DESCRIPTOR_DEPTH);
    const { prepared, warnings } = runTemplate(xml, { datasets: { NorthWind: nwindDataSet() } });
    expect(warnings.some((w) => w.includes(`nested deeper than ${MAX_DESCRIPTOR_DEPTH} levels`))).toBe(true);
    // The template has no cells for the levels: said once, and the rest prints.
    expect(warnings.filter((w) => w.includes('its template has no cell'))).toHaveLength(1);
    expect(prepared.pages.length).toBe(1);
  });

  it(`keeps the first ${MAX_DESCRIPTORS} items of a tree, with a warning`, () => {
    const many = Array.from({ length: MAX_DESCRIPTORS + 50 }, (_, i) => `<Descriptor DisplayText="S${i}"/>`).join('');
    const m = matrixOf(report(`<AdvMatrixObject Name="M"><Columns>${many}</Columns></AdvMatrixObject>`));
    expect(m.columnDescriptors).toHaveLength(MAX_DESCRIPTORS);
    const said = (m as unknown as { loadWarnings: string[] }).loadWarnings;
    expect(said.filter((w) => w.includes(`more than ${MAX_DESCRIPTORS} header items`))).toHaveLength(1);
  });
});

describe('cell formulas', () => {
  const none = (): boolean => false;

  it('takes each aggregate out, with the place it is taken at', () => {
    const f = cellFormula('NextColumn(Sum([T.Revenue])) - FirstColumn()', none, 'M.Cell');
    expect(f.source).toBe('(__advAgg0()) - __advAgg1()');
    expect(f.aggregates).toEqual([{ fn: 'Sum', user: '', arg: '[T.Revenue]' }]);
    expect(f.refs).toEqual([
      { agg: 0, place: { kind: 'Column', to: 'Next' } },
      { agg: 0, place: { kind: 'Column', to: 'First' } },
    ]);
    const s = cellFormula('SpecificColumn(2012, Sum([X])) / SpecificColumn(2011)', none, 'M.Cell');
    expect(s.refs.map((r) => r.place)).toEqual([
      { kind: 'SpecificColumn', key: '2012' },
      { kind: 'SpecificColumn', key: '2011' },
    ]);
    const p = cellFormula(
      'Round(PercentOfRowTotal(Avg([X])), 2) + _F([Y]) + "Sum(" + [A.Sum(1)]',
      (n) => n === '_F',
      'M',
    );
    expect(p.source).toBe('Round((__advAgg0()), 2) + __advAgg1() + "Sum(" + [A.Sum(1)]');
    expect(p.aggregates.map((a) => [a.fn, a.user, a.arg])).toEqual([
      ['Avg', '', '[X]'],
      ['User', '_F', '[Y]'],
    ]);
  });

  it('refuses what it cannot read with a TemplateError naming the cell', () => {
    expect(() => cellFormula('Sum([X]', none, 'M.Cell4')).toThrow(/M\.Cell4/);
    expect(() => cellFormula('FirstColumn()', none, 'M.Cell4')).toThrow(TemplateError);
    const deep = `${'PercentOfColumnTotal('.repeat(100)}Sum([X])${')'.repeat(100)}`;
    expect(() => cellFormula(deep, none, 'M.Cell4')).toThrow(/nested deeper/);
  });
});

describe('aggregates and orders the demos do not use', () => {
  const rows = nwindRows('MatrixDemo');
  const revenue = (r: Record<string, string>): number => Number(r.Revenue);
  /** Names in the order of their first row (Sort None). */
  const names = [...new Set(rows.map((r) => r.Name as string))];

  it('Min, Max, Avg, CountDistinct, percentages of the row and grand totals; Sort None; Filters', () => {
    const aggregates = [
      ['Min', 'Min([MatrixDemo.Revenue])'],
      ['Max', 'Max([MatrixDemo.Revenue])'],
      ['Avg', 'Avg([MatrixDemo.ItemsSold])'],
      ['Years', 'CountDistinct([MatrixDemo.Year])'],
      ['Grand', 'PercentOfGrandTotal(Sum([MatrixDemo.Revenue]))'],
    ] as const;
    const xml = report(
      '<AdvMatrixObject Name="M" DataSource="MatrixDemo" Filter="[MatrixDemo.Month] != 12"><Columns>' +
        aggregates.map(([c]) => `<Descriptor DisplayText="${c}"/>`).join('') +
        '</Columns><Rows><Descriptor Expression="[MatrixDemo.Name]" Sort="None" Filter="[MatrixDemo.Year] != 2015"/>' +
        `<Descriptor DisplayText="Total"/></Rows>${columns(1 + aggregates.length)}` +
        row([cell('K', 'Who'), ...aggregates.map(([c]) => cell(`H${c}`, c))]) +
        row([cell('N', '[Name]'), ...aggregates.map(([c, f]) => cell(`D${c}`, `[${f}]`))]) +
        row([cell('T', 'Total'), ...aggregates.map(([c, f]) => cell(`E${c}`, `[${f}]`))]) +
        '</AdvMatrixObject>',
    );
    const run = runTemplate(xml, { datasets: { NorthWind: nwindDataSet() } });
    expect(run.warnings).toEqual([]);
    const m = matrixOf(xml);
    const g = matrixGrid(run.prepared, cellNames([m], 'M')).texts;
    const kept = rows.filter((r) => r.Month !== '12');
    const all = kept.reduce((s, r) => s + revenue(r), 0);
    const line = (label: string, rs: Record<string, string>[]) => {
      const rev = rs.map(revenue);
      const items = rs.map((r) => Number(r.ItemsSold));
      return [
        label,
        String(Math.min(...rev)),
        String(Math.max(...rev)),
        String(items.reduce((s, v) => s + v, 0) / items.length),
        String(new Set(rs.map((r) => r.Year)).size),
        String(rev.reduce((s, v) => s + v, 0) / all),
      ];
    };
    expect(g[0]).toEqual(['Who', ...aggregates.map(([c]) => c)]);
    const named = names.filter((n) => kept.some((r) => r.Name === n && r.Year !== '2015'));
    expect(g.slice(1)).toEqual([
      ...named.map((n) =>
        line(
          n,
          kept.filter((r) => r.Name === n && r.Year !== '2015'),
        ),
      ),
      line('Total', kept),
    ]);
  });

  it('without data prints its static items only (PrintIfEmpty), or nothing', () => {
    const SUM = '[Sum([MatrixDemo.Revenue])]';
    const COUNT = '[Count([MatrixDemo.Revenue])]';
    const matrix = (filter: string, printIfEmpty: boolean): string =>
      report(
        `<AdvMatrixObject Name="M" DataSource="MatrixDemo" Filter="${filter}" PrintIfEmpty="${printIfEmpty}">` +
          '<Columns><Descriptor Expression="[MatrixDemo.Year]"/><Descriptor DisplayText="Total"/></Columns>' +
          '<Rows><Descriptor Expression="[MatrixDemo.Name]"/><Descriptor DisplayText="Total"/></Rows>' +
          `${columns(3)}${row([cell('A', 'Who'), cell('B', '[Year]'), cell('C', 'Total')])}` +
          row([cell('D', '[Name]'), cell('E', SUM), cell('F', SUM)]) +
          row([cell('G', 'Total'), cell('H', COUNT), cell('I', COUNT)]) +
          '</AdvMatrixObject>',
      );
    const empty = runTemplate(matrix('false', true), { datasets: { NorthWind: nwindDataSet() } });
    expect(empty.warnings).toEqual([]);
    const names = new Set(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']);
    expect(matrixGrid(empty.prepared, names).texts).toEqual([
      ['Who', 'Total'],
      ['Total', ''],
    ]);
    const none = runTemplate(matrix('false', false), { datasets: { NorthWind: nwindDataSet() } });
    expect(matrixGrid(none.prepared, names).texts).toEqual([]);
  });

  it(`refuses a matrix of more than ${MAX_ADV_MATRIX_CELLS} cells with a TemplateError`, () => {
    const od =
      '<TableDataSource Name="Order Details" ReferenceName="NorthWind.Order Details" DataType="System.Int32" ' +
      'Enabled="true"><Column Name="OrderID" DataType="System.Int32"/><Column Name="ProductID" ' +
      'DataType="System.Int32"/></TableDataSource>';
    const key = '[Order Details.OrderID] * 100 + [Order Details.ProductID]';
    const xml = report(
      `<AdvMatrixObject Name="Huge" DataSource="Order Details"><Columns><Descriptor Expression="${key}"/></Columns>` +
        `<Rows><Descriptor Expression="${key}"/></Rows>${columns(2)}${row([cell('A'), cell('B', '[Key]')])}` +
        `${row([cell('C', '[Key]'), cell('D', '[Count([Order Details.OrderID])]')])}</AdvMatrixObject>`,
      od,
    );
    const started = Date.now();
    expect(() => runTemplate(xml, { datasets: { NorthWind: nwindDataSet() } })).toThrow(
      new RegExp(`Huge.*at most ${MAX_ADV_MATRIX_CELLS}`),
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
