// Maps whose shapes are embedded in the template (ShapePolygon / ShapePolyLine / ShapePoint with
// ShapeData blobs and SpatialData), drawn without Mercator so the expected pixels are plain
// arithmetic; clipping to the object; the CSV table a caller supplies as text.

import { describe, expect, it } from 'vitest';
import type { PreparedPath } from '../../../src/report/engine/prepared.js';
import { TemplateError } from '../../../src/report/errors.js';
import { encodeShapeBlob } from '../../../src/report/map/shapes.js';
import { csvTemplate } from '../../support/named-file-templates.js';
import { runTemplate } from './helpers.js';

const b64 = (parts: number[][]): string =>
  Buffer.from(encodeShapeBlob(parts.map((p) => Float64Array.from(p)))).toString('base64');

function mapTemplate(layerAttrs: string, shapes: string, dictionary = '<Dictionary/>', mapAttrs = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report>${dictionary}
  <ReportPage Name="Page1">
    <ReportTitleBand Name="T" Width="718.2" Height="300">
      <MapObject Name="M" Left="10" Top="20" Width="200" Height="100" MercatorProjection="false" ${mapAttrs}>
        <MapLayer Name="L" Type="Polygon" BoxAsString="0,0,20,10" SpatialColumn="KEY" LabelColumn="NAME" ${layerAttrs}>
          ${shapes}
        </MapLayer>
      </MapObject>
    </ReportTitleBand>
  </ReportPage>
</Report>`;
}

const square = (x: number, y: number, s: number): number[] => [x, y, x, y + s, x + s, y + s, x + s, y, x, y];
const pathsOf = (r: ReturnType<typeof runTemplate>): PreparedPath[] =>
  (r.prepared.pages[0]?.items ?? []).filter((i): i is PreparedPath => i.kind === 'path');
const numbers = (d: string): number[] => d.match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];

describe('MapObject with embedded shapes', () => {
  it('projects the box onto the object: 10 px a degree here, y down from the top', () => {
    const r = runTemplate(
      mapTemplate(
        'Palette="None" DefaultShapeStyle.FillColor="Orange"',
        `<ShapePolygon Name="P1" ShapeData="${b64([square(2, 2, 4)])}" SpatialData="KEY=A&#13;&#10;NAME=Alpha"/>
         <ShapePolyLine Name="R1" ShapeData="${b64([[0, 5, 20, 5]])}" SpatialData="KEY=R"/>
         <ShapePoint Name="X1" X="15" Y="5" SpatialData="KEY=X"/>`,
      ),
    );
    expect(r.warnings).toEqual([]);
    const [poly, line, point] = pathsOf(r);
    // Scale min(200/20, 100/10) = 10; (lon, lat) → (10 + 10·lon, 20 + 10·(10 − lat)) on the band,
    // the path's numbers relative to the object's box (10, 20).
    expect(poly?.name).toBe('M.L[0]=A');
    expect(poly?.fill).toEqual({ kind: 'Solid', color: { r: 255, g: 165, b: 0, a: 255 } });
    expect(numbers(poly?.d ?? '')).toEqual([20, 80, 20, 40, 60, 40, 60, 80, 20, 80]);
    expect(line?.closed).toBe(false);
    expect(numbers(line?.d ?? '')).toEqual([0, 50, 200, 50]);
    expect(point?.name).toBe('M.L[2]=X');
    const pts = numbers(point?.d ?? '');
    // A circle of PointSize 10 about (150, 50): its rightmost and leftmost points.
    expect(pts.slice(0, 2)).toEqual([155, 50]);
    expect(Math.min(...pts.filter((_, i) => i % 2 === 0))).toBe(145);
    expect(point?.d).toMatch(/^M[^a-y]*[zZ]$/);
  });

  it('clips what reaches outside the object and strokes no false edge', () => {
    const r = runTemplate(
      mapTemplate('', `<ShapePolygon Name="P1" ShapeData="${b64([square(15, 2, 10)])}" SpatialData="KEY=B"/>`),
    );
    const [fill, outline] = pathsOf(r);
    expect(fill?.name).toBe('M.L[0]=B');
    expect(fill?.lineWidth).toBe(0);
    expect(Math.max(...numbers(fill?.d ?? '').filter((_, i) => i % 2 === 0))).toBeCloseTo(200, 6);
    expect(outline?.name).toBe('M.L[0]=B.outline');
    expect(outline?.closed).toBe(false);
    for (const [i, v] of numbers(outline?.d ?? '').entries()) expect(v).toBeLessThanOrEqual(i % 2 === 0 ? 200 : 100);
  });

  it('colours shapes from a data source and names the largest in its label only when it fits', () => {
    const dictionary = `<Dictionary><TableDataSource Name="S" ReferenceName="S" DataType="System.Int32" Enabled="true">
      <Column Name="K" DataType="System.String"/><Column Name="V" DataType="System.Double"/>
      </TableDataSource></Dictionary>`;
    const r = runTemplate(
      mapTemplate(
        'DataSource="S" SpatialValue="[S.K]" AnalyticalValue="[S.V]" Function="Avg" ColorRanges.StartColor="Blue" ' +
          'ColorRanges.MiddleColor="Transparent" ColorRanges.EndColor="Red" ' +
          'ColorRanges.RangesAsString="Transparent;NaN;NaN&#13;&#10;Transparent;NaN;NaN"',
        `<ShapePolygon Name="P1" ShapeData="${b64([square(1, 1, 8)])}" SpatialData="KEY=A&#13;&#10;NAME=Alpha"/>
         <ShapePolygon Name="P2" ShapeData="${b64([square(11, 1, 0.5)])}" SpatialData="KEY=B&#13;&#10;NAME=Beta"/>`,
        dictionary,
      ),
      {
        tables: {
          S: [
            { K: 'A', V: 10 },
            { K: 'A', V: 30 },
            { K: 'B', V: 100 },
          ],
        },
      },
    );
    const [a, b] = pathsOf(r).filter((p) => p.name.startsWith('M.L['));
    // Avg: A 20, B 100 → ranges [20, 60) blue, [60, 100.1) red.
    expect(a?.fill).toEqual({ kind: 'Solid', color: { r: 0, g: 0, b: 255, a: 255 } });
    expect(b?.fill).toEqual({ kind: 'Solid', color: { r: 255, g: 0, b: 0, a: 255 } });
    const labels = (r.prepared.pages[0]?.items ?? []).filter((i) => i.kind === 'text' && i.name.endsWith('.label'));
    expect(labels.map((l) => (l.kind === 'text' ? l.text : ''))).toEqual(['Alpha']);
  });

  it('refuses a ShapeData blob whose counts it does not hold', () => {
    const bad = Buffer.from(encodeShapeBlob([Float64Array.from(square(0, 0, 1))]));
    bad.writeInt32LE(1 << 30, 36);
    expect(() =>
      runTemplate(mapTemplate('', `<ShapePolygon Name="P1" ShapeData="${bad.toString('base64')}"/>`)),
    ).toThrow(TemplateError);
  });
});

describe('CsvDataConnection', () => {
  it('reads the CSV text the caller supplies for a table it does not store', () => {
    const template = csvTemplate('people.csv', '[people.Name] [people.Age]');
    const r = runTemplate(template, { tables: { people: 'Name,Age\n"Doe, Jane",41\nRoe,7\n' as never } });
    const texts = (r.prepared.pages[0]?.items ?? [])
      .filter((i) => i.kind === 'text')
      .map((t) => (t.kind === 'text' ? t.text : ''));
    expect(texts).toEqual(['Doe, Jane 41', 'Roe 7']);
    expect(r.warnings.filter((w) => /CsvDataConnection|people\.csv/.test(w))).toEqual([
      'C: the CSV file "people.csv" cannot be read beside the template; its tables read the supplied data',
    ]);
  });
});

describe('MapObject with hostile shapes', () => {
  it('leaves out coordinates that are not numbers', () => {
    const r = runTemplate(
      mapTemplate('', `<ShapePolygon Name="P1" ShapeData="${b64([[1, 1, Number.NaN, 5, 1, 5, 5, 5, 5, 1]])}"/>`),
    );
    const [poly] = pathsOf(r);
    expect(poly?.d).not.toMatch(/NaN|Infinity/);
    expect(numbers(poly?.d ?? '')).toHaveLength(8);
  });
});
