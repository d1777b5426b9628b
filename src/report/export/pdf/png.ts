// A PNG decoder (all colour types, bit depths 1–16, palettes, tRNS transparency, Adam7
// interlacing) to 8-bit grey or RGB samples plus an alpha plane when the image has transparency.
// Written here rather than left to pdfkit because pdfkit decodes PNGs with alpha asynchronously
// and throws from a callback on bad data (an uncatchable crash); this one is synchronous and
// reports bad input as a PngError. Size limits guard against decompression bombs.

import { inflateSync } from 'node:zlib';

export class PngError extends Error {}

export interface DecodedImage {
  width: number;
  height: number;
  /** 1 (grey) or 3 (RGB) samples per pixel, 8 bits each, rows top to bottom. */
  channels: 1 | 3;
  pixels: Uint8Array;
  /** One 8-bit alpha sample per pixel; null when every pixel is opaque. */
  alpha: Uint8Array | null;
}

/** Largest image decoded (pixels): 40 megapixels, e.g. 8000 × 5000. */
export const MAX_PNG_PIXELS = 40_000_000;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(b: Uint8Array): boolean {
  return b.length >= 8 && SIGNATURE.every((v, i) => b[i] === v);
}

interface Header {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlaced: boolean;
}

/** Samples per pixel of each colour type. */
const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

const u32 = (b: Uint8Array, o: number): number =>
  (((b[o] ?? 0) << 24) | ((b[o + 1] ?? 0) << 16) | ((b[o + 2] ?? 0) << 8) | (b[o + 3] ?? 0)) >>> 0;
const u16 = (b: Uint8Array, o: number): number => ((b[o] ?? 0) << 8) | (b[o + 1] ?? 0);

interface Chunks {
  header: Header;
  palette: Uint8Array | null;
  trns: Uint8Array | null;
  idat: Buffer;
}

function readChunks(b: Uint8Array): Chunks {
  if (!isPng(b)) throw new PngError('not a PNG file');
  let pos = 8;
  let header: Header | undefined;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  while (pos + 12 <= b.length) {
    const len = u32(b, pos);
    const type = String.fromCharCode(b[pos + 4] ?? 0, b[pos + 5] ?? 0, b[pos + 6] ?? 0, b[pos + 7] ?? 0);
    const start = pos + 8;
    if (len > b.length - start - 4) throw new PngError(`PNG chunk ${type} runs past the end of the file`);
    const data = b.subarray(start, start + len);
    pos = start + len + 4;
    if (type === 'IHDR') {
      if (len < 13) throw new PngError('PNG header is too short');
      header = {
        width: u32(data, 0),
        height: u32(data, 4),
        depth: data[8] ?? 0,
        colorType: data[9] ?? 0,
        interlaced: data[12] === 1,
      };
      if ((data[10] ?? 0) !== 0 || (data[11] ?? 0) !== 0 || (data[12] ?? 0) > 1)
        throw new PngError('PNG uses an unknown compression, filter or interlace method');
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') trns = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
  }
  if (!header) throw new PngError('PNG has no header');
  const { width, height, depth, colorType } = header;
  if (!(colorType in SAMPLES) || !(DEPTHS[colorType] ?? []).includes(depth))
    throw new PngError(`PNG colour type ${colorType} with bit depth ${depth} is not valid`);
  if (width === 0 || height === 0) throw new PngError('PNG has no pixels');
  if (width * height > MAX_PNG_PIXELS) throw new PngError(`PNG is too large (${width} × ${height} pixels)`);
  if (colorType === 3 && (!palette || palette.length < 3)) throw new PngError('PNG has no palette');
  if (idat.length === 0) throw new PngError('PNG has no image data');
  return { header, palette, trns, idat: Buffer.concat(idat) };
}

/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7: [number, number, number, number][] = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

interface Pass {
  xs: number;
  ys: number;
  dx: number;
  dy: number;
  w: number;
  h: number;
}

function passes(h: Header): Pass[] {
  if (!h.interlaced) return [{ xs: 0, ys: 0, dx: 1, dy: 1, w: h.width, h: h.height }];
  return ADAM7.map(([xs, ys, dx, dy]) => ({
    xs,
    ys,
    dx,
    dy,
    w: Math.ceil((h.width - xs) / dx),
    h: Math.ceil((h.height - ys) / dy),
  })).filter((p) => p.w > 0 && p.h > 0);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Reverses the row filters of one pass; returns its rows without the filter bytes. */
function unfilter(data: Uint8Array, offset: number, rows: number, rowBytes: number, bpp: number): Uint8Array {
  const out = new Uint8Array(rows * rowBytes);
  for (let y = 0; y < rows; y++) {
    const f = data[offset + y * (rowBytes + 1)] ?? 0;
    const src = offset + y * (rowBytes + 1) + 1;
    const row = y * rowBytes;
    const prev = row - rowBytes;
    for (let x = 0; x < rowBytes; x++) {
      const raw = data[src + x] ?? 0;
      const a = x >= bpp ? (out[row + x - bpp] ?? 0) : 0;
      const b = y > 0 ? (out[prev + x] ?? 0) : 0;
      const c = y > 0 && x >= bpp ? (out[prev + x - bpp] ?? 0) : 0;
      let v: number;
      switch (f) {
        case 0:
          v = raw;
          break;
        case 1:
          v = raw + a;
          break;
        case 2:
          v = raw + b;
          break;
        case 3:
          v = raw + ((a + b) >> 1);
          break;
        case 4:
          v = raw + paeth(a, b, c);
          break;
        default:
          throw new PngError(`PNG row filter ${f} is not valid`);
      }
      out[row + x] = v & 0xff;
    }
  }
  return out;
}

/** Decodes a PNG file. Throws PngError for anything it cannot read. */
export function decodePng(bytes: Uint8Array): DecodedImage {
  const { header, palette, trns, idat } = readChunks(bytes);
  const { width, height, depth, colorType } = header;
  const samples = SAMPLES[colorType] as number;
  const bitsPerPixel = samples * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const ps = passes(header);
  const expected = ps.reduce((n, p) => n + p.h * (1 + Math.ceil((p.w * bitsPerPixel) / 8)), 0);
  let raw: Buffer;
  try {
    raw = inflateSync(idat, { maxOutputLength: expected + 1024 });
  } catch (e) {
    throw new PngError(`PNG image data cannot be decompressed (${(e as Error).message})`);
  }
  if (raw.length < expected) throw new PngError('PNG image data is truncated');

  const gray = colorType === 0 || colorType === 4;
  const channels: 1 | 3 = gray ? 1 : 3;
  const pixels = new Uint8Array(width * height * channels);
  const alpha = new Uint8Array(width * height).fill(255);
  let hasAlpha = false;
  const maxSample = (1 << depth) - 1;
  const scale = (v: number): number => (depth === 16 ? v >> 8 : depth === 8 ? v : Math.round((v * 255) / maxSample));
  const trnsGray = colorType === 0 && trns && trns.length >= 2 ? u16(trns, 0) : -1;
  const trnsRgb = colorType === 2 && trns && trns.length >= 6 ? [u16(trns, 0), u16(trns, 2), u16(trns, 4)] : null;

  let offset = 0;
  for (const p of ps) {
    const rowBytes = Math.ceil((p.w * bitsPerPixel) / 8);
    const rows = unfilter(raw, offset, p.h, rowBytes, bpp);
    offset += p.h * (rowBytes + 1);
    const sample = (rowStart: number, index: number): number => {
      if (depth === 8) return rows[rowStart + index] ?? 0;
      if (depth === 16) return u16(rows, rowStart + index * 2);
      const bit = index * depth;
      const byte = rows[rowStart + (bit >> 3)] ?? 0;
      return (byte >> (8 - depth - (bit & 7))) & maxSample;
    };
    for (let y = 0; y < p.h; y++) {
      const rowStart = y * rowBytes;
      const iy = p.ys + y * p.dy;
      for (let x = 0; x < p.w; x++) {
        const i = iy * width + p.xs + x * p.dx;
        const s0 = sample(rowStart, x * samples);
        let a = 255;
        if (colorType === 3) {
          const pal = palette as Uint8Array;
          const o = s0 * 3;
          pixels[i * 3] = pal[o] ?? 0;
          pixels[i * 3 + 1] = pal[o + 1] ?? 0;
          pixels[i * 3 + 2] = pal[o + 2] ?? 0;
          if (trns && s0 < trns.length) a = trns[s0] ?? 255;
        } else if (gray) {
          pixels[i] = scale(s0);
          if (colorType === 4) a = scale(sample(rowStart, x * samples + 1));
          else if (s0 === trnsGray) a = 0;
        } else {
          const s1 = sample(rowStart, x * samples + 1);
          const s2 = sample(rowStart, x * samples + 2);
          pixels[i * 3] = scale(s0);
          pixels[i * 3 + 1] = scale(s1);
          pixels[i * 3 + 2] = scale(s2);
          if (colorType === 6) a = scale(sample(rowStart, x * samples + 3));
          else if (trnsRgb && s0 === trnsRgb[0] && s1 === trnsRgb[1] && s2 === trnsRgb[2]) a = 0;
        }
        if (a !== 255) {
          alpha[i] = a;
          hasAlpha = true;
        }
      }
    }
  }
  return { width, height, channels, pixels, alpha: hasAlpha ? alpha : null };
}
