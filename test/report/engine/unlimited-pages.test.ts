// UnlimitedHeight / UnlimitedWidth: one page that grows to what it holds, as FastReport
// prints its Barcode and QR-Codes demos: the lowest band and the rightmost object, plus margins.
import { describe, expect, it } from 'vitest';
import { MM_TO_PX } from '../../../src/report/frx/model.js';
import { runTemplate } from './helpers.js';

function report(pageAttrs: string, rows: number, textWidth = 200): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <ReportPage Name="Page1" ${pageAttrs}>
    <DataBand Name="Data" Width="718.2" Height="40" RowCount="${rows}">
      <TextObject Name="Row" Width="${textWidth}" Height="30" Text="row [Row#]"/>
    </DataBand>
    <PageFooterBand Name="Footer" Width="718.2" Height="20">
      <TextObject Name="Foot" Width="100" Height="20" Text="page [Page#]"/>
    </PageFooterBand>
  </ReportPage>
</Report>`;
}

describe('UnlimitedHeight', () => {
  const margins = 10 * MM_TO_PX;

  it('prints every row on one page as tall as its bands, the footer right below them', () => {
    const { prepared, warnings } = runTemplate(report('UnlimitedHeight="true"', 100));
    expect(prepared.pages).toHaveLength(1);
    const page = prepared.pages[0]!;
    const rows = page.items.filter((i) => i.name === 'Row');
    expect(rows).toHaveLength(100);
    const foot = page.items.find((i) => i.name === 'Foot')!;
    // 100 bands of 40 px, then the 20 px footer, between the 10 mm margins.
    expect(foot.y).toBeCloseTo(margins + 100 * 40, 2);
    expect(page.heightPx).toBeCloseTo(margins + 100 * 40 + 20 + margins, 2);
    expect(page.widthPx).toBeCloseTo(210 * MM_TO_PX, 2);
    expect(warnings.filter((w) => /unlimited/i.test(w))).toEqual([]);
  });

  it('keeps a short report short', () => {
    const page = runTemplate(report('UnlimitedHeight="true"', 2)).prepared.pages[0]!;
    expect(page.heightPx).toBeCloseTo(margins + 2 * 40 + 20 + margins, 2);
  });

  it('breaks pages as usual without it', () => {
    expect(runTemplate(report('', 100)).prepared.pages.length).toBeGreaterThan(3);
  });
});

describe('UnlimitedWidth', () => {
  it('makes the page as wide as its rightmost object, band backgrounds cut to it', () => {
    const { prepared } = runTemplate(report('UnlimitedWidth="true"', 3, 1500));
    const page = prepared.pages[0]!;
    expect(page.widthPx).toBeCloseTo(10 * MM_TO_PX + 1500 + 10 * MM_TO_PX, 2);
    for (const i of page.items) expect(i.x + i.width).toBeLessThanOrEqual(page.widthPx + 0.01);
  });
});
