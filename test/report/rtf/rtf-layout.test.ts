// RTF layout: lines broken by words inside the paragraph's indents, aligned (left, centre, right,
// justified), runs of several fonts sharing a baseline, tabs at the 720-twip default stops,
// paragraph spacing, and table cells side by side. Widths are checked against measureWidth (the
// text module's measurement, which both exporters draw with).

import { describe, expect, it } from 'vitest';
import type { PreparedHtmlLine } from '../../../src/report/engine/prepared.js';
import { layoutRtf, RTF_TAB_PX } from '../../../src/report/rtf/rtf-layout.js';
import { readRtf } from '../../../src/report/rtf/rtf-reader.js';
import { defaultFontService, measureWidth, type FontSpec } from '../../../src/report/text/index.js';

const fonts = defaultFontService();
const HEAD =
  String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}{\f1 Times New Roman;}}` +
  String.raw`{\colortbl ;\red0\green0\blue255;}\fs20 `;
const WORDS = 'The quick brown fox jumps over the lazy dog and keeps running through the field until the sun goes down';
const arial = (sizePt = 10, bold = false): FontSpec => ({
  family: 'Arial',
  sizePt,
  bold,
  italic: false,
  underline: false,
  strikeout: false,
});
const lay = (body: string, width = 300) => layoutRtf(readRtf(`${HEAD}${body}}`), width, fonts).lines;
const lineText = (l: PreparedHtmlLine): string => l.runs.map((r) => r.text).join('');
/** Where a line's content ends, justification included. */
const lineRight = (l: PreparedHtmlLine): number => {
  const spaces = [...lineText(l)].filter((c) => c === ' ').length;
  return l.x + l.width + (l.wordSpacing ?? 0) * spaces;
};

describe('RTF paragraphs laid out', () => {
  it('breaks by words: every line fits, no word is lost, widths are the measured widths', () => {
    const lines = lay(`${WORDS}\\par`, 200);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.map(lineText).join(' ')).toBe(WORDS);
    for (const l of lines) {
      expect(l.width).toBeLessThanOrEqual(200 + 1e-6);
      expect(l.width).toBeCloseTo(measureWidth(lineText(l), arial()), 6);
      expect(l.x).toBe(0);
    }
    // Greedy: the next line's first word would not have fitted.
    for (let k = 0; k + 1 < lines.length; k++) {
      const next = lineText(lines[k + 1] as PreparedHtmlLine).split(' ')[0];
      expect(measureWidth(`${lineText(lines[k] as PreparedHtmlLine)} ${next}`, arial())).toBeGreaterThan(200);
    }
  });

  it('centres, right-aligns and justifies each paragraph by its own alignment', () => {
    const lines = lay(`\\qc centred\\par\\qr right\\par\\qj ${WORDS}\\par\\ql left\\par`, 200);
    const c = lines[0] as PreparedHtmlLine;
    expect(c.x).toBeCloseTo((200 - measureWidth('centred', arial())) / 2, 6);
    const r = lines[1] as PreparedHtmlLine;
    expect(r.x + r.width).toBeCloseTo(200, 6);
    const justified = lines.slice(2, -1);
    for (const l of justified.slice(0, -1)) {
      expect(l.wordSpacing).toBeGreaterThan(0);
      expect(lineRight(l)).toBeCloseTo(200, 6);
    }
    // The paragraph's last line is not stretched.
    expect(justified[justified.length - 1]?.wordSpacing).toBeUndefined();
    expect(lines[lines.length - 1]?.x).toBe(0);
  });

  it('wraps inside the left, right and first-line indents', () => {
    // \li720 = 48 px, \ri1440 = 96 px, \fi360 = 24 px.
    const lines = lay(`\\li720\\ri1440\\fi360 ${WORDS}\\par`, 300);
    expect(lines[0]?.x).toBe(72);
    for (const l of lines.slice(1)) expect(l.x).toBe(48);
    expect(lines[0]?.width).toBeLessThanOrEqual(300 - 72 - 96 + 1e-6);
    for (const l of lines) expect(l.x + l.width).toBeLessThanOrEqual(300 - 96 + 1e-6);
    // Right-aligned text ends at the right indent.
    const r = lay(`\\qr\\ri1440 x\\par`, 300)[0] as PreparedHtmlLine;
    expect(r.x + r.width).toBeCloseTo(300 - 96, 6);
  });

  it('puts runs of several fonts on one line with one baseline; the line is as tall as its tallest run', () => {
    const [l] = lay(String.raw`small \fs40 big\fs20  \f1 times\par`);
    if (!l) throw new Error('no line');
    expect(l.runs.map((r) => r.text)).toEqual(['small ', 'big', ' ', 'times']);
    const big = fonts.resolve(arial(20));
    const small = fonts.resolve(arial(10));
    expect(l.height).toBeCloseTo(big.lineHeightPx, 6);
    expect(l.baseline).toBeCloseTo(big.ascentPx, 6);
    for (const r of l.runs) expect(r.baseline).toBeCloseTo(l.baseline, 6);
    expect(l.runs[3]?.font.family).toBe('Times New Roman');
    // Each run starts where the previous one ends.
    expect(l.runs[1]?.x).toBeCloseTo(measureWidth('small ', small), 6);
    expect(l.runs[2]?.x).toBeCloseTo(measureWidth('small ', small) + measureWidth('big', big), 6);
  });

  it('carries bold, underline, colour and highlight to the runs', () => {
    const [l] = lay(String.raw`\b bold\b0  \ul\cf1 link\ulnone\cf0  {\highlight1 marked}\par`);
    const run = (t: string) => l?.runs.find((r) => r.text === t);
    expect(run('bold')?.font.bold).toBe(true);
    expect(run('link')?.font.underline).toBe(true);
    expect(run('link')?.color).toBe('#0000ff');
    expect(run('marked')?.background).toBe('#0000ff');
  });

  it('puts tabs at the default stops (720 twips) from the left edge, indents included', () => {
    const [l] = lay(String.raw`a\tab b\tab\tab c\par`);
    const xs = l?.runs.map((r) => r.x);
    expect(xs).toEqual([0, RTF_TAB_PX, 3 * RTF_TAB_PX]);
    // With \li300 (20 px) the first stop is still 48 px from the frame's edge.
    const [m] = lay(String.raw`\li300\tab b\par`);
    expect((m?.x ?? 0) + (m?.runs[0]?.x ?? 0)).toBe(RTF_TAB_PX);
  });

  it('adds \\sb and \\sa to the paragraph’s first and last lines; an empty paragraph has its mark’s height', () => {
    const plain = lay(String.raw`one\par two\par`);
    const spaced = lay(String.raw`\sb240\sa120 one\par\pard two\par`);
    expect((spaced[0]?.height ?? 0) - (plain[0]?.height ?? 0)).toBeCloseTo(16 + 8, 6);
    expect((spaced[0]?.baseline ?? 0) - (plain[0]?.baseline ?? 0)).toBeCloseTo(16, 6);
    const empty = lay(String.raw`\fs40\par`);
    expect(empty[0]?.height).toBeCloseTo(fonts.resolve(arial(20)).lineHeightPx, 6);
    expect(empty[0]?.runs).toEqual([]);
  });

  it('spaces lines by \\sl: a multiple of the line, at least, or exactly', () => {
    const single = lay(String.raw`x\par`)[0]?.height ?? 0;
    expect(lay(String.raw`\sl480\slmult1 x\par`)[0]?.height).toBeCloseTo(2 * single, 6);
    expect(lay(String.raw`\sl600\slmult0 x\par`)[0]?.height).toBeCloseTo(40, 6);
    expect(lay(String.raw`\sl60\slmult0 x\par`)[0]?.height).toBeCloseTo(single, 6);
    expect(lay(String.raw`\sl-150 x\par`)[0]?.height).toBeCloseTo(10, 6);
  });

  it('puts text at custom tab stops: left, right, centre and decimal, then the default stops', () => {
    const [l] = lay(String.raw`\tx1440\tqr\tx4320 a\tab b\tab right\tab d\par`, 500);
    const run = (t: string) => l?.runs.find((r) => r.text === t);
    expect(run('b')?.x).toBe(96);
    expect((run('right')?.x ?? 0) + (run('right')?.width ?? 0)).toBeCloseTo(288, 6);
    // After the last custom stop: the next default stop (every 48 px).
    expect(run('d')?.x).toBe(336);
    const [c] = lay(String.raw`\tqc\tx2880\tab mid\par`);
    expect((c?.runs[0]?.x ?? 0) + (c?.runs[0]?.width ?? 0) / 2).toBeCloseTo(192, 6);
    const [d] = lay(String.raw`\tqdec\tx2880\tab 12.5\par`);
    expect((d?.runs[0]?.x ?? 0) + measureWidth('12', arial())).toBeCloseTo(192, 6);
  });

  it('puts tabs at \\deftab stops when the document sets them', () => {
    const lines = layoutRtf(readRtf(String.raw`{\rtf1\deftab1440 a\tab b\par}`), 300, fonts).lines;
    expect(lines[0]?.runs.map((r) => r.x)).toEqual([0, 96]);
  });

  it('breaks a line at \\line without justifying it', () => {
    const lines = lay(String.raw`\qj one two\line three\par`);
    expect(lines.map(lineText)).toEqual(['one two', 'three']);
    expect(lines[0]?.wordSpacing).toBeUndefined();
  });

  it('sets table cells side by side at their edges', () => {
    const lines = lay(
      String.raw`\trowd\trgaph0\cellx1500\cellx3000\pard\intbl left\cell\pard\intbl\qr right\cell\row\pard after\par`,
    );
    const row = lines[0] as PreparedHtmlLine;
    expect(row.runs.map((r) => r.text)).toEqual(['left', 'right']);
    expect(row.x + (row.runs[0]?.x ?? -1)).toBe(0);
    const right = row.runs[1];
    expect(row.x + (right?.x ?? 0) + (right?.width ?? 0)).toBeCloseTo(200, 6);
    expect(lineText(lines[1] as PreparedHtmlLine)).toBe('after');
  });

  it('makes a table row at least \\trrh tall', () => {
    const row = (trrh: number) =>
      lay(String.raw`\trowd\trrh${trrh}\cellx1500\pard\intbl a\cell\row\pard after\par`)[0]?.height ?? 0;
    const natural = row(0);
    expect(row(1500)).toBeCloseTo(100, 6);
    expect(row(-1500)).toBeCloseTo(100, 6);
    expect(row(15)).toBeCloseTo(natural, 6);
  });

  it('reports each table row’s lines and cell edges for the borders', () => {
    const body =
      String.raw`\trowd\trgaph0\clbrdrb\brdrs\cellx1500\cellx3000\pard\intbl one two three four five six seven` +
      String.raw` eight nine ten\cell\pard\intbl x\cell\row\pard after\par`;
    const l = layoutRtf(readRtf(`${HEAD}${body}}`), 300, fonts);
    expect(l.grid.length).toBe(1);
    const row = l.grid[0];
    expect(row?.firstLine).toBe(0);
    // The first cell (100 px) wraps; the row spans as many lines as its tallest cell.
    expect(row?.lineCount).toBeGreaterThan(1);
    expect(lineText(l.lines[row?.lineCount ?? 0] as PreparedHtmlLine)).toBe('after');
    expect(row?.cells.map((c) => [c.left, c.right])).toEqual([
      [0, 100],
      [100, 200],
    ]);
    expect(row?.cells[0]?.borders.bottom).toEqual({ width: 1 });
  });
});
