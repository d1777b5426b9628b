// Counts the FastReport demos that render complete (see demo-census.ts for what that means):
//
//   npx tsx scripts/demo-count.ts [--only <substring>] [--verbose] [--json] [--maps <dir>]
//
// --maps (or DEMO_MAPS_DIR) names the folder of the shapefiles the map demos name as
// ..\Maps\usa1.shp (write them with `npx tsx scripts/us-states-shapefile.ts <dir>`).
// The demos and nwind.xml are those of test/fixtures/fastreport/Reports.

import { DemoCensus, demoNames } from './demo-census.js';

const args = process.argv.slice(2);
const value = (flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const verbose = args.includes('--verbose');
const asJson = args.includes('--json');
const census = new DemoCensus(value('--maps') ?? process.env.DEMO_MAPS_DIR);

const outcomes = demoNames(value('--only')).map((name) => {
  const o = census.outcome(name);
  if (!asJson && (verbose || !o.complete)) {
    console.log(`${o.complete ? 'complete' : o.ok ? 'partial ' : 'FAILED  '} ${name} (${o.pages} pages, ${o.ms} ms)`);
    if (o.error) console.log(`    error: ${o.error}`);
    for (const p of o.placeholders) console.log(`    placeholder: ${p}`);
    for (const w of verbose ? o.warnings : o.stray) console.log(`    warning: ${w}`);
  }
  return o;
});

const ok = outcomes.filter((o) => o.ok).length;
const complete = outcomes.filter((o) => o.complete).length;
if (asJson) console.log(JSON.stringify({ total: outcomes.length, ok, complete, outcomes }, null, 2));
else console.log(`\n${outcomes.length} demos: ${ok} exit 0, ${complete} complete`);
