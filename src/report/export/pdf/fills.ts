// Fills as PDF paint: solid colours (with alpha), linear gradients (FastReport's angle and
// focus, with the HTML exporter's geometry: CSS linear-gradient semantics), path gradients as
// radial shadings, glass, hatch and texture. A fill paints the current shape: `path` adds the
// shape's outline (a rectangle unless the caller draws another shape).

import type { Color, FillModel, LinearGradientFillModel } from '../../frx/model.js';
import { isTransparent, type PdfGraphics, type Rect } from './graphics.js';
import type { ImageCanvas } from './pictures.js';

/** Whether the fill paints anything. */
export function paints(f: FillModel): boolean {
  switch (f.kind) {
    case 'Solid':
      return !isTransparent(f.color);
    case 'LinearGradient':
      return !(isTransparent(f.startColor) && isTransparent(f.endColor));
    case 'PathGradient':
      return !(isTransparent(f.centerColor) && isTransparent(f.edgeColor));
    case 'Glass':
      return !isTransparent(f.color);
    case 'Hatch':
      return !(isTransparent(f.foreColor) && isTransparent(f.backColor));
    case 'Texture':
      return f.imageData.trim() !== '';
  }
}

/** The gradient line of a CSS `linear-gradient(angle)` over the box: through the centre, long
 *  enough that the corners get the end colours. FastReport's angle 0 runs left to right. */
export function gradientLine(angleDeg: number, r: Rect): { x1: number; y1: number; x2: number; y2: number } {
  const a = ((angleDeg + 90) * Math.PI) / 180;
  const dx = Math.sin(a);
  const dy = -Math.cos(a);
  const half = (Math.abs(r.w * dx) + Math.abs(r.h * dy)) / 2;
  const cx = r.x + r.w / 2;
  const cy = r.y + r.h / 2;
  return { x1: cx - dx * half, y1: cy - dy * half, x2: cx + dx * half, y2: cy + dy * half };
}

/** Colour stops of a linear gradient: the end colour peaks at the focus (a bell shape). */
export function gradientStops(f: LinearGradientFillModel): { pos: number; color: Color }[] {
  const focus = Math.min(1, Math.max(0, f.focus));
  if (focus >= 1)
    return [
      { pos: 0, color: f.startColor },
      { pos: 1, color: f.endColor },
    ];
  if (focus <= 0)
    return [
      { pos: 0, color: f.endColor },
      { pos: 1, color: f.startColor },
    ];
  return [
    { pos: 0, color: f.startColor },
    { pos: focus, color: f.endColor },
    { pos: 1, color: f.startColor },
  ];
}

const WHITE: Color = { r: 255, g: 255, b: 255, a: 255 };

/** "#rrggbb" (pdfkit's gradient stops take colours as text or arrays; its types say text). */
const hex = (c: Color): string => `#${[c.r, c.g, c.b].map((n) => n.toString(16).padStart(2, '0')).join('')}`;

/** pdfkit gradients have setTransform (the pattern's own matrix); its types lack it. */
type Transformable = { setTransform(a: number, b: number, c: number, d: number, e: number, f: number): unknown };

/** Paints `fill` inside the shape `path` adds (default: the rectangle r). */
export function paintFill(ctx: ImageCanvas, fill: FillModel, r: Rect, path?: () => void): void {
  if (!paints(fill)) return;
  const doc = ctx.doc;
  const outline = path ?? ((): void => void doc.rect(r.x, r.y, r.w, r.h));
  switch (fill.kind) {
    case 'Solid':
      outline();
      ctx.setFill(fill.color);
      doc.fill();
      return;
    case 'LinearGradient': {
      const l = gradientLine(fill.angle, r);
      const g = doc.linearGradient(l.x1, l.y1, l.x2, l.y2);
      for (const s of gradientStops(fill)) g.stop(s.pos, hex(s.color), s.color.a / 255);
      outline();
      doc.fill(g);
      return;
    }
    case 'PathGradient': {
      // The HTML exporter's radial-gradient: an ellipse through the corners (Elliptic) or
      // touching the sides (Rectangular), centre colour in the middle.
      const k = fill.style === 'Elliptic' ? Math.SQRT2 : 1;
      const g = doc.radialGradient(0, 0, 0, 0, 0, 1);
      (g as unknown as Transformable).setTransform(
        (r.w / 2) * k || 1e-3,
        0,
        0,
        (r.h / 2) * k || 1e-3,
        r.x + r.w / 2,
        r.y + r.h / 2,
      );
      g.stop(0, hex(fill.centerColor), fill.centerColor.a / 255);
      g.stop(1, hex(fill.edgeColor), fill.edgeColor.a / 255);
      outline();
      doc.fill(g);
      return;
    }
    case 'Glass':
      outline();
      ctx.setFill(fill.color);
      doc.fill();
      // White over the upper half, `blend` opaque.
      if (fill.blend > 0) {
        ctx.save();
        outline();
        doc.clip();
        doc.rect(r.x, r.y, r.w, r.h / 2);
        ctx.setFill({ ...WHITE, a: Math.round(Math.min(1, fill.blend) * 255) });
        doc.fill();
        ctx.restore();
      }
      return;
    case 'Hatch':
      paintHatch(ctx, fill.foreColor, fill.backColor, r, outline);
      return;
    case 'Texture':
      ctx.save();
      outline();
      doc.clip();
      ctx.images.drawTexture(ctx, fill, r);
      ctx.restore();
      return;
  }
}

/** Back colour, then 1 px lines 6 px apart on the diagonal (as the HTML exporter draws it). */
function paintHatch(ctx: PdfGraphics, fore: Color, back: Color, r: Rect, outline: () => void): void {
  const doc = ctx.doc;
  if (!isTransparent(back)) {
    outline();
    ctx.setFill(back);
    doc.fill();
  }
  if (isTransparent(fore)) return;
  ctx.save();
  outline();
  doc.clip();
  const w = Math.abs(r.w);
  const h = Math.abs(r.h);
  // One line per step across the box's width and height; at most 2,000 lines (a huge box gets
  // wider spacing rather than megabytes of lines).
  const step = Math.max(6 * Math.SQRT2, (w + h) / 2000);
  for (let t = -h; t < w; t += step) {
    doc.moveTo(r.x + t, r.y).lineTo(r.x + t + h, r.y + h);
  }
  ctx.setStroke(fore);
  doc.lineWidth(1).stroke();
  ctx.restore();
}
