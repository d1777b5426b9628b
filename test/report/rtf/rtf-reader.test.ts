// The RTF reader on small documents written for the test from the RTF 1.9.1 specification: group
// scoping, control words and their parameters, \'hh bytes in the document's and the font's code
// page, \uN with \ucN skipping, ignorable destinations, the font and colour tables, character and
// paragraph formatting, breaks, tables, and the limits a hostile document meets.

import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import {
  allParagraphs,
  plainText,
  type RtfDocument,
  type RtfParagraph,
  type RtfTable,
} from '../../../src/report/rtf/rtf-document.js';
import { MAX_RTF_PARAGRAPHS } from '../../../src/report/rtf/rtf-builder.js';
import { MAX_RTF_CHARS, MAX_RTF_DEPTH, MAX_RTF_TEXT, readRtf } from '../../../src/report/rtf/rtf-reader.js';

const paras = (doc: RtfDocument): RtfParagraph[] => [...allParagraphs(doc)];
const runsOf = (rtf: string) => paras(readRtf(rtf)).flatMap((p) => p.runs);
const textOf = (rtf: string): string => plainText(readRtf(rtf));
/** The run holding `text`. */
const runWith = (rtf: string, text: string) => {
  const r = runsOf(rtf).find((x) => x.text.includes(text));
  if (!r) throw new Error(`no run with "${text}"`);
  return r;
};

describe('RTF groups and control words', () => {
  it('scopes character formatting to its group', () => {
    const runs = runsOf(String.raw`{\rtf1 a{\b b{\i c}d}e}`);
    expect(runs.map((r) => [r.text, r.style.bold, r.style.italic])).toEqual([
      ['a', false, false],
      ['b', true, false],
      ['c', true, true],
      ['d', true, false],
      ['e', false, false],
    ]);
  });

  it('reads a parameter, its sign, and eats one space as the delimiter', () => {
    const r = runWith(String.raw`{\rtf1\fs40  x}`, 'x');
    expect(r.style.sizePt).toBe(20);
    expect(r.text).toBe(' x');
    const [p] = paras(readRtf(String.raw`{\rtf1\fi-720\li1440 y\par}`));
    expect(p?.style.first).toBe(-720 / 15);
    expect(p?.style.left).toBe(1440 / 15);
  });

  it('turns a toggle off with parameter 0', () => {
    const runs = runsOf(String.raw`{\rtf1\b x\b0 y\i z\i0 w}`);
    expect(runs.map((r) => [r.text, r.style.bold, r.style.italic])).toEqual([
      ['x', true, false],
      ['y', false, false],
      ['z', false, true],
      ['w', false, false],
    ]);
  });

  it('reads the control symbols and escaped characters', () => {
    expect(textOf(String.raw`{\rtf1 a\{b\}c\\d\~e\-f\_g}`)).toBe('a{b}c\\d\u00a0ef\u2011g');
    expect(textOf(String.raw`{\rtf1 \lquote x\rquote  \ldblquote y\rdblquote  a\emdash b\endash c\bullet}`)).toBe(
      '\u2018x\u2019 \u201cy\u201d a\u2014b\u2013c\u2022',
    );
  });

  it('ignores line breaks in the source and unknown control words', () => {
    expect(textOf('{\\rtf1 ab\r\ncd\\foo12 e\\unknownword f}')).toBe('abcdef');
  });

  it('skips {\\* …} destinations, with their nested groups, and non-text destinations', () => {
    const rtf =
      String.raw`{\rtf1{\*\generator Msftedit 5.41;}{\*\unknown{\x inner}more}{\info{\title T}}` +
      String.raw`A{\pict\pngblip 89504e47}B{\stylesheet{\s0 Normal;}}C}`;
    expect(textOf(rtf)).toBe('ABC');
  });

  it('skips \\bin data without reading it as RTF', () => {
    // The five characters after "\bin5 " are data, braces and backslashes too.
    expect(textOf('{\\rtf1 A{\\*\\blob\\bin5 }{\\\\}}B}')).toBe('AB');
    expect(textOf('{\\rtf1 A\\bin3 {}xB}')).toBe('AB');
  });

  it('shows a field’s result, a list item’s stored number, not the field instruction', () => {
    const rtf =
      String.raw`{\rtf1{\field{\*\fldinst{HYPERLINK "https://x.test"}}{\fldrslt{\ul link}}}` +
      String.raw` and {\listtext 1.\tab}item}`;
    expect(textOf(rtf)).toBe('link and 1.\titem');
    expect(runWith(rtf, 'link').style.underline).toBe(true);
  });

  it('reads text that is not RTF as plain paragraphs', () => {
    const d = readRtf('first line\r\nsecond');
    expect(paras(d).map((p) => p.runs.map((r) => r.text).join(''))).toEqual(['first line', 'second']);
  });

  it('survives unbalanced braces and stray closing braces', () => {
    expect(textOf(String.raw`{\rtf1 {{{\b a`)).toBe('a');
    // The document ends with its outermost group.
    expect(textOf(String.raw`{\rtf1 a}}}} b}`)).toBe('a');
    expect(textOf('\ufeff{\\rtf1 a}\r\n\0\0')).toBe('a');
  });
});

describe('RTF text encodings', () => {
  // Expected characters from the code page charts (Microsoft's "best fit" tables / the Unicode
  // mapping files), one letter of each page that differs from windows-1252.
  const cases: [number, string, string][] = [
    [1250, '8a', '\u0160'],
    [1251, 'c0', '\u0410'],
    [1252, '80', '\u20ac'],
    [1253, 'c1', '\u0391'],
    [1254, 'd0', '\u011e'],
    [1255, 'e0', '\u05d0'],
    [1256, 'c7', '\u0627'],
    [1257, 'c0', '\u0104'],
    [1258, 'c3', '\u0102'],
    [437, '80', '\u00c7'],
    [437, 'b0', '\u2591'],
    [437, 'e1', '\u00df'],
    [850, '9b', '\u00f8'],
    [850, 'b5', '\u00c1'],
  ];
  it.each(cases)('decodes \\ansicpg%i byte %s', (cp, byte, ch) => {
    expect(textOf(`{\\rtf1\\ansi\\ansicpg${cp} x\\'${byte}y}`)).toBe(`x${ch}y`);
  });

  it('uses \\pc and \\pca for the DOS code pages', () => {
    expect(textOf(String.raw`{\rtf1\pc \'e1}`)).toBe('\u00df');
    expect(textOf(String.raw`{\rtf1\pca \'9b}`)).toBe('\u00f8');
  });

  it("decodes a font's bytes in its \\fcharset's code page", () => {
    const rtf =
      String.raw`{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}{\f1\fcharset204 Arial;}{\f2\fcharset161 Arial;}}` +
      String.raw`\f0\'c0\f1\'c0\f2\'c1}`;
    expect(textOf(rtf)).toBe('\u00c0\u0410\u0391');
  });

  it('decodes a double-byte character written as two escapes', () => {
    expect(textOf(String.raw`{\rtf1\ansi\ansicpg932 \'82\'a0}`)).toBe('\u3042');
  });

  it('reads \\uN and skips \\ucN fallback characters (text, escapes and control words)', () => {
    expect(textOf(String.raw`{\rtf1\uc1 \u1040?b}`)).toBe('\u0410b');
    expect(textOf(String.raw`{\rtf1\uc2 \u1040\'3f\'3fc}`)).toBe('\u0410c');
    expect(textOf(String.raw`{\rtf1\uc1 \u1040\'3fd}`)).toBe('\u0410d');
    expect(textOf(String.raw`{\rtf1\uc0 \u1040 e}`)).toBe('\u0410e');
    // Negative values are the upper half of the 16-bit range; pairs make a surrogate pair.
    expect(textOf(String.raw`{\rtf1\uc1 \u-4064?}`)).toBe('\uf020');
    expect(textOf(String.raw`{\rtf1\uc1 \u-10179?\u-8704?}`)).toBe('\u{1f600}');
    // \uc is scoped: the inner group's \uc2 does not reach the outer text.
    expect(textOf(String.raw`{\rtf1\uc1{\uc2 \u1040xx}\u1041yz}`)).toBe('\u0410\u0411z');
    // A group end stops the skipping.
    expect(textOf(String.raw`{\rtf1\uc3{\u1040}abc}`)).toBe('\u0410abc');
  });
});

describe('RTF tables of fonts and colours, character formatting', () => {
  const doc =
    String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0\fnil\fcharset0 Tahoma;}{\f1\froman Times New Roman;}}` +
    String.raw`{\colortbl ;\red0\green0\blue0;\red0\green0\blue255;\red255\green128\blue0;}`;

  it('names the fonts of \\fN, the default font \\deff, 12 pt by default', () => {
    expect(runWith(`${doc} a\\f1 b}`, 'a').style).toMatchObject({ family: 'Tahoma', sizePt: 12 });
    expect(runWith(`${doc} a\\f1 b}`, 'b').style.family).toBe('Times New Roman');
    expect(runWith(`${doc} a\\f1\\fs17 b}`, 'b').style.sizePt).toBe(8.5);
  });

  it('colours text from the colour table; the empty first entry is automatic', () => {
    const rtf = `${doc}\\cf2 blue\\cf3 orange\\cf0 auto\\cf1 black}`;
    expect(runWith(rtf, 'blue').style.color).toBe('#0000ff');
    expect(runWith(rtf, 'orange').style.color).toBe('#ff8000');
    expect(runWith(rtf, 'auto').style.color).toBeUndefined();
    expect(runWith(rtf, 'black').style.color).toBe('#000000');
  });

  it('reads highlight and character shading as the background', () => {
    expect(runWith(`${doc}\\highlight3 hi\\highlight0 no}`, 'hi').style.background).toBe('#ff8000');
    expect(runWith(`${doc}\\highlight3 hi\\highlight0 no}`, 'no').style.background).toBeUndefined();
    expect(runWith(`${doc}\\cb2 sh}`, 'sh').style.background).toBe('#0000ff');
  });

  it('reads underline kinds, \\ulnone, strike, super- and subscript', () => {
    const rtf = `${doc} \\ul u\\ulnone n\\uldb d\\ul0 z\\strike s\\strike0 \\super p\\sub b\\nosupersub o}`;
    expect(runWith(rtf, 'u').style.underline).toBe(true);
    expect(runWith(rtf, 'n').style.underline).toBe(false);
    expect(runWith(rtf, 'd').style.underline).toBe(true);
    expect(runWith(rtf, 'z').style.underline).toBe(false);
    expect(runWith(rtf, 's').style.strike).toBe(true);
    expect(runWith(rtf, 'p').style).toMatchObject({ sup: true, sub: false });
    expect(runWith(rtf, 'b').style).toMatchObject({ sup: false, sub: true });
    expect(runWith(rtf, 'o').style).toMatchObject({ sup: false, sub: false });
  });

  it('\\plain returns to the default character style', () => {
    const r = runWith(`${doc}\\f1\\fs40\\b\\i\\ul\\cf2 x\\plain y}`, 'y');
    expect(r.style).toMatchObject({ family: 'Tahoma', sizePt: 12, bold: false, italic: false, underline: false });
    expect(r.style.color).toBeUndefined();
  });
});

describe('RTF paragraphs and breaks', () => {
  it('splits paragraphs at \\par; \\line and \\tab stay inside the paragraph', () => {
    const d = readRtf(String.raw`{\rtf1 one\line two\tab three\par four\par\par}`);
    expect(paras(d).map((p) => p.runs.map((r) => r.text).join(''))).toEqual(['one\ntwo\tthree', 'four', '']);
  });

  it('reads alignment, indents and spacing in twips; \\pard resets them', () => {
    const d = readRtf(
      String.raw`{\rtf1\qc c\par\qr r\par\qj\li720\ri360\fi-180\sb240\sa120 j\par\pard l\par\ql\qd d\par}`,
    );
    const ps = paras(d).map((p) => p.style);
    expect(ps.map((s) => s.align)).toEqual(['Center', 'Right', 'Justify', 'Left', 'Justify']);
    expect(ps[2]).toEqual({
      align: 'Justify',
      left: 48,
      right: 24,
      first: -12,
      before: 16,
      after: 8,
      lineSpacing: 0,
      multiple: false,
      tabs: [],
    });
    expect(ps[3]).toEqual({
      align: 'Left',
      left: 0,
      right: 0,
      first: 0,
      before: 0,
      after: 0,
      lineSpacing: 0,
      multiple: false,
      tabs: [],
    });
  });

  it('reads line spacing, the default tab width, hidden text and capitals', () => {
    const [a, b, c] = paras(readRtf(String.raw`{\rtf1\sl360\slmult1 a\par\pard\sl-300 b\par\pard c\par}`));
    expect(a?.style).toMatchObject({ lineSpacing: 24, multiple: true });
    expect(b?.style).toMatchObject({ lineSpacing: -20, multiple: false });
    expect(c?.style).toMatchObject({ lineSpacing: 0 });
    expect(readRtf(String.raw`{\rtf1\deftab1440 x}`).tabWidth).toBe(96);
    expect(readRtf(String.raw`{\rtf1 x}`).tabWidth).toBe(48);
    expect(textOf(String.raw`{\rtf1 shown{\v hidden}\v  also hidden\v0  again}`)).toBe('shown again');
    expect(textOf(String.raw`{\rtf1 {\caps Caps} {\scaps small}}`)).toBe('CAPS SMALL');
  });

  it('reads custom tab stops with their kinds, sorted; \\pard clears them', () => {
    const [a, b] = paras(readRtf(String.raw`{\rtf1\tqr\tx2880\tx1440\tqc\tx4320\tqdec\tx5760\tb720 a\par\pard b\par}`));
    expect(a?.style.tabs).toEqual([
      { pos: 96, kind: 'left' },
      { pos: 192, kind: 'right' },
      { pos: 288, kind: 'center' },
      { pos: 384, kind: 'decimal' },
    ]);
    expect(b?.style.tabs).toEqual([]);
  });

  it('lists what it does not show: pictures, objects, shapes, footnotes, headers', () => {
    const d = readRtf(
      String.raw`{\rtf1{\header H}A{\*\shppict{\pict\pngblip 00}}{\nonshppict{\pict 00}}B{\object x}{\footnote n}}`,
    );
    expect(plainText(d)).toBe('AB');
    expect(d.lost).toEqual(['headers and footers', 'pictures', 'embedded objects', 'footnotes']);
    expect(readRtf(String.raw`{\rtf1{\*\generator G;}x}`).lost).toEqual([]);
  });

  it('keeps the paragraph mark’s style (the height of an empty paragraph)', () => {
    const [p] = paras(readRtf(String.raw`{\rtf1\fs48\par}`));
    expect(p?.runs).toEqual([]);
    expect(p?.mark.sizePt).toBe(24);
  });

  it('keeps text after the last \\par as a paragraph', () => {
    expect(paras(readRtf(String.raw`{\rtf1 a\par b}`)).length).toBe(2);
  });
});

describe('RTF tables', () => {
  it('reads rows of cells with their edges (\\trleft, \\trgaph, \\cellx)', () => {
    const rtf = String.raw`{\rtf1 before\par
\trowd\trgaph108\trleft-108\cellx1440\cellx4320\pard\intbl A1\cell\pard\intbl B1\par B1b\cell\row
\trowd\trgaph108\trleft-108\cellx1440\cellx4320\pard\intbl A2\cell\pard\intbl B2\cell\row
\pard after\par}`;
    const d = readRtf(rtf);
    expect(d.blocks.map((b) => b.kind)).toEqual(['para', 'table', 'para']);
    const t = d.blocks[1] as RtfTable;
    expect(t.rows.length).toBe(2);
    const row = t.rows[0];
    expect(row?.gap).toBeCloseTo(108 / 15);
    expect(row?.minHeight).toBe(0);
    expect(row?.cells.map((c) => [c.left, c.right])).toEqual([
      [-108 / 15, 1440 / 15],
      [1440 / 15, 4320 / 15],
    ]);
    const cellText = (r: number, c: number) =>
      t.rows[r]?.cells[c]?.paragraphs.map((p) => p.runs.map((x) => x.text).join(''));
    expect(cellText(0, 0)).toEqual(['A1']);
    expect(cellText(0, 1)).toEqual(['B1', 'B1b']);
    expect(cellText(1, 1)).toEqual(['B2']);
    expect(plainText(d)).toBe('before\nA1\nB1\nB1b\nA2\nB2\nafter');
    expect(row?.cells.map((c) => c.borders)).toEqual([{}, {}]);
  });

  it('reads each cell’s borders: sides, width (\\brdrw) and colour (\\brdrcf)', () => {
    const rtf =
      String.raw`{\rtf1{\colortbl ;\red255\green0\blue0;}\trowd` +
      String.raw`\clbrdrt\brdrs\brdrw30\brdrcf1\clbrdrl\brdrs\cellx1000` +
      String.raw`\clbrdrb\brdrs\brdrw15\clbrdrr\brdrs\clbrdrt\brdrnone\cellx2000` +
      String.raw`\intbl a\cell b\cell\row}`;
    const t = readRtf(rtf).blocks[0] as RtfTable;
    expect(t.rows[0]?.cells.map((c) => c.borders)).toEqual([
      { top: { width: 2, color: '#ff0000' }, left: { width: 1 } },
      { bottom: { width: 1 }, right: { width: 1 } },
    ]);
  });
});

describe('RTF limits (hostile documents)', () => {
  it(`refuses groups nested deeper than ${MAX_RTF_DEPTH} (10^5 deep: an error, no stack overflow)`, () => {
    const deep = `{\\rtf1 ${'{'.repeat(100_000)}x${'}'.repeat(100_000)}}`;
    expect(() => readRtf(deep, { where: 'Rich1.Text' })).toThrow(TemplateError);
    expect(() => readRtf(deep, { where: 'Rich1.Text' })).toThrow(/nests groups deeper than 512/);
    const ok = `{\\rtf1 ${'{\\b '.repeat(MAX_RTF_DEPTH - 1)}x${'}'.repeat(MAX_RTF_DEPTH - 1)}}`;
    expect(textOf(ok)).toBe('x');
  });

  it(`refuses a source of more than ${MAX_RTF_CHARS} characters (50 MB) at once`, () => {
    const big = `{\\rtf1 ${'a'.repeat(50 * 1024 * 1024)}}`;
    const t0 = Date.now();
    expect(() => readRtf(big, { where: 'Rich1.Text' })).toThrow(/more than the 16777216 allowed/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it(`refuses more than ${MAX_RTF_TEXT} characters of text`, () => {
    const many = `{\\rtf1 ${'abcd '.repeat(MAX_RTF_TEXT / 4)}}`;
    expect(() => readRtf(many)).toThrow(TemplateError);
  });

  it(`refuses more than ${MAX_RTF_PARAGRAPHS} paragraphs, table cells included`, () => {
    expect(paras(readRtf(`{\\rtf1 ${'x\\par '.repeat(MAX_RTF_PARAGRAPHS)}}`)).length).toBe(MAX_RTF_PARAGRAPHS);
    expect(() => readRtf(`{\\rtf1 ${'x\\par '.repeat(MAX_RTF_PARAGRAPHS + 1)}}`, { where: 'R.Text' })).toThrow(
      /R\.Text: the RTF text holds more than 50000 paragraphs/,
    );
    expect(() => readRtf(`{\\rtf1 ${'\\intbl x\\cell '.repeat(MAX_RTF_PARAGRAPHS + 1)}}`)).toThrow(TemplateError);
  });

  it('reads random bytes without throwing anything but its limits, in bounded time', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const alphabet = "{}\\'abz0129-* ;\r\nuc";
    for (let n = 0; n < 200; n++) {
      let s = '{\\rtf1 ';
      for (let i = 0; i < 2000; i++) s += alphabet[rand() % alphabet.length];
      expect(() => readRtf(s)).not.toThrow();
    }
  });
});
