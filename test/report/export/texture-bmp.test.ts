// Texture fills in the PDF: each copy of the image at the fill's ImageWidth ×
// ImageHeight from its offset, one copy for Clamp, repeated for Tile, every other copy mirrored
// in the Flip modes; and Windows bitmaps (BMP, ICO), which were left out of the PDF, decoded.
// Checked by the pixels of the rendered page.

import { describe, expect, it } from 'vitest';
import { decodeBmp, decodeIco } from '../../../src/report/export/pdf/bmp.js';
import { renderReport } from '../../../src/report/index.js';
import { rasterizeRgb } from '../../support/barcode-readers.js';
import { POPPLER_AVAILABLE } from '../../support/poppler.js';

/** A 24-bit BMP, bottom-up, of `w` × `h` pixels given top row first as [r, g, b]. */
function bmp(rows: [number, number, number][][]): Buffer {
  const h = rows.length;
  const w = rows[0]?.length ?? 0;
  const stride = Math.ceil((w * 3) / 4) * 4;
  const b = Buffer.alloc(54 + stride * h);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(w, 18);
  b.writeInt32LE(h, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  for (const [y, row] of rows.entries())
    for (const [x, [r, g, bl]] of row.entries()) b.set([bl, g, r], 54 + (h - 1 - y) * stride + x * 3);
  return b;
}

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];
// Left half red, right half blue: a mirrored copy shows blue first.
const HALVES = bmp([[RED, BLUE]]).toString('base64');

describe('Windows bitmaps', () => {
  it('decode BMP pixels top row first, and an icon wrapping the same bitmap with its AND mask', () => {
    const img = decodeBmp(
      bmp([
        [RED, BLUE],
        [BLUE, RED],
      ]),
    );
    expect([img.width, img.height, img.channels]).toEqual([2, 2, 3]);
    expect([...img.pixels]).toEqual([255, 0, 0, 0, 0, 255, 0, 0, 255, 255, 0, 0]);
    // An ICO: header, one directory entry, then the DIB (height doubled) and a mask hiding the
    // second pixel of the top row.
    const dib = bmp([
      [RED, BLUE],
      [BLUE, RED],
    ]).subarray(14);
    const header = Buffer.from(dib.subarray(0, 40));
    header.writeInt32LE(4, 8);
    const mask = Buffer.from([0, 0, 0, 0, 0x40, 0, 0, 0]); // rows bottom-up: bottom row, then top
    const image = Buffer.concat([header, dib.subarray(40), mask]);
    const ico = Buffer.alloc(22);
    ico.writeUInt16LE(1, 2);
    ico.writeUInt16LE(1, 4);
    ico.writeUInt32LE(image.length, 14);
    ico.writeUInt32LE(22, 18);
    const icon = decodeIco(Buffer.concat([ico, image]));
    if ('png' in icon) throw new Error('not a DIB');
    expect([...(icon.alpha ?? [])]).toEqual([255, 0, 255, 255]);
  });

  it('refuse what they cannot decode with a clear error', () => {
    const b = bmp([[RED]]);
    b.writeUInt32LE(1, 30); // RLE8 compression
    expect(() => decodeBmp(b)).toThrow(/compressed bitmaps/);
    expect(() => decodeBmp(bmp([[RED]]).subarray(0, 40))).toThrow();
  });
});

describe.runIf(POPPLER_AVAILABLE)('Texture fills in the PDF', () => {
  async function render(wrap: string): Promise<(x: number, y: number) => [number, number, number]> {
    const t =
      '<Report><Dictionary/><ReportPage Name="P" LeftMargin="0" TopMargin="0"><ReportTitleBand Name="T" ' +
      `Width="718.2" Height="100"><ShapeObject Name="S" Width="80" Height="20" Border.Lines="None" Fill="Texture" ` +
      `Fill.ImageData="${HALVES}" Fill.ImageWidth="20" Fill.ImageHeight="10" Fill.WrapMode="${wrap}" ` +
      'Fill.ImageOffsetX="0" Fill.ImageOffsetY="0" Color="Transparent"/></ReportTitleBand></ReportPage></Report>';
    const r = await renderReport({ template: t, data: {}, format: 'pdf' });
    expect(r.warnings).toEqual([]);
    const img = rasterizeRgb(r.output as Buffer, 1, 96);
    return (x, y) => {
      const i = (y * img.width + x) * 3;
      return [img.data[i] ?? 0, img.data[i + 1] ?? 0, img.data[i + 2] ?? 0];
    };
  }
  const red = (p: [number, number, number]) => p[0] > 200 && p[2] < 60;
  const blue = (p: [number, number, number]) => p[2] > 200 && p[0] < 60;

  it('draws one copy for Clamp, copies for Tile, every other one mirrored for TileFlipX', async () => {
    const clamp = await render('Clamp');
    expect([red(clamp(4, 4)), blue(clamp(15, 4))]).toEqual([true, true]);
    // Outside the one copy: nothing.
    expect(clamp(25, 4)).toEqual([255, 255, 255]);
    expect(clamp(4, 15)).toEqual([255, 255, 255]);
    const tile = await render('Tile');
    expect([red(tile(24, 4)), blue(tile(35, 4)), red(tile(4, 15))]).toEqual([true, true, true]);
    const flip = await render('TileFlipX');
    // The second copy mirrored: blue first.
    expect([red(flip(4, 4)), blue(flip(24, 4)), red(flip(35, 4)), red(flip(44, 4))]).toEqual([true, true, true, true]);
  });
});
