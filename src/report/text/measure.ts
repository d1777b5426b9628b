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

import { defaultFontService, type FontService, type FontSpec, type ResolvedFont } from './fonts.js';
import { type AtomParagraph, kindOf, type RawLine, TAB, walkLine, wrapParagraph } from './wrap.js';

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
  // Sum font units per face (integers, exact), then scale once per face.
  const units = new Map<number, number>();
  let x = 0;
  let hasTab = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x09) {
      hasTab = true;
      break;
    }
    const face = fonts.faceFor(r.face, cp);
    units.set(face.unitsPerEm, (units.get(face.unitsPerEm) ?? 0) + face.advance(cp));
  }
  if (hasTab) {
    const p = atomsOf(text, 0, text.length, r, fonts);
    return walkLine(p, 0, p.kinds.length, tabWidthPx);
  }
  for (const [upm, u] of units) x += (u * r.sizePx) / upm;
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

function atomsOf(text: string, start: number, end: number, r: ResolvedFont, fonts: FontService): PlainParagraph {
  const p: PlainParagraph = { cps: [], widths: [], kinds: [], offsets: [] };
  let off = start;
  for (const ch of text.slice(start, end)) {
    const cp = ch.codePointAt(0) ?? 0;
    p.cps.push(ch);
    p.kinds.push(kindOf(cp));
    p.widths.push(cp === 0x09 ? 0 : fonts.advancePx(cp, r));
    p.offsets.push(off);
    off += ch.length;
  }
  p.offsets.push(end);
  return p;
}

/** Paragraph ranges [start, end) of a text: split at \r\n, \n or \r; empty ones at the end dropped. */
export function paragraphRanges(text: string): Array<[number, number]> {
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
  const fonts = opts.fonts ?? defaultFontService();
  const r = resolveFont(font, fonts);
  const wrap = {
    wordWrap: opts.wordWrap ?? true,
    breakLongWords: opts.breakLongWords ?? true,
    tabWidth: opts.tabWidthPx ?? DEFAULT_TAB_WIDTH,
  };
  const out: TextLine[] = [];
  for (const [start, end] of paragraphRanges(text)) {
    const p = atomsOf(text, start, end, r, fonts);
    const raw = wrapParagraph(p, maxWidthPx, wrap);
    raw.forEach((l, idx) => out.push(toTextLine(text, p, l, idx === raw.length - 1, wrap.tabWidth)));
  }
  return out;
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
  const lines = breakLines(text, r, inner, { ...opts, fonts });
  const textHeight = lines.length * lineHeight;
  const natural = (opts.wordWrap ?? true) ? breakLines(text, r, inner, { ...opts, fonts, wordWrap: false }) : lines;
  const widest = natural.reduce((m, l) => Math.max(m, l.widthPx), 0);
  return {
    lines,
    lineHeightPx: lineHeight,
    textHeightPx: textHeight,
    heightPx: customLineHeight !== undefined ? textHeight : textHeight + padding.top + padding.bottom + 1,
    autoWidthPx: widest + r.spaceWidthPx + padding.left + padding.right + 1,
  };
}
