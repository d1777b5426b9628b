// sha256 of every FastReport demo's PDF and HTML (with its page count), one demo a line, to
// compare two builds' output byte for byte:
//
//   npx tsx scripts/demo-hashes.ts [--only <substring>] > after.txt; diff before.txt after.txt
//
// Same rendering as demo-count.ts (DemoCensus: nwind.xml, a fixed date). "Dialog Elements.frx"
// differs between any two runs (its dialog shows the current time).

import { createHash } from 'node:crypto';
import { DemoCensus, demoNames } from './demo-census.js';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const census = new DemoCensus(process.env.DEMO_MAPS_DIR);
for (const name of demoNames(only)) {
  const out = (['pdf', 'html'] as const).map((format) => {
    try {
      const r = census.render(name, format);
      return `${format}=${createHash('sha256').update(r.output).digest('hex').slice(0, 16)}/${r.pages}`;
    } catch (err) {
      return `${format}=error ${err instanceof Error ? err.message.slice(0, 60) : String(err)}`;
    }
  });
  console.log(name, out.join(' '));
}
