// Report and page settings that change where and what prints (page features):
// - PrintSettings.CopyNames: [CopyName#] shows the first name, the one FastReport's preview shows
//   (an export is one document; the other names are for a printer's copies).
// - MirrorMargins: an even page of the document swaps its left and right margins (FastReport's
//   PreparedPages.GetPage), so every object moves by the difference; a block kept together that
//   moves to an even page moves with it.

import { describe, expect, it } from 'vitest';
import { MM_TO_PX } from '../../../src/report/frx/model.js';
import { demoFile } from '../../support/fastreport-demos.js';
import type { PreparedReport } from '../../../src/report/engine/prepared.js';
import { itemsOf, runTemplate, texts } from './helpers.js';

/** The texts (as set, before line breaking) of the items named `name`. */
const textsOf = (r: PreparedReport, name: string): string[] =>
  r.pages.flatMap((p) => texts(p, name).map((t) => t.text));

const report = (attrs: string, body: string): string =>
  `<?xml version="1.0" encoding="utf-8"?><Report ${attrs}><ReportPage Name="Page1">${body}</ReportPage></Report>`;

describe('[CopyName#]', () => {
  const title =
    '<ReportTitleBand Name="T" Width="718.2" Height="30">' +
    '<TextObject Name="Copy" Width="300" Height="20" Text="Copy: [CopyName#]"/></ReportTitleBand>';

  it('shows the first of PrintSettings.CopyNames', () => {
    const r = runTemplate(
      report('PrintSettings.CopyNames="For the screen&#13;&#10;First copy&#13;&#10;Second copy"', title),
    );
    expect(textsOf(r.prepared, 'Copy')).toEqual(['Copy: For the screen']);
    expect(r.warnings).toEqual([]);
  });

  it('is empty when the report names no copies, and works inside an expression', () => {
    const expr =
      '<ReportTitleBand Name="T" Width="718.2" Height="30"><TextObject Name="Len" Width="300" Height="20" ' +
      'Text="[IIf([CopyName#] == &quot;&quot;, &quot;none&quot;, [CopyName#])]"/></ReportTitleBand>';
    expect(textsOf(runTemplate(report('', title)).prepared, 'Copy')).toEqual(['Copy: ']);
    expect(textsOf(runTemplate(report('', expr)).prepared, 'Len')).toEqual(['none']);
    expect(textsOf(runTemplate(report('PrintSettings.CopyNames="A&#10;B"', expr)).prepared, 'Len')).toEqual(['A']);
  });

  const DEMO = 'Reports/Print Copy Names.frx';
  it('prints the preview name in FastReport’s Print Copy Names demo', () => {
    const r = runTemplate(demoFile(DEMO));
    expect(textsOf(r.prepared, 'Text1')).toEqual(['Copy name for the preview']);
  });
});

describe('MirrorMargins', () => {
  // 10 mm left, 25 mm right, 10 mm top and bottom: 277 mm (1047 px) of height, five bands of
  // 200 px a page. With KeepChild each row's child band stays with it, so every third pair
  // moves to the next page as a block.
  const rows = (mirror: boolean, keepChild = false) =>
    '<?xml version="1.0" encoding="utf-8"?><Report>' +
    '<ReportPage Name="Page1" LeftMargin="10" RightMargin="25" TopMargin="10" BottomMargin="10" ' +
    `MirrorMargins="${mirror}">` +
    `<DataBand Name="D" Width="661.5" Height="200" RowCount="12" KeepChild="${keepChild}">` +
    '<TextObject Name="Cell" Left="50" Width="100" Height="20" Text="[Row#]"/>' +
    '<ChildBand Name="C" Width="661.5" Height="200">' +
    '<TextObject Name="Child" Left="80" Width="100" Height="20" Text="child [Row#]"/></ChildBand>' +
    '</DataBand></ReportPage></Report>';

  for (const keepChild of [false, true]) {
    it(`moves every object of an even page by the difference of the margins${keepChild ? ' (KeepChild)' : ''}`, () => {
      for (const [name, left] of [
        ['Cell', 50],
        ['Child', 80],
      ] as const) {
        const plain = itemsOf(runTemplate(rows(false, keepChild)).prepared, name);
        const mirrored = itemsOf(runTemplate(rows(true, keepChild)).prepared, name);
        expect(mirrored.map((c) => [c.page, c.text])).toEqual(plain.map((c) => [c.page, c.text]));
        expect(new Set(mirrored.map((c) => c.page)).size).toBeGreaterThan(2);
        for (const [i, c] of mirrored.entries()) {
          expect(plain[i]?.item.x).toBeCloseTo(10 * MM_TO_PX + left, 6);
          expect(c.item.x).toBeCloseTo((c.page % 2 === 0 ? 25 : 10) * MM_TO_PX + left, 6);
          expect(c.item.y).toBe(plain[i]?.item.y);
        }
      }
    });
  }

  it('gives an even page its swapped margins in the prepared page', () => {
    const r = runTemplate(rows(true));
    expect(r.prepared.pages.length).toBeGreaterThan(2);
    for (const p of r.prepared.pages) {
      const [l, rr] = p.index % 2 === 0 ? [25, 10] : [10, 25];
      expect(p.margins.left).toBeCloseTo(l * MM_TO_PX, 6);
      expect(p.margins.right).toBeCloseTo(rr * MM_TO_PX, 6);
    }
  });
});
