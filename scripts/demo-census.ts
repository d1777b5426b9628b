// FastReport's demo reports as a measure of the report engine: every report of its
// Demos/Reports (copied into test/fixtures/fastreport/Reports, with FastReport's licence),
// rendered on nwind.xml the way FastReport's demo program runs it (its business objects built
// from the same data; a base or detail report read beside the demo; the shapefiles the map demos
// name, from a folder of your own since the public repository has none).
//
// "Complete" = it renders, no object is left as a placeholder box, and no warning remains beyond a
// substituted font or a 3-D chart "drawn flat". Used by demo-count.ts, demo-pages.ts and
// test/report/engine/demo-census.test.ts.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { loadDataSetXml } from '../src/report/data/index.js';
import { loadFrx } from '../src/report/frx/index.js';
import { renderReport, type RenderResult } from '../src/report/render.js';

/** FastReport's Demos folder as copied here: Reports/ holds the demos and nwind.xml. */
const FASTREPORT_DIR = join(import.meta.dirname, '..', 'test', 'fixtures', 'fastreport');
const DEMOS = 'Reports/';

/** Warnings a complete demo may still carry. */
export const ALLOWED_WARNINGS: readonly RegExp[] = [/^font ".*" is not available/, /drawn flat/];

export interface DemoOutcome {
  name: string;
  ok: boolean;
  complete: boolean;
  pages: number;
  ms: number;
  placeholders: string[];
  warnings: string[];
  /** The warnings beyond the allowed ones. */
  stray: string[];
  error?: string;
}

/** A file of the copied Demos folder by its posix path there ("Reports/Barcode.frx"); undefined
 *  when it is missing or the path leaves the folder. */
function fastReportFile(path: string): Buffer | undefined {
  const normal = posix.normalize(path);
  if (normal.startsWith('../') || normal === '..' || posix.isAbsolute(normal)) return undefined;
  const file = join(FASTREPORT_DIR, ...normal.split('/'));
  return existsSync(file) ? readFileSync(file) : undefined;
}

/** The demos' file names (Reports/*.frx), those holding `only` when given. */
export function demoNames(only?: string): string[] {
  return readdirSync(join(FASTREPORT_DIR, DEMOS))
    .filter((f) => f.endsWith('.frx') && (only === undefined || f.includes(only)))
    .sort();
}

export class DemoCensus {
  private readonly datasetXml: string;
  private readonly nwind;

  /** `mapsDir`: where usa1.shp and usa1.dbf are (scripts/us-states-shapefile.ts writes them). */
  constructor(private readonly mapsDir?: string) {
    this.datasetXml = readFileSync(join(FASTREPORT_DIR, DEMOS, 'nwind.xml'), 'utf8');
    this.nwind = loadDataSetXml(this.datasetXml);
  }

  /** Renders one demo (by file name) to a format. */
  render(name: string, format: 'html' | 'pdf'): RenderResult {
    const template = fastReportFile(DEMOS + name);
    if (!template) throw new Error(`no demo ${name}`);
    const loaded = loadFrx(template, {
      baseReport: this.demoFile,
      resource: this.resource,
    });
    const tables = this.programData(name);
    return renderReport({
      template: loaded,
      data: { datasetXml: this.datasetXml, ...(tables ? { tables } : {}) },
      format,
      now: new Date(2024, 4, 17),
      detailReport: this.demoFile,
    });
  }

  /** Renders one demo to HTML and says whether it is complete. */
  outcome(name: string): DemoOutcome {
    const started = performance.now();
    const o: DemoOutcome = {
      name,
      ok: false,
      complete: false,
      pages: 0,
      ms: 0,
      placeholders: [],
      warnings: [],
      stray: [],
    };
    try {
      const r = this.render(name, 'html');
      o.ok = true;
      o.pages = r.pages;
      o.warnings = [...new Set(r.warnings)];
      const boxes = r.prepared.pages.flatMap((p) => p.items.filter((i) => i.kind === 'box' && i.unsupported));
      o.placeholders = [...new Set(boxes.map((b) => (b.kind === 'box' ? `${b.unsupported} ${b.name}` : '')))];
    } catch (err) {
      o.error = err instanceof Error ? err.message : String(err);
    }
    o.ms = Math.round(performance.now() - started);
    o.stray = o.warnings.filter((w) => !ALLOWED_WARNINGS.some((re) => re.test(w)));
    o.complete = o.ok && o.placeholders.length === 0 && o.stray.length === 0;
    return o;
  }

  /** Another report of the demo folder (a base report, a detail report), by its relative name. */
  private readonly demoFile = (name: string): Buffer | undefined =>
    fastReportFile(posix.join(DEMOS, name.replace(/\\/g, '/')));

  /** A file a demo names beside it ("../Maps/usa1.shp"): Demos/Maps/* from the maps folder. */
  private readonly resource = (relative: string): Buffer | undefined => {
    const path = posix.normalize(posix.join(DEMOS, relative));
    if (this.mapsDir && path.startsWith('Maps/')) {
      const file = join(this.mapsDir, path.slice('Maps/'.length));
      return existsSync(file) ? readFileSync(file) : undefined;
    }
    return fastReportFile(path);
  };

  /** A table of nwind.xml as plain objects. */
  private objects(table: string): Record<string, unknown>[] {
    const t = this.nwind.tables.get(table);
    if (!t) throw new Error(`nwind.xml has no table ${table}`);
    return t.rows.map((row) => Object.fromEntries(t.columns.map((c, i) => [c.name, row[i]])));
  }

  /** Data a demo's own program registers besides nwind.xml: Business Objects' categories, each
   *  with its list of products, as FastReport's demo program builds them from the same data. */
  private programData(name: string): Record<string, unknown[]> | undefined {
    if (name !== 'Business Objects.frx') return undefined;
    const products = this.objects('Products');
    return {
      'Categories BusinessObject': this.objects('Categories').map((c) => ({
        Name: c.CategoryName,
        Description: c.Description,
        Products: products
          .filter((p) => p.CategoryID === c.CategoryID)
          .map((p) => ({ Name: p.ProductName, UnitPrice: p.UnitPrice })),
      })),
    };
  }
}
