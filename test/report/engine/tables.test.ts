// TableObject: the Table and Labels demos against values read from the templates and
// from nwind.xml independently of the engine.
import { describe, expect, it } from 'vitest';
import type { PreparedItem, PreparedReport } from '../../../src/report/engine/index.js';
import { nwindRows, runFixture, runTemplate } from './helpers.js';

const near = (a: number, b: number): boolean => Math.abs(a - b) < 0.01;

function item(r: PreparedReport, name: string, page = 0): PreparedItem {
  const found = r.pages[page]?.items.find((i) => i.name === name);
  if (!found) throw new Error(`no item ${name} on page ${page + 1}`);
  return found;
}

/** The text of every text item named `name`, in print order (as set, before line breaking). */
function textsOf(r: PreparedReport, name: string): string[] {
  return itemsNamed(r, name).map((i) => (i.kind === 'text' ? i.text : `(${i.kind})`));
}

function itemsNamed(r: PreparedReport, name: string): PreparedItem[] {
  return r.pages.flatMap((p) => p.items.filter((i) => i.name === name));
}

describe('Labels.frx: a table in a data band with two band columns', () => {
  const { prepared, warnings } = runFixture('Labels.frx');
  const customers = nwindRows('Customers');

  it('prints one label per customer, each cell with its row values, in data order', () => {
    expect(customers.length).toBe(91);
    expect(textsOf(prepared, 'Cell1')).toEqual(customers.map((c) => c.CompanyName ?? ''));
    expect(textsOf(prepared, 'Cell7')).toEqual(customers.map((c) => c.Country ?? ''));
    expect(textsOf(prepared, 'Cell12')).toEqual(customers.map((c) => c.Address ?? ''));
    expect(textsOf(prepared, 'Cell17')).toEqual(customers.map((c) => c.City ?? ''));
    expect(textsOf(prepared, 'Cell22')).toEqual(customers.map((c) => c.PostalCode ?? ''));
    expect(textsOf(prepared, 'Cell6')).toEqual(customers.map(() => 'Country'));
    expect(warnings.filter((w) => /not supported/.test(w))).toEqual([]);
  });

  it('lays the cells out by their columns and rows: spans, stacked rows, no covered cell printed', () => {
    expect(itemsNamed(prepared, 'Cell2')).toEqual([]);
    for (let i = 0; i < 91; i++) {
      const [title, label, value, next] = ['Cell1', 'Cell6', 'Cell7', 'Cell11'].map((n) => itemsNamed(prepared, n)[i]!);
      // Cell1 spans both columns (151.2 + 189); Cell6 and Cell7 sit side by side under it.
      expect(near(title!.width, 340.2)).toBe(true);
      expect(near(label!.width, 151.2) && near(value!.width, 189)).toBe(true);
      expect(near(label!.x, title!.x) && near(value!.x, label!.x + 151.2)).toBe(true);
      expect(near(label!.y, title!.y + 28.35)).toBe(true);
      expect(near(value!.y, label!.y) && near(value!.height, label!.height)).toBe(true);
      expect(near(next!.y, label!.y + label!.height)).toBe(true);
    }
  });

  it('sizes the AutoSize rows to their text: one line of Tahoma 8pt plus the padding', () => {
    const row = itemsNamed(prepared, 'Cell6')[0]!;
    // Padding 2 above and below; one line of Tahoma 8pt is about 13 px.
    expect(row.height).toBeGreaterThan(14);
    expect(row.height).toBeLessThan(18.9);
  });
});

describe('Table.frx: the static table and the tables a script builds', () => {
  const { prepared, warnings } = runFixture('Table.frx');

  it('spans cells across columns and rows, and prints no covered cell', () => {
    const [c1, c4, c6, c12, c13] = ['Cell1', 'Cell4', 'Cell6', 'Cell12', 'Cell13'].map((n) => item(prepared, n));
    expect(['Cell2', 'Cell3', 'Cell9', 'Cell14'].flatMap((n) => itemsNamed(prepared, n))).toEqual([]);
    // Cell1 spans columns 1–3, Cell4 rows 1–3.
    expect(near(c1!.width, c6!.width + c12!.width + c13!.width)).toBe(true);
    expect(near(c4!.x, c1!.x + c1!.width)).toBe(true);
    expect(near(c4!.y, c1!.y)).toBe(true);
    expect(near(c4!.height, c1!.height + c6!.height + c12!.height)).toBe(true);
    expect(textsOf(prepared, 'Cell1')).toEqual(['Cell with horizontal span']);
    expect(textsOf(prepared, 'Cell4')).toEqual(['Cell with vertical span']);
  });

  it('widens the AutoSize column to its text on one line and grows the AutoSize row to its wrapped text', () => {
    const c12 = item(prepared, 'Cell12');
    const c7 = item(prepared, 'Cell7');
    expect(c12.width).toBeGreaterThan(75.6);
    expect(near(c7.width, c12.width)).toBe(true);
    expect(c12.kind === 'text' && c12.lines.length).toBe(1);
    const c6 = item(prepared, 'Cell6');
    // "Row with auto-height" needs two lines in 75.6 px; the other cells of the row follow.
    expect(c6.kind === 'text' && c6.lines.length).toBe(2);
    expect(c6.height).toBeGreaterThan(18.9);
    expect(near(item(prepared, 'Cell8').height, c6.height)).toBe(true);
    // Row3 keeps its 75.6 px.
    expect(near(c12.height, 75.6)).toBe(true);
  });

  it('prints the objects of a cell at their place inside it', () => {
    const cell = item(prepared, 'Cell13');
    const box = item(prepared, 'CheckBox1');
    expect(near(box.x, cell.x + 47.25) && near(box.y, cell.y + 37.8)).toBe(true);
  });

  it('prints the rows Table2_ManualBuild builds: a header row, then one row per category', () => {
    const categories = nwindRows('Categories');
    expect(categories.length).toBe(8);
    expect(warnings.filter((w) => /ManualBuild|script/i.test(w))).toEqual([]);
    expect(textsOf(prepared, 'Cell15')).toEqual(['Category Name']);
    expect(textsOf(prepared, 'Cell20')).toEqual(categories.map((c) => c.CategoryName ?? ''));
    expect(textsOf(prepared, 'Cell21')).toEqual(categories.map((c) => c.Description ?? ''));
    // Each body row is a copy of template row Row5 (75.6 px), one below the other on a page.
    const rows = itemsNamed(prepared, 'Cell20');
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1] as PreparedItem, rows[i] as PreparedItem];
      if (prepared.pages.findIndex((p) => p.items.includes(a)) === prepared.pages.findIndex((p) => p.items.includes(b)))
        expect(near(b.y - a.y, 75.6)).toBe(true);
    }
    expect(warnings.filter((w) => /not supported and will not be rendered/.test(w))).toEqual([]);
  });

  it('prints the columns Table3_ManualBuild builds: a header column, one per employee, a total column', () => {
    const employees = nwindRows('Employees');
    expect(textsOf(prepared, 'Cell28')).toEqual(employees.map((e) => `${e.FirstName} ${e.LastName}`));
    expect(textsOf(prepared, 'Cell30')).toEqual(employees.map((e) => e.Title ?? ''));
    expect(textsOf(prepared, 'Cell32')).toEqual(employees.map((e) => e.HomePhone ?? ''));
    // The footer column counts the employee cells printed to its left (Count(Cell28)).
    expect(textsOf(prepared, 'Cell23')).toEqual([`Total:\r\n${employees.length}`]);
    // Wider than the page: it prints in parts, the fixed header column (FixedColumns=1) on each.
    const partPages = prepared.pages.filter((p) => p.items.some((i) => i.name === 'Cell28'));
    expect(partPages.length).toBeGreaterThan(1);
    expect(textsOf(prepared, 'Cell27')).toEqual(partPages.map(() => 'Name'));
    for (const p of partPages) {
      const [name, first] = [p.items.find((i) => i.name === 'Cell27'), p.items.find((i) => i.name === 'Cell28')];
      expect(name && first && near(first.x, name.x + 85.05)).toBe(true);
    }
  });
});

describe('a table with its own hyperlink and bookmark', () => {
  const frx = `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="40">
      <TableObject Name="Table1" Width="200" Height="40"
        Hyperlink.Value="https://example.com/t" Bookmark="&quot;top&quot;">
        <TableColumn Name="Column1" Width="100"/>
        <TableColumn Name="Column2" Width="100"/>
        <TableRow Name="Row1">
          <TableCell Name="A" Text="a"/>
          <TableCell Name="B" Text="b" Hyperlink.Value="https://example.com/b"/>
        </TableRow>
        <TableRow Name="Row2">
          <TableCell Name="C" Text="c"/>
          <TableCell Name="D" Text="d"/>
        </TableRow>
      </TableObject>
    </ReportTitleBand>
  </ReportPage>
</Report>`;
  const { prepared } = runTemplate(frx);

  it('links every cell without a link of its own, and marks its first cell with the bookmark', () => {
    const link = (name: string): string | undefined => item(prepared, name).hyperlink?.target;
    expect(['A', 'B', 'C', 'D'].map(link)).toEqual([
      'https://example.com/t',
      'https://example.com/b',
      'https://example.com/t',
      'https://example.com/t',
    ]);
    expect(item(prepared, 'A').bookmark).toBe('top');
    expect(['B', 'C', 'D'].map((n) => item(prepared, n).bookmark)).toEqual([undefined, undefined, undefined]);
  });
});
