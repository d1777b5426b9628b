// One prepared item → PDF, in the HTML exporter's stacking: shadow, fill, content, border on
// top; then its hyperlink as a link annotation (http, https and mailto targets only, the same
// rule as the HTML exporter; a bookmark or page of the document as a link to its destination).

import type { PreparedBox, PreparedHyperlink, PreparedItem, PreparedPage } from '../../engine/prepared.js';
import type { BorderModel, FillModel } from '../../frx/model.js';
import { safeUrl } from '../html-css.js';
import { drawBarcode } from './barcodes.js';
import { drawBorder, drawShadow, hasBorder } from './borders.js';
import type { PdfContext } from './context.js';
import { paintFill, paints } from './fills.js';
import { drawLine, setDash } from './lines.js';
import { drawPicture } from './pictures.js';
import { drawCheckSymbol, drawPath, drawShape } from './shapes.js';
import { drawTextContent } from './text.js';

interface Decorated {
  x: number;
  y: number;
  width: number;
  height: number;
  fill: FillModel;
  border: BorderModel;
}

function decorated(ctx: PdfContext, it: Decorated, content: () => void): void {
  const { x, y, width: w, height: h } = it;
  if (it.border.shadow || paints(it.fill)) {
    ctx.save();
    drawShadow(ctx, it.border, x, y, w, h);
    paintFill(ctx, it.fill, { x, y, w, h });
    ctx.restore();
  }
  content();
  drawBorder(ctx, it.border, x, y, w, h);
}

/** An object this engine does not render: an empty dotted frame, as in the HTML. */
function placeholder(ctx: PdfContext, b: PreparedBox): void {
  ctx.save();
  ctx.setStroke({ r: 0xb0, g: 0xb0, b: 0xb0, a: 255 });
  ctx.doc.lineWidth(1);
  setDash(ctx, [1, 1]);
  ctx.doc.rect(b.x + 0.5, b.y + 0.5, Math.max(0, b.width - 1), Math.max(0, b.height - 1)).stroke();
  ctx.restore();
}

/** The URL a hyperlink may be exported with, or undefined. */
export function linkUrl(h: PreparedHyperlink | undefined): string | undefined {
  return h && h.kind === 'url' ? safeUrl(h.target) : undefined;
}

function link(ctx: PdfContext, it: PreparedItem): void {
  if (!it.hyperlink || !(it.width > 0 && it.height > 0)) return;
  const url = linkUrl(it.hyperlink);
  if (url !== undefined) {
    ctx.doc.link(it.x, it.y, it.width, it.height, url);
    return;
  }
  // A bookmark or a page of this document: its named destination (document.ts adds them).
  const target = ctx.links?.target(it.hyperlink);
  if (target) ctx.doc.goTo(it.x, it.y, it.width, it.height, target.key);
}

/** How each kind of prepared item is drawn: one entry per kind (the type checker asks for one
 *  when the engine gains a kind; the engine's object types are in engine/object-types.ts). */
const ITEM_DRAWERS: { [K in PreparedItem['kind']]: (ctx: PdfContext, it: Extract<PreparedItem, { kind: K }>) => void } =
  {
    box: (ctx, it) => {
      if (it.unsupported && !paints(it.fill) && !hasBorder(it.border)) placeholder(ctx, it);
      else decorated(ctx, it, () => undefined);
      if (it.signature && it.width > 0 && it.height > 0) ctx.signatureField(it.name, it.x, it.y, it.width, it.height);
    },
    text: (ctx, it) => decorated(ctx, it, () => drawTextContent(ctx, it)),
    picture: (ctx, it) => decorated(ctx, it, () => drawPicture(ctx, it)),
    checkbox: (ctx, it) => decorated(ctx, it, () => drawCheckSymbol(ctx, it)),
    barcode: (ctx, it) => decorated(ctx, it, () => drawBarcode(ctx, it)),
    line: drawLine,
    shape: drawShape,
    path: drawPath,
  };

export function drawItem(ctx: PdfContext, it: PreparedItem): void {
  // Sound: the entry is looked up by the item's own kind.
  (ITEM_DRAWERS[it.kind] as (ctx: PdfContext, it: PreparedItem) => void)(ctx, it);
  link(ctx, it);
}

/** The page's own fill (the whole paper) and border (around the printable area). */
export function drawPageBackground(ctx: PdfContext, page: PreparedPage): void {
  const white =
    page.fill.kind === 'Solid' && page.fill.color.r === 255 && page.fill.color.g === 255 && page.fill.color.b === 255;
  if (!white) {
    ctx.save();
    paintFill(ctx, page.fill, { x: 0, y: 0, w: page.widthPx, h: page.heightPx });
    ctx.restore();
  }
  const m = page.margins;
  drawBorder(ctx, page.border, m.left, m.top, page.widthPx - m.left - m.right, page.heightPx - m.top - m.bottom);
}
