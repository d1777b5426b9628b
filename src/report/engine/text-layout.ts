// Text objects: measuring (CanGrow/CanShrink/AutoWidth) and placing the broken lines in the
// object's box (alignment, padding, rotation, justification), with the text module's metrics so
// the exporters draw exactly what was measured.

import type { ReportWarnings } from '../errors.js';
import type { HorzAlign, PaddingModel, VertAlign } from '../frx/model.js';
import {
  breakLinesMeasured,
  breakRuns,
  parseHtmlTags,
  type FontService,
  type HtmlLine,
  type ResolvedFont,
  type TextLine,
  type FontSpec,
} from '../text/index.js';
import type { PreparedHtmlLine, PreparedText, PreparedTextLine } from './prepared.js';

export interface TextSpec {
  text: string;
  font: FontSpec;
  width: number;
  height: number;
  padding: PaddingModel;
  angle: number;
  wordWrap: boolean;
  /** TextObject.LineHeight (0 = the font's). */
  lineHeight: number;
  tabWidth: number;
  html: boolean;
}

export interface TextMeasure {
  plain: TextLine[];
  html: HtmlLine[] | undefined;
  lineHeight: number;
  ascent: number;
  /** Sum of the line heights. */
  textHeight: number;
  /** FastReport's CalcHeight (what CanGrow/CanShrink size the object to). */
  calcHeight: number;
  /** FastReport's CalcWidth (AutoWidth). */
  calcWidth: number;
  /** The width lines were broken for. */
  frameWidth: number;
}

/** Angles 90…179 and 270…359 lay lines out across the box's height. */
export function isSideways(angle: number): boolean {
  const a = ((angle % 360) + 360) % 360;
  return (a >= 90 && a < 180) || a >= 270;
}

function frameSize(s: Pick<TextSpec, 'width' | 'height' | 'padding' | 'angle'>): { w: number; h: number } {
  const w = s.width - s.padding.left - s.padding.right;
  const h = s.height - s.padding.top - s.padding.bottom;
  return isSideways(s.angle) ? { w: h, h: w } : { w, h };
}

/** Measures a text for its box. `resolved` is `fonts.resolve(s.font, warnings)` when the caller
 *  has it already (the engine keeps one per font of the template). */
export function measureText(
  s: TextSpec,
  fonts: FontService,
  warnings?: ReportWarnings,
  resolved?: ResolvedFont,
): TextMeasure {
  const r = resolved ?? fonts.resolve(s.font, warnings);
  const custom = s.lineHeight > 0 ? s.lineHeight : undefined;
  const lineHeight = custom ?? r.lineHeightPx;
  const { w } = frameSize(s);
  const padV = custom !== undefined ? 0 : s.padding.top + s.padding.bottom + 1;
  const padH = s.padding.left + s.padding.right + 1;
  const opts = { wordWrap: s.wordWrap, tabWidthPx: s.tabWidth > 0 ? s.tabWidth : 58, fonts };
  if (s.text === '') return emptyMeasure(lineHeight, r.ascentPx, w);
  if (s.html) {
    const runs = parseHtmlTags(s.text, s.font);
    const html = breakRuns(runs, s.font, w, { ...opts, ...(custom !== undefined ? { lineHeightPx: custom } : {}) });
    const textHeight = html.reduce((t, l) => t + l.heightPx, 0);
    const natural = s.wordWrap ? breakRuns(runs, s.font, w, { ...opts, wordWrap: false }) : html;
    const widest = natural.reduce((m, l) => Math.max(m, l.widthPx), 0);
    return sized([], html, lineHeight, r.ascentPx, textHeight, w, widest + r.spaceWidthPx, padV, padH, s.angle);
  }
  const { lines: plain, naturalWidthPx: widest } = breakLinesMeasured(s.text, r, w, opts);
  const textHeight = plain.length * lineHeight;
  return sized(plain, undefined, lineHeight, r.ascentPx, textHeight, w, widest + r.spaceWidthPx, padV, padH, s.angle);
}

/** The measures of empty texts, shared (frozen): a large table or matrix has up to a million
 *  blank cells, and they differ only in these three numbers. Bounded: cleared when full. */
const emptyMeasures = new Map<string, TextMeasure>();
const NO_LINES: TextLine[] = Object.freeze([]) as unknown as TextLine[];

function emptyMeasure(lineHeight: number, ascent: number, frameWidth: number): TextMeasure {
  const key = `${lineHeight}|${ascent}|${frameWidth}`;
  let m = emptyMeasures.get(key);
  if (!m) {
    if (emptyMeasures.size >= 4096) emptyMeasures.clear();
    m = Object.freeze({
      plain: NO_LINES,
      html: undefined,
      lineHeight,
      ascent,
      textHeight: 0,
      calcHeight: 0,
      calcWidth: 0,
      frameWidth,
    });
    emptyMeasures.set(key, m);
  }
  return m;
}

function sized(
  plain: TextLine[],
  html: HtmlLine[] | undefined,
  lineHeight: number,
  ascent: number,
  textHeight: number,
  frameWidth: number,
  naturalWidth: number,
  padV: number,
  padH: number,
  angle: number,
): TextMeasure {
  // Sideways text: its height is the object's width and the other way round.
  const sideways = isSideways(angle);
  return {
    plain,
    html,
    lineHeight,
    ascent,
    textHeight,
    calcHeight: sideways ? naturalWidth + padV : textHeight + padV,
    calcWidth: sideways ? textHeight + padH : naturalWidth + padH,
    frameWidth,
  };
}

const spaceCount = (t: string): number => {
  let n = 0;
  for (const ch of t) if (ch === ' ') n++;
  return n;
};

function alignX(align: HorzAlign, frameW: number, lineW: number, rtl: boolean): number {
  const a = rtl && align === 'Left' ? 'Right' : rtl && align === 'Right' ? 'Left' : align;
  if (a === 'Right') return frameW - lineW;
  if (a === 'Center') return (frameW - lineW) / 2;
  return 0;
}

function alignY(align: VertAlign, frameH: number, textH: number): number {
  if (align === 'Bottom') return frameH - textH;
  if (align === 'Center') return (frameH - textH) / 2;
  return 0;
}

/** Justification of one line: extra space per space character (none for a paragraph's last
 *  line unless forced). */
function justify(
  align: HorzAlign,
  hardBreak: boolean,
  force: boolean,
  text: string,
  frameW: number,
  lineW: number,
): number | undefined {
  if (align !== 'Justify' || (hardBreak && !force)) return undefined;
  const n = spaceCount(text.trimEnd());
  if (n === 0 || frameW <= lineW) return undefined;
  return (frameW - lineW) / n;
}

/** The lines of an empty text, shared by every such item (frozen: code that changes an item's
 *  lines gives it a new array). */
const NO_PREPARED_LINES: PreparedTextLine[] = Object.freeze([]) as unknown as PreparedTextLine[];

/** The measured lines as prepared lines (positions are set by positionLines). */
export function preparedLines(m: Pick<TextMeasure, 'plain' | 'html'>): {
  lines: PreparedTextLine[];
  html?: PreparedHtmlLine[];
} {
  if (m.html) {
    return {
      lines: [],
      html: m.html.map((l) => ({
        x: 0,
        y: 0,
        width: l.widthPx,
        height: l.heightPx,
        baseline: l.baselinePx,
        hardBreak: l.hardBreak,
        runs: l.pieces.map((p) => ({
          text: p.text,
          x: p.xPx,
          width: p.widthPx,
          baseline: p.baselinePx,
          font: {
            family: p.font.family,
            sizePt: p.font.sizePt,
            bold: p.font.bold,
            italic: p.font.italic,
            underline: p.font.underline,
            strikeout: p.font.strikeout,
          },
          sub: p.run.sub,
          sup: p.run.sup,
          ...(p.run.color !== undefined ? { color: p.run.color } : {}),
        })),
      })),
    };
  }
  if (m.plain.length === 0) return { lines: NO_PREPARED_LINES };
  return {
    lines: m.plain.map((l) => {
      const line: PreparedTextLine = { text: l.text, width: l.widthPx, x: 0, y: 0, hardBreak: l.hardBreak };
      if (l.segments) line.segments = l.segments.map((g) => ({ text: g.text, x: g.xPx, width: g.widthPx }));
      return line;
    }),
  };
}

type Frame = PreparedText['frame'];

// Text frames are shared between items with the same box and padding (a list report has
// thousands of identical ones, and each costs an object and four numbers). They are frozen:
// positionLines gives an item another frame, nothing changes a frame.
const FRAMES_PER_PADDING = 8;
const frames = new WeakMap<PaddingModel, Frame[]>();

export const EMPTY_FRAME: Frame = Object.freeze({ x: 0, y: 0, width: 0, height: 0 });

function sharedFrame(padding: PaddingModel, x: number, y: number, width: number, height: number): Frame {
  let list = frames.get(padding);
  if (!list) frames.set(padding, (list = []));
  for (const f of list)
    if (Object.is(f.x, x) && Object.is(f.y, y) && Object.is(f.width, width) && Object.is(f.height, height)) return f;
  const f = Object.freeze({ x, y, width, height });
  if (list.length >= FRAMES_PER_PADDING) list.shift();
  list.push(f);
  return f;
}

/** Computes the frame and the line positions of a text item from its current box. Called again
 *  whenever the box or the lines change (growing, duplicates merged, page numbers substituted). */
export function positionLines(item: PreparedText): void {
  const { w, h } = frameSize(item);
  const cx = item.padding.left + (item.width - item.padding.left - item.padding.right) / 2;
  const cy = item.padding.top + (item.height - item.padding.top - item.padding.bottom) / 2;
  item.frame = sharedFrame(item.padding, cx - w / 2, cy - h / 2, w, h);
  const rtl = item.rightToLeft;
  if (item.html) {
    const textHeight = item.html.reduce((t, l) => t + l.height, 0);
    let y = alignY(item.vertAlign, h, textHeight);
    for (const l of item.html) {
      if (l.fixed) {
        l.y = y;
        y += l.height;
        continue;
      }
      const ws = justify(
        item.horzAlign,
        l.hardBreak,
        item.forceJustify,
        l.runs.map((r) => r.text).join(''),
        w,
        l.width,
      );
      l.x = ws === undefined ? alignX(item.horzAlign, w, l.width, rtl) : 0;
      l.y = y;
      if (ws !== undefined) l.wordSpacing = ws;
      else if ('wordSpacing' in l) delete l.wordSpacing;
      y += l.height;
    }
    return;
  }
  let y = alignY(item.vertAlign, h, item.lines.length * item.lineHeight);
  for (const l of item.lines) {
    const ws = l.segments ? undefined : justify(item.horzAlign, l.hardBreak, item.forceJustify, l.text, w, l.width);
    l.x = ws === undefined ? alignX(item.horzAlign, w, l.width, rtl) : 0;
    l.y = y;
    if (ws !== undefined) l.wordSpacing = ws;
    else if ('wordSpacing' in l) delete l.wordSpacing;
    y += item.lineHeight;
  }
}
