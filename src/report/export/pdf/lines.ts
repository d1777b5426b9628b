// Strokes: dash patterns of FastReport's line styles, LineObject lines with their caps (arrow,
// circle, square, diamond), as the HTML exporter's SVG draws them.

import type { CapModel } from '../../frx/model.js';
import type { PreparedLine } from '../../engine/prepared.js';
import { num, type PdfContext } from './context.js';

import { dashArray, MIN_LINE_WIDTH } from '../line-style.js';

export { dashArray, MIN_LINE_WIDTH };

/** Sets (or clears) the dash pattern for the next strokes. */
export function setDash(ctx: PdfContext, dashes: number[] | undefined): void {
  ctx.doc.addContent(dashes ? `[${dashes.map(num).join(' ')}] 0 d` : '[] 0 d');
}

type Pt = [number, number];

/** The filled shape of a cap at (x, y) pointing along the unit vector (dx, dy). */
function drawCap(ctx: PdfContext, c: CapModel, x: number, y: number, dx: number, dy: number, width: number): void {
  const w = (Math.max(c.width, 1) * Math.max(width, 1)) / 2;
  const h = (Math.max(c.height, 1) * Math.max(width, 1)) / 2;
  const nx = -dy;
  const ny = dx;
  const doc = ctx.doc;
  const poly = (pts: Pt[]): void => {
    doc.polygon(...pts);
    doc.fill();
  };
  switch (c.style) {
    case 'Arrow':
      poly([
        [x, y],
        [x - dx * h + (nx * w) / 2, y - dy * h + (ny * w) / 2],
        [x - dx * h - (nx * w) / 2, y - dy * h - (ny * w) / 2],
      ]);
      return;
    case 'Circle':
      doc.circle(x, y, w / 2);
      doc.fill();
      return;
    case 'Square':
      poly([
        [x + ((dx + nx) * w) / 2, y + ((dy + ny) * w) / 2],
        [x + ((dx - nx) * w) / 2, y + ((dy - ny) * w) / 2],
        [x - ((dx + nx) * w) / 2, y - ((dy + ny) * w) / 2],
        [x - ((dx - nx) * w) / 2, y - ((dy - ny) * w) / 2],
      ]);
      return;
    case 'Diamond':
      poly([
        [x + (dx * h) / 2, y + (dy * h) / 2],
        [x + (nx * w) / 2, y + (ny * w) / 2],
        [x - (dx * h) / 2, y - (dy * h) / 2],
        [x - (nx * w) / 2, y - (ny * w) / 2],
      ]);
      return;
    default:
      return;
  }
}

export function drawLine(ctx: PdfContext, l: PreparedLine): void {
  const doc = ctx.doc;
  ctx.save();
  ctx.setStroke(l.color);
  ctx.setFill(l.color);
  doc.lineWidth(Math.max(l.lineWidth, MIN_LINE_WIDTH));
  setDash(ctx, dashArray(l.style, l.dashPattern, l.lineWidth));
  doc.moveTo(l.x1, l.y1).lineTo(l.x2, l.y2).stroke();
  const len = Math.hypot(l.x2 - l.x1, l.y2 - l.y1) || 1;
  const dx = (l.x2 - l.x1) / len;
  const dy = (l.y2 - l.y1) / len;
  drawCap(ctx, l.startCap, l.x1, l.y1, -dx, -dy, l.lineWidth);
  drawCap(ctx, l.endCap, l.x2, l.y2, dx, dy, l.lineWidth);
  ctx.restore();
}
