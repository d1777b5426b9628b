// GET /favicon.svg and /favicon.ico: the instance's icon, a page with ruled lines (a report) on a
// blue square. Drawn here from one list of rectangles: the SVG names them, the ICO (what browsers
// ask for at /favicon.ico without being told) is the same 16×16 drawing as 32-bit pixels. Public
// like the pages that link it (/ and /admin/), and cacheable for a day: the URLs carry no hash.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
  rgb: readonly [number, number, number];
}

const SIZE = 16;
const BLUE = [0x2f, 0x5d, 0x8a] as const;
const PAPER = [0xff, 0xff, 0xff] as const;
const INK = [0x8f, 0xa9, 0xc4] as const;

/** Painted in order, later over earlier, on a transparent 16×16 square. */
const DRAWING: readonly Rect[] = [
  { x: 0, y: 0, w: 16, h: 16, rgb: BLUE },
  { x: 3, y: 2, w: 10, h: 12, rgb: PAPER },
  { x: 5, y: 4, w: 6, h: 1, rgb: BLUE },
  { x: 5, y: 7, w: 6, h: 1, rgb: INK },
  { x: 5, y: 9, w: 6, h: 1, rgb: INK },
  { x: 5, y: 11, w: 4, h: 1, rgb: INK },
];

const hex = (rgb: readonly number[]): string => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

export const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}">` +
  DRAWING.map((r) => `<rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" fill="${hex(r.rgb)}"/>`).join('') +
  '</svg>\n';

/** The drawing's colour at a pixel, or null where nothing is painted. */
function pixel(x: number, y: number): readonly [number, number, number] | null {
  let colour: readonly [number, number, number] | null = null;
  for (const r of DRAWING) if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h) colour = r.rgb;
  return colour;
}

/**
 * An ICO file of one 16×16 image: the directory (6 bytes), its entry (16), then a BMP without
 * its file header: BITMAPINFOHEADER (40, height doubled for the two masks), BGRA rows bottom-up,
 * and the 1-bit AND mask (rows padded to 4 bytes; all clear, the alpha channel decides).
 */
export function buildFaviconIco(): Buffer {
  const maskRow = 4;
  const pixels = SIZE * SIZE * 4;
  const image = 40 + pixels + maskRow * SIZE;
  const out = Buffer.alloc(6 + 16 + image);
  out.writeUInt16LE(0, 0); // reserved
  out.writeUInt16LE(1, 2); // type: icon
  out.writeUInt16LE(1, 4); // one image
  out.writeUInt8(SIZE, 6);
  out.writeUInt8(SIZE, 7);
  out.writeUInt16LE(1, 10); // colour planes
  out.writeUInt16LE(32, 12); // bits per pixel
  out.writeUInt32LE(image, 14);
  out.writeUInt32LE(22, 18); // where the image starts
  out.writeUInt32LE(40, 22); // BITMAPINFOHEADER's size
  out.writeInt32LE(SIZE, 26);
  out.writeInt32LE(SIZE * 2, 30);
  out.writeUInt16LE(1, 34);
  out.writeUInt16LE(32, 36);
  out.writeUInt32LE(pixels + maskRow * SIZE, 42); // image size (compression at 38 stays 0)
  let at = 62;
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++, at += 4) {
      const c = pixel(x, y);
      if (c) out.set([c[2], c[1], c[0], 0xff], at);
    }
  }
  return out;
}

const FAVICON_ICO = buildFaviconIco();
const CACHE = 'public, max-age=86400';
const Binary = (type: string) => ({ description: 'The icon', content: { [type]: { schema: { type: 'string' } } } });

export const faviconRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = { auth: 'none' as const };
  const tags = ['operations'];
  app.get('/favicon.ico', {
    config,
    schema: {
      tags,
      summary: "The instance's icon, 16×16 ICO (no credentials needed)",
      response: { 200: Binary('image/x-icon') },
    },
    handler: async (_request, reply) =>
      (reply as FastifyReply)
        .type('image/x-icon')
        .header('cache-control', CACHE)
        .header('x-content-type-options', 'nosniff')
        .send(FAVICON_ICO),
  });
  app.get('/favicon.svg', {
    config,
    schema: {
      tags,
      summary: "The instance's icon, SVG (no credentials needed)",
      response: { 200: Binary('image/svg+xml') },
    },
    handler: async (_request, reply) =>
      (reply as FastifyReply)
        .type('image/svg+xml')
        .header('cache-control', CACHE)
        .header('x-content-type-options', 'nosniff')
        // An SVG opened on its own is a document: it may run nothing and load nothing.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(FAVICON_SVG),
  });
};
