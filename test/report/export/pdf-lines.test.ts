// A CanGrow paragraph breaks into the same lines in HTML and PDF: the same number of lines, the
// same words on each (so the same break positions), at the same places. The HTML side is read
// from the HTML exporter's line elements (text, left, top, word-spacing); the PDF side from
// `pdftotext -bbox` word boxes. Both are compared with each other and with the engine's
// prepared lines (the measurement both exporters draw from). Justified lines must end at the
// frame's right edge in the PDF: that proves the PDF's glyph advances are the measured ones.
//
// Skipped with a message when poppler-utils are missing (an error under REQUIRE_POPPLER=1).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PreparedPage, PreparedReport, PreparedText } from '../../../src/report/engine/prepared.js';
import { exportHtml } from '../../../src/report/export/html.js';
import { exportPdfSync } from '../../../src/report/export/pdf/index.js';
import { renderReport } from '../../../src/report/render.js';
import { pdfWords, POPPLER_AVAILABLE, type PdfWord } from '../../support/poppler.js';
import { FIXED_NOW, FIXTURE_DIR, NWIND_TEXT } from '../engine/helpers.js';

const PT = 0.75;
const dir = mkdtempSync(join(tmpdir(), 'pdf-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ShownLine {
  words: string[];
  /** Left edge of the first word, px from the paper's left. */
  left: number;
  /** Right edge of the last word (PDF) — undefined for HTML. */
  right?: number;
  /** Top of the line box (HTML) or of the first word's box (PDF), px. */
  top: number;
  wordSpacing?: number;
}

const decode = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const wordsOf = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** The lines the HTML exporter writes for one item (exported alone on its page). */
function htmlLines(page: PreparedPage, t: PreparedText): ShownLine[] {
  const html = exportHtml({ pages: [{ ...page, items: [t] }] });
  const out: ShownLine[] = [];
  for (const m of html.matchAll(
    /<div class="l" style="left:([\d.-]+)px;top:([\d.-]+)px(?:;word-spacing:([\d.-]+)px)?">([^<]*)<\/div>/g,
  )) {
    const line: ShownLine = {
      words: wordsOf(decode(m[4] as string)),
      left: t.x + t.frame.x + Number(m[1]),
      top: t.y + t.frame.y + Number(m[2]),
    };
    if (m[3] !== undefined) line.wordSpacing = Number(m[3]);
    out.push(line);
  }
  return out;
}

/** The lines pdftotext finds in the item's box, positions in px. */
function pdfLines(words: PdfWord[], t: PreparedText): ShownLine[] {
  const inside = words.filter((w) => {
    const cx = (w.xMin + w.xMax) / 2 / PT;
    const cy = (w.yMin + w.yMax) / 2 / PT;
    return cx >= t.x && cx <= t.x + t.width && cy >= t.y && cy <= t.y + t.height;
  });
  inside.sort((a, b) => (Math.abs(a.yMin - b.yMin) < 1 ? a.xMin - b.xMin : a.yMin - b.yMin));
  const out: ShownLine[] = [];
  let last: ShownLine | undefined;
  for (const w of inside) {
    if (last && Math.abs(w.yMin / PT - last.top) < 1) {
      last.words.push(w.text);
      last.right = w.xMax / PT;
    } else {
      last = { words: [w.text], left: w.xMin / PT, right: w.xMax / PT, top: w.yMin / PT };
      out.push(last);
    }
  }
  return out;
}

function writePdf(name: string, report: PreparedReport): PdfWord[][] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, exportPdfSync(report));
  return pdfWords(file).map((p) => p.words);
}

/** Compares the three views of one paragraph; returns the number of lines. */
function expectSameLines(page: PreparedPage, words: PdfWord[], t: PreparedText): number {
  const prepared = t.lines.map((l) => wordsOf(l.text));
  const html = htmlLines(page, t);
  const pdf = pdfLines(words, t);
  const where = `${t.name} on page ${page.index}`;
  // Same lines, same words on each: the breaks are in the same places.
  expect(
    html.map((l) => l.words),
    `HTML lines of ${where}`,
  ).toEqual(prepared);
  expect(
    pdf.map((l) => l.words),
    `PDF lines of ${where}`,
  ).toEqual(prepared);
  const breaks = (lines: string[][]): number[] => {
    let words = 0;
    return lines.map((l) => (words += l.length));
  };
  expect(breaks(pdf.map((l) => l.words))).toEqual(breaks(html.map((l) => l.words)));
  const frameLeft = t.x + t.frame.x;
  const frameRight = frameLeft + t.frame.width;
  t.lines.forEach((l, i) => {
    const h = html[i] as ShownLine;
    const p = pdf[i] as ShownLine;
    // Same left edge (a glyph's box starts at its origin in pdftotext): within 0.05 px (the
    // HTML writes px with 2 decimals).
    expect(h.left).toBeCloseTo(frameLeft + l.x, 1);
    expect(Math.abs(p.left - h.left), `left of line ${i + 1} of ${where}`).toBeLessThan(0.05);
    // One line height apart, in both.
    if (i > 0) {
      expect(h.top - (html[i - 1] as ShownLine).top).toBeCloseTo(t.lineHeight, 1);
      expect(p.top - (pdf[i - 1] as ShownLine).top).toBeCloseTo(t.lineHeight, 2);
    }
    // Justified lines reach the right edge of the frame in the PDF (to 0.05 px): the PDF's glyph
    // advances plus the word spacing are exactly the measured widths. The HTML gets the same
    // word spacing.
    if (l.wordSpacing !== undefined) {
      expect(h.wordSpacing).toBeCloseTo(l.wordSpacing, 1);
      expect(Math.abs((p.right ?? 0) - frameRight), `right edge of line ${i + 1} of ${where}`).toBeLessThan(0.05);
    } else if (t.horzAlign === 'Left' || t.horzAlign === 'Justify') {
      expect(
        Math.abs((p.right ?? 0) - (frameLeft + l.x + l.width)),
        `right edge of line ${i + 1} of ${where}`,
      ).toBeLessThan(0.05);
    }
  });
  return t.lines.length;
}

describe.skipIf(!POPPLER_AVAILABLE)('CanGrow paragraphs: the same lines in HTML and PDF', () => {
  it("Simple List: the employees' notes (Tahoma 9pt, justified, grown to fit)", () => {
    const r = renderReport({
      template: readFileSync(`${FIXTURE_DIR}Simple List.frx`),
      data: { datasetXml: NWIND_TEXT },
      format: 'html',
      now: FIXED_NOW,
    });
    const pages = writePdf('simple-list', r.prepared);
    let paragraphs = 0;
    let lines = 0;
    let justified = 0;
    for (const page of r.prepared.pages) {
      for (const it of page.items) {
        if (it.kind !== 'text' || it.name !== 'Text9') continue;
        lines += expectSameLines(page, pages[page.index - 1] ?? [], it);
        justified += it.lines.filter((l) => l.wordSpacing !== undefined).length;
        paragraphs++;
      }
    }
    expect(paragraphs).toBe(9);
    expect(lines).toBeGreaterThan(20);
    expect(justified).toBeGreaterThan(10);
  });

  const long =
    'Reports have to break long paragraphs into lines the same way wherever they are shown: in the browser, ' +
    'in a PDF and when the engine measures how tall a CanGrow object must be. Ελληνικά και русский текст ' +
    'are drawn with the fallback face where the requested one lacks them, and measured with it too. ' +
    'Supercalifragilisticexpialidocious-words-without-spaces break between characters when needed.';
  const template = (font: string, align: string, width: number): string =>
    `<?xml version="1.0" encoding="utf-8"?>
<Report><ReportPage Name="Page1">
  <ReportTitleBand Name="Title" Width="718.2" Height="30" CanGrow="true">
    <TextObject Name="P" Left="37.8" Top="4" Width="${width}" Height="18.9" CanGrow="true" ` +
    `Text="${long}" HorzAlign="${align}" Font="${font}"/>
  </ReportTitleBand>
</ReportPage></Report>`;

  it.each([
    ['Arial, 10pt', 'Justify', 300],
    ['Times New Roman, 11pt, style=Italic', 'Justify', 250],
    ['Verdana, 8pt', 'Left', 200],
    ['Courier New, 10pt, style=Bold', 'Justify', 340],
  ])('%s, %s, %i px wide', (font, align, width) => {
    const r = renderReport({ template: template(font, align, width), format: 'html' });
    const page = r.prepared.pages[0] as PreparedPage;
    const t = page.items.find((i): i is PreparedText => i.kind === 'text' && i.name === 'P') as PreparedText;
    // It grew: several lines, and the object is as tall as its lines.
    expect(t.lines.length).toBeGreaterThan(3);
    expect(t.height).toBeCloseTo(t.lines.length * t.lineHeight + t.padding.top + t.padding.bottom + 1, 1);
    const words = writePdf(`paragraph-${width}`, r.prepared)[0] ?? [];
    expectSameLines(page, words, t);
  });
});
