// Renders FastReport demos to PDF (as demo-census.ts does) and draws their first pages as PNG
// with poppler's pdftoppm, to look at:
//
//   npx tsx scripts/demo-pages.ts [--out test-output/demos] [--pages N] [--dpi 72] [--maps <dir>] "Chart.frx" …
//
// Writes <out>/<demo>.pdf and <out>/<demo>-<page>.png (pages 1…N, default 1).

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DemoCensus } from './demo-census.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = args[i + 1] ?? fallback;
  args.splice(i, 2);
  return v;
};
const out = option('--out', 'test-output/demos');
const pages = Number(option('--pages', '1'));
const dpi = option('--dpi', '72');
const census = new DemoCensus(option('--maps', process.env.DEMO_MAPS_DIR ?? '') || undefined);

mkdirSync(out, { recursive: true });
for (const name of args) {
  const r = census.render(name, 'pdf');
  const base = join(out, name.replace(/\.frx$/, '').replace(/[^\w.-]+/g, '_'));
  writeFileSync(`${base}.pdf`, r.output);
  execFileSync('pdftoppm', ['-png', '-r', dpi, '-f', '1', '-l', String(pages), `${base}.pdf`, base]);
  const warnings = r.warnings.length > 0 ? `\n  warnings: ${r.warnings.join('\n  ')}` : '';
  console.log(`${name}: ${r.pages} pages → ${base}-*.png${warnings}`);
}
