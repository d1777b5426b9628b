// ShapeObject (rectangle, round rectangle, ellipse, triangle, diamond: fill inside, outline
// stroked) and the symbols of CheckBoxObject, with the HTML exporter's geometry.

import type { PreparedCheckBox, PreparedPath, PreparedShape } from '../../engine/prepared.js';
import { isTransparent, type PdfContext } from './context.js';
import { paintFill } from './fills.js';
import { dashArray, MIN_LINE_WIDTH, setDash } from './lines.js';

/** Adds the outline of a shape to the current path. */
function shapePath(ctx: PdfContext, s: PreparedShape, x: number, y: number, w: number, h: number): void {
  const doc = ctx.doc;
  switch (s.shape) {
    case 'RoundRectangle':
      doc.roundedRect(x, y, w, h, s.curve > 0 ? s.curve : Math.min(w, h) / 4);
      return;
    case 'Ellipse':
      doc.ellipse(x + w / 2, y + h / 2, w / 2, h / 2);
      return;
    case 'Triangle':
      doc.polygon([x + w / 2, y], [x + w, y + h], [x, y + h]);
      return;
    case 'Diamond':
      doc.polygon([x + w / 2, y], [x + w, y + h / 2], [x + w / 2, y + h], [x, y + h / 2]);
      return;
    default:
      doc.rect(x, y, w, h);
  }
}

export function drawShape(ctx: PdfContext, s: PreparedShape): void {
  const x = Math.min(s.x, s.x + s.width);
  const y = Math.min(s.y, s.y + s.height);
  const w = Math.abs(s.width);
  const h = Math.abs(s.height);
  ctx.save();
  paintFill(ctx, s.fill, { x, y, w, h }, () => shapePath(ctx, s, x, y, w, h));
  if (!isTransparent(s.color)) {
    ctx.setStroke(s.color);
    ctx.doc.lineWidth(Math.max(s.lineWidth, MIN_LINE_WIDTH));
    setDash(ctx, dashArray(s.style, s.dashPattern, s.lineWidth));
    shapePath(ctx, s, x, y, w, h);
    ctx.doc.stroke();
  }
  ctx.restore();
}

/** A polygon or polyline: its path filled (a polygon) and stroked, moved to the item's place. */
export function drawPath(ctx: PdfContext, p: PreparedPath): void {
  if (p.d === '') return;
  ctx.save();
  ctx.doc.translate(p.x, p.y);
  if (p.closed) paintFill(ctx, p.fill, { x: 0, y: 0, w: p.width, h: p.height }, () => void ctx.doc.path(p.d));
  if (!isTransparent(p.color)) {
    ctx.setStroke(p.color);
    ctx.doc.lineWidth(Math.max(p.lineWidth, MIN_LINE_WIDTH));
    setDash(ctx, dashArray(p.style, p.dashPattern, p.lineWidth));
    if (p.round) ctx.doc.lineCap('round').lineJoin('round');
    ctx.doc.path(p.d).stroke();
  }
  ctx.restore();
}

type Polyline = [number, number][];

/** The symbol's strokes in units of the box (0…1), or 'fill' for the filled square. */
function symbolStrokes(
  symbol: PreparedCheckBox['checkedSymbol'] | PreparedCheckBox['uncheckedSymbol'],
): Polyline[] | 'fill' | undefined {
  switch (symbol) {
    case 'Check':
      return [
        [
          [0.2, 0.5],
          [0.42, 0.72],
          [0.8, 0.28],
        ],
      ];
    case 'Cross':
      return [
        [
          [0.25, 0.25],
          [0.75, 0.75],
        ],
        [
          [0.75, 0.25],
          [0.25, 0.75],
        ],
      ];
    case 'Plus':
      return [
        [
          [0.5, 0.2],
          [0.5, 0.8],
        ],
        [
          [0.2, 0.5],
          [0.8, 0.5],
        ],
      ];
    case 'Minus':
      return [
        [
          [0.2, 0.5],
          [0.8, 0.5],
        ],
      ];
    case 'Fill':
      return 'fill';
    default:
      return undefined;
  }
}

/** Draws the check symbol inside the box at (c.x, c.y). */
export function drawCheckSymbol(ctx: PdfContext, c: PreparedCheckBox): void {
  const strokes = symbolStrokes(c.checked ? c.checkedSymbol : c.uncheckedSymbol);
  if (!strokes || isTransparent(c.checkColor)) return;
  const doc = ctx.doc;
  const { x, y, width: w, height: h } = c;
  ctx.save();
  if (strokes === 'fill') {
    ctx.setFill(c.checkColor);
    doc.rect(x + w * 0.25, y + h * 0.25, w * 0.5, h * 0.5).fill();
  } else {
    ctx.setStroke(c.checkColor);
    doc.lineWidth(Math.max(1, (Math.min(w, h) / 9) * (c.checkWidthRatio || 1)));
    doc.lineCap('round').lineJoin('round');
    for (const line of strokes) {
      line.forEach(([px, py], i) => {
        if (i === 0) doc.moveTo(x + px * w, y + py * h);
        else doc.lineTo(x + px * w, y + py * h);
      });
    }
    doc.stroke();
  }
  ctx.restore();
}
