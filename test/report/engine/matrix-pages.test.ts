// A matrix larger than the page: its table prints in parts that fit, the header rows
// and row-header columns repeated on each part, in the order its Layout says; a dimension's
// PageBreak starts a new part for each value. Data: nwind.xml's Orders, counted independently.
import { describe, expect, it } from 'vitest';
import type { PreparedReport, PreparedText } from '../../../src/report/engine/index.js';
import { collate, nwindDataSet, nwindRows, runTemplate } from './helpers.js';

const orders = nwindRows('Orders');
const distinctSorted = (key: string): string[] => [...new Set(orders.map((o) => o[key] ?? ''))].sort(collate);
const customers = distinctSorted('CustomerID');
const countries = distinctSorted('ShipCountry');

const cell = (name: string, text: string, attrs = ''): string =>
  `<TableCell Name="${name}" Border.Lines="All" Text="${text}" ${attrs}/>`;

/** A 3 × 3 matrix template (corner, column header and total, row header and total, data cells)
 *  counting Orders by the given row and column expressions. */
function matrixReport(rowExpr: string, columnExpr: string, matrixAttrs = '', rowAttrs = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <Dictionary>
    <TableDataSource Name="Orders" ReferenceName="NorthWind.Orders" DataType="System.Int32" Enabled="true">
      <Column Name="OrderID" DataType="System.Int32"/>
      <Column Name="CustomerID" DataType="System.String"/>
      <Column Name="ShipCountry" DataType="System.String"/>
    </TableDataSource>
  </Dictionary>
  <ReportPage Name="Page1">
    <DataBand Name="Data1" Width="718.2" Height="56.7">
      <TextObject Name="Above" Width="300" Height="18.9" Text="above the matrix"/>
      <MatrixObject Name="Matrix1" Left="9.45" Top="28.35" Width="200" Height="56.7" DataSource="Orders" ${matrixAttrs}>
        <MatrixColumns><Header Expression="${columnExpr}"/></MatrixColumns>
        <MatrixRows><Header Expression="${rowExpr}" ${rowAttrs}/></MatrixRows>
        <MatrixCells><Cell Expression="[Orders.OrderID]" Function="Count"/></MatrixCells>
        <TableColumn Name="Column1" Width="80"/>
        <TableColumn Name="Column2" Width="60"/>
        <TableColumn Name="Column3" Width="60"/>
        <TableRow Name="Row1">
          ${cell('Corner', 'Corner')}${cell('ColumnHeader', '')}${cell('ColumnTotal', 'Total')}
        </TableRow>
        <TableRow Name="Row2">
          ${cell('RowHeader', '')}${cell('Data', '')}${cell('DataColumnTotal', '')}
        </TableRow>
        <TableRow Name="Row3">
          ${cell('RowTotal', 'Total')}${cell('DataRowTotal', '')}${cell('Grand', '')}
        </TableRow>
      </MatrixObject>
    </DataBand>
    <DataBand Name="After" Width="718.2" Height="18.9">
      <TextObject Name="AfterText" Width="300" Height="18.9" Text="after the matrix"/>
    </DataBand>
  </ReportPage>
</Report>`;
}

const run = (frx: string): PreparedReport => runTemplate(frx, { datasets: { NorthWind: nwindDataSet() } }).prepared;
const named = (r: PreparedReport, page: number, name: string): PreparedText[] =>
  (r.pages[page]?.items ?? []).filter((i): i is PreparedText => i.kind === 'text' && i.name === name);
const texts = (items: PreparedText[]): string[] => items.map((i) => i.text);
const byY = (items: PreparedText[]): PreparedText[] => [...items].sort((a, b) => a.y - b.y);
const byX = (items: PreparedText[]): PreparedText[] => [...items].sort((a, b) => a.x - b.x);

describe('a matrix taller than the page', () => {
  const r = run(matrixReport('[Orders.CustomerID]', '[Orders.ShipCountry]', 'Layout="DownThenAcross"'));

  it('goes on over the pages with the header row repeated on each, every row once', () => {
    expect(r.pages.length).toBeGreaterThan(1);
    const rowHeaders = r.pages.flatMap((_, p) => texts(byY(named(r, p, 'RowHeader'))));
    const columnParts = new Set(r.pages.map((_, p) => texts(byX(named(r, p, 'ColumnHeader'))).join('|')));
    // Every customer once, in order, down the first column part's pages (then again for the next
    // column parts, each starting a page).
    expect(rowHeaders.length % customers.length).toBe(0);
    expect(rowHeaders.slice(0, customers.length)).toEqual(customers);
    for (let p = 0; p < r.pages.length; p++) {
      expect(named(r, p, 'Corner')).toHaveLength(1);
      const page = r.pages[p]!;
      for (const i of page.items) expect(i.y + i.height).toBeLessThanOrEqual(page.heightPx + 0.01);
    }
    // Each page's columns are one part of the countries; together they are every country once.
    const parts = [...columnParts].map((s) => s.split('|'));
    expect(parts.flat().filter((t) => t !== '')).toEqual(countries);
  });

  it('counts the orders of every customer and country', () => {
    const counts = new Map<string, number>();
    for (const o of orders) counts.set(o.CustomerID!, (counts.get(o.CustomerID!) ?? 0) + 1);
    const totals = r.pages.flatMap((_, p) => texts(byY(named(r, p, 'DataColumnTotal'))));
    expect(totals.map(Number)).toEqual(customers.map((c) => counts.get(c)));
    const grand = r.pages.flatMap((_, p) => texts(named(r, p, 'Grand')));
    expect(grand).toEqual([String(orders.length)]);
  });

  it('prints the band’s part above the matrix, and what follows below the matrix', () => {
    expect(texts(named(r, 0, 'Above'))).toEqual(['above the matrix']);
    const last = r.pages.findIndex((_, p) => named(r, p, 'AfterText').length > 0);
    expect(last).toBe(r.pages.length - 1);
    const after = named(r, last, 'AfterText')[0]!;
    const lowest = Math.max(...r.pages[last]!.items.filter((i) => i.name !== 'AfterText').map((i) => i.y + i.height));
    expect(after.y).toBeGreaterThanOrEqual(lowest - 0.01);
  });
});

describe('a matrix wider than the page (AcrossThenDown)', () => {
  const r = run(matrixReport('[Orders.ShipCountry]', '[Orders.CustomerID]'));

  it('prints the column parts on consecutive pages, the row headers repeated at the left edge', () => {
    const headerParts = r.pages.map((_, p) => texts(byX(named(r, p, 'ColumnHeader'))));
    expect(headerParts.flat()).toEqual(customers);
    expect(headerParts.filter((h) => h.length > 0).length).toBeGreaterThan(2);
    const first = named(r, 0, 'Corner')[0]!;
    const second = named(r, 1, 'Corner')[0]!;
    // The first part starts at the matrix's Left; later ones at the left margin.
    expect(second.x).toBeLessThan(first.x);
    expect(first.x - second.x).toBeCloseTo(9.45, 2);
    for (let p = 0; p < r.pages.length; p++) {
      if (named(r, p, 'ColumnHeader').length === 0) continue;
      expect(texts(byY(named(r, p, 'RowHeader')))).toEqual(countries);
      const page = r.pages[p]!;
      for (const i of page.items) expect(i.x + i.width).toBeLessThanOrEqual(page.widthPx + 0.01);
    }
  });
});

describe('PageBreak on a row dimension', () => {
  const r = run(matrixReport('[Orders.ShipCountry]', '[Orders.OrderID] % 3', '', 'PageBreak="true" Totals="false"'));

  it('starts a page for each value, each with the header row', () => {
    const perPage = r.pages.map((_, p) => texts(named(r, p, 'RowHeader')));
    expect(perPage.flat()).toEqual(countries);
    for (const rows of perPage) expect(rows.length).toBeLessThanOrEqual(1);
    expect(r.pages.filter((_, p) => named(r, p, 'RowHeader').length > 0)).toHaveLength(countries.length);
  });
});
