// Inline SVG for the items HTML has no element for: lines (with caps and dashes), shapes
// (rectangle, round rectangle, ellipse, triangle, diamond) and check box symbols.

import type { CapModel, FillModel, LineStyle } from '../frx/model.js';
import {
  barcodeTransform,
  type PreparedBarcode,
  type PreparedCheckBox,
  type PreparedLine,
  type PreparedPath,
  type PreparedShape,
} from '../engine/prepared.js';
import { css, escapeAttr, num, px } from './html-css.js';
import { dashArray, MIN_LINE_WIDTH } from './line-style.js';

function dashes(style: LineStyle, pattern: readonly number[], width: number): string {
  const p = dashArray(style, pattern, width);
  return p ? ` stroke-dasharray="${p.map(num).join(' ')}"` : '';
}

/** A cap shape at (x, y) pointing along the unit vector (dx, dy). */
function cap(c: CapModel, x: number, y: number, dx: number, dy: number, color: string, width: number): string {
  const w = (Math.max(c.width, 1) * Math.max(width, 1)) / 2;
  const h = (Math.max(c.height, 1) * Math.max(width, 1)) / 2;
  const nx = -dy;
  const ny = dx;
  const pts = (list: [number, number][]): string => list.map(([a, b]) => `${num(a)},${num(b)}`).join(' ');
  switch (c.style) {
    case 'Arrow':
      return `<polygon points="${pts([
        [x, y],
        [x - dx * h + (nx * w) / 2, y - dy * h + (ny * w) / 2],
        [x - dx * h - (nx * w) / 2, y - dy * h - (ny * w) / 2],
      ])}" fill="${color}"/>`;
    case 'Circle':
      return `<circle cx="${num(x)}" cy="${num(y)}" r="${num(w / 2)}" fill="${color}"/>`;
    case 'Square':
      return `<polygon points="${pts([
        [x + ((dx + nx) * w) / 2, y + ((dy + ny) * w) / 2],
        [x + ((dx - nx) * w) / 2, y + ((dy - ny) * w) / 2],
        [x - ((dx + nx) * w) / 2, y - ((dy + ny) * w) / 2],
        [x - ((dx - nx) * w) / 2, y - ((dy - ny) * w) / 2],
      ])}" fill="${color}"/>`;
    case 'Diamond':
      return `<polygon points="${pts([
        [x + (dx * h) / 2, y + (dy * h) / 2],
        [x + (nx * w) / 2, y + (ny * w) / 2],
        [x - (dx * h) / 2, y - (dy * h) / 2],
        [x - (nx * w) / 2, y - (ny * w) / 2],
      ])}" fill="${color}"/>`;
    default:
      return '';
  }
}

function capExtent(c: CapModel, width: number): number {
  return c.style === 'None' ? 0 : (Math.max(c.width, c.height, 1) * Math.max(width, 1)) / 2;
}

function svgOpen(x: number, y: number, w: number, h: number, extra = ''): string {
  const W = Math.max(w, 0.01);
  const H = Math.max(h, 0.01);
  return (
    `<svg class="i" style="left:${px(x)};top:${px(y)}${extra}" width="${num(W)}" height="${num(H)}" viewBox="0 ` +
    `0 ${num(W)} ${num(H)}">`
  );
}

export function lineSvg(l: PreparedLine): string {
  const m = l.lineWidth / 2 + Math.max(capExtent(l.startCap, l.lineWidth), capExtent(l.endCap, l.lineWidth)) + 1;
  const minX = Math.min(l.x1, l.x2) - m;
  const minY = Math.min(l.y1, l.y2) - m;
  const w = Math.abs(l.x2 - l.x1) + 2 * m;
  const h = Math.abs(l.y2 - l.y1) + 2 * m;
  const x1 = l.x1 - minX;
  const y1 = l.y1 - minY;
  const x2 = l.x2 - minX;
  const y2 = l.y2 - minY;
  const color = css(l.color);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const dx = (x2 - x1) / len;
  const dy = (y2 - y1) / len;
  return (
    `${svgOpen(minX, minY, w, h)}<line x1="${num(x1)}" y1="${num(y1)}" x2="${num(x2)}" y2="${num(y2)}" ` +
    `stroke="${color}" ` +
    `stroke-width="${num(Math.max(l.lineWidth, MIN_LINE_WIDTH))}` +
    `"${dashes(l.style, l.dashPattern, l.lineWidth)}/>` +
    `${cap(l.startCap, x1, y1, -dx, -dy, color, l.lineWidth)}${cap(l.endCap, x2, y2, dx, dy, color, l.lineWidth)}</svg>`
  );
}

function fillColor(f: FillModel): string {
  switch (f.kind) {
    case 'Solid':
      return f.color.a === 0 ? 'none' : css(f.color);
    case 'LinearGradient':
      return css(f.startColor);
    case 'PathGradient':
      return css(f.centerColor);
    case 'Hatch':
      return css(f.backColor);
    case 'Glass':
      return css(f.color);
    default:
      return 'none';
  }
}

export function shapeSvg(s: PreparedShape): string {
  const m = s.lineWidth / 2 + 1;
  const w = Math.abs(s.width);
  const h = Math.abs(s.height);
  const stroke =
    ` fill="${fillColor(s.fill)}" stroke="${css(s.color)}" ` +
    `stroke-width="${num(Math.max(s.lineWidth, MIN_LINE_WIDTH))}"${dashes(s.style, s.dashPattern, s.lineWidth)}`;
  const x0 = m;
  const y0 = m;
  let shape: string;
  switch (s.shape) {
    case 'RoundRectangle': {
      const r = s.curve > 0 ? s.curve : Math.min(w, h) / 4;
      shape = `<rect x="${num(x0)}" y="${num(y0)}" width="${num(w)}" height="${num(h)}" rx="${num(r)}"${stroke}/>`;
      break;
    }
    case 'Ellipse':
      shape =
        `<ellipse cx="${num(x0 + w / 2)}" cy="${num(y0 + h / 2)}" rx="${num(w / 2)}" ` +
        `ry="${num(h / 2)}"${stroke}/>`;
      break;
    case 'Triangle':
      shape =
        `<polygon ` +
        `points="${num(x0 + w / 2)},${num(y0)} ${num(x0 + w)},${num(y0 + h)} ${num(x0)},${num(y0 + h)}` +
        `"${stroke}/>`;
      break;
    case 'Diamond':
      shape =
        `<polygon ` +
        `points="${num(x0 + w / 2)},${num(y0)} ${num(x0 + w)},${num(y0 + h / 2)} ${num(x0 + w / 2)}` +
        `,${num(y0 + h)} ${num(x0)},${num(y0 + h / 2)}"${stroke}/>`;
      break;
    default:
      shape = `<rect x="${num(x0)}" y="${num(y0)}" width="${num(w)}" height="${num(h)}"${stroke}/>`;
  }
  const open = svgOpen(Math.min(s.x, s.x + s.width) - m, Math.min(s.y, s.y + s.height) - m, w + 2 * m, h + 2 * m);
  return `${open}${shape}</svg>`;
}

/** The check symbol drawn inside a check box (coordinates relative to the box). */
export function checkSymbolSvg(c: PreparedCheckBox): string {
  const w = c.width;
  const h = c.height;
  const color = css(c.checkColor);
  const sw = num(Math.max(1, (Math.min(w, h) / 9) * (c.checkWidthRatio || 1)));
  const line = (pts: [number, number][]): string =>
    `<polyline points="${pts.map(([a, b]) => `${num(a * w)},${num(b * h)}`).join(' ')}" fill="none" ` +
    `stroke="${color}" stroke-width="${sw}" stroke-linecap="round" stroke-linejoin="round"/>`;
  const symbol = c.checked ? c.checkedSymbol : c.uncheckedSymbol;
  let body = '';
  switch (symbol) {
    case 'Check':
      body = line([
        [0.2, 0.5],
        [0.42, 0.72],
        [0.8, 0.28],
      ]);
      break;
    case 'Cross':
      body =
        line([
          [0.25, 0.25],
          [0.75, 0.75],
        ]) +
        line([
          [0.75, 0.25],
          [0.25, 0.75],
        ]);
      break;
    case 'Plus':
      body =
        line([
          [0.5, 0.2],
          [0.5, 0.8],
        ]) +
        line([
          [0.2, 0.5],
          [0.8, 0.5],
        ]);
      break;
    case 'Minus':
      body = line([
        [0.2, 0.5],
        [0.8, 0.5],
      ]);
      break;
    case 'Fill':
      body =
        `<rect x="${num(w * 0.25)}" y="${num(h * 0.25)}" width="${num(w * 0.5)}" height="${num(h * 0.5)}" ` +
        `fill="${color}"/>`;
      break;
    default:
      return '';
  }
  return (
    `<svg class="s" width="${num(Math.max(w, 0.01))}" height="${num(Math.max(h, 0.01))}" viewBox="0 ` +
    `0 ${num(Math.max(w, 0.01))} ${num(Math.max(h, 0.01))}">${body}</svg>`
  );
}

/** A polygon or polyline: an SVG with room for its whole path (which may leave the box) and
 *  the line's half width. The path data is the engine's (numbers and path letters only). */
export function pathSvg(p: PreparedPath): string {
  if (p.d === '') return '';
  const nums = (p.d.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number);
  const xs = nums.filter((_, i) => i % 2 === 0);
  const ys = nums.filter((_, i) => i % 2 === 1);
  const m = p.lineWidth / 2 + 1;
  const minX = Math.min(0, ...xs) - m;
  const minY = Math.min(0, ...ys) - m;
  const w = Math.max(p.width, ...xs) + m - minX;
  const h = Math.max(p.height, ...ys) + m - minY;
  const fill = p.closed ? fillColor(p.fill) : 'none';
  const stroke =
    p.color.a === 0
      ? ' stroke="none"'
      : ` stroke="${css(p.color)}" stroke-width="${num(Math.max(p.lineWidth, MIN_LINE_WIDTH))}"` +
        dashes(p.style, p.dashPattern, p.lineWidth) +
        (p.round ? ' stroke-linecap="round" stroke-linejoin="round"' : '');
  return (
    `${svgOpen(p.x + minX, p.y + minY, w, h)}<path transform="translate(${num(-minX)} ${num(-minY)})" ` +
    `d="${escapeAttr(p.d)}" fill="${fill}"${stroke}/></svg>`
  );
}

/** A barcode's bars and modules inside its item's element: the paths turned into its box. The
 *  path data is the engine's (numbers and path letters only). */
export function barcodeSvg(b: PreparedBarcode): string {
  if (b.paths.length === 0) return '';
  const [a, c, d, e, f, g] = barcodeTransform(b);
  const m = [a, c, d, e, f - b.x, g - b.y].map(num).join(' ');
  const paths = b.paths
    .map((p) => `<path d="${escapeAttr(p.d)}" fill="${p.white ? '#ffffff' : css(b.color)}"/>`)
    .join('');
  return (
    `<svg class="s" width="${num(Math.max(b.width, 0.01))}" ` +
    `height="${num(Math.max(b.height, 0.01))}" aria-hidden="true"><g transform="matrix(${m})">${paths}</g></svg>`
  );
}
