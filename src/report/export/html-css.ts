// CSS for prepared items: colours, fills, borders, fonts, and escaping for HTML text/attributes.

import type { BorderLineModel, BorderModel, Color, FillModel } from '../frx/model.js';
import { CSS_TEXT_FEATURES, PX_PER_PT, type FontService, type FontSpec } from '../text/index.js';

// px() runs a dozen times per item and a report repeats the same few hundred lengths: the
// texts are kept (bounded; cleared when full), which also shares them between items.
const PX_MEMO_SIZE = 4096;
const pxMemo = new Map<number, string>();

/** Number → CSS length text: at most 2 decimals, no trailing zeros. */
export function px(n: number): string {
  let s = pxMemo.get(n);
  if (s === undefined) {
    const v = Math.round(n * 100) / 100;
    s = `${Object.is(v, -0) ? 0 : v}px`;
    if (pxMemo.size >= PX_MEMO_SIZE) pxMemo.clear();
    pxMemo.set(n, s);
  }
  return s;
}

export function num(n: number): string {
  const v = Math.round(n * 100) / 100;
  return String(Object.is(v, -0) ? 0 : v);
}

export function css(c: Color): string {
  if (c.a === 255) return `#${[c.r, c.g, c.b].map((n) => n.toString(16).padStart(2, '0')).join('')}`;
  return `rgba(${c.r},${c.g},${c.b},${+(c.a / 255).toFixed(3)})`;
}

// Characters HTML does not allow in text (C0/C1 controls other than tab/newline, noncharacters,
// lone surrogates) become U+FFFD.
// eslint-disable-next-line no-control-regex
const BAD_CHARS = new RegExp(
  [
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]/.source,
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.source,
    /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.source,
  ].join('|'),
  'g',
);

// Whether a text may need escaping: any character escapeText/escapeAttr could change (every
// surrogate, paired or not, so the exact rules stay in one place). Most texts need none.
// eslint-disable-next-line no-control-regex
const MAY_NEED_TEXT_ESCAPE =
  /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF\uD800-\uDFFF]/;
// eslint-disable-next-line no-control-regex
const MAY_NEED_ATTR_ESCAPE =
  /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF\uD800-\uDFFF]/;

export function escapeText(s: string): string {
  if (!MAY_NEED_TEXT_ESCAPE.test(s)) return s;
  return s.replace(BAD_CHARS, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(s: string): string {
  if (!MAY_NEED_ATTR_ESCAPE.test(s)) return s;
  return escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A hyperlink target that may be exported: http, https or mailto; undefined otherwise. */
export function safeUrl(target: string): string | undefined {
  const t = target.trim();
  if (t.length === 0 || t.length > 2048) return undefined;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'mailto:') return undefined;
  return u.href;
}

const transparent = (c: Color): boolean => c.a === 0;

/** The CSS `background` of a fill; '' when it paints nothing. */
export function fillCss(f: FillModel): string {
  switch (f.kind) {
    case 'Solid':
      return transparent(f.color) ? '' : `background-color:${css(f.color)}`;
    case 'LinearGradient': {
      if (transparent(f.startColor) && transparent(f.endColor)) return '';
      // FastReport's angle 0 runs left to right (CSS 90deg); the focus is where the end colour
      // peaks (a bell shape: start, end at the focus, start again).
      const angle = (f.angle + 90) % 360;
      const focus = Math.round(f.focus * 100);
      const stops =
        focus >= 100
          ? `${css(f.startColor)},${css(f.endColor)}`
          : focus <= 0
            ? `${css(f.endColor)},${css(f.startColor)}`
            : `${css(f.startColor)} 0%,${css(f.endColor)} ${focus}%,${css(f.startColor)} 100%`;
      return `background-image:linear-gradient(${angle}deg,${stops})`;
    }
    case 'PathGradient':
      return (
        `background-image:radial-gradient(${f.style === 'Elliptic' ? 'ellipse' : 'closest-side'}` +
        `,${css(f.centerColor)},${css(f.edgeColor)})`
      );
    case 'Glass': {
      if (transparent(f.color)) return '';
      const a = +f.blend.toFixed(3);
      return (
        `background:linear-gradient(rgba(255,255,255,${a}) 0%,rgba(255,255,255,${a}) 50%,rgba(255,255,255,0) ` +
        `50%),${css(f.color)}`
      );
    }
    case 'Hatch':
      return (
        `background:repeating-linear-gradient(45deg,${css(f.foreColor)} 0px,${css(f.foreColor)} ` +
        `1px,${css(f.backColor)} 1px,${css(f.backColor)} 6px)`
      );
    case 'Texture': {
      const data = f.imageData.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return '';
      // CSS has no mirrored tiling: the Flip modes tile plainly.
      const size =
        f.imageWidth > 0 && f.imageHeight > 0 ? `;background-size:${px(f.imageWidth)} ${px(f.imageHeight)}` : '';
      const place = f.offsetX !== 0 || f.offsetY !== 0 ? `;background-position:${px(f.offsetX)} ${px(f.offsetY)}` : '';
      const repeat = f.wrapMode === 'Clamp' ? ';background-repeat:no-repeat' : '';
      return `background-image:url("data:image/png;base64,${data}")${size}${place}${repeat}`;
    }
  }
}

const LINE_STYLE: Record<string, string> = {
  Solid: 'solid',
  Dash: 'dashed',
  Dot: 'dotted',
  DashDot: 'dashed',
  DashDotDot: 'dotted',
  Double: 'double',
};

function side(l: BorderLineModel): string {
  const w = l.style === 'Double' ? Math.max(l.width * 3, 3) : Math.max(l.width, 0.5);
  return `${px(w)} ${LINE_STYLE[l.style] ?? 'solid'} ${css(l.color)}`;
}

export function hasLines(b: BorderModel): boolean {
  return b.lines.left || b.lines.top || b.lines.right || b.lines.bottom;
}

/**
 * A border as a box of its own: FastReport draws each line centred on the object's edge, so the
 * box extends half a line width outside. Returns the box (relative to the object) and its CSS.
 */
export function borderBox(
  b: BorderModel,
  width: number,
  height: number,
): { x: number; y: number; w: number; h: number; style: string } | undefined {
  if (!hasLines(b)) return undefined;
  const lw = b.lines.left ? b.leftLine.width : 0;
  const tw = b.lines.top ? b.topLine.width : 0;
  const rw = b.lines.right ? b.rightLine.width : 0;
  const bw = b.lines.bottom ? b.bottomLine.width : 0;
  const parts: string[] = [];
  if (b.lines.left) parts.push(`border-left:${side(b.leftLine)}`);
  if (b.lines.top) parts.push(`border-top:${side(b.topLine)}`);
  if (b.lines.right) parts.push(`border-right:${side(b.rightLine)}`);
  if (b.lines.bottom) parts.push(`border-bottom:${side(b.bottomLine)}`);
  return { x: -lw / 2, y: -tw / 2, w: width + lw / 2 + rw / 2, h: height + tw / 2 + bw / 2, style: parts.join(';') };
}

export function shadowCss(b: BorderModel): string {
  return b.shadow ? `box-shadow:${px(b.shadowWidth)} ${px(b.shadowWidth)} 0 ${css(b.shadowColor)}` : '';
}

/** font-family/size/weight/style/decoration of a FastReport font. */
export function fontCss(f: FontSpec, fonts: FontService, family = fonts.cssFamily(f.family)): string {
  const parts = [`font-family:${family}`, `font-size:${px(f.sizePt * PX_PER_PT)}`];
  if (f.bold) parts.push('font-weight:700');
  if (f.italic) parts.push('font-style:italic');
  const deco = [f.underline ? 'underline' : '', f.strikeout ? 'line-through' : ''].filter(Boolean).join(' ');
  if (deco) parts.push(`text-decoration:${deco}`);
  return parts.join(';');
}

/**
 * Where a browser puts the baseline in a line box `lineHeight` px tall for this font (half the
 * leading above the font's ascent), and where FastReport (GDI+) puts it: its ascent from the top.
 * The difference shifts each line so the glyphs land where they were measured.
 */
export function baselineShift(f: FontSpec, fonts: FontService, lineHeight: number): number {
  const r = fonts.resolve(f);
  const h = r.face.hhea;
  const upm = r.face.unitsPerEm;
  const asc = (h.ascent / upm) * r.sizePx;
  const desc = (Math.abs(h.descent) / upm) * r.sizePx;
  const cssBaseline = (lineHeight - (asc + desc)) / 2 + asc;
  return r.ascentPx - cssBaseline;
}

export const TEXT_FEATURES = CSS_TEXT_FEATURES;
