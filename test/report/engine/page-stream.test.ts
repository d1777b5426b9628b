// Pages streamed to a sink as they are finished (engine/page-stream.ts): the sink gets the same
// pages the run would hold, while the run holds only the last few; renderDocument's PDF is
// renderReport's, byte for byte, streamed or not.

import { describe, expect, it } from 'vitest';
import { bindReportData, Engine, shownText, type PreparedPage } from '../../../src/report/engine/index.js';
import { HOLD_PAGES, StreamRestart } from '../../../src/report/engine/page-stream.js';
import { ReportWarnings } from '../../../src/report/errors.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import { renderDocument } from '../../../src/report/render-document.js';
import { renderReport } from '../../../src/report/render.js';
import { FIXED_NOW, runTemplate, texts } from './helpers.js';

/** A list of `rows` rows, 20 px each; `footer` is the page footer's text. */
const list = (footer: string, page = '', report = ''): string => `<Report ${report}><ReportPage Name="P" ${page}>
  <DataBand Name="D" Width="718.2" Height="20" DataSource="rows">
    <TextObject Name="T" Width="200" Height="20" Text="[JSON.item.rows.item.n]"/>
    <TextObject Name="U" Left="200" Width="200" Height="20" Text="[JSON.item.rows.item.g]" Duplicates="Merge"/>
  </DataBand>
  <PageFooterBand Name="F" Width="718.2" Height="20">
    <TextObject Name="N" Width="300" Height="20" Text="${footer}"/>
  </PageFooterBand>
</ReportPage></Report>`;

/** Two tall rows a page; the footer's table cell shows "[Page#] of [TotalPages#]": the engine does
 *  not look into tables for page totals, so this report runs one pass. */
const tallTable = (cell: string): string => `<Report><ReportPage Name="P">
  <DataBand Name="D" Width="718.2" Height="500" DataSource="rows">
    <TextObject Name="T" Width="200" Height="20" Text="[JSON.item.rows.item.n]"/>
  </DataBand>
  <PageFooterBand Name="F" Width="718.2" Height="20">
    <TableObject Name="Tb" Width="300" Height="20"><TableColumn Name="C1" Width="300"/>
      <TableRow Name="R1" Height="20"><TableCell Name="N" Text="${cell}"/></TableRow></TableObject>
  </PageFooterBand>
</ReportPage></Report>`;

const rowsOf = (n: number) => ({
  rows: Array.from({ length: n }, (_, i) => ({ n: i + 1, g: `g${Math.floor(i / 7)}` })),
});

/** Runs with a sink: the pages it got (copied when given), the most pages holding items at once,
 *  and the pages the run returned. */
function streamed(template: string, rows: number) {
  const w = new ReportWarnings();
  const { report } = loadFrx(template);
  const got: PreparedPage[] = [];
  let mostHeld = 0;
  // The engines that run (a single pass may start a double pass in a new one).
  const engines: Engine[] = [];
  const run = Engine.prototype.run;
  Engine.prototype.run = function (this: Engine) {
    engines.push(this);
    return run.call(this);
  };
  const onPage = (page: PreparedPage): void => {
    got.push(structuredClone(page));
    const held = engines.at(-1)?.cursor.pages.filter((p) => p.items.length > 0).length ?? 0;
    mostHeld = Math.max(mostHeld, held);
  };
  try {
    const data = bindReportData(report.dictionary, { json: rowsOf(rows) }, w);
    const prepared = new Engine(report, data, { now: FIXED_NOW, onPage }, w).run();
    return { got, mostHeld, prepared, runs: engines.length, warnings: w.list };
  } finally {
    Engine.prototype.run = run;
  }
}

describe('streamed pages', () => {
  it('gives a double-pass report the pages it would hold (duplicates, macros, watermark), holding one', () => {
    // DoublePass: whatever the engine makes of the footer's totals, two passes.
    const template = list(
      '[PageNofM] [Page#]/[TotalPages#]',
      'Watermark.Enabled="true" Watermark.Text="Draft"',
      'DoublePass="true"',
    );
    const held = runTemplate(template, { json: rowsOf(2000) }).prepared;
    const s = streamed(template, 2000);
    expect(held.pages.length).toBeGreaterThan(30);
    expect(s.got).toEqual(held.pages);
    expect(shownText(texts(s.got.at(-1) as PreparedPage, 'N')[0] as never)).toBe(
      `Page ${held.pages.length} of ${held.pages.length} ${held.pages.length}/${held.pages.length}`,
    );
    // The page given (the current one has just started): nothing else holds its items.
    expect(s.mostHeld).toBe(1);
    expect(s.prepared.pages).toHaveLength(held.pages.length);
    expect(s.prepared.pages.every((p) => p.items.length === 0)).toBe(true);
  });

  it('streams a single-pass report without page totals from its first page', () => {
    const template = list('[Page#]');
    const held = runTemplate(template, { json: rowsOf(2000) }).prepared;
    const s = streamed(template, 2000);
    expect(s.got).toEqual(held.pages);
    expect(s.mostHeld).toBe(1);
    expect(s.runs).toBe(1);
  });

  it(`holds a single pass that needs the page total up to ${HOLD_PAGES} pages, then streams as a double pass`, () => {
    const template = tallTable('[Page#] of [TotalPages#]');
    const small = streamed(template, 100);
    expect(small.got).toEqual(runTemplate(template, { json: rowsOf(100) }).prepared.pages);
    // Held to the end: every page at once.
    expect(small.mostHeld).toBe(50);
    expect(small.runs).toBe(1);

    const rows = (HOLD_PAGES + 20) * 2;
    const held = runTemplate(template, { json: rowsOf(rows) }).prepared;
    const s = streamed(template, rows);
    expect(held.pages).toHaveLength(rows / 2);
    expect(shownText(texts(held.pages.at(-1) as PreparedPage, 'N')[0] as never)).toBe(`${rows / 2} of ${rows / 2}`);
    expect(s.got).toEqual(held.pages);
    // The single pass stopped at HOLD_PAGES + 1 pages without giving any; the double pass that
    // replaced it gave each page as it was finished.
    expect(s.runs).toBe(2);
    expect(s.mostHeld).toBe(1);
  });

  it('stops with StreamRestart when the double pass would print a total the single pass did not know', () => {
    // An expression, not a macro: a single pass shows the pages so far.
    const template = tallTable('[1 + [TotalPages#]]');
    const rows = (HOLD_PAGES + 20) * 2;
    expect(() => streamed(template, rows)).toThrow(StreamRestart);
  });
});

describe('renderDocument', () => {
  const pdfOf = (template: string, rows: number, render: typeof renderReport | typeof renderDocument) =>
    render({ template, data: { json: rowsOf(rows) }, format: 'pdf', now: FIXED_NOW });

  it('writes the same PDF as renderReport, streamed or not', () => {
    const cases: [string, number][] = [
      [list('[PageNofM]'), 1500],
      [list('[Page#]'), 1500],
      [tallTable('[Page#] of [TotalPages#]'), (HOLD_PAGES + 5) * 2],
      // StreamRestart: rendered again, held.
      [tallTable('[1 + [TotalPages#]]'), (HOLD_PAGES + 5) * 2],
      // Not streamed: a link to a page needs its target before the first page is written.
      [list('[Page#]').replace('Name="T"', 'Name="T" Hyperlink.Kind="PageNumber" Hyperlink.Value="2"'), 300],
    ];
    for (const [template, rows] of cases) {
      const a = pdfOf(template, rows, renderReport);
      const b = pdfOf(template, rows, renderDocument);
      expect(b.pages).toBe(a.pages);
      expect(b.warnings).toEqual(a.warnings);
      expect(Buffer.compare(b.output as Buffer, a.output as Buffer), template.slice(0, 200)).toBe(0);
    }
  });

  it('gives HTML as renderReport does, without the prepared pages', () => {
    const opts = { template: list('[Page#]'), data: { json: rowsOf(100) }, format: 'html' as const, now: FIXED_NOW };
    const a = renderReport(opts);
    const b = renderDocument(opts);
    expect(b).toEqual({ output: a.output, pages: a.pages, truncated: false, warnings: a.warnings });
  });
});
