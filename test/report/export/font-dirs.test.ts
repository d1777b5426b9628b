// Fallback faces from font directories: Debian's fonts-noto-* at their standard paths,
// and the operator's own (Settings:FontDirs), tried for characters none of the npm faces has.
// Bengali is in no npm face: with Debian's fonts-noto-core it prints in Noto Sans Bengali (CI
// installs the package; without it this part is skipped with a message unless
// REQUIRE_NOTO_CORE=1). An operator directory is checked with an icon font that ships with a
// dev dependency (playwright-core's codicon.ttf, Private Use Area code points).

import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderReport, setFontDirs, SYSTEM_FONT_DIRS } from '../../../src/report/index.js';
import { pdfFonts, POPPLER_AVAILABLE, runTool } from '../../support/poppler.js';

const BENGALI_FILE = join(SYSTEM_FONT_DIRS[0] ?? '', 'NotoSansBengali-Regular.ttf');
const HAS_NOTO_CORE = existsSync(BENGALI_FILE);
if (!HAS_NOTO_CORE) {
  if (process.env.REQUIRE_NOTO_CORE === '1') throw new Error(`REQUIRE_NOTO_CORE=1 but ${BENGALI_FILE} is missing`);
  process.stderr.write(
    `\n*** Debian font directory test SKIPPED: no ${BENGALI_FILE} (apt-get install fonts-noto-core; set ` +
      'REQUIRE_NOTO_CORE=1 to make this an error) ***\n\n',
  );
}

const text = (t: string): string =>
  '<Report><Dictionary/><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="40"><TextObject ' +
  `Name="X" Width="600" Height="30" Text="${t}" Font="Arial, 12pt"/></ReportTitleBand></ReportPage></Report>`;

async function pdf(t: string): Promise<{ file: string; warnings: string[] }> {
  const r = await renderReport({ template: Buffer.from(text(t)), format: 'pdf' });
  const file = join(tmpdir(), `font-dirs-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, r.output as Buffer);
  return { file, warnings: r.warnings };
}

const fontNames = (file: string): string[] => pdfFonts(file).map((f) => f.name.replace(/^[A-Z]{6}\+/, ''));

afterAll(() => setFontDirs([]));

describe.runIf(POPPLER_AVAILABLE)('fallback faces from font directories', () => {
  it.runIf(HAS_NOTO_CORE)("draws Bengali with Debian's Noto Sans Bengali, read back by pdftotext", async () => {
    setFontDirs([]);
    const word = 'বাংলা ভাষা';
    const { file, warnings } = await pdf(word);
    expect(warnings).toEqual([]);
    expect(fontNames(file)).toContain('NotoSansBengali-Regular');
    expect(runTool('pdftotext', [file, '-']).stdout.toString('utf8').trim()).toBe(word);
  });

  it.runIf(HAS_NOTO_CORE)('prints text whose face fontkit cannot shape (its glyphs unshaped, no failure)', async () => {
    setFontDirs([]);
    // Found by the starter template's property test: Coptic from a Debian Noto face whose layout
    // tables fontkit fails to read, on a line the shaper takes (a Hebrew maqaf before it).
    const { file, warnings } = await pdf('\u05be\u2c80');
    expect(warnings).toEqual([]);
    expect(runTool('pdftotext', [file, '-']).stdout.toString('utf8')).toContain('\u2c80');
  });

  it("draws an operator's font from Settings:FontDirs, and warns without it", async () => {
    const codicon = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib');
    const source = ['vite/traceViewer/codicon.DCmgc-ay.ttf', 'vite/recorder/assets/codicon-DCmgc-ay.ttf']
      .map((p) => join(codicon, p))
      .find((p) => existsSync(p));
    if (!source) throw new Error('playwright-core has no codicon.ttf any more: pick another font with PUA glyphs');
    const icon = '\uea60';

    setFontDirs([]);
    const without = await pdf(`a${icon}b`);
    expect(without.warnings).toEqual([
      `character "${icon}" (U+EA60) is in none of the fonts available; it prints as an empty box`,
    ]);

    const dir = mkdtempSync(join(tmpdir(), 'font-dir-'));
    copyFileSync(source, join(dir, 'codicon.ttf'));
    setFontDirs([dir]);
    const withDir = await pdf(`a${icon}b`);
    expect(withDir.warnings).toEqual([]);
    expect(fontNames(withDir.file)).toContain('codicon');
  });
});
