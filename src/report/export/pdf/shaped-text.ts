// Complex text as PDF text operators: a line that text/shaping.ts lays out (right-to-left runs,
// Arabic joining, Indic reordering, marks on their bases) is drawn glyph by glyph where the shaper
// placed each glyph. The PDF's own pen moves by each glyph's width in the font's widths array;
// wherever the shaper's position differs (a mark over its base, a contextual advance) the text
// matrix is set anew.
//
// Shaped glyphs no longer follow the characters one to one (ligatures, reordered vowel signs, an
// Arabic letter drawn as a shared skeleton plus dots, right-to-left order), and a glyph's
// ToUnicode entry can name only one reading. What extraction, search and copy read is therefore a
// marked-content span with ActualText (PDF 32000 14.9.4) around each piece:
// - a left-to-right run (Devanagari, Thai) carries the run as written;
// - a right-to-left run is drawn in visual order, as PDF writers draw it, and poppler turns what
//   it finds back to front, ActualText included. So each of its words carries the word as
//   written, reversed: what the reader finds in visual order and reverses into the word.
//   (Spaces between words need no span.) pdf.js ignores ActualText and reads ToUnicode, where a
//   shaped glyph can name only the characters of its first use: still open.

import {
  isControl,
  isDefaultIgnorable,
  layoutLine,
  needsShaping,
  type ResolvedFont,
  type ShapedGlyph,
  unmirror,
} from '../../text/index.js';
import { num } from './graphics.js';
import { type GlyphWriter, textOperators, useFont } from './glyphs.js';
import type { TextState } from './kit.js';

/** A text string operand as UTF-16BE with its byte-order mark, in hex. */
export function utf16Hex(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return hex;
}

const isBlank = (g: ShapedGlyph): boolean =>
  g.codePoints.every((cp) => cp === 0x20 || isControl(cp) || isDefaultIgnorable(cp));

/** Tolerance (px) below which the PDF's pen is where the shaper put the glyph. */
const SAME_PLACE = 1e-3;

/**
 * Appends the operators that draw one line of complex text with its baseline at (x, y), base
 * direction right-to-left when `rtl`, `wordSpacing` px added after every space. The text object
 * and font follow `state` as in textOperators. Returns the advance drawn.
 */
export function shapedTextOperators(
  ctx: GlyphWriter,
  ops: string[],
  font: ResolvedFont,
  x: number,
  y: number,
  text: string,
  wordSpacing: number,
  rtl: boolean,
  state: TextState,
): number {
  const size = font.sizePx;
  const runs = layoutLine(text, font.face, ctx.fonts, rtl);
  let codes: string[] = [];
  const show = (): void => {
    if (codes.length > 0) ops.push(`<${codes.join('')}> Tj`);
    codes = [];
  };
  let cx = x;
  let penX = Number.NaN;
  let penY = y;
  let fontId = '';
  for (const run of runs) {
    const embedded = ctx.glyphs.of(run.face);
    const scale = size / embedded.unitsPerEm;
    if (embedded.font.id !== fontId) {
      show();
      useFont(ctx, ops, state, embedded, size);
      fontId = embedded.font.id;
      penX = Number.NaN;
    }
    const placed: PlacedGlyph[] = [];
    for (const g of run.glyphs) {
      if (g.id === 0 && !isBlank(g)) ctx.glyphs.noGlyph(g.codePoints[0] ?? 0);
      placed.push({ glyph: g, x: cx + g.xOffset * scale, y: y - g.yOffset * scale });
      cx += g.xAdvance * scale;
      if (wordSpacing !== 0 && g.codePoints.includes(0x20)) cx += wordSpacing;
    }
    // Left-to-right runs carry their text as ActualText; right-to-left ones are left to the
    // reader's own reordering (see above).
    if (!run.rtl) {
      show();
      ops.push(`/Span <</ActualText <${utf16Hex(run.text)}>>> BDC`);
    }
    const emit = (p: PlacedGlyph): void => {
      if (!(Math.abs(p.x - penX) <= SAME_PLACE) || p.y !== penY) {
        show();
        ops.push(`1 0 0 -1 ${num(p.x)} ${num(p.y)} Tm`);
        // Not a line start textOperators could move from (the matrix is set glyph by glyph).
        state.x = Number.NaN;
        penY = p.y;
      }
      codes.push(ctx.glyphs.shapedCode(embedded, p.glyph, run.rtl));
      penX = p.x + p.glyph.advanceWidth * scale;
    };
    if (!run.rtl) for (const p of placed) emit(p);
    else {
      const words = visualWords(placed);
      const texts = wordTexts(run.text, words);
      words.forEach((word, k) => {
        const actual = texts[k];
        if (actual !== undefined) {
          show();
          ops.push(`/Span <</ActualText <${utf16Hex(actual)}>>> BDC`);
        }
        for (const p of word) emit(p);
        if (actual !== undefined) {
          show();
          ops.push('EMC');
        }
      });
    }
    if (!run.rtl) {
      show();
      ops.push('EMC');
    }
  }
  show();
  return cx - x;
}

interface PlacedGlyph {
  glyph: ShapedGlyph;
  x: number;
  y: number;
}

/**
 * The ActualText of each visual word of a right-to-left run (undefined for spaces): the word as
 * written, reversed. The glyphs' own code points cannot say it (fontkit keeps one code point list
 * per glyph id, and Arabic fonts draw several letters with one skeleton glyph plus dots), but the
 * run's words are its visual words in reverse order.
 */
function wordTexts(runText: string, words: PlacedGlyph[][]): (string | undefined)[] {
  const written = runText.split(' ').filter((w) => w !== '');
  const visual = words.map((w) => !w.every((p) => isBlank(p.glyph)));
  const count = visual.filter(Boolean).length;
  let k = written.length;
  return visual.map((isWord, i) => {
    if (!isWord) return undefined;
    k--;
    // Not one word per glyph group (never seen): the glyphs' own characters, reversed.
    const text =
      count === written.length
        ? (written[k] ?? '')
        : String.fromCodePoint(...[...(words[i] ?? [])].reverse().flatMap((p) => p.glyph.codePoints.map(unmirror)));
    return [...text].reverse().join('');
  });
}

/** A right-to-left run's glyphs split into words: spaces alone, the glyphs between them. */
function visualWords(placed: PlacedGlyph[]): PlacedGlyph[][] {
  const out: PlacedGlyph[][] = [];
  let cur: PlacedGlyph[] = [];
  for (const p of placed) {
    const space = p.glyph.codePoints.includes(0x20);
    if (space || cur.length === 0 || cur[0]?.glyph.codePoints.includes(0x20)) {
      if (cur.length > 0) out.push(cur);
      cur = [];
    }
    cur.push(p);
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/**
 * The operators of one line of text: glyph for glyph (glyphs.ts) unless the line needs the
 * shaper or bidi: complex characters, or a right-to-left base direction (`rtl`, the object's
 * RightToLeft), where neutral characters at the ends move. The text object is left open
 * (`state`). Returns the advance drawn.
 */
export function lineOperators(
  ctx: GlyphWriter,
  ops: string[],
  font: ResolvedFont,
  x: number,
  y: number,
  text: string,
  wordSpacing: number,
  rtl: boolean,
  state: TextState,
): number {
  if (!(font.sizePx > 0) || text === '') return 0;
  if (rtl || needsShaping(text)) return shapedTextOperators(ctx, ops, font, x, y, text, wordSpacing, rtl, state);
  return textOperators(ctx, ops, font, x, y, text, wordSpacing, state);
}
