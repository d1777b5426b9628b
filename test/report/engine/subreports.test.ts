// SubreportObject: the Subreport demo (PrintOnParent) against nwind.xml, read
// independently of the engine, and two subreports side by side.
import { describe, expect, it } from 'vitest';
import type { PreparedReport, PreparedText } from '../../../src/report/engine/index.js';
import { collate, nwindRows, runFixture, runTemplate } from './helpers.js';

const near = (a: number, b: number): boolean => Math.abs(a - b) < 0.01;

function placed(r: PreparedReport, name: string): { page: number; item: PreparedText }[] {
  return r.pages.flatMap((p, page) =>
    p.items.filter((i): i is PreparedText => i.kind === 'text' && i.name === name).map((item) => ({ page, item })),
  );
}

describe('Subreport.frx: products printed inside each supplier band', () => {
  const { prepared, warnings } = runFixture('Subreport.frx');
  const suppliers = nwindRows('Suppliers');
  const products = nwindRows('Products');

  it('prints each supplier with its own products, sorted by name, and their count', () => {
    const names = placed(prepared, 'Text1').map((p) => p.item.text);
    const expected = suppliers.flatMap((s) =>
      products
        .filter((p) => p.SupplierID === s.SupplierID)
        .map((p) => p.ProductName ?? '')
        .sort(collate),
    );
    expect(names).toEqual(expected);
    expect(placed(prepared, 'Text5').map((p) => p.item.text)).toEqual(
      suppliers.map((s) => `Total products: ${products.filter((p) => p.SupplierID === s.SupplierID).length}`),
    );
    expect(warnings.filter((w) => /not supported|ignored/.test(w))).toEqual([]);
  });

  it('puts the rows on the page of their supplier, at the subreport’s place inside its band', () => {
    const heads = placed(prepared, 'Text8');
    const footers = placed(prepared, 'Text5');
    expect(heads).toHaveLength(suppliers.length);
    let row = 0;
    const rows = placed(prepared, 'Text1');
    suppliers.forEach((s, i) => {
      const head = heads[i]!;
      const count = products.filter((p) => p.SupplierID === s.SupplierID).length;
      for (let k = 0; k < count; k++, row++) {
        const r = rows[row]!;
        expect(r.page).toBe(head.page);
        // Subreport1 at Left 255.15, Top 47.25 of the band; Text1 at Left 9.45 of its band, below
        // the 18.9 px data header.
        expect(near(r.item.x - head.item.x, 255.15 + 9.45)).toBe(true);
        expect(r.item.y).toBeGreaterThanOrEqual(head.item.y - 9.45 + 47.25 + 18.9 - 0.01);
      }
      // The band grew to hold its subreport: the footer sits inside it, above the next supplier.
      const next = heads[i + 1];
      if (next && next.page === head.page) expect(footers[i]!.item.y + 18.9).toBeLessThanOrEqual(next.item.y + 0.01);
    });
  });
});

describe('subreports side by side (not PrintOnParent)', () => {
  const frx = `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <ReportPage Name="Page1">
    <DataBand Name="Main" Width="718.2" Height="18.9">
      <SubreportObject Name="Left" Left="0" Width="300" Height="18.9" ReportPage="PageA"/>
      <SubreportObject Name="Right" Left="378" Width="300" Height="18.9" ReportPage="PageB"/>
    </DataBand>
    <PageFooterBand Name="Footer" Width="718.2" Height="18.9"/>
  </ReportPage>
  <ReportPage Name="PageA">
    <DataBand Name="A" Width="300" Height="20" RowCount="3">
      <TextObject Name="TextA" Width="100" Height="20" Text="a[Row#]"/>
    </DataBand>
  </ReportPage>
  <ReportPage Name="PageB">
    <DataBand Name="B" Width="300" Height="20" RowCount="5">
      <TextObject Name="TextB" Width="100" Height="20" Text="b[Row#]"/>
    </DataBand>
  </ReportPage>
  <ReportPage Name="After">
    <ReportTitleBand Name="Title" Width="718.2" Height="20" />
  </ReportPage>
</Report>`;
  const { prepared } = runTemplate(frx);

  it('starts both at the band, each at its Left, and prints their pages nowhere else', () => {
    const a = placed(prepared, 'TextA');
    const b = placed(prepared, 'TextB');
    expect(a.map((p) => p.item.text)).toEqual(['a1', 'a2', 'a3']);
    expect(b.map((p) => p.item.text)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
    expect(near(a[0]!.item.y, b[0]!.item.y)).toBe(true);
    expect(near(b[0]!.item.x - a[0]!.item.x, 378)).toBe(true);
    // The subreport pages print nowhere else: one page for the report page, one for "After".
    expect(prepared.pages).toHaveLength(2);
  });
});

describe('a subreport of a page already printing', () => {
  const frx = `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <ReportPage Name="Page1">
    <DataBand Name="Main" Width="718.2" Height="18.9">
      <SubreportObject Name="S1" Width="300" Height="18.9" ReportPage="PageA" PrintOnParent="true"/>
    </DataBand>
  </ReportPage>
  <ReportPage Name="PageA">
    <DataBand Name="A" Width="300" Height="20">
      <TextObject Name="TextA" Width="100" Height="20" Text="a"/>
      <SubreportObject Name="S2" Top="20" Width="300" Height="18.9" ReportPage="PageB" PrintOnParent="true"/>
    </DataBand>
  </ReportPage>
  <ReportPage Name="PageB">
    <DataBand Name="B" Width="300" Height="20">
      <TextObject Name="TextB" Width="100" Height="20" Text="b"/>
      <SubreportObject Name="S3" Top="20" Width="300" Height="18.9" ReportPage="PageA" PrintOnParent="true"/>
    </DataBand>
  </ReportPage>
</Report>`;

  it('is skipped with a warning instead of recursing without end', () => {
    const { prepared, warnings } = runTemplate(frx);
    expect(placed(prepared, 'TextA').map((p) => p.item.text)).toEqual(['a']);
    expect(placed(prepared, 'TextB').map((p) => p.item.text)).toEqual(['b']);
    expect(warnings).toContain('S3: its page "PageA" is already printing (a subreport of itself); it is skipped');
  });
});
