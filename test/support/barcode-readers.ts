// Real barcode readers for the barcode tests: zbar (Debian's zbar-tools, `zbarimg`) and ZXing
// (zxing-wasm, a dev dependency, for the 2-D symbologies zbar does not read: Data Matrix, PDF417,
// Aztec, MaxiCode, and GS1 DataBar Limited). Pages come from the PDF through poppler's pdftoppm as
// greyscale images, and each barcode is cropped out and read on its own.
//
// Without zbarimg the zbar checks are skipped with a visible message, unless REQUIRE_ZBAR=1 (as
// CI sets it) makes that an error; the same rule as REQUIRE_CHROMIUM.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from './executables.js';
import { runTool } from './poppler.js';

export const ZBARIMG = findExecutable('zbarimg');

if (!ZBARIMG) {
  const what = 'zbarimg not found in /usr/bin or on PATH (apt-get install zbar-tools)';
  if (process.env.REQUIRE_ZBAR === '1') throw new Error(`REQUIRE_ZBAR=1 but ${what}: barcodes cannot be decoded`);
  process.stderr.write(
    `\n*** barcode decoding with zbar SKIPPED: ${what} (set REQUIRE_ZBAR=1 to make this an error) ***\n\n`,
  );
}

/** An 8-bit greyscale image, row-major. */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

function parsePgm(buf: Buffer): Gray {
  // "P5" width height maxval, each followed by one whitespace, then the bytes.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, data: new Uint8Array(buf.subarray(header[0].length, header[0].length + width * height)) };
}

function toPgm(g: Gray): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${g.width} ${g.height}\n255\n`, 'latin1'), Buffer.from(g.data)]);
}

/** An 8-bit RGB image, row-major, 3 bytes a pixel. */
export interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A page of a PDF at `dpi`, in colour. */
export function rasterizeRgb(pdf: Buffer, page: number, dpi: number): Rgb {
  const dir = mkdtempSync(join(tmpdir(), 'pc-raster-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const r = runTool('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), join(dir, 'in.pdf')]);
    if (r.status !== 0) throw new Error(`pdftoppm failed: ${r.stderr}`);
    const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(r.stdout.subarray(0, 64).toString('latin1'));
    if (!header) throw new Error('not a binary PPM');
    const width = Number(header[1]);
    const height = Number(header[2]);
    const start = header[0].length;
    return { width, height, data: new Uint8Array(r.stdout.subarray(start, start + width * height * 3)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A page of a PDF at `dpi`, greyscale. */
export function rasterize(pdf: Buffer, page: number, dpi: number): Gray {
  const dir = mkdtempSync(join(tmpdir(), 'pc-raster-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const r = runTool('pdftoppm', [
      '-gray',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      join(dir, 'in.pdf'),
    ]);
    if (r.status !== 0) throw new Error(`pdftoppm failed: ${r.stderr}`);
    return parsePgm(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The part of an image inside a box given in px at 96 dpi (the prepared report's unit), on a
 *  white margin of `margin` image pixels (a symbol printed without a quiet zone gets one, and
 *  nothing next to the box gets in). */
export function crop(
  g: Gray,
  dpi: number,
  box: { x: number; y: number; width: number; height: number },
  margin = 40,
): Gray {
  const k = dpi / 96;
  const x0 = Math.max(0, Math.floor(box.x * k) - 1);
  const y0 = Math.max(0, Math.floor(box.y * k) - 1);
  const x1 = Math.min(g.width, Math.ceil((box.x + box.width) * k) + 1);
  const y1 = Math.min(g.height, Math.ceil((box.y + box.height) * k) + 1);
  const width = x1 - x0 + 2 * margin;
  const height = y1 - y0 + 2 * margin;
  const out = new Uint8Array(width * height).fill(255);
  for (let y = y0; y < y1; y++)
    out.set(g.data.subarray(y * g.width + x0, y * g.width + x1), (y - y0 + margin) * width + margin);
  return { width, height, data: out };
}

export interface Decoded {
  format: string;
  text: string;
}

/** Every symbol zbar finds in the image (UPC-A/E, EAN-2/5 and short ITF enabled): a greyscale
 *  image, or the bytes of a PNG. */
export function zbarRead(g: Gray | Buffer): Decoded[] {
  if (!ZBARIMG) throw new Error('zbarimg is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'pc-zbar-'));
  try {
    const file = join(dir, Buffer.isBuffer(g) ? 'in.png' : 'in.pgm');
    writeFileSync(file, Buffer.isBuffer(g) ? g : toPgm(g));
    const args = ['--nodbus', '-q', '--xml', '-Supca.enable', '-Supce.enable', '-Sean2.enable', '-Sean5.enable'];
    args.push('-Si25.min-length=0', '-Scode39.min-length=0', '-Scodabar.min-length=0', file);
    const r = spawnSync(ZBARIMG, args, { timeout: 60_000, encoding: 'utf8' });
    // Exit status 4: no symbol found.
    if (r.status !== 0 && r.status !== 4) throw new Error(`zbarimg failed (${r.status}): ${r.stderr}`);
    const out: Decoded[] = [];
    const symbols = /<symbol type='([^']+)'[^>]*>\s*<data( format='base64')?[^>]*><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g;
    for (const m of r.stdout.matchAll(symbols)) {
      const data = m[3] ?? '';
      out.push({ format: m[1] ?? '', text: m[2] ? Buffer.from(data, 'base64').toString('utf8') : data });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type ZxingReader = typeof import('zxing-wasm/reader');
let zxing: Promise<ZxingReader> | undefined;

// zxing-wasm fetches its .wasm from a CDN unless given the bytes: these come from node_modules.
async function zxingReader(): Promise<ZxingReader> {
  zxing ??= (async () => {
    const mod = await import('zxing-wasm/reader');
    const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    mod.prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
    return mod;
  })();
  return zxing;
}

/** Every symbol ZXing finds in the image (all formats, trying harder). */
export async function zxingRead(g: Gray): Promise<Decoded[]> {
  const { readBarcodes } = await zxingReader();
  const rgba = new Uint8ClampedArray(g.width * g.height * 4);
  for (let i = 0; i < g.data.length; i++) {
    const v = g.data[i] ?? 255;
    rgba[i * 4] = v;
    rgba[i * 4 + 1] = v;
    rgba[i * 4 + 2] = v;
    rgba[i * 4 + 3] = 255;
  }
  const found = await readBarcodes(
    { data: rgba, width: g.width, height: g.height, colorSpace: 'srgb' },
    { formats: [], tryHarder: true, maxNumberOfSymbols: 4 },
  );
  return found.filter((f) => f.isValid).map((f) => ({ format: f.format, text: f.text }));
}

/** The widths (image px) of the dark and light runs along row `y`, from the first dark pixel to
 *  the last: bar, space, bar, … */
export function runsAlongRow(g: Gray, y: number, threshold = 128): number[] {
  const row = g.data.subarray(y * g.width, (y + 1) * g.width);
  const first = row.findIndex((v) => v < threshold);
  let last = row.length - 1;
  while (last >= 0 && (row[last] ?? 255) >= threshold) last--;
  if (first < 0) return [];
  const runs: number[] = [];
  let dark = true;
  let n = 0;
  for (let x = first; x <= last; x++) {
    const d = (row[x] ?? 255) < threshold;
    if (d === dark) n++;
    else {
      runs.push(n);
      dark = d;
      n = 1;
    }
  }
  runs.push(n);
  return runs;
}

/** For each bar crossing row `y`: its top and bottom (image px), scanning its middle column. */
export function barExtents(g: Gray, y: number, threshold = 128): { top: number; bottom: number }[] {
  const runs = runsAlongRow(g, y, threshold);
  const row = g.data.subarray(y * g.width, (y + 1) * g.width);
  let x = row.findIndex((v) => v < threshold);
  const out: { top: number; bottom: number }[] = [];
  for (const [i, w] of runs.entries()) {
    if (i % 2 === 0) {
      const cx = x + Math.floor(w / 2);
      let top = y;
      while (top > 0 && (g.data[(top - 1) * g.width + cx] ?? 255) < threshold) top--;
      let bottom = y;
      while (bottom < g.height - 1 && (g.data[(bottom + 1) * g.width + cx] ?? 255) < threshold) bottom++;
      out.push({ top, bottom });
    }
    x += w;
  }
  return out;
}
