// Page watermarks (FastReport's ReportPage.Draw with Watermark.Enabled): the text centred on the
// paper, turned by its rotation (the diagonals follow the paper's own diagonal), and the image
// placed by its ImageSize, each behind the page's objects or over them (FastReport's defaults:
// the text over, the image behind). Added to every page of its report page once the run is over.

import { defaultBorder } from '../frx/defaults.js';
import type { ReportPageModel, WatermarkModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import { decodeBase64, imageInfo } from './image.js';
import type { PreparedItem, PreparedPage, PreparedPicture } from './prepared.js';
import { labelItem } from './text-label.js';

/** TextRotation → the text's angle on a paper of w × h (FastReport's whole degrees). */
function textAngle(w: WatermarkModel, width: number, height: number): number {
  const diagonal = Math.trunc((Math.atan(height / width) * 180) / Math.PI);
  switch (w.textRotation) {
    case 'Vertical':
      return 270;
    case 'ForwardDiagonal':
      return 360 - diagonal;
    case 'BackwardDiagonal':
      return diagonal;
    default:
      return 0;
  }
}

const NO_BORDER = Object.freeze(defaultBorder());

const SIZE_MODES = {
  Normal: 'Normal',
  Center: 'CenterImage',
  Stretch: 'StretchImage',
  Zoom: 'Zoom',
  Tile: 'Normal',
} as const;

function imageItem(e: EngineContext, page: PreparedPage, w: WatermarkModel, bytes: Uint8Array): PreparedPicture {
  const info = imageInfo(bytes);
  return {
    kind: 'picture',
    name: `${page.name}.Watermark`,
    x: 0,
    y: 0,
    width: page.widthPx,
    height: page.heightPx,
    fill: { kind: 'Solid', color: { r: 0, g: 0, b: 0, a: 0 } },
    border: NO_BORDER,
    bytes,
    mime: info.mime,
    sizeMode: SIZE_MODES[w.imageSize],
    padding: { left: 0, top: 0, right: 0, bottom: 0 },
    angle: 0,
    transparency: w.imageTransparency,
    grayscale: false,
    ...(info.width !== undefined ? { imageWidth: info.width } : {}),
    ...(info.height !== undefined ? { imageHeight: info.height } : {}),
  };
}

/** Puts each page's watermark under or over its items. */
export function addWatermarks(
  e: EngineContext,
  pages: readonly PreparedPage[],
  models: readonly ReportPageModel[],
): void {
  const add = watermarker(e, models);
  if (add) for (const page of pages) add(page);
}

/** What puts a page's watermark under or over its items (undefined when no page has one): one
 *  page at a time, for pages given away as they are finished (page-stream.ts). */
export function watermarker(
  e: EngineContext,
  models: readonly ReportPageModel[],
): ((page: PreparedPage) => void) | undefined {
  const byName = new Map(models.filter((m) => m.watermark).map((m) => [m.name, m.watermark as WatermarkModel]));
  if (byName.size === 0) return undefined;
  const bytesOf = new Map<WatermarkModel, Uint8Array | null>();
  return (page) => {
    const w = byName.get(page.name);
    if (!w) return;
    const below: PreparedItem[] = [];
    const above: PreparedItem[] = [];
    let tiled = false;
    if (w.image !== '') {
      if (!bytesOf.has(w)) bytesOf.set(w, decodeBase64(w.image) ?? null);
      const bytes = bytesOf.get(w);
      if (bytes) (w.showImageOnTop ? above : below).push(imageItem(e, page, w, bytes));
      tiled = w.imageSize === 'Tile';
    }
    if (w.text !== '') {
      const color = w.textFill.kind === 'Solid' ? w.textFill.color : { r: 128, g: 128, b: 128, a: 40 };
      const text = labelItem(e, {
        name: `${page.name}.Watermark`,
        text: w.text,
        font: w.font,
        color,
        x: 0,
        y: 0,
        width: page.widthPx,
        height: page.heightPx,
        angle: textAngle(w, page.widthPx, page.heightPx),
        horzAlign: 'Center',
        vertAlign: 'Center',
        wordWrap: true,
      });
      text.textFill = w.textFill;
      (w.showTextOnTop ? above : below).push(text);
    }
    page.items.unshift(...below);
    page.items.push(...above);
    if (tiled) e.warnings.add('a tiled watermark image is drawn once, at its own size');
  };
}
