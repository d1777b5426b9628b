// Borders (per side: colour, width, style) and shadows. FastReport draws each border line centred
// on the object's edge; a side reaches over the corners by half the neighbouring sides' widths,
// as the HTML exporter's border box does. Solid sides are filled rectangles (square corners, no
// gaps); dashed and dotted sides are stroked along the edge; Double is two lines of the side's
// width, one on each side of the edge, 3 widths in all.

import type { BorderLineModel, BorderModel } from '../../frx/model.js';
import { isTransparent, type PdfContext } from './context.js';
import { dashArray, MIN_LINE_WIDTH, setDash } from './lines.js';

export function hasBorder(b: BorderModel): boolean {
  return b.lines.left || b.lines.top || b.lines.right || b.lines.bottom;
}

type Side = 'left' | 'top' | 'right' | 'bottom';

function drawSide(
  ctx: PdfContext,
  side: Side,
  line: BorderLineModel,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): void {
  if (isTransparent(line.color)) return;
  const doc = ctx.doc;
  const w = Math.max(line.width, MIN_LINE_WIDTH);
  const vertical = side === 'left' || side === 'right';
  if (line.style === 'Solid') {
    ctx.setFill(line.color);
    if (vertical) doc.rect(x1 - w / 2, y1, w, y2 - y1);
    else doc.rect(x1, y1 - w / 2, x2 - x1, w);
    doc.fill();
    return;
  }
  ctx.setStroke(line.color);
  doc.lineWidth(w);
  if (line.style === 'Double') {
    setDash(ctx, undefined);
    for (const off of [-w, w]) {
      if (vertical) doc.moveTo(x1 + off, y1).lineTo(x2 + off, y2);
      else doc.moveTo(x1, y1 + off).lineTo(x2, y2 + off);
    }
    doc.stroke();
    return;
  }
  setDash(ctx, dashArray(line.style, [], line.width));
  doc.moveTo(x1, y1).lineTo(x2, y2).stroke();
}

/** Draws the border of a box (x, y, w, h in px). */
export function drawBorder(ctx: PdfContext, b: BorderModel, x: number, y: number, w: number, h: number): void {
  if (!hasBorder(b)) return;
  const lw = b.lines.left ? b.leftLine.width : 0;
  const tw = b.lines.top ? b.topLine.width : 0;
  const rw = b.lines.right ? b.rightLine.width : 0;
  const bw = b.lines.bottom ? b.bottomLine.width : 0;
  const left = x - lw / 2;
  const right = x + w + rw / 2;
  const top = y - tw / 2;
  const bottom = y + h + bw / 2;
  ctx.save();
  if (b.lines.left) drawSide(ctx, 'left', b.leftLine, x, top, x, bottom);
  if (b.lines.top) drawSide(ctx, 'top', b.topLine, left, y, right, y);
  if (b.lines.right) drawSide(ctx, 'right', b.rightLine, x + w, top, x + w, bottom);
  if (b.lines.bottom) drawSide(ctx, 'bottom', b.bottomLine, left, y + h, right, y + h);
  ctx.restore();
}

/** The shadow below and right of a box (what CSS box-shadow shows of it: outside the box). */
export function drawShadow(ctx: PdfContext, b: BorderModel, x: number, y: number, w: number, h: number): void {
  const s = b.shadowWidth;
  if (!b.shadow || !(s > 0) || isTransparent(b.shadowColor)) return;
  ctx.save();
  ctx.setFill(b.shadowColor);
  ctx.doc
    .rect(x + w, y + s, s, h)
    .rect(x + s, y + h, Math.max(0, w - s), s)
    .fill();
  ctx.restore();
}
