// Drill-down in a document (render.ts, detail-pages.ts): a DetailPage hyperlink's page, or a
// DetailReport hyperlink's report, runs once per distinct clicked value with the value in its
// parameter; its pages follow the report's own and the links go to them. Bounded by the page
// limit; a link whose details cannot run prints as plain text with a warning.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shownText, type PreparedReport, type PreparedText } from '../../src/report/engine/prepared.js';
import { prepareReport } from '../../src/report/render.js';
import { demoFile } from '../support/fastreport-demos.js';
import { NWIND_PATH, nwindRows } from './engine/helpers.js';

const COLORS = ['Red', 'Green', 'Red', 'Blue', 'Green'];
const FRUIT = [
  { Name: 'Apple', Color: 'Red' },
  { Name: 'Lime', Color: 'Green' },
  { Name: 'Cherry', Color: 'Red' },
  { Name: 'Plum', Color: 'Blue' },
];

const dictionary =
  '<Dictionary>' +
  '<TableDataSource Name="Colors" ReferenceName="Colors" DataType="System.Int32" Enabled="true">' +
  '<Column Name="Color" DataType="System.String"/></TableDataSource>' +
  '<TableDataSource Name="Fruit" ReferenceName="Fruit" DataType="System.Int32" Enabled="true">' +
  '<Column Name="Name" DataType="System.String"/><Column Name="Color" DataType="System.String"/></TableDataSource>' +
  '<Parameter Name="Picked" DataType="System.String"/></Dictionary>';

/** The fruit of the picked colour, on a page of its own. */
const detailPage = (name: string, visible = false) =>
  `<ReportPage Name="${name}" Visible="${visible}">` +
  '<ReportTitleBand Name="DT" Width="718.2" Height="20">' +
  '<TextObject Name="Head" Width="300" Height="20" Text="Fruit: [Picked]"/></ReportTitleBand>' +
  '<DataBand Name="DD" Width="718.2" Height="20" DataSource="Fruit" Filter="[Fruit.Color] == [Picked]">' +
  '<TextObject Name="FruitName" Width="300" Height="20" Text="[Fruit.Name]"/></DataBand></ReportPage>';

/** One line per colour (repeats included), linked to its fruit. */
const mainPage = (link: string) =>
  '<ReportPage Name="Page1"><DataBand Name="D" Width="718.2" Height="20" DataSource="Colors">' +
  `<TextObject Name="Pick" Width="300" Height="20" Text="[Colors.Color]" ${link} ` +
  'Hyperlink.Expression="[Colors.Color]" Hyperlink.ReportParameter="Picked"/>' +
  '</DataBand></ReportPage>';

const template = (link = 'Hyperlink.Kind="DetailPage" Hyperlink.DetailPageName="Page2"') =>
  `<?xml version="1.0" encoding="utf-8"?><Report>${dictionary}${mainPage(link)}${detailPage('Page2')}</Report>`;

const data = { tables: { Colors: COLORS.map((Color) => ({ Color })), Fruit: FRUIT } };

const textsOn = (r: PreparedReport, page: number, name: string): string[] =>
  (r.pages[page - 1]?.items ?? [])
    .filter((i): i is PreparedText => i.kind === 'text' && i.name === name)
    .map(shownText);

describe('detail links in a document', () => {
  it('append each distinct value’s detail page once and point every link to it', () => {
    const { prepared: r, warnings } = prepareReport({ template: template(), data });
    expect(warnings.list).toEqual([]);
    // The report's own page, then Red, Green, Blue in order of first click.
    expect(r.pages.map((p) => p.index)).toEqual([1, 2, 3, 4]);
    const picks = r.pages[0]?.items.filter((i) => i.name === 'Pick') ?? [];
    expect(picks.map((i) => i.hyperlink)).toEqual(
      [2, 3, 2, 4, 3].map((p) => ({ kind: 'page', target: String(p), newTab: false })),
    );
    for (const [page, color] of [
      [2, 'Red'],
      [3, 'Green'],
      [4, 'Blue'],
    ] as const) {
      expect(textsOn(r, page, 'Head')).toEqual([`Fruit: ${color}`]);
      expect(textsOn(r, page, 'FruitName')).toEqual(FRUIT.filter((f) => f.Color === color).map((f) => f.Name));
    }
  });

  it('never print a hidden detail page in the report’s own run', () => {
    const { prepared: r } = prepareReport({ template: template('Hyperlink.Kind="URL"'), data });
    expect(r.pages.map((p) => p.name)).toEqual(['Page1']);
  });

  it('stop at the page limit: the links past it print as plain text, with one warning', () => {
    const { prepared: r, warnings } = prepareReport({ template: template(), data, maxPages: 2 });
    expect(r.pages.length).toBe(2);
    const links = (r.pages[0]?.items ?? []).filter((i) => i.name === 'Pick').map((i) => i.hyperlink?.target);
    expect(links).toEqual(['2', undefined, '2', undefined, undefined]);
    expect(warnings.list.join('\n')).toMatch(/3 detail link\(s\) print as plain text/);
  });

  it('run another report for a DetailReport link, read by its file name beside the template', () => {
    const other = `<?xml version="1.0" encoding="utf-8"?><Report>${dictionary}${detailPage('Page1', true)}</Report>`;
    const link = 'Hyperlink.Kind="DetailReport" Hyperlink.DetailReportName="Fruit.frx"';
    const asked: string[] = [];
    const { prepared: r, warnings } = prepareReport({
      template: template(link),
      data,
      detailReport: (name) => {
        asked.push(name);
        return name === 'Fruit.frx' ? other : undefined;
      },
    });
    expect(warnings.list).toEqual([]);
    expect(asked).toEqual(['Fruit.frx']);
    expect(r.pages.length).toBe(4);
    expect(textsOn(r, 4, 'FruitName')).toEqual(['Plum']);
  });

  it('print a DetailReport link as plain text when the report cannot be read or names a folder', () => {
    for (const [name, reader, message] of [
      ['Fruit.frx', undefined, /cannot be read here/],
      ['../Fruit.frx', () => 'x', /must be a file name/],
      ['Fruit.frx', () => undefined, /cannot be used \(no such file\)/],
      ['Fruit.frx', () => '<Report', /cannot be used/],
    ] as const) {
      const link = `Hyperlink.Kind="DetailReport" Hyperlink.DetailReportName="${name}"`;
      const { prepared: r, warnings } = prepareReport({
        template: template(link),
        data,
        ...(reader ? { detailReport: reader } : {}),
      });
      expect(r.pages.length).toBe(1);
      expect(r.pages[0]?.items.some((i) => i.hyperlink)).toBe(false);
      expect(warnings.list.join('\n')).toMatch(message);
    }
  });

  const DEMO = 'Reports/Interactive Report, 2-in-1.frx';
  it('give the Interactive Report, 2-in-1 demo one page of products per category, linked from its list', () => {
    const { prepared: r, warnings } = prepareReport({
      template: demoFile(DEMO),
      data: { datasetXml: readFileSync(NWIND_PATH, 'utf8') },
    });
    expect(warnings.list).toEqual([]);
    const categories = nwindRows('Categories');
    const products = nwindRows('Products');
    expect(r.pages.length).toBe(1 + categories.length);
    const links = (r.pages[0]?.items ?? []).filter((i) => i.hyperlink?.kind === 'page');
    const byCategory = new Map<string, string>();
    for (const l of links) if (l.kind === 'text') byCategory.set(shownText(l), l.hyperlink?.target ?? '');
    for (const c of categories) {
      const page = Number(byCategory.get(c.CategoryName as string));
      expect(page).toBeGreaterThan(1);
      const shown = (r.pages[page - 1]?.items ?? []).filter((i): i is PreparedText => i.kind === 'text').map(shownText);
      const expected = products.filter((p) => p.CategoryID === c.CategoryID).map((p) => p.ProductName as string);
      for (const name of expected) expect(shown).toContain(name);
      for (const other of products.filter((p) => p.CategoryID !== c.CategoryID).map((p) => p.ProductName as string))
        if (!expected.includes(other)) expect(shown).not.toContain(other);
      expect(expected.length).toBeGreaterThan(0);
    }
  });

  const MATRIX_DEMO = 'Reports/Interactive Matrix With Chart.frx';
  it('link each cell of the Interactive Matrix demo to the order lines of its employee and category', () => {
    const { prepared: r } = prepareReport({
      template: demoFile(MATRIX_DEMO),
      data: { datasetXml: readFileSync(NWIND_PATH, 'utf8') },
    });
    const employees = new Map(nwindRows('Employees').map((e) => [e.EmployeeID, `${e.FirstName} ${e.LastName}`]));
    const categories = new Map(nwindRows('Categories').map((c) => [c.CategoryID, c.CategoryName]));
    const employeeOf = new Map(nwindRows('Orders').map((o) => [o.OrderID, employees.get(o.EmployeeID)]));
    const categoryOf = new Map(nwindRows('Products').map((p) => [p.ProductID, categories.get(p.CategoryID)]));
    const lines = new Map<string, number>();
    for (const d of nwindRows('Order_x0020_Details')) {
      const key = `${employeeOf.get(d.OrderID)};${categoryOf.get(d.ProductID)}`;
      lines.set(key, (lines.get(key) ?? 0) + 1);
    }
    // The detail pages of one link: from its first page to the next run's title.
    const detailOf = (first: number): PreparedText[] => {
      const out: PreparedText[] = [];
      for (let p = first; p <= r.pages.length; p++) {
        const items = (r.pages[p - 1]?.items ?? []).filter((i): i is PreparedText => i.kind === 'text');
        if (p > first && items.some((i) => i.name === 'Text7' || i.name === 'Text2' || i.name === 'Text3')) break;
        out.push(...items);
      }
      return out;
    };
    const cells = (r.pages[0]?.items ?? []).filter((i) => i.name === 'Cell4' && i.hyperlink?.kind === 'page');
    expect(cells.length).toBeGreaterThan(20);
    let checked = 0;
    for (const cell of cells) {
      const shown = detailOf(Number(cell.hyperlink?.target));
      const title = shown.find((t) => t.name === 'Text7');
      const m = /^Sales by (.+) in the "(.+)" category$/.exec(title ? shownText(title) : '');
      expect(m, 'a Page4 title').not.toBeNull();
      const rows = shown.filter((t) => t.name === 'Text8').length;
      expect(rows, `${m?.[1]} / ${m?.[2]}`).toBe(lines.get(`${m?.[1]};${m?.[2]}`) ?? 0);
      checked++;
    }
    expect(checked).toBe(cells.length);
    // A chart on an employee's page links each category to that employee's lines in it: the
    // detail page keeps the parameters of the page it was opened from, as FastReport's preview.
    let slices = 0;
    for (const page of r.pages.filter((p) => p.name === 'Page2')) {
      const head = page.items.find((i): i is PreparedText => i.kind === 'text' && i.name === 'Text2');
      const employee = (head ? shownText(head) : '').replace(/ sales$/, '');
      for (const slice of page.items.filter((i) => /^MSChart1\.[^.]+\.\d+$/.test(i.name) && i.hyperlink)) {
        const title = detailOf(Number(slice.hyperlink?.target)).find((t) => t.name === 'Text7');
        expect(title ? shownText(title) : '').toMatch(new RegExp(`^Sales by ${employee} in the ".+" category$`));
        slices++;
      }
    }
    expect(slices).toBeGreaterThan(20);
  });

  const CHART_DEMO = 'Reports/Interactive Chart.frx';
  it('link each slice of the Interactive Chart demo to the orders of its employee', () => {
    const { prepared: r, warnings } = prepareReport({
      template: demoFile(CHART_DEMO),
      data: { datasetXml: readFileSync(NWIND_PATH, 'utf8') },
    });
    expect(warnings.list.filter((w) => !/font .* is not available/.test(w))).toEqual([]);
    const names = [...new Set(nwindRows('MatrixDemo').map((m) => m.Name as string))].sort();
    expect(r.pages.length).toBe(1 + names.length);
    const slices = (r.pages[0]?.items ?? []).filter((i) => /^MSChart1\.Series1\.\d+$/.test(i.name));
    expect(slices.length).toBe(names.length);
    const titles = slices.map((slice) => {
      const page = r.pages[Number(slice.hyperlink?.target) - 1];
      const first = page?.items.find((i): i is PreparedText => i.kind === 'text');
      return first ? shownText(first) : '';
    });
    expect(titles.sort()).toEqual(names.map((n) => `${n} orders`));
  });
});
