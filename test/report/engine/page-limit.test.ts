// The run's page limit (EngineOptions.maxPages; Settings:RenderMaxPages in the server): a report
// that needs more pages fails with RenderTooLargeError — never a silent cut — unless truncation
// is asked for (truncatePages: the first pages, marked `truncated`). A template's own MaxPages is
// the author's choice: the report stops there without an error, as in FastReport.

import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PAGES, RenderTooLargeError, renderReport } from '../../../src/report/index.js';
import type { EngineOptions } from '../../../src/report/index.js';
import { runTemplate, textsOf } from './helpers.js';

/** A list of `rows` rows, one per page (each row is taller than half a page). */
const onePerPage = (rows: number, attrs = '', footer = ''): string =>
  `<Report ${attrs}><ReportPage Name="P">
  <DataBand Name="D" Width="718.2" Height="600" RowCount="${rows}"><TextObject Name="T" Width="200" ` +
  `Height="20" Text="row [Row#]"/></DataBand>
  ${footer}
</ReportPage></Report>`;

/** "Page N of M" in the footer makes the report run two passes. */
const PAGE_N_OF_M =
  `<PageFooterBand Name="F" Width="718.2" Height="20"><TextObject Name="N" Width="300" Height="20" ` +
  `Text="[Page#]/[TotalPages#]"/></PageFooterBand>`;

function tooLarge(template: string, options: EngineOptions): RenderTooLargeError {
  try {
    runTemplate(template, {}, options);
  } catch (e) {
    if (e instanceof RenderTooLargeError) return e;
    throw e;
  }
  throw new Error('the report rendered');
}

describe('over the page limit', () => {
  it('fails with RenderTooLargeError naming the limit, instead of answering the first pages', () => {
    const e = tooLarge(onePerPage(6), { maxPages: 5 });
    expect(e.maxPages).toBe(5);
    expect(e.message).toBe('the report has more than 5 pages');
  });

  it('fails for a two-pass report (TotalPages) too, already in its first pass', () => {
    expect(tooLarge(onePerPage(6, '', PAGE_N_OF_M), { maxPages: 5 }).maxPages).toBe(5);
  });

  it('fails when a further report page would start past the limit', () => {
    // Page 1 fills exactly the limit; page 2 (one page, no overflow of its own) needs one more.
    const t =
      `<Report><ReportPage Name="P1"><DataBand Name="D" Width="718.2" Height="600" RowCount="2"/></ReportPage>
      <ReportPage Name="P2"><ReportTitleBand Name="T" Width="718.2" Height="20"><TextObject Name="X" ` +
      `Width="100" Height="20" Text="second"/></ReportTitleBand></ReportPage></Report>`;
    expect(runTemplate(t, {}, { maxPages: 3 }).prepared.pages).toHaveLength(3);
    expect(tooLarge(t, { maxPages: 2 }).maxPages).toBe(2);
  });

  it('is a limit the service sets: a template MaxPages above it does not lift it', () => {
    expect(tooLarge(onePerPage(8, 'MaxPages="7"'), { maxPages: 5 }).maxPages).toBe(5);
  });

  it('renders a report of exactly the limit whole, not marked truncated', () => {
    const r = runTemplate(onePerPage(5), {}, { maxPages: 5 });
    expect(r.prepared.pages).toHaveLength(5);
    expect(r.prepared.truncated).toBeUndefined();
    expect(r.warnings.filter((w) => /truncated/i.test(w))).toEqual([]);
  });

  it('fails through renderReport with the same error', () => {
    expect(() => renderReport({ template: onePerPage(3), format: 'html', maxPages: 2 })).toThrow(RenderTooLargeError);
  });
});

describe('truncation asked for (truncatePages)', () => {
  it('answers the first maxPages pages, marked truncated, with a warning', () => {
    const r = runTemplate(onePerPage(9), {}, { maxPages: 4, truncatePages: true });
    expect(r.prepared.pages).toHaveLength(4);
    expect(r.prepared.truncated).toBe(true);
    expect(textsOf(r.prepared, 'T')).toEqual(['row 1', 'row 2', 'row 3', 'row 4']);
    expect(r.warnings).toContain('Output truncated: the report has more than 4 pages; the first 4 were asked for');
  });

  it('keeps page numbers of a two-pass report filled in on every page answered', () => {
    const r = runTemplate(onePerPage(9, '', PAGE_N_OF_M), {}, { maxPages: 3, truncatePages: true }).prepared;
    expect(r.truncated).toBe(true);
    expect(textsOf(r, 'N')).toEqual(['1/3', '2/3', '3/3']);
  });

  it('does not mark a report that fits', () => {
    const r = renderReport({ template: onePerPage(3), format: 'html', maxPages: 3, truncatePages: true });
    expect(r.pages).toBe(3);
    expect(r.truncated).toBe(false);
  });

  it('is said by renderReport', () => {
    const r = renderReport({ template: onePerPage(5), format: 'pdf', maxPages: 2, truncatePages: true });
    expect(r.pages).toBe(2);
    expect(r.truncated).toBe(true);
  });
});

describe("the template's MaxPages", () => {
  it('stops the report there without an error and without marking it truncated', () => {
    const r = runTemplate(onePerPage(8, 'MaxPages="3"'), {}, { maxPages: 5 });
    expect(r.prepared.pages).toHaveLength(3);
    expect(r.prepared.truncated).toBeUndefined();
    expect(r.warnings).toContain("Output truncated: the report has more than 3 pages (the template's MaxPages)");
  });

  it('wins when it equals the limit', () => {
    expect(runTemplate(onePerPage(8, 'MaxPages="5"'), {}, { maxPages: 5 }).prepared.pages).toHaveLength(5);
  });
});

describe('the default limit', () => {
  it('is 10,000 pages: more than the former 1,000 render whole, one page more fails', () => {
    expect(DEFAULT_MAX_PAGES).toBe(10_000);
    const r = runTemplate(onePerPage(1_200)).prepared;
    expect(r.pages).toHaveLength(1_200);
    expect(r.truncated).toBeUndefined();
    expect(tooLarge(onePerPage(10_001), {}).maxPages).toBe(10_000);
  });
});
