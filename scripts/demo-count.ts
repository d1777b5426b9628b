// Counts the FastReport demos that render complete: every report of FastReport's Demos/Reports
// (read from a local git mirror of FastReports/FastReport, never copied here) rendered to HTML on
// nwind.xml. "Complete" = no error, no placeholder box for an object the engine does not draw, and
// no warning beyond a substituted font or a 3-D chart "drawn flat".
//
//   npx tsx scripts/demo-count.ts [--only <substring>] [--verbose] [--json] [--maps <dir>]
//
// --maps (or DEMO_MAPS_DIR) names the folder of the shapefiles the map demos name as
// "..\Maps\usa1.shp" (FastReport's Demos/Maps, which its public repository does not have); write
// a substitute there with `npx tsx scripts/us-states-shapefile.ts <dir>`.
//
// FASTREPORT_REPO names the mirror's git directory (default: the fetch tool's place);
// SHARED_DIR the folder holding fixtures/fastreport/nwind.xml (default ../shared).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { loadDataSetXml } from '../src/report/data/index.js';
import { loadFrx } from '../src/report/frx/index.js';
import { renderReport } from '../src/report/render.js';

const REPO = process.env.FASTREPORT_REPO || '/work/.mirror/FastReports+FastReport/repo';
const SHARED = process.env.SHARED_DIR || join(import.meta.dirname, '..', '..', 'shared');
const DEMOS = 'Demos/Reports/';

/** Warnings a complete demo may still carry. */
const ALLOWED_WARNINGS = [/^font ".*" is not available/, /drawn flat/];

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const verbose = args.includes('--verbose');
const asJson = args.includes('--json');
const mapsDir = args.includes('--maps') ? args[args.indexOf('--maps') + 1] : process.env.DEMO_MAPS_DIR;

const git = (...a: string[]): Buffer =>
  execFileSync('git', ['--git-dir', REPO, ...a], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
const mirrorFile = (path: string): Buffer => git('show', `HEAD:${path}`);

/** A file a demo names beside it ("../Maps/usa1.shp"): Demos/Maps/* from --maps, else the mirror. */
function demoResource(relative: string): Buffer | undefined {
  const path = posix.normalize(posix.join(DEMOS, relative));
  if (mapsDir && path.startsWith('Demos/Maps/')) {
    const file = join(mapsDir, path.slice('Demos/Maps/'.length));
    return existsSync(file) ? readFileSync(file) : undefined;
  }
  try {
    return mirrorFile(path);
  } catch {
    return undefined;
  }
}

/** Another report of the demo folder (a base report, a detail report), by its relative name. */
function demoFile(name: string): Buffer | undefined {
  try {
    return mirrorFile(posix.join(DEMOS, name.replace(/\\/g, '/')));
  } catch {
    return undefined;
  }
}

const files = git('ls-tree', '--name-only', 'HEAD', DEMOS)
  .toString('utf8')
  .split('\n')
  .filter((f) => f.endsWith('.frx') && (only === undefined || f.includes(only)));

const datasetXml = readFileSync(join(SHARED, 'fixtures', 'fastreport', 'nwind.xml'), 'utf8');
const nwind = loadDataSetXml(datasetXml); // parse errors show here, not as 116 failures

/** A table of nwind.xml as plain objects. */
function objects(table: string): Record<string, unknown>[] {
  const t = nwind.tables.get(table);
  if (!t) throw new Error(`nwind.xml has no table ${table}`);
  return t.rows.map((row) => Object.fromEntries(t.columns.map((c, i) => [c.name, row[i]])));
}

/** Data a demo's own program registers besides nwind.xml: Business Objects' categories, each
 *  with its list of products, as FastReport's demo program builds them from the same data. */
function programData(name: string): Record<string, unknown[]> | undefined {
  if (name !== 'Business Objects.frx') return undefined;
  const products = objects('Products');
  return {
    'Categories BusinessObject': objects('Categories').map((c) => ({
      Name: c.CategoryName,
      Description: c.Description,
      Products: products
        .filter((p) => p.CategoryID === c.CategoryID)
        .map((p) => ({ Name: p.ProductName, UnitPrice: p.UnitPrice })),
    })),
  };
}

interface Outcome {
  name: string;
  ok: boolean;
  complete: boolean;
  pages: number;
  ms: number;
  placeholders: string[];
  warnings: string[];
  error?: string;
}

const outcomes: Outcome[] = [];
for (const file of files) {
  const name = file.slice(DEMOS.length);
  const started = performance.now();
  const o: Outcome = { name, ok: false, complete: false, pages: 0, ms: 0, placeholders: [], warnings: [] };
  try {
    const loaded = loadFrx(mirrorFile(file), { baseReport: demoFile, resource: demoResource });
    const r = renderReport({
      template: loaded,
      data: { datasetXml, ...(programData(name) ? { tables: programData(name) } : {}) },
      format: 'html',
      now: new Date(2024, 4, 17),
      detailReport: demoFile,
    });
    o.ok = true;
    o.pages = r.pages;
    o.warnings = [...new Set(r.warnings)];
    const boxes = r.prepared.pages.flatMap((p) => p.items.filter((i) => i.kind === 'box' && i.unsupported));
    o.placeholders = [...new Set(boxes.map((b) => (b.kind === 'box' ? `${b.unsupported} ${b.name}` : '')))];
  } catch (err) {
    o.error = err instanceof Error ? err.message : String(err);
  }
  o.ms = Math.round(performance.now() - started);
  const stray = o.warnings.filter((w) => !ALLOWED_WARNINGS.some((re) => re.test(w)));
  o.complete = o.ok && o.placeholders.length === 0 && stray.length === 0;
  outcomes.push(o);
  if (!asJson && (verbose || !o.complete)) {
    console.log(`${o.complete ? 'complete' : o.ok ? 'partial ' : 'FAILED  '} ${name} (${o.pages} pages, ${o.ms} ms)`);
    if (o.error) console.log(`    error: ${o.error}`);
    for (const p of o.placeholders) console.log(`    placeholder: ${p}`);
    for (const w of verbose ? o.warnings : stray) console.log(`    warning: ${w}`);
  }
}

const ok = outcomes.filter((o) => o.ok).length;
const complete = outcomes.filter((o) => o.complete).length;
if (asJson) console.log(JSON.stringify({ total: outcomes.length, ok, complete, outcomes }, null, 2));
else console.log(`\n${outcomes.length} demos: ${ok} exit 0, ${complete} complete`);
