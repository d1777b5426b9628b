import { createRequire } from 'node:module';
import fc from 'fast-check';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import {
  breakLines,
  DEFAULT_PADDING,
  fontSpec,
  lineHeightPx,
  measureTextBlock,
  measureWidth,
  type TextLine,
} from '../../../src/report/text/index.js';

const PX_PER_PT = 96 / 72;
const arial10 = fontSpec('Arial', 10);

/** Independent width: the font file's own advance widths, summed, scaled to px. */
function fileWidth(specifier: string, text: string, sizePt: number): number {
  const f = fontkit.openSync(createRequire(import.meta.url).resolve(specifier));
  if (!('glyphForCodePoint' in f)) throw new Error('collection');
  let units = 0;
  for (const ch of text) units += f.glyphForCodePoint(ch.codePointAt(0) ?? 0).advanceWidth;
  return (units * sizePt * PX_PER_PT) / f.unitsPerEm;
}

describe('measureWidth', () => {
  it("equals the sum of the face's glyph advances", () => {
    const cases: Array<[string, string, string]> = [
      ['Arial', '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf', 'Hello World'],
      ['Arial', '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf', 'AVATAR, office, 1234.56'],
      ['Helvetica', '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf', 'Ωμέγα Жёлтый'],
      ['Arial', '@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf', 'Total: 1 234,50 €'],
      ['Times New Roman', '@expo-google-fonts/tinos/400Regular_Italic/Tinos_400Regular_Italic.ttf', 'Quarterly report'],
      ['Courier New', '@expo-google-fonts/cousine/700Bold/Cousine_700Bold.ttf', 'SKU-0042 x 3'],
      ['Verdana', '@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff', 'Verdana text'],
    ];
    for (const [family, file, text] of cases) {
      const bold = file.includes('700');
      const italic = file.includes('Italic') || file.includes('italic');
      expect(measureWidth(text, fontSpec(family, 9.75, { bold, italic })), `${family} ${text}`).toBeCloseTo(
        fileWidth(file, text, 9.75),
        9,
      );
    }
  });

  it('is additive (no kerning): width(a + b) = width(a) + width(b)', () => {
    expect(measureWidth('AV', arial10)).toBeCloseTo(measureWidth('A', arial10) + measureWidth('V', arial10), 12);
    expect(measureWidth('To', arial10)).toBeCloseTo(measureWidth('T', arial10) + measureWidth('o', arial10), 12);
  });

  it('scales with the font size in points (px = pt × 96/72)', () => {
    expect(measureWidth('Hello', fontSpec('Arial', 20))).toBeCloseTo(2 * measureWidth('Hello', arial10), 10);
    // A space in Arial is 569/2048 em.
    expect(measureWidth(' ', arial10)).toBeCloseTo((569 / 2048) * 10 * PX_PER_PT, 12);
  });

  it('measures control and zero-width characters as nothing, and tabs to the next tab stop', () => {
    expect(measureWidth('a\u200Bb\u00ADc\u0007', arial10)).toBeCloseTo(measureWidth('abc', arial10), 12);
    expect(measureWidth('ab\t', arial10)).toBe(58);
    expect(measureWidth('\tx', arial10)).toBeCloseTo(58 + measureWidth('x', arial10), 12);
    expect(measureWidth('', arial10)).toBe(0);
  });
});

describe('metric compatibility with the fonts FastReport templates name', () => {
  // Adobe's Core 14 AFM advance widths (per 1000 em), the published metrics of Helvetica and
  // Times-Roman, which Arial and Times New Roman were drawn to match.
  const helvetica: Record<string, number> = { H: 722, e: 556, l: 222, o: 556, ' ': 278, W: 944, r: 333, d: 556 };
  const times: Record<string, number> = { H: 722, e: 444, l: 278, o: 500, ' ': 250, W: 944, r: 333, d: 500 };
  const afm = (t: Record<string, number>, s: string, pt: number) =>
    ([...s].reduce((a, c) => a + (t[c] ?? Number.NaN), 0) / 1000) * pt * PX_PER_PT;

  it('Arimo: "Hello World" at 10pt is Arial\'s 10584/2048 em = Helvetica\'s 5.167 em ± 0.05 %', () => {
    const w = measureWidth('Hello World', arial10);
    expect(w).toBeCloseTo((10584 / 2048) * 10 * PX_PER_PT, 10); // 68.906 px
    expect(Math.abs(w / afm(helvetica, 'Hello World', 10) - 1)).toBeLessThan(0.0005);
  });

  it('Tinos: "Hello World" matches Times within 0.1 %', () => {
    const w = measureWidth('Hello World', fontSpec('Times New Roman', 12));
    expect(Math.abs(w / afm(times, 'Hello World', 12) - 1)).toBeLessThan(0.001);
  });

  it("Cousine: every character is Courier New's 1229/2048 em", () => {
    expect(measureWidth('Hello World!', fontSpec('Courier New', 10))).toBeCloseTo(
      12 * (1229 / 2048) * 10 * PX_PER_PT,
      10,
    );
    expect(measureWidth('iiiii', fontSpec('Courier New', 10))).toBeCloseTo(
      measureWidth('WWWWW', fontSpec('Courier New', 10)),
      10,
    );
  });

  // Tahoma's lower-case advances (per 2048 em) as Wine's metric-compatible Tahoma
  // (fonts/tahoma.sfd) records them; Verdana's (per 1000 em) as the PDF::Builder core-font
  // metrics record them. See src/report/text/README.md.
  const tahoma: Record<string, number> = {
    a: 1075,
    b: 1133,
    c: 944,
    d: 1133,
    e: 1077,
    f: 651,
    g: 1133,
    h: 1143,
    i: 469,
    j: 578,
    k: 1020,
    l: 469,
    m: 1720,
    n: 1143,
    o: 1112,
    p: 1133,
    q: 1133,
    r: 737,
    s: 913,
    t: 684,
    u: 1143,
    v: 1020,
    w: 1520,
    x: 1014,
    y: 1020,
    z: 909,
  };
  const verdana: Record<string, number> = {
    a: 600,
    b: 623,
    c: 520,
    d: 623,
    e: 595,
    f: 351,
    g: 623,
    h: 632,
    i: 274,
    j: 344,
    k: 591,
    l: 274,
    m: 972,
    n: 632,
    o: 606,
    p: 623,
    q: 623,
    r: 426,
    s: 520,
    t: 394,
    u: 632,
    v: 591,
    w: 818,
    x: 591,
    y: 591,
    z: 525,
  };
  const em = (t: Record<string, number>, upm: number, s: string) =>
    [...s].reduce((a, c) => a + (t[c] ?? Number.NaN), 0) / upm;
  const samples = [
    'abcdefghijklmnopqrstuvwxyz',
    'thequickbrownfoxjumpsoverthelazydog',
    'thecustomersofthecompanyorderedproductsfromsuppliersinmanycountries',
  ];
  const emOf = (family: string, s: string) => measureWidth(s, fontSpec(family, 12)) / (12 * PX_PER_PT);

  it('Tahoma → Arimo: lower-case text within 1.1 % of Tahoma; DejaVu Sans would be 15 % wider', () => {
    for (const s of samples) {
      const ref = em(tahoma, 2048, s);
      expect(Math.abs(emOf('Tahoma', s) / ref - 1)).toBeLessThan(0.011);
      expect(emOf('Verdana', s) / ref - 1).toBeGreaterThan(0.14);
    }
  });

  it('Verdana → DejaVu Sans: lower-case text within 1 % of Verdana; Arimo would be 12 % narrower', () => {
    for (const s of samples) {
      const ref = em(verdana, 1000, s);
      expect(Math.abs(emOf('Verdana', s) / ref - 1)).toBeLessThan(0.01);
      expect(1 - emOf('Arial', s) / ref).toBeGreaterThan(0.11);
    }
  });
});

describe('lineHeightPx', () => {
  it('is the GDI+ line spacing: Arial 10pt = 13.333 px × 2355/2048', () => {
    expect(lineHeightPx(arial10)).toBeCloseTo(15.33203125, 8);
  });
});

const texts = (lines: TextLine[]) => lines.map((l) => l.text);

describe('breakLines', () => {
  const w = (s: string) => measureWidth(s, arial10);

  it('honours \\r\\n, \\n and \\r as hard breaks', () => {
    const lines = breakLines('one\r\ntwo\nthree\rfour', arial10, 1000);
    expect(texts(lines)).toEqual(['one', 'two', 'three', 'four']);
    expect(lines.every((l) => l.hardBreak)).toBe(true);
    expect(lines.map((l) => [l.start, l.end])).toEqual([
      [0, 3],
      [5, 8],
      [9, 14],
      [15, 19],
    ]);
  });

  it('keeps empty lines inside the text and drops them at its end (FastReport)', () => {
    expect(texts(breakLines('a\n\nb', arial10, 1000))).toEqual(['a', '', 'b']);
    expect(texts(breakLines('a\n', arial10, 1000))).toEqual(['a']);
    expect(texts(breakLines('a\r\n\r\n\r\n', arial10, 1000))).toEqual(['a']);
    expect(texts(breakLines('\n\n', arial10, 1000))).toEqual(['']);
  });

  it('gives one empty line for empty text', () => {
    expect(breakLines('', arial10, 100)).toEqual([{ text: '', widthPx: 0, start: 0, end: 0, hardBreak: true }]);
  });

  it('wraps at spaces, greedily', () => {
    const max = w('aaa bbb') + 0.01;
    const lines = breakLines('aaa bbb ccc ddd', arial10, max);
    expect(texts(lines)).toEqual(['aaa bbb', 'ccc ddd']);
    expect(lines[0]?.hardBreak).toBe(false);
    expect(lines[1]?.hardBreak).toBe(true);
    expect(lines[0]?.widthPx).toBeCloseTo(w('aaa bbb'), 10);
  });

  it('fits a line exactly as wide as the box', () => {
    expect(texts(breakLines('aaa bbb ccc', arial10, w('aaa bbb')))).toEqual(['aaa bbb', 'ccc']);
    expect(texts(breakLines('aaa bbb aaa', arial10, w('aaa bbb') - 0.001))).toEqual(['aaa', 'bbb', 'aaa']);
  });

  it('does not count trailing spaces, and drops the spaces at a break', () => {
    // "aaa   " is wider than the box but "aaa" fits: the spaces do not make it wrap.
    const lines = breakLines('aaa      bbb', arial10, w('aaa') + 1);
    expect(texts(lines)).toEqual(['aaa', 'bbb']);
    expect(lines[0]?.widthPx).toBeCloseTo(w('aaa'), 10);
    expect(lines[1]?.start).toBe(9);
    const one = breakLines('right aligned   ', arial10, 1000);
    expect(one[0]?.text).toBe('right aligned');
    expect(one[0]?.widthPx).toBeCloseTo(w('right aligned'), 10);
  });

  it('keeps the spaces inside a line and at the start of a paragraph', () => {
    expect(texts(breakLines('  indented  twice', arial10, 1000))).toEqual(['  indented  twice']);
    expect(breakLines('  x', arial10, 1000)[0]?.widthPx).toBeCloseTo(w('  x'), 10);
  });

  it('gives an empty line for a paragraph of spaces', () => {
    expect(breakLines('   ', arial10, 1000)).toEqual([{ text: '', widthPx: 0, start: 0, end: 0, hardBreak: true }]);
  });

  it('breaks an over-long word between characters, filling each line', () => {
    const word = 'Supercalifragilisticexpialidocious';
    const max = 50;
    const lines = breakLines(`go ${word} now`, arial10, max);
    expect(lines[0]?.text).toBe('go');
    expect(lines.map((l) => l.text).join('')).toBe(`go${word}now`);
    for (const l of lines) expect(l.widthPx).toBeLessThanOrEqual(max);
    // Each piece of the word is as long as it can be: one more character would not fit.
    const pieces = lines.slice(1, -1);
    for (let k = 0; k < pieces.length - 1; k++) {
      const next = pieces[k + 1]?.text[0] ?? '';
      expect(w((pieces[k]?.text ?? '') + next)).toBeGreaterThan(max);
    }
  });

  it('never splits a grapheme cluster', () => {
    const word = 'e\u0301'.repeat(20); // é as e + combining acute
    const lines = breakLines(word, arial10, 20);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.text.length % 2).toBe(0);
    expect(lines.map((l) => l.text).join('')).toBe(word);
  });

  it('puts one character per line when the box is narrower than a character', () => {
    expect(texts(breakLines('abc', arial10, 1))).toEqual(['a', 'b', 'c']);
    expect(texts(breakLines('ab', arial10, 0))).toEqual(['a', 'b']);
    expect(texts(breakLines('ab', arial10, Number.NaN))).toEqual(['a', 'b']);
  });

  it('lets a long word overflow on its own line when asked (breakLongWords: false)', () => {
    expect(texts(breakLines('a Supercalifragilistic b', arial10, 40, { breakLongWords: false }))).toEqual([
      'a',
      'Supercalifragilistic',
      'b',
    ]);
  });

  it('does not wrap when wordWrap is false, one line per paragraph', () => {
    const lines = breakLines('a long line that does not fit\nsecond', arial10, 20, { wordWrap: false });
    expect(texts(lines)).toEqual(['a long line that does not fit', 'second']);
    expect(lines[0]?.widthPx).toBeCloseTo(w('a long line that does not fit'), 10);
  });

  it('places tab segments at tab stops (58 px by default)', () => {
    const lines = breakLines('Name\tQty\tPrice', arial10, 1000);
    expect(lines[0]?.segments?.map((s) => [s.text, s.xPx])).toEqual([
      ['Name', 0],
      ['Qty', 58],
      ['Price', 116],
    ]);
    expect(lines[0]?.widthPx).toBeCloseTo(116 + w('Price'), 10);
    const custom = breakLines('a\tb', arial10, 1000, { tabWidthPx: 20 });
    expect(custom[0]?.segments?.[1]?.xPx).toBe(20);
    expect(breakLines('plain', arial10, 1000)[0]?.segments).toBeUndefined();
  });

  it("uses the fallback faces' widths for characters the face lacks", () => {
    const lines = breakLines('✓ ✓ ✓', fontSpec('Arial', 10), measureWidth('✓ ✓', arial10) + 0.01);
    expect(texts(lines)).toEqual(['✓ ✓', '✓']);
  });
});

describe('measureTextBlock (CanGrow / CanShrink heights)', () => {
  const lh = lineHeightPx(arial10);

  it("is lines × line height + vertical padding + 1, as FastReport's CalcHeight", () => {
    const b = measureTextBlock('one two three four five six', arial10, 60);
    expect(b.lines.length).toBeGreaterThan(1);
    expect(b.heightPx).toBeCloseTo(b.lines.length * lh + 0 + 0 + 1, 10);
    const padded = measureTextBlock('one', arial10, 100, { left: 2, top: 3, right: 2, bottom: 4 });
    expect(padded.heightPx).toBeCloseTo(lh + 7 + 1, 10);
  });

  it('wraps inside the padding', () => {
    const text = 'aaa bbb';
    const inner = measureWidth(text, arial10);
    expect(measureTextBlock(text, arial10, inner + 4).lines).toHaveLength(1);
    expect(measureTextBlock(text, arial10, inner + 3.9).lines).toHaveLength(2);
  });

  it('measures empty text as 0 × 0 (a CanShrink object disappears)', () => {
    expect(measureTextBlock('', arial10, 100)).toMatchObject({ lines: [], heightPx: 0, autoWidthPx: 0 });
    expect(measureTextBlock(' ', arial10, 100).heightPx).toBeCloseTo(lh + 1, 10);
  });

  it('uses a LineHeight when the object sets one, without padding (FastReport)', () => {
    const b = measureTextBlock('a\nb\nc', arial10, 100, { left: 2, top: 5, right: 2, bottom: 5 }, { lineHeightPx: 20 });
    expect(b.heightPx).toBe(60);
  });

  it('gives AutoWidth: widest unwrapped line + a space + horizontal padding + 1', () => {
    const b = measureTextBlock('short\na much longer line', arial10, 30);
    expect(b.autoWidthPx).toBeCloseTo(
      measureWidth('a much longer line', arial10) + measureWidth(' ', arial10) + 4 + 1,
      10,
    );
  });

  it("defaults to TextObject's padding 2, 0, 2, 0", () => {
    expect(DEFAULT_PADDING).toEqual({ left: 2, top: 0, right: 2, bottom: 0 });
  });
});

describe('breakLines properties', () => {
  const pieces = [
    'a',
    'b',
    'W',
    'i',
    'm',
    ' ',
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\t',
    'é',
    'e\u0301',
    'Ж',
    'Ω',
    '✓',
    'x'.repeat(12),
  ];
  const textArb = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((a) => a.join(''));
  const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const graphemeCount = (s: string) => [...seg.segment(s)].length;

  it('every line fits unless it is a single unbreakable character, and the lines restore the text', () => {
    fc.assert(
      fc.property(textArb, fc.double({ min: 0, max: 250, noNaN: true }), fc.boolean(), (text, max, wordWrap) => {
        const lines = breakLines(text, arial10, max, { wordWrap });
        expect(lines.length).toBeGreaterThan(0);
        let prevEnd = 0;
        lines.forEach((l, k) => {
          expect(l.text).toBe(text.slice(l.start, l.end));
          expect(l.text.endsWith(' ')).toBe(false);
          if (!l.text.includes('\t')) expect(l.widthPx).toBeCloseTo(measureWidth(l.text, arial10), 6);
          if (wordWrap && l.widthPx > max + 1e-6) expect(graphemeCount(l.text.replace(/^ +/, ''))).toBe(1);
          // Between two lines only the break's whitespace is left out: spaces (soft break), or
          // spaces and one line break (hard break).
          const gap = text.slice(prevEnd, l.start);
          if (k === 0) expect(gap).toBe('');
          else if (lines[k - 1]?.hardBreak) expect(gap).toMatch(/^ *(\r\n|\n|\r)$/);
          else expect(gap).toMatch(/^ *$/);
          prevEnd = l.end;
        });
        expect(text.slice(prevEnd)).toMatch(/^[ \r\n]*$/);
        const strip = (s: string) => s.replace(/[ \r\n]/g, '');
        expect(strip(lines.map((l) => l.text).join(''))).toBe(strip(text));
        if (!wordWrap) expect(lines).toHaveLength(breakLines(text, arial10, 1e9).length);
      }),
      { numRuns: 400 },
    );
  });
});
