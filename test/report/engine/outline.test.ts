// The document outline (navigation): a band's OutlineExpression adds an entry where the
// band prints; a data band's or group header's entry holds the entries of the bands inside it
// until its row or group ends; a report page's OutlineExpression adds an entry at its top that
// holds its bands'; each report page starts again at the top level. An entry follows its band
// when a kept block moves to the next page.

import { describe, expect, it } from 'vitest';
import type { PreparedOutlineEntry, PreparedReport } from '../../../src/report/engine/prepared.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { collate, nwindDataSet, nwindRows, runTemplate, texts } from './helpers.js';

/** The outline as nested [title, children] pairs (leaves as plain titles). */
type Shape = string | [string, Shape[]];
const shape = (entries: readonly PreparedOutlineEntry[]): Shape[] =>
  entries.map((e) => (e.children.length === 0 ? e.title : [e.title, shape(e.children)]));

/** The page and top of the first text item showing `text`. */
function whereText(r: PreparedReport, name: string, text: string): { page: number; y: number } | undefined {
  for (const p of r.pages) for (const t of texts(p, name)) if (t.text === text) return { page: p.index, y: t.y };
  return undefined;
}

const GROUPS = `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <Dictionary>
    <TableDataSource Name="Rows" ReferenceName="Rows">
      <Column Name="Team" DataType="System.String"/>
      <Column Name="Who" DataType="System.String"/>
    </TableDataSource>
  </Dictionary>
  <ReportPage Name="P" OutlineExpression="&quot;Staff&quot;">
    <ReportTitleBand Name="Title" Width="718.2" Height="30" OutlineExpression="&quot;Title&quot;">
      <TextObject Name="T" Width="200" Height="20" Text="Title"/>
    </ReportTitleBand>
    <GroupHeaderBand Name="G" Width="718.2" Height="100" Condition="[Rows.Team]"
        OutlineExpression="[Rows.Team]" KeepWithData="true">
      <TextObject Name="GT" Width="200" Height="20" Text="[Rows.Team]"/>
      <DataBand Name="D" Width="718.2" Height="300" DataSource="Rows" OutlineExpression="[Rows.Who]">
        <TextObject Name="DT" Width="200" Height="20" Text="[Rows.Who]"/>
      </DataBand>
    </GroupHeaderBand>
  </ReportPage>
</Report>`;

const ROWS = [
  { Team: 'Alpha', Who: 'Ann' },
  { Team: 'Alpha', Who: 'Bob' },
  { Team: 'Beta', Who: 'Cid' },
  { Team: 'Gamma', Who: 'Dee' },
  { Team: 'Gamma', Who: 'Eve' },
];

describe('the outline', () => {
  it('nests data rows in their groups, and everything in the page’s entry', () => {
    const r = runTemplate(GROUPS, { tables: { Rows: ROWS } });
    expect(shape(r.prepared.outline ?? [])).toEqual([
      ['Staff', ['Title', ['Alpha', ['Ann', 'Bob']], ['Beta', ['Cid']], ['Gamma', ['Dee', 'Eve']]]],
    ]);
  });

  it('points every entry at the page and top of its band, also when KeepWithData moves it', () => {
    const r = runTemplate(GROUPS, { tables: { Rows: ROWS } });
    const all: PreparedOutlineEntry[] = [];
    const walk = (es: readonly PreparedOutlineEntry[]): void => {
      for (const e of es) {
        all.push(e);
        walk(e.children);
      }
    };
    walk(r.prepared.outline ?? []);
    // Group headers of 100 px with KeepWithData: Beta fits below Bob, its row does not, so the
    // header moves to the next page with it.
    for (const e of all) {
      if (e.title === 'Staff') {
        expect([e.page, e.y]).toEqual([1, 0]);
        continue;
      }
      const name = e.title === 'Title' ? 'T' : ROWS.some((x) => x.Team === e.title) ? 'GT' : 'DT';
      const at = whereText(r.prepared, name, e.title);
      expect(at, e.title).toBeDefined();
      expect(e.page, e.title).toBe(at?.page);
      expect(e.y, e.title).toBeCloseTo(at?.y ?? -1, 6);
    }
    expect(new Set(all.map((e) => e.page)).size).toBeGreaterThan(2);
  });

  it('takes the entries a script adds with Engine.AddOutline, OutlineUp and OutlineRoot', () => {
    const script = `<ScriptText>public class ReportScript {
      private void D_BeforePrint(object sender, EventArgs e) {
        Engine.AddOutline("row " + (string)Report.GetColumnValue("Rows.Who"));
        Engine.AddOutline("inside");
        Engine.OutlineUp();
        Engine.OutlineUp();
      }
      private void T_AfterPrint(object sender, EventArgs e) { Engine.AddOutline("nested"); Engine.OutlineRoot(); }
    }</ScriptText>`;
    const template = GROUPS.replace(/ OutlineExpression="[^"]*"/g, '')
      .replace('<Report>', `<Report>${script}`)
      .replace('<DataBand Name="D"', '<DataBand Name="D" BeforePrintEvent="D_BeforePrint"')
      .replace('<ReportTitleBand Name="Title"', '<ReportTitleBand Name="Title" AfterPrintEvent="T_AfterPrint"');
    const r = runTemplate(template, { tables: { Rows: ROWS } });
    expect(r.warnings).toEqual([]);
    expect(shape(r.prepared.outline ?? [])).toEqual([
      'nested',
      ...ROWS.flatMap((x) => [[`row ${x.Who}`, ['inside']] as Shape]),
    ]);
  });

  it('is absent from a report without OutlineExpression', () => {
    const r = runTemplate(GROUPS.replace(/ OutlineExpression="[^"]*"/g, ''), { tables: { Rows: ROWS } });
    expect(r.prepared.outline).toBeUndefined();
  });

  const DEMO = 'Reports/Complex (Hyperlinks, Outline, TOC).frx';
  it('of the Complex (Hyperlinks, Outline, TOC) demo: its contents page, and each category with its products', () => {
    const r = runTemplate(demoFile(DEMO), { datasets: { NorthWind: nwindDataSet() } });
    const categories = nwindRows('Categories');
    const products = nwindRows('Products');
    const expected: Shape[] = [
      'Table of Contents',
      ...categories
        .map((c) => c.CategoryName ?? '')
        .map((name): Shape => {
          const id = categories.find((c) => c.CategoryName === name)?.CategoryID;
          const names = products
            .filter((p) => p.CategoryID === id)
            .map((p) => p.ProductName ?? '')
            .sort(collate);
          return [name, names];
        }),
    ];
    expect(shape(r.prepared.outline ?? [])).toEqual(expected);
    for (const c of r.prepared.outline?.slice(1) ?? [])
      expect(c.page).toBe(whereText(r.prepared, 'Text1', c.title)?.page);
  });
});
