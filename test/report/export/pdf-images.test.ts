// The PDF exporter's image readers and geometry, without PDF tools: the PNG decoder against
// images encoded here (every colour type and bit depth, all five row filters, Adam7 interlacing,
// palettes and tRNS), hostile PNG and JPEG input, JPEG frame headers, and the SizeMode placement.

import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readJpegInfo, JpegError } from '../../../src/report/export/pdf/jpeg.js';
import { decodePng, PngError } from '../../../src/report/export/pdf/png.js';
import { placeImage } from '../../../src/report/export/pdf/pictures.js';
import { runFixture } from '../engine/helpers.js';

// --------------------------------------------------------------------------------------------
// A PNG encoder for the tests (independent of the decoder: it filters, the decoder unfilters).

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = (CRC_TABLE[(c ^ x) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

interface Source {
  width: number;
  height: number;
  colorType: 0 | 2 | 3 | 4 | 6;
  depth: 1 | 2 | 4 | 8 | 16;
  /** Samples per pixel, row-major, each in 0 … 2^depth − 1. */
  samples: number[];
  palette?: number[];
  trns?: number[];
  interlace?: boolean;
}

const SAMPLES = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as const;
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function packRow(s: Source, xs: number[], y: number): Uint8Array {
  const n = SAMPLES[s.colorType];
  const bits = n * s.depth;
  const out = new Uint8Array(Math.ceil((xs.length * bits) / 8));
  let bit = 0;
  for (const x of xs) {
    for (let k = 0; k < n; k++) {
      const v = s.samples[(y * s.width + x) * n + k] as number;
      if (s.depth === 16) {
        out[bit >> 3] = v >> 8;
        out[(bit >> 3) + 1] = v & 0xff;
      } else if (s.depth === 8) out[bit >> 3] = v;
      else out[bit >> 3] = (out[bit >> 3] as number) | (v << (8 - s.depth - (bit & 7)));
      bit += s.depth;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Rows filtered with types 0,1,2,3,4 in turn. */
function filterRows(rows: Uint8Array[], bpp: number): Buffer {
  const parts: Uint8Array[] = [];
  rows.forEach((row, y) => {
    const f = y % 5;
    const prev = y > 0 ? (rows[y - 1] as Uint8Array) : new Uint8Array(row.length);
    const out = new Uint8Array(row.length + 1);
    out[0] = f;
    for (let x = 0; x < row.length; x++) {
      const a = x >= bpp ? (row[x - bpp] as number) : 0;
      const b = prev[x] as number;
      const c = x >= bpp ? (prev[x - bpp] as number) : 0;
      const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
      out[x + 1] = ((row[x] as number) - pred) & 0xff;
    }
    parts.push(out);
  });
  return Buffer.concat(parts);
}

function encodePng(s: Source): Buffer {
  const bpp = Math.max(1, (SAMPLES[s.colorType] * s.depth) >> 3);
  const passes = s.interlace ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const data: Buffer[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    const xs: number[] = [];
    for (let x = x0; x < s.width; x += dx) xs.push(x);
    const rows: Uint8Array[] = [];
    for (let y = y0; y < s.height; y += dy) if (xs.length > 0) rows.push(packRow(s, xs, y));
    if (rows.length > 0) data.push(filterRows(rows, bpp));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(s.width, 0);
  ihdr.writeUInt32BE(s.height, 4);
  ihdr[8] = s.depth;
  ihdr[9] = s.colorType;
  ihdr[12] = s.interlace ? 1 : 0;
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (s.palette) parts.push(chunk('PLTE', Uint8Array.from(s.palette)));
  if (s.trns) parts.push(chunk('tRNS', Uint8Array.from(s.trns)));
  parts.push(chunk('IDAT', deflateSync(Buffer.concat(data))), chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(parts);
}

/** A deterministic pseudo-random sample source. */
function samples(n: number, max: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return (x >>> 8) % (max + 1);
  });
}

const to8 = (v: number, depth: number): number =>
  depth === 16 ? v >> 8 : depth === 8 ? v : Math.round((v * 255) / ((1 << depth) - 1));

// --------------------------------------------------------------------------------------------

describe('PNG decoder', () => {
  const W = 13;
  const H = 11;
  const cases: [number, number, boolean][] = [];
  for (const [ct, depths] of [
    [0, [1, 2, 4, 8, 16]],
    [2, [8, 16]],
    [3, [1, 2, 4, 8]],
    [4, [8, 16]],
    [6, [8, 16]],
  ] as const) {
    for (const d of depths) for (const interlace of [false, true]) cases.push([ct, d, interlace]);
  }

  it.each(cases)('colour type %i, %i bits, interlaced %s', (colorType, depth, interlace) => {
    const ct = colorType as Source['colorType'];
    const n = SAMPLES[ct];
    const max = (1 << depth) - 1;
    const src: Source = {
      width: W,
      height: H,
      colorType: ct,
      depth: depth as Source['depth'],
      samples: samples(W * H * n, ct === 3 ? Math.min(max, 5) : max, depth * 31 + ct),
      interlace,
    };
    if (ct === 3) src.palette = samples(6 * 3, 255, 7);
    const img = decodePng(encodePng(src));
    expect([img.width, img.height, img.channels]).toEqual([W, H, ct === 0 || ct === 4 ? 1 : 3]);
    for (let i = 0; i < W * H; i++) {
      const s = src.samples.slice(i * n, i * n + n);
      if (ct === 3) {
        const p = (s[0] as number) * 3;
        expect([...img.pixels.subarray(i * 3, i * 3 + 3)]).toEqual(src.palette?.slice(p, p + 3));
      } else if (ct === 0 || ct === 4) {
        expect(img.pixels[i]).toBe(to8(s[0] as number, depth));
      } else {
        expect([...img.pixels.subarray(i * 3, i * 3 + 3)]).toEqual(s.slice(0, 3).map((v) => to8(v, depth)));
      }
      const alpha = ct === 4 ? to8(s[1] as number, depth) : ct === 6 ? to8(s[3] as number, depth) : 255;
      expect(img.alpha ? img.alpha[i] : 255).toBe(alpha);
    }
  });

  it('reads tRNS: palette alphas, a transparent grey, a transparent RGB colour', () => {
    const pal = decodePng(
      encodePng({
        width: 3,
        height: 1,
        colorType: 3,
        depth: 8,
        samples: [0, 1, 2],
        palette: [255, 0, 0, 0, 255, 0, 0, 0, 255],
        trns: [0, 128],
      }),
    );
    expect([...(pal.alpha ?? [])]).toEqual([0, 128, 255]);
    const grey = decodePng(
      encodePng({
        width: 2,
        height: 1,
        colorType: 0,
        depth: 16,
        samples: [1000, 2000],
        trns: [1000 >> 8, 1000 & 0xff],
      }),
    );
    expect([...(grey.alpha ?? [])]).toEqual([0, 255]);
    const rgb = decodePng(
      encodePng({ width: 2, height: 1, colorType: 2, depth: 8, samples: [1, 2, 3, 4, 5, 6], trns: [0, 4, 0, 5, 0, 6] }),
    );
    expect([...(rgb.alpha ?? [])]).toEqual([255, 0]);
    const opaque = decodePng(
      encodePng({ width: 2, height: 1, colorType: 6, depth: 8, samples: [1, 2, 3, 255, 4, 5, 6, 255] }),
    );
    expect(opaque.alpha).toBeNull();
  });

  it('rejects bad input with a PngError, never anything else', () => {
    const good = encodePng({ width: 4, height: 4, colorType: 2, depth: 8, samples: samples(48, 255, 3) });
    const bad: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['signature only', good.subarray(0, 8)],
      ['truncated in a chunk', good.subarray(0, 40)],
      [
        'truncated data',
        Buffer.concat([
          good.subarray(0, 33),
          chunk('IDAT', deflateSync(Buffer.alloc(5))),
          chunk('IEND', new Uint8Array(0)),
        ]),
      ],
      [
        'not zlib',
        Buffer.concat([
          good.subarray(0, 33),
          chunk('IDAT', Buffer.from('not zlib at all')),
          chunk('IEND', new Uint8Array(0)),
        ]),
      ],
      ['no palette', encodePng({ width: 1, height: 1, colorType: 3, depth: 8, samples: [0] })],
      [
        'bad filter',
        Buffer.concat([
          good.subarray(0, 33),
          chunk('IDAT', deflateSync(Buffer.alloc(4 * 13, 9))),
          chunk('IEND', new Uint8Array(0)),
        ]),
      ],
    ];
    const badDepth = Buffer.from(good);
    badDepth[24] = 3; // bit depth 3
    bad.push(['bad depth', badDepth]);
    const huge = Buffer.from(good);
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    bad.push(['too large', huge]);
    // A decompression bomb: 4 × 4 pixels declared, megabytes of zeros inflated.
    bad.push([
      'bomb',
      Buffer.concat([
        good.subarray(0, 33),
        chunk('IDAT', deflateSync(Buffer.alloc(8_000_000))),
        chunk('IEND', new Uint8Array(0)),
      ]),
    ]);
    for (const [what, b] of bad) expect(() => decodePng(b), what).toThrow(PngError);
  });
});

describe('JPEG frame header', () => {
  const photo = runFixture('Simple List.frx')
    .prepared.pages.flatMap((p) => p.items)
    .find((i) => i.kind === 'picture' && i.bytes && i.mime === 'image/jpeg');
  const jpeg = photo?.kind === 'picture' ? (photo.bytes as Uint8Array) : new Uint8Array(0);

  it('reads size and components of a real JPEG (an employee photo of nwind.xml)', () => {
    const info = readJpegInfo(jpeg);
    expect(info.components).toBe(3);
    if (photo?.kind === 'picture' && photo.imageWidth !== undefined)
      expect([info.width, info.height]).toEqual([photo.imageWidth, photo.imageHeight]);
  });

  it('rejects bad input with a JpegError', () => {
    const bad = [
      Buffer.alloc(0),
      Buffer.from([0xff, 0xd8, 0xff]),
      jpeg.subarray(0, 200),
      Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 8, 0, 0, 0, 10, 3, 0, 0, 0, 0, 0]),
    ];
    // 2 components: valid JPEG, no PDF colour space.
    bad.push(Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 8, 0, 10, 0, 10, 2, 0, 0, 0, 0, 0]));
    for (const b of bad) expect(() => readJpegInfo(b)).toThrow(JpegError);
  });
});

describe("SizeMode placement (the HTML exporter's object-fit)", () => {
  const area = { x: 10, y: 20, w: 200, h: 100 };
  it.each([
    ['Normal', { x: 10, y: 20, w: 50, h: 40 }],
    ['CenterImage', { x: 85, y: 50, w: 50, h: 40 }],
    ['StretchImage', area],
    ['AutoSize', area],
    ['Zoom', { x: 47.5, y: 20, w: 125, h: 100 }],
  ] as const)('%s', (mode, expected) => {
    expect(placeImage(mode, area, 50, 40)).toEqual(expected);
  });
});
