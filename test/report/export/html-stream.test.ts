// renderDocument's HTML bytes (the SRS worker's way): pages written as the engine hands them
// over, the head (text classes, font faces) written last and put in front. The bytes are
// renderReport's, streamed or not; the counter says which way the render went.

import { describe, expect, it } from 'vitest';
import { HOLD_PAGES } from '../../../src/report/engine/page-stream.js';
import { RenderOutputTooLargeError } from '../../../src/report/errors.js';
import { renderDocument, streamedRenders } from '../../../src/report/render-document.js';
import { renderReport, type RenderOptions } from '../../../src/report/render.js';

/** A list of rows in three text styles (three classes), `footer` in the page footer. */
const list = (footer = '[Page#]', rowText = '[JSON.item.rows.item.n]') => `<Report><ReportPage Name="P">
  <DataBand Name="D" Width="718.2" Height="20" DataSource="rows">
    <TextObject Name="T" Width="200" Height="20" Text="${rowText}" Font="Arial, 9pt"/>
    <TextObject Name="U" Left="200" Width="200" Height="20" Text="[JSON.item.rows.item.g]"
      Font="Arial, 10pt, style=Bold" TextColor="Red"/>
  </DataBand>
  <PageFooterBand Name="F" Width="718.2" Height="20">
    <TextObject Name="N" Width="300" Height="20" Text="${footer}" Font="Times New Roman, 8pt"/>
  </PageFooterBand>
</ReportPage></Report>`;

const rowsOf = (n: number, last?: string) => ({
  rows: Array.from({ length: n }, (_, i) => ({ n: i + 1, g: i === n - 1 && last !== undefined ? last : `g${i % 7}` })),
});

function both(opts: RenderOptions): { document: Buffer; report: Buffer; streamed: boolean; pages: number } {
  const before = streamedRenders.html;
  const d = renderDocument(opts);
  const streamed = streamedRenders.html > before;
  const r = renderReport(opts);
  expect(d.pages).toBe(r.pages);
  expect(d.truncated).toBe(r.truncated);
  expect(d.warnings).toEqual(r.warnings);
  return { document: d.output as Buffer, report: r.output as Buffer, streamed, pages: r.pages };
}

const now = new Date(Date.UTC(2026, 0, 1));
const fontUrl = (f: { family: string }) => `/fonts/${f.family}.woff2`;

describe('renderDocument, HTML as bytes', () => {
  it.each([
    ['plain', {}],
    ['fonts linked', { fontUrl }],
    ['fonts embedded', { embedFonts: true }],
  ])('%s: streamed, the same bytes as renderReport', (_, extra) => {
    const r = both({
      template: list('[Page#] of [TotalPages#]'),
      data: { json: rowsOf(400) },
      format: 'html',
      htmlAsBytes: true,
      now,
      ...extra,
    });
    expect(r.pages).toBeGreaterThan(5);
    expect(r.streamed).toBe(true);
    expect(r.document.equals(r.report)).toBe(true);
    // The head went in front: the classes it declares are used by the first page.
    const html = r.document.toString('utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.indexOf('.t2{')).toBeLessThan(html.indexOf('data-page="1"'));
  });

  it(`past ${HOLD_PAGES} pages needing the total: run again as a double pass that streams, the same bytes`, () => {
    // Two rows a page: more pages than a single pass holds.
    const template = list('[Page#] of [TotalPages#]').replace('Height="20" DataSource', 'Height="500" DataSource');
    const r = both({ template, data: { json: rowsOf(2 * HOLD_PAGES + 20) }, format: 'html', htmlAsBytes: true, now });
    expect(r.pages).toBeGreaterThan(HOLD_PAGES);
    expect(r.streamed).toBe(true);
    expect(r.document.equals(r.report)).toBe(true);
  });

  it('cut at maxPages: streamed, the same bytes', () => {
    const opts = { maxPages: 3, truncatePages: true, htmlAsBytes: true, now } as const;
    const r = both({ template: list(), data: { json: rowsOf(400) }, format: 'html', ...opts });
    expect(r.pages).toBe(3);
    expect(r.streamed).toBe(true);
    expect(r.document.equals(r.report)).toBe(true);
  });

  it('a link inside the document: not streamed, the same bytes', () => {
    const template = list().replace('Name="T"', 'Name="T" Hyperlink.Kind="PageNumber" Hyperlink.Value="2"');
    const r = both({ template, data: { json: rowsOf(400) }, format: 'html', htmlAsBytes: true, now });
    expect(r.streamed).toBe(false);
    expect(r.document.equals(r.report)).toBe(true);
  });

  it('a font family first met on the last page: the lists written earlier would miss it, not streamed', () => {
    // A CJK character is drawn by a fallback face: every font-family list of a document that has
    // it names that family, also on the pages before.
    const opts: RenderOptions = {
      template: list(),
      data: { json: rowsOf(400, '中文') },
      format: 'html',
      htmlAsBytes: true,
      now,
    };
    const r = both({ ...opts, fontUrl });
    expect(r.report.toString('utf8')).toMatch(/@font-face\{[^}]*unicode-range/);
    expect(r.streamed).toBe(false);
    expect(r.document.equals(r.report)).toBe(true);
    // Without fonts of its own the document names no fallback: streamed.
    const plain = both(opts);
    expect(plain.streamed).toBe(true);
    expect(plain.document.equals(plain.report)).toBe(true);
  });

  it('HTML as text is renderReport', () => {
    const before = streamedRenders.html;
    const opts: RenderOptions = { template: list(), data: { json: rowsOf(100) }, format: 'html', now };
    expect(renderDocument(opts).output).toBe(renderReport(opts).output);
    expect(streamedRenders.html).toBe(before);
  });
});

describe('renderDocument: maxOutputBytes (streamed bytes live outside the heap)', () => {
  const template = list();
  const data = { json: rowsOf(3_000) };

  for (const format of ['html', 'pdf'] as const) {
    it(`${format}: a document past the limit fails with RenderOutputTooLargeError; under it, the same bytes`, () => {
      const opts = { template, data, format, htmlAsBytes: true, now } as const;
      const whole = renderDocument(opts).output as Buffer;
      const limit = Math.floor(whole.length / 3);
      expect(() => renderDocument({ ...opts, maxOutputBytes: limit })).toThrow(RenderOutputTooLargeError);
      const under = renderDocument({ ...opts, maxOutputBytes: whole.length * 2 });
      expect(Buffer.compare(under.output as Buffer, whole)).toBe(0);
    });
  }
});
