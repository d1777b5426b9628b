// The line-breaking core shared by plain text (measure.ts) and HtmlTags runs (html-lines.ts).
//
// A paragraph (text between hard breaks) is a sequence of atoms, one per code point, each with
// its width in pixels: widths are additive because text is laid out without kerning or ligatures
// (fonts.ts, layoutFeatures). Rules:
// - Break opportunities are after a run of spaces (U+0020) and after a tab. The spaces at a soft
//   break belong to neither line; spaces at the start of a paragraph stay (indentation).
// - A line's width is the width of its content: trailing spaces do not count (they matter neither
//   for fitting nor for alignment).
// - A word wider than the line is broken between grapheme clusters (at least one per line), as
//   GDI+ does; with breakLongWords false it overflows on a line of its own instead.
// - Tabs advance to the next multiple of tabWidth from the line's start (FastReport: TabWidth,
//   58 px by default, first tab offset 0).
// - No word wrap: one line per paragraph.

export const CHAR = 0;
export const SPACE = 1;
export const TAB = 2;

/** Tolerance for "fits": widths are sums of floats. */
export const FIT_EPSILON = 1e-6;

export interface AtomParagraph {
  /** One string per code point. */
  cps: string[];
  /** Width of each atom in px (ignored for tabs, whose width depends on position). */
  widths: number[];
  /** CHAR, SPACE or TAB per atom. */
  kinds: number[];
}

export interface WrapOptions {
  wordWrap: boolean;
  breakLongWords: boolean;
  tabWidth: number;
}

/** A line as atom indices: [from, to) with trailing spaces excluded; width of that content. */
export interface RawLine {
  from: number;
  to: number;
  width: number;
}

export function nextTabStop(x: number, tabWidth: number): number {
  if (!(tabWidth > 0)) return x;
  return (Math.floor(x / tabWidth + FIT_EPSILON) + 1) * tabWidth;
}

export function kindOf(cp: number): number {
  return cp === 0x20 ? SPACE : cp === 0x09 ? TAB : CHAR;
}

let segmenter: Intl.Segmenter | undefined;

/** For each atom, whether a grapheme cluster starts there. */
function graphemeStarts(cps: string[]): Uint8Array {
  const starts = new Uint8Array(cps.length);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const utf16ToAtom: number[] = [];
  for (let a = 0; a < cps.length; a++) {
    const cp = cps[a] ?? '';
    for (let u = 0; u < cp.length; u++) utf16ToAtom.push(a);
  }
  for (const seg of segmenter.segment(cps.join(''))) {
    const a = utf16ToAtom[seg.index];
    if (a !== undefined) starts[a] = 1;
  }
  return starts;
}

/** Breaks one paragraph into lines (at least one). */
export function wrapParagraph(p: AtomParagraph, maxWidth: number, o: WrapOptions): RawLine[] {
  const { widths, kinds } = p;
  const n = kinds.length;
  const max = maxWidth > 0 ? maxWidth + FIT_EPSILON : FIT_EPSILON;
  const lines: RawLine[] = [];
  let lineFrom = 0;
  let x = 0;
  let contentEnd = 0;
  let contentWidth = 0;
  let hasContent = false;
  let graphemes: Uint8Array | undefined;

  const emit = (nextFrom: number): void => {
    lines.push({ from: lineFrom, to: hasContent ? contentEnd : lineFrom, width: hasContent ? contentWidth : 0 });
    lineFrom = nextFrom;
    x = 0;
    contentEnd = nextFrom;
    contentWidth = 0;
    hasContent = false;
  };
  const place = (end: number, w: number): void => {
    x += w;
    contentEnd = end;
    contentWidth = x;
    hasContent = true;
  };

  let i = 0;
  while (i < n) {
    const kind = kinds[i];
    if (kind === SPACE) {
      while (i < n && kinds[i] === SPACE) x += widths[i++] ?? 0;
      continue;
    }
    if (kind === TAB) {
      if (o.wordWrap && (hasContent || x > 0) && nextTabStop(x, o.tabWidth) > max) emit(i);
      place(i + 1, nextTabStop(x, o.tabWidth) - x);
      i++;
      continue;
    }
    let j = i;
    let w = 0;
    while (j < n && kinds[j] === CHAR) w += widths[j++] ?? 0;
    if (!o.wordWrap || x + w <= max) {
      place(j, w);
      i = j;
      continue;
    }
    // The word does not fit after what the line holds: wrap before it. A line holding only a
    // paragraph's leading spaces is left as an empty line when the word fits on a line of its own.
    if (hasContent || (x > 0 && w <= max)) emit(i);
    if (x + w <= max || !o.breakLongWords) {
      place(j, w);
      i = j;
      continue;
    }
    // Too wide for any line: break between grapheme clusters.
    graphemes ??= graphemeStarts(p.cps);
    let k = i;
    while (k < j) {
      let g = k + 1;
      let gw = widths[k] ?? 0;
      while (g < j && !graphemes[g]) gw += widths[g++] ?? 0;
      if (x + gw > max && (hasContent || x > 0)) emit(k);
      place(g, gw);
      k = g;
    }
    i = j;
  }
  lines.push({ from: lineFrom, to: hasContent ? contentEnd : lineFrom, width: hasContent ? contentWidth : 0 });
  return lines;
}

/**
 * Walks the atoms of a line and reports the pen position of each, honouring tab stops: calls
 * `visit(atomIndex, x)` for every non-tab atom. Returns the width of [from, to).
 */
export function walkLine(
  p: AtomParagraph,
  from: number,
  to: number,
  tabWidth: number,
  visit?: (atom: number, x: number) => void,
): number {
  let x = 0;
  for (let a = from; a < to; a++) {
    if (p.kinds[a] === TAB) x = nextTabStop(x, tabWidth);
    else {
      visit?.(a, x);
      x += p.widths[a] ?? 0;
    }
  }
  return x;
}
