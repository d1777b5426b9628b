// A barcode's bars and modules: its paths filled in the bar colour (or white), turned into its
// box. Vectors only: a printer or a scanner gets exact edges at any resolution.

import { barcodeTransform, type PreparedBarcode } from '../../engine/prepared.js';
import type { PdfContext } from './context.js';

const WHITE = { r: 255, g: 255, b: 255, a: 255 };

export function drawBarcode(ctx: PdfContext, it: PreparedBarcode): void {
  if (it.paths.length === 0) return;
  ctx.save();
  ctx.doc.transform(...barcodeTransform(it));
  for (const p of it.paths) {
    const color = p.white ? WHITE : it.color;
    if (color.a === 0) continue;
    ctx.setFill(color);
    ctx.doc.path(p.d).fill();
  }
  ctx.restore();
}
