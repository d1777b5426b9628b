// Prepared items → HTML elements. Each item is written as pieces, joined into one string when
// the item is done (HtmlWriter.commit); the document is joined once at the end, or once per page
// when it is streamed (html.ts). The CSS of the shared template objects (fonts, fills, borders,
// colours) is computed, escaped and kept once per object for the whole export.

import type {
  PreparedBarcode,
  PreparedBox,
  PreparedCheckBox,
  PreparedHtmlLine,
  PreparedHyperlink,
  PreparedItem,
  PreparedPage,
  PreparedPicture,
  PreparedRun,
  PreparedText,
} from '../engine/prepared.js';
import type { BorderModel, Color, FillModel } from '../frx/model.js';
import { needsShaping, type FontService, type FontSpec } from '../text/index.js';
import {
  baselineShift,
  borderBox,
  css,
  escapeAttr,
  escapeText,
  fillCss,
  fontCss,
  hasLines,
  px,
  safeUrl,
  shadowCss,
} from './html-css.js';
import { barcodeSvg, checkSymbolSvg, lineSvg, pathSvg, shapeSvg } from './html-svg.js';
import type { DocumentFaces } from './html-fonts.js';
import { TextClasses } from './html-classes.js';
import type { DocumentLinks } from './links.js';

/** A map that forgets everything when it gets too big (HtmlTags runs bring a font object each). */
class Memo<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K, make: (key: K) => V): V {
    let v = this.map.get(key);
    if (v === undefined) {
      v = make(key);
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, v);
    }
    return v;
  }
}

const MEMO_SIZE = 1024;

/** Where the items' HTML goes, with the per-export caches. */
export class HtmlWriter {
  /** The output so far, one string per item (see commit). */
  parts: string[] = [];
  /** Pieces of the item being written. */
  private readonly pending: string[] = [];
  /** The faces and characters of the whole document, when it brings its fonts (the font-family
   *  lists then name them first; see html-fonts.ts). */
  faces: DocumentFaces | undefined;
  private readonly fontStyles = new Memo<FontSpec, { css: string; attr: string }>(MEMO_SIZE);
  private readonly shifts = new Memo<FontSpec, { lineHeight: number; shift: number }[]>(MEMO_SIZE);
  private readonly fills = new Memo<FillModel, string>(MEMO_SIZE);
  private readonly shadows = new Memo<BorderModel, string>(MEMO_SIZE);
  private readonly colors = new Memo<Color, string>(MEMO_SIZE);
  /** textClass by the frame's own font and colour objects (a template's text shares them). */
  private readonly frameClasses = new Memo<FontSpec, { lineHeight: number; color: Color; cls: string | undefined }[]>(
    MEMO_SIZE,
  );

  /** The document's internal links (bookmarks, page numbers), when it has any. */
  links: DocumentLinks | undefined;
  /** Classes for the text frames' styles (declared from all pages before the head is written). */
  readonly textClasses = new TextClasses();

  constructor(readonly fonts: FontService) {}

  push(s: string): void {
    this.pending.push(s);
  }

  /** Joins the pieces written since the last commit into one string of the output. An item is
   *  a dozen small strings; kept apart until the document is joined they take about twice the
   *  memory of the text they hold, joined they take one byte per character unless the item
   *  has characters beyond Latin-1 (a string with one such character takes two per character,
   *  which is why the unit is an item, not a page: joining a page's pieces at once was also
   *  twice as slow, and a two-byte page is slower to encode as UTF-8). */
  commit(): void {
    if (this.pending.length === 0) return;
    this.parts.push(this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join(''));
    this.pending.length = 0;
  }

  /** fontCss, as it is and attribute-escaped. */
  private fontCss(f: FontSpec): { css: string; attr: string } {
    return this.fontStyles.get(f, (k) => {
      const family = this.faces?.familyList(this.fonts.resolve(k).face, this.fonts.cssFamily(k.family));
      const css = fontCss(k, this.fonts, family);
      return { css, attr: escapeAttr(css) };
    });
  }

  /** fontCss, attribute-escaped. */
  fontStyle(f: FontSpec): string {
    return this.fontCss(f).attr;
  }

  /** The class carrying a text frame's font, line height and colour (undefined: write them
   *  inline). */
  textClass(t: PreparedText): string | undefined {
    const list = this.frameClasses.get(t.font, () => []);
    for (const s of list) if (s.color === t.color && Object.is(s.lineHeight, t.lineHeight)) return s.cls;
    // Remembered as well when there is no class: the class table only ever grows until it is
    // full, and then it is full for good, so the answer cannot change.
    const cls = this.textClasses.classFor(this.fontCss(t.font).css, t.lineHeight, this.color(t.color));
    if (list.length >= 8) list.shift();
    list.push({ lineHeight: t.lineHeight, color: t.color, cls });
    return cls;
  }

  baselineShift(f: FontSpec, lineHeight: number): number {
    const list = this.shifts.get(f, () => []);
    let hit = list.find((s) => Object.is(s.lineHeight, lineHeight));
    if (!hit) {
      hit = { lineHeight, shift: baselineShift(f, this.fonts, lineHeight) };
      if (list.length >= 8) list.shift();
      list.push(hit);
    }
    return hit.shift;
  }

  /** Background and shadow of an item, attribute-escaped ('' when none). */
  background(fill: FillModel, border: BorderModel): string {
    const f = this.fills.get(fill, (k) => escapeAttr(fillCss(k)));
    const s = this.shadows.get(border, (k) => escapeAttr(shadowCss(k)));
    return f && s ? `${f};${s}` : f || s;
  }

  color(c: Color): string {
    return this.colors.get(c, css);
  }
}

// Style values made here from numbers (lengths, colours, angles) are digits, letters and
// punctuation that need no escaping; everything that comes from the template or the data (font
// families, fills, URLs, text) is escaped where it is written or cached.
// A box narrower than its padding (a matrix's empty AutoSize column is 0 px wide) has no room
// left: CSS refuses negative sizes.
const box = (x: number, y: number, w: number, h: number): string =>
  `left:${px(x)};top:${px(y)};width:${px(Math.max(0, w))};height:${px(Math.max(0, h))}`;

/** The non-empty declarations joined with ';' (no array: this runs for every item). */
const joinStyle = (a: string, b: string, c = ''): string => {
  const ab = a && b ? `${a};${b}` : a || b;
  return ab && c ? `${ab};${c}` : ab || c;
};

/** Writes the start of the item's positioned element (a link when it has a safe URL) with an
 *  already escaped style; returns the end tag. */
function open(w: HtmlWriter, it: PreparedItem, style: string): string {
  const internal = w.links?.target(it.hyperlink);
  if (internal) {
    // A bookmark or page of this document: the anchor writePage puts there.
    w.push(`<a class="i" href="#${internal.key}" style="${style}">`);
    return '</a>';
  }
  const href = linkOf(it.hyperlink);
  if (href) {
    const target = it.hyperlink?.newTab ? ' target="_blank" rel="noopener noreferrer"' : '';
    w.push(`<a class="i" href="${escapeAttr(href)}"${target} style="${style}">`);
    return '</a>';
  }
  w.push(`<div class="i" style="${style}">`);
  return '</div>';
}

function linkOf(h: PreparedHyperlink | undefined): string | undefined {
  return h && h.kind === 'url' ? safeUrl(h.target) : undefined;
}

/** The border element of an item ('' when it has no border lines). */
function borderElement(it: PreparedItem & { border: BorderModel }): string {
  const b = borderBox(it.border, it.width, it.height);
  return b ? `<div class="b" style="${box(b.x, b.y, b.w, b.h)};${b.style}"></div>` : '';
}

function writeBox(w: HtmlWriter, it: PreparedBox): void {
  let bg = w.background(it.fill, it.border);
  const border = borderElement(it);
  if (it.unsupported && bg === '' && border === '') bg = 'outline:1px dotted #b0b0b0;outline-offset:-1px';
  if (bg === '' && border === '' && !it.hyperlink) return;
  const end = open(w, it, joinStyle(box(it.x, it.y, it.width, it.height), bg));
  w.push(border);
  w.push(end);
}

function spacesBefore(runs: readonly PreparedRun[], index: number): number {
  let n = 0;
  for (let i = 0; i < index; i++) for (const ch of (runs[i] as PreparedRun).text) if (ch === ' ') n++;
  return n;
}

const CSS_COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,30})$/i;

function writeHtmlRuns(w: HtmlWriter, lines: readonly PreparedHtmlLine[]): void {
  for (const l of lines) {
    l.runs.forEach((r, i) => {
      const rf = w.fonts.resolve(r.font);
      const lh = rf.lineHeightPx;
      const top = l.y + r.baseline - (rf.ascentPx - baselineShift(r.font, w.fonts, lh));
      const x = l.x + r.x + (l.wordSpacing ?? 0) * spacesBefore(l.runs, i);
      const style = [`left:${px(x)}`, `top:${px(top)}`, `line-height:${px(lh)}`, w.fontStyle(r.font)];
      if (r.color && CSS_COLOR.test(r.color)) style.push(`color:${r.color}`);
      if (r.background && CSS_COLOR.test(r.background)) style.push(`background-color:${r.background}`);
      if (l.wordSpacing) style.push(`word-spacing:${px(l.wordSpacing)}`);
      w.push(`<span class="r" style="${style.join(';')}">${escapeText(r.text)}</span>`);
    });
  }
}

/** The CSS background of a gradient or glass text brush ('' for a solid colour, which is the
 *  frame's `color`). Built from numbers and colours only. */
function textBrush(t: PreparedText): string {
  const f = t.textFill;
  return f.kind === 'LinearGradient' || f.kind === 'PathGradient' || f.kind === 'Glass' ? fillCss(f) : '';
}

function writeTextLines(w: HtmlWriter, t: PreparedText): void {
  if (t.html) {
    writeHtmlRuns(w, t.html);
    return;
  }
  const shift = w.baselineShift(t.font, t.lineHeight);
  const brush = textBrush(t);
  for (const l of t.lines) {
    const spacing = l.wordSpacing ? `;word-spacing:${px(l.wordSpacing)}` : '';
    // A brush: each line shows its part of one frame-sized background, clipped to its glyphs.
    const painted = brush
      ? `;${brush};background-size:${px(t.frame.width)} ${px(t.frame.height)};background-position:` +
        `${px(-l.x)} ${px(-(l.y + shift))};-webkit-background-clip:text;background-clip:text;color:transparent`
      : '';
    // Complex text keeps the font's own features (the shaper used them); RightToLeft text runs
    // right to left from its line's start, as the PDF's bidi lays it out.
    const cls = needsShaping(l.text) ? 'l x' : 'l';
    const dir = t.rightToLeft ? ' dir="rtl"' : '';
    w.push(`<div class="${cls}"${dir} style="left:${px(l.x)};top:${px(l.y + shift)}${spacing}${painted}">`);
    if (l.segments)
      for (const s of l.segments) w.push(`<span class="r" style="left:${px(s.x)}">${escapeText(s.text)}</span>`);
    else w.push(escapeText(l.text));
    w.push('</div>');
    if (t.underlines)
      w.push(
        `<div class="l" ` +
          `style="left:0;top:${px(l.y + t.lineHeight - 1)};width:${px(t.frame.width)};border-bottom:1px ` +
          `solid ${w.color(t.color)}"></div>`,
      );
  }
}

function writeFrame(w: HtmlWriter, t: PreparedText): void {
  const f = t.frame;
  const rotate = t.angle !== 0 ? `;transform:rotate(${t.angle}deg)` : '';
  const cls = w.textClass(t);
  w.push(
    cls
      ? `<div class="f ${cls}" style="${box(f.x, f.y, f.width, f.height)}${rotate}">`
      : `<div class="f" ` +
          `style="${box(f.x, f.y, f.width, f.height)};${w.fontStyle(t.font)};line-height:${px(t.lineHeight)};color` +
          `:${w.color(t.color)}${rotate}">`,
  );
  writeTextLines(w, t);
  w.push('</div>');
}

/** A text with nothing to draw (an empty cell): no text frame, no font (a large matrix prints a
 *  million blank cells, each only its fill and border). */
const isBlank = (t: PreparedText): boolean => t.lines.length === 0 && !(t.html && t.html.length > 0);

function writeText(w: HtmlWriter, t: PreparedText): void {
  const blank = isBlank(t);
  const bg = w.background(t.fill, t.border);
  const border = borderElement(t);
  const clip = t.clip && !blank ? 'overflow:hidden' : '';
  if (border === '') {
    const end = open(w, t, joinStyle(box(t.x, t.y, t.width, t.height), bg, clip));
    if (!blank) writeFrame(w, t);
    w.push(end);
    return;
  }
  const end = open(w, t, box(t.x, t.y, t.width, t.height));
  const inner = joinStyle(bg, clip);
  if (blank) {
    if (inner) w.push(`<div class="c" style="${inner}"></div>`);
  } else {
    w.push(inner ? `<div class="c" style="${inner}">` : '<div class="c">');
    writeFrame(w, t);
    w.push('</div>');
  }
  w.push(border);
  w.push(end);
}

const FIT: Record<string, string> = {
  Zoom: 'contain',
  StretchImage: 'fill',
  AutoSize: 'fill',
  Normal: 'none',
  CenterImage: 'none',
};
const SAFE_IMAGE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/webp', 'image/svg+xml']);

function writePicture(w: HtmlWriter, p: PreparedPicture): void {
  const bg = w.background(p.fill, p.border);
  const border = borderElement(p);
  const end = open(w, p, joinStyle(box(p.x, p.y, p.width, p.height), bg));
  if (p.bytes && SAFE_IMAGE.has(p.mime)) {
    const style = [
      'position:absolute;left:0;top:0;width:100%;height:100%;box-sizing:border-box',
      `padding:${px(p.padding.top)} ${px(p.padding.right)} ${px(p.padding.bottom)} ${px(p.padding.left)}`,
      `object-fit:${FIT[p.sizeMode] ?? 'contain'}`,
      `object-position:${p.sizeMode === 'Normal' ? 'left top' : 'center'}`,
    ];
    if (p.transparency > 0) style.push(`opacity:${+(1 - p.transparency).toFixed(3)}`);
    if (p.grayscale) style.push('filter:grayscale(1)');
    if (p.angle % 360 !== 0) style.push(`transform:rotate(${p.angle % 360}deg)`);
    w.push(
      `<img alt="" src="data:${p.mime};base64,${Buffer.from(p.bytes).toString('base64')}" ` +
        `style="${escapeAttr(style.join(';'))}">`,
    );
  }
  w.push(border);
  w.push(end);
}

/** An item drawn as inline SVG inside its filled and bordered box (check boxes, barcodes). */
function writeBoxedSvg(w: HtmlWriter, it: PreparedCheckBox | PreparedBarcode, svg: string): void {
  const bg = w.background(it.fill, it.border);
  const border = borderElement(it);
  const end = open(w, it, joinStyle(box(it.x, it.y, it.width, it.height), bg));
  w.push(svg);
  w.push(border);
  w.push(end);
}

/** How each kind of prepared item is written: one entry per kind (the type checker asks for
 *  one when the engine gains a kind; the engine's object types are in engine/object-types.ts). */
const ITEM_WRITERS: { [K in PreparedItem['kind']]: (w: HtmlWriter, it: Extract<PreparedItem, { kind: K }>) => void } = {
  box: writeBox,
  text: writeText,
  picture: writePicture,
  checkbox: (w, it) => writeBoxedSvg(w, it, checkSymbolSvg(it)),
  barcode: (w, it) => writeBoxedSvg(w, it, barcodeSvg(it)),
  line: (w, it) => w.push(lineSvg(it)),
  shape: (w, it) => w.push(shapeSvg(it)),
  path: (w, it) => w.push(pathSvg(it)),
};

function writeItem(w: HtmlWriter, it: PreparedItem): void {
  // Sound: the entry is looked up by the item's own kind.
  (ITEM_WRITERS[it.kind] as (w: HtmlWriter, it: PreparedItem) => void)(w, it);
}

/** Gives the text frames of a page their classes, in the order writePage meets them (so a
 *  document written in pieces, head first, numbers them as one written whole). */
export function declareTextClasses(w: HtmlWriter, page: PreparedPage): void {
  for (const it of page.items) if (it.kind === 'text' && !isBlank(it)) w.textClass(it);
}

/** One page: its element (`data-page`, size, background, border) and its items in z-order. */
export function writePage(w: HtmlWriter, page: PreparedPage): void {
  const style = [
    `width:${px(page.widthPx)}`,
    `height:${px(page.heightPx)}`,
    fillCss(page.fill) || 'background-color:#ffffff',
  ];
  w.push(`<div class="p" data-page="${page.index}" style="${escapeAttr(style.join(';'))}">\n`);
  if (hasLines(page.border)) {
    const m = page.margins;
    const b = borderBox(page.border, page.widthPx - m.left - m.right, page.heightPx - m.top - m.bottom);
    if (b) w.push(`<div class="b" style="${box(m.left + b.x, m.top + b.y, b.w, b.h)};${b.style}"></div>`);
  }
  // The places internal links go to: empty anchors at their tops (ids are letters and digits).
  for (const d of w.links?.destinationsOn(page.index) ?? [])
    w.push(`<div id="${d.key}" style="position:absolute;left:0;top:${px(d.y)}"></div>`);
  w.commit();
  for (const it of page.items) {
    writeItem(w, it);
    w.push('\n');
    w.commit();
  }
  w.push('</div>\n');
  w.commit();
}
