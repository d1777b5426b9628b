// The HTML document in pieces (exportHtmlChunks) and as bytes (exportHtmlBuffer): the same
// document as exportHtml, byte for byte, with one piece per page.

import { describe, expect, it } from 'vitest';
import type { PreparedReport } from '../../../src/report/engine/index.js';
// Through the library's entry point, as its users import them.
import {
  exportHtml,
  exportHtmlBuffer,
  exportHtmlChunks,
  renderReport,
  type HtmlExportOptions,
} from '../../../src/report/index.js';
import { runFixture } from '../engine/helpers.js';
import { CORE_DEMOS } from '../../support/fastreport-demos.js';

function chunksOf(r: PreparedReport, options: HtmlExportOptions): string[] {
  const out: string[] = [];
  exportHtmlChunks(r, options, (c) => out.push(c));
  return out;
}

const fixtures = [...CORE_DEMOS];

describe('exportHtmlChunks and exportHtmlBuffer', () => {
  it.each(fixtures)("%s: the pieces and the bytes are exportHtml's document", (file) => {
    const r = runFixture(file).prepared;
    for (const options of [{ title: file }, { embedFonts: true, lang: 'de' }] as HtmlExportOptions[]) {
      const whole = exportHtml(r, options);
      const chunks = chunksOf(r, options);
      expect(chunks.join('')).toBe(whole);
      expect(exportHtmlBuffer(r, options).equals(Buffer.from(whole, 'utf8'))).toBe(true);
      // The head, one piece per page (that page's element), the end.
      expect(chunks).toHaveLength(r.pages.length + 2);
      expect(chunks[0]).toMatch(/^<!DOCTYPE html>[\s\S]*<body>\n$/);
      r.pages.forEach((p, i) => {
        expect(chunks[i + 1]).toMatch(new RegExp(`^<div class="p" data-page="${p.index}" [^]*</div>\\n$`));
      });
      expect(chunks.at(-1)).toBe('</body>\n</html>\n');
    }
  });

  it('embeds the same fonts as exportHtml although the head is written before the pages', () => {
    const r = runFixture('Text.frx').prepared;
    const head = chunksOf(r, { embedFonts: true })[0] as string;
    expect(head.match(/@font-face/g)?.length).toBeGreaterThan(1);
    expect(exportHtml(r, { embedFonts: true }).startsWith(head)).toBe(true);
  });

  it('writes characters beyond Latin-1 and escaped data the same way', () => {
    const template = `<Report><ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="20" DataSource="rows">
      <TextObject Name="T" Width="300" Height="20" Text="[JSON.item.rows.item.s]"/></DataBand></ReportPage></Report>`;
    const rows = ['Αθήνα & <b>', 'Москва "x"', '😀 \u0007', 'plain'].map((s) => ({ s }));
    const r = renderReport({ template, data: { json: { rows } }, format: 'html' });
    const prepared = r.prepared;
    expect(chunksOf(prepared, {}).join('')).toBe(exportHtml(prepared, {}));
    expect(exportHtmlBuffer(prepared).toString('utf8')).toBe(exportHtml(prepared));
    expect(exportHtml(prepared)).toContain('Αθήνα &amp; &lt;b&gt;');
  });
});
