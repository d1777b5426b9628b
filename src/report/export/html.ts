// Prepared pages → one self-contained HTML5 document: inline CSS, pictures as data URIs, no
// script. One element per page (`data-page="N"`), every item absolutely positioned in px. Text is
// drawn line by line as the engine broke it (`white-space:pre`), with the font stacks and
// kerning/ligature settings of the text module, so what was measured is what the browser draws.

import type {
  PreparedBox,
  PreparedCheckBox,
  PreparedHyperlink,
  PreparedItem,
  PreparedPage,
  PreparedPicture,
  PreparedReport,
  PreparedRun,
  PreparedText,
} from '../engine/prepared.js';
import type { FontModel } from '../frx/model.js';
import { defaultFontService, type FontFace, type FontService } from '../text/index.js';
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
  TEXT_FEATURES,
} from './html-css.js';
import { checkSymbolSvg, lineSvg, shapeSvg } from './html-svg.js';

export interface HtmlExportOptions {
  /** The document title (default "Report"). */
  title?: string;
  /** The document language (default "en"). */
  lang?: string;
  /** Embed the font files used as data URIs (exact metrics everywhere; larger output). */
  embedFonts?: boolean;
  fonts?: FontService;
}

const STYLE = [
  'html{background:#e8e8e8}',
  'body{margin:0;padding:12px 0}',
  '.p{position:relative;overflow:hidden;margin:0 auto 12px;box-shadow:0 1px 4px rgba(0,0,0,.35)}',
  '.i{position:absolute;display:block;box-sizing:border-box;margin:0;padding:0}',
  '.f{position:absolute;overflow:visible}',
  `.l{position:absolute;white-space:pre;${TEXT_FEATURES}}`,
  `.r{position:absolute;white-space:pre;${TEXT_FEATURES}}`,
  '.c{position:absolute;left:0;top:0;width:100%;height:100%;box-sizing:border-box}',
  '.b{position:absolute;box-sizing:border-box;pointer-events:none}',
  '.s{position:absolute;left:0;top:0}',
  'a.i{color:inherit;text-decoration:none}',
  '@media print{html{background:none}body{padding:0}.p{margin:0;box-shadow:none;break-after:page}}',
].join('\n');

const SAFE_IMAGE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/webp', 'image/svg+xml']);

class Writer {
  private readonly parts: string[] = [];
  readonly usedFonts = new Set<string>();
  constructor(readonly fonts: FontService) {}
  push(s: string): void {
    this.parts.push(s);
  }
  text(): string {
    return this.parts.join('');
  }
}

const box = (x: number, y: number, w: number, h: number): string => `left:${px(x)};top:${px(y)};width:${px(w)};height:${px(h)}`;

/** Opens the item's positioned element: a link when it has a safe URL. */
function open(it: PreparedItem, style: string): { start: string; end: string } {
  const href = linkOf(it.hyperlink);
  if (href) {
    const target = it.hyperlink?.newTab ? ' target="_blank" rel="noopener noreferrer"' : '';
    return { start: `<a class="i" href="${escapeAttr(href)}"${target} style="${escapeAttr(style)}">`, end: '</a>' };
  }
  return { start: `<div class="i" style="${escapeAttr(style)}">`, end: '</div>' };
}

function linkOf(h: PreparedHyperlink | undefined): string | undefined {
  return h && h.kind === 'url' ? safeUrl(h.target) : undefined;
}

/** Background and border of an item: returns the container style and the border element. */
function decoration(it: PreparedItem & { fill: PreparedBox['fill']; border: PreparedBox['border'] }): { bg: string; border: string } {
  const bg = [fillCss(it.fill), shadowCss(it.border)].filter(Boolean).join(';');
  const b = borderBox(it.border, it.width, it.height);
  return { bg, border: b ? `<div class="b" style="${escapeAttr(box(b.x, b.y, b.w, b.h))};${b.style}"></div>` : '' };
}

function writeBox(w: Writer, it: PreparedBox): void {
  const d = decoration(it);
  let bg = d.bg;
  if (it.unsupported && bg === '' && d.border === '') bg = 'outline:1px dotted #b0b0b0;outline-offset:-1px';
  if (bg === '' && d.border === '' && !it.hyperlink) return;
  const o = open(it, [box(it.x, it.y, it.width, it.height), bg].filter(Boolean).join(';'));
  w.push(`${o.start}${d.border}${o.end}`);
}

function fontKey(w: Writer, f: FontModel): void {
  w.usedFonts.add(`${f.family}|${f.bold ? 1 : 0}|${f.italic ? 1 : 0}`);
}

function spacesBefore(runs: readonly PreparedRun[], index: number): number {
  let n = 0;
  for (let i = 0; i < index; i++) for (const ch of (runs[i] as PreparedRun).text) if (ch === ' ') n++;
  return n;
}

const CSS_COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,30})$/i;

function writeTextLines(w: Writer, t: PreparedText): string {
  const out: string[] = [];
  if (t.html) {
    for (const l of t.html) {
      l.runs.forEach((r, i) => {
        fontKey(w, r.font);
        const rf = w.fonts.resolve(r.font);
        const lh = rf.lineHeightPx;
        const top = l.y + r.baseline - (rf.ascentPx - baselineShift(r.font, w.fonts, lh));
        const x = l.x + r.x + (l.wordSpacing ?? 0) * spacesBefore(l.runs, i);
        const style = [`left:${px(x)}`, `top:${px(top)}`, `line-height:${px(lh)}`, fontCss(r.font, w.fonts)];
        if (r.color && CSS_COLOR.test(r.color)) style.push(`color:${r.color}`);
        if (l.wordSpacing) style.push(`word-spacing:${px(l.wordSpacing)}`);
        out.push(`<span class="r" style="${escapeAttr(style.join(';'))}">${escapeText(r.text)}</span>`);
      });
    }
    return out.join('');
  }
  const shift = baselineShift(t.font, w.fonts, t.lineHeight);
  for (const l of t.lines) {
    const style = [`left:${px(l.x)}`, `top:${px(l.y + shift)}`];
    if (l.wordSpacing) style.push(`word-spacing:${px(l.wordSpacing)}`);
    if (l.segments) {
      const segs = l.segments.map((s) => `<span class="r" style="left:${px(s.x)}">${escapeText(s.text)}</span>`).join('');
      out.push(`<div class="l" style="${escapeAttr(style.join(';'))}">${segs}</div>`);
    } else out.push(`<div class="l" style="${escapeAttr(style.join(';'))}">${escapeText(l.text)}</div>`);
    if (t.underlines) out.push(`<div class="l" style="left:0;top:${px(l.y + t.lineHeight - 1)};width:${px(t.frame.width)};border-bottom:1px solid ${css(t.color)}"></div>`);
  }
  return out.join('');
}

function writeText(w: Writer, t: PreparedText): void {
  fontKey(w, t.font);
  const d = decoration(t);
  const frameStyle = [box(t.frame.x, t.frame.y, t.frame.width, t.frame.height), fontCss(t.font, w.fonts), `line-height:${px(t.lineHeight)}`, `color:${css(t.color)}`];
  if (t.angle !== 0) frameStyle.push(`transform:rotate(${t.angle}deg)`);
  const frame = `<div class="f" style="${escapeAttr(frameStyle.join(';'))}">${writeTextLines(w, t)}</div>`;
  const clip = t.clip ? 'overflow:hidden' : '';
  if (d.border === '') {
    const o = open(t, [box(t.x, t.y, t.width, t.height), d.bg, clip].filter(Boolean).join(';'));
    w.push(`${o.start}${frame}${o.end}`);
    return;
  }
  const o = open(t, box(t.x, t.y, t.width, t.height));
  const inner = [d.bg, clip].filter(Boolean).join(';');
  w.push(`${o.start}<div class="c"${inner ? ` style="${escapeAttr(inner)}"` : ''}>${frame}</div>${d.border}${o.end}`);
}

const FIT: Record<string, string> = { Zoom: 'contain', StretchImage: 'fill', AutoSize: 'fill', Normal: 'none', CenterImage: 'none' };

function writePicture(w: Writer, p: PreparedPicture): void {
  const d = decoration(p);
  const o = open(p, [box(p.x, p.y, p.width, p.height), d.bg].filter(Boolean).join(';'));
  let img = '';
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
    img = `<img alt="" src="data:${p.mime};base64,${Buffer.from(p.bytes).toString('base64')}" style="${escapeAttr(style.join(';'))}">`;
  }
  w.push(`${o.start}${img}${d.border}${o.end}`);
}

function writeCheckBox(w: Writer, c: PreparedCheckBox): void {
  const d = decoration(c);
  const o = open(c, [box(c.x, c.y, c.width, c.height), d.bg].filter(Boolean).join(';'));
  w.push(`${o.start}${checkSymbolSvg(c)}${d.border}${o.end}`);
}

function writeItem(w: Writer, it: PreparedItem): void {
  switch (it.kind) {
    case 'box': writeBox(w, it); break;
    case 'text': writeText(w, it); break;
    case 'picture': writePicture(w, it); break;
    case 'checkbox': writeCheckBox(w, it); break;
    case 'line': w.push(lineSvg(it)); break;
    case 'shape': w.push(shapeSvg(it)); break;
  }
}

function writePage(w: Writer, page: PreparedPage): void {
  const style = [`width:${px(page.widthPx)}`, `height:${px(page.heightPx)}`, fillCss(page.fill) || 'background-color:#ffffff'];
  w.push(`<div class="p" data-page="${page.index}" style="${escapeAttr(style.join(';'))}">\n`);
  if (hasLines(page.border)) {
    const m = page.margins;
    const b = borderBox(page.border, page.widthPx - m.left - m.right, page.heightPx - m.top - m.bottom);
    if (b) w.push(`<div class="b" style="${escapeAttr(box(m.left + b.x, m.top + b.y, b.w, b.h))};${b.style}"></div>`);
  }
  for (const it of page.items) {
    writeItem(w, it);
    w.push('\n');
  }
  w.push('</div>\n');
}

function fontFaces(w: Writer): string {
  const faces = new Map<string, FontFace>();
  for (const key of w.usedFonts) {
    const [family, bold, italic] = key.split('|');
    const face = w.fonts.face(family ?? 'Arial', bold === '1', italic === '1');
    faces.set(face.name, face);
  }
  return [...faces.values()]
    .map((f) => f.cssFontFaceRule(`data:font/${f.format === 'woff' ? 'woff' : 'ttf'};base64,${f.buffer().toString('base64')}`))
    .join('\n');
}

/** The whole report as one HTML5 document. */
export function exportHtml(report: PreparedReport, options: HtmlExportOptions = {}): string {
  const w = new Writer(options.fonts ?? defaultFontService());
  for (const page of report.pages) writePage(w, page);
  const body = w.text();
  const first = report.pages[0];
  const pageRule = first ? `@page{size:${px(first.widthPx)} ${px(first.heightPx)};margin:0}` : '';
  const faces = options.embedFonts ? fontFaces(w) : '';
  const title = options.title && options.title.trim() !== '' ? options.title : 'Report';
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeAttr(options.lang ?? 'en')}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)}</title>`,
    `<style>\n${STYLE}\n${pageRule}${faces ? `\n${faces}` : ''}\n</style>`,
    '</head>',
    '<body>',
    body + '</body>',
    '</html>',
    '',
  ].join('\n');
}
