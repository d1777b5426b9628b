// Page watermarks: the text centred on the paper,
// turned along the paper's diagonal, over the page's objects by default; the image behind them by
// default; on every page of their report page.

import { describe, expect, it } from 'vitest';
import type { PreparedPicture, PreparedText } from '../../../src/report/engine/prepared.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { nwindDataSet, runTemplate } from './helpers.js';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

const page = (attrs: string): string =>
  `<Report><Dictionary/><ReportPage Name="P" ${attrs}><DataBand Name="D" Width="718.2" Height="600" RowCount="3">` +
  '<TextObject Name="X" Width="100" Height="20" Text="[Row#]"/></DataBand></ReportPage></Report>';

describe('watermarks', () => {
  it('print the text over every page, along the forward diagonal, centred', () => {
    const r = runTemplate(page('Watermark.Enabled="true" Watermark.Text="DRAFT"'));
    expect(r.warnings).toEqual([]);
    expect(r.prepared.pages).toHaveLength(3);
    for (const p of r.prepared.pages) {
      const last = p.items[p.items.length - 1] as PreparedText;
      expect(last).toMatchObject({ kind: 'text', text: 'DRAFT', x: 0, y: 0, width: p.widthPx, height: p.heightPx });
      // A4 portrait: the diagonal rises at 54° (whole degrees, as FastReport).
      expect(last.angle).toBe(360 - 54);
      expect(last.font).toMatchObject({ family: 'Arial', sizePt: 60 });
      expect(last.color).toEqual({ r: 128, g: 128, b: 128, a: 40 });
      // Centred: the line's middle at the frame's middle.
      const line = last.lines[0];
      expect((line?.x ?? 0) + (line?.width ?? 0) / 2).toBeCloseTo(last.frame.width / 2, 5);
    }
  });

  it('put the text behind with ShowTextOnTop false, and the image behind, sized by ImageSize', () => {
    const r = runTemplate(
      page(
        'Watermark.Enabled="true" Watermark.Text="X" Watermark.ShowTextOnTop="false" Watermark.TextRotation=' +
          `"Horizontal" Watermark.Image="${PNG_1PX}" Watermark.ImageSize="Stretch" Watermark.ImageTransparency="0.5"`,
      ),
    );
    const [image, text] = r.prepared.pages[0]?.items ?? [];
    expect(image).toMatchObject({ kind: 'picture', mime: 'image/png', sizeMode: 'StretchImage', transparency: 0.5 });
    expect((image as PreparedPicture).bytes?.length).toBeGreaterThan(0);
    expect(text).toMatchObject({ kind: 'text', text: 'X', angle: 0 });
  });

  it('are left out of pages of other report pages, and when not enabled', () => {
    const r = runTemplate(page('Watermark.Text="DRAFT"'));
    expect(r.prepared.pages.flatMap((p) => p.items).some((i) => i.name === 'P.Watermark')).toBe(false);
  });
});

describe('the Watermark demo', () => {
  it('prints CONFIDENTIAL over each page with no warning', () => {
    const r = runTemplate(demoFile('Reports/Watermark.frx'), { datasets: { NorthWind: nwindDataSet() } });
    expect(r.warnings).toEqual([]);
    for (const p of r.prepared.pages)
      expect(p.items[p.items.length - 1]).toMatchObject({ kind: 'text', text: 'CONFIDENTIAL', color: { a: 71 } });
  });
});
