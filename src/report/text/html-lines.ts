// HtmlTags text laid out: styled runs (parsed by html-tags.ts) broken into lines with per-run
// fonts, sub/sup shifts and a common baseline, and the block's size as FastReport's
// AdvancedTextRenderer computes it (CalcHeight, CalcWidth).

import type { FontSpec } from './font-spec.js';
import { defaultFontService, type FontService, type ResolvedFont } from './fonts.js';
import { parseHtmlTags, type StyledRun } from './html-tags.js';
import { advanceLookup, DEFAULT_PADDING, DEFAULT_TAB_WIDTH, type Padding, type TextBlockOptions } from './measure.js';
import { type AtomParagraph, kindOf, nextTabStop, TAB, wrapParagraph } from './wrap.js';

/** The font a run is drawn with: the object's font with the run's style (sub/sup at 0.6×). */
export function runFont(run: StyledRun, base: FontSpec): FontSpec {
  const size = run.sizePt ?? base.sizePt;
  return {
    family: run.face ?? base.family,
    sizePt: run.sub || run.sup ? size * 0.6 : size,
    bold: run.bold,
    italic: run.italic,
    underline: run.underline,
    strikeout: run.strike,
  };
}

/** A run's part of one line, positioned. */
export interface HtmlPiece {
  text: string;
  /** The styled run this piece comes from. */
  run: StyledRun;
  /** The font it is drawn with (see runFont). */
  font: FontSpec;
  /** Left edge from the line's start. */
  xPx: number;
  widthPx: number;
  /** Top of the piece's text box from the line's top (FastReport's Run.Top). */
  topPx: number;
  /** Its baseline from the line's top: topPx + the font's ascent. */
  baselinePx: number;
}

export interface HtmlLine {
  pieces: HtmlPiece[];
  /** Content width (trailing spaces excluded). */
  widthPx: number;
  /** The tallest run's line height (the object's line height for an empty line). */
  heightPx: number;
  /** The common baseline of the line's runs, from the line's top. */
  baselinePx: number;
  hardBreak: boolean;
}

export interface RunBreakOptions {
  wordWrap?: boolean;
  tabWidthPx?: number;
  breakLongWords?: boolean;
  /** TextObject.LineHeight in px when set; default the object's font's line height. */
  lineHeightPx?: number;
  fonts?: FontService;
}

interface RunInfo {
  run: StyledRun;
  font: FontSpec;
  resolved: ResolvedFont;
  /** FastReport's Run.LineHeight. */
  height: number;
  /** FastReport's Run.FontLineHeight. */
  fontLineHeight: number;
  /** FastReport's Run.CurrentBaseLine. */
  cellAscent: number;
  /** Vertical shift of sub/sup text. */
  shift: number;
  /** Advance of a code point in px with `resolved` (fonts.advancePx, cached). */
  advancePx: (cp: number) => number;
}

/**
 * Breaks styled runs into lines at most `maxWidthPx` wide, each run measured with its own font
 * (same rules as breakLines). Line height is the tallest run's: a run that sets no face or size
 * has the object's line height, one that does has its own font's.
 */
export function breakRuns(
  runs: readonly StyledRun[],
  base: FontSpec,
  maxWidthPx: number,
  opts: RunBreakOptions = {},
): HtmlLine[] {
  const fonts = opts.fonts ?? defaultFontService();
  const baseResolved = fonts.resolve(base);
  const baseLineHeight =
    opts.lineHeightPx !== undefined && opts.lineHeightPx > 0 ? opts.lineHeightPx : baseResolved.lineHeightPx;
  const wrap = {
    wordWrap: opts.wordWrap ?? true,
    breakLongWords: opts.breakLongWords ?? true,
    tabWidth: opts.tabWidthPx ?? DEFAULT_TAB_WIDTH,
  };

  const infos = new Map<StyledRun, RunInfo>();
  const info = (run: StyledRun): RunInfo => {
    let ri = infos.get(run);
    if (!ri) {
      const font = runFont(run, base);
      const resolved = fonts.resolve(font);
      const own = run.face !== undefined || run.sizePt !== undefined;
      const fontLineHeight = own ? resolved.lineHeightPx : baseResolved.lineHeightPx;
      ri = {
        run,
        font,
        resolved,
        height: own ? resolved.lineHeightPx : baseLineHeight,
        fontLineHeight,
        cellAscent: own ? resolved.ascentPx : baseResolved.ascentPx,
        shift: run.sub ? fontLineHeight * 0.45 : run.sup ? -fontLineHeight * 0.15 : 0,
        advancePx: advanceLookup(resolved, fonts),
      };
      infos.set(run, ri);
    }
    return ri;
  };

  // Paragraphs of atoms, each atom remembering its run.
  interface RunParagraph extends AtomParagraph {
    owners: StyledRun[];
  }
  const paragraphs: RunParagraph[] = [];
  let cur: RunParagraph = { cps: [], widths: [], kinds: [], owners: [] };
  paragraphs.push(cur);
  let afterCR = false;
  for (const run of runs) {
    const ri = info(run);
    for (const ch of run.text) {
      if (ch === '\n' || ch === '\r') {
        if (!(ch === '\n' && afterCR)) {
          cur = { cps: [], widths: [], kinds: [], owners: [] };
          paragraphs.push(cur);
        }
        afterCR = ch === '\r';
        continue;
      }
      afterCR = false;
      const cp = ch.codePointAt(0) ?? 0;
      cur.cps.push(ch);
      cur.kinds.push(kindOf(cp));
      cur.widths.push(cp === 0x09 ? 0 : ri.advancePx(cp));
      cur.owners.push(run);
    }
  }
  while (paragraphs.length > 1 && paragraphs[paragraphs.length - 1]?.cps.length === 0) paragraphs.pop();

  const out: HtmlLine[] = [];
  for (const p of paragraphs) {
    const raw = wrapParagraph(p, maxWidthPx, wrap);
    raw.forEach((l, idx) => {
      // Pieces: consecutive atoms of one run, split at tabs.
      const pieces: Array<{ text: string; info: RunInfo; x: number; w: number }> = [];
      let x = 0;
      let last: (typeof pieces)[number] | undefined;
      for (let a = l.from; a < l.to; a++) {
        if (p.kinds[a] === TAB) {
          x = nextTabStop(x, wrap.tabWidth);
          last = undefined;
          continue;
        }
        const owner = p.owners[a];
        if (!owner) continue;
        const w = p.widths[a] ?? 0;
        if (last && last.info.run === owner) {
          last.text += p.cps[a] ?? '';
          last.w += w;
        } else {
          last = { text: p.cps[a] ?? '', info: info(owner), x, w };
          pieces.push(last);
        }
        x += w;
      }
      let height = -1;
      let baseline = 0;
      for (const pc of pieces) {
        height = Math.max(height, pc.info.height);
        baseline = Math.max(baseline, pc.info.cellAscent);
      }
      if (pieces.length === 0) {
        height = baseLineHeight;
        baseline = baseResolved.ascentPx;
      }
      out.push({
        pieces: pieces.map((pc) => {
          const top = baseline - pc.info.cellAscent + pc.info.shift;
          return {
            text: pc.text,
            run: pc.info.run,
            font: pc.info.font,
            xPx: pc.x,
            widthPx: pc.w,
            topPx: top,
            baselinePx: top + pc.info.resolved.ascentPx,
          };
        }),
        widthPx: l.width,
        heightPx: height,
        baselinePx: baseline,
        hardBreak: idx === raw.length - 1,
      });
    });
  }
  return out;
}

export interface HtmlBlock {
  runs: StyledRun[];
  lines: HtmlLine[];
  textHeightPx: number;
  /** FastReport's CalcHeight for CanGrow/CanShrink. */
  heightPx: number;
  /** FastReport's CalcWidth (no word wrap) for AutoWidth. */
  autoWidthPx: number;
}

/** measureTextBlock for HtmlTags text: parse, break, and FastReport's CalcSize. */
export function measureHtmlBlock(
  text: string,
  font: FontSpec,
  widthPx: number,
  padding: Padding = DEFAULT_PADDING,
  opts: TextBlockOptions = {},
): HtmlBlock {
  const fonts = opts.fonts ?? defaultFontService();
  const runs = parseHtmlTags(text, font);
  if (text === '') return { runs, lines: [], textHeightPx: 0, heightPx: 0, autoWidthPx: 0 };
  const o: RunBreakOptions = { ...opts, fonts };
  const inner = widthPx - padding.left - padding.right;
  const lines = breakRuns(runs, font, inner, o);
  const textHeight = lines.reduce((s, l) => s + l.heightPx, 0);
  const natural = (opts.wordWrap ?? true) ? breakRuns(runs, font, inner, { ...o, wordWrap: false }) : lines;
  const widest = natural.reduce((m, l) => Math.max(m, l.widthPx), 0);
  const custom = opts.lineHeightPx !== undefined && opts.lineHeightPx > 0;
  return {
    runs,
    lines,
    textHeightPx: textHeight,
    heightPx: custom ? textHeight : textHeight + padding.top + padding.bottom + 1,
    autoWidthPx: widest + fonts.resolve(font).spaceWidthPx + padding.left + padding.right + 1,
  };
}
