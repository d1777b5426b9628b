// PictureObject: JPEG (embedded as it is), PNG, BMP and ICO (decoded, re-compressed, alpha as a
// soft mask) placed by SizeMode like the HTML exporter's object-fit, inside the padding, rotated,
// with transparency and grayscale; SVG as vectors (svg.ts). Other formats (GIF, WebP, …) and
// unreadable files are skipped with a warning. Each distinct image is embedded once per document.

import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { PreparedPicture } from '../../engine/prepared.js';
import type { SizeMode, TextureFillModel } from '../../frx/model.js';
import type { PdfGraphics, Rect } from './graphics.js';
import { isJpeg, JpegError, readJpegInfo } from './jpeg.js';
import { addExtGState, addXObject, type Doc, type Ref } from './kit.js';
import { BmpError, decodeBmp, decodeIco, isBmp, isIco } from './bmp.js';
import { type DecodedImage, decodePng, isPng, PngError } from './png.js';
import { drawSvg, type SvgCanvas } from './svg.js';

interface EmbeddedImage {
  /** Resource name, e.g. "Im3". */
  name: string;
  ref: Ref;
  width: number;
  height: number;
  /** A JPEG cannot be turned grey here: a Saturation blend over it does it when drawn. */
  grayByBlend: boolean;
}

/** Where an image of iw × ih px goes in the area, by SizeMode (CSS object-fit equivalents). */
export function placeImage(mode: SizeMode, area: Rect, iw: number, ih: number): Rect {
  switch (mode) {
    case 'Normal':
      return { x: area.x, y: area.y, w: iw, h: ih };
    case 'CenterImage':
      return { x: area.x + (area.w - iw) / 2, y: area.y + (area.h - ih) / 2, w: iw, h: ih };
    case 'StretchImage':
    case 'AutoSize':
      return { ...area };
    default: {
      // Zoom: as large as fits, aspect ratio kept, centred.
      const k = iw > 0 && ih > 0 ? Math.min(area.w / iw, area.h / ih) : 0;
      const w = iw * k;
      const h = ih * k;
      return { x: area.x + (area.w - w) / 2, y: area.y + (area.h - h) / 2, w, h };
    }
  }
}

function toGray(pixels: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++)
    out[i] = Math.round(
      0.299 * (pixels[i * 3] ?? 0) + 0.587 * (pixels[i * 3 + 1] ?? 0) + 0.114 * (pixels[i * 3 + 2] ?? 0),
    );
  return out;
}

/** Where pictures are drawn: the graphics state and the document's images (a PdfContext). */
export interface ImageCanvas extends PdfGraphics {
  readonly images: PdfImages;
}

/** The images of one document. */
export class PdfImages {
  private readonly cache = new Map<string, EmbeddedImage | null>();
  private count = 0;
  private saturation: Ref | undefined;
  private readonly warned = new Set<string>();

  constructor(
    private readonly doc: Doc,
    private readonly warn: (message: string) => void,
  ) {}

  /** The embedded image for these bytes, or undefined when they cannot be used. */
  get(bytes: Uint8Array, grayscale: boolean, what: string): EmbeddedImage | undefined {
    const key = `${createHash('sha1').update(bytes).digest('hex')}|${grayscale ? 1 : 0}`;
    let img = this.cache.get(key);
    if (img === undefined) {
      img = this.embed(bytes, grayscale, what);
      this.cache.set(key, img);
    }
    return img ?? undefined;
  }

  private embed(bytes: Uint8Array, grayscale: boolean, what: string): EmbeddedImage | null {
    try {
      if (isJpeg(bytes)) return this.embedJpeg(bytes, grayscale);
      if (isPng(bytes)) return this.embedPixels(decodePng(bytes), grayscale);
      if (isBmp(bytes)) return this.embedPixels(decodeBmp(bytes), grayscale);
      if (isIco(bytes)) {
        const icon = decodeIco(bytes);
        return this.embedPixels('png' in icon ? decodePng(icon.png) : icon, grayscale);
      }
      this.warnOnce(
        'format',
        `${what}: only JPEG, PNG, BMP and ICO pictures go into the PDF; a picture in another format is left out`,
      );
    } catch (e) {
      if (!(e instanceof PngError || e instanceof JpegError || e instanceof BmpError)) throw e;
      this.warnOnce(e.message, `${what}: picture left out of the PDF: ${e.message}`);
    }
    return null;
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(message);
  }

  private nextName(): string {
    return `Im${++this.count}`;
  }

  private embedJpeg(bytes: Uint8Array, grayscale: boolean): EmbeddedImage {
    const info = readJpegInfo(bytes);
    const cs = info.components === 1 ? 'DeviceGray' : info.components === 3 ? 'DeviceRGB' : 'DeviceCMYK';
    const dict: Record<string, unknown> = {
      Type: 'XObject',
      Subtype: 'Image',
      Width: info.width,
      Height: info.height,
      BitsPerComponent: 8,
      ColorSpace: cs,
      Filter: 'DCTDecode',
    };
    if (info.components === 4 && info.adobe) dict.Decode = [1, 0, 1, 0, 1, 0, 1, 0];
    const ref = this.doc.ref(dict);
    ref.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return {
      name: this.nextName(),
      ref,
      width: info.width,
      height: info.height,
      grayByBlend: grayscale && info.components !== 1,
    };
  }

  /** Decoded pixels (PNG, BMP, ICO), re-compressed with Flate, alpha as a soft mask. */
  private embedPixels(img: DecodedImage, grayscale: boolean): EmbeddedImage {
    const n = img.width * img.height;
    const pixels = grayscale && img.channels === 3 ? toGray(img.pixels, n) : img.pixels;
    const channels = grayscale ? 1 : img.channels;
    const dict: Record<string, unknown> = {
      Type: 'XObject',
      Subtype: 'Image',
      Width: img.width,
      Height: img.height,
      BitsPerComponent: 8,
      ColorSpace: channels === 1 ? 'DeviceGray' : 'DeviceRGB',
      Filter: 'FlateDecode',
    };
    if (img.alpha) {
      const mask = this.doc.ref({
        Type: 'XObject',
        Subtype: 'Image',
        Width: img.width,
        Height: img.height,
        BitsPerComponent: 8,
        ColorSpace: 'DeviceGray',
        Filter: 'FlateDecode',
      });
      mask.end(deflateSync(img.alpha));
      dict.SMask = mask;
    }
    const ref = this.doc.ref(dict);
    ref.end(deflateSync(pixels));
    return { name: this.nextName(), ref, width: img.width, height: img.height, grayByBlend: false };
  }

  /** Draws an embedded image into r (current user space, px); a negative width or height
   *  mirrors it. */
  draw(ctx: PdfGraphics, img: EmbeddedImage, r: Rect): void {
    if (r.w === 0 || r.h === 0 || !Number.isFinite(r.w) || !Number.isFinite(r.h)) return;
    const doc = this.doc;
    addXObject(doc, img.name, img.ref);
    ctx.save();
    doc.transform(r.w, 0, 0, -r.h, r.x, r.y + r.h);
    doc.addContent(`/${img.name} Do`);
    ctx.restore();
    if (img.grayByBlend) this.desaturate(ctx, r);
  }

  /** Paints a grey rectangle with the Saturation blend mode: what is below keeps its
   *  luminosity and loses its colour. */
  private desaturate(ctx: PdfGraphics, r: Rect): void {
    const doc = this.doc;
    if (!this.saturation) {
      this.saturation = doc.ref({ Type: 'ExtGState', BM: 'Saturation' });
      this.saturation.end(undefined);
    }
    addExtGState(doc, 'GsSat', this.saturation);
    ctx.save();
    doc.addContent('/GsSat gs');
    ctx.setFill({ r: 128, g: 128, b: 128, a: 255 });
    doc.rect(r.x, r.y, r.w, r.h).fill();
    ctx.restore();
  }

  /** A Texture fill (the caller clips to the area): one copy of the image at its size and
   *  offset, or copies repeated over the area (every other one mirrored in the Flip modes). At
   *  most 2,500 copies are drawn. */
  drawTexture(ctx: PdfGraphics, fill: TextureFillModel, area: Rect): void {
    const data = fill.imageData.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return;
    const img = this.get(Buffer.from(data, 'base64'), false, 'Texture fill');
    if (!img) return;
    const w = fill.imageWidth || img.width;
    const h = fill.imageHeight || img.height;
    const x0 = area.x + fill.offsetX;
    const y0 = area.y + fill.offsetY;
    if (fill.wrapMode === 'Clamp') {
      this.draw(ctx, img, { x: x0, y: y0, w, h });
      return;
    }
    // The copies that reach into the area, counted from the first one's place.
    const i0 = Math.floor((area.x - x0) / w);
    const j0 = Math.floor((area.y - y0) / h);
    const i1 = Math.ceil((area.x + area.w - x0) / w);
    const j1 = Math.ceil((area.y + area.h - y0) / h);
    if ((i1 - i0) * (j1 - j0) > 2500) {
      this.warnOnce('texture', 'a Texture fill needs too many tiles; it is left out of the PDF');
      return;
    }
    const flipX = fill.wrapMode === 'TileFlipX' || fill.wrapMode === 'TileFlipXY';
    const flipY = fill.wrapMode === 'TileFlipY' || fill.wrapMode === 'TileFlipXY';
    for (let j = j0; j < j1; j++)
      for (let i = i0; i < i1; i++) {
        const mx = flipX && Math.abs(i) % 2 === 1;
        const my = flipY && Math.abs(j) % 2 === 1;
        const x = x0 + i * w;
        const y = y0 + j * h;
        // A mirrored copy: drawn into a rectangle of negative width or height.
        this.draw(ctx, img, { x: mx ? x + w : x, y: my ? y + h : y, w: mx ? -w : w, h: my ? -h : h });
      }
  }
}

/** The picture itself (decoration is drawn by the caller). */
export function drawPicture(ctx: ImageCanvas & SvgCanvas, p: PreparedPicture): void {
  if (!p.bytes || p.bytes.length === 0) return;
  const svg = p.mime === 'image/svg+xml';
  const img = svg ? undefined : ctx.images.get(p.bytes, p.grayscale, p.name);
  if (!svg && !img) return;
  const doc = ctx.doc;
  const area: Rect = {
    x: p.x + p.padding.left,
    y: p.y + p.padding.top,
    w: p.width - p.padding.left - p.padding.right,
    h: p.height - p.padding.top - p.padding.bottom,
  };
  if (!(area.w > 0 && area.h > 0)) return;
  ctx.save();
  const angle = p.angle % 360;
  if (angle !== 0) {
    // Rotated about the object's centre, as the HTML exporter's transform does.
    const cx = p.x + p.width / 2;
    const cy = p.y + p.height / 2;
    doc.translate(cx, cy).rotate(angle).translate(-cx, -cy);
  }
  doc.rect(area.x, area.y, area.w, area.h).clip();
  if (p.transparency > 0) ctx.setFillOpacity(Math.max(0, 1 - p.transparency));
  if (img) {
    // The image's own pixel size (what a browser takes as its intrinsic size in CSS px).
    ctx.images.draw(ctx, img, placeImage(p.sizeMode, area, img.width, img.height));
  } else {
    const fit =
      p.sizeMode === 'StretchImage' || p.sizeMode === 'AutoSize'
        ? 'none'
        : p.sizeMode === 'Normal'
          ? 'natural'
          : 'meet';
    drawSvg(ctx, Buffer.from(p.bytes).toString('utf8'), area, { fit, grayscale: p.grayscale }, p.name);
  }
  ctx.restore();
}
