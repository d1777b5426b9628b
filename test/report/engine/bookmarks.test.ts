// Bookmarks and Engine.GetBookmarkPage (navigation): an object's or a band's Bookmark
// marks the page it prints on; `Engine.GetBookmarkPage(name)` in a text is that page (1-based), 0
// before it has printed. A double-pass report's final pass sees the first pass's bookmarks, so a
// table of contents before its chapters shows their pages. FastReport's Complex (Hyperlinks,
// Outline, TOC) demo: every contents line's page is the page its category's heading prints on.

import { describe, expect, it } from 'vitest';
import type { PreparedReport } from '../../../src/report/engine/prepared.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { nwindDataSet, runTemplate, texts } from './helpers.js';

/** The texts (as set) of the items named `name`, with their pages. */
const found = (r: PreparedReport, name: string): { page: number; text: string }[] =>
  r.pages.flatMap((p) => texts(p, name).map((t) => ({ page: p.index, text: t.text })));

/** The bookmark of chapter n: the expression "Chapter " + Row#. */
const MARK = ' Bookmark="&quot;Chapter &quot; + [Row#]"';

/** A contents line in the report title, then five chapters, each on a new page and marked by its
 *  band's bookmark (or, with `onObject`, by a text's); a footer of each chapter looks chapter 1 up. */
const chapters = (doublePass: boolean, onObject = false) =>
  `<?xml version="1.0" encoding="utf-8"?><Report DoublePass="${doublePass}"><ReportPage Name="Page1">` +
  '<ReportTitleBand Name="T" Width="718.2" Height="20">' +
  '<TextObject Name="Toc" Width="300" Height="20" Text="[Engine.GetBookmarkPage(&quot;Chapter 3&quot;)]"/>' +
  '</ReportTitleBand>' +
  `<DataBand Name="D" Width="718.2" Height="40" RowCount="5" StartNewPage="true"${onObject ? '' : MARK}>` +
  `<TextObject Name="Head" Width="300" Height="20" Text="Chapter [Row#]"${onObject ? MARK : ''}/>` +
  '<TextObject Name="Back" Top="20" Width="300" Height="20" Text="[Engine.GetBookmarkPage(&quot;Chapter 1&quot;)]"/>' +
  '</DataBand></ReportPage></Report>';

describe('Engine.GetBookmarkPage', () => {
  it('gives a later chapter’s page to the contents of a double-pass report, by band or object bookmark', () => {
    for (const onObject of [false, true]) {
      const r = runTemplate(chapters(true, onObject));
      expect(found(r.prepared, 'Head')).toEqual([1, 2, 3, 4, 5].map((n) => ({ page: n, text: `Chapter ${n}` })));
      const chapter3 = found(r.prepared, 'Head').find((h) => h.text === 'Chapter 3')?.page;
      expect(found(r.prepared, 'Toc')).toEqual([{ page: 1, text: String(chapter3) }]);
      expect(found(r.prepared, 'Back').map((b) => b.text)).toEqual(['1', '1', '1', '1', '1']);
      expect(r.warnings).toEqual([]);
    }
  });

  it('is 0 for a bookmark not printed yet in a single pass, the page for one already printed', () => {
    const r = runTemplate(chapters(false));
    expect(found(r.prepared, 'Toc').map((t) => t.text)).toEqual(['0']);
    // Chapter 1's page is finished once chapter 2 starts; on its own page it is not yet searched.
    expect(found(r.prepared, 'Back').map((b) => b.text)).toEqual(['0', '1', '1', '1', '1']);
  });

  it('is 0 for a name no object bookmarks', () => {
    const r = runTemplate(chapters(true).replace('Chapter 3&quot;', 'No such chapter&quot;'));
    expect(found(r.prepared, 'Toc').map((t) => t.text)).toEqual(['0']);
  });

  const DEMO = 'Reports/Complex (Hyperlinks, Outline, TOC).frx';
  it('fills the Complex (Hyperlinks, Outline, TOC) demo’s contents with the pages its categories print on', () => {
    const r = runTemplate(demoFile(DEMO), { datasets: { NorthWind: nwindDataSet() } });
    const names = found(r.prepared, 'Text14').map((t) => t.text);
    const pages = found(r.prepared, 'Text18').map((t) => Number(t.text));
    expect(names.length).toBe(8);
    // The category heading (Text1, bookmarked by the category's name) prints on that page.
    const headings = found(r.prepared, 'Text1');
    names.forEach((name, i) => {
      const heading = headings.find((h) => h.text === name);
      expect(heading, name).toBeDefined();
      expect(pages[i], name).toBe(heading?.page);
    });
    expect(new Set(pages).size).toBeGreaterThan(2);
  });
});
