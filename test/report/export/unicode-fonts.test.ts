// Text of every script in the PDF: FastReport's Unicode demo, one paragraph in each of
// twenty languages from nwind.xml, printed in "Arial Unicode MS" (which no machine here has): the
// characters Arimo lacks come from the fallback chain (DejaVu Sans, then the Noto script fonts
// from npm), subset-embedded; pdftotext reads every paragraph back as nwind.xml has it, the
// shaped ones (Arabic joining, Hebrew points, Devanagari conjuncts) and the right-to-left ones
// (the demo's script sets RightToLeft for Arabic and Hebrew) included.

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/report/index.js';
import { pdfFonts, POPPLER_AVAILABLE, runTool } from '../../support/poppler.js';

interface PdfWord {
  page: number;
  text: string;
  x: number;
  yMin: number;
}

/** The words of a PDF with their pages and positions (pt), from pdftotext -bbox. */
function pdfWords(file: string): PdfWord[] {
  const html = runTool('pdftotext', ['-bbox', file, '-']).stdout.toString('utf8');
  const out: PdfWord[] = [];
  let page = 0;
  for (const m of html.matchAll(/<page |<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)) {
    if (m[0] === '<page ') page++;
    else out.push({ page, x: Number(m[1]), yMin: Number(m[2]), text: m[3] ?? '' });
  }
  return out;
}
import { demoFile } from '../../support/fastreport-demos.js';
import { NWIND_TEXT, nwindRows } from '../engine/helpers.js';

const DEMO = 'Reports/Unicode.frx';
const RIGHT_TO_LEFT = ['Arabic', 'Hebrew'];
const LEFT_TO_RIGHT = [
  'English',
  'German',
  'Russian',
  'French',
  'Italian',
  'Spanish',
  'Portuguese',
  'Ukrainian',
  'Korean',
  'Chinese',
  'Japanese',
  'Greek',
  'Polish',
  'Thai',
  'Czech',
  'Hindi',
  'Belarusian',
  'Turkish',
];

describe.runIf(POPPLER_AVAILABLE)('the Unicode demo in the PDF', () => {
  it('reads back every paragraph from the PDF, shaped and right to left, with the script fonts embedded', async () => {
    const r = await renderReport({ template: demoFile(DEMO), data: { datasetXml: NWIND_TEXT }, format: 'pdf' });
    // Only the substituted font is reported: no character went without a glyph.
    expect(r.warnings).toEqual([`font "Arial Unicode MS" is not available; Arimo (Arial's metrics) is used instead`]);
    const file = join(tmpdir(), `unicode-${process.pid}.pdf`);
    writeFileSync(file, r.output as Buffer);
    const fonts = pdfFonts(file).map((f) => f.name.replace(/^[A-Z]{6}\+/, ''));
    for (const f of [
      'NotoSansSC-Regular',
      'NotoSansKR-Regular',
      'NotoSansThai-Regular',
      'NotoSansDevanagari-Regular',
      'NotoSansArabic-Regular',
    ])
      expect(fonts).toContain(f);
    // In content order (-raw): each paragraph's lines follow each other; whitespace is where the
    // lines broke.
    const text = runTool('pdftotext', ['-raw', file, '-']).stdout.toString('utf8').replace(/\s+/g, '');
    const rows = nwindRows('Unicode');
    const missing: string[] = [];
    for (const name of LEFT_TO_RIGHT) {
      const row = rows.find((x) => x.Name === name);
      if (!row) throw new Error(`no ${name} in nwind.xml`);
      if (!text.includes((row.Text ?? '').replace(/\s+/g, ''))) missing.push(name);
      if (!text.includes((row.UnicodeName ?? '').replace(/\s+/g, ''))) missing.push(`${name} (name)`);
    }
    expect(missing).toEqual([]);

    // Right to left: poppler orders a line's words by the direction most of the page's text
    // runs, so each paragraph is read from its own area (its row, right of the name columns),
    // with pdftotext's reading order. Poppler marks embedded runs with U+202A…U+202E.
    const words = pdfWords(file);
    for (const name of RIGHT_TO_LEFT) {
      const row = rows.find((x) => x.Name === name);
      const label = words.find((w) => w.text === name);
      if (!row || !label) throw new Error(`no ${name} row`);
      const below = words
        .filter((w) => w.page === label.page && w.x < 100 && w.yMin > label.yMin + 5)
        .reduce((m, w) => Math.min(m, w.yMin), Number.POSITIVE_INFINITY);
      const read = (x: number, w: number): string => {
        const y = Math.floor(label.yMin - 3);
        const h = Math.floor((Number.isFinite(below) ? below : 842) - 3 - y);
        const args = ['-f', `${label.page}`, '-l', `${label.page}`, '-r', '72', '-x', `${x}`, '-y', `${y}`];
        return runTool('pdftotext', [...args, '-W', `${w}`, '-H', `${h}`, file, '-'])
          .stdout.toString('utf8')
          .replace(/[\s\u202a-\u202e]+/g, '');
      };
      // Columns at 94.5 and 189 px from the 37.8 px margin: 99.2 pt and 170.1 pt.
      // One place differs by poppler's rule, not ours: its reordering (reorderText) counts the
      // Arabic comma as part of a number, so "،1" (comma, then a footnote digit) drawn correctly
      // (the digit left of the comma) reads back "1،".
      const text = (row.Text ?? '').replace(/\s+/g, '').replace(/،(\d)/g, '$1،');
      expect(read(172, 423), `${name} text`).toBe(text);
      expect(read(101, 69), `${name} name`).toBe((row.UnicodeName ?? '').replace(/\s+/g, ''));
    }
  }, 60_000);
});
