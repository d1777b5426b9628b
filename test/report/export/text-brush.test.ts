// A text in a gradient brush: the PDF clips
// the brush to the glyphs, the HTML clips each line's part of one frame-sized background to its
// text. Both are checked by their pixels: red at the text's start, blue at its end.

import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../../../src/report/export/pdf/png.js';
import { renderReport } from '../../../src/report/index.js';
import { rasterizeRgb } from '../../support/barcode-readers.js';
import { announceChromiumSkip, CHROMIUM, CHROMIUM_LAUNCH_ARGS } from '../../support/chromium.js';
import { POPPLER_AVAILABLE } from '../../support/poppler.js';

announceChromiumSkip('gradient text browser test');

const TEMPLATE =
  '<Report><Dictionary/><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="80"><TextObject ' +
  'Name="X" Width="400" Height="60" Text="MMMMMMMMMM" Font="Arial, 36pt, style=Bold" TextFill="LinearGradient" ' +
  'TextFill.StartColor="Red" TextFill.EndColor="Blue" TextFill.Angle="0" TextFill.Focus="1"/></ReportTitleBand>' +
  '</ReportPage></Report>';

type Pixel = [number, number, number];

/** The inked pixels' mean colour in a vertical strip [x0, x1) of rows [y0, y1). */
function meanInk(px: (x: number, y: number) => Pixel, x0: number, x1: number, y0: number, y1: number): Pixel {
  const sum: Pixel = [0, 0, 0];
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const p = px(x, y);
      if (p[0] + p[1] + p[2] > 600) continue;
      for (const i of [0, 1, 2] as const) sum[i] += p[i];
      n++;
    }
  expect(n).toBeGreaterThan(20);
  return sum.map((v) => v / n) as Pixel;
}

function redThenBlue(px: (x: number, y: number) => Pixel, left: number, top: number, k: number): void {
  // The text "MMMMMMMMMM" at 36 pt spans about 330 px from the frame's left.
  const start = meanInk(px, left + 4 * k, left + 40 * k, top, top + 55 * k);
  const end = meanInk(px, left + 280 * k, left + 320 * k, top, top + 55 * k);
  expect(start[0]).toBeGreaterThan(start[2] + 80);
  expect(end[2]).toBeGreaterThan(end[0] + 80);
}

describe('text in a gradient brush', () => {
  it.runIf(POPPLER_AVAILABLE)('is red at its start and blue at its end in the PDF', async () => {
    const r = await renderReport({ template: TEMPLATE, data: {}, format: 'pdf' });
    const item = r.prepared.pages[0]?.items.find((i) => i.name === 'X');
    if (!item) throw new Error('no text');
    const img = rasterizeRgb(r.output as Buffer, 1, 96);
    const px = (x: number, y: number): Pixel => {
      const i = (Math.round(y) * img.width + Math.round(x)) * 3;
      return [img.data[i] ?? 255, img.data[i + 1] ?? 255, img.data[i + 2] ?? 255];
    };
    redThenBlue(px, item.x, item.y, 1);
  });

  it.runIf(CHROMIUM !== undefined)('is red at its start and blue at its end in the HTML (Chromium)', async () => {
    const r = await renderReport({ template: TEMPLATE, data: {}, format: 'html' });
    const item = r.prepared.pages[0]?.items.find((i) => i.name === 'X');
    if (!item) throw new Error('no text');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_LAUNCH_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 400 } });
      await page.setContent(String(r.output), { waitUntil: 'load' });
      const origin = (await page.evaluate(
        `(() => { const r = document.querySelector('.p').getBoundingClientRect(); return { x: r.left, y: r.top }; })()`,
      )) as { x: number; y: number };
      const png = decodePng(await page.screenshot({ clip: { x: origin.x, y: origin.y, width: 800, height: 200 } }));
      const px = (x: number, y: number): Pixel => {
        const i = (Math.round(y) * png.width + Math.round(x)) * png.channels;
        return png.channels === 3
          ? [png.pixels[i] ?? 255, png.pixels[i + 1] ?? 255, png.pixels[i + 2] ?? 255]
          : [png.pixels[i] ?? 255, png.pixels[i] ?? 255, png.pixels[i] ?? 255];
      };
      redThenBlue(px, item.x, item.y, 1);
    } finally {
      await browser.close();
    }
  });
});
