// TextObject content: the lines exactly as the engine broke and placed them (never re-wrapped),
// in the text frame (rotated about its centre for an Angle), clipped to the box when Clip is
// set. A line's baseline is its top + the font's ascent; a justified line adds its word spacing
// after every space; tab segments start where the line breaker put them. HtmlTags lines are
// drawn run by run with each run's font, colour, baseline (sub/sup included) and decorations.
// Underline and strikeout use the face's own positions and thicknesses (as browsers do).
//
// A text object is the exporter's hot path (a 10,000-row list has 50,000 of them), so its
// operators go straight into the page's content (kit.ts PageContent), consecutive text objects
// share one PDF text object (BT…ET) and set colour and font only when they change, and the clip
// path is only set when some line actually reaches outside the box.

import type { PreparedRun, PreparedText } from '../../engine/prepared.js';
import { parseColor } from '../../frx/colors.js';
import type { Color } from '../../frx/model.js';
import type { ResolvedFont, FontSpec } from '../../text/index.js';
import { num, type PdfContext } from './context.js';
import { paintFill, paints } from './fills.js';
import { lineOperators } from './shaped-text.js';
import { addContentLines, closeText, pageContent, type PageContent, type TextState } from './kit.js';

/** Writes one text object's operators into the page's content. */
class TextContent {
  private readonly content: PageContent;
  constructor(private readonly ctx: PdfContext) {
    this.content = pageContent(ctx.doc);
  }

  fill(c: Color): void {
    const op = this.ctx.fillOperator(c);
    const t = this.content.text;
    if (op === undefined) this.ctx.setFill(c);
    else if (t.fill !== op) {
      // A colour may be set inside a text object.
      this.content.lines.push(op);
      t.fill = op;
    }
  }

  text(font: ResolvedFont, x: number, y: number, text: string, wordSpacing = 0, rtl = false): number {
    return lineOperators(this.ctx, this.content.lines, font, x, y, text, wordSpacing, rtl, this.content.text);
  }

  /** A filled rectangle in the current fill colour (rules, underlines). */
  bar(x: number, y: number, w: number, h: number): void {
    closeText(this.content);
    this.content.lines.push(`${num(x)} ${num(y)} ${num(w)} ${num(h)} re f`);
  }
}

interface FontOs2 {
  'OS/2'?: { yStrikeoutPosition?: number; yStrikeoutSize?: number };
}

/** Underline and strikeout of a piece of text drawn from x with baseline y, `width` long. */
function decorate(out: TextContent, font: FontSpec, r: ResolvedFont, x: number, y: number, width: number): void {
  if ((!font.underline && !font.strikeout) || !(width > 0)) return;
  const f = r.face.font;
  const k = r.sizePx / f.unitsPerEm;
  if (font.underline) {
    const thickness = Math.max((f.underlineThickness || f.unitsPerEm / 14) * k, 0.5);
    out.bar(x, y - f.underlinePosition * k - thickness / 2, width, thickness);
  }
  if (font.strikeout) {
    const os2 = (f as unknown as FontOs2)['OS/2'];
    const pos = os2?.yStrikeoutPosition || f.unitsPerEm * 0.26;
    const thickness = Math.max((os2?.yStrikeoutSize || f.unitsPerEm / 14) * k, 0.5);
    out.bar(x, y - pos * k - thickness / 2, width, thickness);
  }
}

const countSpaces = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 0x20) n++;
  return n;
};

/** Draws the plain lines with the frame's top-left at (ox, oy). */
function plainLines(ctx: PdfContext, out: TextContent, t: PreparedText, ox: number, oy: number): void {
  const r = ctx.glyphs.resolve(t.font);
  const decorated = t.font.underline || t.font.strikeout;
  out.fill(t.color);
  for (const l of t.lines) {
    const x = ox + l.x;
    const baseline = oy + l.y + t.ascent;
    if (l.segments) {
      for (const s of l.segments) {
        out.text(r, x + s.x, baseline, s.text, 0, t.rightToLeft);
        if (decorated) decorate(out, t.font, r, x + s.x, baseline, s.width);
      }
    } else {
      const ws = l.wordSpacing ?? 0;
      out.text(r, x, baseline, l.text, ws, t.rightToLeft);
      if (decorated) decorate(out, t.font, r, x, baseline, l.width + ws * countSpaces(l.text));
    }
    // The HTML exporter's 1 px rule at the bottom of every line, across the frame.
    if (t.underlines) out.bar(ox, oy + l.y + t.lineHeight - 1, t.frame.width, 1);
  }
}

/** A <font color> value ("#rrggbb" or a colour name); undefined when it names no colour. */
function runColor(run: PreparedRun, which: 'color' | 'background' = 'color'): Color | undefined {
  const c = run[which];
  if (c === undefined || !/^(#[0-9a-f]{6}|[a-z]{3,30})$/i.test(c)) return undefined;
  return parseColor(c);
}

function htmlLines(ctx: PdfContext, out: TextContent, t: PreparedText, ox: number, oy: number): void {
  for (const l of t.html ?? []) {
    const ws = l.wordSpacing ?? 0;
    let spacesBefore = 0;
    for (const run of l.runs) {
      const r = ctx.glyphs.resolve(run.font);
      const x = ox + l.x + run.x + ws * spacesBefore;
      const baseline = oy + l.y + run.baseline;
      const bg = run.background !== undefined ? runColor(run, 'background') : undefined;
      if (bg) {
        out.fill(bg);
        out.bar(x, oy + l.y, run.width + ws * countSpaces(run.text), l.height);
      }
      out.fill(runColor(run) ?? t.color);
      const advance = out.text(r, x, baseline, run.text, ws);
      decorate(out, run.font, r, x, baseline, advance);
      spacesBefore += countSpaces(run.text);
    }
  }
}

/** Whether every line (and rule) of an unrotated text lies inside its box: then clipping
 *  cannot change anything and is left out. */
function fitsInBox(t: PreparedText): boolean {
  const inside = (x: number, y: number, w: number, h: number): boolean =>
    x >= 0 && y >= 0 && x + w <= t.width + 1e-6 && y + h <= t.height + 1e-6;
  const f = t.frame;
  if (t.html) {
    return t.html.every((l) =>
      inside(
        f.x + l.x,
        f.y + l.y,
        l.width + (l.wordSpacing ?? 0) * l.runs.reduce((n, r) => n + countSpaces(r.text), 0),
        l.height,
      ),
    );
  }
  if (t.underlines && !t.lines.every((l) => inside(f.x, f.y + l.y, f.width, t.lineHeight))) return false;
  return t.lines.every((l) => {
    const w = l.segments
      ? l.segments.reduce((m, s) => Math.max(m, s.x + s.width), 0)
      : (l.wordSpacing ?? 0) !== 0
        ? l.width + (l.wordSpacing ?? 0) * countSpaces(l.text)
        : l.width;
    return inside(f.x + l.x, f.y + l.y, w, t.lineHeight);
  });
}

/** Draws the text of a text item (its fill and border are drawn by the caller). */
export function drawTextContent(ctx: PdfContext, t: PreparedText): void {
  if (t.lines.length === 0 && !(t.html && t.html.length > 0)) return;
  const doc = ctx.doc;
  const f = t.frame;
  const rotated = t.angle !== 0;
  const clip = t.clip && (rotated || !fitsInBox(t));
  const state = clip || rotated;
  if (state) ctx.save();
  if (clip) doc.rect(t.x, t.y, t.width, t.height).clip();
  let ox = t.x + f.x;
  let oy = t.y + f.y;
  if (rotated) {
    doc.translate(t.x + f.x + f.width / 2, t.y + f.y + f.height / 2);
    doc.rotate(t.angle);
    doc.translate(-f.width / 2, -f.height / 2);
    ox = 0;
    oy = 0;
  }
  const out = new TextContent(ctx);
  if (t.html) htmlLines(ctx, out, t, ox, oy);
  else if (t.textFill.kind !== 'Solid' && paints(t.textFill)) brushLines(ctx, t, ox, oy);
  else plainLines(ctx, out, t, ox, oy);
  if (state) ctx.restore();
}

/** Plain lines in a gradient, hatch or glass brush: the glyphs become the clip (text render mode
 *  7, all lines in one text object, since each ET would intersect the clip with its own glyphs),
 *  and the brush fills the text frame through it. Underlines are not drawn in a brush. */
function brushLines(ctx: PdfContext, t: PreparedText, ox: number, oy: number): void {
  const r = ctx.glyphs.resolve(t.font);
  const body: string[] = [];
  // A text object of its own (begun below), its font set afresh.
  const own: TextState = { open: true, fill: undefined, font: undefined, x: Number.NaN, y: Number.NaN };
  for (const l of t.lines) {
    const baseline = oy + l.y + t.ascent;
    const rtl = t.rightToLeft;
    if (l.segments)
      for (const s of l.segments) lineOperators(ctx, body, r, ox + l.x + s.x, baseline, s.text, 0, rtl, own);
    else lineOperators(ctx, body, r, ox + l.x, baseline, l.text, l.wordSpacing ?? 0, rtl, own);
  }
  if (body.length === 0) return;
  ctx.save();
  addContentLines(ctx.doc, ['7 Tr', 'BT', ...body, 'ET']);
  paintFill(ctx, t.textFill, { x: ox, y: oy, w: t.frame.width, h: t.frame.height });
  ctx.restore();
}
