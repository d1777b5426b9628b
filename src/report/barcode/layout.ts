// FastReport's geometry for a barcode: its natural size (what AutoSize sizes the object to), and
// the symbol stretched to fill the object's box as FastReport draws it. Coordinates are px in the
// "layout box": the object's box less padding, with width and height swapped for 90° and 270°
// (the bars run along the layout box's width; the exporters turn it into place).

import { totalWidth } from './linear-bars.js';
import { drawModules, moduleRows } from './modules.js';
import { PathBuilder } from '../path-data.js';
import type { LinearSymbol, MatrixSymbol, MaxiCodeSymbol, BarcodeSymbol } from './types.js';

/** FastReport's px per module at Zoom 1 (LinearBarcodeBase.OneBarWidth). */
export const ONE_BAR_WIDTH = 1.25;
/** The text band under a linear code is the font's height × 14/13 modules (14 at Arial 8 pt),
 *  under a 2-D one × 18/13 px (FastReport's FontHeight, "compatible with the old 14 px"). */
const linearBand = (fontHeight: number): number => (fontHeight * 14) / 13;
const matrixBand = (fontHeight: number): number => (fontHeight * 18) / 13;
/** How far EAN/UPC guard bars reach into the text band, in modules. */
const GUARD_DESCENT = 7;
/** MaxiCode's drawing unit and its full symbol's extent in those units (FastReport's). */
const MAXI_SCALE = 2.47;
const MAXI_SIZE = { w: 75, h: 71 };

/** A piece of text to print with the barcode, in layout-box px. The font is the barcode's, sized
 *  so one line fills `height`; `black` for 2-D codes, whose text FastReport draws black. */
export interface BarcodeLabel {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  small: boolean;
  black: boolean;
  top: boolean;
}

export interface BarcodeDrawing {
  /** The layout box: along the bars × across them. */
  width: number;
  height: number;
  /** Filled in the barcode's colour, or white (Data Matrix's light modules, the Swiss cross). */
  paths: { d: string; white: boolean }[];
  labels: BarcodeLabel[];
}

/** The barcode font as the layout needs it: a text's width in px, and the font's height (its
 *  line spacing in whole px, as .NET's Font.Height). The caller measures with the report's fonts. */
export interface BarcodeFont {
  measure(text: string): number;
  height: number;
}

function margins(s: LinearSymbol, showText: boolean, font: BarcodeFont): { left: number; right: number } {
  const quiet = s.quiet ?? 0;
  const bars = totalWidth(s.elements) + 2 * quiet;
  let left = s.extra1 ?? 0;
  let right = s.extra2 ?? 0;
  if (s.extra1 === undefined && s.extra2 === undefined && showText && !s.textUp) {
    // FastReport compares the text's px width with the bars' modules (sic) and widens both sides.
    const text = font.measure(s.text);
    if (text > bars) left = right = (text - bars) / 2 + 2;
  }
  return { left, right };
}

/** The natural size in px at Zoom 1: a linear code's width (its height is the box's), a 2-D
 *  code's width and height. */
export function naturalSize(
  s: BarcodeSymbol,
  showText: boolean,
  font: BarcodeFont,
): { width: number; height?: number } {
  if (s.kind === 'linear') {
    const m = margins(s, showText, font);
    return { width: (m.left + totalWidth(s.elements) + 2 * (s.quiet ?? 0) + m.right) * ONE_BAR_WIDTH };
  }
  const band = showText ? matrixBand(font.height) : 0;
  if (s.kind === 'maxicode') return { width: MAXI_SIZE.w * MAXI_SCALE, height: MAXI_SIZE.h * MAXI_SCALE + band };
  const width = s.columns * s.moduleWidth;
  return s.fixedHeight ? { width } : { width, height: moduleRows(s) * s.moduleHeight + band };
}

export function layoutBarcode(
  s: BarcodeSymbol,
  box: { width: number; height: number },
  showText: boolean,
  font: BarcodeFont,
): BarcodeDrawing {
  if (s.kind === 'linear') return layoutLinear(s, box, showText, font);
  const band = showText ? matrixBand(font.height) : 0;
  if (s.kind === 'maxicode') return layoutMaxiCode(s, box, band);
  return layoutMatrix(s, box, band);
}

function layoutLinear(
  s: LinearSymbol,
  box: { width: number; height: number },
  showText: boolean,
  font: BarcodeFont,
): BarcodeDrawing {
  const m = margins(s, showText, font);
  const quiet = s.quiet ?? 0;
  const barsWidth = totalWidth(s.elements);
  const modules = m.left + 2 * quiet + barsWidth + m.right;
  // FastReport stretches the symbol to the box: the zoom is px per module.
  const zoom = modules > 0 ? box.width / modules : 0;
  const band = showText ? linearBand(font.height) * zoom : 0;
  const barTop = s.textUp ? band : 0;
  const barHeight = Math.max(0, box.height - band);
  const p = new PathBuilder();
  let x = (m.left + quiet) * zoom;
  for (const el of s.elements) {
    const w = el.w * zoom;
    if (el.bar) {
      const top = barTop + (el.top ?? 0) * barHeight;
      let bottom = barTop + (el.bottom ?? 1) * barHeight;
      if (el.long && showText) bottom += GUARD_DESCENT * zoom;
      p.rect(x, top, w, Math.min(bottom, box.height) - top);
    }
    x += w;
  }
  if (s.bearer) {
    // ITF-14's bearer bars frame the bars and their quiet zones.
    const b = s.bearer.width * zoom;
    const left = m.left * zoom;
    const right = (m.left + 2 * quiet + barsWidth) * zoom;
    p.rect(left, barTop, right - left, b);
    p.rect(left, barTop + barHeight - b, right - left, b);
    if (s.bearer.vertical) {
      p.rect(left, barTop + b, b, barHeight - 2 * b);
      p.rect(right - b, barTop + b, b, barHeight - 2 * b);
    }
  }
  const labels: BarcodeLabel[] = [];
  if (showText) {
    const y = s.textUp ? 0 : box.height - band;
    const origin = (m.left + quiet) * zoom;
    const groups = s.groups ?? [{ text: s.text, x1: -m.left - quiet, x2: barsWidth + quiet + m.right }];
    for (const g of groups) {
      labels.push({
        text: g.text,
        x: origin + g.x1 * zoom,
        y,
        width: (g.x2 - g.x1) * zoom,
        height: band,
        small: g.small ?? false,
        black: false,
        top: s.textUp ?? false,
      });
    }
  }
  return { width: box.width, height: box.height, paths: p.empty ? [] : [{ d: p.toString(), white: false }], labels };
}

function matrixLabel(text: string, box: { width: number; height: number }, band: number): BarcodeLabel {
  return { text, x: 0, y: box.height - band, width: box.width, height: band, small: false, black: true, top: false };
}

function layoutMatrix(s: MatrixSymbol, box: { width: number; height: number }, textBand: number): BarcodeDrawing {
  const natural = { w: s.columns * s.moduleWidth, h: moduleRows(s) * s.moduleHeight };
  // Stretched to the box, each way on its own (modules may come out oblong, as in FastReport).
  const kx = natural.w > 0 ? box.width / natural.w : 0;
  const band = s.fixedHeight ? textBand * kx : 0;
  const symbolHeight = s.fixedHeight ? Math.max(0, box.height - band) : box.height;
  const ky = s.fixedHeight
    ? natural.h > 0
      ? symbolHeight / natural.h
      : 0
    : natural.h + textBand > 0
      ? box.height / (natural.h + textBand)
      : 0;
  const cell = { w: s.moduleWidth * kx, h: s.moduleHeight * ky };
  const paths: BarcodeDrawing['paths'] = [];
  if (s.lightWhite) {
    const white = new PathBuilder();
    white.rect(0, 0, natural.w * kx, natural.h * ky);
    paths.push({ d: white.toString(), white: true });
  }
  const dark = new PathBuilder();
  drawModules(s, cell, dark);
  if (!dark.empty) paths.push({ d: dark.toString(), white: false });
  if (s.swissCross) {
    const q = (s.quiet ?? 0) * cell.w;
    paths.push(...swissCross(q, natural.w * kx - 2 * q));
  }
  const labels = textBand > 0 && s.text !== '' ? [matrixLabel(s.text, box, s.fixedHeight ? band : textBand * ky)] : [];
  return { width: box.width, height: box.height, paths, labels };
}

/** The Swiss QR bill's cross in the middle of the symbol (`size` wide after a quiet zone of
 *  `at`): a black square of 7 mm of the symbol's 46 with a white cross, on a thin white margin. */
function swissCross(at: number, size: number): BarcodeDrawing['paths'] {
  const cx = at + size / 2;
  const cy = at + size / 2;
  const s = (size * 7) / 46;
  const margin = new PathBuilder();
  margin.rect(cx - s * 0.54, cy - s * 0.54, s * 1.08, s * 1.08);
  const square = new PathBuilder();
  square.rect(cx - s / 2, cy - s / 2, s, s);
  const cross = new PathBuilder();
  const arm = s * 0.56;
  const thick = s * 0.17;
  cross.rect(cx - thick / 2, cy - arm / 2, thick, arm);
  cross.rect(cx - arm / 2, cy - thick / 2, arm, thick);
  return [
    { d: margin.toString(), white: true },
    { d: square.toString(), white: false },
    { d: cross.toString(), white: true },
  ];
}

// MaxiCode: 33 rows of 30 hexagons, odd rows shifted half a hexagon, and the bullseye (three
// rings and a dot) in the middle; FastReport's unit sizes.
const HEX = { dx: 2.46, dy: 2.135, x0: 1.23, y0: 1.43, rx: 1.075, ry: 1.25 };
const BULLSEYE = { x: 35.76, y: 35.6, radii: [9.91, 6.16, 2.37], pen: 4.5 / MAXI_SCALE };

function layoutMaxiCode(s: MaxiCodeSymbol, box: { width: number; height: number }, textBand: number): BarcodeDrawing {
  const kx = box.width / (MAXI_SIZE.w * MAXI_SCALE);
  const ky = box.height / (MAXI_SIZE.h * MAXI_SCALE + textBand);
  const sx = kx * MAXI_SCALE;
  const sy = ky * MAXI_SCALE;
  const p = new PathBuilder();
  for (const i of s.dark) {
    const row = Math.floor(i / 30);
    const col = i % 30;
    const cx = (HEX.dx * col + HEX.x0 + (row % 2 === 1 ? HEX.x0 : 0)) * sx;
    const cy = (HEX.dy * row + HEX.y0) * sy;
    const rx = HEX.rx * sx;
    const ry = HEX.ry * sy;
    p.polygon([
      [cx, cy - ry],
      [cx + rx, cy - ry / 2],
      [cx + rx, cy + ry / 2],
      [cx, cy + ry],
      [cx - rx, cy + ry / 2],
      [cx - rx, cy - ry / 2],
    ]);
  }
  const half = BULLSEYE.pen / 2;
  for (const r of BULLSEYE.radii) {
    p.ellipse(BULLSEYE.x * sx, BULLSEYE.y * sy, (r + half) * sx, (r + half) * sy);
    p.ellipse(BULLSEYE.x * sx, BULLSEYE.y * sy, (r - half) * sx, (r - half) * sy, true);
  }
  const labels = textBand > 0 && s.text !== '' ? [matrixLabel(s.text, box, textBand * ky)] : [];
  return { width: box.width, height: box.height, paths: [{ d: p.toString(), white: false }], labels };
}
