// CellularTextObject and ZipCodeObject, by FastReport's rules: a character per cell
// (cell size from the font, lines broken at the grid's width, rows aligned by whole cells), and
// ZIP codes as segment digits over dot grids, sized by their segments.

import { describe, expect, it } from 'vitest';
import type { PreparedPath, PreparedReport, PreparedText } from '../../../src/report/engine/prepared.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { runTemplate } from './helpers.js';

const page = (objects: string, dict = ''): string =>
  `<Report><Dictionary>${dict}</Dictionary><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" ` +
  `Height="400">${objects}</ReportTitleBand></ReportPage></Report>`;

/** A cellular text's rows as strings (a space for an empty cell), from its cells' positions. */
function rows(r: PreparedReport, name: string): string[] {
  const cells = r.pages[0]?.items.filter((i): i is PreparedText => i.kind === 'text' && i.name === name) ?? [];
  const ys = [...new Set(cells.map((c) => c.y))].sort((a, b) => a - b);
  return ys.map((y) =>
    cells
      .filter((c) => c.y === y)
      .sort((a, b) => a.x - b.x)
      .map((c) => c.text || ' ')
      .join(''),
  );
}

describe('CellularTextObject', () => {
  const cellular = (attrs: string) =>
    `<CellularTextObject Name="C" Width="283.5" Height="85.05" Font="Arial, 14pt" ${attrs}/>`;

  it('sizes cells from the font (Arial 14 pt: 28.35 px, 0.75 cm) and breaks lines at the last space', () => {
    const r = runTemplate(page(cellular('Text="Text with WordWrap"'))).prepared;
    expect(rows(r, 'C')).toEqual(['Text with ', 'WordWrap  ', '          ']);
    const cell = r.pages[0]?.items.find((i) => i.name === 'C');
    expect(cell?.width).toBeCloseTo(28.35, 9);
    expect(cell?.height).toBeCloseTo(28.35, 9);
    expect(cell).toMatchObject({ border: { lines: { left: true, bottom: true } } });
  });

  it('cuts words without WordWrap and aligns each row by whole cells', () => {
    expect(rows(runTemplate(page(cellular('Text="Text without WordWrap" WordWrap="false"'))).prepared, 'C')).toEqual([
      'Text witho',
      'ut WordWra',
      'p         ',
    ]);
    expect(rows(runTemplate(page(cellular('Text="abc" HorzAlign="Right"'))).prepared, 'C')[0]).toBe('       abc');
    expect(rows(runTemplate(page(cellular('Text="abc" HorzAlign="Center"'))).prepared, 'C')[0]).toBe('   abc    ');
  });

  it('takes given cell sizes and spacing, and grows to the rows its text needs', () => {
    const r = runTemplate(
      page(
        `<CellularTextObject Name="C" Width="100" Height="20" CanGrow="true" CellWidth="20" CellHeight="20" ` +
          `HorzSpacing="5" VertSpacing="4" Text="abcdefghij"/>`,
      ),
    ).prepared;
    // (100 + 5 + 1) / 25: 4 columns; 10 characters: 3 rows, 3 × 20 + 2 × 4 high.
    expect(rows(r, 'C')).toEqual(['abcd', 'efgh', 'ij  ']);
    const cells = r.pages[0]?.items.filter((i) => i.name === 'C') ?? [];
    expect((cells[1]?.x ?? 0) - (cells[0]?.x ?? 0)).toBe(25);
    expect(Math.max(...cells.map((c) => c.y + c.height)) - Math.min(...cells.map((c) => c.y))).toBe(68);
  });
});

describe('CellularTextObject limits', () => {
  it('prints at most 10,000 cells of a huge grid, with a warning, and ends at once', () => {
    const started = Date.now();
    const r = runTemplate(
      page('<CellularTextObject Name="C" Width="700" Height="400" CellWidth="0.01" CellHeight="0.01" Text="x"/>'),
    );
    expect(r.prepared.pages[0]?.items.filter((i) => i.name === 'C').length).toBeLessThanOrEqual(10_000);
    expect(r.warnings.join('\n')).toMatch(/C: only the first \d+ of its \d+ cells are printed/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('ZipCodeObject', () => {
  const paths = (r: PreparedReport, name: string) =>
    r.pages[0]?.items.filter((i): i is PreparedPath => i.kind === 'path' && i.name === name) ?? [];

  it('sizes itself from its segments and draws each digit over a grid of 42 dots', () => {
    const r = runTemplate(page('<ZipCodeObject Name="Z" Width="10" Height="10" Text="10"/>')).prepared;
    const [dots, strokes] = paths(r, 'Z');
    // Marker + 6 segments of 0.9 cm; 1 cm + 4 mm of marker + the 3 px border.
    expect(dots).toMatchObject({ width: 7 * 34.02, height: 37.8 + 4 * 3.78 + 3, closed: true });
    // The start marker's two bars and each segment's marker bar (a rectangle has one "v"), then a
    // grid per segment (a dot is two arcs).
    expect((dots?.d.match(/v/g) ?? []).length).toBe(2 + 6);
    expect((dots?.d.match(/a/g) ?? []).length).toBe(6 * 42 * 2);
    // "10" padded to six digits: 0000 10; a "1" is three points, a "0" five.
    const lines = strokes?.d.split('M').filter(Boolean) ?? [];
    expect(lines.map((l) => l.split('L').length)).toEqual([5, 5, 5, 5, 3, 5]);
    expect(strokes).toMatchObject({ lineWidth: 3, round: true, closed: false });
    // The "1" of the fifth segment starts at its (0, 5 mm): 5 × 0.9 cm + 1 mm across, 4 + 5 mm down.
    expect(
      lines[4]?.startsWith(`${Math.round((5 * 34.02 + 3.78) * 1000) / 1000} ${Math.round(9 * 3.78 * 1000) / 1000}`),
    ).toBe(true);
  });

  it('takes its text from a data column or an expression', () => {
    const r = runTemplate(
      page(
        '<ZipCodeObject Name="Z" Expression="[P] + 1" SegmentCount="3" ShowMarkers="false" ShowGrid="false"/>',
        '<Parameter Name="P" DataType="System.Int32" Expression="41"/>',
      ),
    ).prepared;
    const strokes = paths(r, 'Z')[0];
    // "042": 0 (5 points), 4 (5), 2 (5).
    expect(strokes?.d.split('M').filter(Boolean)).toHaveLength(3);
    expect(paths(r, 'Z')[0]?.width).toBeCloseTo(3 * 34.02, 5);
  });
});

describe('the ZipCode and CellularText demos', () => {
  it('print with no warning, each ZIP code at the size FastReport stored for it', () => {
    for (const demo of ['ZipCode', 'CellularText']) {
      const xml = demoFile(`Reports/${demo}.frx`);
      const { prepared, warnings } = runTemplate(xml);
      expect(warnings).toEqual([]);
      if (demo !== 'ZipCode') continue;
      for (const m of xml
        .toString('utf8')
        .matchAll(/<ZipCodeObject Name="(\w+)"[^>]*?Width="([\d.]+)" Height="([\d.]+)"/g)) {
        const first = prepared.pages[0]?.items.find((i) => i.name === m[1]);
        expect(first?.width).toBeCloseTo(Number(m[2]), 2);
        expect(first?.height).toBeCloseTo(Number(m[3]), 2);
      }
    }
  });
});
