// Renders FastReport demos (read from the local mirror of FastReports/FastReport) to PDF on
// nwind.xml and draws their first pages as PNG with poppler's pdftoppm, to look at:
//
//   npx tsx scripts/demo-pages.ts [--out test-output/demos] [--pages N] [--dpi 72] "Chart.frx" …
//
// Writes <out>/<demo>.pdf and <out>/<demo>-<page>.png (pages 1…N, default 1).

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { loadFrx } from '../src/report/frx/index.js';
import { renderReport } from '../src/report/render.js';

const REPO = process.env.FASTREPORT_REPO || '/work/.mirror/FastReports+FastReport/repo';
const SHARED = process.env.SHARED_DIR || join(import.meta.dirname, '..', '..', 'shared');
const DEMOS = 'Demos/Reports/';

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

const mirrorFile = (path: string): Buffer =>
  execFileSync('git', ['--git-dir', REPO, 'show', `HEAD:${path}`], { maxBuffer: 256 * 1024 * 1024 });
const demoFile = (name: string): Buffer | undefined => {
  try {
    return mirrorFile(posix.join(DEMOS, name.replace(/\\/g, '/')));
  } catch {
    return undefined;
  }
};

const datasetXml = readFileSync(join(SHARED, 'fixtures', 'fastreport', 'nwind.xml'), 'utf8');
mkdirSync(out, { recursive: true });
for (const name of args) {
  const template = loadFrx(mirrorFile(DEMOS + name), { baseReport: demoFile });
  const r = renderReport({
    template,
    data: { datasetXml },
    format: 'pdf',
    now: new Date(2024, 4, 17),
    detailReport: demoFile,
  });
  const base = join(out, name.replace(/\.frx$/, '').replace(/[^\w.-]+/g, '_'));
  writeFileSync(`${base}.pdf`, r.output);
  execFileSync('pdftoppm', ['-png', '-r', dpi, '-f', '1', '-l', String(pages), `${base}.pdf`, base]);
  console.log(
    `${name}: ${r.pages} pages → ${base}-*.png${r.warnings.length ? `\n  warnings: ${r.warnings.join('\n  ')}` : ''}`,
  );
}
