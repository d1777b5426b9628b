// MapObject and the CSV connection of FastReport's map demos ("The USA Map", "Sales in the USA",
// in test/fixtures/fastreport), with the substitute US states shapefile written to a temp
// folder from us-atlas (test/support/us-states-shapefile.ts); and maps with embedded shapes.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportWarnings } from '../../../src/report/errors.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import type { PreparedPath } from '../../../src/report/engine/prepared.js';
import { bindReportData } from '../../../src/report/engine/index.js';
import { renderReport } from '../../../src/report/render.js';
import { writeUsStatesShapefile } from '../../support/us-states-shapefile.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { FIXED_NOW, NWIND_TEXT, nwindDataSet, nwindRows, runLoaded } from './helpers.js';

const SALES = 'Reports/Sales in the USA.frx';
const USA = 'Reports/The USA Map.frx';

const mapsDir = mkdtempSync(join(tmpdir(), 'maps-'));
afterAll(() => rmSync(mapsDir, { recursive: true, force: true }));
let written = false;

/** The demos' resource reader: "../Maps/x" is the temp folder's x. */
function demoResource(relative: string): Buffer | undefined {
  if (!written) {
    writeUsStatesShapefile(mapsDir);
    written = true;
  }
  const path = posix.normalize(posix.join('Demos/Reports', relative));
  if (!path.startsWith('Demos/Maps/')) return undefined;
  try {
    return readFileSync(join(mapsDir, path.slice('Demos/Maps/'.length)));
  } catch {
    return undefined;
  }
}

const paths = (items: readonly { kind: string }[]): PreparedPath[] =>
  items.filter((i): i is PreparedPath => i.kind === 'path');

describe('Sales in the USA', () => {
  it('reads its stored CSV table (51 rows, Alabama first) without opening the connection', () => {
    const { report, warnings } = loadFrx(demoFile(SALES), { resource: demoResource });
    expect(warnings).toEqual([]);
    const w = new ReportWarnings();
    const data = bindReportData(report.dictionary, { datasets: { NorthWind: nwindDataSet() } }, w);
    expect(w.list).toEqual([]);
    const states = data.findSource('state_table_csv');
    expect(states?.count).toBe(51);
    states?.first();
    const row = (col: string) => states?.columnValue(col).value;
    expect([row('ID'), row('NAME'), row('ABBREVIATION'), row('FIPS_STATE'), row('ASSOC_PRESS')]).toEqual([
      1,
      'Alabama',
      'AL',
      1,
      'Ala.',
    ]);
    expect([row('STANDARD_FEDERAL_REGION'), row('CENSUS_REGION'), row('CENSUS_REGION_NAME')]).toEqual([
      'IV',
      3,
      'South',
    ]);
    expect([row('CENSUS_DIVISION'), row('CENSUS_DIVISION_NAME'), row('CIRCUIT_COURT')]).toEqual([
      6,
      'East South Central',
      11,
    ]);
  });

  it('colours each state by its sales (DodgerBlue → Yellow → Red over ten ranges)', () => {
    const { report, warnings } = loadFrx(demoFile(SALES), { resource: demoResource });
    const run = runLoaded(report, { datasets: { NorthWind: nwindDataSet() } }, {}, warnings);
    expect(run.warnings).toEqual([]);

    // Sales per state, independently: Orders shipped to the USA, by ShipRegion.
    const region = new Map(
      nwindRows('Orders')
        .filter((o) => o.ShipCountry === 'USA')
        .map((o) => [o.OrderID, o.ShipRegion]),
    );
    const sales = new Map<string, number>();
    for (const d of nwindRows('Order_x0020_Details')) {
      const r = region.get(d.OrderID as string);
      if (r) sales.set(r, (sales.get(r) ?? 0) + Number(d.UnitPrice) * Number(d.Quantity) * (1 - Number(d.Discount)));
    }
    const min = Math.min(...sales.values());
    const max = Math.max(...sales.values());
    const c = (r: number, g: number, b: number) => ({ r, g, b });
    const mix = (a: ReturnType<typeof c>, b: ReturnType<typeof c>, p: number) =>
      c(a.r + (b.r - a.r) * p, a.g + (b.g - a.g) * p, a.b + (b.b - a.b) * p);
    const [blue, yellow, red] = [c(30, 144, 255), c(255, 255, 0), c(255, 0, 0)];
    const colorOf = (v: number) => {
      const k = Math.min(9, Math.floor(((v - min) / (max - min)) * 10));
      return k <= 5 ? mix(blue, yellow, k / 5) : mix(yellow, red, (k - 5) / 4);
    };

    const fills = paths(run.prepared.pages[0]?.items ?? []).filter((p) =>
      /^Map1\.Layer2\[\d+\]=[A-Z]{2}$/.test(p.name),
    );
    expect(fills).toHaveLength(49);
    let checked = 0;
    for (const p of fills) {
      const abbrev = p.name.slice(-2);
      const value = sales.get(abbrev);
      if (value === undefined) continue;
      const want = colorOf(value);
      const got = p.fill.kind === 'Solid' ? p.fill.color : undefined;
      for (const k of ['r', 'g', 'b'] as const)
        expect(Math.abs((got?.[k] ?? -9) - want[k]), `${abbrev} ${k}`).toBeLessThanOrEqual(1.5);
      checked++;
    }
    expect(checked).toBe(48); // every state drawn but DC has sales
    expect(fills.find((p) => p.name.endsWith('=TX'))?.fill).toEqual({ kind: 'Solid', color: { ...red, a: 255 } });

    // The colour scale: ten swatches and eleven limits, the first the minimum, the last max + 0.1.
    const items = run.prepared.pages[0]?.items ?? [];
    expect(paths(items).filter((p) => p.name.startsWith('Map1.ColorScale.range['))).toHaveLength(10);
    const limits = items.filter((i) => i.kind === 'text' && i.name.startsWith('Map1.ColorScale.value['));
    expect(limits.map((t) => (t.kind === 'text' ? t.text : ''))).toEqual(
      Array.from({ length: 11 }, (_, i) => String(Math.round(min + ((max - min) / 10) * i + (i === 10 ? 0.1 : 0)))),
    );
  });
});

describe('Sales in the USA drill-down', () => {
  it("links each state to its hidden detail page, run with the state's abbreviation", () => {
    const loaded = loadFrx(demoFile(SALES), { resource: demoResource });
    const r = renderReport({ template: loaded, data: { datasetXml: NWIND_TEXT }, format: 'html', now: FIXED_NOW });
    expect(r.warnings).toEqual([]);
    const pages = r.prepared.pages;
    const texas = paths(pages[0]?.items ?? []).find((p) => p.name.endsWith('=TX'));
    expect(texas?.hyperlink?.kind).toBe('page');
    const target = pages[Number(texas?.hyperlink?.target) - 1];
    const titles = (target?.items ?? []).filter((i) => i.kind === 'text').map((t) => (t.kind === 'text' ? t.text : ''));
    expect(titles).toContain('Sales in Texas');
  });
});

describe('The USA Map', () => {
  it('draws the states inside the map object, labelled', () => {
    const { report, warnings } = loadFrx(demoFile(USA), { resource: demoResource });
    const run = runLoaded(report, {}, {}, warnings);
    expect(run.warnings).toEqual([]);
    const items = run.prepared.pages[0]?.items ?? [];
    const map = items.find((i) => i.name === 'Map1');
    expect(map?.kind === 'box' && map.fill).toEqual({ kind: 'Solid', color: { r: 220, g: 220, b: 220, a: 255 } });
    const states = paths(items).filter((p) => p.name.startsWith('Map1.Layer2['));
    expect(states.length).toBeGreaterThanOrEqual(49);
    // Every vertex inside the object (relative path coordinates within its box).
    for (const p of states) {
      const nums = p.d.match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
      for (let i = 0; i < nums.length; i += 2) {
        expect(nums[i]).toBeGreaterThanOrEqual(-0.001);
        expect(nums[i]).toBeLessThanOrEqual(p.width + 0.001);
        expect(nums[i + 1]).toBeGreaterThanOrEqual(-0.001);
        expect(nums[i + 1]).toBeLessThanOrEqual(p.height + 0.001);
      }
    }
    const labels = items
      .filter((i) => i.kind === 'text' && i.name.endsWith('.label'))
      .map((t) => (t.kind === 'text' ? t.text : ''));
    expect(labels).toContain('Texas');
    expect(labels).toContain('Montana');
    expect(labels).not.toContain('Rhode Island'); // too small for its name
  });

  it('without its shapefile: the background and frame, one warning naming the file, no placeholder', () => {
    const { report, warnings } = loadFrx(demoFile(USA), { resource: () => undefined });
    const run = runLoaded(report, {}, {}, warnings);
    expect(run.warnings).toEqual([
      'MapObject "Map1": the shapefile "..\\Maps\\usa1.shp" cannot be found; the map is drawn without its shapes',
    ]);
    const items = run.prepared.pages[0]?.items ?? [];
    expect(items.filter((i) => i.name.startsWith('Map1')).map((i) => `${i.kind} ${i.name}`)).toEqual([
      'box Map1',
      'box Map1.Border',
    ]);
    expect(items.some((i) => i.kind === 'box' && i.unsupported)).toBe(false);
  });
});
