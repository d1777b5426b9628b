// Windows bitmaps for the PDF: BMP files and ICO icons (FastReport templates carry both, in
// pictures and Texture fills), decoded to the same 8-bit RGB samples and alpha plane as PNGs.
// Uncompressed DIBs of 1, 4, 8, 24 and 32 bits per pixel (BI_RGB, and BI_BITFIELDS with the usual
// masks), rows bottom-up or top-down; an icon's first image, which may itself be a PNG. Bad or
// oversized input is a BmpError, never a crash.

import { type DecodedImage, MAX_PNG_PIXELS } from './png.js';

export class BmpError extends Error {}

export function isBmp(b: Uint8Array): boolean {
  return b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d;
}

/** An ICO file: reserved 0, type 1, at least one image. */
export function isIco(b: Uint8Array): boolean {
  return b.length >= 22 && b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0 && (b[4] ?? 0) + (b[5] ?? 0) > 0;
}

const u16 = (b: Uint8Array, o: number): number => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, o: number): number => (u16(b, o) | (u16(b, o + 2) << 16)) >>> 0;
const i32 = (b: Uint8Array, o: number): number => u32(b, o) | 0;

/** A DIB (BITMAPINFOHEADER and what follows) at `at`; `pixelsAt` where its pixels start (a BMP
 *  file says; in an icon they follow the palette), `icon`: the height counts the AND mask too. */
function decodeDib(b: Uint8Array, at: number, pixelsAt: number | undefined, icon: boolean): DecodedImage {
  const headerSize = u32(b, at);
  if (headerSize < 40 || at + headerSize > b.length) throw new BmpError('unsupported bitmap header');
  const width = i32(b, at + 4);
  let height = i32(b, at + 8);
  const bits = u16(b, at + 14);
  const compression = u32(b, at + 16);
  const topDown = height < 0;
  height = Math.abs(height);
  if (icon) height = Math.floor(height / 2);
  if (width <= 0 || height <= 0) throw new BmpError('bitmap has no pixels');
  if (width * height > MAX_PNG_PIXELS) throw new BmpError(`bitmap is too large (${width} × ${height} pixels)`);
  if (compression !== 0 && !(compression === 3 && (bits === 32 || bits === 16)))
    throw new BmpError('compressed bitmaps are not supported');
  if (![1, 4, 8, 24, 32].includes(bits)) throw new BmpError(`${bits}-bit bitmaps are not supported`);
  const paletteAt = at + headerSize + (compression === 3 && headerSize === 40 ? 12 : 0);
  const colours = bits <= 8 ? u32(b, at + 32) || 1 << bits : 0;
  const start = pixelsAt ?? paletteAt + colours * 4;
  const stride = Math.ceil((width * bits) / 32) * 4;
  if (start + stride * height > b.length) throw new BmpError('bitmap data is cut short');
  const pixels = new Uint8Array(width * height * 3);
  const alpha = new Uint8Array(width * height).fill(255);
  let hasAlpha = false;
  for (let y = 0; y < height; y++) {
    const row = start + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      let r: number;
      let g: number;
      let bl: number;
      if (bits >= 24) {
        const p = row + x * (bits / 8);
        [bl, g, r] = [b[p] ?? 0, b[p + 1] ?? 0, b[p + 2] ?? 0];
        if (bits === 32) {
          alpha[y * width + x] = b[p + 3] ?? 255;
        }
      } else {
        const bitPos = x * bits;
        const byte = b[row + (bitPos >> 3)] ?? 0;
        const index = (byte >> (8 - bits - (bitPos & 7))) & ((1 << bits) - 1);
        const q = paletteAt + index * 4;
        [bl, g, r] = [b[q] ?? 0, b[q + 1] ?? 0, b[q + 2] ?? 0];
      }
      pixels.set([r, g, bl], (y * width + x) * 3);
    }
  }
  if (bits === 32) {
    // An all-zero alpha channel means the bitmap does not use one (a plain 32-bit BMP).
    hasAlpha = alpha.some((a) => a !== 0);
    if (!hasAlpha) alpha.fill(255);
    hasAlpha = alpha.some((a) => a !== 255);
  }
  if (icon && bits < 32) {
    // The AND mask after the colour bits: 1 = transparent.
    const maskAt = start + stride * height;
    const maskStride = Math.ceil(width / 32) * 4;
    if (maskAt + maskStride * height <= b.length)
      for (let y = 0; y < height; y++) {
        const row = maskAt + (topDown ? y : height - 1 - y) * maskStride;
        for (let x = 0; x < width; x++)
          if (((b[row + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1) {
            alpha[y * width + x] = 0;
            hasAlpha = true;
          }
      }
  }
  return { width, height, channels: 3, pixels, alpha: hasAlpha ? alpha : null };
}

export function decodeBmp(b: Uint8Array): DecodedImage {
  return decodeDib(b, 14, u32(b, 10), false);
}

/** The icon's first image: a DIB decoded, or the bytes of a PNG (for the PNG decoder). */
export function decodeIco(b: Uint8Array): DecodedImage | { png: Uint8Array } {
  const size = u32(b, 6 + 8);
  const offset = u32(b, 6 + 12);
  if (offset + Math.min(size, 8) > b.length) throw new BmpError('icon data is cut short');
  const image = b.subarray(offset, Math.min(b.length, offset + size));
  if (image[0] === 0x89 && image[1] === 0x50) return { png: image };
  return decodeDib(b, offset, undefined, true);
}
