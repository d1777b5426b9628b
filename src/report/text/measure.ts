// Text measurement and line breaking in FastReport pixels (96 dpi), the way the HTML and PDF
// exporters draw text: advance widths of the faces chosen by fonts.ts, no kerning, no ligatures
// (see fonts.ts, layoutFeatures / CSS_TEXT_FEATURES), line height = GDI+ line spacing.
//
// FastReport facts this follows (FastReport.Base/Utils/TextRenderer.cs, AdvancedTextRenderer;
// FastReport.Base/TextObject.cs, CalcSize):
// - line height = Font.GetHeight(96-dpi graphics) = size in px × (ascent + descent + lineGap) / em,
//   unless the object sets LineHeight;
// - text is split into paragraphs at '\n' (a '\r' before it is dropped); empty paragraphs at the
//   end are dropped (a text of only line breaks keeps one line);
// - wrapped lines are trimmed of spaces at the break;
// - CalcHeight = lines × line height + Padding.Top + Padding.Bottom + 1 (when LineHeight is 0;
//   with a LineHeight set FastReport adds no padding); CalcWidth = widest line + the width of a
//   space + Padding.Left + Padding.Right + 1; an empty text measures 0 × 0.

import type { FontSpec } from './font-spec.js';
import { defaultFontService, type FontService, type ResolvedFont } from './fonts.js';
import { needsShaping, shapedWidthPx } from './shaping.js';
import { type AtomParagraph, CHAR, FIT_EPSILON, kindOf, type RawLine, TAB, walkLine, wrapParagraph } from './wrap.js';
import { CodePointNumbers } from '../bounded-cache.js';

export { nextTabStop } from './wrap.js';

/** FastReport's Padding: left, top, right, bottom in px. */
export interface Padding {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** TextObject's default padding "2, 0, 2, 0". */
export const DEFAULT_PADDING: Readonly<Padding> = Object.freeze({ left: 2, top: 0, right: 2, bottom: 0 });

/** TextObject's default TabWidth in px. */
export const DEFAULT_TAB_WIDTH = 58;

export interface BreakOptions {
  /** TextObject.WordWrap; default true. */
  wordWrap?: boolean;
  /** Tab stop distance in px; default 58 (TextObject.TabWidth). */
  tabWidthPx?: number;
  /** Break a word wider than the line between characters (default true); else it overflows. */
  breakLongWords?: boolean;
  /** Font service; default the process-wide one. */
  fonts?: FontService;
}

/** A piece of a line between tabs, positioned from the line's start. */
export interface LineSegment {
  text: string;
  xPx: number;
  widthPx: number;
}

export interface TextLine {
  /** What the line shows: the source text from `start` to `end`, trailing spaces excluded. */
  text: string;
  /** Width of `text` — what horizontal alignment uses. */
  widthPx: number;
  /** UTF-16 offsets in the measured text: text === source.slice(start, end). */
  start: number;
  end: number;
  /** True when the line ends a paragraph (a line break or the end of the text follows). */
  hardBreak: boolean;
  /** Only for lines with tabs: the pieces between tabs and where they start. */
  segments?: LineSegment[];
}

function resolveFont(font: FontSpec | ResolvedFont, fonts: FontService): ResolvedFont {
  return 'face' in font ? font : fonts.resolve(font);
}

/**
 * Width of a single line of text in px (tabs advance to tab stops from x = 0; line breaks are
 * not interpreted and measure zero).
 */
export function measureWidth(
  text: string,
  font: FontSpec | ResolvedFont,
  fonts: FontService = defaultFontService(),
  tabWidthPx: number = DEFAULT_TAB_WIDTH,
): number {
  const r = resolveFont(font, fonts);
  if (needsShaping(text)) {
    const p = atomsOf(text, 0, text.length, r, fonts);
    return walkLine(p, 0, p.kinds.length, tabWidthPx);
  }
  // Sum font units per unitsPerEm (integers, exact), then scale once per unitsPerEm, in the
  // order each was first met. Nearly always one face: its sum is kept apart from the others.
  let firstUpm = 0;
  let firstUnits = 0;
  let others: Map<number, number> | undefined;
  let hasTab = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x09) {
      hasTab = true;
      break;
    }
    const face = fonts.faceFor(r.face, cp);
    const upm = face.unitsPerEm;
    if (upm === firstUpm || firstUpm === 0) {
      firstUpm = upm;
      firstUnits += face.advance(cp);
    } else {
      others ??= new Map();
      others.set(upm, (others.get(upm) ?? 0) + face.advance(cp));
    }
  }
  if (hasTab) {
    const p = atomsOf(text, 0, text.length, r, fonts);
    return walkLine(p, 0, p.kinds.length, tabWidthPx);
  }
  let x = 0;
  if (firstUpm !== 0) x += (firstUnits * r.sizePx) / firstUpm;
  if (others) for (const [upm, u] of others) x += (u * r.sizePx) / upm;
  return x;
}

/** FastReport's line height for a font: GDI+ line spacing at 96 dpi, in px. */
export function lineHeightPx(font: FontSpec | ResolvedFont, fonts: FontService = defaultFontService()): number {
  return resolveFont(font, fonts).lineHeightPx;
}

interface PlainParagraph extends AtomParagraph {
  /** UTF-16 offset of each atom in the source; offsets[n] is the paragraph's end. */
  offsets: number[];
}

// Advance widths in px per resolved font and code point. fonts.advancePx goes through the face
// fallback and the face's unitsPerEm on every call, and measuring asks for the same few hundred
// code points a million times in a large report. The values are exactly fonts.advancePx's (the
// same expression, computed once), kept per code point (CodePointNumbers: Latin-1 in an array,
// the rest in a bounded cache); fonts no longer used go with their ResolvedFont (weak keys).
const MAX_CACHED_ADVANCES = 4096;

const advanceCaches = new WeakMap<FontService, WeakMap<ResolvedFont, CodePointNumbers>>();

function advanceCache(r: ResolvedFont, fonts: FontService): CodePointNumbers {
  let byFont = advanceCaches.get(fonts);
  if (!byFont) advanceCaches.set(fonts, (byFont = new WeakMap()));
  let cache = byFont.get(r);
  if (!cache) byFont.set(r, (cache = new CodePointNumbers(MAX_CACHED_ADVANCES, (cp) => fonts.advancePx(cp, r))));
  return cache;
}

/** fonts.advancePx for one resolved font, remembered per code point (for html-lines.ts). */
export function advanceLookup(r: ResolvedFont, fonts: FontService): (cp: number) => number {
  const cache = advanceCache(r, fonts);
  return (cp) => cache.get(cp);
}

function atomsOf(text: string, start: number, end: number, r: ResolvedFont, fonts: FontService): PlainParagraph {
  const p: PlainParagraph = { cps: [], widths: [], kinds: [], offsets: [] };
  const cache = advanceCache(r, fonts);
  for (let off = start; off < end; ) {
    let cp = text.codePointAt(off) ?? 0;
    // One atom per code point, as the string iterator gives them (a lone surrogate is one, also
    // a pair cut by the paragraph's end).
    let len = 1;
    if (cp > 0xffff) {
      if (off + 1 < end) len = 2;
      else cp = text.charCodeAt(off);
    }
    p.cps.push(len === 1 ? (text[off] as string) : text.slice(off, off + 2));
    p.kinds.push(kindOf(cp));
    p.widths.push(cp === 0x09 ? 0 : cache.get(cp));
    p.offsets.push(off);
    off += len;
  }
  p.offsets.push(end);
  if (needsShaping(text.slice(start, end))) shapeWords(p, r, fonts);
  return p;
}

/**
 * Gives each word that needs the shaper its shaped width (text/shaping.ts), spread over its
 * characters in proportion to their plain advances: lines break between words, so only a word's
 * sum matters (and a word broken between graphemes, being too long for any line, is close).
 */
function shapeWords(p: PlainParagraph, r: ResolvedFont, fonts: FontService): void {
  const { cps, widths, kinds } = p;
  for (let i = 0; i < kinds.length; ) {
    if (kinds[i] !== CHAR) {
      i++;
      continue;
    }
    let j = i;
    while (j < kinds.length && kinds[j] === CHAR) j++;
    const word = cps.slice(i, j).join('');
    if (needsShaping(word)) {
      const shaped = shapedWidthPx(word, r.face, r.sizePx, fonts);
      let plain = 0;
      for (let k = i; k < j; k++) plain += widths[k] ?? 0;
      for (let k = i; k < j; k++) widths[k] = plain > 0 ? ((widths[k] ?? 0) * shaped) / plain : k === i ? shaped : 0;
    }
    i = j;
  }
}

/** Paragraph ranges [start, end) of a text: split at \r\n, \n or \r; empty ones at the end dropped. */
export function paragraphRanges(text: string): Array<[number, number]> {
  // Most texts in a report are one paragraph.
  if (text.indexOf('\n') < 0 && text.indexOf('\r') < 0) return [[0, text.length]];
  const out: Array<[number, number]> = [];
  let start = 0;
  const re = /\r\n|\n|\r/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push([start, m.index]);
    start = m.index + m[0].length;
  }
  out.push([start, text.length]);
  while (out.length > 1) {
    const last = out[out.length - 1];
    if (!last || last[0] !== last[1]) break;
    out.pop();
  }
  return out;
}

/**
 * Breaks text into lines at most `maxWidthPx` wide (see wrap.ts for the rules). Every paragraph
 * gives at least one line, so "" gives one empty line.
 */
export function breakLines(
  text: string,
  font: FontSpec | ResolvedFont,
  maxWidthPx: number,
  opts: BreakOptions = {},
): TextLine[] {
  return breakText(text, font, maxWidthPx, opts, false).lines;
}

export interface MeasuredLines {
  lines: TextLine[];
  /** Width of the widest paragraph laid out without word wrap (0 for none): what
   *  breakLines(text, font, maxWidthPx, { ...opts, wordWrap: false }) gives as its widest line. */
  naturalWidthPx: number;
}

/**
 * breakLines, plus the widest line the text would have without word wrap (FastReport's CalcWidth
 * needs both), from one pass over the characters instead of two.
 */
export function breakLinesMeasured(
  text: string,
  font: FontSpec | ResolvedFont,
  maxWidthPx: number,
  opts: BreakOptions = {},
): MeasuredLines {
  return breakText(text, font, maxWidthPx, opts, true);
}

function breakText(
  text: string,
  font: FontSpec | ResolvedFont,
  maxWidthPx: number,
  opts: BreakOptions,
  natural: boolean,
): MeasuredLines {
  const fonts = opts.fonts ?? defaultFontService();
  const r = resolveFont(font, fonts);
  const wordWrap = opts.wordWrap ?? true;
  const cache = advanceCache(r, fonts);
  // Most texts are one paragraph that fits: no ranges, atoms or options objects for them. (Not
  // text that needs the shaper: its widths are the atoms'.)
  const complex = needsShaping(text);
  if (!complex && text.indexOf('\n') < 0 && text.indexOf('\r') < 0) {
    const single = oneLine(text, 0, text.length, cache, maxWidthPx, wordWrap);
    if (single) return { lines: [single], naturalWidthPx: natural ? Math.max(0, single.widthPx) : 0 };
  }
  const wrap = {
    wordWrap,
    breakLongWords: opts.breakLongWords ?? true,
    tabWidth: opts.tabWidthPx ?? DEFAULT_TAB_WIDTH,
  };
  const noWrap = { ...wrap, wordWrap: false };
  const out: TextLine[] = [];
  let widest = 0;
  for (const [start, end] of paragraphRanges(text)) {
    const single = complex ? undefined : oneLine(text, start, end, cache, maxWidthPx, wordWrap);
    if (single) {
      out.push(single);
      if (natural) widest = Math.max(widest, single.widthPx);
      continue;
    }
    const p = atomsOf(text, start, end, r, fonts);
    const raw = wrapParagraph(p, maxWidthPx, wrap);
    raw.forEach((l, idx) => {
      out.push(toTextLine(text, p, l, idx === raw.length - 1, wrap.tabWidth));
    });
    if (natural) {
      // Without word wrap a paragraph is one line (and the wrapped result is that line already).
      for (const l of wordWrap ? wrapParagraph(p, maxWidthPx, noWrap) : raw) widest = Math.max(widest, l.width);
    }
  }
  return { lines: out, naturalWidthPx: widest };
}

/**
 * A paragraph without tabs that fits the width, as its one line, laid out without building its
 * atoms (most texts of a report): the same sums in the same order as wrapParagraph, which it
 * leaves the rest to (undefined).
 */
function oneLine(
  text: string,
  start: number,
  end: number,
  cache: CodePointNumbers,
  maxWidth: number,
  wordWrap: boolean,
): TextLine | undefined {
  const max = maxWidth > 0 ? maxWidth + FIT_EPSILON : FIT_EPSILON;
  let x = 0;
  let contentEnd = start;
  let contentWidth = 0;
  let hasContent = false;
  let off = start;
  while (off < end) {
    let cp = text.codePointAt(off) ?? 0;
    if (cp === 0x09) return undefined;
    if (cp === 0x20) {
      x += cache.get(cp);
      off++;
      continue;
    }
    // A word: everything up to the next space or tab, one code point at a time as atomsOf.
    let w = 0;
    let j = off;
    while (j < end) {
      cp = text.codePointAt(j) ?? 0;
      let len = 1;
      if (cp > 0xffff) {
        if (j + 1 < end) len = 2;
        else cp = text.charCodeAt(j);
      }
      if (cp === 0x20 || cp === 0x09) break;
      w += cache.get(cp);
      j += len;
    }
    if (wordWrap && !(x + w <= max)) return undefined;
    x += w;
    contentEnd = j;
    contentWidth = x;
    hasContent = true;
    off = j;
  }
  const lineEnd = hasContent ? contentEnd : start;
  return {
    text: text.slice(start, lineEnd),
    widthPx: hasContent ? contentWidth : 0,
    start,
    end: lineEnd,
    hardBreak: true,
  };
}

function toTextLine(text: string, p: PlainParagraph, l: RawLine, last: boolean, tabWidth: number): TextLine {
  const start = p.offsets[l.from] ?? 0;
  const end = p.offsets[l.to] ?? start;
  const line: TextLine = { text: text.slice(start, end), widthPx: l.width, start, end, hardBreak: last };
  let hasTab = false;
  for (let a = l.from; a < l.to; a++) if (p.kinds[a] === TAB) hasTab = true;
  if (hasTab) {
    const segments: LineSegment[] = [];
    let cur: LineSegment | undefined;
    let prev = -2;
    walkLine(p, l.from, l.to, tabWidth, (a, x) => {
      const w = p.widths[a] ?? 0;
      if (cur && prev === a - 1) {
        cur.text += p.cps[a] ?? '';
        cur.widthPx += w;
      } else {
        cur = { text: p.cps[a] ?? '', xPx: x, widthPx: w };
        segments.push(cur);
      }
      prev = a;
    });
    line.segments = segments;
  }
  return line;
}

export interface TextBlockOptions extends BreakOptions {
  /** TextObject.LineHeight in px when set (non-zero); default the font's line height. */
  lineHeightPx?: number;
}

export interface TextBlock {
  lines: TextLine[];
  /** Line height used (the font's, or the LineHeight option). */
  lineHeightPx: number;
  /** Height of the lines alone. */
  textHeightPx: number;
  /** FastReport's CalcHeight: what CanGrow/CanShrink size the object to. */
  heightPx: number;
  /** FastReport's CalcWidth (no word wrap): what AutoWidth sizes the object to. */
  autoWidthPx: number;
}

/**
 * Lays out a TextObject's text in an object `widthPx` wide (padding included) and gives the
 * heights FastReport's CanGrow/CanShrink use.
 */
export function measureTextBlock(
  text: string,
  font: FontSpec | ResolvedFont,
  widthPx: number,
  padding: Padding = DEFAULT_PADDING,
  opts: TextBlockOptions = {},
): TextBlock {
  const fonts = opts.fonts ?? defaultFontService();
  const r = resolveFont(font, fonts);
  const customLineHeight = opts.lineHeightPx !== undefined && opts.lineHeightPx > 0 ? opts.lineHeightPx : undefined;
  const lineHeight = customLineHeight ?? r.lineHeightPx;
  if (text === '') return { lines: [], lineHeightPx: lineHeight, textHeightPx: 0, heightPx: 0, autoWidthPx: 0 };
  const inner = widthPx - padding.left - padding.right;
  const { lines, naturalWidthPx: widest } = breakLinesMeasured(text, r, inner, { ...opts, fonts });
  const textHeight = lines.length * lineHeight;
  return {
    lines,
    lineHeightPx: lineHeight,
    textHeightPx: textHeight,
    heightPx: customLineHeight !== undefined ? textHeight : textHeight + padding.top + padding.bottom + 1,
    autoWidthPx: widest + r.spaceWidthPx + padding.left + padding.right + 1,
  };
}
