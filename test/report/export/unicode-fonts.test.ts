// Text of every script in the PDF (issue 18): FastReport's Unicode demo, one paragraph in each of
// twenty languages from nwind.xml, printed in "Arial Unicode MS" (which no machine here has): the
// characters Arimo lacks come from the fallback chain (DejaVu Sans, then the Noto script fonts
// from npm), subset-embedded; pdftotext reads every paragraph back as nwind.xml has it. Arabic
// and Hebrew are not in the list yet: they are drawn left to right and unshaped until the
// engine lays out right-to-left text.

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/report/index.js';
import { pdfFonts, POPPLER_AVAILABLE, runTool } from '../../support/poppler.js';
import { mirrorFile, mirrorProblem } from '../engine/fpx.js';
import { NWIND_TEXT, nwindRows } from '../engine/helpers.js';

const DEMO = 'Demos/Reports/Unicode.frx';
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

describe.runIf(POPPLER_AVAILABLE && mirrorProblem([DEMO]) === undefined)('the Unicode demo in the PDF', () => {
  it('reads back every left-to-right paragraph from the PDF, with the script fonts embedded', async () => {
    const r = await renderReport({ template: mirrorFile(DEMO), data: { datasetXml: NWIND_TEXT }, format: 'pdf' });
    // Only the substituted font is reported: no character went without a glyph.
    expect(r.warnings).toEqual([`font "Arial Unicode MS" is not available; Arimo (Arial's metrics) is used instead`]);
    const file = join(tmpdir(), `unicode-${process.pid}.pdf`);
    writeFileSync(file, r.output as Buffer);
    const fonts = pdfFonts(file).map((f) => f.name.replace(/^[A-Z]{6}\+/, ''));
    for (const f of ['NotoSansSC-Regular', 'NotoSansKR-Regular', 'NotoSansThai-Regular', 'NotoSansDevanagari-Regular'])
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
  }, 60_000);
});
