import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { ReportWarnings } from '../../../src/report/errors.js';
import {
  CSS_TEXT_FEATURES,
  DEFAULT_FONT,
  FACE_FAMILIES,
  SCRIPT_FAMILIES,
  FontService,
  fontSpec,
  getFace,
  layoutFeatures,
  measureWidth,
  normaliseFamily,
} from '../../../src/report/text/index.js';

const openFont = (specifier: string): fontkit.Font => {
  const f = fontkit.openSync(createRequire(import.meta.url).resolve(specifier));
  if (!('glyphForCodePoint' in f)) throw new Error('collection');
  return f;
};

describe('family mapping', () => {
  const svc = new FontService();
  it.each([
    ['Arial', 'Arimo'],
    ['Helvetica', 'Arimo'],
    ['Microsoft Sans Serif', 'Arimo'],
    ['Segoe UI', 'Arimo'],
    ['Calibri', 'Arimo'],
    ['sans-serif', 'Arimo'],
    ['Tahoma', 'Arimo'],
    ['Times New Roman', 'Tinos'],
    ['Times', 'Tinos'],
    ['serif', 'Tinos'],
    ['Courier New', 'Cousine'],
    ['Courier', 'Cousine'],
    ['Consolas', 'Cousine'],
    ['monospace', 'Cousine'],
    ['Verdana', 'DejaVu Sans'],
  ])('%s → %s', (family, face) => {
    const m = svc.mapFamily(family);
    expect(m.face).toBe(face);
    expect(m.known).toBe(true);
  });

  it('ignores case, surrounding quotes and extra spaces', () => {
    expect(normaliseFamily('  "Times   New Roman" ')).toBe('times new roman');
    expect(svc.mapFamily("'COURIER NEW'").face).toBe('Cousine');
    expect(svc.mapFamily('arial').face).toBe('Arimo');
  });

  it('marks the metric-compatible families', () => {
    for (const f of ['Arial', 'Helvetica', 'Times New Roman', 'Courier New'])
      expect(svc.mapFamily(f).metricCompatible).toBe(true);
    for (const f of ['Tahoma', 'Verdana', 'Segoe UI', 'Calibri', 'Consolas'])
      expect(svc.mapFamily(f).metricCompatible).toBe(false);
  });

  it('draws an unknown family with Arimo and warns once per family', () => {
    const seen: string[] = [];
    const s = new FontService({ onWarning: (m) => seen.push(m) });
    const warnings = new ReportWarnings();
    const r1 = s.resolve(fontSpec('Comic Sans MS', 10), warnings);
    s.resolve(fontSpec('comic sans ms', 12, { bold: true }), warnings);
    s.resolve(fontSpec('Wingdings', 10), warnings);
    s.resolve(fontSpec('Arial', 10), warnings);
    expect(r1.face.family).toBe('Arimo');
    expect(r1.mapping.known).toBe(false);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toContain('Comic Sans MS');
    expect(seen[1]).toContain('Wingdings');
    expect(warnings.list).toEqual([
      'font "Comic Sans MS" is not available; Arimo (Arial\'s metrics) is used instead',
      'font "Wingdings" is not available; Arimo (Arial\'s metrics) is used instead',
    ]);
    // Another report's warnings hear about it again.
    const other = new ReportWarnings();
    s.resolve(fontSpec('Comic Sans MS', 10), other);
    expect(other.list).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it('picks the weight and style of the face', () => {
    const f = svc.resolve(fontSpec('Times New Roman', 10, { bold: true, italic: true })).face;
    expect(f.family).toBe('Tinos');
    expect(f.bold && f.italic).toBe(true);
    expect(f.font.familyName).toBe('Tinos');
    expect(f.font.subfamilyName).toBe('Bold Italic');
  });
});

describe('face files', () => {
  it('are found in the installed packages, load, and subset for PDF embedding', () => {
    for (const family of FACE_FAMILIES) {
      for (const bold of [false, true]) {
        // The Noto script fonts have no italic faces (an italic request gets the upright one).
        for (const italic of (SCRIPT_FAMILIES as readonly string[]).includes(family) ? [false] : [false, true]) {
          const face = getFace(family, bold, italic);
          expect(existsSync(face.path)).toBe(true);
          expect(face.path).toContain('node_modules');
          expect(face.buffer().equals(readFileSync(face.path))).toBe(true);
          expect(face.font.familyName).toBe(family);
          const os2 = (face.font as unknown as { 'OS/2': { fsSelection: { bold: boolean; italic: boolean } } })['OS/2'];
          expect(os2.fsSelection.bold).toBe(bold);
          expect(os2.fsSelection.italic).toBe(italic);
          expect(face.format).toBe(family === 'DejaVu Sans' ? 'woff' : 'truetype');
          // What pdfkit does when it embeds a font: a subset of the used glyphs.
          const subset = face.font.createSubset();
          subset.includeGlyph(face.font.glyphForCodePoint(0x41));
          const bytes = subset.encode();
          expect(bytes.length).toBeGreaterThan(100);
          expect(fontkit.create(Buffer.from(bytes))).toBeTruthy();
        }
      }
    }
  });

  it('are shared objects, loaded once', () => {
    expect(getFace('Arimo', false, false)).toBe(getFace('Arimo', false, false));
    const svc = new FontService();
    svc.resolve(DEFAULT_FONT);
    expect(svc.loadedFaces()).toContain(getFace('Arimo', false, false));
  });

  it('give an @font-face rule', () => {
    const rule = getFace('DejaVu Sans', true, true).cssFontFaceRule('/fonts/dv-bi.woff');
    expect(rule).toBe(
      '@font-face{font-family:"DejaVu Sans";src:url("/fonts/dv-bi.woff") ' +
        'format("woff");font-weight:700;font-style:italic;font-display:swap}',
    );
  });
});

describe('CSS family stacks', () => {
  const svc = new FontService();
  it('name the original first only when the face has its metrics', () => {
    expect(svc.cssFamily('Arial')).toBe('Arial, Arimo, "Liberation Sans", Helvetica, sans-serif');
    expect(svc.cssFamily('Times New Roman')).toBe('"Times New Roman", Tinos, "Liberation Serif", Times, serif');
    expect(svc.cssFamily('Courier New')).toBe('"Courier New", Cousine, "Liberation Mono", Courier, monospace');
    expect(svc.cssFamily('Tahoma').startsWith('Arimo,')).toBe(true);
    expect(svc.cssFamily('Verdana').startsWith('"DejaVu Sans"')).toBe(true);
  });
  it('never echo an unknown family name into CSS', () => {
    expect(svc.cssFamily('Evil"; } body { x')).toBe('Arimo, "Liberation Sans", Arial, sans-serif');
  });
  it('come with the declarations that turn kerning and ligatures off', () => {
    expect(CSS_TEXT_FEATURES).toContain('font-kerning:none');
    expect(CSS_TEXT_FEATURES).toContain('font-variant-ligatures:none');
  });
});

describe('fallback per character', () => {
  const svc = new FontService();
  const faceNames = (text: string, spec = fontSpec('Courier New', 10)) =>
    svc.runs(text, spec).map((r) => [r.face.family, r.text]);

  it('uses the primary face while it has the glyph, then Arimo, then DejaVu Sans', () => {
    // Cousine has no ₽ (U+20BD); Arimo has. Neither Cousine nor Arimo has ✓ (U+2713); DejaVu has.
    expect(getFace('Cousine', false, false).hasGlyph(0x20bd)).toBe(false);
    expect(getFace('Arimo', false, false).hasGlyph(0x2713)).toBe(false);
    expect(faceNames('Sum ₽ ok ✓')).toEqual([
      ['Cousine', 'Sum '],
      ['Arimo', '₽'],
      ['Cousine', ' ok '],
      ['DejaVu Sans', '✓'],
    ]);
  });

  it('keeps the weight and style in the fallback face', () => {
    const runs = svc.runs('a✓', fontSpec('Arial', 10, { bold: true, italic: true }));
    expect(runs[1]?.face).toBe(getFace('DejaVu Sans', true, true));
  });

  it('leaves a character no face has with the primary face (.notdef), and drops control characters', () => {
    // U+10FFFD (private use) is in none of the faces, Debian's Noto fonts included (Phoenician,
    // used here before, is in fonts-noto-core).
    expect(faceNames('\u{10FFFD}\tx\u0007', fontSpec('Arial', 10))).toEqual([['Arimo', '\u{10FFFD}x']]);
  });

  it('draws Han, kana, Hangul, Thai and Devanagari with the Noto script fonts', () => {
    expect(faceNames('a中あ한กअ', fontSpec('Arial', 10))).toEqual([
      ['Arimo', 'a'],
      ['Noto Sans SC', '中あ'],
      ['Noto Sans KR', '한'],
      ['Noto Sans Thai', 'ก'],
      ['Noto Sans Devanagari', 'अ'],
    ]);
  });

  it('draws Greek and Cyrillic with a face that has the glyphs, for every family', () => {
    const text = 'Ωμέγα Ἀθῆναι Жёлтый ЂЉЊЋЏ ґє';
    for (const family of ['Arial', 'Times New Roman', 'Courier New', 'Verdana', 'Tahoma', 'Unknown Font']) {
      for (const bold of [false, true]) {
        for (const run of svc.runs(text, fontSpec(family, 10, { bold }))) {
          for (const ch of run.text) expect(run.face.hasGlyph(ch.codePointAt(0) ?? 0), `${family} ${ch}`).toBe(true);
        }
      }
    }
  });

  it('measures fallback characters with the fallback face', () => {
    const dv = openFont('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff');
    const cousine = openFont('@expo-google-fonts/cousine/400Regular/Cousine_400Regular.ttf');
    const px = 10 * (96 / 72);
    const expected =
      ((cousine.glyphForCodePoint(0x61).advanceWidth + dv.glyphForCodePoint(0x2713).advanceWidth) * px) / 2048;
    expect(measureWidth('a✓', fontSpec('Courier New', 10))).toBeCloseTo(expected, 9);
  });
});

describe('vertical metrics (GDI+ line spacing)', () => {
  const svc = new FontService();
  const px = (pt: number) => (pt * 96) / 72;
  it("are the metric-compatible originals' for Arial, Times New Roman and Courier New", () => {
    // Arial: hhea 1854 + 434 + lineGap 67 = 2355 of 2048; Times New Roman: 1825 + 443 + 87 = 2355;
    // Courier New: 1705 + 615 + 0 = 2320. Arimo, Tinos and Cousine carry the same numbers.
    expect(svc.resolve(fontSpec('Arial', 10)).lineHeightPx).toBeCloseTo((px(10) * 2355) / 2048, 10);
    expect(svc.resolve(fontSpec('Arial', 10)).ascentPx).toBeCloseTo((px(10) * 1854) / 2048, 10);
    expect(svc.resolve(fontSpec('Times New Roman', 12)).lineHeightPx).toBeCloseTo((px(12) * 2355) / 2048, 10);
    expect(svc.resolve(fontSpec('Courier New', 9, { bold: true })).lineHeightPx).toBeCloseTo((px(9) * 2320) / 2048, 10);
  });
  it("are Tahoma's and Verdana's own for those families", () => {
    expect(svc.resolve(fontSpec('Tahoma', 8)).lineHeightPx).toBeCloseTo((px(8) * 2472) / 2048, 10);
    expect(svc.resolve(fontSpec('Tahoma', 8)).ascentPx).toBeCloseTo((px(8) * 2049) / 2048, 10);
    expect(svc.resolve(fontSpec('Verdana', 10)).lineHeightPx).toBeCloseTo(px(10) * 1.214, 10);
  });
  it('treat a missing or negative size as 0', () => {
    expect(svc.resolve(fontSpec('Arial', -3)).lineHeightPx).toBe(0);
    expect(svc.resolve(fontSpec('Arial', Number.NaN)).sizePx).toBe(0);
  });
});

describe('kerning and ligatures: off, identically for measurement and PDF', () => {
  const samples = ['AVATAR Wa To', 'office affluent', 'Hello World', 'Ωμέγα Жёлтый', 'T.V. «Yo»'];
  it('measureWidth equals fontkit layout with layoutFeatures() (what the PDF exporter passes to pdfkit)', () => {
    for (const family of ['Arial', 'Times New Roman', 'Courier New', 'Verdana']) {
      for (const bold of [false, true]) {
        const spec = fontSpec(family, 11, { bold });
        const face = new FontService().resolve(spec).face;
        for (const s of samples) {
          const run = face.font.layout(s, layoutFeatures());
          const expected = (run.advanceWidth * 11 * (96 / 72)) / face.unitsPerEm;
          expect(measureWidth(s, spec), `${family} ${s}`).toBeCloseTo(expected, 9);
        }
      }
    }
  });
  it("differs from fontkit's default layout, which kerns (so pdfkit must be given the features)", () => {
    const face = getFace('Arimo', false, false);
    expect(face.font.layout('AVATAR').advanceWidth).toBeLessThan(
      face.font.layout('AVATAR', layoutFeatures()).advanceWidth,
    );
    expect(face.font.layout('AVATAR', []).advanceWidth).toBeLessThan(
      face.font.layout('AVATAR', layoutFeatures()).advanceWidth,
    );
  });
  it('hands out a fresh features object each time (fontkit writes into it)', () => {
    const a = layoutFeatures();
    getFace('Arimo', false, false).font.layout('Wa', a);
    expect(layoutFeatures()).toEqual({ kern: false, liga: false, clig: false, calt: false, dlig: false });
    expect(a.kern).toBe(false);
  });
});
