// PolygonObject and PolyLineObject: the points (both of FastReport's formats) relative
// to the object's centre, Bézier segments where a point has control points, a polygon closed and
// filled; the Polygon demo printed with no warning and its fills where its shapes are.

import { describe, expect, it } from 'vitest';
import type { PreparedPath } from '../../../src/report/engine/prepared.js';
import { renderReport } from '../../../src/report/index.js';
import { rasterize } from '../../support/barcode-readers.js';
import { POPPLER_AVAILABLE } from '../../support/poppler.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { runTemplate } from './helpers.js';

const page = (objects: string): string =>
  `<Report><Dictionary/><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="300">${objects}` +
  '</ReportTitleBand></ReportPage></Report>';

function paths(xml: string): PreparedPath[] {
  const r = runTemplate(page(xml));
  return r.prepared.pages.flatMap((p) => p.items).filter((i): i is PreparedPath => i.kind === 'path');
}

describe('PolygonObject and PolyLineObject', () => {
  it('place the points relative to CenterX/CenterY (old format), and close a polygon', () => {
    const [p] = paths(
      `<PolygonObject Name="A" Left="10" Top="20" Width="40" Height="30" CenterX="20" CenterY="0" ` +
        `PolyPoints="0\\0\\0|20\\30\\1|-20\\30\\1"/>`,
    );
    expect(p).toMatchObject({ width: 40, height: 30, closed: true, d: 'M20 0L40 30L0 30L20 0Z' });
  });

  it("draw a polyline open, without fill, and a curve's missing control point a third of the way", () => {
    const [p] = paths(
      `<PolyLineObject Name="L" Width="90" Height="30" PolyPoints_v2="0/0/R/30/0|90/0|90/30" ` + `Fill.Color="Red"/>`,
    );
    // 0,0 → 90,0: the first control point is 0,0 + (30, 0); the second, missing, is a third of
    // the way back from 90,0: 60,0.
    expect(p).toMatchObject({ closed: false, d: 'M0 0C30 0 60 0 90 0L90 30' });
    expect(p?.fill).toMatchObject({ kind: 'Solid', color: { a: 0 } });
  });

  it('print nothing for fewer than two points (FastReport draws a cross-hair only when designing)', () => {
    expect(paths('<PolygonObject Name="E" Width="10" Height="10" PolyPoints_v2="5/5"/>')[0]?.d).toBe('');
  });
});

const DEMO = 'Reports/Polygon.frx';
describe.runIf(POPPLER_AVAILABLE)('the Polygon demo', () => {
  it('prints every shape with no warning, filled inside its outline and not outside', async () => {
    const r = await renderReport({ template: demoFile(DEMO), data: {}, format: 'pdf' });
    expect(r.warnings).toEqual([]);
    const items = r.prepared.pages[0]?.items.filter((i): i is PreparedPath => i.kind === 'path') ?? [];
    expect(items).toHaveLength(11);
    const img = rasterize(r.output as Buffer, 1, 96);
    const grey = (x: number, y: number): number => img.data[Math.round(y) * img.width + Math.round(x)] ?? 255;
    const star = items.find((i) => i.name === 'Polygon7');
    const outline = items.find((i) => i.name === 'Polygon1');
    if (!star || !outline) throw new Error('missing shapes');
    // The star's centre is filled (solid "Highlight" blue), its box's corner is not.
    expect(grey(star.x + 50, star.y + 50)).toBeLessThan(160);
    expect(grey(star.x + 3, star.y + 3)).toBeGreaterThan(240);
    // An unfilled pentagon: white inside.
    expect(grey(outline.x + 50, outline.y + 50)).toBeGreaterThan(240);
  });
});
