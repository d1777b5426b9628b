// MatrixObject: the matrix fixtures against cross-tabs computed here from nwind.xml's
// MatrixDemo rows (read with regular expressions, aggregated with plain arithmetic), laid out as
// FastReport lays them out: values sorted, a total after each dimension's values, the grand total
// last; empty intersections blank.
import { describe, expect, it } from 'vitest';
import type { PreparedItem, PreparedReport, PreparedText } from '../../../src/report/engine/index.js';
import { collate, nwindDataSet, nwindRows, runFixture, runTemplate } from './helpers.js';

interface Demo {
  Name: string;
  Year: number;
  Month: number;
  ItemsSold: number;
  Revenue: number;
}

const demo: Demo[] = nwindRows('MatrixDemo').map((r) => ({
  Name: r.Name ?? '',
  Year: Number(r.Year),
  Month: Number(r.Month),
  ItemsSold: Number(r.ItemsSold),
  Revenue: Number(r.Revenue),
}));

const money = (n: number): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(n);
const distinct = <T>(xs: T[]): T[] => [...new Set(xs)];
const names = distinct(demo.map((d) => d.Name)).sort(collate);
const years = distinct(demo.map((d) => d.Year)).sort((a, b) => a - b);

/** Sum of Revenue over the rows that pass `keep`, as the matrix prints it ('' when none). */
function revenue(keep: (d: Demo) => boolean): string {
  const rows = demo.filter(keep);
  return rows.length === 0 ? '' : money(rows.reduce((s, d) => s + d.Revenue, 0));
}

/** The texts of a matrix's printed cells as rows (by their top), each left to right. Cells
 *  spanning rows appear in their first row only. */
function grid(items: readonly PreparedItem[], cellNames: ReadonlySet<string>): PreparedText[][] {
  const rows = new Map<number, PreparedText[]>();
  for (const i of items) {
    if (i.kind !== 'text' || !cellNames.has(i.name)) continue;
    const y = Math.round(i.y * 10) / 10;
    rows.set(y, [...(rows.get(y) ?? []), i]);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r.sort((a, b) => a.x - b.x));
}

const textGrid = (g: PreparedText[][]): string[][] => g.map((r) => r.map((c) => c.text));
const cellSet = (from: number, to: number): Set<string> =>
  new Set(Array.from({ length: to - from + 1 }, (_, i) => `Cell${from + i}`));
const allItems = (r: PreparedReport): PreparedItem[] => r.pages.flatMap((p) => p.items);

/** Name × Year, Revenue summed, with the row and column totals and the grand total. */
function nameByYear(corner: string): string[][] {
  return [
    [corner, ...years.map(String), 'Total'],
    ...names.map((n) => [
      n,
      ...years.map((y) => revenue((d) => d.Name === n && d.Year === y)),
      revenue((d) => d.Name === n),
    ]),
    ['Total', ...years.map((y) => revenue((d) => d.Year === y)), revenue(() => true)],
  ];
}

/** (Year, Month) × Name: each year's months then its "Total" row, the grand total last. */
function yearMonthByName(): string[][] {
  const out: string[][] = [['Year', 'Month', ...names, 'Total']];
  for (const y of years) {
    const months = distinct(demo.filter((d) => d.Year === y).map((d) => d.Month)).sort((a, b) => a - b);
    months.forEach((m, i) => {
      const row = [String(m), ...names.map((n) => revenue((d) => d.Year === y && d.Month === m && d.Name === n))];
      row.push(revenue((d) => d.Year === y && d.Month === m));
      out.push(i === 0 ? [String(y), ...row] : row);
    });
    out.push([
      'Total',
      ...names.map((n) => revenue((d) => d.Year === y && d.Name === n)),
      revenue((d) => d.Year === y),
    ]);
  }
  out.push(['Total', ...names.map((n) => revenue((d) => d.Name === n)), revenue(() => true)]);
  return out;
}

describe('the MatrixDemo data', () => {
  it('has the rows the fixtures are about', () => {
    expect(demo).toHaveLength(18);
    expect(names).toEqual(['Andrew Fuller', 'Janet Leverling', 'Nancy Davolio', 'Steven Buchanan']);
    expect(years).toEqual([2011, 2012, 2013, 2014, 2015]);
  });
});

describe('Simple Matrix.frx: Name × Year', () => {
  const { prepared, warnings } = runFixture('Simple Matrix.frx');
  const g = grid(allItems(prepared), cellSet(1, 9));

  it('prints every data cell, row total, column total and the grand total', () => {
    expect(textGrid(g)).toEqual(nameByYear('Employee'));
    expect(warnings.filter((w) => /not supported|Matrix1/.test(w))).toEqual([]);
    expect(prepared.pages).toHaveLength(1);
  });

  it('sizes the columns and rows as the template says (AutoSize off)', () => {
    const widths = g[0]!.map((c) => c.width);
    expect(widths[0]).toBeCloseTo(94.5, 2);
    for (const w of widths.slice(1)) expect(w).toBeCloseTo(75.6, 2);
    expect(g[0]![0]!.height).toBeCloseTo(28.35, 2);
    for (const row of g.slice(1)) expect(row[0]!.height).toBeCloseTo(18.9, 2);
    // The table starts at the matrix's place, right below the band's part above it.
    for (let x = 1; x < g[0]!.length; x++) expect(g[0]![x]!.x).toBeCloseTo(g[0]![x - 1]!.x + widths[x - 1]!, 2);
    for (let y = 1; y < g.length; y++) expect(g[y]![0]!.y).toBeCloseTo(g[y - 1]![0]!.y + g[y - 1]![0]!.height, 2);
  });
});

describe('cell borders', () => {
  const { prepared } = runFixture('Simple Matrix.frx');
  const g = grid(allItems(prepared), cellSet(1, 9));

  it('draws each shared edge once (the left or upper cell’s line), the outer edges all around', () => {
    let shared = 0;
    for (let y = 0; y < g.length; y++) {
      for (let x = 0; x < g[y]!.length; x++) {
        const c = g[y]![x]!;
        // Every cell of this template has all four lines: only the first row and column keep
        // their top and left ones.
        expect(c.border.lines.right && c.border.lines.bottom).toBe(true);
        expect(c.border.lines.left).toBe(x === 0);
        expect(c.border.lines.top).toBe(y === 0);
        if (x > 0) shared++;
      }
    }
    expect(shared).toBe(6 * 6);
  });
});

describe('Matrix.frx: two matrices, nested rows and a highlight', () => {
  const { prepared, warnings } = runFixture('Matrix.frx');
  const items = allItems(prepared);

  it('prints the simple matrix', () => {
    expect(textGrid(grid(items, cellSet(17, 25)))).toEqual(nameByYear('Employee'));
    expect(warnings.filter((w) => /not supported|Matrix/.test(w))).toEqual([]);
  });

  it('prints the nested-rows matrix below it', () => {
    const g = grid(items, cellSet(1, 16));
    expect(textGrid(g)).toEqual(yearMonthByName());
    const simpleBottom = Math.max(
      ...grid(items, cellSet(17, 25))
        .flat()
        .map((c) => c.y + c.height),
    );
    expect(g[0]![0]!.y).toBeGreaterThan(simpleBottom);
  });

  it('highlights the month cells over 3,000 (Value > 3000) and nothing else', () => {
    const cells = items.filter((i): i is PreparedText => i.kind === 'text' && i.name === 'Cell8');
    const over = demo.filter((d) => d.Revenue > 3000).length;
    const glass = cells.filter((c) => c.fill.kind === 'Glass');
    expect(glass).toHaveLength(over);
    expect(glass.map((c) => c.text).sort()).toEqual(
      demo
        .filter((d) => d.Revenue > 3000)
        .map((d) => money(d.Revenue))
        .sort(),
    );
  });
});

describe('Two Row Dimensions.frx: (Year, Month) × Name', () => {
  const { prepared } = runFixture('Two Row Dimensions.frx');
  const g = grid(allItems(prepared), cellSet(1, 16));

  it('prints the nested row headers in order, each year spanning its months and subtotal', () => {
    expect(textGrid(g)).toEqual(yearMonthByName());
    for (const y of years) {
      const yearCell = g.flat().find((c) => c.text === String(y) && c.x === g[1]![0]!.x)!;
      const months = distinct(demo.filter((d) => d.Year === y).map((d) => d.Month)).length;
      // The year's cell spans its months and its "Total" row (17.21 px each).
      expect(yearCell.height).toBeCloseTo((months + 1) * 17.21, 1);
    }
    const last = g[g.length - 1]!;
    // The grand total's "Total" spans both header columns (48.26 + 47.33).
    expect(last[0]!.width).toBeCloseTo(95.59, 1);
  });
});

describe('Matrix With Columns Only.frx: a title and no row dimension', () => {
  const { prepared } = runFixture('Matrix With Columns Only.frx');
  const g = grid(allItems(prepared), cellSet(1, 9));

  it('prints the title over the names, one row of revenues and their total', () => {
    expect(textGrid(g)).toEqual([
      ['', 'Revenue'],
      ['', ...names, 'Total'],
      ['', ...names.map((n) => revenue((d) => d.Name === n)), revenue(() => true)],
    ]);
    // The empty row-header column is AutoSize: nothing to measure, so no width.
    expect(g[1]![0]!.width).toBe(0);
    expect(g[0]![1]!.width).toBeCloseTo(
      g[1]!.slice(1).reduce((s, c) => s + c.width, 0),
      2,
    );
  });
});

describe('Objects Inside The Matrix.frx: shapes in the data cells', () => {
  const { prepared } = runFixture('Objects Inside The Matrix.frx');
  const items = allItems(prepared);

  it('prints the grid and copies the leaf data cells objects into every leaf cell only', () => {
    expect(textGrid(grid(items, cellSet(1, 9)))).toEqual(nameByYear('Employee'));
    const shapes = items.filter((i) => i.kind === 'shape');
    const cells = items.filter((i) => i.name === 'Cell4');
    for (const s of shapes) {
      const inside = cells.some((c) => s.x >= c.x && s.x + s.width <= c.x + c.width && s.y >= c.y);
      expect(inside).toBe(true);
    }
  });

  it('shows the shapes its Cell4_BeforePrint handler picks by the cell value, in its colours', () => {
    // The handler: one shape always, a second from 100, a third from 3000; red, yellow from 100,
    // green-yellow from 3000 (the value of an empty cell is 0).
    const leafCells = names.length * years.length;
    const cells = items.filter((i) => i.name === 'Cell4');
    expect(cells).toHaveLength(leafCells);
    const red = { r: 255, g: 0, b: 0, a: 255 };
    const yellow = { r: 255, g: 255, b: 0, a: 255 };
    const greenYellow = { r: 173, g: 255, b: 47, a: 255 };
    // The leaf cells by their place: rows are the names, columns the years, both sorted.
    const ys = distinct(cells.map((c) => Math.round(c.y))).sort((a, b) => a - b);
    const xs = distinct(cells.map((c) => Math.round(c.x))).sort((a, b) => a - b);
    let cellNo = 0;
    for (const [ni, n] of names.entries()) {
      for (const [yi, y] of years.entries()) {
        const v = demo.filter((d) => d.Name === n && d.Year === y).reduce((s, d) => s + d.Revenue, 0);
        const cell = cells.find((c) => Math.round(c.y) === ys[ni] && Math.round(c.x) === xs[yi]);
        expect(cell?.kind === 'text' && cell.text).toBe(revenue((d) => d.Name === n && d.Year === y));
        if (!cell) continue;
        const inside = items.filter(
          (s) =>
            s.kind === 'shape' &&
            s.x >= cell.x &&
            s.x < cell.x + cell.width &&
            s.y >= cell.y &&
            s.y < cell.y + cell.height,
        );
        const expected = v >= 3000 ? ['Shape1', 'Shape2', 'Shape3'] : v >= 100 ? ['Shape1', 'Shape2'] : ['Shape1'];
        expect(inside.map((s) => s.name).sort()).toEqual(expected);
        const color = v >= 3000 ? greenYellow : v >= 100 ? yellow : red;
        for (const s of inside) expect(s.kind === 'shape' && s.fill).toEqual({ kind: 'Solid', color });
        cellNo++;
      }
    }
    expect(cellNo).toBe(leafCells);
  });
});

describe('a matrix written by hand: dimensions and a data cell, no template cells', () => {
  const frx = `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <Dictionary>
    <TableDataSource Name="MatrixDemo" ReferenceName="NorthWind.MatrixDemo" DataType="System.Int32" Enabled="true">
      <Column Name="Name" DataType="System.String"/>
      <Column Name="Year" DataType="System.Int32"/>
      <Column Name="Revenue" DataType="System.Decimal"/>
    </TableDataSource>
  </Dictionary>
  <ReportPage Name="Page1">
    <DataBand Name="Data1" Width="718.2" Height="30">
      <MatrixObject Name="M" Top="10" Width="100" Height="20" DataSource="MatrixDemo" Style="Orange">
        <MatrixColumns><Header Expression="[MatrixDemo.Year]"/></MatrixColumns>
        <MatrixRows><Header Expression="[MatrixDemo.Name]"/></MatrixRows>
        <MatrixCells><Cell Expression="[MatrixDemo.Revenue]"/></MatrixCells>
      </MatrixObject>
    </DataBand>
  </ReportPage>
</Report>`;
  const { prepared, warnings } = runTemplate(frx, { datasets: { NorthWind: nwindDataSet() } });
  const names3x3 = new Set(['M', ...[1, 2, 3].flatMap((x) => [1, 2, 3].map((y) => `MCell${x}_${y}`))]);
  const g = grid(allItems(prepared), names3x3);

  it('prints the whole cross-tab from cells made as FastReport makes them, in its Style’s colours', () => {
    const plain = (s: string): string => s.replace(/[$,]/g, '').replace(/\.00$/, '');
    expect(textGrid(g)).toEqual(nameByYear('').map((row) => row.map(plain)));
    expect(warnings.filter((w) => w.startsWith('M:'))).toEqual([]);
    const fill = (c: PreparedText): unknown => (c.fill.kind === 'Solid' ? c.fill.color : c.fill.kind);
    // Headers (first row and column) in the Orange scheme's header colour, the rest in its body's.
    expect(fill(g[0]![1]!)).toEqual({ r: 255, g: 218, b: 70, a: 255 });
    expect(fill(g[1]![0]!)).toEqual({ r: 255, g: 218, b: 70, a: 255 });
    expect(fill(g[1]![1]!)).toEqual({ r: 255, g: 235, b: 155, a: 255 });
    expect(g[1]![0]!.horzAlign).toBe('Center');
    expect(g[1]![1]!.horzAlign).toBe('Right');
  });

  it('takes an unknown Style (even one named like a JavaScript property) as no colours', () => {
    for (const style of ['constructor', '__proto__', 'Purple']) {
      const r = runTemplate(frx.replace('Style="Orange"', `Style="${style}"`), {
        datasets: { NorthWind: nwindDataSet() },
      });
      const cells = grid(allItems(r.prepared), names3x3);
      expect(textGrid(cells)[1]![0]).toBe(names[0]);
      const f = cells[1]![1]!.fill;
      // No scheme: the cells stay transparent.
      expect(f.kind === 'Solid' ? f.color.a : 0).toBe(0);
    }
  });
});
